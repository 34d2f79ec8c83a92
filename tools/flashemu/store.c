// SPDX-License-Identifier: GPL-2.0
/*
 * Sparse RAM store: the emulated card's data, 64 KiB chunks allocated on
 * the first non-zero write.  See struct emu_store in flashemu.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flashemu.h"

int store_init(struct emu_store *s, uint64_t size)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->nr_chunks = (size + STORE_CHUNK - 1) >> STORE_CHUNK_SHIFT;
	if (!s->nr_chunks)
		return 0;
	s->chunk = calloc(s->nr_chunks, sizeof(*s->chunk));
	return s->chunk ? 0 : -ENOMEM;
}

void store_free(struct emu_store *s)
{
	uint64_t i;

	for (i = 0; i < s->nr_chunks; i++)
		free(s->chunk[i]);
	free(s->chunk);
	memset(s, 0, sizeof(*s));
}

static int store_range_ok(const struct emu_store *s, uint64_t off,
			  uint64_t len)
{
	return off <= s->size && len <= s->size - off;
}

static int all_zero(const uint8_t *p, uint64_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		if (*p)
			return 0;
		p++;
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		if (v)
			return 0;
		p += 8;
		len -= 8;
	}
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

int store_read(const struct emu_store *s, uint64_t off, void *buf, uint64_t len)
{
	uint8_t *dst = buf;

	if (!store_range_ok(s, off, len))
		return -EINVAL;
	while (len) {
		uint64_t idx = off >> STORE_CHUNK_SHIFT;
		uint64_t in = off & (STORE_CHUNK - 1);
		uint64_t n = STORE_CHUNK - in;

		if (n > len)
			n = len;
		if (s->chunk[idx])
			memcpy(dst, s->chunk[idx] + in, n);
		else
			memset(dst, 0, n);
		dst += n;
		off += n;
		len -= n;
	}
	return 0;
}

int store_write(struct emu_store *s, uint64_t off, const void *buf, uint64_t len)
{
	const uint8_t *src = buf;

	if (!store_range_ok(s, off, len))
		return -EINVAL;
	while (len) {
		uint64_t idx = off >> STORE_CHUNK_SHIFT;
		uint64_t in = off & (STORE_CHUNK - 1);
		uint64_t n = STORE_CHUNK - in;

		if (n > len)
			n = len;
		if (!s->chunk[idx]) {
			/* zeroes into a zero chunk change nothing */
			if (all_zero(src, n))
				goto next;
			s->chunk[idx] = calloc(1, STORE_CHUNK);
			if (!s->chunk[idx])
				return -ENOMEM;
			s->allocated++;
			if (s->allocated > s->peak_allocated)
				s->peak_allocated = s->allocated;
		}
		memcpy(s->chunk[idx] + in, src, n);
next:
		src += n;
		off += n;
		len -= n;
	}
	return 0;
}

int store_zero(struct emu_store *s, uint64_t off, uint64_t len)
{
	if (!store_range_ok(s, off, len))
		return -EINVAL;
	while (len) {
		uint64_t idx = off >> STORE_CHUNK_SHIFT;
		uint64_t in = off & (STORE_CHUNK - 1);
		uint64_t n = STORE_CHUNK - in;

		if (n > len)
			n = len;
		if (s->chunk[idx]) {
			/* the last chunk may be short: free it when covered */
			uint64_t clen = s->size - (idx << STORE_CHUNK_SHIFT);

			if (clen > STORE_CHUNK)
				clen = STORE_CHUNK;
			if (!in && n == clen) {
				free(s->chunk[idx]);
				s->chunk[idx] = NULL;
				s->allocated--;
			} else {
				memset(s->chunk[idx] + in, 0, n);
			}
		}
		off += n;
		len -= n;
	}
	return 0;
}
