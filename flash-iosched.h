/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash I/O scheduler: shared definitions.
 *
 * The geometry helpers in the first half are pure functions of their
 * arguments and compile in userspace too (tests/unit/test-geometry.c), so
 * keep them free of kernel-only dependencies.  Everything kernel-only sits
 * under __KERNEL__ below.
 *
 * All positions and lengths are in 512-byte sectors and absolute on the
 * whole disk (bios reach the scheduler after partition remapping), so a
 * partition that starts inside an erase block is handled.
 */
#ifndef FLASH_IOSCHED_H
#define FLASH_IOSCHED_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/gcd.h>
#include <linux/math64.h>
#else
#include <stdbool.h>
#include <linux/types.h>
typedef __u32 u32;
typedef __u64 u64;

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}
#endif

#define FLASH_SECTOR_SHIFT	9

/* Limits and defaults of the tunables, in the units users see. */
#define FLASH_PAGE_MAX		(1024u * 1024)		/* bytes */
#define FLASH_ERASE_MAX		(256u * 1024 * 1024)	/* bytes */
#define FLASH_ERASE_MIN_HINT	(128u * 1024)		/* smallest device hint taken */
#define FLASH_PAGE_MIN_HINT	4096u			/* smallest device hint taken */
#define FLASH_DEFAULT_PAGE	(16u * 1024)		/* bytes */
#define FLASH_DEFAULT_ERASE	(4u * 1024 * 1024)	/* bytes */
#define FLASH_EXPIRE_MAX_MS	600000u
#define FLASH_MAX_OPEN		16u
#define FLASH_MAX_WRITE_DEPTH	256u
#define FLASH_WRITE_WAIT_MAX_US	10000000u
#define FLASH_INTERLEAVE_WRITES	1024u	/* writes that write_wait_us covers */
#define FLASH_LONE_MISSES	2u	/* lone waits in a row in vain: stop */
#define FLASH_HOLD_WAITS	5u	/* a third segment's hold, in write_wait_us */
#define FLASH_HOLD_MISSES	16u	/* holds in a row in vain: stop... */
#define FLASH_HOLD_PROBE	8u	/* ...but for one in this many */
#define FLASH_TIMED_SECTORS	128u	/* the largest write timed (64 KiB) */
#define FLASH_GOON_ROW		2	/* go-ons timed dear (or not) in a row... */
#define FLASH_GOON_DEAR		4u	/* ...each at this many times a stay... */
#define FLASH_GOON_PROBE	32u	/* ...then one in this many goes on anyway */
#define FLASH_PAIR_ROW		2	/* up-switches timed in a row: pair segments */

/* How writes are cut before they are queued (the "split" attribute). */
enum flash_split {
	FLASH_SPLIT_OFF,	/* only at erase-block boundaries */
	FLASH_SPLIT_PAGE,	/* an unaligned write is cut at its first page boundary */
	FLASH_SPLIT_POW2,	/* naturally aligned power-of-two chunks in the erase block */
	FLASH_SPLIT_NR,
};

/* Flash geometry in sectors.  page_sectors is a power of two and divides erase_sectors. */
struct flash_geom {
	u32 page_sectors;
	u32 erase_sectors;
};

/* Index of the erase block ("segment") holding @sector. */
static inline u64 flash_seg_index(const struct flash_geom *g, u64 sector)
{
	u32 rem;

	return div_u64_rem(sector, g->erase_sectors, &rem);
}

/* Offset of @sector inside its erase block. */
static inline u32 flash_seg_offset(const struct flash_geom *g, u64 sector)
{
	u32 rem;

	div_u64_rem(sector, g->erase_sectors, &rem);
	return rem;
}

/*
 * What the two segments that take turns may write while a third waits:
 * an erase block each (a card that keeps two erase blocks open fills both
 * before it has to close one).
 */
static inline u64 flash_budget_sectors(const struct flash_geom *g)
{
	return 2 * (u64)g->erase_sectors;
}

/* True if [pos, pos + nr) spans more than one erase block. */
static inline bool flash_crosses_erase(const struct flash_geom *g, u64 pos, u64 nr)
{
	return flash_seg_offset(g, pos) + nr > g->erase_sectors;
}

/*
 * Length of the first piece of a write [pos, pos + nr) under @policy: the
 * longest prefix that is acceptable to the card as one command.  Returns nr
 * when the whole write conforms.  Requires nr > 0.
 *  - every policy: the piece ends at the erase-block boundary;
 *  - PAGE: a write that does not start page aligned ends at its first page
 *    boundary (aligned writes may cross pages);
 *  - POW2: the piece is the largest power of two that is naturally aligned
 *    relative to the erase block start.
 * An empty write (nr == 0) has an empty first piece.
 */
static inline u64 flash_first_piece(const struct flash_geom *g,
				    enum flash_split policy, u64 pos, u64 nr)
{
	u32 off = flash_seg_offset(g, pos);
	u32 in_page = off & (g->page_sectors - 1);
	u64 n = g->erase_sectors - off;

	if (!nr)
		return 0;
	if (nr < n)
		n = nr;
	switch (policy) {
	case FLASH_SPLIT_PAGE:
		if (in_page && in_page + n > g->page_sectors)
			n = g->page_sectors - in_page;
		break;
	case FLASH_SPLIT_POW2:
		/* n <= erase_sectors fits in 32 bits here */
		n = 1u << (fls((u32)n) - 1);
		if (off && (off & -off) < n)
			n = off & -off;
		break;
	default:
		break;
	}
	return n;
}

/*
 * True if a write [pos, pos + nr) may be built by merging.  Reads only
 * have to stay inside one erase block.  Merging never makes a write
 * non-conforming, even with split off; and a merged write shorter than a
 * page must be a naturally aligned power of two: some cards take many
 * times longer for a small write across one of their internal boundaries,
 * which can be finer than the page (8 KiB in the 32 KiB pages of a
 * Toshiba eMMC, about 115 ms instead of 3), and merges of small random
 * writes would build such writes.  Under the page rule (split off or
 * page), a merged write also crosses a boundary of twice the page only if
 * it starts on one: the page may be twice what it was told (the 16 KiB
 * default on a 32 KiB eMMC page), and a stream that starts between two
 * such boundaries would otherwise cross every real page it writes.
 */
static inline bool flash_range_ok(const struct flash_geom *g, enum flash_split policy,
				  bool write, u64 pos, u64 nr)
{
	struct flash_geom twice = *g;

	if (!write)
		return !flash_crosses_erase(g, pos, nr);
	if (nr < g->page_sectors)
		policy = FLASH_SPLIT_POW2;
	else if (policy == FLASH_SPLIT_OFF)
		policy = FLASH_SPLIT_PAGE;
	if (flash_first_piece(g, policy, pos, nr) != nr)
		return false;
	if (policy != FLASH_SPLIT_PAGE)
		return true;
	twice.page_sectors = 2 * g->page_sectors;
	return flash_first_piece(&twice, FLASH_SPLIT_PAGE, pos, nr) == nr;
}

/* What the device reports, in bytes; discard_granularity 0 without discard. */
struct flash_dev_limits {
	u32 logical_block;
	u32 physical_block;
	u32 io_min;
	u32 io_opt;
	u32 discard_granularity;
};

static inline bool flash_is_pow2(u32 x)
{
	return x && !(x & (x - 1));
}

/* page_size must be a power of two from the logical block size to 1 MiB. */
static inline bool flash_page_size_ok(u32 bytes, u32 logical_block)
{
	return flash_is_pow2(bytes) && bytes >= logical_block &&
	       bytes >= (1u << FLASH_SECTOR_SHIFT) && bytes <= FLASH_PAGE_MAX;
}

/* erase_size must be a multiple of page_size, at most 256 MiB. */
static inline bool flash_erase_size_ok(u32 bytes, u32 page_bytes)
{
	return bytes && page_bytes && bytes % page_bytes == 0 &&
	       bytes <= FLASH_ERASE_MAX;
}

/*
 * Default geometry from what the device reports:
 *  - erase: discard_granularity if it is a usable erase size (128 KiB to
 *    256 MiB, a multiple of the logical block), else io_opt likewise,
 *    else 4 MiB;
 *  - page: the larger of physical_block and io_min if that is a power of
 *    two of at least 4 KiB (and at most 1 MiB), else 16 KiB; then halved
 *    until it divides the erase size (never below the logical block).
 * If no page size fits the erase size, the erase size falls back to 4 MiB.
 */
static inline void flash_default_geometry(const struct flash_dev_limits *l,
					  u32 *page_bytes, u32 *erase_bytes)
{
	u32 lbs = l->logical_block ? l->logical_block : 512;
	u32 hints[2] = { l->discard_granularity, l->io_opt };
	u32 page = l->physical_block > l->io_min ? l->physical_block : l->io_min;
	u32 erase = FLASH_DEFAULT_ERASE;
	int i;

	for (i = 0; i < 2; i++) {
		if (hints[i] >= FLASH_ERASE_MIN_HINT && hints[i] <= FLASH_ERASE_MAX &&
		    hints[i] % lbs == 0) {
			erase = hints[i];
			break;
		}
	}
	if (page < FLASH_PAGE_MIN_HINT || !flash_page_size_ok(page, lbs))
		page = FLASH_DEFAULT_PAGE;
	if (page < lbs)
		page = lbs;
	while (erase % page && page / 2 >= lbs)
		page /= 2;
	if (erase % page)
		erase = FLASH_DEFAULT_ERASE;
	*page_bytes = page;
	*erase_bytes = erase;
}

/*
 * How many commands the device works on at once, as its driver tells the
 * block layer.  A device counts as parallel (UFS, SATA/NVMe SSDs, virtio)
 * if each hardware queue takes at least FLASH_PARALLEL_TAGS commands and
 * the driver never sleeps in queue_rq; the number of hardware queues does
 * not matter (the deep multi-queue devices pass anyway, and several
 * shallow queues are a serial device's software queues, as null_blk
 * emulating a card has).  Serial flash never qualifies: USB
 * mass storage takes one command, and the MMC driver, whose queue has 64
 * tags, sleeps (BLK_MQ_F_BLOCKING) while the card works on a command, so
 * that at most one more waits on it.  eMMC with command queueing uses the
 * same blocking driver and is not recognised: the udev rule raises its
 * tunables (its queue has fewer than the 64 tags of the serial one).
 */
#define FLASH_PARALLEL_TAGS	16u
#define FLASH_SERIAL_WRITE_DEPTH	2u

struct flash_dev_queue {
	u32 nr_hw_queues;
	u32 depth;			/* driver tags per hardware queue */
	bool blocking;			/* queue_rq may sleep */
};

static inline bool flash_dev_parallel(const struct flash_dev_queue *d)
{
	return !d->blocking && d->depth >= FLASH_PARALLEL_TAGS;
}

/*
 * Defaults of open_segments and write_depth.  A serial device gets one
 * open segment and two writes in flight (if it takes two): the card works
 * on one while the next is ready, so it does not idle for the host between
 * commands, and the writes that wait behind them merge.  With one open
 * segment the second write must continue the first upwards and have
 * company above it (see __flash_may_join()).  A parallel
 * device would be held to one command of the many it can work on, so
 * the limits go to the most writes it takes: write_depth to its tags (all
 * hardware queues), open_segments to FLASH_MAX_OPEN, so that random writes
 * spread over many erase blocks fill the queue too.
 */
static inline void flash_default_depths(const struct flash_dev_queue *d,
					u32 *open_segments, u32 *write_depth)
{
	u64 tags = (u64)d->depth * d->nr_hw_queues;

	*open_segments = 1;
	*write_depth = tags < FLASH_SERIAL_WRITE_DEPTH ? 1 : FLASH_SERIAL_WRITE_DEPTH;
	if (!flash_dev_parallel(d))
		return;
	*open_segments = FLASH_MAX_OPEN;
	*write_depth = tags < FLASH_MAX_WRITE_DEPTH ? (u32)tags :
		       FLASH_MAX_WRITE_DEPTH;
	if (!*write_depth)
		*write_depth = 1;
}

/*
 * The queue's chunk_sectors while flash is attached (all in sectors):
 * @driver the driver's own (0: none), @erase the erase size, @boundary the
 * device's atomic-write boundary (0: none), @max the largest request.  The
 * block core splits I/O at every multiple of chunk_sectors and never
 * merges across one, plug merges included, so the chunk must keep every
 * boundary of the driver's (and the atomic one) and should keep every
 * erase-block boundary:
 *  - the erase size, if it is a multiple of the driver's chunk (or there
 *    is none);
 *  - else their greatest common divisor, whose multiples are the
 *    boundaries of both, if it is at least @max: then no request that
 *    fits one erase block is cut more than it could be anyway;
 *  - else the driver's chunk, and flash's own merge checks are all that
 *    keeps requests inside erase blocks (plug merges are not checked).
 * The result must be a multiple of @boundary, or the driver's chunk stays.
 */
static inline u32 flash_chunk_target(u32 driver, u32 erase, u32 boundary, u32 max)
{
	u32 chunk = gcd(driver, erase);	/* the erase size if driver is 0 */

	if ((chunk != erase && chunk < max) || (boundary && chunk % boundary))
		return driver;
	return chunk;
}

#ifdef __KERNEL__
#include <linux/kconfig.h>

/*
 * Mutants (scripts/mutants, make mutants): a build with
 * -DFLASH_MUTANT_<NAME>=1 breaks one rule, to show that some test catches
 * it.  The normal build defines none, and these compile away.
 *  NO_ERASE_MERGE    merges may cross erase blocks
 *  NO_PAGE_RULE      merges may build writes that straddle pages
 *  NO_SUBPAGE_RULE   merges may build writes shorter than a page that are
 *                    not naturally aligned powers of two
 *  READS_NOT_FIRST   queued writes go before reads
 *  FIFO_WRITES       writes go in arrival order, not by segment
 *  NO_WRITE_DEADLINE writes never expire
 *  NO_SPLIT          the split attribute is ignored
 *  NO_OPEN_LIMIT     open_segments is ignored
 *  SLOT_AT_DISPATCH  a write leaves its slot when dispatched, not when done
 *  NO_LIMIT_DEPTH    writes may take every scheduler tag
 *  REQUEUE_RELEASES  a requeued write leaves its slot (and finishes again)
 *  BUDGET_PER_SEG    every segment switch starts a fresh budget
 *  STEP_BACK_IN_FLIGHT with one open segment, a write may step back in
 *                    it while another is in flight
 *  LONE_IN_FLIGHT    with one open segment, the last queued write of the
 *                    segment may go while another is in flight
 *  FAR_INTERLEAVE    a write any distance below the cursor counts as
 *                    interleaving
 *  WAIT_PAST_MERGE   a lone write waits out write_wait_us although its
 *                    writer's next write has merged into it
 *  BUSIEST_NOT_PREV  a drained segment is followed by the busiest other,
 *                    not by the previous one that can go on upwards
 *  FAR_COMPANY       a write anywhere above the write at the cursor
 *                    counts as its writer's next one
 *  CROSSING_STAYS    a write that breaks the page rule already may not
 *                    grow by merging
 *  EDGE_ALONE        a write that ends its erase block has no company in
 *                    the next one: a stream going on there waits
 *  NO_PAGE_HEDGE     a merged write may cross a boundary of twice the page
 *                    when it starts on a page boundary between two
 *  NO_GROW_HOLD      with several open segments, a write that would leave
 *                    its page part-written goes before its writer's next
 *                    write merges into it
 *  NEW_INSTEAD       while such a write grows, a segment not open yet may
 *                    go instead although open_segments are open
 *  LONE_NEVER_LEARNS a lone write waits however many waits in a row ran
 *                    out without its writer's next write
 *  TIES_GO_LOWEST    of segments with equal queued bytes, the lowest goes
 *                    next, not the one right above the active segment
 *  NO_THIRD_HOLD     a write that would open a third segment never waits
 *  HOLD_UNLEARNED    it waits whatever a switch has cost the card
 *  HOLD_MISS_ANY     any write to the active or previous segment makes
 *                    the holds pay, not only one to the previous segment
 *                    during a hold
 *  NO_SWEEP          while writes are overdue, each switch goes to the
 *                    oldest write's segment, not on to the next segment up
 *  PREV_WAITS        with one open segment, a write that resumes the
 *                    previous segment waits for the active one's write
 *  NO_GOON_GATE      the previous segment goes on however dear that is
 *  GOON_UNLEARNED    going on counts as dear whatever it has cost
 *  GOON_NOT_FORGOTTEN streams resuming the previous segment leave the
 *                    go-ons' cost as random writes learned it
 *  NO_PAIRING        erase_size is never doubled
 *  PAIR_ONE_SIDED    it is doubled on cheap up-switches from even
 *                    segments alone, whatever they cost from odd ones
 */
#define flash_mutant(name)	IS_ENABLED(FLASH_MUTANT_##name)

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "blk-mq-debugfs.h"

struct elevator_queue;
struct request_queue;
struct elv_fs_entry;

/* The writes queued for one erase block, sorted by sector. */
struct flash_segment {
	struct rb_node node;		/* in flash_data.segments, by index */
	struct rb_node busy_node;	/* in flash_data.busy while nr_rqs > 0 */
	struct list_head free;		/* in flash_data.free_segs while unused */
	u64 index;			/* erase block number on the whole disk */
	struct rb_root sort;		/* queued writes by sector (elv_rb) */
	unsigned int nr_rqs;
	u64 bytes;			/* queued bytes */
};

/*
 * An erase block with writes in flight.  A slot is free when inflight is
 * zero; it still names the last erase block that held it (index and gen,
 * end, done_ns) until another takes it (__flash_slot()).
 */
struct flash_slot {
	atomic_t inflight;		/* dispatched writes not yet finished */
	atomic64_t done_ns;		/* when one of them last finished */
	u64 index;			/* under flash_data.lock */
	u64 end;			/* under the lock: where the last dispatched one ended */
	unsigned int gen;		/* flash_data.gen when index was set */
};

/* Counters, under flash_data.lock; shown in debugfs "stats". */
struct flash_stats {
	u64 inserted;
	u64 dispatched_reads;
	u64 dispatched_writes;
	u64 dispatched_other;		/* discard, secure erase, write zeroes, at-head */
	u64 expired_reads;		/* dispatched past their deadline */
	u64 expired_writes;
	u64 merges_refused;
	u64 splits;
	u64 switches;			/* active segment changed */
	u64 held_back;			/* dispatch found only writes that must wait */
	u64 alloc_failures;		/* writes queued unsorted: no free segment */
	u64 interleaved;		/* a write arrived below the cursor, one in flight */
	u64 write_waits;		/* write dispatch waited for write_wait_us */
	u64 third_holds;		/* a third segment's write waited (new holds) */
	u64 third_hold_misses;		/* holds that ran out */
	u64 goon_skips;			/* go-ons not taken: dear (__flash_goon_dear()) */
	u64 goon_forgets;		/* their cost forgotten (__flash_goon_forget()) */
	u64 pairings;			/* erase_size doubled (__flash_pair()) */
};

/* Per-queue scheduler data, q->elevator->elevator_data. */
struct flash_data {
	struct request_queue *queue;

	spinlock_t lock;		/* everything below but the atomics */
	struct list_head dispatch;	/* sent first, in order: at-head (requeued) */
	struct list_head read_fifo;	/* queued reads, oldest first */
	struct rb_root read_sort;	/* queued reads by sector, for merges */
	struct list_head write_fifo;	/* queued writes, oldest first */
	/* discard, secure erase, write zeroes, writes without a segment */
	struct list_head other_fifo;	/* oldest first */
	struct rb_root segments;	/* flash_segment by index */
	/* segments with queued writes, most bytes first, then lowest index */
	struct rb_root_cached busy;
	struct list_head free_segs;	/* allocated, unused segments */
	unsigned int nr_segs;		/* segments allocated (used and free) */
	unsigned int nr_busy_segs;	/* segments with queued writes */
	struct flash_segment *active;	/* writes are drained from here */
	u64 cursor;			/* next sector expected in active */
	bool sweep;			/* writes overdue: segments go in index order */
	bool has_prev;			/* prev_index and prev_cursor are set */
	u64 prev_index;			/* the segment active before this one */
	u64 prev_cursor;		/* where writes to it stopped */
	/* sectors dispatched since a segment other than active and prev was chosen */
	u64 budget_used;
	bool last_was_read;
	u64 burst_start_ns;		/* when the oldest queued write's burst began */
	unsigned int interleave_left;	/* write_wait_us applies to this many writes */
	struct hrtimer wait_timer;	/* reruns the queue when a write_wait ends */
	u64 wait_until;			/* when the last wait started ends */
	atomic64_t write_done_ns;	/* when a write last finished */
	const struct request *grown_rq;	/* the write at the cursor a bio last merged into */
	u64 grown_ns;			/* and when */
	u64 lone_pos;			/* the lone write waited for (sector) */
	unsigned int lone_misses;	/* lone waits in a row that ran out */
	u64 hold_until;			/* a third segment's hold ends; 0: none */
	unsigned int hold_misses;	/* holds in a row in vain (ran out) */
	unsigned int hold_skips;	/* holds skipped since they stopped paying */
	/*
	 * Service times of small writes dispatched while no write was in
	 * flight (__flash_time_write()): the one being timed, when it went,
	 * the average it goes to; running averages in microseconds (0: none
	 * timed yet), the go-ons' row and gate and the up-switches' rows,
	 * written when a timed write finishes, in any context.
	 */
	const struct request *timed_rq;
	u64 timed_ns;
	unsigned int *timed_avg;
	unsigned int stay_us;		/* writes to the active segment */
	unsigned int switch_us;		/* writes that switched */
	unsigned int goon_us;		/* went on in the previous segment */
	int goon_row;			/* timed go-ons in a row: > 0 dear, < 0 not */
	bool goon_gated;		/* closed by a dear row, not opened since */
	unsigned int goon_probes;	/* decisions while go-ons were dear */
	unsigned int timed_up;		/* switches up: 1 from even, 2 from odd */
	int up_row[2];			/* up-switches in a row: even, odd */
	bool pair_due;			/* the rows say: double erase_size */
	/*
	 * Queued writes can only wait (open_segments, write_depth or a wait):
	 * has_work() says no until a write finishes, the wait timer fires, a
	 * request is inserted or a tunable changes; each of these clears it
	 * and runs the queue.  Lockless: set under lock, cleared anywhere.
	 */
	bool writes_held;
	unsigned int gen;		/* bumped when erase_size changes */
	struct flash_slot slots[FLASH_MAX_OPEN];
	struct flash_stats stats;

	/* tunables, changed through sysfs under lock */
	struct flash_geom geom;		/* erase_sectors: erase_set, or paired */
	u32 erase_set;			/* erase_size as set, in sectors */
	enum flash_split split;
	unsigned int read_expire_ms, write_expire_ms;
	unsigned long read_expire, write_expire;	/* jiffies */
	unsigned int open_segments;
	unsigned int write_depth;	/* writes in flight per open segment */
	unsigned int write_wait_us;	/* 0: never wait */

	struct flash_limits *limits;	/* chunk_sectors; NULL if not managed */
	unsigned int async_depth;	/* scheduler tags writes and async reads may use */
};

/* flash-iosched.c */
void flash_regroup(struct flash_data *fd);
void flash_release_writes(struct flash_data *fd);

/* limits.c */
struct flash_limits *flash_limits_attach(struct request_queue *q,
					 unsigned int sectors);
void flash_limits_update(struct flash_limits *fl, unsigned int sectors);
void flash_limits_detach(struct flash_limits *fl);
int flash_limits_init(void);
void flash_limits_exit(void);

/* sysfs.c */
extern struct elv_fs_entry flash_attrs[];
void flash_set_defaults(struct flash_data *fd, struct request_queue *q);

/* debugfs.c */
extern const struct blk_mq_debugfs_attr flash_queue_debugfs_attrs[];
#endif /* __KERNEL__ */

#endif /* FLASH_IOSCHED_H */
