// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/flashtrace: line parsing (both blkparse formats),
 * RWBS decoding, geometry (page / erase crossings with power-of-two and
 * 1.5 / 3 MiB erase blocks and a partition offset), alignment, switches per
 * MiB, counting of lines not understood, JSON and SVG well-formedness,
 * bounded memory, model replay equal to direct flashmodel calls, speed, and
 * binary blktrace input (decoding, same results as the blkparse text of the
 * same trace, bad and truncated records, fuzzing, per-CPU file discovery).
 *
 * Expected values are computed by hand in the comments next to them.
 * Built and run by `make -C tools/flashtrace check`.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "flashtrace.h"

#define EPS	0.000000001
#define SECT	512ull
#define KIB	1024ull
#define MIB	(1024ull * 1024)

static struct ft_event parse1(const char *line, enum ft_line_kind want)
{
	struct ft_parser p = { 0 };
	struct ft_event ev;

	assert_int_equal(ft_parse_line(&p, line, strlen(line), &ev), want);
	return ev;
}

/* Feed each line of @text (newline separated). */
static void feed_text(struct ft_ctx *c, const char *text)
{
	const char *s = text, *nl;

	while (*s) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		ft_feed_line(c, s, nl - s);
		s = *nl ? nl + 1 : nl;
	}
}

static void ctx_geom(struct ft_ctx *c, u64 page, u64 erase,
		     u64 offset)
{
	struct ft_geom g;
	char err[128];

	ft_geom_default(&g);
	g.page_size = page;
	g.erase_size = erase;
	g.offset = offset;
	assert_int_equal(ft_geom_check(&g, err, sizeof(err)), 0);
	ft_ctx_init(c, &g);
}

/* ---- parsing ---- */

static void test_parse_default(void **state)
{
	struct ft_event ev;

	(void)state;
	/* verbatim blkparse 1.2.0 output (see README: generated traces) */
	ev = parse1("179,0    0        1     0.000000000  1234  D  WS 2048 + 256 [fio]",
		    FT_LINE_EVENT);
	assert_string_equal(ev.action, "D");
	assert_true(ev.has_dev);
	assert_int_equal(ev.major, 179);
	assert_int_equal(ev.minor, 0);
	assert_int_equal(ev.time_ns, 0);
	assert_int_equal(ev.rwbs.op, FT_OP_WRITE);
	assert_int_equal(ev.rwbs.flags, FT_RWBS_SYNC);
	assert_true(ev.has_sector);
	assert_int_equal(ev.sector, 2048);
	assert_int_equal(ev.nsectors, 256);

	/* a partition's maj,min and a large timestamp */
	ev = parse1("  8,1    1       11  1234.567889123  1234  D   W 300 + 8 [fio]",
		    FT_LINE_EVENT);
	assert_int_equal(ev.major, 8);
	assert_int_equal(ev.minor, 1);
	assert_int_equal(ev.time_ns, 1234567889123ull);
	assert_int_equal(ev.sector, 300);
	assert_int_equal(ev.nsectors, 8);

	/* a pure flush has no sector */
	ev = parse1("179,0    0        3     0.000002000  1234  D  FN [fio]",
		    FT_LINE_EVENT);
	assert_int_equal(ev.rwbs.op, FT_OP_FLUSH);
	assert_false(ev.has_sector);
	assert_int_equal(ev.time_ns, 2000);

	/* passthrough: bytes, no "+" */
	ev = parse1("  8,0    1        2     0.000002000     1  D   W 4096 [(null)]",
		    FT_LINE_EVENT);
	assert_true(ev.passthrough);
	assert_false(ev.has_sector);

	/* other actions are events too */
	ev = parse1("179,0    0        9     0.000008000  1234  C  WS 200 + 8 [0]",
		    FT_LINE_EVENT);
	assert_string_equal(ev.action, "C");
	ev = parse1("  8,0    0       12     0.000100000  1234  UT   N [fio] 1",
		    FT_LINE_EVENT);
	assert_string_equal(ev.action, "UT");
	ev = parse1("  8,0    0       13     0.000100000  1234  A  WS 2099200 + 8 <- (8,1) 2048",
		    FT_LINE_EVENT);
	assert_string_equal(ev.action, "A");
	assert_int_equal(ev.sector, 2099200);

	/* message */
	ev = parse1("179,0    0        0     0.000009000     0  m   N flash switch 3 -> 7",
		    FT_LINE_MESSAGE);
	assert_int_equal(ev.msg_len, strlen("flash switch 3 -> 7"));
	assert_memory_equal(ev.msg, "flash switch 3 -> 7", ev.msg_len);
}

static void test_parse_short(void **state)
{
	struct ft_event ev;

	(void)state;
	ev = parse1("0.000003000 D WFS 8192 16", FT_LINE_EVENT);
	assert_string_equal(ev.action, "D");
	assert_false(ev.has_dev);
	assert_int_equal(ev.time_ns, 3000);
	assert_int_equal(ev.rwbs.op, FT_OP_WRITE);
	assert_int_equal(ev.rwbs.flags, FT_RWBS_FUA | FT_RWBS_SYNC);
	assert_true(ev.has_sector);
	assert_int_equal(ev.sector, 8192);
	assert_int_equal(ev.nsectors, 16);

	ev = parse1("12.5 D R 0 8", FT_LINE_EVENT);
	/* 12.5 s: fraction scaled to nanoseconds */
	assert_int_equal(ev.time_ns, 12500000000ull);
	assert_true(ev.has_sector);	/* sector 0 with data is a range */

	ev = parse1("0.000002000 D FN 0 0", FT_LINE_EVENT);
	assert_int_equal(ev.rwbs.op, FT_OP_FLUSH);
	assert_false(ev.has_sector);

	/* garbage of several kinds */
	parse1("0.000002000 D WS 12", FT_LINE_BAD);		/* too short */
	parse1("0.000002000 D XS 12 8", FT_LINE_BAD);		/* bad RWBS */
	parse1("0.0000020001 D WS 12 8", FT_LINE_BAD);		/* 10 digits */
	parse1("0.000002000 D WS 12 8x", FT_LINE_BAD);
	parse1("0.000002000 D WS 999999999999999999 8", FT_LINE_BAD);
	parse1("hello world", FT_LINE_BAD);
	parse1("  8,0  x 1 0.1 1 D W 1 + 8 [a]", FT_LINE_BAD);
	parse1("  8,0  1 1 0.1 1 D W 1 + [a]", FT_LINE_BAD);
	parse1("   \t ", FT_LINE_BLANK);
	parse1("", FT_LINE_BLANK);
}

static void test_parse_summary(void **state)
{
	static const char *const lines[] = {
		"CPU0 (179,0):",
		" Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB",
		" Read depth:             3        \t Write depth:             4",
		" IO unplugs:             0        \t Timer unplugs:           0",
		"Total (8,0):",
		" PC Reads Queued:        0,        0KiB\t PC Writes Queued:        0,        0KiB",
		"Throughput (R/W): 0KiB/s / 0KiB/s",
		"Events (179,0): 10 entries",
		"Skips: 0 forward (0 -   0.0%)",
	};
	struct ft_parser p = { 0 };
	struct ft_event ev;
	size_t i;

	(void)state;
	/* indented counters alone are not understood before the summary */
	assert_int_equal(ft_parse_line(&p, lines[1], strlen(lines[1]), &ev),
			 FT_LINE_BAD);
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		assert_int_equal(ft_parse_line(&p, lines[i], strlen(lines[i]),
					       &ev), FT_LINE_SUMMARY);
	/* events still parse after the summary started */
	assert_int_equal(ft_parse_line(&p, "0.1 D W 8 8", 11, &ev),
			 FT_LINE_EVENT);
}

/* ---- RWBS ---- */

struct rwbs_case {
	const char *s;
	int ok;
	enum ft_op op;
	unsigned int flags;
};

static void test_rwbs(void **state)
{
	static const struct rwbs_case cases[] = {
		{ "R", 0, FT_OP_READ, 0 },
		{ "W", 0, FT_OP_WRITE, 0 },
		{ "WS", 0, FT_OP_WRITE, FT_RWBS_SYNC },
		{ "WFS", 0, FT_OP_WRITE, FT_RWBS_FUA | FT_RWBS_SYNC },
		{ "FWS", 0, FT_OP_WRITE, FT_RWBS_PREFLUSH | FT_RWBS_SYNC },
		{ "FWFSM", 0, FT_OP_WRITE, FT_RWBS_PREFLUSH | FT_RWBS_FUA |
		  FT_RWBS_SYNC | FT_RWBS_META },
		{ "FN", 0, FT_OP_FLUSH, 0 },
		{ "N", 0, FT_OP_OTHER, 0 },
		{ "F", 0, FT_OP_FLUSH, 0 },		/* kernel tracepoint */
		{ "FF", 0, FT_OP_FLUSH, FT_RWBS_PREFLUSH },
		{ "D", 0, FT_OP_DISCARD, 0 },
		{ "DS", 0, FT_OP_DISCARD, FT_RWBS_SYNC },
		{ "DE", 0, FT_OP_DISCARD, FT_RWBS_SECURE },
		{ "RAM", 0, FT_OP_READ, FT_RWBS_AHEAD | FT_RWBS_META },
		{ "RA", 0, FT_OP_READ, FT_RWBS_AHEAD },
		{ "WB", 0, FT_OP_WRITE, FT_RWBS_BARRIER },
		{ "", -1, 0, 0 },
		{ "X", -1, 0, 0 },
		{ "WX", -1, 0, 0 },
		{ "SW", -1, 0, 0 },
		{ "w", -1, 0, 0 },
		{ "WSSSSSSSS", -1, 0, 0 },
	};
	struct ft_rwbs r;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct rwbs_case *c = &cases[i];
		int rc = ft_parse_rwbs(c->s, strlen(c->s), &r);

		if (rc != c->ok)
			fail_msg("RWBS '%s': rc %d, want %d", c->s, rc, c->ok);
		if (rc)
			continue;
		if (r.op != c->op || r.flags != c->flags)
			fail_msg("RWBS '%s': op %d flags %#x, want %d %#x",
				 c->s, r.op, r.flags, c->op, c->flags);
	}
}

/* ---- sizes ---- */

static void test_sizes(void **state)
{
	u64 v;
	char buf[16];

	(void)state;
	assert_int_equal(ft_parse_size("16K", &v), 0);
	assert_int_equal(v, 16384);
	assert_int_equal(ft_parse_size("4M", &v), 0);
	assert_int_equal(v, 4194304);
	assert_int_equal(ft_parse_size("1.5M", &v), 0);
	assert_int_equal(v, 1572864);		/* 1.5 * 1048576 */
	assert_int_equal(ft_parse_size("3MiB", &v), 0);
	assert_int_equal(v, 3145728);
	assert_int_equal(ft_parse_size("6m", &v), 0);
	assert_int_equal(v, 6291456);
	assert_int_equal(ft_parse_size("512", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(ft_parse_size("1G", &v), 0);
	assert_int_equal(v, 1073741824);
	assert_int_equal(ft_parse_size("1.3", &v), -1);	/* not whole bytes */
	assert_int_equal(ft_parse_size("", &v), -1);
	assert_int_equal(ft_parse_size("4X", &v), -1);
	assert_int_equal(ft_parse_size("K", &v), -1);
	assert_string_equal(ft_fmt_size(1572864, buf, sizeof(buf)), "1.5M");
	assert_string_equal(ft_fmt_size(16384, buf, sizeof(buf)), "16K");
	assert_string_equal(ft_fmt_size(1000, buf, sizeof(buf)), "1000");

	/* size buckets: <4K, 4K, 8K, ..., 512K, >=1M */
	assert_int_equal(ft_size_bucket(512), 0);
	assert_int_equal(ft_size_bucket(4096), 1);
	assert_int_equal(ft_size_bucket(8191), 1);
	assert_int_equal(ft_size_bucket(8192), 2);
	assert_int_equal(ft_size_bucket(1 * MIB), 9);
	assert_int_equal(ft_size_bucket(64 * MIB), 9);
	assert_int_equal(ft_size_bucket_min(9), 1 * MIB);
}

/* ---- geometry helpers ---- */

static void test_geometry_helpers(void **state)
{
	struct ft_geom g;
	char err[128];

	(void)state;
	ft_geom_default(&g);
	assert_int_equal(g.page_size, 16384);
	assert_int_equal(g.erase_size, 4 * MIB);
	/* 16K page: [12K, 20K) crosses 16K unaligned */
	assert_true(ft_crosses(12 * KIB, 8 * KIB, 16 * KIB));
	assert_true(ft_page_violation(&g, 12 * KIB, 8 * KIB));
	/* [16K, 48K) crosses 32K but starts aligned: not a violation */
	assert_true(ft_crosses(16 * KIB, 32 * KIB, 16 * KIB));
	assert_false(ft_page_violation(&g, 16 * KIB, 32 * KIB));
	/* [4K, 16K) ends on the boundary: does not cross */
	assert_false(ft_crosses(4 * KIB, 12 * KIB, 16 * KIB));
	assert_false(ft_crosses(4 * KIB, 0, 16 * KIB));
	assert_true(ft_page_aligned(&g, 32 * KIB, 16 * KIB));
	assert_false(ft_page_aligned(&g, 32 * KIB, 8 * KIB));

	/* natural alignment relative to the erase block, 4M */
	assert_true(ft_naturally_aligned(&g, 4 * MIB + 64 * KIB, 64 * KIB));
	assert_false(ft_naturally_aligned(&g, 4 * MIB + 32 * KIB, 64 * KIB));
	assert_false(ft_naturally_aligned(&g, 0, 96 * KIB));	/* not 2^n */

	/* 1.5M erase block: 1M at 1.5M is aligned, 1M at 2.5M is not */
	g.erase_size = 1572864;
	assert_int_equal(ft_geom_check(&g, err, sizeof(err)), 0);
	assert_true(ft_naturally_aligned(&g, 1572864, MIB));
	assert_false(ft_naturally_aligned(&g, 1572864 + MIB, MIB));
	/* 512K at 2.5M: offset in block 1M, a multiple of 512K, ends at 1.5M */
	assert_true(ft_naturally_aligned(&g, 1572864 + MIB, 512 * KIB));

	/* geometry checks */
	g.erase_size = 1000000;
	assert_int_equal(ft_geom_check(&g, err, sizeof(err)), -1);
	g.erase_size = 4 * MIB;
	g.sector_size = 520;
	assert_int_equal(ft_geom_check(&g, err, sizeof(err)), -1);
}

/* ---- geometry over a trace ---- */

static void test_erase_1_5m(void **state)
{
	struct ft_ctx c;
	const struct ft_stats *st = &c.st;

	(void)state;
	/* 16K pages, 1.5M erase blocks = 3072 sectors */
	ctx_geom(&c, 16 * KIB, 1572864, 0);
	feed_text(&c,
		  /* 32K at sector 3040 (1520K): page aligned (3040 = 95 * 32),
		   * crosses the erase boundary at sector 3072
		   */
		  "0.000001000 D W 3040 64\n"
		  /* 1M at 1.5M: naturally aligned in erase block 1 */
		  "0.000002000 D W 3072 2048\n"
		  /* 1M at 2.5M: rel 1M, ends at 3.5M > 3M: crosses, unaligned */
		  "0.000003000 D W 5120 2048\n"
		  /* 4K read at 1.5M - 2K: crosses page and erase, unaligned */
		  "0.000004000 D R 3068 8\n");
	assert_int_equal(st->dir[FT_OP_WRITE].with_data, 3);
	assert_int_equal(st->dir[FT_OP_WRITE].erase_cross, 2);
	assert_int_equal(st->dir[FT_OP_WRITE].page_cross, 3);
	assert_int_equal(st->dir[FT_OP_WRITE].page_violations, 0);
	assert_int_equal(st->nat_aligned, 1);
	assert_int_equal(st->page_aligned, 3);
	assert_int_equal(st->dir[FT_OP_READ].erase_cross, 1);
	assert_int_equal(st->dir[FT_OP_READ].page_violations, 1);
	/* blocks 0 (first write), 1 (all), 2 (third write's end at 3.5M) */
	assert_int_equal(st->distinct_ebs, 3);
	/* erase blocks: write1 ends in 1; write2 in 1 (no switch);
	 * write3 starts in 1 (5120 < 6144): no switch
	 */
	assert_int_equal(st->switches, 0);
	/* write2 starts at 3072 where write1... write1 ended at 3104: 3072 <
	 * high of block 1 (3104 * 512): backward
	 */
	assert_int_equal(st->backward, 1);
	assert_int_equal(st->sequential, 1);	/* write3 follows write2 */

	/* the same writes with a power-of-two 4M erase block */
	ft_ctx_free(&c);
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c,
		  "0.000001000 D W 3040 64\n"
		  "0.000002000 D W 3072 2048\n"
		  "0.000003000 D W 5120 2048\n");
	assert_int_equal(st->dir[FT_OP_WRITE].erase_cross, 0);
	/* 1M at 1.5M: 1.5M % 1M != 0; 1M at 2.5M: neither */
	assert_int_equal(st->nat_aligned, 0);
	assert_int_equal(st->distinct_ebs, 1);
	ft_ctx_free(&c);
}

static void test_erase_3m_offset(void **state)
{
	struct ft_ctx c;
	const struct ft_stats *st = &c.st;

	(void)state;
	/* 3M erase block = 6144 sectors: 8 sectors at 6136 cross it and the
	 * 16K page at 3M (6136 * 512 = 3141632 = 191.75 pages): violation
	 */
	ctx_geom(&c, 16 * KIB, 3 * MIB, 0);
	feed_text(&c, "0.1 D W 6136 16\n");
	assert_int_equal(st->dir[FT_OP_WRITE].erase_cross, 1);
	assert_int_equal(st->dir[FT_OP_WRITE].page_violations, 1);
	ft_ctx_free(&c);

	/* partition at sector 2048 (1M), 4M erase blocks: partition sector
	 * 6140 is device sector 8188; 8 sectors cross 8192 (4M), and the page
	 * at 4M unaligned (8188 * 512 / 16K = 255.875)
	 */
	ctx_geom(&c, 16 * KIB, 4 * MIB, 2048);
	feed_text(&c, "0.1 D W 6140 8\n"
		  /* device sector 8192 + 2048 = 5M: 1M aligned in block 1 */
		  "0.2 D W 8192 2048\n");
	assert_int_equal(st->dir[FT_OP_WRITE].erase_cross, 1);
	assert_int_equal(st->dir[FT_OP_WRITE].page_violations, 1);
	assert_int_equal(st->nat_aligned, 1);
	assert_int_equal(st->min_offset, 8188 * SECT);
	ft_ctx_free(&c);

	/* the same lines without the offset: no erase crossing (3M is inside
	 * block 0), 1M at 4M aligned; 6140 * 512 = 191.875 pages + 4K = 192.125:
	 * still a page violation
	 */
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c, "0.1 D W 6140 8\n0.2 D W 8192 2048\n");
	assert_int_equal(st->dir[FT_OP_WRITE].erase_cross, 0);
	assert_int_equal(st->dir[FT_OP_WRITE].page_violations, 1);
	/* 6144 (3M, page aligned) + 8 stays in its page */
	feed_text(&c, "0.3 D W 6144 8\n");
	assert_int_equal(st->dir[FT_OP_WRITE].page_violations, 1);
	assert_int_equal(st->dir[FT_OP_WRITE].page_cross, 2);
	/* 1M at 4M and 4K at 3M */
	assert_int_equal(st->nat_aligned, 2);
	ft_ctx_free(&c);
}

static void test_switches(void **state)
{
	struct ft_ctx c;
	const struct ft_stats *st = &c.st;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	/* 4 writes of 128K alternating erase blocks 0 and 1 (8192 sectors =
	 * 4M), a read in between: 3 switches in 0.5 MiB = 6 per MiB
	 */
	feed_text(&c,
		  "0.1 D WS 0 256\n"
		  "0.2 D WS 8192 256\n"
		  "0.25 D R 100000 8\n"
		  "0.3 D WS 256 256\n"
		  "0.4 D WS 8448 256\n");
	assert_int_equal(st->switches, 3);
	assert_true(fabs(ft_switches_per_mib(st) - 6.0) < EPS);
	assert_int_equal(st->backward, 0);
	assert_int_equal(st->sequential, 0);
	assert_int_equal(st->distinct_ebs, 2);
	ft_ctx_free(&c);

	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c,
		  "0.1 D W 0 256\n"	/* eb0 [0, 128K) */
		  "0.2 D W 256 256\n"	/* sequential */
		  "0.3 D W 128 8\n"	/* backward in eb0 */
		  "0.4 D W 8192 256\n"	/* switch to eb1 */
		  "0.5 D W 512 256\n"	/* switch back; at eb0's high: forward */
		  "0.6 D FN 0 0\n"	/* a flush is not a write */
		  "0.7 D W 0 8\n");	/* backward, no switch */
	assert_int_equal(st->switches, 2);
	assert_int_equal(st->sequential, 1);
	assert_int_equal(st->backward, 2);
	assert_int_equal(st->dir[FT_OP_FLUSH].requests, 1);
	/* 4 * 128K + 4K + 4K = 520K */
	assert_int_equal(st->dir[FT_OP_WRITE].bytes, 520 * KIB);
	ft_ctx_free(&c);
}

static void test_directions(void **state)
{
	struct ft_ctx c;
	const struct ft_stats *st = &c.st;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c,
		  "179,0    0        1     0.000000000  1234  D  WS 2048 + 256 [fio]\n"
		  "179,0    0        2     0.000001000  1234  D   R 4096 + 8 [fio]\n"
		  "179,0    0        3     0.000002000  1234  D  FN [fio]\n"
		  "179,0    0        4     0.000003000  1234  D WFS 8192 + 16 [fio]\n"
		  "179,0    0        5     0.000004000  1234  D FWS 8192 + 16 [fio]\n"
		  "179,0    0        6     0.000005000  1234  D   D 16384 + 2048 [fio]\n"
		  "179,0    0        7     0.000006000  1234  D RAM 100 + 8 [fio]\n"
		  "179,0    0        8     0.000007000  1234  Q  WS 200 + 8 [fio]\n"
		  "179,0    0        0     0.000009000     0  m   N flash switch 3 -> 7\n"
		  "179,0    0        0     0.000009000     0  m   N elv switch: flash\n"
		  "0.000010000 D DE 40000 8\n"
		  "0.000011000 D N 0 0\n");
	/* D: WS R FN WFS FWS D RAM DE N */
	assert_int_equal(st->dispatches, 9);
	assert_int_equal(st->other_actions, 1);
	assert_int_equal(st->messages, 2);
	assert_int_equal(st->flash_switch_msgs, 1);
	assert_int_equal(st->dir[FT_OP_READ].requests, 2);
	assert_int_equal(st->dir[FT_OP_READ].bytes, 8 * KIB);
	assert_int_equal(st->dir[FT_OP_WRITE].requests, 3);
	assert_int_equal(st->dir[FT_OP_WRITE].bytes, 128 * KIB + 16 * KIB);
	assert_int_equal(st->dir[FT_OP_DISCARD].requests, 2);
	assert_int_equal(st->dir[FT_OP_DISCARD].bytes, MIB + 4 * KIB);
	assert_int_equal(st->dir[FT_OP_FLUSH].requests, 1);
	assert_int_equal(st->dir[FT_OP_OTHER].requests, 1);
	assert_int_equal(st->preflush, 1);
	assert_int_equal(st->fua, 1);
	assert_int_equal(st->secure_erase, 1);
	assert_int_equal(st->sync, 3);
	assert_int_equal(st->ahead, 1);
	assert_int_equal(st->meta, 1);
	/* the sizes: 128K write, 2 x 8K writes, 2 x 4K reads */
	assert_int_equal(st->dir[FT_OP_WRITE].sizes[ft_size_bucket(128 * KIB)], 1);
	assert_int_equal(st->dir[FT_OP_WRITE].sizes[ft_size_bucket(8 * KIB)], 2);
	assert_int_equal(st->dir[FT_OP_READ].sizes[1], 2);
	assert_int_equal(st->bad_lines, 0);
	ft_ctx_free(&c);
}

static void test_not_understood(void **state)
{
	struct ft_ctx c;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c,
		  "0.1 D W 0 8\n"
		  "this is not blkparse\n"
		  "0.2 D W 8\n"
		  "\n"
		  "8,0 1 2 0.3 44 D W 8 + x [a]\n"
		  "0.4 D W 8 8\n");
	assert_int_equal(c.st.lines, 6);
	assert_int_equal(c.st.bad_lines, 3);
	assert_int_equal(c.st.blank_lines, 1);
	assert_int_equal(c.st.dispatches, 2);
	f = open_memstream(&text, &len);
	ft_report_text(&c, f);
	fclose(f);
	assert_non_null(strstr(text, "3 lines not understood"));
	free(text);
	ft_ctx_free(&c);
}

static void test_devices(void **state)
{
	static const char trace[] =
		"  8,0    0        1     0.1  1  D   W 0 + 8 [a]\n"
		"  8,16   0        2     0.2  1  D   W 8 + 8 [a]\n"
		"0.3 D W 16 8\n"
		"  8,0    0        3     0.4  1  D   W 24 + 8 [a]\n";
	struct ft_ctx c;

	(void)state;
	/* without a filter: one dispatch of a second device is flagged */
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	feed_text(&c, trace);
	assert_int_equal(c.st.dispatches, 4);
	assert_int_equal(c.st.other_dev, 1);
	assert_int_equal(c.st.major, 8);
	assert_int_equal(c.st.minor, 0);
	ft_ctx_free(&c);

	/* --dev 8,16: the two 8,0 lines are dropped, short format passes */
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	c.dev_filter = 1;
	c.filter_major = 8;
	c.filter_minor = 16;
	feed_text(&c, trace);
	assert_int_equal(c.st.dispatches, 2);
	assert_int_equal(c.st.filtered, 2);
	assert_int_equal(c.st.other_dev, 0);
	assert_int_equal(c.st.sequential, 1);	/* 8 + 8 then 16 */
	ft_ctx_free(&c);
}

/* ---- streaming input ---- */

static void test_feed_fd(void **state)
{
	struct ft_ctx c;
	FILE *f = tmpfile();
	int i;

	(void)state;
	assert_non_null(f);
	/* 100000 lines cross many 256K chunk boundaries */
	for (i = 0; i < 100000; i++)
		fprintf(f, "%d.%09d D W %d 8\n", i / 1000, i % 1000, i * 8);
	/* a line longer than the chunk: one line not understood */
	for (i = 0; i < 300000; i++)
		fputc('x', f);
	fputc('\n', f);
	/* the last line has no newline */
	fputs("200.0 D R 0 8", f);
	fflush(f);
	rewind(f);
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_feed_fd(&c, fileno(f)), 0);
	fclose(f);
	assert_int_equal(c.st.lines, 100002);
	assert_int_equal(c.st.bad_lines, 1);
	assert_int_equal(c.st.dir[FT_OP_WRITE].requests, 100000);
	assert_int_equal(c.st.dir[FT_OP_READ].requests, 1);
	/* 99999 of 100000 writes continue the previous one */
	assert_int_equal(c.st.sequential, 99999);
	ft_ctx_free(&c);
}

/* ---- JSON ---- */

static char *run_json(struct ft_ctx *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ft_report_json(c, f);
	fclose(f);
	return text;
}

static int python_accepts(const char *text, const char *cmd)
{
	char path[] = "/tmp/test-flashtrace-XXXXXX";
	char buf[256];
	int fd = mkstemp(path), rc;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(buf, sizeof(buf), "%s %s >/dev/null 2>&1", cmd, path);
	rc = system(buf);
	unlink(path);
	return rc == 0;
}

static void test_json(void **state)
{
	const struct ft_jval *m;
	struct ft_jval *doc;
	struct ft_ctx c;
	char err[128];
	char *text;

	(void)state;
	ctx_geom(&c, 16 * KIB, 1572864, 0);
	assert_int_equal(ft_replay_add(&c.rp, "sd-c10", err, sizeof(err)), 0);
	feed_text(&c,
		  "0.1 D WS 0 256\n"
		  "0.2 D WS 8192 256\n"
		  "0.3 D WS 28 8\n"	/* [14K, 18K) crosses 16K unaligned */
		  "0.4 D R 0 8\n"
		  "bogus \"line\" \\ with quotes\n"
		  "179,0 0 0 0.5 0 m N flash switch \"quoted\"\n");
	text = run_json(&c);
	if (system("command -v python3 >/dev/null 2>&1") == 0)
		assert_true(python_accepts(text, "python3 -m json.tool"));
	doc = ft_json_parse(text, err, sizeof(err));
	if (!doc)
		fail_msg("JSON does not parse: %s\n%s", err, text);
	assert_int_equal(ft_json_num(doc, "schema"), FT_JSON_SCHEMA);
	assert_int_equal(ft_json_num(doc, "geometry.erase_size"), 1572864);
	assert_int_equal(ft_json_num(doc, "input.not_understood"), 1);
	assert_int_equal(ft_json_num(doc, "input.flash_switch_messages"), 1);
	assert_int_equal(ft_json_num(doc, "writes.requests"), 3);
	assert_int_equal(ft_json_num(doc, "writes.page_violations"), 1);
	/* 1.5M blocks: sector 8192 = 4M is in block 2: two switches (0->2->0)
	 * over 260K: 2 / (260 / 1024) = 7.877
	 */
	assert_int_equal(ft_json_num(doc, "writes.switches"), 2);
	assert_true(fabs(ft_json_num(doc, "writes.switches_per_mib") -
			 2.0 * 1024 / 260) < 0.0001);
	assert_int_equal(ft_json_num(doc, "requests.read.bytes"), 4096);
	m = ft_json_get(doc, "models");
	assert_non_null(m);
	assert_int_equal(m->type, FT_J_ARR);
	assert_non_null(m->child);
	assert_string_equal(ft_json_get(m->child, "preset")->str, "sd-c10");
	assert_false(isnan(ft_json_num(m->child, "write_amplification")));
	ft_json_free(doc);
	free(text);
	ft_ctx_free(&c);

	/* the reader rejects broken documents */
	assert_null(ft_json_parse("{\"a\": 1,}", err, sizeof(err)));
	assert_null(ft_json_parse("{\"a\" 1}", err, sizeof(err)));
	assert_null(ft_json_parse("[1, 2", err, sizeof(err)));
	assert_null(ft_json_parse("{} x", err, sizeof(err)));
	doc = ft_json_parse(" {\"a\": {\"b\": [true, null, -1.5e3, \"x\\ty\"]}} ",
			    err, sizeof(err));
	assert_non_null(doc);
	m = ft_json_path(doc, "a.b");
	assert_non_null(m);
	assert_int_equal(m->child->next->next->num, -1500);
	assert_string_equal(m->child->next->next->next->str, "x\ty");
	ft_json_free(doc);
}

/* ---- compare mode ---- */

#define SVG_CMP		"/tmp/test-flashtrace-cmp.svg"
/* exits 0 if argv[1] is well-formed XML */
#define XML_CHECK \
	"python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])'"

static void write_json_file(const char *path, const char *trace)
{
	struct ft_ctx c;
	char err[128];
	FILE *f;

	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_replay_add(&c.rp, "usb-8g", err, sizeof(err)), 0);
	feed_text(&c, trace);
	f = fopen(path, "w");
	assert_non_null(f);
	ft_report_json(&c, f);
	fclose(f);
	ft_ctx_free(&c);
}

/* Run compare with stdout into a file; returns the file's text. */
static char *run_compare(int argc, char **argv, int *rc)
{
	char out[] = "/tmp/test-flashtrace-out-XXXXXX";
	int fd = mkstemp(out), saved = dup(1);
	char *text = malloc(1 << 16);
	ssize_t n;

	fflush(stdout);
	dup2(fd, 1);
	*rc = ft_compare_main(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, text, (1 << 16) - 1);
	text[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(out);
	return text;
}

static void test_compare(void **state)
{
	char a[] = "/tmp/test-flashtrace-a.json", b[] = "/tmp/test-flashtrace-b.json";
	char svg[] = SVG_CMP;
	char arg_a[64], arg_b[64];
	char *argv[8], *text, err[128];
	struct ft_jval *doc;
	const struct ft_jval *row;
	int rc;

	(void)state;
	/* A: 4 writes alternating 2 blocks (3 switches); B: sequential */
	write_json_file(a, "0.1 D W 0 256\n0.2 D W 8192 256\n"
			"0.3 D W 256 256\n0.4 D W 8448 256\n");
	write_json_file(b, "0.1 D W 0 256\n0.2 D W 256 256\n"
			"0.3 D W 512 256\n0.4 D W 768 256\n");
	snprintf(arg_a, sizeof(arg_a), "mq-deadline=%s", a);
	snprintf(arg_b, sizeof(arg_b), "%s", b);

	argv[0] = "compare";
	argv[1] = "--svg";
	argv[2] = svg;
	argv[3] = arg_a;
	argv[4] = arg_b;
	argv[5] = NULL;
	text = run_compare(5, argv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "mq-deadline"));
	assert_non_null(strstr(text, "test-flashtrace-b"));
	assert_non_null(strstr(text, "model usb-8g"));
	assert_non_null(strstr(text, "switches per MiB written"));
	free(text);
	if (system("command -v python3 >/dev/null 2>&1") == 0)
		assert_true(python_accepts("", XML_CHECK " " SVG_CMP " #"));

	argv[1] = "--json";
	argv[2] = arg_a;
	argv[3] = arg_b;
	argv[4] = NULL;
	text = run_compare(4, argv, &rc);
	assert_int_equal(rc, 0);
	doc = ft_json_parse(text, err, sizeof(err));
	if (!doc)
		fail_msg("compare JSON: %s\n%s", err, text);
	row = ft_json_get(doc, "rows")->child;
	while (row && strcmp(ft_json_get(row, "metric")->str,
			     "writes.switches_per_mib"))
		row = row->next;
	assert_non_null(row);
	/* 3 switches in 0.5 MiB = 6; sequential = 0 */
	assert_true(fabs(ft_json_get(row, "values")->child->num - 6.0) < EPS);
	assert_true(fabs(ft_json_get(row, "values")->child->next->num) < EPS);
	ft_json_free(doc);
	free(text);

	/* a missing file fails */
	argv[1] = "/nonexistent.json";
	argv[2] = NULL;
	text = run_compare(2, argv, &rc);
	assert_int_not_equal(rc, 0);
	free(text);
	unlink(a);
	unlink(b);
	unlink(svg);
}

/* ---- SVG ---- */

static void test_svg(void **state)
{
	char path[] = "/tmp/test-flashtrace-svg-XXXXXX";
	struct ft_ctx c;
	char line[96];
	int fd, i;
	FILE *f;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	c.svg = ft_svg_new();
	assert_non_null(c.svg);
	/* more dispatches than samples: the picture thins them */
	for (i = 0; i < 3 * FT_SVG_POINTS + 7; i++) {
		int n = snprintf(line, sizeof(line), "%d.%06d D %s %d 8",
				 i / 100000, i % 100000 * 10,
				 i % 5 ? "W" : "R", (i * 64) % 200000);

		ft_feed_line(&c, line, n);
	}
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	assert_int_equal(ft_svg_write(c.svg, &c.st, f, "test <&>"), 0);
	fclose(f);
	if (system("command -v python3 >/dev/null 2>&1") == 0) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd),
			 "python3 -c 'import sys, xml.etree.ElementTree as E; "
			 "r = E.parse(sys.argv[1]).getroot(); "
			 "sys.exit(0 if len(r.findall(\"{http://www.w3.org/2000/svg}rect\")) > 1000 else 1)' %s",
			 path);
		assert_int_equal(system(cmd), 0);
	}
	unlink(path);
	ft_ctx_free(&c);
}

/* ---- memory does not grow with the trace ---- */

/* When set, feed_random() also writes its lines here. */
static FILE *gen_out;

static void feed_random(struct ft_ctx *c, u64 *rnd, u64 *t,
			int n, u64 span_sectors)
{
	char line[128];
	int i, len;

	for (i = 0; i < n; i++) {
		u64 s;

		*rnd = *rnd * 6364136223846793005ull + 1442695040888963407ull;
		s = (*rnd >> 24) % span_sectors / 8 * 8;
		*t += 1000 + (*rnd >> 50);
		if (i & 1)
			len = snprintf(line, sizeof(line),
				       "%llu.%09llu D %s %llu %u",
				       (unsigned long long)(*t / 1000000000),
				       (unsigned long long)(*t % 1000000000),
				       i % 3 ? "WS" : "R",
				       (unsigned long long)s, 8u << (i % 4));
		else
			len = snprintf(line, sizeof(line),
				       "  8,0    1 %8d %5llu.%09llu  42  D %3s %llu + %u [fio]",
				       i, (unsigned long long)(*t / 1000000000),
				       (unsigned long long)(*t % 1000000000),
				       i % 3 ? "W" : "FWS",
				       (unsigned long long)s, 8u << (i % 4));
		ft_feed_line(c, line, len);
		if (gen_out)
			fprintf(gen_out, "%s\n", line);
	}
}

static void test_memory_bound(void **state)
{
	const u64 span = 64 * MIB / SECT;	/* 16 erase blocks */
	u64 rnd = 7, t = 0, mem0 = ft_mem_bytes(), mem1, mem2;
	struct mallinfo2 mi1, mi2;
	struct ft_ctx c;
	char line[64], err[128];
	u64 s;
	int n;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_replay_add(&c.rp, "sd-c10", err, sizeof(err)), 0);
	assert_int_equal(ft_replay_add(&c.rp, "emmc-toshiba", err,
				       sizeof(err)), 0);
	c.svg = ft_svg_new();
	/* warm up: touch every unit of the span once, then random I/O */
	for (s = 0; s < span; s += 256) {
		t += 1000;
		n = snprintf(line, sizeof(line), "%llu.%09llu D W %llu 256",
			     (unsigned long long)(t / 1000000000),
			     (unsigned long long)(t % 1000000000),
			     (unsigned long long)s);
		ft_feed_line(&c, line, n);
	}
	feed_random(&c, &rnd, &t, 50000, span);
	mem1 = ft_mem_bytes();
	mi1 = mallinfo2();
	/* 20x more events: nothing may grow */
	feed_random(&c, &rnd, &t, 1000000, span);
	mem2 = ft_mem_bytes();
	mi2 = mallinfo2();
	print_message("flashtrace memory: own %llu bytes, heap in use %zu -> %zu bytes",
		      (unsigned long long)mem2, mi1.uordblks, mi2.uordblks);
	print_message(" after %llu dispatches\n",
		      (unsigned long long)c.st.dispatches);
	assert_int_equal(c.st.bad_lines, 0);
	assert_int_equal(mem1, mem2);
	assert_int_equal(mi1.uordblks, mi2.uordblks);
	ft_ctx_free(&c);
	/* and everything flashtrace allocated was given back */
	assert_int_equal(ft_mem_bytes(), mem0);
}

/* ---- replay equals direct flashmodel calls ---- */

static void test_replay_matches_model(void **state)
{
	static const char *const presets[] = { "sd-c10", "emmc-toshiba" };
	/* D events, and the model calls they must turn into (offset 1M) */
	static const char trace[] =
		"0.001 D WS 0 256\n"
		"0.002 D R 8192 8\n"
		"179,0 0 3 0.003 1 D FWS 256 + 256 [x]\n"
		"179,0 0 4 0.0035 1 D FN [x]\n"
		"0.004 D WFS 20000 16\n"
		"0.0039 D W 40 24\n"		/* earlier: arrival clamped */
		"0.005 D D 16384 8192\n"
		"0.006 D N 0 0\n"		/* not replayed */
		"0.007 D W 512 8\n";
	struct {
		u64 t;
		enum fm_op op;
		u64 sector, n;
		unsigned int flags;
	} want[] = {
		{ 1000000, FM_WRITE, 0, 256, 0 },
		{ 2000000, FM_READ, 8192, 8, 0 },
		{ 3000000, FM_WRITE, 256, 256, FM_PREFLUSH },
		{ 3500000, FM_FLUSH, 0, 0, 0 },
		{ 4000000, FM_WRITE, 20000, 16, FM_FUA },
		{ 4000000, FM_WRITE, 40, 24, 0 },
		{ 5000000, FM_DISCARD, 16384, 8192, 0 },
		{ 7000000, FM_WRITE, 512, 8, 0 },
	};
	const u64 off = 2048;
	struct ft_model_result r;
	struct fm_stats direct;
	struct fm_params p;
	struct fm_model *m;
	struct ft_ctx c;
	char err[128];
	size_t i, k;

	(void)state;
	ctx_geom(&c, 16 * KIB, 4 * MIB, off);
	for (k = 0; k < 2; k++)
		assert_int_equal(ft_replay_add(&c.rp, presets[k], err,
					       sizeof(err)), 0);
	feed_text(&c, trace);
	assert_int_equal(c.rp.submitted, 8);
	assert_int_equal(c.rp.skipped, 1);

	for (k = 0; k < 2; k++) {
		assert_int_equal(fm_preset_builtin(presets[k], &p), 0);
		m = fm_new(&p);
		assert_non_null(m);
		for (i = 0; i < ARRAY_SIZE(want); i++)
			fm_submit(m, want[i].t, want[i].op,
				  want[i].n ? (want[i].sector + off) * SECT : 0,
				  want[i].n * SECT, want[i].flags);
		fm_get_stats(m, &direct);
		ft_replay_result(&c.rp, k, &r);
		assert_memory_equal(&r.st, &direct, sizeof(direct));
		assert_true(r.wa == fm_write_amplification(&direct));
		assert_true(r.mibps == fm_write_mibps(&direct));
		assert_int_equal(r.wr_lat_p99,
				 fm_latency_percentile(m, FM_WRITE, 0.99));
		assert_int_equal(r.wr_service_p50,
				 fm_service_percentile(m, FM_WRITE, 0.50));
		assert_int_equal(r.rd_lat_p50,
				 fm_latency_percentile(m, FM_READ, 0.50));
		assert_int_equal(direct.writes, 5);
		assert_int_equal(direct.reads, 1);
		fm_free(m);
	}
	/* an unknown preset is an error with a reason */
	assert_int_equal(ft_replay_add(&c.rp, "/nonexistent/preset", err,
				       sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	ft_ctx_free(&c);
}

/* ---- speed ---- */

/*
 * CPU time of this thread: other jobs on a busy build machine do not count
 * against the parser (wall time would make the test flaky).
 */
static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_speed(void **state)
{
	const int n = 500000;
	u64 rnd = 1, t = 0;
	struct ft_ctx gen, c;
	char *text = NULL, *p, *nl;
	size_t len = 0;
	double best = 0, t0, rate;
	int round;
	FILE *f;

	(void)state;
	/* generate the lines once (the generator is slower than the parser) */
	f = open_memstream(&text, &len);
	ctx_geom(&gen, 16 * KIB, 4 * MIB, 0);
	gen_out = f;
	feed_random(&gen, &rnd, &t, n, 1u << 24);
	gen_out = NULL;
	fclose(f);
	ft_ctx_free(&gen);
	/* best of three, so a busy machine does not fail the test */
	for (round = 0; round < 3; round++) {
		ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
		t0 = seconds();
		for (p = text; (nl = strchr(p, '\n')); p = nl + 1)
			ft_feed_line(&c, p, nl - p);
		rate = n / (seconds() - t0);
		if (rate > best)
			best = rate;
		assert_int_equal(c.st.dispatches, n);
		ft_ctx_free(&c);
	}
	free(text);
	print_message("flashtrace speed: %.0f events per CPU second (parse + geometry, no model)\n",
		      best);
	assert_true(best >= 1e6);
}

/* ---- binary blktrace input ---- */

#define BT_DEV		((254u << 20) | 0)	/* 254,0 as the kernel encodes it */
#define BT_CPUS		3

/* Per-CPU binary streams (memory) and the blkparse text of the same trace. */
struct bt_gen {
	FILE *f[BT_CPUS];
	char *buf[BT_CPUS];
	size_t len[BT_CPUS];
	FILE *text;
	char *tbuf;
	size_t tlen;
	int swap;		/* write the other byte order */
	int have_genesis;
	u64 genesis;
	unsigned int seq;
};

static void bt_put(unsigned char *p, const void *v, size_t n, int swap)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = ((const unsigned char *)v)[swap ? n - 1 - i : i];
}

/* One struct blk_io_trace (offsets of the uapi header) and its payload. */
static void bt_record(FILE *f, int swap, u64 time, u64 sector,
		      u32 bytes, u32 action, u32 cpu,
		      const void *pdu, u16 pdu_len)
{
	u32 magic = FT_BLK_MAGIC | FT_BLK_VERSION, seq = 7, pid = 216;
	u32 dev = BT_DEV;
	u16 err = 0;
	unsigned char h[FT_BLK_HDR_SIZE];

	bt_put(h, &magic, 4, swap);
	bt_put(h + 4, &seq, 4, swap);
	bt_put(h + 8, &time, 8, swap);
	bt_put(h + 16, &sector, 8, swap);
	bt_put(h + 24, &bytes, 4, swap);
	bt_put(h + 28, &action, 4, swap);
	bt_put(h + 32, &pid, 4, swap);
	bt_put(h + 36, &dev, 4, swap);
	bt_put(h + 40, &cpu, 4, swap);
	bt_put(h + 44, &err, 2, swap);
	bt_put(h + 46, &pdu_len, 2, swap);
	fwrite(h, 1, sizeof(h), f);
	if (pdu_len)
		fwrite(pdu, 1, pdu_len, f);
}

static void bt_open(struct bt_gen *g, int swap)
{
	int i;

	memset(g, 0, sizeof(*g));
	g->swap = swap;
	for (i = 0; i < BT_CPUS; i++)
		g->f[i] = open_memstream(&g->buf[i], &g->len[i]);
	g->text = open_memstream(&g->tbuf, &g->tlen);
}

static void bt_close(struct bt_gen *g)
{
	int i;

	for (i = 0; i < BT_CPUS; i++)
		fclose(g->f[i]);
	fclose(g->text);
}

static void bt_free(struct bt_gen *g)
{
	int i;

	for (i = 0; i < BT_CPUS; i++)
		free(g->buf[i]);
	free(g->tbuf);
}

/*
 * Relative time as blkparse prints it: since the first record that is not
 * a process or timestamp note.
 */
static u64 bt_rel(struct bt_gen *g, u64 t)
{
	if (!g->have_genesis) {
		g->genesis = t;
		g->have_genesis = 1;
	}
	return t - g->genesis;
}

/* An action record and, in blkparse's default layout, its text line. */
static void bt_action(struct bt_gen *g, int cpu, u64 t, u64 sector,
		      u32 bytes, u32 action, const char *letter)
{
	char rwbs[16];
	u64 rel = bt_rel(g, t);

	bt_record(g->f[cpu], g->swap, t, sector, bytes, action, cpu, NULL, 0);
	ft_blk_rwbs(action, bytes, rwbs);
	fprintf(g->text, "254,0   %2d %8u %5llu.%09llu   216  %s %3s ", cpu,
		++g->seq, (unsigned long long)(rel / 1000000000),
		(unsigned long long)(rel % 1000000000), letter, rwbs);
	if (action & FT_BLK_TC_PC)
		fprintf(g->text, "%u (2a 00) [fio]\n", bytes);
	else if (bytes)
		fprintf(g->text, "%llu + %u [fio]\n",
			(unsigned long long)sector, bytes >> 9);
	else
		fprintf(g->text, "[fio]\n");
}

static void bt_message(struct bt_gen *g, int cpu, u64 t, const char *msg,
		       int cgroup)
{
	unsigned char pdu[128];
	u64 cgid = 1, rel = bt_rel(g, t);
	size_t n = strlen(msg), off = cgroup ? 8 : 0;

	memcpy(pdu, &cgid, 8);
	memcpy(pdu + off, msg, n);
	bt_record(g->f[cpu], g->swap, t, 0, 0,
		  FT_BLK_TC_NOTIFY | FT_BLK_TN_MESSAGE |
		  (cgroup ? FT_BLK_CGROUP : 0), cpu, pdu, n + off);
	fprintf(g->text, "254,0   %2d        0 %5llu.%09llu     0  m   N %s\n",
		cpu, (unsigned long long)(rel / 1000000000),
		(unsigned long long)(rel % 1000000000), msg);
}

static void bt_note(struct bt_gen *g, int cpu, u64 t, unsigned int what)
{
	char comm[16] = "fio";

	bt_record(g->f[cpu], g->swap, t, 0xdeadbeef, 77,
		  FT_BLK_TC_NOTIFY | what, cpu, comm, sizeof(comm));
}

/*
 * A random trace of @n records over BT_CPUS streams: dispatches of every
 * kind (write with sync / FUA / preflush, read, read-ahead, meta, discard,
 * flush, passthrough, sizes not a multiple of 512), queue and complete
 * events, messages with and without a cgroup id, process and timestamp
 * notes.
 */
static void bt_generate(struct bt_gen *g, int n, u64 seed)
{
	static const u32 base = FT_BLK_TA_ISSUE | FT_BLK_TC_ISSUE;
	u64 rnd = seed, t = 5000000000ull, sector = 4096;
	char msg[64];
	int i, cpu, k;

	bt_note(g, 0, t - 1000000, FT_BLK_TN_TIMESTAMP);
	for (i = 0; i < n; i++) {
		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		t += 1 + (rnd >> 40) % 50000;
		cpu = (rnd >> 20) % BT_CPUS;
		k = (rnd >> 8) % 20;
		switch (k) {
		case 0:
			bt_note(g, cpu, t, FT_BLK_TN_PROCESS);
			break;
		case 1:
		case 2:
		case 3:
			snprintf(msg, sizeof(msg), "flash switch %d -> %d",
				 i, i + 1);
			bt_message(g, cpu, t, msg, k != 3);
			break;
		case 4:
			bt_message(g, cpu, t, "flash hello", 1);
			break;
		case 5:
			bt_action(g, cpu, t, sector, 4096,
				  1 | FT_BLK_TC_QUEUE | FT_BLK_TC_WRITE, "Q");
			break;
		case 6:
			bt_action(g, cpu, t, sector, 4096,
				  8 | FT_BLK_TC_COMPLETE | FT_BLK_TC_WRITE, "C");
			break;
		case 7:
			bt_action(g, cpu, t, ((rnd >> 12) % (1u << 21)) * 8,
				  4096 << (rnd % 6), base | FT_BLK_TC_FS |
				  FT_BLK_TC_READ | ((rnd & 64) ?
				  FT_BLK_TC_AHEAD : FT_BLK_TC_META), "D");
			break;
		case 8:
			bt_action(g, cpu, t, ((rnd >> 12) % (1u << 15)) * 8192,
				  4 * 1024 * 1024, base | FT_BLK_TC_FS |
				  FT_BLK_TC_WRITE | FT_BLK_TC_DISCARD, "D");
			break;
		case 9:
			bt_action(g, cpu, t, 0, 0, base | FT_BLK_TC_FS |
				  FT_BLK_TC_FLUSH, "D");
			break;
		case 10:
			bt_action(g, cpu, t, 0, 4096, base | FT_BLK_TC_PC |
				  FT_BLK_TC_READ, "D");
			break;
		case 11:
			/* 1000 bytes: blkparse prints 1 sector */
			bt_action(g, cpu, t, sector, 1000, base | FT_BLK_TC_FS |
				  FT_BLK_TC_WRITE | FT_BLK_TC_FUA |
				  FT_BLK_TC_FLUSH | FT_BLK_TC_SYNC, "D");
			sector += 2;
			break;
		case 12:
		case 13:
			bt_action(g, cpu, t, ((rnd >> 12) % (1u << 21)) * 8,
				  4096, base | FT_BLK_TC_FS | FT_BLK_TC_WRITE |
				  FT_BLK_TC_SYNC |
				  ((rnd & 128) ? FT_BLK_CGROUP : 0), "D");
			break;
		default:
			bt_action(g, cpu, t, sector, 64 * 1024, base |
				  FT_BLK_TC_FS | FT_BLK_TC_WRITE |
				  FT_BLK_TC_SYNC, "D");
			sector += 128;
			break;
		}
	}
}

/* memfds holding the per-CPU streams, rewound. */
static void bt_fds(struct bt_gen *g, int *fds)
{
	int i;

	for (i = 0; i < BT_CPUS; i++) {
		fds[i] = memfd_create("bt", 0);
		assert_true(fds[i] >= 0);
		assert_int_equal(write(fds[i], g->buf[i], g->len[i]),
				 (ssize_t)g->len[i]);
		lseek(fds[i], 0, SEEK_SET);
	}
}

static void bt_close_fds(int *fds)
{
	int i;

	for (i = 0; i < BT_CPUS; i++)
		close(fds[i]);
}

/* JSON of a run without the lines that describe the input format. */
static char *json_results(const struct ft_ctx *c)
{
	char *text = NULL, *out, *p, *nl, *o;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ft_report_json(c, f);
	fclose(f);
	out = malloc(len + 1);
	o = out;
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		if (!strstr(p, "\"lines\"") || strstr(p, "\"lines\"") > nl)
			if (!strstr(p, "\"blktrace_") ||
			    strstr(p, "\"blktrace_") > nl) {
				memcpy(o, p, nl - p + 1);
				o += nl - p + 1;
			}
		if (!nl[1])
			break;
	}
	*o = '\0';
	free(text);
	return out;
}

static char *svg_text(const struct ft_ctx *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(ft_svg_write(c->svg, &c->st, f, "t"), 0);
	fclose(f);
	return text;
}

static void ctx_binary_test(struct ft_ctx *c)
{
	char err[128];

	ctx_geom(c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_replay_add(&c->rp, "sd-c10", err, sizeof(err)),
			 0);
	c->svg = ft_svg_new();
	assert_non_null(c->svg);
}

static void test_blk_rwbs(void **state)
{
	const u32 fs = FT_BLK_TC_FS;
	char b[16];

	(void)state;
	ft_blk_rwbs(fs | FT_BLK_TC_WRITE | FT_BLK_TC_SYNC, 4096, b);
	assert_string_equal(b, "WS");
	ft_blk_rwbs(fs | FT_BLK_TC_WRITE | FT_BLK_TC_FLUSH | FT_BLK_TC_FUA |
		    FT_BLK_TC_SYNC, 4096, b);
	assert_string_equal(b, "FWFS");
	ft_blk_rwbs(fs | FT_BLK_TC_READ | FT_BLK_TC_AHEAD, 4096, b);
	assert_string_equal(b, "RA");
	ft_blk_rwbs(fs | FT_BLK_TC_READ | FT_BLK_TC_META | FT_BLK_TC_SYNC,
		    512, b);
	assert_string_equal(b, "RSM");
	/* discard sets the write bit too; D wins */
	ft_blk_rwbs(fs | FT_BLK_TC_WRITE | FT_BLK_TC_DISCARD, 8192, b);
	assert_string_equal(b, "D");
	/* REQ_OP_FLUSH: read direction, flush bit, no data */
	ft_blk_rwbs(fs | FT_BLK_TC_FLUSH, 0, b);
	assert_string_equal(b, "FN");
	ft_blk_rwbs(fs, 0, b);
	assert_string_equal(b, "N");
}

static void test_blk_decode(void **state)
{
	unsigned char rec[FT_BLK_HDR_SIZE + 64];
	struct ft_blk_hdr h;
	struct ft_event ev;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int swap = -1;
	u64 cg = 1;

	(void)state;
	/* a cgroup-tagged message, as 6.12 writes every message */
	f = open_memstream(&buf, &len);
	memcpy(rec, &cg, 8);
	memcpy(rec + 8, "flash switch 1 -> 2\n", 20);
	bt_record(f, 0, 123, 0, 0, FT_BLK_TC_NOTIFY | FT_BLK_TN_MESSAGE |
		  FT_BLK_CGROUP, 1, rec, 28);
	fclose(f);
	assert_int_equal(len, FT_BLK_HDR_SIZE + 28);
	assert_int_equal(ft_blk_hdr_decode((unsigned char *)buf, &swap, &h),
			 0);
	assert_int_equal(swap, 0);
	assert_int_equal(h.time, 123);
	assert_int_equal(h.pdu_len, 28);
	assert_int_equal(h.cpu, 1);
	assert_int_equal(ft_blk_decode(&h, (unsigned char *)buf +
				       FT_BLK_HDR_SIZE, &ev), FT_BLK_MESSAGE);
	assert_int_equal(ev.msg_len, 19);
	assert_memory_equal(ev.msg, "flash switch 1 -> 2", 19);
	free(buf);

	/* the same without the cgroup flag, written big-endian */
	buf = NULL;
	f = open_memstream(&buf, &len);
	bt_record(f, 1, 123, 0, 0, FT_BLK_TC_NOTIFY | FT_BLK_TN_MESSAGE, 0,
		  "flash switch 3 -> 4", 19);
	fclose(f);
	swap = -1;
	assert_int_equal(ft_blk_hdr_decode((unsigned char *)buf, &swap, &h),
			 0);
	assert_int_equal(swap, 1);
	assert_int_equal(h.time, 123);
	assert_int_equal(ft_blk_decode(&h, (unsigned char *)buf +
				       FT_BLK_HDR_SIZE, &ev), FT_BLK_MESSAGE);
	assert_int_equal(ev.msg_len, 19);
	assert_memory_equal(ev.msg, "flash switch 3 -> 4", 19);
	/* once the order is known, the other order is bad magic */
	swap = 0;
	assert_int_equal(ft_blk_hdr_decode((unsigned char *)buf, &swap, &h),
			 -1);
	free(buf);

	/* an issue: 254,3 WFS 2048 + 8 */
	memset(&h, 0, sizeof(h));
	h.magic = FT_BLK_MAGIC | FT_BLK_VERSION;
	h.action = FT_BLK_TA_ISSUE | FT_BLK_TC_ISSUE | FT_BLK_TC_FS |
		   FT_BLK_TC_WRITE | FT_BLK_TC_FUA | FT_BLK_TC_SYNC;
	h.device = (254u << 20) | 3;
	h.sector = 2048;
	h.bytes = 4096;
	assert_int_equal(ft_blk_decode(&h, NULL, &ev), FT_BLK_EVENT);
	assert_string_equal(ev.action, "D");
	assert_int_equal(ev.major, 254);
	assert_int_equal(ev.minor, 3);
	assert_int_equal(ev.rwbs.op, FT_OP_WRITE);
	assert_int_equal(ev.rwbs.flags, FT_RWBS_FUA | FT_RWBS_SYNC);
	assert_true(ev.has_sector);
	assert_int_equal(ev.sector, 2048);
	assert_int_equal(ev.nsectors, 8);
	/* a complete is another action; a process note is skipped */
	h.action = 8 | FT_BLK_TC_COMPLETE | FT_BLK_TC_WRITE;
	assert_int_equal(ft_blk_decode(&h, NULL, &ev), FT_BLK_EVENT);
	assert_string_equal(ev.action, "C");
	h.action = FT_BLK_TC_NOTIFY | FT_BLK_TN_PROCESS;
	assert_int_equal(ft_blk_decode(&h, NULL, &ev), FT_BLK_NOTE);
	h.action = FT_BLK_TC_NOTIFY | FT_BLK_TN_TIMESTAMP;
	assert_int_equal(ft_blk_decode(&h, NULL, &ev), FT_BLK_NOTE);
	/* cgroup flag and a payload shorter than the id: empty message */
	h.action = FT_BLK_TC_NOTIFY | FT_BLK_TN_MESSAGE | FT_BLK_CGROUP;
	h.pdu_len = 3;
	assert_int_equal(ft_blk_decode(&h, (unsigned char *)"abc", &ev),
			 FT_BLK_MESSAGE);
	assert_int_equal(ev.msg_len, 0);
}

/*
 * The same trace as binary per-CPU streams and as blkparse text gives the
 * same results: counters, histograms, model replay (JSON) and picture.
 */
static void test_blk_matches_text(void **state)
{
	struct ft_ctx tc, bc, sc;
	struct bt_gen g, gs;
	char *tj, *bj, *sj, *tsvg, *bsvg;
	int fds[BT_CPUS];
	u64 mem0 = ft_mem_bytes();

	(void)state;
	bt_open(&g, 0);
	bt_generate(&g, 20000, 42);
	bt_close(&g);
	bt_open(&gs, 1);
	bt_generate(&gs, 20000, 42);
	bt_close(&gs);

	ctx_binary_test(&tc);
	feed_text(&tc, g.tbuf);
	ctx_binary_test(&bc);
	bt_fds(&g, fds);
	assert_int_equal(ft_feed_blktrace_fds(&bc, fds, BT_CPUS), 0);
	bt_close_fds(fds);
	ctx_binary_test(&sc);
	bt_fds(&gs, fds);
	assert_int_equal(ft_feed_blktrace_fds(&sc, fds, BT_CPUS), 0);
	bt_close_fds(fds);

	assert_int_equal(tc.st.bad_lines, 0);
	assert_true(tc.st.dispatches > 10000);
	assert_true(tc.st.flash_switch_msgs > 2000);
	assert_int_equal(bc.st.dispatches, tc.st.dispatches);
	assert_int_equal(bc.st.messages, tc.st.messages);
	assert_int_equal(bc.st.flash_switch_msgs, tc.st.flash_switch_msgs);
	assert_int_equal(bc.st.other_actions, tc.st.other_actions);
	assert_int_equal(bc.st.bin_files, BT_CPUS);
	assert_int_equal(bc.st.bin_bad, 0);
	assert_int_equal(bc.st.bin_truncated, 0);
	/* every record but the notes became a line */
	assert_int_equal(bc.st.bin_records - bc.st.bin_notes, tc.st.lines);
	assert_int_equal(bc.st.first_ns, tc.st.first_ns);
	assert_int_equal(bc.st.last_ns, tc.st.last_ns);

	tj = json_results(&tc);
	bj = json_results(&bc);
	sj = json_results(&sc);
	assert_string_equal(bj, tj);
	assert_string_equal(sj, tj);
	tsvg = svg_text(&tc);
	bsvg = svg_text(&bc);
	assert_string_equal(bsvg, tsvg);
	free(tj);
	free(bj);
	free(sj);
	free(tsvg);
	free(bsvg);
	ft_ctx_free(&tc);
	ft_ctx_free(&bc);
	ft_ctx_free(&sc);
	bt_free(&g);
	bt_free(&gs);
	assert_int_equal(ft_mem_bytes(), mem0);
}

/* Garbage between records, a record cut short at the end. */
static void test_blk_bad_records(void **state)
{
	unsigned char junk[13];
	struct ft_ctx c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int fd, i;
	const u32 wr = FT_BLK_TA_ISSUE | FT_BLK_TC_ISSUE | FT_BLK_TC_FS |
			    FT_BLK_TC_WRITE;

	(void)state;
	memset(junk, 0xaa, sizeof(junk));
	f = open_memstream(&buf, &len);
	bt_record(f, 0, 1000, 0, 4096, wr, 0, NULL, 0);
	fwrite(junk, 1, sizeof(junk), f);
	bt_record(f, 0, 2000, 8, 4096, wr, 0, NULL, 0);
	bt_record(f, 0, 3000, 0, 0, FT_BLK_TC_NOTIFY | FT_BLK_TN_MESSAGE,
		  0, "flash switch 0 -> 1", 19);
	fclose(f);
	/* cut the message's payload short */
	len -= 5;

	fd = memfd_create("bt", 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	lseek(fd, 0, SEEK_SET);
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 1), 0);
	assert_int_equal(c.st.bin_records, 2);
	assert_int_equal(c.st.dispatches, 2);
	assert_int_equal(c.st.bin_bad, 1);
	assert_int_equal(c.st.bin_skipped_bytes, sizeof(junk));
	assert_int_equal(c.st.bin_truncated, 1);
	assert_int_equal(c.st.messages, 0);
	assert_int_equal(c.st.last_ns, 1000);
	ft_ctx_free(&c);

	/* a file ending inside a header; an empty file; a file of junk */
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ftruncate(fd, FT_BLK_HDR_SIZE + 20), 0);
	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 1), 0);
	assert_int_equal(c.st.bin_records, 1);
	assert_int_equal(c.st.bin_truncated, 1);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 0), 0);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 1), 0);
	assert_int_equal(c.st.bin_records, 1);
	/* less than a header: truncated */
	assert_int_equal(write(fd, junk, sizeof(junk)), sizeof(junk));
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 1), 0);
	assert_int_equal(c.st.bin_bad, 0);
	assert_int_equal(c.st.bin_truncated, 2);
	/* 8 x 13 bytes of junk: one bad run, all of it skipped */
	for (i = 1; i < 8; i++)
		assert_int_equal(write(fd, junk, sizeof(junk)), sizeof(junk));
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ft_feed_blktrace_fds(&c, &fd, 1), 0);
	assert_int_equal(c.st.bin_bad, 1);
	assert_int_equal(c.st.bin_skipped_bytes, 8 * sizeof(junk));
	assert_int_equal(c.st.bin_truncated, 2);
	assert_int_equal(c.st.bin_records, 1);
	ft_ctx_free(&c);
	close(fd);
	free(buf);
}

/* Random bytes and mutated traces: counted, never a crash or a leak. */
static void test_blk_fuzz(void **state)
{
	u64 rnd = 99, mem0 = ft_mem_bytes();
	struct bt_gen g;
	struct ft_ctx c;
	int fds[BT_CPUS], round, i, j;
	unsigned char *p;

	(void)state;
	bt_open(&g, 0);
	bt_generate(&g, 3000, 7);
	bt_close(&g);
	for (round = 0; round < 200; round++) {
		for (i = 0; i < BT_CPUS; i++) {
			p = (unsigned char *)g.buf[i];
			for (j = 0; j < 1 + round % 50; j++) {
				rnd = rnd * 6364136223846793005ull +
				      1442695040888963407ull;
				if (round % 10 == 9)
					p[(rnd >> 16) % g.len[i]] = rnd >> 56;
				else
					p[(rnd >> 16) % g.len[i]] ^=
						1u << ((rnd >> 8) % 8);
			}
		}
		if (round == 150) {
			/* pure noise from here on */
			for (i = 0; i < BT_CPUS; i++)
				for (j = 0; j < (int)g.len[i]; j++) {
					rnd = rnd * 6364136223846793005ull +
					      1442695040888963407ull;
					g.buf[i][j] = rnd >> 56;
				}
		}
		ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
		ft_replay_add(&c.rp, "sd-c10", NULL, 0);
		bt_fds(&g, fds);
		assert_int_equal(ft_feed_blktrace_fds(&c, fds, BT_CPUS), 0);
		bt_close_fds(fds);
		assert_true(c.st.bin_records * FT_BLK_HDR_SIZE <=
			    g.len[0] + g.len[1] + g.len[2]);
		if (round >= 150)
			assert_true(c.st.bin_bad > 0);
		ft_ctx_free(&c);
	}
	bt_free(&g);
	assert_int_equal(ft_mem_bytes(), mem0);
}

/* NAME.blktrace.N files in a directory, found from NAME or from one file. */
static void test_blk_files(void **state)
{
	char dir[] = "/tmp/flashtrace-test-XXXXXX";
	char path[256], base[256], err[256];
	struct ft_ctx c, tc;
	struct bt_gen g;
	FILE *f;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	bt_open(&g, 0);
	bt_generate(&g, 2000, 3);
	bt_close(&g);
	for (i = 0; i < BT_CPUS; i++) {
		/* CPUs 0, 1 and 10: numeric order, gaps allowed */
		snprintf(path, sizeof(path), "%s/t.blktrace.%d", dir,
			 i == 2 ? 10 : i);
		f = fopen(path, "w");
		assert_non_null(f);
		fwrite(g.buf[i], 1, g.len[i], f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/t", dir);
	assert_int_equal(ft_blktrace_base(path, base, sizeof(base)), 1);
	assert_string_equal(base, path);
	snprintf(path, sizeof(path), "%s/t.blktrace.10", dir);
	assert_int_equal(ft_blktrace_base(path, base, sizeof(base)), 1);
	snprintf(path, sizeof(path), "%s/t", dir);
	assert_string_equal(base, path);
	assert_int_equal(ft_blktrace_base("trace.txt", base, sizeof(base)),
			 0);
	assert_int_equal(ft_blktrace_base("x.blktrace.1a", base,
					  sizeof(base)), 0);

	ctx_geom(&c, 16 * KIB, 4 * MIB, 0);
	assert_int_equal(ft_feed_blktrace(&c, path, err, sizeof(err)), 0);
	ctx_geom(&tc, 16 * KIB, 4 * MIB, 0);
	feed_text(&tc, g.tbuf);
	assert_int_equal(c.st.bin_files, BT_CPUS);
	assert_int_equal(c.st.dispatches, tc.st.dispatches);
	assert_int_equal(c.st.flash_switch_msgs, tc.st.flash_switch_msgs);
	assert_int_equal(c.st.switches, tc.st.switches);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(ft_feed_blktrace(&c, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no none.blktrace.N files"));
	ft_ctx_free(&c);
	ft_ctx_free(&tc);

	for (i = 0; i < BT_CPUS; i++) {
		snprintf(path, sizeof(path), "%s/t.blktrace.%d", dir,
			 i == 2 ? 10 : i);
		unlink(path);
	}
	rmdir(dir);
	bt_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_default),
		cmocka_unit_test(test_parse_short),
		cmocka_unit_test(test_parse_summary),
		cmocka_unit_test(test_rwbs),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_geometry_helpers),
		cmocka_unit_test(test_erase_1_5m),
		cmocka_unit_test(test_erase_3m_offset),
		cmocka_unit_test(test_switches),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_not_understood),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_feed_fd),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_replay_matches_model),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_blk_rwbs),
		cmocka_unit_test(test_blk_decode),
		cmocka_unit_test(test_blk_matches_text),
		cmocka_unit_test(test_blk_bad_records),
		cmocka_unit_test(test_blk_fuzz),
		cmocka_unit_test(test_blk_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
