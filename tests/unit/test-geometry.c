// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure geometry helpers of flash-iosched.h: segment
 * arithmetic, write splitting, the merge rule and the device defaults.
 * Expected values are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../flash-iosched.h"

#define KIB 1024u
#define MIB (1024u * 1024)

/* 4 MiB erase blocks, 16 KiB pages, in sectors */
static const struct flash_geom g4m = { .page_sectors = 32, .erase_sectors = 8192 };
/* 1.5 MiB erase blocks (TLC cards), 16 KiB pages */
static const struct flash_geom g1m5 = { .page_sectors = 32, .erase_sectors = 3072 };

static void test_segment_index(void **state)
{
	(void)state;
	assert_int_equal(flash_seg_index(&g4m, 8191), 0);
	assert_int_equal(flash_seg_offset(&g4m, 8191), 8191);
	assert_int_equal(flash_seg_index(&g4m, 8192), 1);
	assert_int_equal(flash_seg_offset(&g4m, 8192), 0);
	/* 1.5 MiB: blocks start at 0, 3072, 6144 */
	assert_int_equal(flash_seg_index(&g1m5, 3071), 0);
	assert_int_equal(flash_seg_index(&g1m5, 3072), 1);
	assert_int_equal(flash_seg_index(&g1m5, 6143), 1);
	assert_int_equal(flash_seg_offset(&g1m5, 6143), 3071);
	/* beyond 2 TiB of sectors: 64-bit positions */
	assert_int_equal(flash_seg_index(&g4m, 8192ULL << 32), 1ULL << 32);
}

static void test_crosses_erase(void **state)
{
	(void)state;
	assert_false(flash_crosses_erase(&g4m, 8190, 2));
	assert_true(flash_crosses_erase(&g4m, 8190, 3));
	assert_false(flash_crosses_erase(&g1m5, 3000, 72));
	assert_true(flash_crosses_erase(&g1m5, 3000, 73));
	/*
	 * A partition starting at sector 2064 (1 MiB + 8 KiB): its sector 6124
	 * is absolute 8188, so 8 sectors from there cross the block at 8192.
	 */
	assert_true(flash_crosses_erase(&g4m, 2064 + 6124, 8));
	assert_false(flash_crosses_erase(&g4m, 2064 + 6120, 8));
}

static void test_piece_off(void **state)
{
	(void)state;
	/* off: only the erase boundary cuts */
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_OFF, 8, 40), 40);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_OFF, 8000, 400), 192);
}

/* An empty write has an empty first piece, under every policy (no shift by -1). */
static void test_piece_empty(void **state)
{
	(void)state;
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_OFF, 8, 0), 0);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_PAGE, 8, 0), 0);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 8, 0), 0);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 0, 0), 0);
}

static void test_piece_page(void **state)
{
	(void)state;
	/* unaligned start crossing the page at 32: cut there */
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_PAGE, 8, 40), 24);
	/* inside one page: whole */
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_PAGE, 8, 10), 10);
	/* aligned start may cross pages */
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_PAGE, 64, 100), 100);
	/* 2 sectors left in the erase block and in the page */
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_PAGE, 8190, 100), 2);
	/* 1.5 MiB: the block at 3072 is page aligned, 3072 + 40 is not */
	assert_int_equal(flash_first_piece(&g1m5, FLASH_SPLIT_PAGE, 3072 + 40, 100), 24);
}

static void test_piece_pow2(void **state)
{
	(void)state;
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 0, 24), 16);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 8, 24), 8);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 16, 100), 16);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 0, 8192), 8192);
	assert_int_equal(flash_first_piece(&g4m, FLASH_SPLIT_POW2, 1, 4), 1);
	/* relative to the erase block: 3072 + 1024 is 1024-aligned in it */
	assert_int_equal(flash_first_piece(&g1m5, FLASH_SPLIT_POW2, 3072 + 1024, 2048), 1024);
	/* 1024 left in the block at offset 2048: the block edge wins */
	assert_int_equal(flash_first_piece(&g1m5, FLASH_SPLIT_POW2, 2048, 2048), 1024);
	/* absolute 3072 is not a power-of-two multiple, but offset 0 is */
	assert_int_equal(flash_first_piece(&g1m5, FLASH_SPLIT_POW2, 3072, 2048), 2048);
}

static void test_range_ok(void **state)
{
	(void)state;
	/* reads: only the erase boundary */
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, false, 8, 40));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, false, 8190, 4));
	/* writes, page rule, also when splitting is off */
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, true, 8, 40));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 8, 40));
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 64, 200));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 8000, 256));
	/* ... and a boundary of twice the page only from one */
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 32, 64));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, true, 96, 48));
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 32, 32));
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, true, 128, 96));
	assert_true(flash_range_ok(&g1m5, FLASH_SPLIT_OFF, true, 3008, 64));
	/* below a page, merged writes are naturally aligned powers of two */
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 8, 16));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, true, 0, 24));
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_OFF, true, 16, 16));
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_PAGE, true, 40, 8));
	/* pow2: buddies merge, others do not */
	assert_true(flash_range_ok(&g4m, FLASH_SPLIT_POW2, true, 16, 16));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_POW2, true, 0, 24));
	assert_false(flash_range_ok(&g4m, FLASH_SPLIT_POW2, true, 8, 16));
}

static void check_defaults(u32 lbs, u32 pbs, u32 io_min, u32 io_opt, u32 dg,
			   u32 want_page, u32 want_erase)
{
	struct flash_dev_limits l = { lbs, pbs, io_min, io_opt, dg };
	u32 page = 0, erase = 0;

	flash_default_geometry(&l, &page, &erase);
	assert_int_equal(page, want_page);
	assert_int_equal(erase, want_erase);
}

static void test_defaults(void **state)
{
	(void)state;
	/* null_blk defaults: nothing useful reported */
	check_defaults(512, 512, 512, 0, 0, 16 * KIB, 4 * MIB);
	/* QEMU's SD card: discard_granularity = preferred erase size 2 MiB */
	check_defaults(512, 512, 512, 0, 2 * MIB, 16 * KIB, 2 * MIB);
	/* null_blk bs=4096 with discard: granularity 4 KiB is no erase size */
	check_defaults(4096, 4096, 4096, 0, 4096, 4 * KIB, 4 * MIB);
	/* io_opt used when discard says nothing */
	check_defaults(512, 512, 512, 3 * MIB / 2, 0, 16 * KIB, 3 * MIB / 2);
	/* discard wins over io_opt */
	check_defaults(512, 512, 512, 8 * MIB, 6 * MIB, 16 * KIB, 6 * MIB);
	/* io_min larger than the physical block */
	check_defaults(512, 4096, 32 * KIB, 0, 0, 32 * KIB, 4 * MIB);
	/* a 1 MiB page does not divide 1.5 MiB: halved to 512 KiB */
	check_defaults(512, MIB, 0, 0, 3 * MIB / 2, 512 * KIB, 3 * MIB / 2);
	/* too large hints are ignored */
	check_defaults(512, 2 * MIB, 0, 0, 512 * MIB, 16 * KIB, 4 * MIB);
	/* not a power of two: ignored */
	check_defaults(512, 12 * KIB, 0, 0, 0, 16 * KIB, 4 * MIB);
}

static void test_validation(void **state)
{
	(void)state;
	assert_true(flash_page_size_ok(512, 512));
	assert_false(flash_page_size_ok(512, 4096));
	assert_false(flash_page_size_ok(3000, 512));
	assert_false(flash_page_size_ok(0, 512));
	assert_true(flash_page_size_ok(MIB, 512));
	assert_false(flash_page_size_ok(2 * MIB, 512));

	assert_true(flash_erase_size_ok(3 * MIB / 2, 16 * KIB));
	assert_false(flash_erase_size_ok(3 * MIB / 2, MIB));
	assert_false(flash_erase_size_ok(0, 16 * KIB));
	assert_true(flash_erase_size_ok(256 * MIB, 16 * KIB));
	assert_false(flash_erase_size_ok(257 * MIB, 16 * KIB));
}

static void test_chunk_target(void **state)
{
	const u32 s = 2;	/* sectors in a KiB */

	(void)state;
	/* no driver chunk, or a multiple of the erase size: the erase size */
	assert_int_equal(flash_chunk_target(0, 4096 * s, 0, 1024 * s), 4096 * s);
	assert_int_equal(flash_chunk_target(8192 * s, 4096 * s, 0, 1024 * s),
			 4096 * s);
	/* 3 MiB and 4 MiB: every MiB boundary keeps both, if no request is longer */
	assert_int_equal(flash_chunk_target(3072 * s, 4096 * s, 0, 1024 * s),
			 1024 * s);
	assert_int_equal(flash_chunk_target(3072 * s, 4096 * s, 0, 2048 * s),
			 3072 * s);
	/* a driver chunk that divides the erase size stays as it is */
	assert_int_equal(flash_chunk_target(512 * s, 4096 * s, 0, 256 * s), 512 * s);
	/* the atomic-write boundary must divide the result */
	assert_int_equal(flash_chunk_target(0, 4096 * s, 8192 * s, 1024 * s), 0);
	assert_int_equal(flash_chunk_target(0, 4096 * s, 64 * s, 1024 * s), 4096 * s);
	assert_int_equal(flash_chunk_target(3072 * s, 4096 * s, 2048 * s, 1024 * s),
			 3072 * s);
}

static void check_depths(u32 queues, u32 depth, bool blocking, u32 want_open,
			 u32 want_depth)
{
	struct flash_dev_queue d = { queues, depth, blocking };
	u32 open = 0, wd = 0;

	flash_default_depths(&d, &open, &wd);
	assert_int_equal(open, want_open);
	assert_int_equal(wd, want_depth);
}

static void test_default_depths(void **state)
{
	(void)state;
	/* serial: two writes in flight, if the device takes two */
	check_depths(1, 1, false, 1, 1);	/* usb-storage */
	check_depths(1, 2, false, 1, 2);	/* flashemu --queue-depth 2 */
	check_depths(1, 64, true, 1, 2);	/* MMC without CQE */
	check_depths(1, 32, true, 1, 2);	/* MMC with CQE: udev's job */
	check_depths(1, FLASH_PARALLEL_TAGS - 1, false, 1, 2);
	/* parallel: as many writes as the device takes */
	check_depths(1, FLASH_PARALLEL_TAGS, false, FLASH_MAX_OPEN,
		     FLASH_PARALLEL_TAGS);
	check_depths(1, 32, false, FLASH_MAX_OPEN, 32);	/* UFS, SATA NCQ */
	check_depths(4, 16, false, FLASH_MAX_OPEN, 64);	/* multi-queue */
	check_depths(64, 1023, false, FLASH_MAX_OPEN, FLASH_MAX_WRITE_DEPTH);
	/* shallow queues stay serial, however many there are */
	check_depths(2, 8, false, 1, 2);	/* null_blk as a card */
	check_depths(2, 1, true, 1, 2);
	check_depths(2, 0, false, 1, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segment_index),
		cmocka_unit_test(test_crosses_erase),
		cmocka_unit_test(test_piece_off),
		cmocka_unit_test(test_piece_empty),
		cmocka_unit_test(test_piece_page),
		cmocka_unit_test(test_piece_pow2),
		cmocka_unit_test(test_range_ok),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_default_depths),
		cmocka_unit_test(test_chunk_target),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
