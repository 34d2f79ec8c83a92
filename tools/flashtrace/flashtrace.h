/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flashtrace: read blkparse text, check the geometry of dispatched requests
 * against a flash page / erase block layout and replay them through the
 * flashmodel cost model.
 *
 * Contract shared by every file: memory does not grow with the length of
 * the trace.  Every per-trace structure is fixed size, except the bitmap of
 * erase blocks written, which grows with the highest erase block touched
 * (bounded by FT_EB_BITMAP_MAX_BITS) and never with the number of events.
 */
#ifndef FLASHTRACE_H
#define FLASHTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../flashmodel/flashmodel.h"

/* kernel-style names for the fixed-size types */
typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

#ifndef BIT
#define BIT(n)			(1u << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ull << (n))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#define FT_VERSION		"1"
#define FT_JSON_SCHEMA		1

/* Defaults: a typical SD card. */
#define FT_DEF_PAGE_SIZE	(16u * 1024)
#define FT_DEF_ERASE_SIZE	(4u * 1024 * 1024)
#define FT_DEF_SECTOR_SIZE	512u

#define FT_MIB			(1024.0 * 1024.0)

/* ---- parse.c: one blkparse line -> one event ---- */

/* What a request does, decoded from its RWBS string. */
enum ft_op {
	FT_OP_READ,
	FT_OP_WRITE,
	FT_OP_DISCARD,
	FT_OP_FLUSH,	/* "FN" (blkparse) or "F"/"FF" (kernel tracepoint) */
	FT_OP_OTHER,	/* "N" and passthrough requests: no geometry */
	FT_NR_OPS
};

#define FT_RWBS_PREFLUSH	BIT(0)	/* leading F */
#define FT_RWBS_FUA		BIT(1)	/* F after the operation letter */
#define FT_RWBS_AHEAD		BIT(2)	/* A */
#define FT_RWBS_SYNC		BIT(3)	/* S */
#define FT_RWBS_META		BIT(4)	/* M */
#define FT_RWBS_SECURE		BIT(5)	/* DE: secure erase */
#define FT_RWBS_BARRIER		BIT(6)	/* B (old kernels) */

struct ft_rwbs {
	enum ft_op op;
	unsigned int flags;	/* FT_RWBS_* */
};

/*
 * Decode @len bytes of an RWBS string.  Returns 0, or -1 when the string is
 * not RWBS (unknown letter, no operation letter, too long).
 */
int ft_parse_rwbs(const char *s, size_t len, struct ft_rwbs *r);

enum ft_line_kind {
	FT_LINE_EVENT,		/* a trace event of any action; see ev->action */
	FT_LINE_MESSAGE,	/* an "m" line; ev->msg, ev->msg_len */
	FT_LINE_SUMMARY,	/* blkparse's closing statistics */
	FT_LINE_BLANK,
	FT_LINE_BAD,		/* not understood */
};

struct ft_event {
	char action[4];		/* "D", "Q", "UT", "m", NUL terminated */
	int has_dev;		/* default format only */
	unsigned int major, minor;
	u64 time_ns;
	struct ft_rwbs rwbs;
	int has_sector;		/* "SECTOR + N" present */
	int passthrough;	/* "BYTES [comm]" or "(cdb)" form: no geometry */
	u64 sector;	/* 512-byte units, as printed */
	u64 nsectors;
	const char *msg;	/* points into the line; not NUL terminated */
	size_t msg_len;
};

/* Per-stream parser state: only whether blkparse's summary has begun. */
struct ft_parser {
	int in_summary;
};

/*
 * Classify and decode one line (without its newline; @len bytes, need not
 * be NUL terminated).  Both blkparse's default output and the short format
 * "SECONDS.NANOS ACTION RWBS SECTOR NSECTORS" are recognised, per line.
 * Never fails hard: anything else is FT_LINE_BAD.
 */
enum ft_line_kind ft_parse_line(struct ft_parser *p, const char *line,
				size_t len, struct ft_event *ev);

/* ---- geometry.c: sizes and pure layout helpers ---- */

struct ft_geom {
	u64 page_size;	/* bytes, > 0 */
	u64 erase_size;	/* bytes, a multiple of page_size */
	u64 sector_size;	/* bytes per trace sector, 512 for blkparse */
	u64 offset;	/* sectors added to every trace sector */
};

void ft_geom_default(struct ft_geom *g);
/* 0, or -1 with a reason in @err when the combination is unusable. */
int ft_geom_check(const struct ft_geom *g, char *err, size_t errlen);
/*
 * Parse "16384", "16K", "1.5M", "2G" (binary units, optional trailing
 * "iB"/"B").  The result must be a whole number of bytes.  0 or -1.
 */
int ft_parse_size(const char *s, u64 *out);
/* Format @bytes as "16K", "1.5M", "4M" or "1000" into @buf. */
const char *ft_fmt_size(u64 bytes, char *buf, size_t len);

/* Byte offset on the device of trace sector @sector (adds the offset). */
u64 ft_byte_offset(const struct ft_geom *g, u64 sector);
/* Does [start, start + len) contain a multiple of @unit other than start? */
int ft_crosses(u64 start, u64 len, u64 unit);
/* Crosses a page boundary without starting on one. */
int ft_page_violation(const struct ft_geom *g, u64 start, u64 len);
/* Starts and ends on page boundaries. */
int ft_page_aligned(const struct ft_geom *g, u64 start, u64 len);
/*
 * A power-of-two sized request whose offset inside its erase block is a
 * multiple of its size and which ends inside that erase block.
 */
int ft_naturally_aligned(const struct ft_geom *g, u64 start, u64 len);
int ft_is_pow2(u64 v);

/* ---- stats.c: counters over D events ---- */

/* Size buckets: <4K, [4K,8K), [8K,16K), ... [512K,1M), >=1M. */
#define FT_SIZE_BUCKETS		10
u64 ft_size_bucket_min(int i);
int ft_size_bucket(u64 bytes);

/* Erase blocks whose write position is remembered for "backward". */
#define FT_RECENT_EBS		64
/* Largest erase block index tracked for "distinct erase blocks written". */
#define FT_EB_BITMAP_MAX_BITS	BIT_ULL(24)

struct ft_dir_stats {
	u64 requests;
	u64 with_data;		/* requests with a sector range */
	u64 bytes;
	u64 page_cross;		/* touch more than one page */
	u64 page_violations;	/* ... without starting page aligned */
	u64 erase_cross;		/* touch more than one erase block */
	u64 sizes[FT_SIZE_BUCKETS];
	u64 not_pow2;		/* size is not a power of two */
};

struct ft_eb_slot {
	u64 eb;		/* erase block index */
	u64 high;		/* highest byte offset written + 1 */
	u64 used;		/* LRU stamp, 0 = empty */
};

struct ft_stats {
	struct ft_geom geom;

	/* input */
	u64 lines, events, dispatches, other_actions;
	u64 messages, flash_switch_msgs;
	u64 summary_lines, blank_lines, bad_lines;
	u64 time_backwards;	/* D timestamps earlier than the last */
	u64 filtered;		/* D events dropped by the device filter */
	u64 other_dev;		/* D events from a second device */
	int have_dev;
	unsigned int major, minor;	/* device of the first D event */
	int have_time;
	u64 first_ns, last_ns;
	int have_range;
	u64 min_offset, max_end;	/* bytes, over requests with data */

	struct ft_dir_stats dir[FT_NR_OPS];
	u64 preflush, fua, sync, meta, ahead, secure_erase;

	/* writes */
	u64 page_aligned;		/* start and end on page boundaries */
	u64 nat_aligned;		/* see ft_naturally_aligned() */
	u64 switches;		/* erase block differs from the last write's */
	u64 sequential;		/* starts where the last write ended */
	u64 backward;		/* below a remembered write position */
	int have_prev_write;
	u64 prev_write_eb;		/* erase block of the last write's last byte */
	u64 prev_write_end;
	u64 lru_clock;
	struct ft_eb_slot recent[FT_RECENT_EBS];
	u8 *eb_bitmap;
	u64 eb_bitmap_bits;
	u64 distinct_ebs;
	u64 untracked_eb_writes;	/* writes beyond FT_EB_BITMAP_MAX_BITS */

	/* binary blktrace input (blkbin.c) */
	u64 bin_files;		/* per-CPU files opened */
	u64 bin_records;	/* well-formed records */
	u64 bin_notes;		/* process / timestamp notes skipped */
	u64 bin_bad;		/* bad magic or version: resynchronised */
	u64 bin_skipped_bytes;	/* bytes skipped while resynchronising */
	u64 bin_truncated;	/* files ending inside a record */
};

void ft_stats_init(struct ft_stats *st, const struct ft_geom *g);
void ft_stats_free(struct ft_stats *st);
/* Account one D event.  Called for dispatches only. */
void ft_stats_dispatch(struct ft_stats *st, const struct ft_event *ev);
double ft_pct(u64 part, u64 whole);
double ft_switches_per_mib(const struct ft_stats *st);

/* Bytes currently allocated by flashtrace itself (all files). */
u64 ft_mem_bytes(void);
void *ft_calloc(size_t n, size_t size);
void *ft_realloc(void *p, size_t old_size, size_t new_size);
void ft_free(void *p, size_t size);

/* ---- replay.c: D events through flashmodel presets ---- */

#define FT_MAX_PRESETS		16

struct ft_preset_run {
	char name[256];		/* as given on the command line */
	struct fm_params params;
	struct fm_model *model;
};

struct ft_replay {
	int nr;
	struct ft_preset_run run[FT_MAX_PRESETS];
	u64 last_arrival;
	u64 submitted;
	u64 skipped;	/* passthrough / "N" requests not replayed */
};

/* Results of one preset after the trace, ready for printing. */
struct ft_model_result {
	const char *name;
	const struct fm_params *params;
	struct fm_stats st;
	double wa, mibps;
	u64 wr_service_p50, wr_service_p99, wr_lat_p50, wr_lat_p99;
	u64 rd_service_p50, rd_service_p99, rd_lat_p50, rd_lat_p99;
};

void ft_replay_init(struct ft_replay *rp);
/* Add a preset (builtin name or file).  0, or -1 with a reason in @err. */
int ft_replay_add(struct ft_replay *rp, const char *name, char *err,
		  size_t errlen);
/* Feed one D event, arrival = its timestamp (clamped to be monotonic). */
void ft_replay_dispatch(struct ft_replay *rp, const struct ft_geom *g,
			const struct ft_event *ev);
void ft_replay_result(const struct ft_replay *rp, int i,
		      struct ft_model_result *res);
void ft_replay_free(struct ft_replay *rp);

/* ---- svg.c: offset-over-time picture of dispatches ---- */

struct ft_svg;

/* Keeps at most FT_SVG_POINTS samples, evenly thinned over the trace. */
#define FT_SVG_POINTS		16384

struct ft_svg *ft_svg_new(void);
void ft_svg_dispatch(struct ft_svg *s, const struct ft_geom *g,
		     const struct ft_event *ev);
/* Write the picture; 0 or -1 (errno set). */
int ft_svg_write(const struct ft_svg *s, const struct ft_stats *st,
		 FILE *out, const char *title);
void ft_svg_free(struct ft_svg *s);
/* Write @s as SVG/XML text, escaping <, > and &. */
void ft_svg_escape(FILE *out, const char *s);

/* ---- trace.c: the whole pipeline for one run ---- */

struct ft_ctx {
	struct ft_parser parser;
	struct ft_stats st;
	struct ft_replay rp;
	struct ft_svg *svg;		/* NULL: no picture */
	int dev_filter;			/* 1: only D events of major:minor */
	unsigned int filter_major, filter_minor;
};

void ft_ctx_init(struct ft_ctx *c, const struct ft_geom *g);
void ft_ctx_free(struct ft_ctx *c);
/* Feed one line (no newline). */
void ft_feed_line(struct ft_ctx *c, const char *line, size_t len);
/* Feed everything readable from @fd, in fixed-size chunks.  0 or -1. */
int ft_feed_fd(struct ft_ctx *c, int fd);

/* Hand one parsed line or decoded record to the counters, replay, picture. */
void ft_feed_event(struct ft_ctx *c, enum ft_line_kind kind,
		   const struct ft_event *ev);

/* ---- blkbin.c: blktrace's binary per-CPU files ---- */

/*
 * struct blk_io_trace of include/uapi/linux/blktrace_api.h, decoded to host
 * order.  On disk it is 48 bytes followed by pdu_len bytes of payload; when
 * the action carries FT_BLK_CGROUP the payload starts with a 64-bit cgroup
 * id.
 */
#define FT_BLK_MAGIC		0x65617400u
#define FT_BLK_VERSION		0x07u
#define FT_BLK_HDR_SIZE		48
#define FT_BLK_TC_SHIFT		16
#define FT_BLK_TC(bit)		BIT((bit) + FT_BLK_TC_SHIFT)
#define FT_BLK_TC_READ		FT_BLK_TC(0)
#define FT_BLK_TC_WRITE		FT_BLK_TC(1)
#define FT_BLK_TC_FLUSH		FT_BLK_TC(2)
#define FT_BLK_TC_SYNC		FT_BLK_TC(3)
#define FT_BLK_TC_QUEUE		FT_BLK_TC(4)
#define FT_BLK_TC_REQUEUE	FT_BLK_TC(5)
#define FT_BLK_TC_ISSUE		FT_BLK_TC(6)
#define FT_BLK_TC_COMPLETE	FT_BLK_TC(7)
#define FT_BLK_TC_FS		FT_BLK_TC(8)
#define FT_BLK_TC_PC		FT_BLK_TC(9)
#define FT_BLK_TC_NOTIFY	FT_BLK_TC(10)
#define FT_BLK_TC_AHEAD		FT_BLK_TC(11)
#define FT_BLK_TC_META		FT_BLK_TC(12)
#define FT_BLK_TC_DISCARD	FT_BLK_TC(13)
#define FT_BLK_TC_DRV_DATA	FT_BLK_TC(14)
#define FT_BLK_TC_FUA		FT_BLK_TC(15)
#define FT_BLK_CGROUP		BIT(8)	/* __BLK_TA_CGROUP, __BLK_TN_CGROUP */
#define FT_BLK_TA_ISSUE		7	/* __BLK_TA_ISSUE */
#define FT_BLK_TN_PROCESS	0
#define FT_BLK_TN_TIMESTAMP	1
#define FT_BLK_TN_MESSAGE	2

struct ft_blk_hdr {
	u32 magic, sequence;
	u64 time, sector;
	u32 bytes, action, pid, device, cpu;
	u16 error, pdu_len;
};

enum ft_blk_kind {
	FT_BLK_EVENT,		/* an action; ev->action, "D" for issue */
	FT_BLK_MESSAGE,		/* BLK_TN_MESSAGE; ev->msg into the payload */
	FT_BLK_NOTE,		/* process / timestamp / unknown note: skip */
};

/*
 * Decode a 48-byte header.  *swap: -1 unknown (set from the magic), 0
 * native, 1 byte-swapped.  0, or -1 when magic or version are wrong.
 */
int ft_blk_hdr_decode(const unsigned char *buf, int *swap,
		      struct ft_blk_hdr *h);
/* blkparse's RWBS letters for an action: "FWFS", "R", "FN"; returns len. */
size_t ft_blk_rwbs(u32 action, u32 bytes, char *buf);
/*
 * One record to an event ("D" with RWBS, sector and sectors as blkparse
 * prints them; other actions by their blkparse letter) or a message.
 * @pdu: h->pdu_len bytes.  ev->time_ns is h->time; the caller rebases it.
 */
enum ft_blk_kind ft_blk_decode(const struct ft_blk_hdr *h,
			       const unsigned char *pdu, struct ft_event *ev);
/*
 * Merge the per-CPU streams @fds (any order) by timestamp, k-way, and feed
 * them; times are relative to the earliest record that is not a process or
 * timestamp note, as blkparse prints them.
 * Memory: one fixed buffer per stream.  0, or -1 on a read error (errno).
 */
int ft_feed_blktrace_fds(struct ft_ctx *c, const int *fds, int n);
/*
 * Feed BASE.blktrace.0, .1, ... (all that exist).  0, or -1 with a reason
 * in @err (no such files, open or read error).
 */
int ft_feed_blktrace(struct ft_ctx *c, const char *base, char *err,
		     size_t errlen);
/*
 * Does @arg name a binary trace: "BASE.blktrace.N", or BASE when
 * BASE.blktrace.0 exists?  1 with BASE in @base, else 0.
 */
int ft_blktrace_base(const char *arg, char *base, size_t len);

/* ---- report.c / json.c: output ---- */

void ft_report_text(const struct ft_ctx *c, FILE *out);
void ft_report_json(const struct ft_ctx *c, FILE *out);
/* JSON string with quotes and escapes. */
void ft_json_string(FILE *out, const char *s);

/* ---- jsonread.c: a small JSON reader for compare mode ---- */

enum ft_jtype { FT_J_NULL, FT_J_BOOL, FT_J_NUM, FT_J_STR, FT_J_ARR, FT_J_OBJ };

struct ft_jval {
	enum ft_jtype type;
	double num;		/* FT_J_NUM, FT_J_BOOL */
	char *str;		/* FT_J_STR; key of an object member */
	char *key;
	struct ft_jval *child;	/* first element / member */
	struct ft_jval *next;	/* next sibling */
};

/* Parse a whole document.  NULL with a reason in @err. */
struct ft_jval *ft_json_parse(const char *text, char *err, size_t errlen);
void ft_json_free(struct ft_jval *v);
/* Member @key of object @v, or NULL. */
const struct ft_jval *ft_json_get(const struct ft_jval *v, const char *key);
/* Follow a dotted path "writes.switches"; NULL if any step is missing. */
const struct ft_jval *ft_json_path(const struct ft_jval *v, const char *path);
/* Number at @path or NaN. */
double ft_json_num(const struct ft_jval *v, const char *path);

/* ---- compare.c ---- */

/* argv: NAME=FILE.json or FILE.json ...  Returns the exit status. */
int ft_compare_main(int argc, char **argv);

#endif /* FLASHTRACE_H */
