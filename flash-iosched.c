// SPDX-License-Identifier: GPL-2.0
/*
 * flash: an I/O scheduler for cheap flash (SD cards, eMMC, USB sticks).
 *
 * Such devices program whole pages, erase whole erase blocks and keep only
 * a few erase blocks open for writing.  Writes are therefore queued per
 * erase block ("segment"), sorted by sector, and drained one segment at a
 * time in ascending order; merges never build a write that straddles a
 * page or an erase block; on request, writes are cut into pieces the card
 * takes as they are.  A write to an idle device may wait briefly for one
 * that is about to arrive (write_wait_us).  Reads go first, in arrival
 * order, with a deadline for each direction so that neither starves.
 */
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/bio.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/rbtree.h>
#include <linux/jiffies.h>
#include <linux/sched/mm.h>
#include <linux/wait_bit.h>

#include <trace/events/block.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-sched.h"
#include "blk-cgroup.h"
#include "flash-iosched.h"
#include "compat.h"

static struct kmem_cache *flash_seg_cache;

/*
 * Pieces of split writes come from flash's own bioset, not the disk's
 * (which the core's own split in the same submission may be holding).
 * flash_pieces counts the pieces not yet completed: the bioset must
 * outlive them, so module exit waits for it to reach zero.
 */
static struct bio_set flash_bio_set;
static atomic_t flash_pieces = ATOMIC_INIT(0);

/*
 * Per-request state in rq->elv.priv[]:
 *  priv[0]: the segment of a write while it is queued in one;
 *  priv[1]: the slot of a write once dispatched, until it finishes.
 * Both are NULL for every other request.
 */
static inline struct flash_segment *flash_rq_seg(struct request *rq)
{
	return rq->elv.priv[0];
}

static inline struct flash_slot *flash_rq_slot(struct request *rq)
{
	return rq->elv.priv[1];
}

static inline bool flash_rq_expired(struct request *rq)
{
	return time_after_eq(jiffies, (unsigned long)rq->fifo_time);
}

static struct flash_segment *__flash_find_seg(struct flash_data *fd, u64 index)
{
	struct rb_node *n = fd->segments.rb_node;

	lockdep_assert_held(&fd->lock);
	while (n) {
		struct flash_segment *seg = rb_entry(n, struct flash_segment, node);

		if (index < seg->index)
			n = n->rb_left;
		else if (index > seg->index)
			n = n->rb_right;
		else
			return seg;
	}
	return NULL;
}

/*
 * Segments are allocated ahead, never on the I/O path: a segment holds at
 * least one queued write (or is the active one), so the pool needs one
 * per scheduler tag, plus one; @depth is the scheduler tags per hardware
 * queue.  Called at init and when nr_requests changes, with the queue
 * frozen (so GFP_NOIO: reclaim must not wait for this queue).  Returns
 * false if memory ran out; the segments allocated so far are kept, and a
 * write that finds no free segment is queued unsorted.
 */
static bool flash_grow_segs(struct flash_data *fd, unsigned int depth)
{
	struct request_queue *q = fd->queue;
	unsigned int want = q->nr_hw_queues *
			    (depth + q->tag_set->reserved_tags) + 1;
	unsigned int have, added = 0;
	LIST_HEAD(segs);

	spin_lock(&fd->lock);
	have = fd->nr_segs;
	spin_unlock(&fd->lock);
	while (have + added < want) {
		struct flash_segment *seg;

		seg = kmem_cache_zalloc(flash_seg_cache, GFP_NOIO | __GFP_NOWARN);
		if (!seg)
			break;
		list_add(&seg->free, &segs);
		added++;
	}
	spin_lock(&fd->lock);
	fd->nr_segs += added;
	list_splice(&segs, &fd->free_segs);
	spin_unlock(&fd->lock);
	return have + added >= want;
}

/* Find the segment for @index or take a free one; NULL if none is free. */
static struct flash_segment *__flash_get_seg(struct flash_data *fd, u64 index)
{
	struct rb_node **p = &fd->segments.rb_node, *parent = NULL;
	struct flash_segment *seg;

	lockdep_assert_held(&fd->lock);
	while (*p) {
		parent = *p;
		seg = rb_entry(parent, struct flash_segment, node);
		if (index < seg->index)
			p = &parent->rb_left;
		else if (index > seg->index)
			p = &parent->rb_right;
		else
			return seg;
	}
	seg = list_first_entry_or_null(&fd->free_segs, struct flash_segment, free);
	if (!seg)
		return NULL;
	list_del(&seg->free);
	seg->index = index;
	seg->sort = RB_ROOT;
	seg->nr_rqs = 0;
	seg->bytes = 0;
	rb_link_node(&seg->node, parent, p);
	rb_insert_color(&seg->node, &fd->segments);
	return seg;
}

/* Give @seg back to the pool if nothing is queued in it and it is not active. */
static void __flash_put_seg(struct flash_data *fd, struct flash_segment *seg)
{
	lockdep_assert_held(&fd->lock);
	if (seg->nr_rqs || seg == fd->active)
		return;
	rb_erase(&seg->node, &fd->segments);
	list_add(&seg->free, &fd->free_segs);
}

/* Order of flash_data.busy: most queued bytes first, then lowest index. */
static bool flash_seg_busier(struct rb_node *a, const struct rb_node *b)
{
	const struct flash_segment *x = rb_entry(a, struct flash_segment, busy_node);
	const struct flash_segment *y = rb_entry(b, struct flash_segment, busy_node);

	return x->bytes > y->bytes || (x->bytes == y->bytes && x->index < y->index);
}

/*
 * Add @bytes (may be negative) and @rqs to @seg's queued writes, keeping
 * fd->busy sorted: @seg is in it exactly while it has queued writes.
 * O(log n) in the busy segments.
 */
static void __flash_seg_account(struct flash_data *fd, struct flash_segment *seg,
				s64 bytes, int rqs)
{
	if (seg->nr_rqs)
		rb_erase_cached(&seg->busy_node, &fd->busy);
	else
		fd->nr_busy_segs++;
	seg->bytes += bytes;
	seg->nr_rqs += rqs;
	if (seg->nr_rqs)
		rb_add_cached(&seg->busy_node, &fd->busy, flash_seg_busier);
	else
		fd->nr_busy_segs--;
}

/* File a queued write into its segment.  False if no segment is free. */
static bool __flash_add_write(struct flash_data *fd, struct request *rq)
{
	struct flash_segment *seg;

	seg = __flash_get_seg(fd, flash_seg_index(&fd->geom, blk_rq_pos(rq)));
	if (!seg)
		return false;
	elv_rb_add(&seg->sort, rq);
	__flash_seg_account(fd, seg, blk_rq_bytes(rq), 1);
	rq->elv.priv[0] = seg;
	return true;
}

/* Take a queued write out of its segment. */
static void __flash_del_write(struct flash_data *fd, struct request *rq)
{
	struct flash_segment *seg = flash_rq_seg(rq);

	elv_rb_del(&seg->sort, rq);
	__flash_seg_account(fd, seg, -(s64)blk_rq_bytes(rq), -1);
	rq->elv.priv[0] = NULL;
	__flash_put_seg(fd, seg);
}

/*
 * Forget a queued read or write: it is being dispatched or was merged into
 * another request.  Requires that it is on a fifo and in a sort tree.
 */
static void __flash_remove(struct flash_data *fd, struct request *rq)
{
	struct request_queue *q = fd->queue;

	lockdep_assert_held(&fd->lock);
	list_del_init(&rq->queuelist);
	if (flash_rq_seg(rq))
		__flash_del_write(fd, rq);
	else if (req_op(rq) == REQ_OP_READ)
		elv_rb_del(&fd->read_sort, rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	if (fd->grown_rq == rq)
		fd->grown_rq = NULL;
}

/* Queue a write that has no segment: unsorted, after reads, with its deadline. */
static void __flash_add_unsorted(struct flash_data *fd, struct request *rq)
{
	fd->stats.alloc_failures++;
	elv_rqhash_del(fd->queue, rq);
	if (fd->queue->last_merge == rq)
		fd->queue->last_merge = NULL;
	list_move_tail(&rq->queuelist, &fd->other_fifo);
}

/*
 * Forget what going on has cost (__flash_goon_dear()): the gate opens, and
 * the row and the average start again from the next timed go-on (a write
 * being timed meanwhile still counts when it finishes, flash_timed_done()).
 */
static void __flash_goon_forget(struct flash_data *fd)
{
	fd->stats.goon_forgets++;
	WRITE_ONCE(fd->goon_row, 0);
	WRITE_ONCE(fd->goon_gated, false);
	WRITE_ONCE(fd->goon_us, 0);
}

/*
 * Re-file every queued write after erase_size changed (written, or doubled
 * by __flash_pair()), with the segments already allocated: all of them go
 * back to the pool, whatever they held (__flash_get_seg() resets a
 * segment it takes).  Writes in flight keep their slots, which count as
 * open until they finish but no longer match any segment.
 */
void flash_regroup(struct flash_data *fd)
{
	struct flash_segment *seg, *tmp;
	struct request *rq, *next;

	lockdep_assert_held(&fd->lock);
	rbtree_postorder_for_each_entry_safe(seg, tmp, &fd->segments, node)
		list_add(&seg->free, &fd->free_segs);
	fd->segments = RB_ROOT;
	fd->busy = RB_ROOT_CACHED;
	fd->nr_busy_segs = 0;
	fd->active = NULL;
	fd->has_prev = false;
	fd->budget_used = 0;
	__flash_goon_forget(fd);	/* going on is learned again */
	fd->up_row[0] = 0;		/* so is switching up */
	fd->up_row[1] = 0;
	WRITE_ONCE(fd->pair_due, false);
	fd->gen++;
	list_for_each_entry_safe(rq, next, &fd->write_fifo, queuelist) {
		rq->elv.priv[0] = NULL;
		RB_CLEAR_NODE(&rq->rb_node);	/* its old tree is gone */
		if (!__flash_add_write(fd, rq))
			__flash_add_unsorted(fd, rq);
	}
}

/* True if @slot names @seg (it may be free: see struct flash_slot). */
static bool __flash_slot_of(struct flash_data *fd, struct flash_slot *slot,
			    struct flash_segment *seg)
{
	return slot->gen == fd->gen && slot->index == seg->index;
}

/*
 * The slot that holds @seg open, or, if fewer than @limit segments are
 * open (open_segments, one more for __flash_resumes_prev()), a free slot
 * for @seg: the one that last held it, else the one whose writes finished
 * longest ago (the others' just-finished writes stay known to
 * __flash_grow_until()); NULL if @seg must wait.
 */
static struct flash_slot *__flash_slot(struct flash_data *fd,
				       struct flash_segment *seg,
				       unsigned int limit)
{
	struct flash_slot *free = NULL, *own = NULL;
	unsigned int i, open = 0;

	lockdep_assert_held(&fd->lock);
	for (i = 0; i < FLASH_MAX_OPEN; i++) {
		struct flash_slot *s = &fd->slots[i];

		if (!atomic_read(&s->inflight)) {
			if (__flash_slot_of(fd, s, seg))
				own = s;
			else if (!free || atomic64_read(&s->done_ns) <
					  atomic64_read(&free->done_ns))
				free = s;
			continue;
		}
		if (__flash_slot_of(fd, s, seg))
			return s;
		open++;
	}
	if (open >= limit && !flash_mutant(NO_OPEN_LIMIT))
		return NULL;
	if (own)
		return own;
	if (!free)
		return NULL;
	free->index = seg->index;
	free->gen = fd->gen;
	free->end = U64_MAX;
	return free;
}

/* First queued write in @seg at or after sector @pos, or NULL. */
static struct request *flash_seg_ceiling(struct flash_segment *seg, u64 pos)
{
	struct rb_node *n = seg->sort.rb_node;
	struct request *found = NULL;

	while (n) {
		struct request *rq = rb_entry_rq(n);

		if (blk_rq_pos(rq) >= pos) {
			found = rq;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
}

/* True if @seg was the active segment before the current one. */
static bool __flash_is_prev(struct flash_data *fd, struct flash_segment *seg)
{
	return fd->has_prev && seg->index == fd->prev_index;
}

/* True if the active pair has used up its budget (flash_budget_sectors()). */
static bool __flash_budget_spent(struct flash_data *fd)
{
	return fd->budget_used >= flash_budget_sectors(&fd->geom);
}

/*
 * True if, with one open segment, @rq (a write to @seg) may go to the
 * previously active segment while the active one's write is in flight.
 * It must go on exactly where that segment's writes stopped, the pair's
 * budget must not be spent (the card still has both erase blocks open:
 * they take turns, see __flash_next_write()), and more than one bio must
 * have merged into it: its writer sent its writes together and waits for
 * them, so @rq would not grow by waiting, and the card gets its next
 * command without idling for the host.
 */
static bool __flash_resumes_prev(struct flash_data *fd,
				 struct flash_segment *seg, struct request *rq)
{
	return fd->open_segments == 1 && __flash_is_prev(fd, seg) &&
	       blk_rq_pos(rq) == fd->prev_cursor && rq->bio != rq->biotail &&
	       !__flash_budget_spent(fd) && !flash_mutant(PREV_WAITS);
}

/*
 * The first write at or above where writes to the previously active
 * segment stopped, and that segment in @segp; NULL if there is none.
 */
static struct request *__flash_prev_ceiling(struct flash_data *fd,
					    struct flash_segment **segp)
{
	struct flash_segment *seg;

	if (!fd->has_prev)
		return NULL;
	seg = __flash_find_seg(fd, fd->prev_index);
	if (!seg || !seg->nr_rqs)
		return NULL;
	*segp = seg;
	return flash_seg_ceiling(seg, fd->prev_cursor);
}

/*
 * The segment after the active one by index that has queued writes,
 * wrapping around to the lowest; the active one if no other has writes.
 */
static struct flash_segment *__flash_seg_after_active(struct flash_data *fd)
{
	struct rb_node *n = rb_next(&fd->active->node);

	if (!n)
		n = rb_first(&fd->segments);
	return rb_entry(n, struct flash_segment, node);
}

/*
 * Has going on in the previous segment, at or above where its writes
 * stopped, cost this card at least FLASH_GOON_DEAR times the average stay,
 * FLASH_GOON_ROW timed go-ons in a row (__flash_time_write(),
 * flash_timed_done())?  Then the card has closed that erase block
 * meanwhile (erase_size is set larger than the card's: the active
 * segment's writes filled other blocks), and going on there reopens it
 * and closes another: the previous segment is then neither chosen for
 * going on nor resumed where it stopped, but for one such decision in
 * FLASH_GOON_PROBE, so that go-ons are still timed: as many in a row that
 * were not dear open the gate again.  In a row, not on average: one go-on
 * slowed or sped by anything else (the host, the card's housekeeping, an
 * erase block the card happened to keep open) does not flip the gate.
 * Streams write exactly where the previous segment stopped, with bios
 * merged, on every turn, and never time a go-on (another write is always
 * in flight): such a write forgets what the go-ons cost, so that random
 * writes that made them dear do not gate the streams after them.  @rq is
 * the go-on that would be sent (the previous segment's first write at or
 * above prev_cursor).
 */
static bool __flash_goon_dear(struct flash_data *fd, struct request *rq)
{
	if (blk_rq_pos(rq) == fd->prev_cursor && rq->bio != rq->biotail &&
	    !flash_mutant(GOON_NOT_FORGOTTEN)) {
		__flash_goon_forget(fd);
		return false;
	}
	if (flash_mutant(NO_GOON_GATE))
		return false;
	if (!flash_mutant(GOON_UNLEARNED) && !READ_ONCE(fd->goon_gated))
		return false;
	if (++fd->goon_probes % FLASH_GOON_PROBE == 0)
		return false;
	fd->stats.goon_skips++;
	return true;
}

/*
 * @seg, the segment chosen next; if it is the previous one, *@goon is set
 * to its write at or above where its writes stopped, unless there is
 * none or going on there is dear (asked once per decision: a probe
 * that goes on must not be undone by a second question).
 */
static struct flash_segment *__flash_go_on(struct flash_data *fd,
					   struct flash_segment *seg,
					   struct request **goon)
{
	struct request *rq;

	if (!seg || !__flash_is_prev(fd, seg))
		return seg;
	rq = flash_seg_ceiling(seg, fd->prev_cursor);
	if (rq && !__flash_goon_dear(fd, rq))
		*goon = rq;
	return seg;
}

/*
 * Pick the segment to drain next, called when the active one has nothing
 * left above its cursor, its budget is spent or a write expired: if the
 * oldest write expired, the segment holding it, or while a sweep goes on
 * (writes stay overdue after that, see __flash_next_write()) the next
 * segment up that holds writes, wrapping around; else the
 * previous segment if it has a write at or above where its writes
 * stopped and the pair's budget is not spent (a card that keeps two erase
 * blocks open still has it open: going on there costs no block, while a
 * third segment closes one, to be copied if it is opened again), unless
 * going on has proved dear (__flash_goon_dear()); else the
 * one with the most queued bytes; if several hold as many, the one right
 * above the active segment when it is among them, else the lowest: writes
 * then go upwards across erase blocks, which a card whose erase block is
 * larger than erase_size sees as one ascending run, and segments that tie
 * take turns instead of the lowest going first every time.  The active
 * segment comes back (from its lowest write) only if no other segment has
 * writes: going backwards costs a linear-only card as much as a switch,
 * and what is left there meanwhile grows into a longer ascending run.
 * The active and previous segments share one budget (they take turns,
 * see __flash_next_write()): once it is spent, neither is picked while a
 * third segment has writes.  *@goon: where the previous segment, if
 * chosen, goes on (__flash_go_on()); NULL: from its lowest write (the
 * active segment: from its cursor).  The caller waits if the chosen
 * segment cannot be opened yet: waiting for a slot beats writing another
 * erase block or going backwards.
 */
static struct flash_segment *__flash_choose_seg(struct flash_data *fd,
						bool write_due,
						struct request **goon)
{
	bool spent = __flash_budget_spent(fd);
	struct flash_segment *seg, *best = NULL, *prev = NULL;
	struct rb_node *n;

	*goon = NULL;
	if (write_due && fd->sweep && fd->active)
		return __flash_go_on(fd, __flash_seg_after_active(fd), goon);
	if (write_due)
		return __flash_go_on(fd, flash_rq_seg(list_first_entry(&fd->write_fifo,
						     struct request, queuelist)), goon);
	if (!spent && fd->has_prev && !flash_mutant(BUSIEST_NOT_PREV)) {
		seg = __flash_go_on(fd, __flash_find_seg(fd, fd->prev_index), goon);
		if (*goon)
			return seg;
	}
	/* busiest first: at most the active and previous ones are skipped */
	for (n = rb_first_cached(&fd->busy); n; n = rb_next(n)) {
		seg = rb_entry(n, struct flash_segment, busy_node);
		if (seg == fd->active)
			continue;
		if (!spent || !__flash_is_prev(fd, seg)) {
			best = seg;
			break;
		}
		prev = seg;
	}
	if (!best && fd->active && fd->active->nr_rqs)
		best = fd->active;
	if (best && best != fd->active && fd->active &&
	    !flash_mutant(TIES_GO_LOWEST)) {
		seg = __flash_find_seg(fd, fd->active->index + 1);
		if (seg && seg->nr_rqs && seg->bytes == best->bytes &&
		    (!spent || !__flash_is_prev(fd, seg)))
			best = seg;
	}
	/* best is the previous one only if it had no go-on or it was refused */
	return best ? best : __flash_go_on(fd, prev, goon);
}

/*
 * Make @seg the active segment.  The budget starts again when a segment
 * other than the active and previous ones is chosen, or when the pair's
 * budget was spent and nothing else is waiting.
 */
static void __flash_activate(struct flash_data *fd, struct flash_segment *seg)
{
	struct flash_segment *old = fd->active;

	if (old == seg) {
		if (__flash_budget_spent(fd))
			fd->budget_used = 0;
		return;
	}
	if (!__flash_is_prev(fd, seg) || __flash_budget_spent(fd) ||
	    flash_mutant(BUDGET_PER_SEG))
		fd->budget_used = 0;
	fd->active = seg;
	if (old) {
		fd->has_prev = true;
		fd->prev_index = old->index;
		fd->prev_cursor = fd->cursor;
		fd->stats.switches++;
		blk_add_trace_msg(fd->queue, "flash switch %llu -> %llu",
				  old->index, seg->index);
		__flash_put_seg(fd, old);
	}
}

/* True if a dispatched write has not finished yet. */
static bool __flash_writes_inflight(struct flash_data *fd)
{
	unsigned int i;

	for (i = 0; i < FLASH_MAX_OPEN; i++)
		if (atomic_read(&fd->slots[i].inflight))
			return true;
	return false;
}

/*
 * Two writers take turns in one erase block (two fsync()s walking the same
 * file, say) when a write arrives below the active segment's cursor, by at
 * most a quarter of an erase block, while a write is in flight: one of
 * them got ahead.  A write further below is another stream's, which
 * waiting would not put in order (with erase_size set larger than the
 * card's, it may not even share the card's block).  Then, for the next
 * FLASH_INTERLEAVE_WRITES writes, write_wait_us applies.  A writer at
 * queue depth 1 never sets this off; one writing at random with several
 * writes outstanding does, but keeps the device busy, so it rarely waits.
 */
static void __flash_note_interleave(struct flash_data *fd, struct request *rq)
{
	if (flash_rq_seg(rq) != fd->active || blk_rq_pos(rq) >= fd->cursor ||
	    (fd->cursor - blk_rq_pos(rq) > fd->geom.erase_sectors / 4 &&
	     !flash_mutant(FAR_INTERLEAVE)) ||
	    !__flash_writes_inflight(fd))
		return;
	fd->stats.interleaved++;
	fd->interleave_left = FLASH_INTERLEAVE_WRITES;
}

/*
 * True if a queued write starts where @rq ends: @rq's writer is ahead of
 * the card.  It is the next write of @rq's segment or, when @rq ends its
 * erase block, the first of the next segment (a stream going on into the
 * next block).  A write further up is another stream's (with erase_size
 * set larger than the card's, a segment holds several), and says nothing
 * about whether @rq may still grow.
 */
static bool __flash_rq_followed(struct flash_data *fd, struct request *rq)
{
	u64 end = blk_rq_pos(rq) + blk_rq_sectors(rq), index;
	struct rb_node *next = rb_next(&rq->rb_node);
	struct flash_segment *seg;

	if (flash_mutant(FAR_COMPANY))
		return next;
	if (next)
		return blk_rq_pos(rb_entry_rq(next)) == end;
	index = flash_seg_index(&fd->geom, end);
	if (index == flash_rq_seg(rq)->index || flash_mutant(EDGE_ALONE))
		return false;
	seg = __flash_find_seg(fd, index);
	next = seg ? rb_first(&seg->sort) : NULL;
	return next && blk_rq_pos(rb_entry_rq(next)) == end;
}

/*
 * True if @rq, the write at the active segment's cursor, is alone in its
 * stream: nothing follows it (__flash_rq_followed()) and no write lies
 * within a quarter erase block below it (an interleaved writer, see
 * __flash_note_interleave()).
 */
static bool __flash_lone_write(struct flash_data *fd, struct request *rq)
{
	struct rb_node *prev = rb_prev(&rq->rb_node);

	if (flash_mutant(FAR_COMPANY))
		return flash_rq_seg(rq)->nr_rqs == 1;
	return !__flash_rq_followed(fd, rq) &&
	       (!prev || blk_rq_pos(rq) - blk_rq_pos(rb_entry_rq(prev)) >
			 fd->geom.erase_sectors / 4);
}

/* True if a bio merged into @rq, the write at the cursor, after @done. */
static bool __flash_grew_since(struct flash_data *fd, struct request *rq, u64 done)
{
	return rq == fd->grown_rq && fd->grown_ns > done &&
	       !flash_mutant(WAIT_PAST_MERGE);
}

/* Run the queue at @until (ns, the monotonic clock): a wait ends then. */
static void __flash_wait_until(struct flash_data *fd, u64 until)
{
	/* a timer still queued may be an ended wait's: count new deadlines */
	if (until != fd->wait_until) {
		fd->wait_until = until;
		fd->stats.write_waits++;
	}
	hrtimer_start(&fd->wait_timer, ns_to_ktime(until), HRTIMER_MODE_ABS);
}

/*
 * True if FLASH_LONE_MISSES lone waits in a row ran out without their
 * writer's next write (__flash_write_wait()), and no write has arrived at
 * the cursor since (__flash_note_continued()): the write at the cursor
 * met it by chance, its writer writes at random, and a lone write has no
 * next write to wait for.
 */
static bool __flash_lone_in_vain(struct flash_data *fd)
{
	return fd->lone_misses >= FLASH_LONE_MISSES &&
	       !flash_mutant(LONE_NEVER_LEARNS);
}

/*
 * Should @rq, the next write, wait before it goes to an idle device?
 *  - After interleaving was seen: the first write of a burst would go at
 *    once, and the other writer's lower write, a moment later, would have
 *    to go backwards.  Wait until write_wait_us after the burst's first
 *    write arrived.
 *  - A lone write (__flash_lone_write()) that continues the active
 *    segment and was queued while a write was in flight: its writer
 *    keeps more than one write outstanding and is about to send the
 *    next, which merges into it.  Wait until write_wait_us after the
 *    last write finished, unless the writer's next write has merged into
 *    it since then (the wait's purpose; flash_request_merged() ends a
 *    wait under way).  A next write that merges before
 *    flash_finish_request() has seen the last completion (the bio
 *    completes first) is not told apart: the wait runs to its end.
 *    A wait that runs out counts as a miss, one that ends early (@rq
 *    grew or is followed now) clears the count; while the waits are in
 *    vain (__flash_lone_in_vain()), a lone write goes at once.
 * The timer runs the queue when the wait ends.
 */
static bool __flash_write_wait(struct flash_data *fd, struct flash_segment *seg,
			       struct request *rq)
{
	u64 wait = (u64)fd->write_wait_us * NSEC_PER_USEC, until = 0, lone = 0;
	u64 pos = blk_rq_pos(rq), done, now;

	if (!wait)
		return false;
	if (fd->interleave_left)
		until = fd->burst_start_ns + wait;
	if (seg == fd->active && pos == fd->cursor && __flash_lone_write(fd, rq)) {
		done = atomic64_read(&fd->write_done_ns);
		if (rq->start_time_ns && rq->start_time_ns < done &&
		    !__flash_grew_since(fd, rq, done))
			lone = done + wait;
	}
	now = lone || until ? ktime_get_ns() : 0;	/* not on every write */
	if (pos == fd->lone_pos && (!lone || now >= lone)) {
		/* the wait for @rq is over: it ran out, or its writer went on */
		fd->lone_misses = lone ? fd->lone_misses + 1 : 0;
		fd->lone_pos = U64_MAX;
	}
	if (now >= lone || __flash_lone_in_vain(fd))
		lone = 0;
	until = max(until, lone);
	if (!until || __flash_writes_inflight(fd) || now >= until)
		return false;
	if (lone)
		fd->lone_pos = pos;
	__flash_wait_until(fd, until);
	return true;
}

/*
 * @rq, a new write or one a bio merged into, starts at the active
 * segment's cursor: a writer goes on where the last write ended, so lone
 * writes wait for their writer's next write again (__flash_write_wait()).
 */
static void __flash_note_continued(struct flash_data *fd, struct request *rq)
{
	if (flash_rq_seg(rq) == fd->active && blk_rq_pos(rq) == fd->cursor)
		fd->lone_misses = 0;
}

/*
 * Something that held writes back has changed (a write finished, the wait
 * ended, a tunable changed): let has_work() say yes again and run the
 * queue.  Any context; the run is asynchronous, and with
 * QUEUE_FLAG_SQ_SCHED it reaches the hctx that dispatches.
 */
void flash_release_writes(struct flash_data *fd)
{
	WRITE_ONCE(fd->writes_held, false);
	blk_mq_run_hw_queues(fd->queue, true);
}

static enum hrtimer_restart flash_wait_timer_fn(struct hrtimer *timer)
{
	struct flash_data *fd = container_of(timer, struct flash_data, wait_timer);

	flash_release_writes(fd);
	return HRTIMER_NORESTART;
}

/*
 * The slot for a write to @seg, or NULL if it must wait for one; @open:
 * how many segments may have writes in flight (see __flash_slot()).
 */
static struct flash_slot *__flash_open_slot(struct flash_data *fd,
					    struct flash_segment *seg,
					    unsigned int open)
{
	struct flash_slot *slot = __flash_slot(fd, seg, open);

	if (slot && atomic_read(&slot->inflight) < fd->write_depth)
		return slot;
	return NULL;
}

/*
 * With one open segment, may @rq, the next write (to @seg), go while a
 * write is in flight?  Only if it continues the active segment upwards
 * and another queued write of the segment lies above it: its writer is
 * ahead of the card, so the write would not grow by waiting, and the card
 * gets its next command without idling for the host.  A write right at
 * the cursor continues a stream, and only a write that follows it
 * (__flash_rq_followed()) puts its writer ahead.  A step back, or a lone
 * write that its writer's next one may still merge into, waits until the
 * card has finished, and is decided then, with what arrived meanwhile.
 */
static bool __flash_may_join(struct flash_data *fd, struct flash_segment *seg,
			     struct request *rq)
{
	bool upwards = seg == fd->active && blk_rq_pos(rq) >= fd->cursor;
	bool company = blk_rq_pos(rq) == fd->cursor ? __flash_rq_followed(fd, rq) :
			!!rb_next(&rq->rb_node);

	if (flash_mutant(STEP_BACK_IN_FLIGHT))
		upwards = true;
	if (flash_mutant(LONE_IN_FLIGHT))
		company = true;
	return upwards && company;
}

/*
 * With more than one open segment: must @rq, the next write of @seg, whose
 * slot is @slot, stay queued to grow?  0 if it may go, else until when it
 * waits (U64_MAX: until a write finishes).  It must if it goes on where
 * its segment's last dispatched write ended, nothing queued follows it,
 * and it ends inside a page: alone it would leave that page part-written
 * (a read-modify-write on many cards), and its writer, having queued it
 * while that write was in flight, keeps more than one write outstanding
 * and sends the rest of the page next.  It waits while that write is in
 * flight and then up to write_wait_us after it finished; a bio that
 * merges into it meanwhile ends the wait (flash_request_merged()).
 * write_wait_us 0 turns the hold off.  Other segments' writes go
 * meanwhile (__flash_grown_write()).  With
 * one open segment, __flash_may_join() decides instead.
 */
static u64 __flash_grow_until(struct flash_data *fd, struct flash_slot *slot,
			      struct flash_segment *seg, struct request *rq)
{
	u64 end = blk_rq_pos(rq) + blk_rq_sectors(rq), done, until;

	if (!fd->write_wait_us || flash_mutant(NO_GROW_HOLD) ||
	    !__flash_slot_of(fd, slot, seg) ||
	    blk_rq_pos(rq) != slot->end ||
	    !(end & (fd->geom.page_sectors - 1)) || __flash_rq_followed(fd, rq))
		return 0;
	if (atomic_read(&slot->inflight))
		return U64_MAX;
	done = atomic64_read(&slot->done_ns);
	until = done + (u64)fd->write_wait_us * NSEC_PER_USEC;
	if (!rq->start_time_ns || rq->start_time_ns >= done ||
	    ktime_get_ns() >= until)
		return 0;
	return until;
}

/*
 * With more than one open segment: @seg's next write, if it may go while
 * @held's write grows: @seg is another segment with queued writes, can
 * take a write (__flash_open_slot(), its slot then in *@slotp) and that
 * write need not grow either; else NULL, and *@first lowered to when its
 * wait ends.
 */
static struct request *__flash_instead(struct flash_data *fd,
				       struct flash_segment *seg,
				       struct flash_segment *held,
				       struct flash_slot **slotp, u64 *first)
{
	struct flash_slot *slot;
	struct request *rq = NULL;
	u64 until;

	if (!seg || seg == held || !seg->nr_rqs)
		return NULL;
	slot = __flash_open_slot(fd, seg, fd->open_segments);
	if (!slot)
		return NULL;
	if (__flash_slot_of(fd, slot, seg))
		rq = flash_seg_ceiling(seg, slot->end);
	if (!rq)
		rq = rb_entry_rq(rb_first(&seg->sort));
	until = __flash_grow_until(fd, slot, seg, rq);
	if (until) {
		*first = min(*first, until);
		return NULL;
	}
	*slotp = slot;
	return rq;
}

/* Add @index to the @n indices in @set unless it is there; the new count. */
static unsigned int flash_set_add(u64 *set, unsigned int n, u64 index)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i] == index)
			return n;
	set[n] = index;
	return n + 1;
}

/*
 * With more than one open segment: @rq, the next write (in *@segp, its
 * slot *@slotp), if it need not grow (__flash_grow_until()); else another
 * segment's write that may go instead (__flash_instead()), with *@segp
 * and *@slotp set to its own.  First the erase blocks the card has open
 * already: the active and previous segments, those with writes in
 * flight; a segment not open yet (the busiest first) only while fewer
 * than open_segments are open, *@segp included: on a card that keeps
 * just open_segments erase blocks open, a write that grows must not make
 * it close one.  NULL if none may go: then a timer runs the queue when
 * the first wait ends (a finishing write runs it anyway).
 */
static struct request *__flash_grown_write(struct flash_data *fd,
					   struct flash_segment **segp,
					   struct flash_slot **slotp,
					   struct request *rq)
{
	u64 first = __flash_grow_until(fd, *slotp, *segp, rq);
	u64 open[FLASH_MAX_OPEN + 3];	/* *@segp, active, previous, in flight */
	unsigned int i, n, stale = 0, looked = 0;
	struct request *alt = NULL;
	struct rb_node *n_busy;

	if (!first)
		return rq;
	open[0] = (*segp)->index;
	n = 1;
	if (fd->active)
		n = flash_set_add(open, n, fd->active->index);
	if (fd->has_prev)
		n = flash_set_add(open, n, fd->prev_index);
	for (i = 0; i < FLASH_MAX_OPEN; i++) {
		struct flash_slot *s = &fd->slots[i];

		if (!atomic_read(&s->inflight))
			continue;
		if (s->gen == fd->gen)
			n = flash_set_add(open, n, s->index);
		else
			stale++;	/* open on the card, its index from before */
	}
	for (i = 1; i < n && !alt; i++)
		alt = __flash_instead(fd, __flash_find_seg(fd, open[i]), *segp,
				      slotp, &first);
	for (n_busy = rb_first_cached(&fd->busy);
	     !alt && n_busy && looked < FLASH_MAX_OPEN &&
	     (n + stale < fd->open_segments || flash_mutant(NEW_INSTEAD));
	     n_busy = rb_next(n_busy), looked++)
		alt = __flash_instead(fd, rb_entry(n_busy, struct flash_segment, busy_node),
				      *segp, slotp, &first);
	if (alt) {
		*segp = flash_rq_seg(alt);
		return alt;
	}
	if (first != U64_MAX)
		__flash_wait_until(fd, first);
	return NULL;
}

/*
 * Has a write that switched away from the active and previous segments
 * cost this card at least four times @hold more than one that stayed?
 * Then the card closes an erase block it is still writing to open a
 * third (it keeps two open, like most SD cards) and copies it when it is
 * written again: holding a third segment's write can pay.  Learned from the
 * writes timed by __flash_time_write(); never before a switch is timed.
 */
static bool __flash_switch_dear(struct flash_data *fd, u64 hold)
{
	u64 stay = READ_ONCE(fd->stay_us), sw = READ_ONCE(fd->switch_us);

	if (flash_mutant(HOLD_UNLEARNED))
		return true;
	return sw && sw * NSEC_PER_USEC >= stay * NSEC_PER_USEC + 4 * hold;
}

/*
 * Must the write to @seg, the segment chosen next, wait because it would
 * open a third segment on a card that closes one for it
 * (__flash_switch_dear())?  File systems write data, journal and metadata
 * by turns, and the active and previous segments' writers are often about
 * to write again: the write waits (a hold) until FLASH_HOLD_WAITS times
 * write_wait_us after the last write finished; a write queued meanwhile
 * to the active or previous segment goes first and starts the hold again
 * (__flash_insert()).  No hold while a write is overdue, once the pair's
 * budget is spent (the third segment's turn), while more than two
 * segments have writes, with more than one open segment (a card that
 * keeps more open), or with write_wait_us 0.  A hold pays only if the
 * previous segment's writer writes during it (the active segment stays
 * open anyway): once FLASH_HOLD_MISSES holds in a row ran out without
 * such a write, only one write in FLASH_HOLD_PROBE that would wait does,
 * until one of them sees the previous segment written.  An SQLite-like
 * pair of a log and a database writer that waits on its own write
 * (measurements.md) is held no more.
 */
static bool __flash_hold_third(struct flash_data *fd, struct flash_segment *seg,
			       bool write_due)
{
	u64 hold = (u64)fd->write_wait_us * FLASH_HOLD_WAITS * NSEC_PER_USEC;

	if (fd->hold_until && ktime_get_ns() >= fd->hold_until) {
		fd->hold_misses++;
		fd->stats.third_hold_misses++;
		fd->hold_until = 0;
	}
	if (!hold || write_due || fd->open_segments > 1 || !fd->active ||
	    seg == fd->active || __flash_is_prev(fd, seg) ||
	    __flash_budget_spent(fd) || fd->nr_busy_segs > 2 ||
	    flash_mutant(NO_THIRD_HOLD) || !__flash_switch_dear(fd, hold))
		return false;
	if (!fd->hold_until && fd->hold_misses >= FLASH_HOLD_MISSES &&
	    ++fd->hold_skips % FLASH_HOLD_PROBE)
		return false;
	if (!fd->hold_until) {
		fd->hold_until = atomic64_read(&fd->write_done_ns) + hold;
		if (ktime_get_ns() >= fd->hold_until) {
			fd->hold_until = 0;
			return false;
		}
		fd->stats.third_holds++;
	}
	__flash_wait_until(fd, fd->hold_until);
	return true;
}

/*
 * Time @rq, the write to @seg about to be dispatched, if it is small and
 * no write is in flight: then the card's time for it is its own.  It
 * stays if @seg is the active segment, goes on if @seg is the previous
 * one and @rq is at or above where its writes stopped, and switches if
 * @seg is neither; a switch to the segment right above the active one
 * switches up too (__flash_pair()), unless @rq starts where the last
 * write ended (a stream crossing into the next segment, which tells
 * nothing about erase blocks).  flash_timed_done() takes the time.
 * Nothing else could be timed while @rq is in flight, so timing one kind
 * displaces no other.  Call before __flash_activate().
 */
static void __flash_time_write(struct flash_data *fd, struct flash_segment *seg,
			       struct request *rq)
{
	unsigned int *avg = &fd->switch_us;

	if (seg == fd->active)
		avg = &fd->stay_us;
	else if (__flash_is_prev(fd, seg))
		avg = blk_rq_pos(rq) >= fd->prev_cursor ? &fd->goon_us : NULL;
	if (!avg || blk_rq_sectors(rq) > FLASH_TIMED_SECTORS ||
	    __flash_writes_inflight(fd))
		return;
	/* no write in flight: none is reading these (flash_finish_request()) */
	fd->timed_up = 0;
	if (avg == &fd->switch_us && fd->active &&
	    seg->index == fd->active->index + 1 && blk_rq_pos(rq) != fd->cursor)
		fd->timed_up = 1 + (fd->active->index & 1);
	fd->timed_ns = ktime_get_ns();
	fd->timed_avg = avg;
	/* pairs with the acquire in flash_timed_done(): the fields first */
	smp_store_release(&fd->timed_rq, rq);
}

/*
 * @row (> 0: timed writes dear in a row, < 0: not dear) extended by one
 * that was @dear or not; at most @full long.
 */
static int flash_row(int row, bool dear, int full)
{
	if (dear)
		return row > 0 ? min(row + 1, full) : 1;
	return row < 0 ? max(row - 1, -full) : -1;
}

/*
 * @rq finished at @now: if it was being timed, add its time to its
 * average.  A write is dear if it took FLASH_GOON_DEAR times the average
 * stay.  A go-on extends the row of go-ons that were dear, or of those
 * that were not, and a full row sets the gate (__flash_goon_dear()); an
 * up-switch extends its side's row, and a full row of cheap ones from
 * even segments beside a full row of dear ones from odd segments pairs
 * the segments (__flash_pair()).  Any context, before @rq stops counting
 * as in flight: the fields are read before the cmpxchg(), a full
 * barrier, so no dispatch rewrites them first (__flash_time_write()).
 */
static void flash_timed_done(struct flash_data *fd, struct request *rq, u64 now)
{
	unsigned int *avg, was, us, stay, up;
	u64 start;
	bool dear;
	int row;

	/* pairs with the release in __flash_time_write() */
	if (smp_load_acquire(&fd->timed_rq) != rq)
		return;
	start = fd->timed_ns;
	avg = fd->timed_avg;
	up = fd->timed_up;
	if (cmpxchg(&fd->timed_rq, rq, NULL) != rq)
		return;
	us = max_t(u64, div_u64(now - start, NSEC_PER_USEC), 1);
	stay = READ_ONCE(fd->stay_us);
	dear = stay && us >= (u64)FLASH_GOON_DEAR * stay;
	if (avg == &fd->goon_us) {
		row = flash_row(READ_ONCE(fd->goon_row), dear, FLASH_GOON_ROW);
		WRITE_ONCE(fd->goon_row, row);
		if (abs(row) == FLASH_GOON_ROW)
			WRITE_ONCE(fd->goon_gated, row > 0);
	}
	if (up) {
		row = flash_row(READ_ONCE(fd->up_row[up - 1]), dear, FLASH_PAIR_ROW);
		WRITE_ONCE(fd->up_row[up - 1], row);
		if (READ_ONCE(fd->up_row[0]) == -FLASH_PAIR_ROW &&
		    (READ_ONCE(fd->up_row[1]) == FLASH_PAIR_ROW ||
		     flash_mutant(PAIR_ONE_SIDED)))
			WRITE_ONCE(fd->pair_due, true);
	}
	was = READ_ONCE(*avg);
	WRITE_ONCE(*avg, was ? (3 * was + us) / 4 : us);
}

/*
 * Is the card's erase block twice erase_size?  Then writes that switch up
 * from an even segment into the one right above continue an erase block
 * the card has open and cost what a stay does, and those from an odd
 * segment open another erase block and cost a merge (flash_timed_done():
 * FLASH_PAIR_ROW of each in a row).  erase_size is then doubled and the
 * queued writes re-filed, so that both halves of an erase block drain as
 * one segment, upwards: each half apart is a segment whose busiest-first
 * turn comes in any order, and the card copies the block whenever its
 * upper half goes before the lower.  At most once, from the size set
 * (erase_set), and only from a power of two: at 1.5 times the card's
 * erase block, the segments pair up the same way (two segments are three
 * erase blocks), and doubling would make them three times as large.
 * Only with one open segment (a card that keeps few open).
 */
static void __flash_pair(struct flash_data *fd)
{
	if (!READ_ONCE(fd->pair_due) || flash_mutant(NO_PAIRING))
		return;
	WRITE_ONCE(fd->pair_due, false);
	if (fd->geom.erase_sectors != fd->erase_set ||
	    !is_power_of_2(fd->erase_set) || fd->open_segments > 1 ||
	    (u64)fd->erase_set * 2 > FLASH_ERASE_MAX >> FLASH_SECTOR_SHIFT)
		return;
	fd->geom.erase_sectors *= 2;
	fd->stats.pairings++;
	flash_regroup(fd);
}

/*
 * The next write to dispatch, or NULL if there is none or the writes must
 * wait for open_segments or write_depth.  Drains the active segment
 * upwards from the cursor until nothing is left above it, its budget is
 * spent while other segments wait, or another segment holds an expired
 * write and no sweep is on.  A sweep starts when a write goes while the
 * oldest is overdue and lasts while writes stay overdue: it drains each
 * segment in turn, in index order (__flash_choose_seg()), so that an
 * overloaded queue costs a linear-only card an erase block per segment
 * and pass, not one per expired write.  Writes held back by write_depth
 * stay queued and grow by merging while the card works: fewer, larger
 * commands.
 *
 * A writer that keeps two writes outstanding falls into sending them one
 * by one: each time its write finishes, its other write is alone in the
 * segment and goes, and the next one arrives too late to merge.  So if the
 * previously active segment's next write is at least twice as large, that
 * one goes first, and the small write gets a command's time to grow.  Only
 * the last two segments take turns: the card still has both open.
 */
static struct request *__flash_next_write(struct flash_data *fd, bool write_due)
{
	struct flash_segment *seg, *prev = NULL;
	struct request *rq = NULL, *alt;
	struct flash_slot *slot;
	bool resumes;

	if (list_empty(&fd->write_fifo))
		return NULL;
	__flash_pair(fd);
	seg = fd->active;
	if (seg && seg->nr_rqs &&
	    !(__flash_budget_spent(fd) && fd->nr_busy_segs > 1)) {
		struct request *oldest = list_first_entry(&fd->write_fifo,
							  struct request, queuelist);

		if (!write_due || fd->sweep || flash_rq_seg(oldest) == seg)
			rq = flash_seg_ceiling(seg, fd->cursor);
	}
	if (rq && !write_due && !__flash_budget_spent(fd)) {
		alt = __flash_prev_ceiling(fd, &prev);
		if (alt && blk_rq_sectors(alt) >= 2 * blk_rq_sectors(rq) &&
		    __flash_open_slot(fd, prev, fd->open_segments)) {
			rq = alt;
			seg = prev;
		}
	}
	if (!rq) {
		seg = __flash_choose_seg(fd, write_due, &rq);
		if (WARN_ON_ONCE(!seg) || __flash_hold_third(fd, seg, write_due))
			goto wait;
		if (!rq && seg == fd->active)
			rq = flash_seg_ceiling(seg, fd->cursor);
		if (!rq)
			rq = rb_entry_rq(rb_first(&seg->sort));
	}
	if (flash_mutant(FIFO_WRITES)) {
		rq = list_first_entry(&fd->write_fifo, struct request, queuelist);
		seg = flash_rq_seg(rq);
	}
	/* a write that resumes the previous segment reopens it beside the active */
	resumes = !write_due && __flash_resumes_prev(fd, seg, rq);
	slot = __flash_open_slot(fd, seg, fd->open_segments + resumes);
	if (!slot || (!write_due && __flash_write_wait(fd, seg, rq)))
		goto wait;
	if (fd->open_segments == 1 && !write_due && !resumes &&
	    atomic_read(&slot->inflight) && !__flash_may_join(fd, seg, rq))
		goto wait;
	if (fd->open_segments > 1 && !write_due) {
		rq = __flash_grown_write(fd, &seg, &slot, rq);
		if (!rq)
			goto wait;
	}
	__flash_time_write(fd, seg, rq);
	__flash_activate(fd, seg);

	fd->sweep = write_due && !flash_mutant(NO_SWEEP);
	if (flash_rq_expired(rq))
		fd->stats.expired_writes++;
	__flash_remove(fd, rq);
	if (!flash_mutant(SLOT_AT_DISPATCH)) {
		atomic_inc(&slot->inflight);
		rq->elv.priv[1] = slot;
	}
	slot->end = blk_rq_pos(rq) + blk_rq_sectors(rq);
	fd->cursor = blk_rq_pos(rq) + blk_rq_sectors(rq);
	fd->budget_used += blk_rq_sectors(rq);
	if (fd->interleave_left)
		fd->interleave_left--;
	fd->stats.dispatched_writes++;
	return rq;
wait:
	return NULL;
}

static struct request *__flash_take_read(struct flash_data *fd, struct request *rq)
{
	if (flash_rq_expired(rq))
		fd->stats.expired_reads++;
	__flash_remove(fd, rq);
	fd->stats.dispatched_reads++;
	fd->last_was_read = true;
	return rq;
}

/* Dispatch the oldest discard, secure erase, write zeroes or unsorted write. */
static struct request *__flash_take_other(struct flash_data *fd, struct request *rq)
{
	if (flash_rq_expired(rq))
		fd->stats.expired_writes++;
	__flash_remove(fd, rq);
	fd->stats.dispatched_other++;
	fd->last_was_read = false;
	return rq;
}

/*
 * Order of service: the dispatch list; then reads, oldest first, unless
 * the oldest write (or discard) has expired and the last request was a
 * read (then reads and writes alternate), or the oldest read has expired
 * as well; then discards, secure erases, write zeroes and unsorted writes,
 * oldest first, unless the oldest sorted write expired; then writes by
 * segment.  *held is set if queued writes must wait.
 */
static struct request *__flash_dispatch(struct flash_data *fd, bool *held)
{
	struct request *rq, *read, *other;
	bool write_due, other_due;

	lockdep_assert_held(&fd->lock);
	rq = list_first_entry_or_null(&fd->dispatch, struct request, queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		fd->stats.dispatched_other++;
		return rq;
	}

	read = list_first_entry_or_null(&fd->read_fifo, struct request, queuelist);
	other = list_first_entry_or_null(&fd->other_fifo, struct request, queuelist);
	rq = list_first_entry_or_null(&fd->write_fifo, struct request, queuelist);
	write_due = rq && flash_rq_expired(rq) && !flash_mutant(NO_WRITE_DEADLINE);
	other_due = other && flash_rq_expired(other) && !flash_mutant(NO_WRITE_DEADLINE);
	if (read && !flash_mutant(READS_NOT_FIRST) &&
	    (!(write_due || other_due) || !fd->last_was_read || flash_rq_expired(read)))
		return __flash_take_read(fd, read);
	if (other && !write_due)
		return __flash_take_other(fd, other);

	rq = __flash_next_write(fd, write_due);
	if (rq) {
		fd->last_was_read = false;
		return rq;
	}
	*held = !list_empty(&fd->write_fifo);
	if (read)
		return __flash_take_read(fd, read);
	if (other)
		return __flash_take_other(fd, other);
	return NULL;
}

/*
 * Called from blk_mq_run_hw_queue() -> __blk_mq_sched_dispatch_requests().
 *
 * When only held writes are left, writes_held makes has_work() say no, so
 * the core does not poll; whatever releases them runs the queue.  A write
 * may finish between the decision and the flag: the flag is set, then the
 * decision taken again (the barrier pairs with flash_finish_request()).
 */
static struct request *flash_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct flash_data *fd = hctx->queue->elevator->elevator_data;
	struct request *rq;
	bool held = false;

	spin_lock(&fd->lock);
	rq = __flash_dispatch(fd, &held);
	if (!rq && held) {
		WRITE_ONCE(fd->writes_held, true);
		smp_mb();	/* the flag, then the slots: see flash_finish_request() */
		rq = __flash_dispatch(fd, &held);
		if (!rq)
			fd->stats.held_back++;
	}
	spin_unlock(&fd->lock);

	if (rq)
		rq->rq_flags |= RQF_STARTED;
	return rq;
}

/* Lockless, any context: true if dispatch would return a request. */
static bool flash_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct flash_data *fd = hctx->queue->elevator->elevator_data;

	return !list_empty_careful(&fd->dispatch) ||
	       !list_empty_careful(&fd->read_fifo) ||
	       !list_empty_careful(&fd->other_fifo) ||
	       (!list_empty_careful(&fd->write_fifo) && !READ_ONCE(fd->writes_held));
}

static void __flash_insert(struct flash_data *fd, struct request *rq,
			   flash_insert_t flags)
{
	struct request_queue *q = fd->queue;
	enum req_op op = req_op(rq);

	lockdep_assert_held(&fd->lock);
	trace_block_rq_insert(rq);
	fd->stats.inserted++;

	/* requeued requests; passthrough and flush never come here */
	if (flash_insert_at_head(flags) || WARN_ON_ONCE(blk_rq_is_passthrough(rq))) {
		list_add(&rq->queuelist, &fd->dispatch);
		return;
	}
	if (op != REQ_OP_READ && op != REQ_OP_WRITE) {
		/* discard, secure erase, write zeroes: a write's deadline, no merges */
		rq->fifo_time = jiffies + fd->write_expire;
		list_add_tail(&rq->queuelist, &fd->other_fifo);
		return;
	}

	if (op == REQ_OP_READ) {
		elv_rb_add(&fd->read_sort, rq);
		rq->fifo_time = jiffies + fd->read_expire;
		list_add_tail(&rq->queuelist, &fd->read_fifo);
	} else if (__flash_add_write(fd, rq)) {
		if (flash_rq_seg(rq) == fd->active ||
		    __flash_is_prev(fd, flash_rq_seg(rq))) {
			/* a hold that paid (__flash_hold_third()) */
			if ((fd->hold_until && flash_rq_seg(rq) != fd->active) ||
			    flash_mutant(HOLD_MISS_ANY))
				fd->hold_misses = 0;
			/* a third segment's hold starts again */
			fd->hold_until = 0;
		}
		if (list_empty(&fd->write_fifo))
			fd->burst_start_ns = ktime_get_ns();
		__flash_note_interleave(fd, rq);
		__flash_note_continued(fd, rq);
		rq->fifo_time = jiffies + fd->write_expire;
		list_add_tail(&rq->queuelist, &fd->write_fifo);
	} else {
		rq->fifo_time = jiffies + fd->write_expire;
		__flash_add_unsorted(fd, rq);
		return;
	}
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
}

static void flash_insert_requests(struct blk_mq_hw_ctx *hctx,
				  struct list_head *list, flash_insert_t flags)
{
	struct flash_data *fd = hctx->queue->elevator->elevator_data;

	spin_lock(&fd->lock);
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request, queuelist);

		list_del_init(&rq->queuelist);
		__flash_insert(fd, rq, flags);
	}
	/* a new request may be dispatchable while the others wait */
	WRITE_ONCE(fd->writes_held, false);
	spin_unlock(&fd->lock);
}

/* Callback from inside blk_mq_rq_ctx_init(). */
static void flash_prepare_request(struct request *rq)
{
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
}

/*
 * Callback from blk_mq_free_request(), possibly in interrupt context: only
 * atomics and writes_held are touched.  A requeued write keeps its slot:
 * it is still outstanding and finishes here later.
 */
static void flash_finish_request(struct request *rq)
{
	struct flash_slot *slot = flash_rq_slot(rq);
	struct flash_data *fd;
	u64 now;

	if (!slot)
		return;
	fd = rq->q->elevator->elevator_data;
	rq->elv.priv[1] = NULL;
	now = ktime_get_ns();
	flash_timed_done(fd, rq, now);
	atomic64_set(&fd->write_done_ns, now);
	atomic64_set(&slot->done_ns, now);
	atomic_dec(&slot->inflight);
	/* pairs with the barrier in flash_dispatch_request() */
	smp_mb__after_atomic();
	if (READ_ONCE(fd->writes_held))
		flash_release_writes(fd);
}

/*
 * May [a, a_end) and [b, b_end), adjacent in that order, become one request
 * in direction @rq?  The core asks about neighbours that are not adjacent
 * too (its last_merge hint, sort-tree neighbours); those cannot merge and
 * are neither refused nor counted.  A write @rq that breaks the page rule
 * already (a bio that crosses a page, or bios merged in the submitter's
 * plug, which the core does not ask about) may grow within its erase
 * block: refusing keeps it small, and a card that charges for crossing a
 * page charges small writes most (the Toshiba eMMC of flash-model.md).
 */
static bool __flash_merge_ok(struct flash_data *fd, struct request *rq,
			     u64 a, u64 a_end, u64 b, u64 b_end)
{
	struct flash_geom g = fd->geom;
	bool write = rq_data_dir(rq) == WRITE;

	if (a_end != b)
		return true;
	if (flash_mutant(NO_ERASE_MERGE))
		g.erase_sectors = 1u << 31;
	if (flash_mutant(NO_PAGE_RULE))
		write = false;
	if (flash_mutant(NO_SUBPAGE_RULE) && write && b_end - a < g.page_sectors &&
	    fd->split != FLASH_SPLIT_POW2)
		return flash_first_piece(&g, FLASH_SPLIT_PAGE, a, b_end - a) == b_end - a;
	if (flash_range_ok(&g, fd->split, write, a, b_end - a))
		return true;
	if (flash_mutant(NO_PAGE_HEDGE) && write && b_end - a >= g.page_sectors &&
	    fd->split != FLASH_SPLIT_POW2 &&
	    flash_first_piece(&g, FLASH_SPLIT_PAGE, a, b_end - a) == b_end - a)
		return true;
	if (write && !flash_mutant(CROSSING_STAYS) &&
	    !flash_range_ok(&g, fd->split, write, blk_rq_pos(rq),
			    blk_rq_sectors(rq)) &&
	    !flash_crosses_erase(&g, a, b_end - a))
		return true;
	fd->stats.merges_refused++;
	return false;
}

/* bio -> request merges; called under fd->lock via blk_mq_sched_try_merge(). */
static bool flash_allow_merge(struct request_queue *q, struct request *rq,
			      struct bio *bio)
{
	struct flash_data *fd = q->elevator->elevator_data;
	u64 pos = blk_rq_pos(rq), end = pos + blk_rq_sectors(rq);
	u64 bpos = bio->bi_iter.bi_sector, bend = bio_end_sector(bio);

	if (bpos < pos)
		return __flash_merge_ok(fd, rq, bpos, bend, pos, end);
	return __flash_merge_ok(fd, rq, pos, end, bpos, bend);
}

/*
 * Request -> request merges do not ask allow_merge: offer a neighbour only
 * if the merged request would be acceptable.
 */
static struct request *flash_former_request(struct request_queue *q,
					    struct request *rq)
{
	struct flash_data *fd = q->elevator->elevator_data;
	struct request *prev = elv_rb_former_request(q, rq);

	if (prev && !__flash_merge_ok(fd, rq, blk_rq_pos(prev),
				      blk_rq_pos(prev) + blk_rq_sectors(prev),
				      blk_rq_pos(rq), blk_rq_pos(rq) + blk_rq_sectors(rq)))
		return NULL;
	return prev;
}

static struct request *flash_next_request(struct request_queue *q,
					  struct request *rq)
{
	struct flash_data *fd = q->elevator->elevator_data;
	struct request *next = elv_rb_latter_request(q, rq);

	if (next && !__flash_merge_ok(fd, rq, blk_rq_pos(rq),
				      blk_rq_pos(rq) + blk_rq_sectors(rq),
				      blk_rq_pos(next), blk_rq_pos(next) + blk_rq_sectors(next)))
		return NULL;
	return next;
}

/* Front merge lookup: a queued request that starts where @bio ends. */
static int flash_request_merge(struct request_queue *q, struct request **rqp,
			       struct bio *bio)
{
	struct flash_data *fd = q->elevator->elevator_data;
	sector_t end = bio_end_sector(bio);
	struct flash_segment *seg;
	struct rb_root *root = &fd->read_sort;
	struct request *rq;

	if (bio_data_dir(bio) == WRITE) {
		seg = __flash_find_seg(fd, flash_seg_index(&fd->geom, end));
		if (!seg)
			return ELEVATOR_NO_MERGE;
		root = &seg->sort;
	}
	rq = elv_rb_find(root, end);
	if (rq && elv_bio_merge_ok(rq, bio)) {
		*rqp = rq;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

/* A bio was merged into @rq; a front merge moved its start. */
static void flash_request_merged(struct request_queue *q, struct request *rq,
				 enum elv_merge type)
{
	struct flash_data *fd = q->elevator->elevator_data;
	struct flash_segment *seg = flash_rq_seg(rq);
	struct rb_root *root = seg ? &seg->sort : &fd->read_sort;

	lockdep_assert_held(&fd->lock);
	if (type == ELEVATOR_FRONT_MERGE) {
		elv_rb_del(root, rq);
		elv_rb_add(root, rq);
	}
	/*
	 * The write at the cursor may be waiting for its writer's next write
	 * (__flash_write_wait()): this was it, so decide again.  Only that
	 * write is timed: other merges cost nothing more.
	 */
	if (type == ELEVATOR_BACK_MERGE && seg && seg == fd->active &&
	    blk_rq_pos(rq) == fd->cursor) {
		fd->grown_rq = rq;
		fd->grown_ns = ktime_get_ns();
		__flash_note_continued(fd, rq);
		if (hrtimer_is_queued(&fd->wait_timer))
			flash_release_writes(fd);
	} else if (type == ELEVATOR_BACK_MERGE && seg && READ_ONCE(fd->writes_held) &&
		   __flash_resumes_prev(fd, seg, rq)) {
		/* it may go beside the write in flight now */
		flash_release_writes(fd);
	} else if (type == ELEVATOR_BACK_MERGE && seg && fd->open_segments > 1 &&
		   hrtimer_is_queued(&fd->wait_timer)) {
		/* it may be a write that __flash_grow_until() holds */
		flash_release_writes(fd);
	}
}

/* @next was merged into @rq and will be freed. */
static void flash_requests_merged(struct request_queue *q, struct request *rq,
				  struct request *next)
{
	struct flash_data *fd = q->elevator->elevator_data;
	struct flash_segment *seg = flash_rq_seg(rq);

	lockdep_assert_held(&fd->lock);
	/* rq inherits the earlier deadline and fifo position */
	if (time_before((unsigned long)next->fifo_time, (unsigned long)rq->fifo_time)) {
		list_move(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	/* next's bytes now belong to rq, counted in rq's segment */
	if (seg && !WARN_ON_ONCE(flash_rq_seg(next) != seg))
		__flash_seg_account(fd, seg, blk_rq_bytes(next), 0);
	__flash_remove(fd, next);
}

/*
 * A piece of a split write completed: pass its status to the rest of the
 * write (which holds a count for it, bio_inc_remaining()) and let it go.
 * The piece's count is dropped last: module exit waits for it.
 */
static void flash_piece_endio(struct bio *piece)
{
	struct bio *rest = piece->bi_private;

	if (piece->bi_status && !rest->bi_status)
		rest->bi_status = piece->bi_status;
	bio_put(piece);
	bio_endio(rest);
	if (atomic_dec_and_test(&flash_pieces))
		wake_up_var(&flash_pieces);
}

/*
 * Cut the write @bio so that its first @sectors go down as a piece of their
 * own, never merged, and the rest is submitted again (and cut again if
 * needed).  The piece was accounted and throttled as part of @bio, which
 * the core already did: it is not counted twice.  Consumes @bio and
 * returns true, or false if the split failed and @bio should be queued
 * whole.
 */
static bool flash_split_bio(struct flash_data *fd, struct bio *bio,
			    unsigned int sectors)
{
	struct bio *piece = bio_split(bio, sectors, GFP_NOIO, &flash_bio_set);

	if (IS_ERR_OR_NULL(piece))
		return false;
	atomic_inc(&flash_pieces);
	piece->bi_opf |= REQ_NOMERGE;
	bio_clear_polled(piece);
	bio_clear_polled(bio);
	if (bio_flagged(bio, BIO_CGROUP_ACCT))
		bio_set_flag(piece, BIO_CGROUP_ACCT);
	if (bio_flagged(bio, BIO_BPS_THROTTLED))
		bio_set_flag(piece, BIO_BPS_THROTTLED);
	flash_bio_issue_init(piece);
	piece->bi_private = bio;
	piece->bi_end_io = flash_piece_endio;
	bio_inc_remaining(bio);
	trace_block_split(piece, bio->bi_iter.bi_sector);

	spin_lock(&fd->lock);
	fd->stats.splits++;
	spin_unlock(&fd->lock);
	submit_bio_noacct(piece);
	submit_bio_noacct(bio);
	return true;
}

/* How many sectors of @bio to cut off first, or 0 to leave it whole. */
static unsigned int __flash_split_len(struct flash_data *fd, struct bio *bio)
{
	u64 n;

	if (flash_mutant(NO_SPLIT) ||
	    bio_op(bio) != REQ_OP_WRITE || fd->split == FLASH_SPLIT_OFF ||
	    !bio_sectors(bio) || (bio->bi_opf & FLASH_REQ_NOSPLIT) ||
	    bio_integrity(bio))
		return 0;
	n = flash_first_piece(&fd->geom, fd->split, bio->bi_iter.bi_sector,
			      bio_sectors(bio));
	return n < bio_sectors(bio) ? n : 0;
}

/*
 * Called from blk_mq_submit_bio() for every mergeable bio not merged in the
 * plug.  A write that merges into a queued request (allow_merge decides
 * whether the result is acceptable) stays whole; one that does not is cut
 * to the card's geometry here.
 */
static bool flash_bio_merge(struct request_queue *q, struct bio *bio,
			    unsigned int nr_segs)
{
	struct flash_data *fd = q->elevator->elevator_data;
	unsigned int bytes = bio->bi_iter.bi_size;
	sector_t pos = bio->bi_iter.bi_sector;
	struct request *free = NULL;
	unsigned int cut = 0;
	bool merged;

	spin_lock(&fd->lock);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	if (merged && bio_op(bio) == REQ_OP_WRITE) {
		struct flash_segment *seg;

		seg = __flash_find_seg(fd, flash_seg_index(&fd->geom, pos));
		if (!WARN_ON_ONCE(!seg))
			__flash_seg_account(fd, seg, bytes, 0);
	} else if (!merged) {
		cut = __flash_split_len(fd, bio);
	}
	spin_unlock(&fd->lock);

	if (free)
		blk_mq_free_request(free);
	if (cut)
		return flash_split_bio(fd, bio, cut);
	return merged;
}

/* Free every segment, in the tree and in the pool. */
static void flash_free_segs(struct flash_data *fd)
{
	struct flash_segment *seg, *tmp;

	rbtree_postorder_for_each_entry_safe(seg, tmp, &fd->segments, node)
		kmem_cache_free(flash_seg_cache, seg);
	list_for_each_entry_safe(seg, tmp, &fd->free_segs, free)
		kmem_cache_free(flash_seg_cache, seg);
}

/*
 * Set up flash on @q with @eq, the elevator_queue for it.  Called from
 * elevator_switch() with the queue frozen: allocations must not recurse
 * into I/O on it (GFP_NOIO scope).  On failure the caller frees @eq.
 */
static int flash_init_data(struct request_queue *q, struct elevator_queue *eq)
{
	struct flash_data *fd;
	unsigned int noio;
	int ret = -ENOMEM;

	if (blk_queue_is_zoned(q)) {
		pr_warn("flash: %s is a zoned device; flash only schedules conventional devices\n",
			q->disk ? q->disk->disk_name : "queue");
		return -EOPNOTSUPP;
	}

	noio = memalloc_noio_save();
	fd = kzalloc_node(sizeof(*fd), GFP_KERNEL, q->node);
	if (!fd)
		goto restore;
	eq->elevator_data = fd;

	fd->queue = q;
	spin_lock_init(&fd->lock);
	INIT_LIST_HEAD(&fd->dispatch);
	INIT_LIST_HEAD(&fd->read_fifo);
	INIT_LIST_HEAD(&fd->write_fifo);
	INIT_LIST_HEAD(&fd->other_fifo);
	INIT_LIST_HEAD(&fd->free_segs);
	fd->read_sort = RB_ROOT;
	fd->segments = RB_ROOT;
	fd->busy = RB_ROOT_CACHED;
	fd->lone_pos = U64_MAX;
	flash_hrtimer_setup(&fd->wait_timer, flash_wait_timer_fn,
			    CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	flash_set_defaults(fd, q);
	if (!flash_grow_segs(fd, q->nr_requests))
		goto free_segs;
	fd->limits = flash_limits_attach(q, fd->geom.erase_sectors);
	if (!fd->limits)
		pr_warn("flash: %s: erase blocks enforced by merges only, not chunk_sectors\n",
			q->disk ? q->disk->disk_name : "queue");
	memalloc_noio_restore(noio);

	/* one set of queues for the whole device, whatever the hctx */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	flash_init_async_depth(q);
	flash_wbt_off(eq, q);
	q->elevator = eq;
	return 0;

free_segs:
	flash_free_segs(fd);
	kfree(fd);
	eq->elevator_data = NULL;
restore:
	memalloc_noio_restore(noio);
	return ret;
}

#ifdef FLASH_HAVE_INIT_SCHED_EQ
/* The core allocated @eq, and frees it if this fails. */
static int flash_init_sched(struct request_queue *q, struct elevator_queue *eq)
{
	return flash_init_data(q, eq);
}
#else
static int flash_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	unsigned int noio;
	int ret;

	noio = memalloc_noio_save();
	eq = elevator_alloc(q, e);
	memalloc_noio_restore(noio);
	if (!eq)
		return -ENOMEM;
	ret = flash_init_data(q, eq);
	if (ret)
		kobject_put(&eq->kobj);
	return ret;
}
#endif

/* The queue is frozen: nothing is queued or in flight. */
static void flash_exit_sched(struct elevator_queue *e)
{
	struct flash_data *fd = e->elevator_data;

	hrtimer_cancel(&fd->wait_timer);
	if (fd->limits)
		flash_limits_detach(fd->limits);
	flash_wbt_restore(e, fd->queue);

	WARN_ON_ONCE(!list_empty(&fd->dispatch));
	WARN_ON_ONCE(!list_empty(&fd->read_fifo));
	WARN_ON_ONCE(!list_empty(&fd->write_fifo));
	WARN_ON_ONCE(!list_empty(&fd->other_fifo));
	flash_free_segs(fd);
	kfree(fd);
}

/*
 * Writes and async reads may take three quarters of the scheduler tags:
 * a writeback flood that holds every tag would make a sync read sleep in
 * tag allocation before flash ever sees it.  Called from
 * blk_mq_get_new_requests() -> __blk_mq_alloc_requests().
 */
static void flash_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct flash_data *fd = data->q->elevator->elevator_data;

	if ((op_is_sync(opf) && !op_is_write(opf)) || flash_mutant(NO_LIMIT_DEPTH))
		return;
	data->shallow_depth = READ_ONCE(fd->async_depth);
}

/* @hctx's scheduler tags have a new depth: follow it. */
static void flash_set_async_depth(struct blk_mq_hw_ctx *hctx)
{
	struct flash_data *fd = hctx->queue->elevator->elevator_data;
	struct blk_mq_tags *tags = hctx->sched_tags;

	WRITE_ONCE(fd->async_depth, flash_async_depth(hctx->queue, tags->nr_tags));
	sbitmap_queue_min_shallow_depth(&tags->bitmap_tags, fd->async_depth);
}

/* Called from blk_mq_init_sched() for each hctx, after flash_init_sched(). */
static int flash_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	flash_set_async_depth(hctx);
	return 0;
}

/*
 * nr_requests changed (blk_mq_update_nr_requests(), queue frozen; 6.12
 * stores the new q->nr_requests only after this, 7.3 before), or, since
 * 7.0, queue/async_depth did: more writes may be queued, so the segment
 * pool grows to @hctx's new tag depth.
 */
static void flash_hctx_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct flash_data *fd = hctx->queue->elevator->elevator_data;

	flash_set_async_depth(hctx);
	if (!flash_grow_segs(fd, hctx->sched_tags->nr_tags))
		pr_warn("flash: %s: no memory for segments; some writes will be queued unsorted\n",
			hctx->queue->disk ? hctx->queue->disk->disk_name : "queue");
}

#ifdef FLASH_HAVE_DEPTH_UPDATED_Q
static void flash_depth_updated(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	queue_for_each_hw_ctx(q, hctx, i)
		flash_hctx_depth_updated(hctx);
}
#else
static void flash_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	flash_hctx_depth_updated(hctx);
}
#endif

static struct elevator_type flash_sched = {
	.ops = {
		.insert_requests	= flash_insert_requests,
		.dispatch_request	= flash_dispatch_request,
		.prepare_request	= flash_prepare_request,
		.finish_request		= flash_finish_request,
		.requeue_request	= flash_mutant(REQUEUE_RELEASES) ?
					  flash_finish_request : NULL,
		.next_request		= flash_next_request,
		.former_request		= flash_former_request,
		.bio_merge		= flash_bio_merge,
		.allow_merge		= flash_allow_merge,
		.request_merge		= flash_request_merge,
		.request_merged		= flash_request_merged,
		.requests_merged	= flash_requests_merged,
		.has_work		= flash_has_work,
		.depth_updated		= flash_depth_updated,
		.limit_depth		= flash_limit_depth,
		.init_hctx		= flash_init_hctx,
		.init_sched		= flash_init_sched,
		.exit_sched		= flash_exit_sched,
	},
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = flash_queue_debugfs_attrs,
#endif
	.elevator_attrs = flash_attrs,
	.elevator_name = "flash",
	.elevator_owner = THIS_MODULE,
};
MODULE_ALIAS("flash-iosched");

static int __init flash_init(void)
{
	int ret = -ENOMEM;

	flash_seg_cache = KMEM_CACHE(flash_segment, 0);
	if (!flash_seg_cache)
		return ret;
	ret = bioset_init(&flash_bio_set, BIO_POOL_SIZE, 0, 0);
	if (ret)
		goto destroy_cache;
	ret = flash_limits_init();
	if (ret)
		goto exit_bioset;
	ret = elv_register(&flash_sched);
	if (ret)
		goto exit_limits;
	return 0;

exit_limits:
	flash_limits_exit();
exit_bioset:
	bioset_exit(&flash_bio_set);
destroy_cache:
	kmem_cache_destroy(flash_seg_cache);
	return ret;
}

static void __exit flash_exit(void)
{
	elv_unregister(&flash_sched);
	flash_limits_exit();
	/* split pieces may still be on their way after the last detach */
	wait_var_event(&flash_pieces, !atomic_read(&flash_pieces));
	bioset_exit(&flash_bio_set);
	kmem_cache_destroy(flash_seg_cache);
}

module_init(flash_init);
module_exit(flash_exit);

MODULE_AUTHOR("The flash scheduler authors");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("I/O scheduler for cheap flash: erase-block aware write ordering");
