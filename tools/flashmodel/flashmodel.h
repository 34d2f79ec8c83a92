/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flashmodel: a deterministic cost model of a cheap flash translation layer
 * (SD cards, eMMC, USB sticks), after the open-AU behaviour measured with
 * flashbench.  Requests are fed in the order the device receives them; the
 * model says what the card programs, copies and erases, and how long it is
 * busy.  README.md beside this file describes the model and its presets.
 *
 * Units: bytes and nanoseconds throughout.  The model is a single server in
 * FIFO order (SD, eMMC and usb-storage serve one data command at a time).
 */
#ifndef FLASHMODEL_H
#define FLASHMODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Card description.  Every field is set by a builtin or file preset. */
struct fm_params {
	char name[32];
	uint64_t au_size;		/* allocation unit (erase block), any multiple of unit */
	uint32_t unit;			/* write unit (page group) */
	uint32_t open_aus;		/* AUs that can be open for writing at once */
	uint32_t random_aus;		/* of those, how many may be in random mode */
	int random_ok;			/* 0: a backward write inside an open AU closes it */
	uint32_t fat_aus;		/* first AUs page-mapped: never closed, no copies */
	uint64_t write_overhead_ns;	/* per write command */
	uint64_t write_bw;		/* program bandwidth, bytes per second */
	uint64_t rmw_ns;		/* extra when a write's start or end is not unit aligned */
	uint64_t read_overhead_ns;
	uint64_t read_bw;
	uint64_t erase_ns;
	uint64_t merge_ns;		/* fixed cost of closing an AU that needs a copy */
	uint64_t copy_bw;		/* bytes per second copied when closing */
	uint64_t flush_ns, fua_ns, discard_ns;
	uint32_t buffer_a_size;		/* 0: no buffer A; else largest write it takes */
	uint32_t buffer_a_entries;
	int aged;			/* 1: every unit holds data initially */
	uint64_t capacity;		/* bytes; 0 = unbounded */
	/* Added after the first API freeze: */
	uint64_t max_transfer;		/* host splits larger requests; 0 = no limit */
	/*
	 * A write of at most cross_max bytes that starts inside a
	 * cross_size-aligned block and ends in a later one costs cross_ns
	 * more (Toshiba eMMC: ~115 ms for 8K/16K writes across an 8 KiB
	 * boundary, ~3 ms once split there).  cross_size 0: no such cost.
	 */
	uint64_t cross_ns;
	uint32_t cross_size;
	uint32_t cross_max;
	/*
	 * Commands the host's driver keeps on the card at once: usb-storage
	 * 1 (can_queue), MMC without command queueing 2 (one on the card, one
	 * prepared).  Not used by the model: flashemu --queue-depth host
	 * advertises this many tags.  0 = not given.
	 */
	uint32_t host_depth;
	/* FM_ASSUMED(FM_K_...) bits: values no measurement supports. */
	uint64_t assumed;
};

/*
 * The model parameters a preset file sets, in the order flashmodel prints
 * them; FM_ASSUMED(id) is the bit of fm_params.assumed for that key.
 * name and capacity are labels, not model parameters: never assumed.
 */
enum fm_key_id {
	FM_K_AU_SIZE, FM_K_UNIT, FM_K_OPEN_AUS, FM_K_RANDOM_AUS, FM_K_RANDOM_OK,
	FM_K_FAT_AUS, FM_K_WRITE_OVERHEAD, FM_K_WRITE_BW, FM_K_RMW,
	FM_K_CROSS, FM_K_CROSS_SIZE, FM_K_CROSS_MAX,
	FM_K_READ_OVERHEAD, FM_K_READ_BW, FM_K_ERASE, FM_K_MERGE, FM_K_COPY_BW,
	FM_K_FLUSH, FM_K_FUA, FM_K_DISCARD, FM_K_BUFFER_A_SIZE,
	FM_K_BUFFER_A_ENTRIES, FM_K_AGED, FM_K_MAX_TRANSFER, FM_K_HOST_DEPTH,
	FM_K_COUNT
};

#define FM_ASSUMED(id)	(1ull << (id))

/* Preset-file key of @id ("au_size", "write_overhead", ...), NULL if none. */
const char *fm_key_name(int id);
/*
 * Set one key from its preset-file text ("write_overhead", "1.6ms").
 * Returns the key id (-1 for name and capacity), or -2 with a reason in
 * @err.  The assumed bit is left alone.
 */
int fm_param_set(struct fm_params *p, const char *key, const char *value,
		 char *err, size_t errlen);
/* Copy the value of key @id from @src to @dst (not its assumed bit). */
void fm_param_copy(struct fm_params *dst, const struct fm_params *src, int id);
/* Key id of a preset-file key (struct field names too), -1 if unknown. */
int fm_key_id(const char *key);

/*
 * Write @p in preset file format: "name = ..." then one "key = value" line
 * per key of enum fm_key_id, then capacity.  @notes (may be NULL, entries
 * may be NULL) is a comment per key id, printed after the value; a key whose
 * assumed bit is set gets "# assumed" (then ": note" if there is one), which
 * fm_preset_load() reads back as the assumed bit.
 */
void fm_preset_write(FILE *f, const struct fm_params *p,
		     const char *const notes[FM_K_COUNT]);

/* Builtin presets: "sd-c10", "usb-8g", "emmc-toshiba", "emmc-sandisk". */
const char *const *fm_preset_names(void);		/* NULL-terminated */
int fm_preset_builtin(const char *name, struct fm_params *p);	/* 0 or -1 */
/*
 * Load a key=value preset file ('#' comments; "base = NAME" starts from a
 * builtin; sizes take K/M/G suffixes, times ns/us/ms/s, bandwidths
 * B/s K/s M/s).  On error returns -1 and writes "FILE:LINE: reason" to err.
 * A comment starting with "assumed" after a value ("erase = 2ms # assumed")
 * sets that key's assumed bit; a key set without it clears the bit; a key
 * the file does not set keeps the base's value and bit (no base: 0, and
 * assumed).
 */
int fm_preset_load(const char *path, struct fm_params *p, char *err, size_t errlen);
/* Strip leading and trailing white space of @s in place; returns the start. */
char *fm_trim(char *s);
/* Resolve NAME as a builtin, else as a file path.  Same error contract. */
int fm_preset_get(const char *name_or_path, struct fm_params *p, char *err, size_t errlen);

enum fm_op { FM_READ, FM_WRITE, FM_FLUSH, FM_DISCARD };
#define FM_FUA		1u	/* write with forced unit access */
#define FM_PREFLUSH	2u	/* flush before the request */

struct fm_model;

struct fm_model *fm_new(const struct fm_params *p);
void fm_free(struct fm_model *m);

/*
 * Feed one request that reaches the device at @arrival_ns (non-decreasing
 * across calls; pass 0 for all to measure busy time only).  Returns its
 * completion time on the model clock: max(arrival, device free) + service.
 */
uint64_t fm_submit(struct fm_model *m, uint64_t arrival_ns, enum fm_op op,
		   uint64_t offset, uint64_t len, unsigned int flags);

#define FM_HIST_BUCKETS 32	/* bucket i: service time in [2^i, 2^(i+1)) us */

struct fm_stats {
	uint64_t reads, writes, flushes, discards;	/* requests */
	uint64_t read_bytes, host_write_bytes;
	uint64_t programmed_bytes;	/* units programmed for host writes */
	uint64_t copied_bytes;		/* copied when closing AUs */
	uint64_t erases;
	uint64_t switch_merges;		/* AU closed for free: fully, linearly written */
	uint64_t full_merges;		/* AU closed with a copy */
	uint64_t pending_aus;		/* open slots at the end that would need a copy */
	uint64_t pending_copy_bytes;	/* and what they would copy */
	uint64_t busy_ns;		/* total service time */
	uint64_t last_completion_ns;
	uint64_t write_service_hist[FM_HIST_BUCKETS];
	uint64_t read_service_hist[FM_HIST_BUCKETS];
};

void fm_get_stats(const struct fm_model *m, struct fm_stats *s);
/* (programmed + copied) / host bytes written; 0 when nothing was written. */
double fm_write_amplification(const struct fm_stats *s);
/* host bytes written / busy time, in MiB/s; 0 when idle. */
double fm_write_mibps(const struct fm_stats *s);
/* The same in MB/s (10^6 bytes/s, as flashbench prints rates). */
double fm_write_mbps(const struct fm_stats *s);
/*
 * Service-time or latency percentile (0 < q <= 1) over requests of @op
 * (FM_READ or FM_WRITE), in ns.  Latency = completion - arrival.
 */
uint64_t fm_service_percentile(const struct fm_model *m, enum fm_op op, double q);
uint64_t fm_latency_percentile(const struct fm_model *m, enum fm_op op, double q);

/* Additions after the first API freeze. */

/*
 * Check a parameter set: 0 if the model can use it, else -1 with a reason
 * in @err (e.g. "au_size 3M is not a multiple of unit 16K").
 */
int fm_params_check(const struct fm_params *p, char *err, size_t errlen);

/* The parameters a model runs with (random_aus is 0 unless random_ok). */
const struct fm_params *fm_model_params(const struct fm_model *m);

/*
 * flashbench's --open-au pattern (openau.c).  One row per block size, from
 * @erasesize down to @block by halving; each row writes @total bytes
 * (default @aus * @erasesize) into the same @aus regions of @erasesize bytes,
 * the first at @offset (default 16 MiB rounded up to @erasesize), spaced
 * @stride apart (default 12 * @erasesize, so a mis-guessed erase size still
 * puts each region into its own AU).  Block positions are visited in order,
 * or in one fixed-seed random order with @random; within a position the
 * regions are visited round robin.  The model keeps its state from row to
 * row, as the card does.
 */
struct fm_openau {
	uint64_t erasesize;	/* 0: the card's au_size */
	uint64_t block;		/* last (smallest) row; 0: only the first row */
	uint32_t aus;
	int random;
	uint64_t total;		/* bytes per row; 0: aus * erasesize */
	uint64_t offset;	/* 0 or UINT64_MAX: default */
	uint64_t stride;	/* 0: default */
};

struct fm_openau_row {
	uint64_t block;		/* block size of this row */
	uint64_t bytes;		/* written in this row */
	uint64_t ns;		/* modelled busy time of this row */
	double mbps;		/* bytes / ns * 1000: MB/s with MB = 10^6, as flashbench */
};

/*
 * Run the pattern on @m, filling up to @max rows.  Returns the number of
 * rows, or -1 if @o is invalid (zero aus, block not dividing erasesize, ...).
 */
int fm_openau_run(struct fm_model *m, const struct fm_openau *o,
		  struct fm_openau_row *rows, int max);

#endif /* FLASHMODEL_H */
