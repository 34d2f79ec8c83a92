/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash I/O scheduler: what differs between the kernels it builds for
 * (6.1 and 6.12).  Kbuild probes the target's headers and defines
 *  FLASH_HAVE_INSERT_T       insert_requests() takes blk_insert_t flags
 *  FLASH_HAVE_LIMITS_UPDATE  queue_limits_start/commit_update() exist
 *  FLASH_SPLIT_IN_DISK       the split bioset lives in struct gendisk
 *  FLASH_HAVE_REQ_ATOMIC     REQ_ATOMIC exists
 */
#ifndef FLASH_COMPAT_H
#define FLASH_COMPAT_H

#include <linux/blkdev.h>
#include <linux/bio.h>

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

/* The bioset the block core splits @bio's queue with. */
static inline struct bio_set *flash_split_bioset(struct bio *bio)
{
#ifdef FLASH_SPLIT_IN_DISK
	return &bio->bi_bdev->bd_disk->bio_split;
#else
	return &bdev_get_queue(bio->bi_bdev)->bio_split;
#endif
}

/*
 * Set the queue's chunk_sectors.  6.12: through the limits update API,
 * which takes q->limits_lock.  6.1: a plain store, as its own callers do.
 */
static inline int flash_set_chunk_sectors(struct request_queue *q,
					  unsigned int sectors)
{
#ifdef FLASH_HAVE_LIMITS_UPDATE
	struct queue_limits lim = queue_limits_start_update(q);

	lim.chunk_sectors = sectors;
	return queue_limits_commit_update(q, &lim);
#else
	blk_queue_chunk_sectors(q, sectors);
	return 0;
#endif
}

#endif /* FLASH_COMPAT_H */
