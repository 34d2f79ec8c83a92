// SPDX-License-Identifier: GPL-2.0
/*
 * flash I/O scheduler: the tunables under /sys/block/<dev>/queue/iosched/
 * and their defaults.  Users see bytes and milliseconds; the scheduler
 * keeps sectors and jiffies.  The elevator core serialises show and store
 * with e->sysfs_lock; stores also take fd->lock because dispatch reads the
 * tunables under it.  Bad input returns -EINVAL and changes nothing.
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "elevator.h"
#include "flash-iosched.h"

static const unsigned int flash_read_expire_ms = 500;
static const unsigned int flash_write_expire_ms = 5000;
static const unsigned int flash_write_wait_us = 2000;
static const enum flash_split flash_split_default = FLASH_SPLIT_OFF;

static const char *const flash_split_names[FLASH_SPLIT_NR] = {
	[FLASH_SPLIT_OFF] = "off",
	[FLASH_SPLIT_PAGE] = "page",
	[FLASH_SPLIT_POW2] = "pow2",
};

/*
 * Called from flash_init_sched() before the queue uses the scheduler.
 * open_segments and write_depth depend on whether the device works on
 * several commands at once (flash_default_depths()).
 */
void flash_set_defaults(struct flash_data *fd, struct request_queue *q)
{
	struct flash_dev_limits lim = {
		.logical_block = queue_logical_block_size(q),
		.physical_block = queue_physical_block_size(q),
		.io_min = queue_io_min(q),
		.io_opt = queue_io_opt(q),
		.discard_granularity = q->limits.max_discard_sectors ?
				       q->limits.discard_granularity : 0,
	};
	struct flash_dev_queue dq = {
		.nr_hw_queues = q->nr_hw_queues,
		.depth = q->tag_set->queue_depth,
		.blocking = q->tag_set->flags & BLK_MQ_F_BLOCKING,
	};
	u32 page, erase;

	flash_default_geometry(&lim, &page, &erase);
	flash_default_depths(&dq, &fd->open_segments, &fd->write_depth);
	fd->geom.page_sectors = page >> FLASH_SECTOR_SHIFT;
	fd->geom.erase_sectors = erase >> FLASH_SECTOR_SHIFT;
	fd->erase_set = fd->geom.erase_sectors;
	fd->split = flash_split_default;
	fd->write_wait_us = flash_write_wait_us;
	fd->read_expire_ms = flash_read_expire_ms;
	fd->read_expire = msecs_to_jiffies(flash_read_expire_ms);
	fd->write_expire_ms = flash_write_expire_ms;
	fd->write_expire = msecs_to_jiffies(flash_write_expire_ms);
}

/* Parse a plain decimal number; anything else, overflow included, is -EINVAL. */
static int flash_parse_uint(const char *buf, unsigned int *val)
{
	return kstrtouint(buf, 10, val) ? -EINVAL : 0;
}

static ssize_t flash_page_size_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%u\n", fd->geom.page_sectors << FLASH_SECTOR_SHIFT);
}

static ssize_t flash_page_size_store(struct elevator_queue *e, const char *page,
				     size_t count)
{
	struct flash_data *fd = e->elevator_data;
	unsigned int lbs = queue_logical_block_size(fd->queue);
	unsigned int val;
	ssize_t ret = -EINVAL;

	if (flash_parse_uint(page, &val))
		return -EINVAL;
	spin_lock(&fd->lock);
	if (flash_page_size_ok(val, lbs) &&
	    flash_erase_size_ok(fd->erase_set << FLASH_SECTOR_SHIFT, val)) {
		fd->geom.page_sectors = val >> FLASH_SECTOR_SHIFT;
		ret = count;
	}
	spin_unlock(&fd->lock);
	return ret;
}

static ssize_t flash_erase_size_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%u\n", fd->geom.erase_sectors << FLASH_SECTOR_SHIFT);
}

/*
 * Queued writes are re-filed at once, into segments already allocated;
 * chunk_sectors follows from a work item (limits.c), because queue limits
 * must not be changed under e->sysfs_lock.
 */
static ssize_t flash_erase_size_store(struct elevator_queue *e, const char *page,
				      size_t count)
{
	struct flash_data *fd = e->elevator_data;
	unsigned int val;
	bool changed = false;
	ssize_t ret = -EINVAL;

	if (flash_parse_uint(page, &val))
		return -EINVAL;
	spin_lock(&fd->lock);
	if (flash_erase_size_ok(val, fd->geom.page_sectors << FLASH_SECTOR_SHIFT)) {
		fd->erase_set = val >> FLASH_SECTOR_SHIFT;
		changed = fd->geom.erase_sectors != fd->erase_set;
		if (changed) {
			fd->geom.erase_sectors = fd->erase_set;
			flash_regroup(fd);
		}
		ret = count;
	}
	spin_unlock(&fd->lock);
	if (changed) {
		if (fd->limits)
			flash_limits_update(fd->limits, val >> FLASH_SECTOR_SHIFT);
		flash_release_writes(fd);
	}
	return ret;
}

static ssize_t flash_show_ms(unsigned int ms, char *page)
{
	return sysfs_emit(page, "%u\n", ms);
}

/* Store a deadline in ms (1 to FLASH_EXPIRE_MAX_MS) and its jiffies. */
static ssize_t flash_store_ms(struct flash_data *fd, const char *page, size_t count,
			      unsigned int *ms, unsigned long *jif)
{
	unsigned int val;

	if (flash_parse_uint(page, &val) || !val || val > FLASH_EXPIRE_MAX_MS)
		return -EINVAL;
	spin_lock(&fd->lock);
	*ms = val;
	*jif = msecs_to_jiffies(val);
	spin_unlock(&fd->lock);
	return count;
}

static ssize_t flash_read_expire_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return flash_show_ms(fd->read_expire_ms, page);
}

static ssize_t flash_read_expire_store(struct elevator_queue *e, const char *page,
				       size_t count)
{
	struct flash_data *fd = e->elevator_data;

	return flash_store_ms(fd, page, count, &fd->read_expire_ms, &fd->read_expire);
}

static ssize_t flash_write_expire_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return flash_show_ms(fd->write_expire_ms, page);
}

static ssize_t flash_write_expire_store(struct elevator_queue *e, const char *page,
					size_t count)
{
	struct flash_data *fd = e->elevator_data;

	return flash_store_ms(fd, page, count, &fd->write_expire_ms, &fd->write_expire);
}

/*
 * Store a number from @min to @max into a tunable that decides whether
 * writes wait (open_segments, write_depth, write_wait_us): held writes
 * are looked at again.
 */
static ssize_t flash_store_uint(struct flash_data *fd, const char *page,
				size_t count, unsigned int *field,
				unsigned int min, unsigned int max)
{
	unsigned int val;

	if (flash_parse_uint(page, &val) || val < min || val > max)
		return -EINVAL;
	spin_lock(&fd->lock);
	*field = val;
	spin_unlock(&fd->lock);
	flash_release_writes(fd);
	return count;
}

static ssize_t flash_open_segments_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%u\n", fd->open_segments);
}

static ssize_t flash_open_segments_store(struct elevator_queue *e, const char *page,
					 size_t count)
{
	struct flash_data *fd = e->elevator_data;

	return flash_store_uint(fd, page, count, &fd->open_segments, 1, FLASH_MAX_OPEN);
}

static ssize_t flash_write_depth_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%u\n", fd->write_depth);
}

static ssize_t flash_write_depth_store(struct elevator_queue *e, const char *page,
				       size_t count)
{
	struct flash_data *fd = e->elevator_data;

	return flash_store_uint(fd, page, count, &fd->write_depth, 1,
				FLASH_MAX_WRITE_DEPTH);
}

static ssize_t flash_write_wait_us_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%u\n", fd->write_wait_us);
}

/* 0 turns the waits off. */
static ssize_t flash_write_wait_us_store(struct elevator_queue *e,
					 const char *page, size_t count)
{
	struct flash_data *fd = e->elevator_data;

	return flash_store_uint(fd, page, count, &fd->write_wait_us, 0,
				FLASH_WRITE_WAIT_MAX_US);
}

static ssize_t flash_split_show(struct elevator_queue *e, char *page)
{
	struct flash_data *fd = e->elevator_data;

	return sysfs_emit(page, "%s\n", flash_split_names[fd->split]);
}

static ssize_t flash_split_store(struct elevator_queue *e, const char *page,
				 size_t count)
{
	struct flash_data *fd = e->elevator_data;
	int val = sysfs_match_string(flash_split_names, page);

	if (val < 0)
		return -EINVAL;
	spin_lock(&fd->lock);
	fd->split = val;
	spin_unlock(&fd->lock);
	return count;
}

#define FLASH_ATTR(name) \
	__ATTR(name, 0644, flash_##name##_show, flash_##name##_store)

struct elv_fs_entry flash_attrs[] = {
	FLASH_ATTR(page_size),
	FLASH_ATTR(erase_size),
	FLASH_ATTR(read_expire),
	FLASH_ATTR(write_expire),
	FLASH_ATTR(open_segments),
	FLASH_ATTR(write_depth),
	FLASH_ATTR(write_wait_us),
	FLASH_ATTR(split),
	__ATTR_NULL
};
