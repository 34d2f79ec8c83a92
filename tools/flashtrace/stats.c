// SPDX-License-Identifier: GPL-2.0
/*
 * Counters over D (dispatch) events: sizes, page and erase block crossings,
 * alignment, segment switches and backward writes.
 *
 * Memory: everything lives in struct ft_stats except the bitmap of erase
 * blocks written, which grows with the highest erase block seen, never with
 * the number of events, and is capped at FT_EB_BITMAP_MAX_BITS bits.
 */
#include <stdlib.h>
#include <string.h>

#include "flashtrace.h"

static u64 ft_mem;

u64 ft_mem_bytes(void)
{
	return ft_mem;
}

void *ft_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (p)
		ft_mem += n * size;
	return p;
}

/* Grows or shrinks; new bytes are zeroed. */
void *ft_realloc(void *p, size_t old_size, size_t new_size)
{
	void *q = realloc(p, new_size);

	if (!q)
		return NULL;
	if (new_size > old_size)
		memset((char *)q + old_size, 0, new_size - old_size);
	ft_mem += new_size;
	ft_mem -= old_size;
	return q;
}

void ft_free(void *p, size_t size)
{
	if (p)
		ft_mem -= size;
	free(p);
}

u64 ft_size_bucket_min(int i)
{
	return i == 0 ? 0 : 4096ull << (i - 1);
}

int ft_size_bucket(u64 bytes)
{
	int i;

	for (i = FT_SIZE_BUCKETS - 1; i > 0; i--)
		if (bytes >= ft_size_bucket_min(i))
			return i;
	return 0;
}

double ft_pct(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

double ft_switches_per_mib(const struct ft_stats *st)
{
	u64 b = st->dir[FT_OP_WRITE].bytes;

	return b ? (double)st->switches / ((double)b / FT_MIB) : 0.0;
}

void ft_stats_init(struct ft_stats *st, const struct ft_geom *g)
{
	memset(st, 0, sizeof(*st));
	st->geom = *g;
}

void ft_stats_free(struct ft_stats *st)
{
	ft_free(st->eb_bitmap, st->eb_bitmap_bits / 8);
	st->eb_bitmap = NULL;
	st->eb_bitmap_bits = 0;
}

/* Mark erase block @eb written; counts it the first time. */
static void mark_eb(struct ft_stats *st, u64 eb)
{
	u64 bits;
	u8 *bm;

	if (eb >= FT_EB_BITMAP_MAX_BITS) {
		st->untracked_eb_writes++;
		return;
	}
	if (eb >= st->eb_bitmap_bits) {
		bits = st->eb_bitmap_bits ? st->eb_bitmap_bits : 4096;
		while (bits <= eb)
			bits *= 2;
		bm = ft_realloc(st->eb_bitmap, st->eb_bitmap_bits / 8, bits / 8);
		if (!bm) {
			st->untracked_eb_writes++;
			return;
		}
		st->eb_bitmap = bm;
		st->eb_bitmap_bits = bits;
	}
	if (!(st->eb_bitmap[eb / 8] & (1u << (eb % 8)))) {
		st->eb_bitmap[eb / 8] |= 1u << (eb % 8);
		st->distinct_ebs++;
	}
}

/*
 * The slot remembering erase block @eb, or the least recently used slot
 * (reset to @eb) when it is not remembered.  *found says which.
 */
static struct ft_eb_slot *eb_slot(struct ft_stats *st, u64 eb, int *found)
{
	struct ft_eb_slot *lru = &st->recent[0];
	int i;

	for (i = 0; i < FT_RECENT_EBS; i++) {
		struct ft_eb_slot *s = &st->recent[i];

		if (s->used && s->eb == eb) {
			*found = 1;
			return s;
		}
		if (s->used < lru->used)
			lru = s;
	}
	*found = 0;
	lru->eb = eb;
	lru->high = 0;
	return lru;
}

static void account_write(struct ft_stats *st, u64 start, u64 len)
{
	const struct ft_geom *g = &st->geom;
	u64 end = start + len;
	u64 first = start / g->erase_size, last = (end - 1) / g->erase_size;
	struct ft_eb_slot *s;
	u64 eb;
	int found;

	if (ft_page_aligned(g, start, len))
		st->page_aligned++;
	if (ft_naturally_aligned(g, start, len))
		st->nat_aligned++;
	if (st->have_prev_write) {
		if (first != st->prev_write_eb)
			st->switches++;
		if (start == st->prev_write_end)
			st->sequential++;
	}
	s = eb_slot(st, first, &found);
	if (found && start < s->high)
		st->backward++;
	s->used = ++st->lru_clock;
	if (first == last) {
		if (end > s->high)
			s->high = end;
	} else {
		s->high = (first + 1) * g->erase_size;
		s = eb_slot(st, last, &found);
		s->used = ++st->lru_clock;
		if (end > s->high)
			s->high = end;
	}
	/* a request spans few erase blocks; cap the loop for garbage input */
	for (eb = first; eb <= last && eb - first < 4096; eb++)
		mark_eb(st, eb);
	st->have_prev_write = 1;
	st->prev_write_eb = last;
	st->prev_write_end = end;
}

void ft_stats_dispatch(struct ft_stats *st, const struct ft_event *ev)
{
	const struct ft_geom *g = &st->geom;
	enum ft_op op = ev->rwbs.op;
	unsigned int f = ev->rwbs.flags;
	struct ft_dir_stats *d;
	u64 start, len;

	st->dispatches++;
	if (st->have_time && ev->time_ns < st->last_ns)
		st->time_backwards++;
	if (!st->have_time) {
		st->have_time = 1;
		st->first_ns = ev->time_ns;
		st->last_ns = ev->time_ns;
	} else if (ev->time_ns > st->last_ns) {
		st->last_ns = ev->time_ns;
	}
	if (ev->has_dev) {
		if (!st->have_dev) {
			st->have_dev = 1;
			st->major = ev->major;
			st->minor = ev->minor;
		} else if (ev->major != st->major || ev->minor != st->minor) {
			st->other_dev++;
		}
	}
	if (f & FT_RWBS_PREFLUSH)
		st->preflush++;
	if (f & FT_RWBS_FUA)
		st->fua++;
	if (f & FT_RWBS_SYNC)
		st->sync++;
	if (f & FT_RWBS_META)
		st->meta++;
	if (f & FT_RWBS_AHEAD)
		st->ahead++;
	if (f & FT_RWBS_SECURE)
		st->secure_erase++;

	if (ev->passthrough)
		op = FT_OP_OTHER;
	d = &st->dir[op];
	d->requests++;
	if (op == FT_OP_FLUSH || op == FT_OP_OTHER || !ev->has_sector ||
	    !ev->nsectors)
		return;

	start = ft_byte_offset(g, ev->sector);
	len = ev->nsectors * g->sector_size;
	d->with_data++;
	d->bytes += len;
	d->sizes[ft_size_bucket(len)]++;
	if (!ft_is_pow2(len))
		d->not_pow2++;
	if (ft_crosses(start, len, g->page_size)) {
		d->page_cross++;
		if (start % g->page_size)
			d->page_violations++;
	}
	if (ft_crosses(start, len, g->erase_size))
		d->erase_cross++;
	if (!st->have_range) {
		st->have_range = 1;
		st->min_offset = start;
		st->max_end = start + len;
	} else {
		if (start < st->min_offset)
			st->min_offset = start;
		if (start + len > st->max_end)
			st->max_end = start + len;
	}
	if (op == FT_OP_WRITE)
		account_write(st, start, len);
}
