/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flashemu: an emulated cheap flash card (SD, eMMC, USB stick) served as a
 * ublk block device.  Data lives in sparse RAM; every request completes at
 * the time the flashmodel cost model says, one request at a time in arrival
 * order, like an SD/eMMC host controller.
 *
 * The pieces:
 *   store.c  sparse RAM store (64 KiB chunks, allocated on first write)
 *   cache.c  the card: durable flash (a store) under a volatile write cache
 *   power.c  power cuts: what of the cache reaches the flash, torn writes
 *   image.c  raw image files: load the flash at start, save it at a cut
 *   io.c     one request's effect on the card
 *   sched.c  the device clock (channels, time dilation)
 *   ublk.c   ublk control commands and the io_uring command plumbing
 *   emu.c    the queue thread: arrival, modelled service, commit, log, stats
 *   main.c   command line, device lifecycle, signals
 */
#ifndef FLASHEMU_H
#define FLASHEMU_H

#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <linux/ublk_cmd.h>

/* ------------------------------------------------------------------ store */

#define STORE_CHUNK_SHIFT	16
#define STORE_CHUNK		(1u << STORE_CHUNK_SHIFT)

/*
 * A byte array of @size bytes that reads as zeroes until written.  Memory is
 * held per 64 KiB chunk: a chunk is allocated by the first write that stores
 * a non-zero byte in it and freed when a discard/zero covers it entirely.
 * Not thread safe: one thread owns a store.
 */
struct emu_store {
	uint64_t size;
	uint64_t nr_chunks;
	uint8_t **chunk;		/* nr_chunks pointers, NULL = all zero */
	uint64_t allocated;		/* chunks currently holding memory */
	uint64_t peak_allocated;
};

/* 0, or -ENOMEM. */
int store_init(struct emu_store *s, uint64_t size);
void store_free(struct emu_store *s);
/*
 * Range operations: 0 on success; -EINVAL if [off, off + len) is not inside
 * the store; -ENOMEM if a chunk could not be allocated (the chunks before it
 * were written).
 */
int store_read(const struct emu_store *s, uint64_t off, void *buf, uint64_t len);
int store_write(struct emu_store *s, uint64_t off, const void *buf, uint64_t len);
/* Discard and write-zeroes: afterwards the range reads as zeroes. */
int store_zero(struct emu_store *s, uint64_t off, uint64_t len);

/* ------------------------------------------------------------------ cache */

#define CACHE_SECTOR		512u
#define CACHE_SLOTS		(STORE_CHUNK / CACHE_SECTOR)
#define CACHE_LIMIT_DEFAULT	(256ull << 20)

/* One acknowledged write (or discard / write-zeroes) the cache holds. */
struct cache_ent {
	uint64_t off, len;		/* bytes, multiples of CACHE_SECTOR */
	uint8_t *data;			/* len bytes; NULL: the range reads zero */
	int durable;			/* FUA: reaches the flash even at a cut */
};

/*
 * The card's data in two layers: @durable is what the flash holds; the
 * overlay is every acknowledged write since the last flush, in completion
 * (= arrival) order, each with its own copy of the data.  Reads see the
 * newest data: the overlay over the durable layer.  A flush applies the
 * overlay to the durable layer in order and empties it.  At a power cut
 * (power.c) the overlay entries that survive are applied the same way
 * (cache_apply) and the rest is forgotten (cache_drop).
 *
 * @enabled = 0 makes the cache write-through: every write goes straight to
 * the durable layer and the overlay stays empty.
 *
 * A FUA write that overlaps no overlay entry also goes straight to the
 * durable layer (there is nothing older to keep in order with); one that
 * does is appended with durable = 1.
 *
 * Memory: the overlay's data, index and entry table are counted in @mem;
 * when appending would take it over @limit, the whole overlay is written
 * back first (as a flush would; counted in @writebacks).  So data becomes
 * durable earlier than asked, never later.
 *
 * Offsets and lengths must be multiples of CACHE_SECTOR.  Not thread safe.
 */
struct emu_cache {
	struct emu_store durable;
	int enabled;
	uint64_t limit;			/* bytes of overlay memory, see above */
	struct cache_ent *ent;		/* the overlay, oldest first */
	uint64_t nr, cap;
	/*
	 * Per store chunk, NULL or CACHE_SLOTS slots: 1 + the index in @ent of
	 * the newest entry covering that sector, 0 = read the durable layer.
	 * @touched lists the chunks with slots, to free them at a flush.
	 */
	uint32_t **slot;
	uint64_t *touched;
	uint64_t nr_touched, cap_touched;
	uint64_t mem, peak_mem;
	/* counters */
	uint64_t flushed;		/* entries a flush made durable */
	uint64_t writebacks;		/* flushes forced by @limit */
	uint64_t fua_direct;		/* FUA writes that bypassed the overlay */
};

/* 0 or -ENOMEM.  @limit is CACHE_LIMIT_DEFAULT; set it after, if wanted. */
int cache_init(struct emu_cache *c, uint64_t size, int enabled);
void cache_free(struct emu_cache *c);
/*
 * Range operations: 0 on success; -EINVAL if the range is outside the card
 * or not sector aligned; -ENOMEM (nothing changed, or for cache_flush: the
 * overlay is kept whole, so a retry is exact).
 */
int cache_read(const struct emu_cache *c, uint64_t off, void *buf,
	       uint64_t len);
int cache_write(struct emu_cache *c, uint64_t off, const void *buf,
		uint64_t len, int fua);
/* Discard and write-zeroes: cached like writes of zeroes. */
int cache_zero(struct emu_cache *c, uint64_t off, uint64_t len, int fua);
/* Make every entry durable, in order; the overlay is then empty. */
int cache_flush(struct emu_cache *c);
/* Apply the first @len bytes of entry @i to the durable layer. */
int cache_apply(struct emu_cache *c, uint64_t i, uint64_t len);
/* Forget the overlay (what was not applied is lost). */
void cache_drop(struct emu_cache *c);

/* ------------------------------------------------------------------ power */

/*
 * Power cuts.  Until the cut the card serves requests; the cut happens when
 * request number @cut_after (1 = the first) arrives, or when the server is
 * told to (SIGUSR2).  At the cut (power_cut):
 *  - FUA entries of the overlay reach the flash;
 *  - with @tear, the newest entry that is not FUA was being programmed: a
 *    prefix of it lands, cut at a @page boundary of the card (or at its
 *    own end), chosen uniformly among those points, none and all included;
 *  - every other entry reaches the flash with probability @survive,
 *    independently;
 *  - what lands is applied in arrival order; the overlay is then dropped.
 * The choices come from a PRNG seeded with the seed, so a run repeats.
 * After the cut @off is set: every request fails (io.c).
 */
struct emu_power {
	uint64_t seed;
	uint64_t rng;			/* PRNG state */
	uint64_t cut_after;		/* 0: only on request */
	double survive;			/* 0..1 */
	int tear;
	uint32_t page;			/* bytes, > 0 */
	int off;			/* the cut happened */
	/* what the cut did */
	uint64_t cut_at;		/* requests that arrived before it */
	uint64_t cached;		/* overlay entries at the cut */
	uint64_t fua;			/* of those, FUA: landed */
	uint64_t survived, dropped;	/* the others, except the torn one */
	int torn;			/* 1: an entry was torn */
	uint64_t torn_len, torn_kept;	/* its length, bytes that landed */
};

/* Defaults: seed @seed, no cut_after, survive 1/2, tear, 4 KiB pages. */
void power_init(struct emu_power *p, uint64_t seed);
/* 1 if request @seq (0-based, arrival order) is the one cut_after names. */
int power_due(const struct emu_power *p, uint64_t seq);
/*
 * Cut the power over @c as described above.  0, or -ENOMEM from the store
 * (the durable layer then holds part of what should have landed).
 */
int power_cut(struct emu_power *p, struct emu_cache *c);
/* One line: what the cut kept, tore and dropped. */
void power_print(const struct emu_power *p, FILE *f);

/* ------------------------------------------------------------------ image */

/*
 * Raw image files of a store (byte i of the file = byte i of the card).
 * image_load: 0 (the store now holds the file), -ENOENT (no such file),
 * -EINVAL (its size is not the store's), or -errno.
 * image_save: writes a sparse file (unwritten chunks are holes) beside
 * @path, syncs it and renames it over @path: readers see the old image or
 * the new one.  0 or -errno.
 */
int image_load(struct emu_store *s, const char *path);
int image_save(const struct emu_store *s, const char *path);

/* ------------------------------------------------------------------ clock */

#define EMU_MAX_CHANNELS	64

/*
 * The device clock.  Wall time is CLOCK_MONOTONIC in ns; model time is what
 * flashmodel sees.  model = (wall - t0) / dilate, so a dilation of 10 makes
 * every modelled service time last ten times longer on the wall.
 *
 * The device has @channels servers (1: an SD card or eMMC without command
 * queueing).  Requests are booked in arrival order, each on the channel
 * that is free first (the lowest numbered one on a tie): a request that
 * arrives at wall time A starts at max(A, that channel's free time) and
 * completes service * dilate later.  Start times are therefore
 * non-decreasing in arrival order; with one channel completion times are
 * too (FIFO), with several a short request may complete before a long one
 * that arrived earlier.
 *
 * Accounting: @chan_busy is the wall time booked on each channel;
 * @max_conc the most requests in service at once (not waiting), measured
 * at each start, which is where the count can grow.
 */
struct emu_clock {
	uint64_t t0;			/* wall time of model time 0 */
	double dilate;			/* > 0 */
	uint64_t model_arrival;		/* last model arrival handed out */
	uint64_t model_done;		/* last model completion seen */
	unsigned int channels;		/* 1 .. EMU_MAX_CHANNELS */
	uint64_t chan_free[EMU_MAX_CHANNELS];	/* wall: idle from here on */
	uint64_t chan_busy[EMU_MAX_CHANNELS];	/* wall ns booked */
	unsigned int max_conc;
};

/* One channel (today's single FIFO server). */
void clock_init(struct emu_clock *c, uint64_t t0, double dilate);
/* @channels servers, clamped to 1 .. EMU_MAX_CHANNELS. */
void clock_init_channels(struct emu_clock *c, uint64_t t0, double dilate,
			 unsigned int channels);
/* Model time of wall time @wall; non-decreasing across calls. */
uint64_t clock_model_arrival(struct emu_clock *c, uint64_t wall);
/*
 * The model said a request that arrived at model time @arrival completes at
 * @done (its clock: max(arrival, model device free) + service).  Returns the
 * service time it implies and remembers @done.  The model is one FIFO
 * server whatever the channels: this recovers what it charges for the
 * request itself, not the wait behind the ones before it.
 */
uint64_t clock_model_service(struct emu_clock *c, uint64_t arrival,
			     uint64_t done);
/*
 * Book @service_ns of model time for a request arriving at wall time @wall
 * (non-decreasing across calls); returns the wall time it completes.
 */
uint64_t clock_book(struct emu_clock *c, uint64_t wall, uint64_t service_ns);

/* ------------------------------------------------------------------- ublk */

/* One ublk device as seen from the control side. */
struct ublk_ctrl {
	int ctrl_fd;			/* /dev/ublk-control */
	void *ring;			/* struct io_uring *, SQE128 */
	struct ublksrv_ctrl_dev_info info;
	struct ublk_params params;
};

int ublk_ctrl_open(struct ublk_ctrl *c);
void ublk_ctrl_close(struct ublk_ctrl *c);
/* Control commands; each returns 0 or a negative errno. */
int ublk_add_dev(struct ublk_ctrl *c, int dev_id, unsigned int depth,
		 unsigned int max_io, uint64_t flags);
int ublk_set_params(struct ublk_ctrl *c);
int ublk_start_dev(struct ublk_ctrl *c, int pid);
int ublk_stop_dev(struct ublk_ctrl *c);
int ublk_del_dev(struct ublk_ctrl *c, int dev_id);
int ublk_get_dev_info(struct ublk_ctrl *c, int dev_id,
		      struct ublksrv_ctrl_dev_info *info);

/* Prepare FETCH / COMMIT_AND_FETCH for @tag of queue 0 in a 128-byte SQE. */
struct io_uring_sqe;
void ublk_prep_io_cmd(struct io_uring_sqe *sqe, int cdev_fd, unsigned int op,
		      unsigned int tag, int result, void *buf);
/* Size of the mmap of queue 0's io descriptors for @depth tags. */
size_t ublk_iod_map_size(unsigned int depth);

/* -------------------------------------------------------------------- emu */

struct fm_model;
struct fm_params;

enum emu_op { EMU_R, EMU_W, EMU_F, EMU_D, EMU_Z, EMU_NR_OPS };

/* One request, as decoded at its arrival. */
struct emu_req {
	uint64_t seq;
	uint64_t arrival;		/* wall ns */
	uint64_t done;			/* wall ns the model completes it */
	uint64_t off, len;		/* bytes */
	uint8_t op;			/* enum emu_op, or EMU_NR_OPS: unsupported */
	uint8_t fua;
};

/*
 * Serve @r on the card: move its data between @buf and @c.  Returns the
 * ublk result: bytes moved for reads and writes, 0, or -errno: -EIO once
 * the power is off, for bad lengths (not in 1..@max_io) or ranges;
 * -EOPNOTSUPP for an unsupported op; -ENOMEM.
 */
int io_serve(struct emu_cache *c, const struct emu_power *p,
	     const struct emu_req *r, void *buf, unsigned int max_io);

/* Everything the queue thread owns.  main.c fills the config part. */
struct emu {
	/* configuration */
	const struct fm_params *fp;
	struct fm_model *model;
	uint64_t size;
	unsigned int depth;
	unsigned int max_io;
	double dilate;
	unsigned int channels;		/* requests served at once, >= 1 */
	int cdev_fd;			/* /dev/ublkcN, opened by main */
	const struct ublksrv_io_desc *iod;	/* mmapped descriptors */
	FILE *log;			/* arrival log or NULL */
	const char *stats_path;		/* or NULL */
	int dev_id;
	const char *preset;
	int stats_efd;			/* eventfd: write 1 to request stats */
	int cut_efd;			/* eventfd: write 1 to cut the power */
	int volatile_cache;		/* keep an overlay (see cache.c) */
	const char *image_path;		/* saved at the cut, or NULL */

	/* state, owned by the queue thread */
	struct emu_cache cache;
	struct emu_power power;		/* main sets its configuration */
	struct emu_clock clock;
	uint8_t **buf;			/* per-tag io buffer */
	struct emu_req *req;		/* per-tag request in service */
	/*
	 * Tags in the server (waiting or in service), in arrival order:
	 * fifo[0 .. fifo_len).  With one channel they complete in this order;
	 * with several, the earliest completion time (then the oldest) goes
	 * first, from anywhere in the list.
	 */
	unsigned int *fifo;
	unsigned int fifo_len;
	uint64_t timer_at;		/* wall time of the earliest armed timeout, 0: none */
	unsigned int nr_live;		/* tags whose command the driver holds */
	uint64_t seq;

	/* results */
	uint64_t nr_ops[EMU_NR_OPS], bytes_ops[EMU_NR_OPS], nr_fua;
	uint64_t nr_errors;
	uint64_t max_occupancy, occupancy_sum;
	uint64_t occupancy_hist[65];	/* [min(occupancy, 64)] at arrival */
	uint64_t late_max, late_sum, late_over_1ms;
	uint64_t reordered;		/* completed before an earlier arrival */
	uint64_t t_first, t_last;	/* wall of first arrival, last commit */
	uint64_t busy_since;		/* wall: the FIFO became non-empty */
	uint64_t busy_wall;		/* wall time the FIFO was non-empty */
	int ready_fd;			/* eventfd: fetches are queued */
	int err;			/* why the thread failed, or 0 */
};

/* Allocate the queue thread's state: 0 or -errno. */
int emu_init(struct emu *e);
void emu_fini(struct emu *e);
/*
 * pthread body: queue FETCHes, signal ready_fd, serve until the driver
 * aborts every tag (device stopped or deleted).
 */
void *emu_thread(void *arg);
/*
 * Write the JSON stats file; the caller must own the state (the queue
 * thread itself, or anyone after it stopped).
 */
int emu_write_stats(struct emu *e, const char *path);
/*
 * Cut the power now (once): power_cut, fail every request in the server,
 * report, save the image and the stats.  @arrived: requests received
 * before the cut.  The caller must own the state, as for emu_write_stats.
 */
void emu_cut(struct emu *e, uint64_t now, uint64_t arrived);

uint64_t now_ns(void);

#endif /* FLASHEMU_H */
