/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash I/O scheduler: what differs between the kernels it builds for
 * (6.1 to 7.3).  Kbuild probes the target's headers, never its version
 * (some of these changes reached stable point releases), and defines
 *  FLASH_HAVE_INSERT_T        insert_requests() takes blk_insert_t flags
 *  FLASH_HAVE_LIMITS_UPDATE   queue_limits_start_update() and
 *                             queue_limits_commit_update_frozen() exist
 *  FLASH_HAVE_REQ_ATOMIC      REQ_ATOMIC exists
 *  FLASH_HAVE_ATOMIC_WRITES   queue limits have an atomic-write boundary
 *  FLASH_HAVE_INIT_SCHED_EQ   init_sched() is given the elevator_queue the
 *                             core allocated (elevator_alloc() unexported)
 *  FLASH_HAVE_DEPTH_UPDATED_Q depth_updated() takes the request_queue
 *  FLASH_HAVE_HRTIMER_SETUP   hrtimer_setup() (hrtimer_init() is gone)
 *  FLASH_HAVE_BIO_ISSUE_INIT  blkcg_bio_issue_init() exists
 *  FLASH_HAVE_Q_ASYNC_DEPTH   the queue has its own async_depth
 *  FLASH_HAVE_WBT_FLAG        the elevator flag that keeps write-back
 *                             throttling off, and wbt_*_default(disk)
 *  FLASH_HAVE_WBT_QFLAG       the same as a queue flag (7.x)
 */
#ifndef FLASH_COMPAT_H
#define FLASH_COMPAT_H

#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/hrtimer.h>

/* The last argument of insert_requests() */
#ifdef FLASH_HAVE_INSERT_T
#define flash_insert_t			blk_insert_t
#define flash_insert_at_head(flags)	((flags) & BLK_MQ_INSERT_AT_HEAD)
#else
#define flash_insert_t			bool
#define flash_insert_at_head(at_head)	(at_head)
#endif

/* Writes the scheduler must not split. */
#ifdef FLASH_HAVE_REQ_ATOMIC
#define FLASH_REQ_NOSPLIT	(REQ_NOWAIT | REQ_ATOMIC)
#else
#define FLASH_REQ_NOSPLIT	REQ_NOWAIT
#endif

/*
 * An update of the queue limits: start (6.12: takes q->limits_lock), then
 * commit (6.12: frozen, as the core's own runtime changes) or cancel.
 * 6.1 has no limits lock: a plain store of chunk_sectors, as its own
 * callers do.
 */
#ifdef FLASH_HAVE_LIMITS_UPDATE
static inline struct queue_limits flash_limits_start(struct request_queue *q)
{
	return queue_limits_start_update(q);
}

static inline int flash_limits_commit(struct request_queue *q,
				      struct queue_limits *lim)
{
	return queue_limits_commit_update_frozen(q, lim);
}

static inline void flash_limits_cancel(struct request_queue *q)
{
	queue_limits_cancel_update(q);
}
#else
static inline struct queue_limits flash_limits_start(struct request_queue *q)
{
	return q->limits;
}

static inline int flash_limits_commit(struct request_queue *q,
				      struct queue_limits *lim)
{
	blk_queue_chunk_sectors(q, lim->chunk_sectors);
	return 0;
}

static inline void flash_limits_cancel(struct request_queue *q)
{
}
#endif

/*
 * Write-back throttling off while flash is attached, as bfq does: flash
 * holds and orders writes itself, and WBT's throttling on top of it made
 * write-back 39 % slower (tests/README.md, "WBT").  The flag keeps
 * the core from turning WBT back on while flash is attached; a value the
 * user writes to queue/wbt_lat_usec still wins.  Kernels without the
 * flag (6.1) keep WBT as the core sets it.
 */
#if defined(FLASH_HAVE_WBT_QFLAG) || defined(FLASH_HAVE_WBT_FLAG)
#include "blk-wbt.h"

static inline void flash_wbt_off(struct elevator_queue *eq,
				 struct request_queue *q)
{
#ifdef FLASH_HAVE_WBT_QFLAG
	blk_queue_flag_set(QUEUE_FLAG_DISABLE_WBT_DEF, q);
#else
	set_bit(ELEVATOR_FLAG_DISABLE_WBT, &eq->flags);
#endif
	wbt_disable_default(q->disk);
}

static inline void flash_wbt_restore(struct elevator_queue *eq,
				     struct request_queue *q)
{
#ifdef FLASH_HAVE_WBT_QFLAG
	blk_queue_flag_clear(QUEUE_FLAG_DISABLE_WBT_DEF, q);
#else
	clear_bit(ELEVATOR_FLAG_DISABLE_WBT, &eq->flags);
#endif
	wbt_enable_default(q->disk);
}
#else
static inline void flash_wbt_off(struct elevator_queue *eq,
				 struct request_queue *q)
{
}

static inline void flash_wbt_restore(struct elevator_queue *eq,
				     struct request_queue *q)
{
}
#endif

/* The device's atomic-write boundary in sectors; 0 if it has none. */
static inline unsigned int
flash_atomic_boundary_sectors(const struct queue_limits *lim)
{
#ifdef FLASH_HAVE_ATOMIC_WRITES
	return lim->atomic_write_hw_max ?
	       lim->atomic_write_hw_boundary >> SECTOR_SHIFT : 0;
#else
	return 0;
#endif
}

/* An hrtimer that calls @fn */
static inline void
flash_hrtimer_setup(struct hrtimer *timer,
		    enum hrtimer_restart (*fn)(struct hrtimer *),
		    clockid_t clock, enum hrtimer_mode mode)
{
#ifdef FLASH_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * A bio flash split off starts its cgroup issue time (blk-iolatency).
 * Without blkcg_bio_issue_init() the core stamps it itself when the
 * request is allocated.  Needs blk-cgroup.h.
 */
#ifdef FLASH_HAVE_BIO_ISSUE_INIT
#define flash_bio_issue_init(bio)	blkcg_bio_issue_init(bio)
#else
static inline void flash_bio_issue_init(struct bio *bio)
{
}
#endif

/*
 * The scheduler tags (of @nr_tags) that writes and async reads may take:
 * three quarters.  Where the queue has an async_depth of its own
 * (queue/async_depth, which the core keeps in proportion when nr_requests
 * changes), flash starts it at three quarters of nr_requests and follows it.
 */
#ifdef FLASH_HAVE_Q_ASYNC_DEPTH
static inline void flash_init_async_depth(struct request_queue *q)
{
	q->async_depth = max(1u, 3 * q->nr_requests / 4);
}

static inline unsigned int flash_async_depth(struct request_queue *q,
					     unsigned int nr_tags)
{
	return clamp(READ_ONCE(q->async_depth), 1u, nr_tags);
}
#else
static inline void flash_init_async_depth(struct request_queue *q)
{
}

static inline unsigned int flash_async_depth(struct request_queue *q,
					     unsigned int nr_tags)
{
	return max(1u, 3 * nr_tags / 4);
}
#endif

#endif /* FLASH_COMPAT_H */
