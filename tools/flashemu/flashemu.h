/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flashemu: an emulated cheap flash card (SD, eMMC, USB stick) served as a
 * ublk block device.  Data lives in sparse RAM; every request completes at
 * the time the flashmodel cost model says, one request at a time in arrival
 * order, like an SD/eMMC host controller.
 *
 * The pieces:
 *   store.c  sparse RAM store (64 KiB chunks, allocated on first write)
 *   sched.c  the device clock (single server, FIFO, time dilation)
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

/* ------------------------------------------------------------------ clock */

/*
 * The device clock.  Wall time is CLOCK_MONOTONIC in ns; model time is what
 * flashmodel sees.  model = (wall - t0) / dilate, so a dilation of 10 makes
 * every modelled service time last ten times longer on the wall.
 *
 * The device is a single server in FIFO order: a request that arrives at
 * wall time A while the device is busy until F starts at max(A, F) and
 * completes service * dilate later.  Completion times are therefore
 * non-decreasing in arrival order.
 */
struct emu_clock {
	uint64_t t0;			/* wall time of model time 0 */
	double dilate;			/* > 0 */
	uint64_t model_arrival;		/* last model arrival handed out */
	uint64_t model_done;		/* last model completion seen */
	uint64_t dev_free;		/* wall: device idle from here on */
};

void clock_init(struct emu_clock *c, uint64_t t0, double dilate);
/* Model time of wall time @wall; non-decreasing across calls. */
uint64_t clock_model_arrival(struct emu_clock *c, uint64_t wall);
/*
 * The model said a request that arrived at model time @arrival completes at
 * @done (its clock: max(arrival, model device free) + service).  Returns the
 * service time it implies and remembers @done.
 */
uint64_t clock_model_service(struct emu_clock *c, uint64_t arrival,
			     uint64_t done);
/*
 * Book @service_ns of model time for a request arriving at wall time @wall;
 * returns the wall time it completes.
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

/* Everything the queue thread owns.  main.c fills the config part. */
struct emu {
	/* configuration */
	const struct fm_params *fp;
	struct fm_model *model;
	uint64_t size;
	unsigned int depth;
	unsigned int max_io;
	double dilate;
	int cdev_fd;			/* /dev/ublkcN, opened by main */
	const struct ublksrv_io_desc *iod;	/* mmapped descriptors */
	FILE *log;			/* arrival log or NULL */
	const char *stats_path;		/* or NULL */
	int dev_id;
	const char *preset;
	int stats_efd;			/* eventfd: write 1 to request stats */

	/* state, owned by the queue thread */
	struct emu_store store;
	struct emu_clock clock;
	uint8_t **buf;			/* per-tag io buffer */
	struct emu_req *req;		/* per-tag request in service */
	unsigned int *fifo;		/* tags in arrival order */
	unsigned int fifo_head, fifo_len;
	int timer_armed;
	unsigned int nr_live;		/* tags whose command the driver holds */
	uint64_t seq;

	/* results */
	uint64_t nr_ops[EMU_NR_OPS], bytes_ops[EMU_NR_OPS], nr_fua;
	uint64_t nr_errors;
	uint64_t max_occupancy, occupancy_sum;
	uint64_t occupancy_hist[65];	/* [min(occupancy, 64)] at arrival */
	uint64_t late_max, late_sum, late_over_1ms;
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

uint64_t now_ns(void);

#endif /* FLASHEMU_H */
