// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace's binary per-CPU files (blktrace -D DIR -o NAME writes
 * DIR/NAME.blktrace.0, .1, ...), read without blkparse.
 *
 * Each file is a stream of records: the 48-byte struct blk_io_trace of
 * include/uapi/linux/blktrace_api.h in the recording machine's byte order,
 * then pdu_len bytes of payload.  The files are merged by timestamp with a
 * k-way merge (a binary heap of one current record per file), so memory is
 * one fixed buffer per CPU whatever the length of the trace.
 *
 * Records become the same struct ft_event the text parser produces from
 * blkparse's default output for that record, and join the text pipeline at
 * ft_feed_event():
 *   - issue (D): RWBS from the category bits, "SECTOR + BYTES/512" for file
 *     system requests with data, no sector without data, passthrough for
 *     BLK_TC_PC requests;
 *   - messages (BLK_TN_MESSAGE, the "m" lines), with or without the 64-bit
 *     cgroup id in front of the text (__BLK_TN_CGROUP), which blkparse 1.2
 *     cannot decode;
 *   - process and timestamp notes: skipped (blkparse prints no line);
 *   - every other action: an event that is not D (counted, ignored).
 * Bad magic or version: counted, then the stream is searched byte by byte
 * for the next valid header.  A file ending inside a record: counted, the
 * partial record is dropped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flashtrace.h"

/* Must hold the largest record: 48 + 65535 bytes. */
#define FT_BLK_BUF		(128 * 1024)

static u16 get16(const unsigned char *p, int swap)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static u32 get32(const unsigned char *p, int swap)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static u64 get64(const unsigned char *p, int swap)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static int magic_ok(u32 m)
{
	return m == (FT_BLK_MAGIC | FT_BLK_VERSION);
}

int ft_blk_hdr_decode(const unsigned char *buf, int *swap,
		      struct ft_blk_hdr *h)
{
	int sw = *swap;

	if (sw < 0) {
		if (magic_ok(get32(buf, 0)))
			sw = 0;
		else if (magic_ok(get32(buf, 1)))
			sw = 1;
		else
			return -1;
	}
	h->magic = get32(buf, sw);
	if (!magic_ok(h->magic))
		return -1;
	*swap = sw;
	/* offsets of struct blk_io_trace */
	h->sequence = get32(buf + 4, sw);
	h->time = get64(buf + 8, sw);
	h->sector = get64(buf + 16, sw);
	h->bytes = get32(buf + 24, sw);
	h->action = get32(buf + 28, sw);
	h->pid = get32(buf + 32, sw);
	h->device = get32(buf + 36, sw);
	h->cpu = get32(buf + 40, sw);
	h->error = get16(buf + 44, sw);
	h->pdu_len = get16(buf + 46, sw);
	return 0;
}

size_t ft_blk_rwbs(u32 action, u32 bytes, char *buf)
{
	size_t n = 0;

	if (action & FT_BLK_TC_FLUSH)
		buf[n++] = 'F';
	if (action & FT_BLK_TC_DISCARD)
		buf[n++] = 'D';
	else if (action & FT_BLK_TC_WRITE)
		buf[n++] = 'W';
	else if (bytes)
		buf[n++] = 'R';
	else
		buf[n++] = 'N';
	if (action & FT_BLK_TC_FUA)
		buf[n++] = 'F';
	if (action & FT_BLK_TC_AHEAD)
		buf[n++] = 'A';
	if (action & FT_BLK_TC_SYNC)
		buf[n++] = 'S';
	if (action & FT_BLK_TC_META)
		buf[n++] = 'M';
	buf[n] = '\0';
	return n;
}

/* blkparse's letters for the basic actions (__BLK_TA_QUEUE = 1, ...). */
static const char *const act_names[] = {
	"?", "Q", "M", "F", "G", "S", "R", "D", "C", "P", "U", "UT", "I",
	"X", "B", "A", "a", "V",
};

static void clear_event(struct ft_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->rwbs.op = FT_OP_OTHER;
}

enum ft_blk_kind ft_blk_decode(const struct ft_blk_hdr *h,
			       const unsigned char *pdu, struct ft_event *ev)
{
	unsigned int what = h->action & 0xffff & ~FT_BLK_CGROUP;
	size_t skip = h->action & FT_BLK_CGROUP ? 8 : 0;
	const char *name;
	char rwbs[16];
	size_t len;

	clear_event(ev);
	ev->time_ns = h->time;
	ev->has_dev = 1;
	/* kernel dev_t: 12 bits of major above 20 bits of minor */
	ev->major = h->device >> 20;
	ev->minor = h->device & 0xfffff;

	if (h->action & FT_BLK_TC_NOTIFY) {
		if (what != FT_BLK_TN_MESSAGE)
			return FT_BLK_NOTE;
		if (skip > h->pdu_len)
			skip = h->pdu_len;
		len = h->pdu_len - skip;
		ev->msg = (const char *)pdu + skip;
		/* printed as a C string: up to a NUL, trailing blanks dropped */
		ev->msg_len = strnlen(ev->msg, len);
		while (ev->msg_len &&
		       strchr(" \t\r\n", ev->msg[ev->msg_len - 1]))
			ev->msg_len--;
		ev->action[0] = 'm';
		return FT_BLK_MESSAGE;
	}

	name = what < ARRAY_SIZE(act_names) ? act_names[what] : "?";
	memcpy(ev->action, name, strlen(name) + 1);
	if (what != FT_BLK_TA_ISSUE)
		return FT_BLK_EVENT;

	len = ft_blk_rwbs(h->action, h->bytes, rwbs);
	ft_parse_rwbs(rwbs, len, &ev->rwbs);
	if (h->action & FT_BLK_TC_PC) {
		ev->passthrough = 1;
	} else if (h->bytes) {
		ev->has_sector = 1;
		ev->sector = h->sector;
		ev->nsectors = h->bytes >> 9;
	}
	return FT_BLK_EVENT;
}

/* One per-CPU stream and its current record. */
struct blk_reader {
	int fd;
	int swap;		/* -1 until the first good magic */
	int done;
	int in_bad;		/* inside a run of bad bytes */
	unsigned char *buf;
	size_t pos, have;
	struct ft_blk_hdr hdr;	/* current record, valid unless done */
	const unsigned char *pdu;
	int idx;		/* tie-break: earlier files first */
};

/* Make at least @need bytes available at pos.  1, 0 at EOF, -1 error. */
static int ensure(struct blk_reader *r, size_t need)
{
	ssize_t n;

	if (r->have - r->pos >= need)
		return 1;
	memmove(r->buf, r->buf + r->pos, r->have - r->pos);
	r->have -= r->pos;
	r->pos = 0;
	while (r->have < need) {
		n = read(r->fd, r->buf + r->have, FT_BLK_BUF - r->have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		r->have += n;
	}
	return 1;
}

/* Load the next well-formed record into r->hdr.  0, or -1 read error. */
static int next_record(struct ft_stats *st, struct blk_reader *r)
{
	int rc;

	for (;;) {
		rc = ensure(r, FT_BLK_HDR_SIZE);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (r->have > r->pos) {
				if (r->in_bad)
					st->bin_skipped_bytes += r->have - r->pos;
				else
					st->bin_truncated++;
			}
			r->done = 1;
			return 0;
		}
		if (ft_blk_hdr_decode(r->buf + r->pos, &r->swap, &r->hdr)) {
			if (!r->in_bad)
				st->bin_bad++;
			r->in_bad = 1;
			st->bin_skipped_bytes++;
			r->pos++;
			continue;
		}
		r->in_bad = 0;
		rc = ensure(r, FT_BLK_HDR_SIZE + (size_t)r->hdr.pdu_len);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			st->bin_truncated++;
			r->done = 1;
			return 0;
		}
		r->pdu = r->buf + r->pos + FT_BLK_HDR_SIZE;
		r->pos += FT_BLK_HDR_SIZE + r->hdr.pdu_len;
		st->bin_records++;
		return 0;
	}
}

static int before(const struct blk_reader *a, const struct blk_reader *b)
{
	if (a->hdr.time != b->hdr.time)
		return a->hdr.time < b->hdr.time;
	return a->idx < b->idx;
}

static void sift_down(struct blk_reader **heap, int n, int i)
{
	struct blk_reader *t;
	int m, l;

	for (;;) {
		m = i;
		l = 2 * i + 1;
		if (l < n && before(heap[l], heap[m]))
			m = l;
		if (l + 1 < n && before(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

/*
 * Times are made relative to the earliest record that is not a process or
 * timestamp note (messages count), as blkparse prints them: it handles
 * those notes apart from the sorted events.
 */
static void feed_record(struct ft_ctx *c, const struct blk_reader *r,
			u64 *genesis, int *have_genesis)
{
	enum ft_blk_kind kind;
	struct ft_event ev;

	kind = ft_blk_decode(&r->hdr, r->pdu, &ev);
	if (kind == FT_BLK_NOTE) {
		c->st.bin_notes++;
		return;
	}
	if (!*have_genesis) {
		*genesis = ev.time_ns;
		*have_genesis = 1;
	}
	ev.time_ns = ev.time_ns > *genesis ? ev.time_ns - *genesis : 0;
	ft_feed_event(c, kind == FT_BLK_MESSAGE ? FT_LINE_MESSAGE :
		      FT_LINE_EVENT, &ev);
}

int ft_feed_blktrace_fds(struct ft_ctx *c, const int *fds, int n)
{
	struct blk_reader *rd, **heap;
	int i, nheap = 0, rc = 0, have_genesis = 0;
	u64 genesis = 0;

	rd = ft_calloc(n ? n : 1, sizeof(*rd));
	heap = ft_calloc(n ? n : 1, sizeof(*heap));
	if (!rd || !heap) {
		rc = -1;
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		rd[i].fd = fds[i];
		rd[i].swap = -1;
		rd[i].idx = i;
		rd[i].buf = ft_calloc(1, FT_BLK_BUF);
		if (!rd[i].buf) {
			rc = -1;
			errno = ENOMEM;
			goto out;
		}
	}
	c->st.bin_files += n;
	for (i = 0; i < n; i++) {
		if (next_record(&c->st, &rd[i]))
			rc = -1;
		else if (!rd[i].done)
			heap[nheap++] = &rd[i];
	}
	for (i = nheap / 2 - 1; i >= 0; i--)
		sift_down(heap, nheap, i);
	while (nheap) {
		struct blk_reader *r = heap[0];

		feed_record(c, r, &genesis, &have_genesis);
		if (next_record(&c->st, r))
			rc = -1;
		if (r->done)
			heap[0] = heap[--nheap];
		sift_down(heap, nheap, 0);
	}
out:
	if (rd)
		for (i = 0; i < n; i++)
			ft_free(rd[i].buf, FT_BLK_BUF);
	ft_free(heap, (n ? n : 1) * sizeof(*heap));
	ft_free(rd, (n ? n : 1) * sizeof(*rd));
	return rc;
}

/* "NAME.blktrace.N" -> N, or -1. */
static long cpu_suffix(const char *ent, const char *name, size_t nlen)
{
	static const char sfx[] = ".blktrace.";
	const char *p;
	char *end;
	long v;

	if (strncmp(ent, name, nlen) ||
	    strncmp(ent + nlen, sfx, sizeof(sfx) - 1))
		return -1;
	p = ent + nlen + sizeof(sfx) - 1;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno || *end || v > 1000000)
		return -1;
	return v;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int ft_feed_blktrace(struct ft_ctx *c, const char *base, char *err,
		     size_t errlen)
{
	const char *slash = strrchr(base, '/');
	const char *name = slash ? slash + 1 : base;
	size_t nlen = strlen(name), cap = 0, nr = 0, i;
	char dir[4096], path[4096 + 64];
	long *cpus = NULL, v;
	struct dirent *de;
	int *fds = NULL, rc = -1;
	DIR *d;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - base + 1),
			 base);
	else
		snprintf(dir, sizeof(dir), "./");
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		v = cpu_suffix(de->d_name, name, nlen);
		if (v < 0)
			continue;
		if (nr == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			long *p = ft_realloc(cpus, cap * sizeof(*cpus),
					     ncap * sizeof(*cpus));

			if (!p) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			cpus = p;
			cap = ncap;
		}
		cpus[nr++] = v;
	}
	if (!nr) {
		snprintf(err, errlen, "%s: no %s.blktrace.N files", dir, name);
		goto out;
	}
	qsort(cpus, nr, sizeof(*cpus), cmp_long);
	fds = ft_calloc(nr, sizeof(*fds));
	if (!fds) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < nr; i++)
		fds[i] = -1;
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s%s.blktrace.%ld", dir, name,
			 cpus[i]);
		fds[i] = open(path, O_RDONLY);
		if (fds[i] < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
	}
	if (ft_feed_blktrace_fds(c, fds, nr)) {
		snprintf(err, errlen, "%s: %s", base, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fds)
		for (i = 0; i < nr; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	ft_free(fds, nr * sizeof(*fds));
	ft_free(cpus, cap * sizeof(*cpus));
	closedir(d);
	return rc;
}

int ft_blktrace_base(const char *arg, char *base, size_t len)
{
	const char *p = strstr(arg, ".blktrace.");
	char path[4096];
	size_t n;

	/* NAME.blktrace.N: the last ".blktrace." followed by digits only */
	while (p) {
		const char *q = p + strlen(".blktrace.");

		if (*q && strspn(q, "0123456789") == strlen(q)) {
			n = p - arg;
			if (n + 1 > len)
				return 0;
			memcpy(base, arg, n);
			base[n] = '\0';
			return 1;
		}
		p = strstr(p + 1, ".blktrace.");
	}
	if (strlen(arg) + 1 > len ||
	    snprintf(path, sizeof(path), "%s.blktrace.0", arg) >=
	    (int)sizeof(path) || access(path, F_OK))
		return 0;
	snprintf(base, len, "%s", arg);
	return 1;
}
