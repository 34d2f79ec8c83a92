// SPDX-License-Identifier: GPL-2.0
/*
 * flashmodel.c - the open-AU cost model of a cheap flash translation layer.
 *
 * The card keeps a few allocation units (AUs) "open" in slots kept in LRU
 * order.  A slot is LINEAR (writes must move forward) or RANDOM (any order,
 * the card logs the data).  Writing to an AU that is not open closes the
 * least recently used slot; closing a slot that was not written completely
 * and linearly makes the card copy the AU's other valid units and erase.
 * README.md beside this file describes the model; flash-model.md is the spec.
 *
 * Every cost is in nanoseconds, every size in bytes.  Nothing here allocates
 * per request: AU state is created once per AU touched (hash table of
 * indexes into a growing array, bitmaps carved from a pool), slot bitmaps
 * are allocated in fm_new().
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "flashmodel.h"

#define FM_NO_SLOT	UINT32_MAX
#define FM_POOL_WORDS	(64 * 1024)	/* bitmap pool chunk, in 64-bit words */

/*
 * Fine service-time histogram: values below 64 ns have their own bucket,
 * above that 32 sub-buckets per power of two (about 3% wide).  Each bucket
 * keeps the sum of its samples so a percentile is the mean of its bucket:
 * exact when the samples in that bucket are all equal.
 */
#define FM_FINE_SUB_BITS	5
#define FM_FINE_BUCKETS		(64 + (64 - 6) * 32)

enum fm_mode { FM_LINEAR, FM_RANDOM };

struct fm_hist {
	uint64_t n;
	uint64_t count[FM_FINE_BUCKETS];
	uint64_t sum[FM_FINE_BUCKETS];
};

/* One open AU. */
struct fm_slot {
	uint64_t au;		/* AU index (offset / au_size) */
	uint64_t wp;		/* byte offset in the AU just past the last write */
	uint64_t stamp;		/* LRU clock of the last write; 0: slot unused */
	uint32_t ent;		/* index of the AU's entry in fm_model.ents */
	uint32_t nwritten;	/* bits set in @written */
	int mode;		/* enum fm_mode */
	uint64_t *written;	/* units written since the AU was opened */
};

/* Per-AU state, created when the AU is first written or discarded. */
struct fm_au {
	uint64_t au;
	uint64_t *valid;	/* units holding valid data */
	uint32_t slot;		/* index in fm_model.slots, or FM_NO_SLOT */
};

struct fm_chunk {
	struct fm_chunk *next;
	uint64_t words[];
};

struct fm_model {
	struct fm_params p;
	uint32_t units;		/* units per AU */
	uint32_t words;		/* 64-bit words per AU bitmap */
	uint64_t tail_mask;	/* valid bits of the last bitmap word */

	struct fm_slot *slots;	/* p.open_aus of them */
	uint64_t clock;		/* LRU clock, increases per slot use */

	struct fm_au *ents;	/* AU entries, in creation order */
	uint32_t nents, ents_cap;
	uint32_t *htab;		/* open addressing: entry index + 1, 0 = empty */
	uint32_t hmask;
	uint32_t last_ent;	/* cache of the last entry looked up */

	struct fm_chunk *chunks;	/* bitmap pool */
	uint32_t chunk_used;

	uint64_t *bufa_unit;	/* buffer A: unit index per entry, FIFO ring */
	uint32_t bufa_n, bufa_head;
	uint64_t last_write_end;	/* byte offset after the previous write */

	uint64_t free_at;	/* model clock when the device is idle again */
	struct fm_stats st;
	struct fm_hist svc[2], lat[2];	/* [0] reads, [1] writes */
};

/* Time to move @bytes at @bw bytes per second, without overflow. */
static inline uint64_t xfer_ns(uint64_t bytes, uint64_t bw)
{
	return (uint64_t)((__uint128_t)bytes * 1000000000u / bw);
}

/* Bitmap helpers.  Ranges are [a, b) in units, a < b. */

static uint64_t bits_mask(uint32_t lo, uint32_t hi)
{
	/* bits lo..hi-1 of one word, 0 <= lo < hi <= 64 */
	uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;

	return m & ~((1ull << lo) - 1);
}

/* Set bits [a, b); returns how many were clear before. */
static uint32_t bitmap_set_range(uint64_t *bm, uint32_t a, uint32_t b)
{
	uint32_t n = 0;

	while (a < b) {
		uint32_t w = a / 64, lo = a % 64;
		uint32_t hi = (b - w * 64) > 64 ? 64 : b - w * 64;
		uint64_t m = bits_mask(lo, hi);

		n += __builtin_popcountll(m & ~bm[w]);
		bm[w] |= m;
		a = w * 64 + hi;
	}
	return n;
}

/* Clear bits [a, b); returns how many were set before. */
static uint32_t bitmap_clear_range(uint64_t *bm, uint32_t a, uint32_t b)
{
	uint32_t n = 0;

	while (a < b) {
		uint32_t w = a / 64, lo = a % 64;
		uint32_t hi = (b - w * 64) > 64 ? 64 : b - w * 64;
		uint64_t m = bits_mask(lo, hi);

		n += __builtin_popcountll(m & bm[w]);
		bm[w] &= ~m;
		a = w * 64 + hi;
	}
	return n;
}

static void fm_hist_add(struct fm_hist *h, uint64_t v)
{
	uint32_t b;

	if (v < 64) {
		b = v;
	} else {
		uint32_t e = 63 - __builtin_clzll(v);	/* e >= 6 */

		b = 64 + (e - 6) * 32 +
		    ((v >> (e - FM_FINE_SUB_BITS)) & 31);
	}
	h->n++;
	h->count[b]++;
	h->sum[b] += v;
}

static uint64_t fm_hist_percentile(const struct fm_hist *h, double q)
{
	uint64_t rank, seen = 0;
	uint32_t b;

	if (!h->n || q <= 0)
		return 0;
	if (q > 1)
		q = 1;
	rank = (uint64_t)(q * (double)h->n + 0.999999);
	if (rank < 1)
		rank = 1;
	for (b = 0; b < FM_FINE_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= rank)
			return h->sum[b] / h->count[b];
	}
	return 0;
}

/* Coarse histogram of the public stats: bucket i holds [2^i, 2^(i+1)) us. */
static void fm_coarse_add(uint64_t *hist, uint64_t ns)
{
	uint64_t us = ns / 1000;
	int b = us < 2 ? 0 : 63 - __builtin_clzll(us);

	if (b >= FM_HIST_BUCKETS)
		b = FM_HIST_BUCKETS - 1;
	hist[b]++;
}

int fm_params_check(const struct fm_params *p, char *err, size_t errlen)
{
	const char *why = NULL;

	if (!p->unit)
		why = "unit must not be 0";
	else if (!p->au_size)
		why = "au_size must not be 0";
	else if (p->au_size % p->unit)
		why = "au_size is not a multiple of unit";
	else if (p->au_size / p->unit > (1u << 24))
		why = "au_size / unit is above 16M units";
	else if (!p->open_aus)
		why = "open_aus must be at least 1";
	else if (p->open_aus > 4096)
		why = "open_aus is above 4096";
	else if (p->random_aus > p->open_aus)
		why = "random_aus is above open_aus";
	else if (!p->write_bw)
		why = "write_bw must not be 0";
	else if (!p->read_bw)
		why = "read_bw must not be 0";
	else if (!p->copy_bw)
		why = "copy_bw must not be 0";
	else if (p->buffer_a_size && !p->buffer_a_entries)
		why = "buffer_a_entries must be set when buffer_a_size is";
	else if (p->buffer_a_entries > 65536)
		why = "buffer_a_entries is above 65536";
	else if (p->max_transfer && p->max_transfer < 512)
		why = "max_transfer is below 512 bytes";
	else if (p->host_depth > 4096)
		why = "host_depth is above 4096";
	else if (p->cross_size && !p->cross_max)
		why = "cross_max must be set when cross_size is";
	if (!why)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return -1;
}

static void fm_free_chunks(struct fm_model *m)
{
	while (m->chunks) {
		struct fm_chunk *c = m->chunks;

		m->chunks = c->next;
		free(c);
	}
}

void fm_free(struct fm_model *m)
{
	uint32_t i;

	if (!m)
		return;
	if (m->slots)
		for (i = 0; i < m->p.open_aus; i++)
			free(m->slots[i].written);
	free(m->slots);
	free(m->ents);
	free(m->htab);
	free(m->bufa_unit);
	fm_free_chunks(m);
	free(m);
}

struct fm_model *fm_new(const struct fm_params *p)
{
	struct fm_model *m;
	uint32_t i;

	if (!p || fm_params_check(p, NULL, 0))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->p = *p;
	m->p.name[sizeof(m->p.name) - 1] = '\0';
	if (!m->p.random_ok)
		m->p.random_aus = 0;
	m->units = p->au_size / p->unit;
	m->words = (m->units + 63) / 64;
	m->tail_mask = m->units % 64 ? (1ull << (m->units % 64)) - 1 : ~0ull;
	m->last_ent = UINT32_MAX;
	m->last_write_end = UINT64_MAX;

	m->slots = calloc(p->open_aus, sizeof(*m->slots));
	if (!m->slots)
		goto fail;
	for (i = 0; i < p->open_aus; i++) {
		m->slots[i].written = calloc(m->words, sizeof(uint64_t));
		if (!m->slots[i].written)
			goto fail;
	}
	m->hmask = 1023;
	m->htab = calloc(m->hmask + 1, sizeof(*m->htab));
	m->ents_cap = 256;
	m->ents = malloc(m->ents_cap * sizeof(*m->ents));
	if (!m->htab || !m->ents)
		goto fail;
	if (p->buffer_a_size) {
		m->bufa_unit = calloc(p->buffer_a_entries, sizeof(uint64_t));
		if (!m->bufa_unit)
			goto fail;
	}
	return m;
fail:
	fm_free(m);
	return NULL;
}

/* AU table. */

static inline uint32_t fm_hash(uint64_t au, uint32_t mask)
{
	return (uint32_t)((au * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static uint64_t *fm_pool_alloc(struct fm_model *m)
{
	uint32_t per = m->words > FM_POOL_WORDS ? m->words : FM_POOL_WORDS;

	if (!m->chunks || m->chunk_used + m->words > per) {
		struct fm_chunk *c = malloc(sizeof(*c) + per * sizeof(uint64_t));

		if (!c)
			return NULL;
		c->next = m->chunks;
		m->chunks = c;
		m->chunk_used = 0;
	}
	m->chunk_used += m->words;
	return m->chunks->words + m->chunk_used - m->words;
}

static int fm_grow_htab(struct fm_model *m)
{
	uint32_t nmask = m->hmask * 2 + 1, i;
	uint32_t *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < m->nents; i++) {
		uint32_t h = fm_hash(m->ents[i].au, nmask);

		while (nt[h])
			h = (h + 1) & nmask;
		nt[h] = i + 1;
	}
	free(m->htab);
	m->htab = nt;
	m->hmask = nmask;
	return 0;
}

/*
 * Find the entry of AU @au, creating it (valid bitmap full on an aged card,
 * empty on a fresh one) if @create.  Returns its index or UINT32_MAX if it
 * does not exist or memory ran out.
 */
static uint32_t fm_au_lookup(struct fm_model *m, uint64_t au, int create)
{
	uint32_t h, e;
	struct fm_au *a;

	if (m->last_ent != UINT32_MAX && m->ents[m->last_ent].au == au)
		return m->last_ent;
	for (h = fm_hash(au, m->hmask); m->htab[h]; h = (h + 1) & m->hmask) {
		e = m->htab[h] - 1;
		if (m->ents[e].au == au) {
			m->last_ent = e;
			return e;
		}
	}
	if (!create)
		return UINT32_MAX;
	if (m->nents == m->ents_cap) {
		struct fm_au *n = realloc(m->ents, 2 * m->ents_cap * sizeof(*n));

		if (!n)
			return UINT32_MAX;
		m->ents = n;
		m->ents_cap *= 2;
	}
	a = &m->ents[m->nents];
	a->valid = fm_pool_alloc(m);
	if (!a->valid)
		return UINT32_MAX;
	a->au = au;
	a->slot = FM_NO_SLOT;
	if (m->p.aged) {
		memset(a->valid, 0xff, m->words * sizeof(uint64_t));
		a->valid[m->words - 1] = m->tail_mask;
	} else {
		memset(a->valid, 0, m->words * sizeof(uint64_t));
	}
	e = m->nents++;
	m->htab[h] = e + 1;
	if (m->nents * 2 > m->hmask)
		fm_grow_htab(m);	/* on failure the table just gets fuller */
	m->last_ent = e;
	return e;
}

/* Slots. */

/* Units a close of @s must copy: valid units not rewritten, plus the log. */
static uint64_t fm_slot_copy_units(const struct fm_model *m,
				   const struct fm_slot *s)
{
	const uint64_t *valid = m->ents[s->ent].valid;
	uint64_t n = 0;
	uint32_t w;

	for (w = 0; w < m->words; w++)
		n += __builtin_popcountll(valid[w] & ~s->written[w]);
	if (s->mode == FM_RANDOM)
		n += s->nwritten;
	return n;
}

static int fm_slot_is_switch(const struct fm_model *m, const struct fm_slot *s)
{
	return s->mode == FM_LINEAR && s->nwritten == m->units;
}

/*
 * Close slot @s: a switch merge (one erase) if it was written completely and
 * linearly, else a full merge (copy, erase, merge overhead).  The AU's
 * valid set becomes old valid | written.  Returns the time it costs.
 */
static uint64_t fm_close(struct fm_model *m, struct fm_slot *s)
{
	struct fm_au *a = &m->ents[s->ent];
	uint64_t ns = m->p.erase_ns;
	uint32_t w;

	m->st.erases++;
	if (fm_slot_is_switch(m, s)) {
		m->st.switch_merges++;
	} else {
		uint64_t bytes = fm_slot_copy_units(m, s) * m->p.unit;

		m->st.full_merges++;
		m->st.copied_bytes += bytes;
		ns += m->p.merge_ns + xfer_ns(bytes, m->p.copy_bw);
	}
	for (w = 0; w < m->words; w++)
		a->valid[w] |= s->written[w];
	a->slot = FM_NO_SLOT;
	s->stamp = 0;
	return ns;
}

/* Drop slot @s without any cost (its AU was discarded). */
static void fm_drop(struct fm_model *m, struct fm_slot *s)
{
	m->ents[s->ent].slot = FM_NO_SLOT;
	s->stamp = 0;
}

/*
 * Least recently used slot in use, restricted to RANDOM slots if
 * @random_only, never @skip.  NULL if none.
 */
static struct fm_slot *fm_lru(struct fm_model *m, int random_only,
			      const struct fm_slot *skip)
{
	struct fm_slot *best = NULL;
	uint32_t i;

	for (i = 0; i < m->p.open_aus; i++) {
		struct fm_slot *s = &m->slots[i];

		if (!s->stamp || s == skip)
			continue;
		if (random_only && s->mode != FM_RANDOM)
			continue;
		if (!best || s->stamp < best->stamp)
			best = s;
	}
	return best;
}

/* Open AU entry @ent in LINEAR mode; closes the LRU slot if all are open. */
static struct fm_slot *fm_open(struct fm_model *m, uint32_t ent,
			       uint64_t *ns)
{
	struct fm_slot *s = NULL;
	uint32_t i;

	for (i = 0; i < m->p.open_aus; i++) {
		if (!m->slots[i].stamp) {
			s = &m->slots[i];
			break;
		}
	}
	if (!s) {
		s = fm_lru(m, 0, NULL);
		*ns += fm_close(m, s);
	}
	s->au = m->ents[ent].au;
	s->ent = ent;
	s->mode = FM_LINEAR;
	s->wp = 0;
	s->nwritten = 0;
	s->stamp = ++m->clock;
	memset(s->written, 0, m->words * sizeof(uint64_t));
	m->ents[ent].slot = s - m->slots;
	return s;
}

/*
 * Account the AU part of a write: bytes [start, end) inside AU @au.
 * Returns the extra time (closes), the base cost is the caller's.
 */
static uint64_t fm_write_piece(struct fm_model *m, uint64_t au,
			       uint64_t start, uint64_t end)
{
	uint32_t u0 = start / m->p.unit;
	uint32_t u1 = (end + m->p.unit - 1) / m->p.unit;
	struct fm_slot *s;
	uint64_t ns = 0;
	uint32_t ent;

	if (au < m->p.fat_aus)
		return 0;
	ent = fm_au_lookup(m, au, 1);
	if (ent == UINT32_MAX)
		return 0;	/* out of memory: model the write as free */
	if (m->ents[ent].slot == FM_NO_SLOT) {
		s = fm_open(m, ent, &ns);
	} else {
		s = &m->slots[m->ents[ent].slot];
		if (s->mode == FM_LINEAR && start < s->wp) {
			if (m->p.random_ok && m->p.random_aus) {
				struct fm_slot *r = NULL;
				uint32_t i, nr = 0;

				for (i = 0; i < m->p.open_aus; i++)
					if (m->slots[i].stamp &&
					    m->slots[i].mode == FM_RANDOM)
						nr++;
				if (nr >= m->p.random_aus)
					r = fm_lru(m, 1, s);
				if (r)
					ns += fm_close(m, r);
				s->mode = FM_RANDOM;
			} else {
				ns += fm_close(m, s);
				s = fm_open(m, ent, &ns);
			}
		}
	}
	s->nwritten += bitmap_set_range(s->written, u0, u1);
	if (end > s->wp)
		s->wp = end;
	s->stamp = ++m->clock;
	if (fm_slot_is_switch(m, s))
		ns += fm_close(m, s);
	return ns;
}

/*
 * Buffer A (Toshiba eMMC): a small write that does not continue the
 * previous one and stays inside one buffer_a_size block is kept in a FIFO
 * of page groups instead of touching the AUs.  Returns 1 and adds the
 * eviction cost to @ns if it took the write.
 */
static int fm_buffer_a(struct fm_model *m, uint64_t off, uint64_t len,
		       uint64_t *ns)
{
	uint64_t bs = m->p.buffer_a_size;
	uint32_t i, n = m->bufa_n;
	uint64_t unit = off / m->p.unit;

	if (!bs || len > bs || off == m->last_write_end ||
	    off / bs != (off + len - 1) / bs)
		return 0;
	for (i = 0; i < n; i++) {
		uint32_t k = (m->bufa_head + i) % m->p.buffer_a_entries;

		if (m->bufa_unit[k] == unit)
			return 1;	/* rewrite of a buffered page group */
	}
	if (n == m->p.buffer_a_entries) {
		/* evict the oldest: merge one page group into its AU */
		m->bufa_head = (m->bufa_head + 1) % m->p.buffer_a_entries;
		m->bufa_n--;
		m->st.copied_bytes += m->p.unit;
		*ns += xfer_ns(m->p.unit, m->p.copy_bw);
	}
	m->bufa_unit[(m->bufa_head + m->bufa_n) % m->p.buffer_a_entries] = unit;
	m->bufa_n++;
	return 1;
}

/* One write command of at most max_transfer bytes; returns its time. */
static uint64_t fm_write_cmd(struct fm_model *m, uint64_t off, uint64_t len)
{
	uint64_t unit = m->p.unit, end = off + len;
	uint64_t first = off / unit, last = (end + unit - 1) / unit;
	uint64_t ns, pos;

	ns = m->p.write_overhead_ns + xfer_ns((last - first) * unit, m->p.write_bw);
	if (off % unit || end % unit)
		ns += m->p.rmw_ns;
	if (m->p.cross_size && len <= m->p.cross_max &&
	    off / m->p.cross_size != (end - 1) / m->p.cross_size &&
	    off % m->p.cross_size)
		ns += m->p.cross_ns;
	m->st.programmed_bytes += (last - first) * unit;

	if (!fm_buffer_a(m, off, len, &ns)) {
		for (pos = off; pos < end; ) {
			uint64_t au = pos / m->p.au_size;
			uint64_t base = au * m->p.au_size;
			uint64_t stop = base + m->p.au_size;

			if (stop > end)
				stop = end;
			ns += fm_write_piece(m, au, pos - base, stop - base);
			pos = stop;
		}
	}
	m->last_write_end = end;
	return ns;
}

/* Discard [off, off + len): drops whole AUs, invalidates whole units. */
static void fm_discard(struct fm_model *m, uint64_t off, uint64_t len)
{
	uint64_t end = off + len, pos;

	for (pos = off; pos < end; ) {
		uint64_t au = pos / m->p.au_size;
		uint64_t base = au * m->p.au_size;
		uint64_t stop = base + m->p.au_size;
		uint32_t u0, u1, ent;

		if (stop > end)
			stop = end;
		u0 = (pos - base + m->p.unit - 1) / m->p.unit;
		u1 = (stop - base) / m->p.unit;
		pos = stop;
		if (au < m->p.fat_aus || u0 >= u1)
			continue;
		ent = fm_au_lookup(m, au, m->p.aged);
		if (ent == UINT32_MAX)
			continue;	/* fresh and never written: no data */
		bitmap_clear_range(m->ents[ent].valid, u0, u1);
		if (m->ents[ent].slot != FM_NO_SLOT) {
			struct fm_slot *s = &m->slots[m->ents[ent].slot];

			if (u0 == 0 && u1 == m->units)
				fm_drop(m, s);
			else
				s->nwritten -= bitmap_clear_range(s->written,
								  u0, u1);
		}
	}
}

uint64_t fm_submit(struct fm_model *m, uint64_t arrival_ns, enum fm_op op,
		   uint64_t offset, uint64_t len, unsigned int flags)
{
	uint64_t ns = 0, start, done;

	if (flags & FM_PREFLUSH)
		ns += m->p.flush_ns;
	switch (op) {
	case FM_READ:
		m->st.reads++;
		m->st.read_bytes += len;
		ns += m->p.read_overhead_ns + xfer_ns(len, m->p.read_bw);
		break;
	case FM_WRITE:
		m->st.writes++;
		m->st.host_write_bytes += len;
		if (!len)
			break;
		if (m->p.max_transfer) {
			uint64_t pos;

			for (pos = offset; pos < offset + len;
			     pos += m->p.max_transfer) {
				uint64_t n = offset + len - pos;

				if (n > m->p.max_transfer)
					n = m->p.max_transfer;
				ns += fm_write_cmd(m, pos, n);
			}
		} else {
			ns += fm_write_cmd(m, offset, len);
		}
		if (flags & FM_FUA)
			ns += m->p.fua_ns;
		break;
	case FM_FLUSH:
		m->st.flushes++;
		ns += m->p.flush_ns;
		break;
	case FM_DISCARD:
		m->st.discards++;
		ns += m->p.discard_ns;
		if (len)
			fm_discard(m, offset, len);
		break;
	}
	start = arrival_ns > m->free_at ? arrival_ns : m->free_at;
	done = start + ns;
	m->free_at = done;
	m->st.busy_ns += ns;
	m->st.last_completion_ns = done;
	if (op == FM_READ || op == FM_WRITE) {
		int w = op == FM_WRITE;

		fm_hist_add(&m->svc[w], ns);
		fm_hist_add(&m->lat[w], done - arrival_ns);
		fm_coarse_add(w ? m->st.write_service_hist :
				  m->st.read_service_hist, ns);
	}
	return done;
}

const struct fm_params *fm_model_params(const struct fm_model *m)
{
	return &m->p;
}

void fm_get_stats(const struct fm_model *m, struct fm_stats *s)
{
	uint32_t i;

	*s = m->st;
	s->pending_aus = 0;
	s->pending_copy_bytes = 0;
	for (i = 0; i < m->p.open_aus; i++) {
		const struct fm_slot *sl = &m->slots[i];

		if (!sl->stamp || fm_slot_is_switch(m, sl))
			continue;
		s->pending_aus++;
		s->pending_copy_bytes += fm_slot_copy_units(m, sl) * m->p.unit;
	}
}

double fm_write_amplification(const struct fm_stats *s)
{
	if (!s->host_write_bytes)
		return 0;
	return (double)(s->programmed_bytes + s->copied_bytes) /
	       (double)s->host_write_bytes;
}

double fm_write_mibps(const struct fm_stats *s)
{
	if (!s->busy_ns)
		return 0;
	return (double)s->host_write_bytes / (1024.0 * 1024.0) /
	       ((double)s->busy_ns / 1e9);
}

double fm_write_mbps(const struct fm_stats *s)
{
	if (!s->busy_ns)
		return 0;
	return (double)s->host_write_bytes * 1000.0 / (double)s->busy_ns;
}

uint64_t fm_service_percentile(const struct fm_model *m, enum fm_op op,
			       double q)
{
	if (op != FM_READ && op != FM_WRITE)
		return 0;
	return fm_hist_percentile(&m->svc[op == FM_WRITE], q);
}

uint64_t fm_latency_percentile(const struct fm_model *m, enum fm_op op,
			       double q)
{
	if (op != FM_READ && op != FM_WRITE)
		return 0;
	return fm_hist_percentile(&m->lat[op == FM_WRITE], q);
}
