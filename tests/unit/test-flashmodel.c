// SPDX-License-Identifier: GPL-2.0
/*
 * test-flashmodel.c - unit tests of tools/flashmodel (cmocka).
 *
 * Most tests use a toy card whose costs are easy to add up by hand: 4 KiB
 * units, 64 KiB AUs (16 units), 1 ms per unit programmed or copied, 1 ms
 * per write command, 2 ms erase, 10 ms merge overhead.  The expected values
 * in the comments are computed by hand from flash-model.md, not by the
 * model.  The calibration tests compare the builtin presets with every
 * published flashbench row of flash-model.md and print the table README.md
 * quotes.  Built and run by "make -C tools/flashmodel check".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "flashmodel.h"

#ifndef FM_PRESET_DIR
#define FM_PRESET_DIR "presets"
#endif

#define KiB	1024ull
#define MiB	(1024ull * 1024)
#define MS	1000000ull
#define US	1000ull
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct fm_params toy(void)
{
	struct fm_params p;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "toy");
	p.au_size = 64 * KiB;
	p.unit = 4 * KiB;
	p.open_aus = 2;
	p.random_aus = 1;
	p.random_ok = 0;
	p.write_overhead_ns = 1 * MS;
	p.write_bw = 4096000;		/* 4 KiB per ms */
	p.rmw_ns = 500 * US;
	p.read_overhead_ns = 100 * US;
	p.read_bw = 4096000;
	p.erase_ns = 2 * MS;
	p.merge_ns = 10 * MS;
	p.copy_bw = 4096000;
	p.flush_ns = 300 * US;
	p.fua_ns = 200 * US;
	p.discard_ns = 50 * US;
	p.aged = 1;
	return p;
}

static struct fm_stats stats(struct fm_model *m)
{
	struct fm_stats s;

	fm_get_stats(m, &s);
	return s;
}

/*
 * Write @len bytes at unit @u of AU @au of the toy card (64 KiB AUs of
 * 4 KiB units); returns the service time of that write.
 */
static uint64_t w(struct fm_model *m, uint64_t au, uint64_t u, uint64_t len)
{
	uint64_t before = stats(m).busy_ns;

	fm_submit(m, 0, FM_WRITE, au * 64 * KiB + u * 4 * KiB, len, 0);
	return stats(m).busy_ns - before;
}

/* One 64 KiB write: 1 + 16 ms program + 2 ms erase; a switch merge. */
static void test_linear_full_au(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	assert_non_null(m);
	assert_int_equal(w(m, 3, 0, 64 * KiB), 19 * MS);
	s = stats(m);
	assert_true(fm_write_amplification(&s) == 1.0);
	assert_int_equal(s.erases, 1);
	assert_int_equal(s.switch_merges, 1);
	assert_int_equal(s.full_merges, 0);
	assert_int_equal(s.copied_bytes, 0);
	assert_int_equal(s.pending_aus, 0);
	assert_int_equal(fm_service_percentile(m, FM_WRITE, 0.5), 19 * MS);
	fm_free(m);

	/* the same AU in 16 linear 4 KiB writes: 16 x 2 ms + 2 ms erase */
	m = fm_new(&p);
	for (int u = 0; u < 16; u++)
		w(m, 3, u, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.busy_ns, 34 * MS);
	assert_int_equal(s.erases, 1);
	assert_int_equal(s.switch_merges, 1);
	assert_int_equal(s.full_merges, 0);
	assert_true(fm_write_amplification(&s) == 1.0);
	assert_int_equal(fm_service_percentile(m, FM_WRITE, 1.0), 4 * MS);
	assert_int_equal(fm_service_percentile(m, FM_WRITE, 0.5), 2 * MS);
	fm_free(m);
}

/*
 * Three AUs round robin on a 2-slot card, 4 KiB each, two rounds: from the
 * third write on, each write closes the LRU slot, which holds one unit, so
 * it copies 15 units: 15 + 10 + 2 = 27 ms.  6 x 2 + 4 x 27 = 120 ms.
 */
static void test_round_robin_past_limit(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	for (int r = 0; r < 2; r++)
		for (int a = 0; a < 3; a++)
			w(m, a, r, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.full_merges, 4);
	assert_int_equal(s.switch_merges, 0);
	assert_int_equal(s.erases, 4);
	assert_int_equal(s.copied_bytes, 4 * 15 * 4 * KiB);
	assert_int_equal(s.busy_ns, 120 * MS);
	assert_int_equal(s.pending_aus, 2);
	assert_int_equal(s.pending_copy_bytes, 2 * 15 * 4 * KiB);
	/* (6 x 4 KiB programmed + 60 units copied) / 6 x 4 KiB = 11 */
	assert_true(fm_write_amplification(&s) > 10.999 &&
		    fm_write_amplification(&s) < 11.001);
	assert_int_equal(fm_service_percentile(m, FM_WRITE, 1.0), 29 * MS);
	fm_free(m);

	/* within the limit: two AUs round robin never merge */
	m = fm_new(&p);
	for (int u = 0; u < 16; u++)
		for (int a = 0; a < 2; a++)
			w(m, a, u, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.full_merges, 0);
	assert_int_equal(s.switch_merges, 2);
	assert_int_equal(s.busy_ns, 32 * 2 * MS + 2 * 2 * MS);
	fm_free(m);
}

/* Linear-only card: a backward write closes (15 units copied) and reopens. */
static void test_backward_linear_only(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	assert_int_equal(w(m, 0, 4, 4 * KiB), 2 * MS);
	assert_int_equal(w(m, 0, 2, 4 * KiB), 2 * MS + 27 * MS);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	assert_int_equal(s.copied_bytes, 15 * 4 * KiB);
	assert_int_equal(s.pending_aus, 1);
	/* the reopened slot holds unit 2 only: 15 units to copy */
	assert_int_equal(s.pending_copy_bytes, 15 * 4 * KiB);
	/* forward again, skipping a hole: no close */
	w(m, 0, 9, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	assert_int_equal(s.pending_copy_bytes, 14 * 4 * KiB);
	fm_free(m);
}

/*
 * random_ok card with one random slot: a backward write switches the slot
 * to RANDOM for free.  A second AU going random closes the first random
 * slot: copy 14 valid units not rewritten + 2 log units = 16 ms + 12 ms.
 */
static void test_random_ok(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;
	struct fm_stats s;

	(void)state;
	p.random_ok = 1;
	p.random_aus = 1;
	m = fm_new(&p);
	w(m, 0, 4, 4 * KiB);
	assert_int_equal(w(m, 0, 2, 4 * KiB), 2 * MS);
	s = stats(m);
	assert_int_equal(s.erases, 0);
	assert_int_equal(s.full_merges, 0);
	/* pending: 14 + 2 log units */
	assert_int_equal(s.pending_copy_bytes, 16 * 4 * KiB);
	w(m, 1, 4, 4 * KiB);
	assert_int_equal(w(m, 1, 2, 4 * KiB), 2 * MS + 28 * MS);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	assert_int_equal(s.copied_bytes, 16 * 4 * KiB);
	fm_free(m);
}

/*
 * A RANDOM slot is not closed for free when every unit has been written:
 * the data sits in the card's log.  Writing all 16 units backwards leaves
 * the slot open with 16 log units to copy, and closing it costs 16 ms of
 * copy + 10 ms merge + 2 ms erase.
 */
static void test_random_full_not_switch(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;
	struct fm_stats s;

	(void)state;
	p.random_ok = 1;
	p.random_aus = 1;
	p.open_aus = 1;
	m = fm_new(&p);
	for (int u = 15; u >= 0; u--)
		assert_int_equal(w(m, 0, u, 4 * KiB), 2 * MS);
	s = stats(m);
	assert_int_equal(s.erases, 0);
	assert_int_equal(s.switch_merges, 0);
	assert_int_equal(s.pending_aus, 1);
	assert_int_equal(s.pending_copy_bytes, 16 * 4 * KiB);
	assert_int_equal(w(m, 1, 0, 4 * KiB), 2 * MS + 28 * MS);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	assert_int_equal(s.copied_bytes, 16 * 4 * KiB);
	fm_free(m);
}

/* The FAT AU is page-mapped: no order of writes there closes anything. */
static void test_fat_au(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;
	struct fm_stats s;
	static const int units[] = { 5, 3, 9, 0, 15, 1, 3, 3 };

	(void)state;
	p.fat_aus = 1;
	p.open_aus = 1;
	m = fm_new(&p);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		assert_int_equal(w(m, 0, units[i], 4 * KiB), 2 * MS);
		if (i == 3)	/* an open AU elsewhere must not be closed */
			w(m, 1, 0, 4 * KiB);
	}
	s = stats(m);
	assert_int_equal(s.erases, 0);
	assert_int_equal(s.full_merges, 0);
	assert_int_equal(s.pending_aus, 1);	/* AU 1, opened once */
	fm_free(m);
}

/* Discarding a whole AU drops its slot at no cost and its data. */
static void test_discard_whole_au(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	for (int u = 0; u < 4; u++)
		w(m, 0, u, 4 * KiB);
	assert_int_equal(fm_submit(m, 0, FM_DISCARD, 0, 64 * KiB, 0),
			 8 * MS + 50 * US);
	s = stats(m);
	assert_int_equal(s.pending_aus, 0);
	/* two more AUs fit: the dropped slot is free */
	w(m, 1, 0, 4 * KiB);
	w(m, 2, 0, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.full_merges, 0);
	assert_int_equal(s.erases, 0);
	/* AU 0 again, then AU 3 evicts AU 1 (15 units) ... */
	w(m, 0, 0, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.copied_bytes, 15 * 4 * KiB);
	/* ... and AU 1 evicts AU 2 (15), AU 3 evicts AU 0: nothing valid */
	w(m, 1, 1, 4 * KiB);
	w(m, 3, 0, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.full_merges, 3);
	assert_int_equal(s.copied_bytes, 30 * 4 * KiB);
	fm_free(m);
}

/* A partial discard only invalidates the units it fully covers. */
static void test_discard_partial(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	w(m, 0, 0, 4 * KiB);
	/* units 2..5 whole, 6 only half: 4 units invalid */
	fm_submit(m, 0, FM_DISCARD, 8 * KiB, 18 * KiB, 0);
	s = stats(m);
	assert_int_equal(s.pending_copy_bytes, (15 - 4) * 4 * KiB);
	fm_free(m);
}

/* Unaligned or partial-unit writes program whole units and pay the RMW. */
static void test_unaligned_rmw(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	fm_free(m);
	p.open_aus = 4;		/* no AU closes in this test */
	m = fm_new(&p);
	/* 4 KiB at 1 KiB: two units, 1 + 2 + 0.5 ms */
	assert_int_equal(fm_submit(m, 0, FM_WRITE, 1 * KiB, 4 * KiB, 0),
			 3500 * US);
	s = stats(m);
	assert_int_equal(s.programmed_bytes, 8 * KiB);
	/* 2 KiB at a unit start: one unit, 1 + 1 + 0.5 ms */
	assert_int_equal(fm_submit(m, 0, FM_WRITE, 64 * KiB, 2 * KiB, 0),
			 3500 * US + 2500 * US);
	/* aligned: no RMW */
	assert_int_equal(fm_submit(m, 0, FM_WRITE, 128 * KiB, 4 * KiB, 0),
			 6 * MS + 2 * MS);
	s = stats(m);
	assert_int_equal(s.programmed_bytes, 16 * KiB);
	assert_true(fm_write_amplification(&s) > 1.59 &&
		    fm_write_amplification(&s) < 1.61);	/* 16 / 10 */
	fm_free(m);
}

/* 1.5 MiB AUs of 16 KiB units (96 units): boundaries at 1.5 MiB steps. */
static void test_non_pow2_au(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;
	struct fm_stats s;
	uint64_t au = 1536 * KiB;

	(void)state;
	p.au_size = au;
	p.unit = 16 * KiB;
	p.write_bw = 16384000;	/* 1 ms per unit */
	p.copy_bw = 16384000;
	m = fm_new(&p);
	assert_non_null(m);
	/* AU 1 written in one go: 1 + 96 + 2 ms, a switch merge */
	assert_int_equal(fm_submit(m, 0, FM_WRITE, au, au, 0), 99 * MS);
	s = stats(m);
	assert_int_equal(s.switch_merges, 1);
	/* a 32 KiB write across the 3 MiB boundary: units 95 of AU 1, 0 of AU 2 */
	fm_submit(m, 0, FM_WRITE, 2 * au - 16 * KiB, 32 * KiB, 0);
	s = stats(m);
	assert_int_equal(s.pending_aus, 2);
	/* each slot copies 95 units */
	assert_int_equal(s.pending_copy_bytes, 2 * 95 * 16 * KiB);
	/* a third AU (4.5 MiB) closes AU 1, the LRU (same clock tick order) */
	fm_submit(m, 0, FM_WRITE, 3 * au, 16 * KiB, 0);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	assert_int_equal(s.copied_bytes, 95 * 16 * KiB);
	fm_free(m);
}

/* Open-AU pattern on 1.5, 3 and 6 MiB AUs: rows, merges, collapse. */
static void test_openau_non_pow2(void **state)
{
	static const uint64_t aus[] = { 1536 * KiB, 3 * MiB, 6 * MiB };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct fm_params p;
		struct fm_openau o = { .aus = 2, .offset = UINT64_MAX };
		struct fm_openau_row r2[16], r3[16];
		struct fm_model *m;
		struct fm_stats s;
		int n;

		fm_preset_builtin("sd-c10", &p);
		p.au_size = aus[i];
		o.block = aus[i] / 8;
		m = fm_new(&p);
		n = fm_openau_run(m, &o, r2, 16);
		assert_int_equal(n, 4);	/* AU, AU/2, AU/4, AU/8 */
		assert_int_equal(r2[3].block, aus[i] / 8);
		assert_int_equal(r2[0].bytes, 2 * aus[i]);
		s = stats(m);
		assert_int_equal(s.full_merges, 0);
		assert_int_equal(s.switch_merges, 8);	/* 2 AUs x 4 rows */
		fm_free(m);

		o.aus = 3;
		m = fm_new(&p);
		assert_int_equal(fm_openau_run(m, &o, r3, 16), 4);
		s = stats(m);
		assert_true(s.full_merges > 0);
		/* 3 AUs at AU/8: every block closes a slot */
		assert_true(r3[3].mbps * 2.5 < r2[3].mbps);
		fm_free(m);
	}
}

/* Buffer A takes small writes that start a run; the FIFO evicts a unit. */
static void test_buffer_a(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;
	struct fm_stats s;

	(void)state;
	p.buffer_a_size = 8 * KiB;
	p.buffer_a_entries = 2;
	p.open_aus = 1;
	m = fm_new(&p);
	w(m, 5, 3, 4 * KiB);
	w(m, 9, 7, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.pending_aus, 0);	/* no AU opened */
	/* third entry evicts the oldest: copy one unit (1 ms) */
	assert_int_equal(w(m, 12, 1, 4 * KiB), 3 * MS);
	s = stats(m);
	assert_int_equal(s.copied_bytes, 4 * KiB);
	assert_int_equal(s.erases, 0);
	/* continuing the run goes to the AU (buffer B) */
	w(m, 12, 2, 4 * KiB);
	s = stats(m);
	assert_int_equal(s.pending_aus, 1);
	/* a small write across an 8 KiB boundary cannot use buffer A */
	fm_submit(m, 0, FM_WRITE, 20 * 64 * KiB + 6 * KiB, 4 * KiB, 0);
	s = stats(m);
	assert_int_equal(s.full_merges, 1);
	fm_free(m);
}

/* FUA, flush, preflush, reads; queueing on the model clock. */
static void test_costs_and_clock(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m = fm_new(&p);
	struct fm_stats s;

	(void)state;
	assert_int_equal(fm_submit(m, 0, FM_WRITE, 0, 4 * KiB, FM_FUA),
			 2200 * US);
	assert_int_equal(fm_submit(m, 0, FM_FLUSH, 0, 0, 0), 2500 * US);
	assert_int_equal(fm_submit(m, 0, FM_READ, 0, 8 * KiB, FM_PREFLUSH),
			 2500 * US + 300 * US + 2100 * US);
	/* idle gap: starts at arrival */
	assert_int_equal(fm_submit(m, 100 * MS, FM_READ, 0, 4 * KiB, 0),
			 100 * MS + 1100 * US);
	s = stats(m);
	assert_int_equal(s.reads, 2);
	assert_int_equal(s.writes, 1);
	assert_int_equal(s.flushes, 1);
	assert_int_equal(s.read_bytes, 12 * KiB);
	assert_int_equal(s.busy_ns, 2200 * US + 300 * US + 2400 * US + 1100 * US);
	assert_int_equal(s.last_completion_ns, 100 * MS + 1100 * US);
	/* read latency: 4.9 ms (waited for the flush) and 1.1 ms */
	assert_int_equal(fm_latency_percentile(m, FM_READ, 1.0), 4900 * US);
	assert_int_equal(fm_service_percentile(m, FM_READ, 0.5), 1100 * US);
	/* coarse histogram: 1100 us is in [1024, 2048) us, bucket 10 */
	assert_int_equal(s.read_service_hist[10], 1);
	assert_int_equal(s.read_service_hist[11], 1);	/* 2400 us */
	assert_int_equal(s.write_service_hist[11], 1);	/* 2200 us */
	fm_free(m);
}

/* max_transfer splits a request into commands, each paying overhead. */
static void test_max_transfer(void **state)
{
	struct fm_params p = toy();
	struct fm_model *m;

	(void)state;
	p.au_size = 1 * MiB;
	p.max_transfer = 24 * KiB;
	m = fm_new(&p);
	/* 64 KiB = 24 + 24 + 16: 3 x 1 ms + 16 ms */
	assert_int_equal(fm_submit(m, 0, FM_WRITE, 0, 64 * KiB, 0), 19 * MS);
	fm_free(m);
}

static void test_params_check(void **state)
{
	struct fm_params p = toy();
	char err[128];

	(void)state;
	assert_int_equal(fm_params_check(&p, err, sizeof(err)), 0);
	p.au_size = 63 * KiB;
	assert_int_equal(fm_params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "multiple of unit"));
	assert_null(fm_new(&p));
	p = toy();
	p.open_aus = 0;
	assert_null(fm_new(&p));
	p = toy();
	p.random_aus = 3;
	assert_int_equal(fm_params_check(&p, err, sizeof(err)), -1);
	p = toy();
	p.host_depth = 4097;
	assert_int_equal(fm_params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "host_depth"));
}

static void test_builtins(void **state)
{
	const char *const *n = fm_preset_names();
	struct fm_params p;
	char err[256];
	int count = 0;

	(void)state;
	for (; *n; n++, count++) {
		assert_int_equal(fm_preset_builtin(*n, &p), 0);
		assert_string_equal(p.name, *n);
		assert_int_equal(fm_params_check(&p, err, sizeof(err)), 0);
		assert_int_equal(fm_preset_get(*n, &p, err, sizeof(err)), 0);
	}
	assert_int_equal(count, 4);
	/* the host's driver: usb-storage takes one command, MMC two */
	assert_int_equal(fm_preset_builtin("usb-8g", &p), 0);
	assert_int_equal(p.host_depth, 1);
	assert_int_equal(fm_preset_builtin("sd-c10", &p), 0);
	assert_int_equal(p.host_depth, 2);
	assert_int_equal(fm_preset_builtin("no-such-card", &p), -1);
	assert_int_equal(fm_preset_get("no-such-card", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-such-card"));
}

/* Write @text to a temporary file, load it, return the result. */
static int load_text(const char *text, struct fm_params *p, char *err,
		     size_t n, char *path)
{
	int fd, r;

	snprintf(path, 64, "/tmp/fmtest-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	r = fm_preset_load(path, p, err, n);
	unlink(path);
	return r;
}

static void expect_error(const char *text, int line, const char *why)
{
	struct fm_params p;
	char err[512], path[64], want[128];

	assert_int_equal(load_text(text, &p, err, sizeof(err), path), -1);
	if (line)
		snprintf(want, sizeof(want), "%s:%d: ", path, line);
	else
		snprintf(want, sizeof(want), "%s: ", path);
	if (strncmp(err, want, strlen(want)) || !strstr(err, why))
		fail_msg("got \"%s\", want \"%s...%s\"", err, want, why);
}

static void test_preset_file_errors(void **state)
{
	(void)state;
	expect_error("base = sd-c10\n# comment\n\nau_sise = 4M\n", 4,
		     "unknown key 'au_sise'");
	expect_error("base = sd-c10\nopen_aus = two\n", 2, "bad number 'two'");
	expect_error("base = sd-c10\nunit = 16Q\n", 2, "bad suffix 'Q'");
	expect_error("base = sd-c10\nerase = 2\n", 2, "needs a unit");
	expect_error("base = sd-c10\nwrite_bw = 9 M/h\n", 2, "bad suffix 'M/h'");
	expect_error("base = sd-c10\nopen_aus 4\n", 2, "missing '='");
	expect_error("unit = 16K\nbase = sd-c10\n", 2, "'base' must come before");
	expect_error("base = sd-card\n", 1, "unknown base preset 'sd-card'");
	expect_error("base = sd-c10\nunit = 8K\nunit = 16K\n", 3, "set twice");
	expect_error("base = sd-c10\nunit = 1.3K\n", 2, "whole number");
	expect_error("base = sd-c10\nrandom_ok = maybe\n", 2, "bad boolean");
	expect_error("base = sd-c10\nopen_aus = 4K\n", 2, "count takes no suffix");
	expect_error("base = sd-c10\n= 4\n", 2, "missing key");
	expect_error("base = sd-c10\nunit =\n", 2, "missing value");
	/* whole-file checks name the file only */
	expect_error("base = sd-c10\nau_size = 1000K\n", 0, "multiple of unit");
	expect_error("au_size = 4M\nunit = 16K\n", 0, "open_aus");
}

static void test_preset_file_ok(void **state)
{
	struct fm_params p;
	char err[512], path[64];

	(void)state;
	assert_int_equal(load_text("# my card\nbase = usb-8g\n"
				   "au_size = 1.5M   # TLC\nunit = 16K\n"
				   "write_overhead = 1.5ms\nwrite_bw = 12.5M/s\n"
				   "copy_bw = 20MiB/s\nrandom_ok = no\n"
				   "name = mine\n",
				   &p, err, sizeof(err), path), 0);
	assert_string_equal(p.name, "mine");
	assert_int_equal(p.au_size, 1536 * KiB);
	assert_int_equal(p.unit, 16 * KiB);
	assert_int_equal(p.write_overhead_ns, 1500 * US);
	assert_int_equal(p.write_bw, 12500000);
	assert_int_equal(p.copy_bw, 20 * MiB);
	assert_int_equal(p.random_ok, 0);
	assert_int_equal(p.open_aus, 4);	/* from the base */

	/* the example shipped with the tool loads and resolves by path */
	assert_int_equal(fm_preset_get(FM_PRESET_DIR "/example-card.preset",
				       &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "example-card");
	assert_int_equal(p.au_size, 6 * MiB);
	assert_int_equal(fm_params_check(&p, err, sizeof(err)), 0);
}

/* A fixed pseudo-random stream of mixed requests. */
static void run_mix(struct fm_model *m, uint64_t n)
{
	uint64_t x = 12345, t = 0;

	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (x % 8) {
		case 0 ... 3:
			t = fm_submit(m, t + x % 5000, FM_WRITE,
				      (x >> 8) % 65536 * 4096, 4096 << (x % 3), 0);
			break;
		case 4 ... 5:
			t = fm_submit(m, t, FM_READ, (x >> 8) % 65536 * 512,
				      8192, 0);
			break;
		case 6:
			t = fm_submit(m, t, FM_WRITE, (x >> 8) % 64 * MiB,
				      MiB, FM_FUA);
			break;
		default:
			t = fm_submit(m, t, FM_DISCARD, (x >> 8) % 16 * 4 * MiB,
				      4 * MiB, 0);
			break;
		}
	}
}

static void test_deterministic(void **state)
{
	const char *const *n;

	(void)state;
	for (n = fm_preset_names(); *n; n++) {
		struct fm_params p;
		struct fm_model *a, *b;
		struct fm_stats sa, sb;

		fm_preset_builtin(*n, &p);
		a = fm_new(&p);
		b = fm_new(&p);
		run_mix(a, 20000);
		run_mix(b, 20000);
		fm_get_stats(a, &sa);
		fm_get_stats(b, &sb);
		assert_memory_equal(&sa, &sb, sizeof(sa));
		assert_true(sa.full_merges > 0);
		assert_int_equal(fm_service_percentile(a, FM_WRITE, 0.99),
				 fm_service_percentile(b, FM_WRITE, 0.99));
		assert_int_equal(fm_latency_percentile(a, FM_READ, 0.5),
				 fm_latency_percentile(b, FM_READ, 0.5));
		fm_free(a);
		fm_free(b);
	}
}

/* Calibration against flash-model.md. */

struct cal_run {
	const char *label;
	const char *preset;
	uint64_t erasesize;	/* flashbench --erasesize of that run */
	uint32_t aus;
	int random;
	uint64_t first, last;	/* published rows */
	double pub[9];
};

static const struct cal_run cal_runs[] = {
	{ "flashbench README card, 2 AUs", "sd-c10", 4 * MiB, 2, 0,
	  4 * MiB, 256 * KiB, { 8.79, 7.41, 6.87, 6.39, 6.27 } },
	{ "flashbench README card, 3 AUs", "sd-c10", 4 * MiB, 3, 0,
	  4 * MiB, 256 * KiB, { 7.75, 5.03, 3.24, 1.76, 0.912 } },
	{ "8 GB USB stick, 5 AUs, random", "usb-8g", 2 * MiB, 5, 1,
	  2 * MiB, 8 * KiB,
	  { 29.2, 27.8, 18.4, 7.82, 4.62, 2.47, 1.26, 0.642, 0.327 } },
	{ "8 GB USB stick, 1 AU, random", "usb-8g", 2 * MiB, 1, 1,
	  2 * MiB, 8 * KiB,
	  { 29.5, 29.1, 28.5, 22.8, 23.8, 24.4, 18.9, 13.1, 8.22 } },
	{ "Toshiba eMMC, 1 AU", "emmc-toshiba", 4 * MiB, 1, 0,
	  256 * KiB, 4 * KiB, { 10.3, 10.2, 9.8, 8.5, 3.7, 1.7, 0.84 } },
	{ "Toshiba eMMC, 8 AUs", "emmc-toshiba", 4 * MiB, 8, 0,
	  1 * MiB, 256 * KiB, { 6.36, 3.17, 1.53 } },
};

#define NCAL	ARRAY_SIZE(cal_runs)

/* Modelled MB/s of every published row; flashbench rows start at the AU. */
static int cal_model(const struct cal_run *c, double *out)
{
	struct fm_openau o = { .aus = c->aus, .random = c->random,
			       .erasesize = c->erasesize, .block = c->last,
			       .offset = UINT64_MAX };
	struct fm_openau_row rows[32];
	struct fm_params p;
	struct fm_model *m;
	int n, k = 0;

	assert_int_equal(fm_preset_builtin(c->preset, &p), 0);
	m = fm_new(&p);
	n = fm_openau_run(m, &o, rows, 32);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		if (rows[i].block <= c->first)
			out[k++] = rows[i].mbps;
	fm_free(m);
	return k;
}

static void test_calibration_table(void **state)
{
	int bad = 0;

	(void)state;
	printf("| run | block | published MB/s | modelled MB/s | error |\n");
	printf("|---|---|---|---|---|\n");
	for (size_t r = 0; r < NCAL; r++) {
		const struct cal_run *c = &cal_runs[r];
		double mod[16];
		int n = cal_model(c, mod);
		uint64_t b = c->first;

		for (int i = 0; i < n; i++, b /= 2) {
			double e = (mod[i] - c->pub[i]) / c->pub[i] * 100;
			/* blocks up to 256K: the 20% target; above: known gaps */
			double lim = b <= 256 * KiB ? 20 : 45;
			char bs[24];

			if (b >= MiB)
				snprintf(bs, sizeof(bs), "%lluM", (unsigned long long)(b / MiB));
			else
				snprintf(bs, sizeof(bs), "%lluK", (unsigned long long)(b / KiB));
			printf("| %s | %s | %g | %.3g | %+.1f%%%s |\n", c->label,
			       bs, c->pub[i], mod[i], e,
			       e > lim || e < -lim ? " FAIL" : "");
			if (e > lim || e < -lim)
				bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * Past the open-AU limit throughput collapses: published ratio of the
 * smallest-block rows within and past the limit, and the model's.
 */
static void test_calibration_collapse(void **state)
{
	static const struct { int within, past, wrow, prow; } pairs[] = {
		{ 0, 1, 4, 4 },	/* sd-c10 256K: 6.27 vs 0.91 */
		{ 3, 2, 8, 8 },	/* usb-8g 8K: 8.22 vs 0.327 */
		{ 4, 5, 0, 2 },	/* toshiba 256K: 10.3 vs 1.53 */
	};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		const struct cal_run *a = &cal_runs[pairs[i].within];
		const struct cal_run *b = &cal_runs[pairs[i].past];
		double ma[16], mb[16], pub, mod;

		cal_model(a, ma);
		cal_model(b, mb);
		pub = a->pub[pairs[i].wrow] / b->pub[pairs[i].prow];
		mod = ma[pairs[i].wrow] / mb[pairs[i].prow];
		printf("collapse %s / %s: published %.1fx, modelled %.1fx\n",
		       a->label, b->label, pub, mod);
		assert_true(mod > 5);
		assert_true(mod > pub / 1.5 && mod < pub * 1.5);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear_full_au),
		cmocka_unit_test(test_round_robin_past_limit),
		cmocka_unit_test(test_backward_linear_only),
		cmocka_unit_test(test_random_ok),
		cmocka_unit_test(test_random_full_not_switch),
		cmocka_unit_test(test_fat_au),
		cmocka_unit_test(test_discard_whole_au),
		cmocka_unit_test(test_discard_partial),
		cmocka_unit_test(test_unaligned_rmw),
		cmocka_unit_test(test_non_pow2_au),
		cmocka_unit_test(test_openau_non_pow2),
		cmocka_unit_test(test_buffer_a),
		cmocka_unit_test(test_costs_and_clock),
		cmocka_unit_test(test_max_transfer),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_preset_file_errors),
		cmocka_unit_test(test_preset_file_ok),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_calibration_table),
		cmocka_unit_test(test_calibration_collapse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
