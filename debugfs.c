// SPDX-License-Identifier: GPL-2.0
/*
 * flash I/O scheduler: state under /sys/kernel/debug/block/<dev>/sched/.
 *  segments - one line per segment with queued writes
 *  active   - the segment being drained, its cursor and budget, open slots
 *  stats    - counters since the scheduler was attached
 * Each file is a snapshot taken under fd->lock.
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/seq_file.h>

#include "elevator.h"
#include "blk-mq-debugfs.h"
#include "flash-iosched.h"

static struct flash_data *flash_debugfs_fd(void *data)
{
	struct request_queue *q = data;

	return q->elevator->elevator_data;
}

static int flash_segments_show(void *data, struct seq_file *m)
{
	struct flash_data *fd = flash_debugfs_fd(data);
	struct rb_node *n;

	spin_lock(&fd->lock);
	for (n = rb_first(&fd->segments); n; n = rb_next(n)) {
		struct flash_segment *seg = rb_entry(n, struct flash_segment, node);

		if (!seg->nr_rqs)
			continue;
		seq_printf(m, "segment %llu sector %llu requests %u bytes %llu%s\n",
			   seg->index, seg->index * fd->geom.erase_sectors,
			   seg->nr_rqs, seg->bytes,
			   seg == fd->active ? " active" : "");
	}
	spin_unlock(&fd->lock);
	return 0;
}

static int flash_active_show(void *data, struct seq_file *m)
{
	struct flash_data *fd = flash_debugfs_fd(data);
	unsigned int i, open = 0;

	spin_lock(&fd->lock);
	if (fd->active)
		seq_printf(m, "segment %llu cursor %llu budget_used %llu of %llu\n",
			   fd->active->index, fd->cursor, fd->budget_used,
			   flash_budget_sectors(&fd->geom));
	else
		seq_puts(m, "segment none\n");
	for (i = 0; i < FLASH_MAX_OPEN; i++) {
		struct flash_slot *s = &fd->slots[i];
		int inflight = atomic_read(&s->inflight);

		if (!inflight)
			continue;
		open++;
		seq_printf(m, "open %llu inflight %d%s\n", s->index, inflight,
			   s->gen == fd->gen ? "" : " (old geometry)");
	}
	seq_printf(m, "open_segments %u of %u\n", open, fd->open_segments);
	spin_unlock(&fd->lock);
	return 0;
}

static int flash_stats_show(void *data, struct seq_file *m)
{
	struct flash_data *fd = flash_debugfs_fd(data);
	struct flash_stats s;

	spin_lock(&fd->lock);
	s = fd->stats;
	spin_unlock(&fd->lock);

	seq_printf(m, "inserted %llu\n", s.inserted);
	seq_printf(m, "dispatched_reads %llu\n", s.dispatched_reads);
	seq_printf(m, "dispatched_writes %llu\n", s.dispatched_writes);
	seq_printf(m, "dispatched_other %llu\n", s.dispatched_other);
	seq_printf(m, "expired_reads %llu\n", s.expired_reads);
	seq_printf(m, "expired_writes %llu\n", s.expired_writes);
	seq_printf(m, "merges_refused %llu\n", s.merges_refused);
	seq_printf(m, "splits %llu\n", s.splits);
	seq_printf(m, "segment_switches %llu\n", s.switches);
	seq_printf(m, "held_back %llu\n", s.held_back);
	seq_printf(m, "alloc_failures %llu\n", s.alloc_failures);
	seq_printf(m, "interleaved %llu\n", s.interleaved);
	seq_printf(m, "write_waits %llu\n", s.write_waits);
	seq_printf(m, "third_holds %llu\n", s.third_holds);
	seq_printf(m, "third_hold_misses %llu\n", s.third_hold_misses);
	seq_printf(m, "goon_skips %llu\n", s.goon_skips);
	seq_printf(m, "goon_forgets %llu\n", s.goon_forgets);
	seq_printf(m, "pairings %llu\n", s.pairings);
	seq_printf(m, "stay_us %u\n", READ_ONCE(fd->stay_us));
	seq_printf(m, "switch_us %u\n", READ_ONCE(fd->switch_us));
	seq_printf(m, "goon_us %u\n", READ_ONCE(fd->goon_us));
	seq_printf(m, "goon_row %d\n", READ_ONCE(fd->goon_row));
	seq_printf(m, "goon_gated %d\n", READ_ONCE(fd->goon_gated));
	seq_printf(m, "up_row_even %d\n", READ_ONCE(fd->up_row[0]));
	seq_printf(m, "up_row_odd %d\n", READ_ONCE(fd->up_row[1]));
	return 0;
}

const struct blk_mq_debugfs_attr flash_queue_debugfs_attrs[] = {
	{"segments", 0400, flash_segments_show},
	{"active", 0400, flash_active_show},
	{"stats", 0400, flash_stats_show},
	{},
};
