// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for flashemu's card: the volatile write cache over the
 * durable store, power cuts, torn writes, raw images and the request
 * path (tools/flashemu/cache.c, power.c, image.c, io.c).  Built and run
 * by "make -C tools/flashemu check".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "flashemu.h"

#define K		1024u
#define CARD		(16 * STORE_CHUNK)	/* 1 MiB */
#define PAGE		(4 * K)

static uint8_t wbuf[STORE_CHUNK], rbuf[CARD];

static int buf_is(const uint8_t *p, size_t n, uint8_t v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

/* A write-back cache and a power supply that drops everything volatile. */
static void card_init(struct emu_cache *c, struct emu_power *p)
{
	assert_int_equal(cache_init(c, CARD, 1), 0);
	power_init(p, 1);
	p->survive = 0;
	p->tear = 0;
	p->page = PAGE;
}

static void put(struct emu_cache *c, uint64_t off, uint64_t len, uint8_t v,
		int fua)
{
	memset(wbuf, v, len);
	assert_int_equal(cache_write(c, off, wbuf, len, fua), 0);
}

/* The card's data as a reader sees it (overlay over durable). */
static int reads_as(const struct emu_cache *c, uint64_t off, uint64_t len,
		    uint8_t v)
{
	assert_int_equal(cache_read(c, off, rbuf, len), 0);
	return buf_is(rbuf, len, v);
}

/* What the flash itself holds. */
static int durable_is(const struct emu_cache *c, uint64_t off, uint64_t len,
		      uint8_t v)
{
	assert_int_equal(store_read(&c->durable, off, rbuf, len), 0);
	return buf_is(rbuf, len, v);
}

/* A flushed background of 0x11 over the first chunk. */
static void background(struct emu_cache *c)
{
	put(c, 0, STORE_CHUNK, 0x11, 0);
	assert_int_equal(cache_flush(c), 0);
	assert_int_equal(c->nr, 0);
}

static void test_read_sees_newest(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	background(&c);
	put(&c, 4 * K, 8 * K, 0x22, 0);
	put(&c, 8 * K, 8 * K, 0x33, 0);
	assert_int_equal(cache_zero(&c, 14 * K, 1 * K, 0), 0);
	/* one sector in the next chunk, read across the boundary */
	put(&c, STORE_CHUNK + 512, 512, 0x44, 0);

	assert_true(reads_as(&c, 0, 4 * K, 0x11));
	assert_true(reads_as(&c, 4 * K, 4 * K, 0x22));
	assert_true(reads_as(&c, 8 * K, 6 * K, 0x33));
	assert_true(reads_as(&c, 14 * K, 1 * K, 0));
	assert_true(reads_as(&c, 15 * K, 1 * K, 0x33));
	assert_true(reads_as(&c, 16 * K, STORE_CHUNK - 16 * K, 0x11));
	assert_int_equal(cache_read(&c, STORE_CHUNK - 4 * K, rbuf, 8 * K), 0);
	assert_true(buf_is(rbuf, 4 * K, 0x11));
	assert_true(buf_is(rbuf + 4 * K, 512, 0));
	assert_true(buf_is(rbuf + 4 * K + 512, 512, 0x44));
	assert_true(buf_is(rbuf + 5 * K, 3 * K, 0));
	/* nothing reached the flash yet */
	assert_true(durable_is(&c, 0, STORE_CHUNK, 0x11));
	assert_true(durable_is(&c, STORE_CHUNK, STORE_CHUNK, 0));
	/* and the contract on ranges */
	assert_int_equal(cache_read(&c, 100, rbuf, 512), -EINVAL);
	assert_int_equal(cache_write(&c, 0, wbuf, 100, 0), -EINVAL);
	assert_int_equal(cache_zero(&c, CARD - 512, 1024, 0), -EINVAL);
	cache_free(&c);
}

static void test_unflushed_write_lost_at_cut(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	background(&c);
	put(&c, 0, 8 * K, 0x22, 0);
	put(&c, 32 * K, 8 * K, 0x33, 0);
	assert_int_equal(power_cut(&p, &c), 0);
	assert_true(p.off);
	assert_int_equal(p.cached, 2);
	assert_int_equal(p.dropped, 2);
	assert_int_equal(c.nr, 0);
	assert_true(durable_is(&c, 0, STORE_CHUNK, 0x11));
	assert_true(reads_as(&c, 0, STORE_CHUNK, 0x11));
	cache_free(&c);
}

static void test_flushed_write_kept_at_cut(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	put(&c, 0, 8 * K, 0x22, 0);
	assert_int_equal(io_serve(&c, &p, &(struct emu_req){ .op = EMU_F },
				  NULL, 1 << 20), 0);
	assert_int_equal(c.flushed, 1);
	put(&c, 4 * K, 8 * K, 0x33, 0);		/* after the flush */
	assert_int_equal(power_cut(&p, &c), 0);
	assert_true(durable_is(&c, 0, 8 * K, 0x22));
	assert_true(durable_is(&c, 8 * K, 4 * K, 0));
	cache_free(&c);
}

static void test_fua_write_kept_at_cut(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	p.tear = 1;			/* a FUA write is never the torn one */
	/* nothing cached under it: straight to the flash */
	put(&c, 128 * K, 8 * K, 0x55, 1);
	assert_int_equal(c.fua_direct, 1);
	assert_int_equal(c.nr, 0);
	assert_true(durable_is(&c, 128 * K, 8 * K, 0x55));
	/* over a cached write: kept in order with it */
	put(&c, 0, 8 * K, 0x22, 0);
	put(&c, 4 * K, 4 * K, 0x33, 1);
	assert_int_equal(c.fua_direct, 1);
	assert_int_equal(c.nr, 2);
	put(&c, 32 * K, 8 * K, 0x44, 0);
	assert_true(reads_as(&c, 4 * K, 4 * K, 0x33));
	assert_int_equal(power_cut(&p, &c), 0);
	assert_int_equal(p.fua, 1);
	assert_true(durable_is(&c, 0, 4 * K, 0));
	assert_true(durable_is(&c, 4 * K, 4 * K, 0x33));
	assert_true(durable_is(&c, 128 * K, 8 * K, 0x55));
	cache_free(&c);
}

/*
 * The torn write lands as a prefix that ends at a page boundary of the
 * card (or at its own start or end), never inside a page; across seeds
 * all three outcomes (none, part, all) occur.
 */
static void test_torn_write_keeps_page_prefix(void **state)
{
	const uint64_t off = 2 * K, len = 40 * K;
	int none = 0, part = 0, all = 0;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 200; seed++) {
		struct emu_cache c;
		struct emu_power p;
		uint64_t k = 0;

		card_init(&c, &p);
		power_init(&p, seed);
		p.page = PAGE;
		background(&c);
		put(&c, 8 * K, 4 * K, 0x22, 0);	/* older: may survive */
		put(&c, off, len, 0xab, 0);
		assert_int_equal(power_cut(&p, &c), 0);
		assert_int_equal(p.torn, 1);
		assert_int_equal(p.torn_len, len);

		assert_int_equal(store_read(&c.durable, 0, rbuf, STORE_CHUNK),
				 0);
		while (k < len && rbuf[off + k] == 0xab)
			k++;
		assert_int_equal(k, p.torn_kept);
		assert_true(k == 0 || k == len || (off + k) % PAGE == 0);
		assert_true(buf_is(rbuf, off, 0x11));
		/* behind the prefix: the older data, nothing of the tear */
		if (k < len) {
			uint64_t from = off + k;

			if (from < 8 * K && p.survived) {
				assert_true(buf_is(rbuf + from, 8 * K - from,
						   0x11));
				from = 8 * K;
			}
			if (from < 12 * K && p.survived) {
				assert_true(buf_is(rbuf + from, 12 * K - from,
						   0x22));
				from = 12 * K;
			}
			assert_true(buf_is(rbuf + from, off + len - from,
					   0x11));
		}
		assert_true(buf_is(rbuf + off + len,
				   STORE_CHUNK - off - len, 0x11));
		none += k == 0;
		part += k && k < len;
		all += k == len;
		cache_free(&c);
	}
	assert_true(none && part && all);
}

/* What lands is applied in arrival order where writes overlap. */
static void test_overlapping_writes_land_in_order(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	p.survive = 1;
	put(&c, 0, 8 * K, 0xa1, 0);
	put(&c, 4 * K, 8 * K, 0xb2, 0);
	put(&c, 0, 4 * K, 0xc3, 0);
	assert_int_equal(cache_zero(&c, 10 * K, 1 * K, 0), 0);
	put(&c, 6 * K, 1 * K, 0xd4, 0);
	assert_int_equal(power_cut(&p, &c), 0);
	assert_int_equal(p.survived, 5);
	assert_true(durable_is(&c, 0, 4 * K, 0xc3));
	assert_true(durable_is(&c, 4 * K, 2 * K, 0xb2));
	assert_true(durable_is(&c, 6 * K, 1 * K, 0xd4));
	assert_true(durable_is(&c, 7 * K, 3 * K, 0xb2));
	assert_true(durable_is(&c, 10 * K, 1 * K, 0));
	assert_true(durable_is(&c, 11 * K, 1 * K, 0xb2));
	cache_free(&c);
}

/*
 * At survive = 1/2 each write lands whole or not at all, the count matches
 * the report, a seed repeats its outcome and seeds differ.
 */
static void test_survivors_are_a_seeded_subset(void **state)
{
	unsigned int seed, i, mixed = 0, outcome[2] = { 0, 0 };

	(void)state;
	for (seed = 1; seed <= 64; seed++) {
		unsigned int run;

		for (run = 0; run < 2; run++) {
			struct emu_cache c;
			struct emu_power p;
			unsigned int landed = 0, mask = 0;

			card_init(&c, &p);
			power_init(&p, seed);
			p.tear = 0;
			for (i = 0; i < 8; i++)
				put(&c, i * 8 * K, 8 * K, (uint8_t)(0x80 + i),
				    0);
			assert_int_equal(power_cut(&p, &c), 0);
			for (i = 0; i < 8; i++) {
				int new = durable_is(&c, i * 8 * K, 8 * K,
						     (uint8_t)(0x80 + i));

				assert_true(new ||
					    durable_is(&c, i * 8 * K, 8 * K, 0));
				landed += new;
				mask |= (unsigned int)new << i;
			}
			assert_int_equal(landed, p.survived);
			assert_int_equal(8 - landed, p.dropped);
			outcome[run] = mask;
			cache_free(&c);
		}
		assert_int_equal(outcome[0], outcome[1]);
		mixed += outcome[0] && outcome[0] != 0xff;
	}
	assert_true(mixed > 32);
}

static int serve(struct emu_cache *c, const struct emu_power *p, uint8_t op,
		 uint64_t off, uint64_t len, int fua, uint8_t v)
{
	struct emu_req r = { .op = op, .off = off, .len = len, .fua = fua };

	memset(wbuf, v, len);
	return io_serve(c, p, &r, wbuf, STORE_CHUNK);
}

/*
 * --cut-after 4: requests 1..3 are served; request 4 cuts the power before
 * it is served; it, every request still outstanding and every later one
 * fail with EIO.  The arrival side is what emu_arrive does.
 */
static void test_cut_after_fails_request_n(void **state)
{
	struct emu_cache c;
	struct emu_power p;
	uint64_t seq;

	(void)state;
	card_init(&c, &p);
	p.cut_after = 4;
	for (seq = 0; seq < 3; seq++)
		assert_false(power_due(&p, seq));
	/* 1: a FUA write, served */
	assert_int_equal(serve(&c, &p, EMU_W, 0, 4 * K, 1, 0x22), 4 * K);
	/* 2 and 3 arrive and wait in the server */
	assert_true(power_due(&p, 3));			/* 4 arrives */
	assert_int_equal(power_cut(&p, &c), 0);
	assert_false(power_due(&p, 4));			/* only once */
	assert_int_equal(serve(&c, &p, EMU_W, 8 * K, 4 * K, 0, 0x33), -EIO);
	assert_int_equal(serve(&c, &p, EMU_F, 0, 0, 0, 0), -EIO);
	assert_int_equal(serve(&c, &p, EMU_R, 0, 4 * K, 0, 0), -EIO);
	assert_int_equal(serve(&c, &p, EMU_R, 0, 4 * K, 0, 0), -EIO);
	assert_int_equal(serve(&c, &p, EMU_NR_OPS, 0, 0, 0, 0), -EIO);
	assert_true(durable_is(&c, 0, 4 * K, 0x22));
	assert_true(durable_is(&c, 8 * K, 4 * K, 0));
	cache_free(&c);
}

static void test_io_serve_before_cut(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	assert_int_equal(serve(&c, &p, EMU_W, 4 * K, 8 * K, 0, 0x66), 8 * K);
	memset(wbuf, 0, sizeof(wbuf));
	assert_int_equal(io_serve(&c, &p, &(struct emu_req){
		.op = EMU_R, .off = 4 * K, .len = 8 * K }, wbuf, STORE_CHUNK),
			 8 * K);
	assert_true(buf_is(wbuf, 8 * K, 0x66));
	assert_int_equal(serve(&c, &p, EMU_Z, 4 * K, 4 * K, 0, 0), 0);
	assert_true(reads_as(&c, 4 * K, 4 * K, 0));
	assert_int_equal(serve(&c, &p, EMU_NR_OPS, 0, 0, 0, 0), -EOPNOTSUPP);
	assert_int_equal(serve(&c, &p, EMU_W, 0, 0, 0, 0), -EIO);
	assert_int_equal(serve(&c, &p, EMU_W, CARD, 4 * K, 0, 0), -EIO);
	cache_free(&c);
}

/* Discard and write-zeroes are volatile like writes. */
static void test_discard_is_volatile(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	card_init(&c, &p);
	background(&c);
	assert_int_equal(cache_zero(&c, 0, STORE_CHUNK, 0), 0);
	assert_true(reads_as(&c, 0, STORE_CHUNK, 0));
	assert_int_equal(power_cut(&p, &c), 0);
	assert_true(durable_is(&c, 0, STORE_CHUNK, 0x11));
	cache_free(&c);

	card_init(&c, &p);
	background(&c);
	assert_int_equal(cache_zero(&c, 0, STORE_CHUNK, 0), 0);
	assert_int_equal(cache_flush(&c), 0);
	assert_int_equal(c.durable.allocated, 0);
	assert_int_equal(power_cut(&p, &c), 0);
	assert_true(durable_is(&c, 0, STORE_CHUNK, 0));
	cache_free(&c);
}

/* The overlay is written back whole when it would pass its limit. */
static void test_writeback_at_limit(void **state)
{
	struct emu_cache c;
	struct emu_power p;
	unsigned int i;

	(void)state;
	card_init(&c, &p);
	c.limit = 64 * K;
	for (i = 0; i < 8; i++) {
		put(&c, i * 16 * K, 16 * K, (uint8_t)(0x40 + i), 0);
		assert_true(c.mem <= c.limit + 16 * K + 2 * K);
	}
	assert_true(c.writebacks >= 2);
	for (i = 0; i < 8; i++)
		assert_true(reads_as(&c, i * 16 * K, 16 * K,
				     (uint8_t)(0x40 + i)));
	assert_int_equal(power_cut(&p, &c), 0);
	/* the first write was written back, the last was still cached */
	assert_true(durable_is(&c, 0, 16 * K, 0x40));
	assert_true(durable_is(&c, 7 * 16 * K, 16 * K, 0));
	cache_free(&c);
}

/* No volatile cache (--no-cache, or no image): every write is durable. */
static void test_write_through(void **state)
{
	struct emu_cache c;
	struct emu_power p;

	(void)state;
	assert_int_equal(cache_init(&c, CARD, 0), 0);
	power_init(&p, 1);
	p.survive = 0;
	put(&c, 0, 8 * K, 0x77, 0);
	assert_int_equal(c.nr, 0);
	assert_int_equal(power_cut(&p, &c), 0);
	assert_int_equal(p.cached, 0);
	assert_true(durable_is(&c, 0, 8 * K, 0x77));
	cache_free(&c);
}

static void test_image_round_trip(void **state)
{
	char path[] = "/tmp/flashemu-image-XXXXXX";
	struct emu_store s, t;
	uint64_t size = 5 * STORE_CHUNK + 8 * K;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(store_init(&s, size), 0);
	memset(wbuf, 0x5a, sizeof(wbuf));
	assert_int_equal(store_write(&s, 100, wbuf, 1000), 0);
	assert_int_equal(store_write(&s, 5 * STORE_CHUNK + 4 * K, wbuf,
				     4 * K), 0);
	assert_int_equal(image_save(&s, path), 0);

	assert_int_equal(store_init(&t, size), 0);
	assert_int_equal(image_load(&t, path), 0);
	assert_int_equal(t.allocated, 2);
	assert_int_equal(store_read(&t, 0, rbuf, size), 0);
	assert_true(buf_is(rbuf, 100, 0));
	assert_true(buf_is(rbuf + 100, 1000, 0x5a));
	assert_true(buf_is(rbuf + 1100, 5 * STORE_CHUNK + 4 * K - 1100, 0));
	assert_true(buf_is(rbuf + 5 * STORE_CHUNK + 4 * K, 4 * K, 0x5a));
	store_free(&t);

	assert_int_equal(store_init(&t, size - 512), 0);
	assert_int_equal(image_load(&t, path), -EINVAL);
	store_free(&t);
	unlink(path);
	assert_int_equal(store_init(&t, size), 0);
	assert_int_equal(image_load(&t, path), -ENOENT);
	store_free(&t);
	store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_sees_newest),
		cmocka_unit_test(test_unflushed_write_lost_at_cut),
		cmocka_unit_test(test_flushed_write_kept_at_cut),
		cmocka_unit_test(test_fua_write_kept_at_cut),
		cmocka_unit_test(test_torn_write_keeps_page_prefix),
		cmocka_unit_test(test_overlapping_writes_land_in_order),
		cmocka_unit_test(test_survivors_are_a_seeded_subset),
		cmocka_unit_test(test_cut_after_fails_request_n),
		cmocka_unit_test(test_io_serve_before_cut),
		cmocka_unit_test(test_discard_is_volatile),
		cmocka_unit_test(test_writeback_at_limit),
		cmocka_unit_test(test_write_through),
		cmocka_unit_test(test_image_round_trip),
	};

	return cmocka_run_group_tests_name("flashemu-cache", tests, NULL,
					   NULL);
}
