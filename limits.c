// SPDX-License-Identifier: GPL-2.0
/*
 * flash I/O scheduler: the queue's chunk_sectors while flash is attached.
 *
 * With chunk_sectors set to the erase size, the block core splits every
 * read and write at erase-block boundaries and never merges across one,
 * plug merges included.  The limit belongs to the driver, so flash
 * (flash_chunk_target()):
 *  - sets the erase size if the driver has no chunk or one that is a
 *    multiple of it; else the greatest common divisor of the two, whose
 *    multiples are the boundaries of both, if no request can be longer;
 *    else leaves the driver's; never a value that the device's
 *    atomic-write boundary does not divide;
 *  - gives the driver's value back at detach only if the limit still holds
 *    flash's value (a driver that revalidated its limits meanwhile wins).
 *
 * Lock order: the core takes q->limits_lock before it freezes the queue
 * (sd revalidation holds limits_lock while it issues commands).  Elevator
 * init and exit run with the queue frozen, so they must not take
 * limits_lock.  Every change is therefore made later, from one ordered
 * workqueue: limits_lock, then the frozen commit.  Ordered, so that a
 * detach's restore runs before a later attach reads the driver's value.
 * Until the work has run, flash's own merge checks still keep requests
 * inside an erase block; only plug merges and unsplit bios are not.
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "elevator.h"
#include "flash-iosched.h"
#include "compat.h"

static struct workqueue_struct *flash_limits_wq;

struct flash_limits {
	struct request_queue *q;	/* a reference is held */
	struct work_struct update;	/* applies want */
	struct work_struct detach;	/* gives the limit back, frees this */
	spinlock_t lock;		/* want */
	unsigned int want;		/* flash's chunk_sectors: the erase size */
	/* only the work items touch these; the workqueue serialises them */
	unsigned int driver;		/* the driver's chunk_sectors */
	unsigned int applied;		/* the value flash set; 0: none */
};

/* The chunk_sectors flash should see, given the driver's and its own. */
static unsigned int flash_limits_target(const struct queue_limits *lim,
					unsigned int driver, unsigned int want)
{
	return flash_chunk_target(driver, want, flash_atomic_boundary_sectors(lim),
				  lim->max_sectors);
}

/*
 * Bring chunk_sectors to what flash wants (@detach: what the driver had).
 * Takes q->limits_lock, then freezes the queue to commit.  A queue that is
 * being torn down (its disk removed) is left alone: nothing will be
 * submitted to it again.
 */
static void flash_limits_apply(struct flash_limits *fl, bool detach)
{
	struct request_queue *q = fl->q;
	struct queue_limits lim;
	unsigned int cur, target, want;
	unsigned int noio;
	int ret;

	if (blk_queue_dying(q))
		return;
	spin_lock(&fl->lock);
	want = fl->want;
	spin_unlock(&fl->lock);

	noio = memalloc_noio_save();
	lim = flash_limits_start(q);
	cur = lim.chunk_sectors;
	if (fl->applied && cur != fl->applied)
		fl->applied = 0;	/* the driver has set its own since */
	if (!fl->applied)
		fl->driver = cur;
	target = detach ? fl->driver : flash_limits_target(&lim, fl->driver, want);
	if (target == cur) {
		flash_limits_cancel(q);
		ret = 0;
	} else {
		lim.chunk_sectors = target;
		ret = flash_limits_commit(q, &lim);
	}
	memalloc_noio_restore(noio);

	if (ret) {
		pr_warn("flash: %s: cannot set chunk_sectors to %u (%d)\n",
			q->disk ? q->disk->disk_name : "queue", target, ret);
		return;
	}
	fl->applied = !detach && target != fl->driver ? target : 0;
}

static void flash_limits_update_fn(struct work_struct *work)
{
	flash_limits_apply(container_of(work, struct flash_limits, update), false);
}

static void flash_limits_detach_fn(struct work_struct *work)
{
	struct flash_limits *fl = container_of(work, struct flash_limits, detach);

	if (fl->applied)
		flash_limits_apply(fl, true);
	blk_put_queue(fl->q);
	kfree(fl);
}

/*
 * Called from flash_init_sched(), queue frozen: start managing @q's
 * chunk_sectors with @sectors as flash's value.  NULL if that cannot be
 * done (no memory, queue dying); flash then works without the limit.
 */
struct flash_limits *flash_limits_attach(struct request_queue *q,
					 unsigned int sectors)
{
	struct flash_limits *fl;

	fl = kzalloc_node(sizeof(*fl), GFP_NOIO, q->node);
	if (!fl)
		return NULL;
	if (!blk_get_queue(q)) {
		kfree(fl);
		return NULL;
	}
	fl->q = q;
	fl->want = sectors;
	spin_lock_init(&fl->lock);
	INIT_WORK(&fl->update, flash_limits_update_fn);
	INIT_WORK(&fl->detach, flash_limits_detach_fn);
	queue_work(flash_limits_wq, &fl->update);
	return fl;
}

/* From the erase_size store: flash's value becomes @sectors. */
void flash_limits_update(struct flash_limits *fl, unsigned int sectors)
{
	spin_lock(&fl->lock);
	fl->want = sectors;
	spin_unlock(&fl->lock);
	queue_work(flash_limits_wq, &fl->update);
}

/*
 * Called from flash_exit_sched(), queue frozen: give the limit back and
 * free @fl, later.  No update can be queued after this (the attributes
 * are gone), and the ordered workqueue runs any pending one first.
 */
void flash_limits_detach(struct flash_limits *fl)
{
	queue_work(flash_limits_wq, &fl->detach);
}

int flash_limits_init(void)
{
	flash_limits_wq = alloc_ordered_workqueue("flash_limits", WQ_MEM_RECLAIM);
	return flash_limits_wq ? 0 : -ENOMEM;
}

/* Runs every pending change first: none may outlive the module. */
void flash_limits_exit(void)
{
	destroy_workqueue(flash_limits_wq);
}
