// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for flashemu's sparse RAM store and device clock
 * (tools/flashemu/store.c, sched.c).  Built and run by
 * "make -C tools/flashemu check".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "flashemu.h"

#define MS	1000000ull
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int buf_is(const uint8_t *p, size_t n, uint8_t v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

static void test_store_unwritten_reads_zero(void **state)
{
	struct emu_store s;
	uint8_t *b = malloc(3 * STORE_CHUNK);

	(void)state;
	assert_int_equal(store_init(&s, 1 << 20), 0);
	memset(b, 0xaa, 3 * STORE_CHUNK);
	assert_int_equal(store_read(&s, 12345, b, 3 * STORE_CHUNK), 0);
	assert_true(buf_is(b, 3 * STORE_CHUNK, 0));
	assert_int_equal(s.allocated, 0);
	store_free(&s);
	free(b);
}

static void test_store_write_across_chunks(void **state)
{
	struct emu_store s;
	uint8_t w[8192], r[3 * 4096];
	uint64_t off = STORE_CHUNK - 4096;	/* straddles chunks 0 and 1 */

	(void)state;
	assert_int_equal(store_init(&s, 4 * STORE_CHUNK), 0);
	memset(w, 0x5c, sizeof(w));
	assert_int_equal(store_write(&s, off, w, sizeof(w)), 0);
	assert_int_equal(s.allocated, 2);
	assert_int_equal(store_read(&s, off - 2048, r, sizeof(r)), 0);
	assert_true(buf_is(r, 2048, 0));
	assert_true(buf_is(r + 2048, 8192, 0x5c));
	assert_true(buf_is(r + 2048 + 8192, 2048, 0));
	store_free(&s);
}

static void test_store_zero_write_does_not_allocate(void **state)
{
	struct emu_store s;
	uint8_t z[4096] = { 0 }, one[4096];

	(void)state;
	assert_int_equal(store_init(&s, 4 * STORE_CHUNK), 0);
	assert_int_equal(store_write(&s, 0, z, sizeof(z)), 0);
	assert_int_equal(s.allocated, 0);
	/* but zeroes over data must land */
	memset(one, 1, sizeof(one));
	assert_int_equal(store_write(&s, 0, one, sizeof(one)), 0);
	assert_int_equal(store_write(&s, 0, z, 512), 0);
	assert_int_equal(store_read(&s, 0, one, sizeof(one)), 0);
	assert_true(buf_is(one, 512, 0));
	assert_true(buf_is(one + 512, 4096 - 512, 1));
	assert_int_equal(s.allocated, 1);
	store_free(&s);
}

static void test_store_discard(void **state)
{
	struct emu_store s;
	uint8_t *b = malloc(4 * STORE_CHUNK);

	(void)state;
	assert_int_equal(store_init(&s, 4 * STORE_CHUNK), 0);
	memset(b, 0x77, 4 * STORE_CHUNK);
	assert_int_equal(store_write(&s, 0, b, 4 * STORE_CHUNK), 0);
	assert_int_equal(s.allocated, 4);
	/* half of chunk 0, all of 1 and 2, 512 bytes of 3 */
	assert_int_equal(store_zero(&s, STORE_CHUNK / 2,
				    STORE_CHUNK / 2 + 2 * STORE_CHUNK + 512), 0);
	assert_int_equal(s.allocated, 2);
	assert_int_equal(s.peak_allocated, 4);
	assert_int_equal(store_read(&s, 0, b, 4 * STORE_CHUNK), 0);
	assert_true(buf_is(b, STORE_CHUNK / 2, 0x77));
	assert_true(buf_is(b + STORE_CHUNK / 2,
			   STORE_CHUNK / 2 + 2 * STORE_CHUNK + 512, 0));
	assert_true(buf_is(b + 3 * STORE_CHUNK + 512, STORE_CHUNK - 512, 0x77));
	/* discarding never-written space is fine */
	assert_int_equal(store_zero(&s, STORE_CHUNK, STORE_CHUNK), 0);
	store_free(&s);
	free(b);
}

static void test_store_short_last_chunk(void **state)
{
	struct emu_store s;
	uint64_t size = STORE_CHUNK + 8192;
	uint8_t b[8192];

	(void)state;
	assert_int_equal(store_init(&s, size), 0);
	assert_int_equal(s.nr_chunks, 2);
	memset(b, 3, sizeof(b));
	assert_int_equal(store_write(&s, STORE_CHUNK, b, sizeof(b)), 0);
	assert_int_equal(s.allocated, 1);
	assert_int_equal(store_zero(&s, STORE_CHUNK, 8192), 0);
	assert_int_equal(s.allocated, 0);
	store_free(&s);
}

static void test_store_bounds(void **state)
{
	struct emu_store s;
	uint8_t b[1024];

	(void)state;
	assert_int_equal(store_init(&s, 1 << 20), 0);
	assert_int_equal(store_read(&s, (1 << 20) - 512, b, 1024), -EINVAL);
	assert_int_equal(store_write(&s, (1 << 20) - 512, b, 1024), -EINVAL);
	assert_int_equal(store_zero(&s, UINT64_MAX - 10, 512), -EINVAL);
	assert_int_equal(store_read(&s, (1 << 20) - 512, b, 512), 0);
	assert_int_equal(store_read(&s, 1 << 20, b, 0), 0);
	store_free(&s);
}

/* A FIFO single server: back to back arrivals queue up. */
static void test_clock_fifo(void **state)
{
	struct emu_clock c;

	(void)state;
	clock_init(&c, 1000, 1.0);
	assert_int_equal(clock_book(&c, 1000, 1 * MS), 1000 + 1 * MS);
	assert_int_equal(clock_book(&c, 1000, 1 * MS), 1000 + 2 * MS);
	assert_int_equal(clock_book(&c, 1500, 2 * MS), 1000 + 4 * MS);
	/* idle: the next one starts when it arrives */
	assert_int_equal(clock_book(&c, 1000 + 10 * MS, 1 * MS),
			 1000 + 11 * MS);
	/* zero service completes at max(arrival, free) */
	assert_int_equal(clock_book(&c, 1000 + 10 * MS, 0), 1000 + 11 * MS);
}

static void test_clock_dilate(void **state)
{
	struct emu_clock c;

	(void)state;
	clock_init(&c, 0, 10.0);
	assert_int_equal(clock_model_arrival(&c, 50 * MS), 5 * MS);
	assert_int_equal(clock_book(&c, 50 * MS, 2 * MS), 70 * MS);
	assert_int_equal(clock_book(&c, 55 * MS, 1 * MS), 80 * MS);
	/* bad dilation falls back to 1 */
	clock_init(&c, 0, 0.0);
	assert_true(c.dilate == 1.0);
}

static void test_clock_model_arrival_monotonic(void **state)
{
	struct emu_clock c;

	(void)state;
	clock_init(&c, 100 * MS, 2.0);
	assert_int_equal(clock_model_arrival(&c, 50 * MS), 0);
	assert_int_equal(clock_model_arrival(&c, 120 * MS), 10 * MS);
	/* never goes back, as flashmodel requires */
	assert_int_equal(clock_model_arrival(&c, 110 * MS), 10 * MS);
	assert_int_equal(clock_model_arrival(&c, 130 * MS), 15 * MS);
}

/*
 * The model returns completion = max(arrival, model free) + service; the
 * clock recovers the service time from consecutive completions.
 */
static void test_clock_model_service(void **state)
{
	struct emu_clock c;

	(void)state;
	clock_init(&c, 0, 1.0);
	/* idle device: service = done - arrival */
	assert_int_equal(clock_model_service(&c, 10 * MS, 13 * MS), 3 * MS);
	/* arrives while busy until 13 ms: service = done - 13 ms */
	assert_int_equal(clock_model_service(&c, 11 * MS, 20 * MS), 7 * MS);
	/* zero-cost request */
	assert_int_equal(clock_model_service(&c, 12 * MS, 20 * MS), 0);
	/* idle again */
	assert_int_equal(clock_model_service(&c, 30 * MS, 31 * MS), 1 * MS);
}

/* Wall completions equal t0 + model completion * dilate when on time. */
static void test_clock_matches_model(void **state)
{
	static const uint64_t arr[] = { 0, 1, 2, 40, 41, 90 };	/* ms, wall */
	static const uint64_t svc[] = { 5, 5, 5, 1, 30, 2 };	/* ms, model */
	struct emu_clock c;
	uint64_t mfree = 0, t0 = 7 * MS;
	double dil = 4.0;
	unsigned int i;

	(void)state;
	clock_init(&c, t0, dil);
	for (i = 0; i < ARRAY_SIZE(arr); i++) {
		uint64_t wall = t0 + arr[i] * MS;
		uint64_t ma = clock_model_arrival(&c, wall);
		uint64_t mdone, s, done;

		mfree = (ma > mfree ? ma : mfree) + svc[i] * MS;
		mdone = mfree;
		s = clock_model_service(&c, ma, mdone);
		assert_int_equal(s, svc[i] * MS);
		done = clock_book(&c, wall, s);
		assert_true(done >= t0 + (uint64_t)(mdone * dil) - 1 &&
			    done <= t0 + (uint64_t)(mdone * dil) + 1);
	}
}

/* Four channels: four requests at once, the fifth waits for the first. */
static void test_clock_channels_parallel(void **state)
{
	struct emu_clock c;
	unsigned int i;

	(void)state;
	clock_init_channels(&c, 0, 1.0, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(clock_book(&c, 0, 1 * MS), 1 * MS);
	assert_int_equal(c.max_conc, 4);
	assert_int_equal(clock_book(&c, 0, 1 * MS), 2 * MS);
	assert_int_equal(c.chan_busy[0], 2 * MS);
	for (i = 1; i < 4; i++)
		assert_int_equal(c.chan_busy[i], 1 * MS);
	/* idle again: one request alone */
	assert_int_equal(clock_book(&c, 10 * MS, 3 * MS), 13 * MS);
	assert_int_equal(c.max_conc, 4);
}

/* With two channels a short request overtakes a long one. */
static void test_clock_channels_out_of_order(void **state)
{
	struct emu_clock c;
	uint64_t long_done, short_done;

	(void)state;
	clock_init_channels(&c, 1000, 2.0, 2);
	long_done = clock_book(&c, 1000, 10 * MS);
	short_done = clock_book(&c, 1000 + 1 * MS, 1 * MS);
	assert_int_equal(long_done, 1000 + 20 * MS);
	assert_int_equal(short_done, 1000 + 3 * MS);
	assert_true(short_done < long_done);
	assert_int_equal(c.max_conc, 2);
	/* both busy: the next starts when the short one's channel frees */
	assert_int_equal(clock_book(&c, 1000 + 2 * MS, 1 * MS),
			 1000 + 5 * MS);
}

/* Out-of-range channel counts are clamped, 0 to 1. */
static void test_clock_channels_clamped(void **state)
{
	struct emu_clock c;

	(void)state;
	clock_init_channels(&c, 0, 1.0, 0);
	assert_int_equal(c.channels, 1);
	clock_init_channels(&c, 0, 1.0, EMU_MAX_CHANNELS + 5);
	assert_int_equal(c.channels, EMU_MAX_CHANNELS);
}

/* splitmix64, for repeatable pseudo-random schedules */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * One channel is the old single FIFO server, exactly: done = max(arrival,
 * previous done) + service * dilate, completions in arrival order.
 */
static void test_clock_one_channel_is_fifo(void **state)
{
	struct emu_clock c;
	uint64_t x = 42, wall = 5 * MS, free = 5 * MS, done;
	unsigned int i;

	(void)state;
	clock_init_channels(&c, 5 * MS, 3.0, 1);
	for (i = 0; i < 10000; i++) {
		uint64_t svc = mix(&x) % (3 * MS);

		wall += mix(&x) % (4 * MS);
		done = clock_book(&c, wall, svc);
		free = (wall > free ? wall : free) +
		       (uint64_t)((double)svc * 3.0 + 0.5);
		assert_int_equal(done, free);
	}
	assert_int_equal(c.max_conc, 1);
}

/*
 * N channels against a direct check of what an N-server FIFO queue must
 * do, on random arrivals: at most N requests in service at any instant,
 * starts in arrival order, a request waits only while all N are busy, and
 * max_conc is the true peak.
 */
static void test_clock_channels_invariants(void **state)
{
	enum { NREQ = 400 };
	static uint64_t arr[NREQ], start[NREQ], done[NREQ];
	unsigned int n, i, j;
	uint64_t x = 7;

	(void)state;
	for (n = 1; n <= 8; n++) {
		struct emu_clock c;
		uint64_t wall = 0;
		unsigned int peak = 0;

		clock_init_channels(&c, 0, 1.0, n);
		for (i = 0; i < NREQ; i++) {
			uint64_t svc = 1 + mix(&x) % (4 * MS);

			wall += mix(&x) % (MS / 2 + MS * (i % 50 == 0) * 40);
			arr[i] = wall;
			done[i] = clock_book(&c, wall, svc);
			start[i] = done[i] - svc;
			assert_true(start[i] >= arr[i]);
			if (i)
				assert_true(start[i] >= start[i - 1]);
		}
		for (i = 0; i < NREQ; i++) {
			unsigned int busy = 0;

			/* in service at start[i]: j with start <= t < done */
			for (j = 0; j < NREQ; j++)
				if (start[j] <= start[i] && done[j] > start[i])
					busy++;
			assert_true(busy <= n);
			if (busy > peak)
				peak = busy;
			/* waited: then all n were busy just before it started */
			if (start[i] > arr[i]) {
				busy = 0;
				for (j = 0; j < i; j++)
					if (start[j] <= start[i] &&
					    done[j] >= start[i])
						busy++;
				assert_true(busy >= n);
			}
		}
		assert_int_equal(c.max_conc, peak);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_unwritten_reads_zero),
		cmocka_unit_test(test_store_write_across_chunks),
		cmocka_unit_test(test_store_zero_write_does_not_allocate),
		cmocka_unit_test(test_store_discard),
		cmocka_unit_test(test_store_short_last_chunk),
		cmocka_unit_test(test_store_bounds),
		cmocka_unit_test(test_clock_fifo),
		cmocka_unit_test(test_clock_dilate),
		cmocka_unit_test(test_clock_model_arrival_monotonic),
		cmocka_unit_test(test_clock_model_service),
		cmocka_unit_test(test_clock_matches_model),
		cmocka_unit_test(test_clock_channels_parallel),
		cmocka_unit_test(test_clock_channels_out_of_order),
		cmocka_unit_test(test_clock_channels_clamped),
		cmocka_unit_test(test_clock_one_channel_is_fifo),
		cmocka_unit_test(test_clock_channels_invariants),
	};

	return cmocka_run_group_tests_name("flashemu", tests, NULL, NULL);
}
