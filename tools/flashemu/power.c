// SPDX-License-Identifier: GPL-2.0
/*
 * Power cuts: which of the cached writes reach the flash, and the torn
 * write.  See struct emu_power in flashemu.h for the contract.
 */
#include <inttypes.h>
#include <string.h>

#include "flashemu.h"

void power_init(struct emu_power *p, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	p->seed = seed;
	p->rng = seed;
	p->survive = 0.5;
	p->tear = 1;
	p->page = 4096;
}

int power_due(const struct emu_power *p, uint64_t seq)
{
	return !p->off && p->cut_after && seq + 1 >= p->cut_after;
}

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t rng_next(struct emu_power *p)
{
	uint64_t z = (p->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 1 with probability p->survive: 0 never, 1 always. */
static int rng_survives(struct emu_power *p)
{
	/* 53 random bits: a double uniform in [0, 1) */
	return (double)(rng_next(p) >> 11) / (double)(1ull << 53) < p->survive;
}

/*
 * Bytes of @e that land when it is torn: the cut points are its start,
 * every page boundary of the card strictly inside it, and its end; one is
 * chosen uniformly.  So a page is either wholly updated by the write or not
 * at all (for the pages the write covers entirely).
 */
static uint64_t tear_keep(struct emu_power *p, const struct cache_ent *e)
{
	uint64_t end = e->off + e->len;
	uint64_t first = (e->off / p->page + 1) * p->page;
	uint64_t inner = first < end ? (end - 1 - first) / p->page + 1 : 0;
	uint64_t k = rng_next(p) % (inner + 2);

	if (!k)
		return 0;
	if (k > inner)
		return e->len;
	return first + (k - 1) * p->page - e->off;
}

/* Index of the newest entry that is not FUA, or c->nr if none. */
static uint64_t newest_volatile(const struct emu_cache *c)
{
	uint64_t i = c->nr;

	while (i--)
		if (!c->ent[i].durable)
			return i;
	return c->nr;
}

int power_cut(struct emu_power *p, struct emu_cache *c)
{
	uint64_t torn = p->tear ? newest_volatile(c) : c->nr;
	uint64_t i, keep;
	int ret;

	p->off = 1;
	p->cached = c->nr;
	for (i = 0; i < c->nr; i++) {
		const struct cache_ent *e = &c->ent[i];

		if (e->durable) {
			keep = e->len;
			p->fua++;
		} else if (i == torn) {
			keep = tear_keep(p, e);
			p->torn = 1;
			p->torn_len = e->len;
			p->torn_kept = keep;
		} else if (rng_survives(p)) {
			keep = e->len;
			p->survived++;
		} else {
			keep = 0;
			p->dropped++;
		}
		if (keep) {
			ret = cache_apply(c, i, keep);
			if (ret)
				return ret;
		}
	}
	cache_drop(c);
	return 0;
}

void power_print(const struct emu_power *p, FILE *f)
{
	fprintf(f, "flashemu: power cut after %" PRIu64 " requests (seed %"
		PRIu64 "): %" PRIu64 " cached writes: %" PRIu64 " fua, %"
		PRIu64 " survived, %" PRIu64 " dropped, %d torn (%" PRIu64
		" of %" PRIu64 " bytes landed)\n",
		p->cut_at, p->seed, p->cached, p->fua, p->survived,
		p->dropped, p->torn, p->torn_kept, p->torn_len);
}
