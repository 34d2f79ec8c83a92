// SPDX-License-Identifier: GPL-2.0
/*
 * Raw image files: the flash's contents, loaded at start and saved at a
 * power cut or exit, so that another flashemu can serve them.  See
 * image_load / image_save in flashemu.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "flashemu.h"

/* pread / pwrite all of it, or -errno (-EIO for a short file). */
static int full_io(int fd, void *buf, size_t len, off_t off, int wr)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = wr ? pwrite(fd, p, len, off) : pread(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

int image_load(struct emu_store *s, const char *path)
{
	uint8_t *buf = NULL;
	struct stat st;
	uint64_t off;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if ((uint64_t)st.st_size != s->size) {
		ret = -EINVAL;
		goto out;
	}
	buf = malloc(STORE_CHUNK);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	/* store_write keeps all-zero chunks unallocated */
	for (off = 0; off < s->size && !ret; off += STORE_CHUNK) {
		size_t n = s->size - off < STORE_CHUNK ? s->size - off :
			   STORE_CHUNK;

		ret = full_io(fd, buf, n, (off_t)off, 0);
		if (!ret)
			ret = store_write(s, off, buf, n);
	}
out:
	free(buf);
	close(fd);
	return ret;
}

static int image_write_fd(const struct emu_store *s, int fd)
{
	uint64_t i;
	int ret;

	if (ftruncate(fd, (off_t)s->size))
		return -errno;
	for (i = 0; i < s->nr_chunks; i++) {
		uint64_t off = i << STORE_CHUNK_SHIFT;
		size_t n = s->size - off < STORE_CHUNK ? s->size - off :
			   STORE_CHUNK;

		if (!s->chunk[i])
			continue;
		ret = full_io(fd, s->chunk[i], n, (off_t)off, 1);
		if (ret)
			return ret;
	}
	return fdatasync(fd) ? -errno : 0;
}

int image_save(const struct emu_store *s, const char *path)
{
	char *tmp;
	int fd, ret;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = image_write_fd(s, fd);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(tmp);
	return ret;
}
