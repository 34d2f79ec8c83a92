// SPDX-License-Identifier: GPL-2.0
/*
 * The card's volatile write cache: a durable layer (the flash, a sparse
 * store) under an overlay of acknowledged writes in arrival order.  See
 * struct emu_cache in flashemu.h for the contract.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flashemu.h"

#define SLOT_BYTES	(CACHE_SLOTS * sizeof(uint32_t))

int cache_init(struct emu_cache *c, uint64_t size, int enabled)
{
	int ret;

	memset(c, 0, sizeof(*c));
	ret = store_init(&c->durable, size);
	if (ret)
		return ret;
	c->enabled = enabled;
	c->limit = CACHE_LIMIT_DEFAULT;
	if (!enabled || !c->durable.nr_chunks)
		return 0;
	c->slot = calloc(c->durable.nr_chunks, sizeof(*c->slot));
	if (!c->slot) {
		store_free(&c->durable);
		return -ENOMEM;
	}
	return 0;
}

void cache_free(struct emu_cache *c)
{
	cache_drop(c);
	free(c->ent);
	free(c->slot);
	free(c->touched);
	store_free(&c->durable);
	memset(c, 0, sizeof(*c));
}

static int cache_range_ok(const struct emu_cache *c, uint64_t off,
			  uint64_t len)
{
	return off <= c->durable.size && len <= c->durable.size - off &&
	       !(off % CACHE_SECTOR) && !(len % CACHE_SECTOR);
}

/* Overlay memory an entry of @len bytes (@data: with a copy) costs. */
static uint64_t ent_mem(uint64_t len, int data)
{
	return sizeof(struct cache_ent) + (data ? len : 0);
}

/* The newest overlay entry holding the sector at @pos, or NULL. */
static const struct cache_ent *cache_newest(const struct emu_cache *c,
					    uint64_t pos)
{
	const uint32_t *slot = c->slot[pos >> STORE_CHUNK_SHIFT];
	uint32_t s;

	if (!slot)
		return NULL;
	s = slot[(pos & (STORE_CHUNK - 1)) / CACHE_SECTOR];
	return s ? &c->ent[s - 1] : NULL;
}

int cache_read(const struct emu_cache *c, uint64_t off, void *buf,
	       uint64_t len)
{
	uint8_t *dst = buf;
	uint64_t end = off + len;
	int ret;

	if (!cache_range_ok(c, off, len))
		return -EINVAL;
	ret = store_read(&c->durable, off, buf, len);
	if (ret || !c->nr)
		return ret;
	/* then every sector the overlay holds, from its newest entry */
	for (; off < end; off += CACHE_SECTOR, dst += CACHE_SECTOR) {
		const struct cache_ent *e = cache_newest(c, off);

		if (!e)
			continue;
		if (e->data)
			memcpy(dst, e->data + (off - e->off), CACHE_SECTOR);
		else
			memset(dst, 0, CACHE_SECTOR);
	}
	return 0;
}

/* 1 if any sector of the range is in the overlay. */
static int cache_overlaps(const struct emu_cache *c, uint64_t off,
			  uint64_t len)
{
	uint64_t end = off + len;

	if (!c->nr)
		return 0;
	for (; off < end; off += CACHE_SECTOR)
		if (cache_newest(c, off))
			return 1;
	return 0;
}

/*
 * Make room for one more entry over [off, off + len): the entry table and
 * the slots of every chunk it covers.  On -ENOMEM the overlay is unchanged
 * in content (slots allocated so far stay, empty, on the touched list).
 */
static int cache_reserve(struct emu_cache *c, uint64_t off, uint64_t len)
{
	uint64_t first = off >> STORE_CHUNK_SHIFT;
	uint64_t last = (off + len - 1) >> STORE_CHUNK_SHIFT;
	uint64_t i;

	if (c->nr == c->cap) {
		uint64_t cap = c->cap ? 2 * c->cap : 64;
		struct cache_ent *e = realloc(c->ent, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		c->ent = e;
		c->cap = cap;
	}
	for (i = first; i <= last; i++) {
		if (c->slot[i])
			continue;
		if (c->nr_touched == c->cap_touched) {
			uint64_t cap = c->cap_touched ? 2 * c->cap_touched : 64;
			uint64_t *t = realloc(c->touched, cap * sizeof(*t));

			if (!t)
				return -ENOMEM;
			c->touched = t;
			c->cap_touched = cap;
		}
		c->slot[i] = calloc(CACHE_SLOTS, sizeof(uint32_t));
		if (!c->slot[i])
			return -ENOMEM;
		c->touched[c->nr_touched++] = i;
		c->mem += SLOT_BYTES + sizeof(uint64_t);
	}
	return 0;
}

/* Append an entry (@buf NULL: zeroes) and point its sectors' slots at it. */
static int cache_append(struct emu_cache *c, uint64_t off, const void *buf,
			uint64_t len, int fua)
{
	struct cache_ent *e;
	uint8_t *data = NULL;
	uint64_t pos;
	int ret;

	if (!len)
		return 0;
	if (c->nr && c->mem + ent_mem(len, !!buf) > c->limit) {
		ret = cache_flush(c);
		if (ret)
			return ret;
		c->writebacks++;
	}
	if (c->nr >= UINT32_MAX - 1)
		return -ENOMEM;		/* slots hold 1 + index in 32 bits */
	if (buf) {
		data = malloc(len);
		if (!data)
			return -ENOMEM;
		memcpy(data, buf, len);
	}
	ret = cache_reserve(c, off, len);
	if (ret) {
		free(data);
		return ret;
	}
	e = &c->ent[c->nr++];
	e->off = off;
	e->len = len;
	e->data = data;
	e->durable = fua;
	for (pos = off; pos < off + len; pos += CACHE_SECTOR)
		c->slot[pos >> STORE_CHUNK_SHIFT]
		       [(pos & (STORE_CHUNK - 1)) / CACHE_SECTOR] =
			(uint32_t)c->nr;
	c->mem += ent_mem(len, !!buf);
	if (c->mem > c->peak_mem)
		c->peak_mem = c->mem;
	return 0;
}

/* Write-through, or a FUA write with nothing older under it. */
static int cache_direct(struct emu_cache *c, uint64_t off, uint64_t len,
			int fua)
{
	if (!c->enabled)
		return 1;
	if (fua && !cache_overlaps(c, off, len)) {
		c->fua_direct++;
		return 1;
	}
	return 0;
}

int cache_write(struct emu_cache *c, uint64_t off, const void *buf,
		uint64_t len, int fua)
{
	if (!cache_range_ok(c, off, len))
		return -EINVAL;
	if (cache_direct(c, off, len, fua))
		return store_write(&c->durable, off, buf, len);
	return cache_append(c, off, buf, len, fua);
}

int cache_zero(struct emu_cache *c, uint64_t off, uint64_t len, int fua)
{
	if (!cache_range_ok(c, off, len))
		return -EINVAL;
	if (cache_direct(c, off, len, fua))
		return store_zero(&c->durable, off, len);
	return cache_append(c, off, NULL, len, fua);
}

int cache_apply(struct emu_cache *c, uint64_t i, uint64_t len)
{
	const struct cache_ent *e;

	if (i >= c->nr || len > c->ent[i].len)
		return -EINVAL;
	e = &c->ent[i];
	if (e->data)
		return store_write(&c->durable, e->off, e->data, len);
	return store_zero(&c->durable, e->off, len);
}

int cache_flush(struct emu_cache *c)
{
	uint64_t i;
	int ret;

	for (i = 0; i < c->nr; i++) {
		ret = cache_apply(c, i, c->ent[i].len);
		if (ret)
			return ret;
	}
	c->flushed += c->nr;
	cache_drop(c);
	return 0;
}

void cache_drop(struct emu_cache *c)
{
	uint64_t i;

	for (i = 0; i < c->nr; i++)
		free(c->ent[i].data);
	for (i = 0; i < c->nr_touched; i++) {
		free(c->slot[c->touched[i]]);
		c->slot[c->touched[i]] = NULL;
	}
	c->nr = 0;
	c->nr_touched = 0;
	c->mem = 0;
}
