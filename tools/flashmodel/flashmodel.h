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
};

/* Builtin presets: "sd-c10", "usb-8g", "emmc-toshiba", "emmc-sandisk". */
const char *const *fm_preset_names(void);		/* NULL-terminated */
int fm_preset_builtin(const char *name, struct fm_params *p);	/* 0 or -1 */
/*
 * Load a key=value preset file ('#' comments; "base = NAME" starts from a
 * builtin; sizes take K/M/G suffixes, times ns/us/ms/s, bandwidths
 * B/s K/s M/s).  On error returns -1 and writes "FILE:LINE: reason" to err.
 */
int fm_preset_load(const char *path, struct fm_params *p, char *err, size_t errlen);
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
/*
 * Service-time or latency percentile (0 < q <= 1) over requests of @op
 * (FM_READ or FM_WRITE), in ns.  Latency = completion - arrival.
 */
uint64_t fm_service_percentile(const struct fm_model *m, enum fm_op op, double q);
uint64_t fm_latency_percentile(const struct fm_model *m, enum fm_op op, double q);

#endif /* FLASHMODEL_H */
