// SPDX-License-Identifier: GPL-2.0
/*
 * The queue thread.  It owns queue 0 of the ublk device, the card (cache
 * and power) and the cost model.
 *
 * Every request the driver hands over (a FETCH or COMMIT_AND_FETCH
 * completion) is an arrival: it is stamped, logged, fed to flashmodel in
 * arrival order and booked on the device clock, which gives its completion
 * time.  The device serves one request at a time in arrival order, so the
 * requests waiting are a FIFO whose completion times never decrease.  One
 * absolute io_uring timeout is armed for the head; when it expires the head
 * (and any others due) have their data moved to or from the store and are
 * committed with COMMIT_AND_FETCH, in FIFO order.
 *
 * A power cut (request cut_after arriving, or a write to cut_efd) fails
 * every request in the FIFO at once and every later one on arrival; they
 * are no longer fed to the model.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <liburing.h>

#include "flashemu.h"
#include "../flashmodel/flashmodel.h"

/*
 * user_data values that are not tags (tags are < UBLK_MAX_QUEUE_DEPTH);
 * a timeout carries UD_TIMER | its wall deadline (< 2^63 ns).
 */
#define UD_TIMER	(1ull << 63)
#define UD_STATS	0x10001u
#define UD_CUT		0x10002u

static const char *const op_name[EMU_NR_OPS + 1] = {
	[EMU_R] = "R", [EMU_W] = "W", [EMU_F] = "F", [EMU_D] = "D",
	[EMU_Z] = "Z", [EMU_NR_OPS] = "?",
};

static const char *const op_json[EMU_NR_OPS] = {
	[EMU_R] = "read", [EMU_W] = "write", [EMU_F] = "flush",
	[EMU_D] = "discard", [EMU_Z] = "write_zeroes",
};

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int emu_init(struct emu *e)
{
	unsigned int i;
	int ret;

	ret = cache_init(&e->cache, e->size, e->volatile_cache);
	if (ret)
		return ret;
	e->buf = calloc(e->depth, sizeof(*e->buf));
	e->req = calloc(e->depth, sizeof(*e->req));
	e->fifo = calloc(e->depth, sizeof(*e->fifo));
	if (!e->buf || !e->req || !e->fifo)
		return -ENOMEM;
	for (i = 0; i < e->depth; i++) {
		/* page aligned; pages are touched only when used */
		if (posix_memalign((void **)&e->buf[i], 4096, e->max_io))
			return -ENOMEM;
	}
	return 0;
}

void emu_fini(struct emu *e)
{
	unsigned int i;

	if (e->buf)
		for (i = 0; i < e->depth; i++)
			free(e->buf[i]);
	free(e->buf);
	free(e->req);
	free(e->fifo);
	e->buf = NULL;
	e->req = NULL;
	e->fifo = NULL;
	cache_free(&e->cache);
}

static struct io_uring_sqe *emu_get_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	while (!sqe) {
		/* the SQ is full: push it to the kernel and retry */
		io_uring_submit(ring);
		sqe = io_uring_get_sqe(ring);
	}
	return sqe;
}

/* Decode the descriptor of @tag, book it on the device clock, log it. */
static void emu_arrive(struct emu *e, unsigned int tag, uint64_t now)
{
	/* the driver wrote the descriptor before posting the CQE we saw */
	const struct ublksrv_io_desc *iod = &e->iod[tag];
	struct emu_req *r = &e->req[tag];
	uint32_t op_flags = iod->op_flags;
	uint64_t model_arrival, model_done, service;
	enum fm_op fop = FM_READ;
	unsigned int fflags = 0;
	unsigned int occ;

	r->seq = e->seq++;
	r->arrival = now;
	r->off = iod->start_sector << 9;
	r->len = (uint64_t)iod->nr_sectors << 9;
	r->fua = !!(op_flags & UBLK_IO_F_FUA);	/* flags are pre-shifted */
	switch (op_flags & 0xff) {
	case UBLK_IO_OP_READ:
		r->op = EMU_R;
		fop = FM_READ;
		break;
	case UBLK_IO_OP_WRITE:
		r->op = EMU_W;
		fop = FM_WRITE;
		break;
	case UBLK_IO_OP_FLUSH:
		r->op = EMU_F;
		fop = FM_FLUSH;
		r->off = 0;
		r->len = 0;
		break;
	case UBLK_IO_OP_DISCARD:
		r->op = EMU_D;
		fop = FM_DISCARD;
		break;
	case UBLK_IO_OP_WRITE_ZEROES:
		/* the card has no such command: it programs zeroes */
		r->op = EMU_Z;
		fop = FM_WRITE;
		break;
	default:
		r->op = EMU_NR_OPS;
		break;
	}
	if (r->fua)
		fflags |= FM_FUA;

	if (power_due(&e->power, r->seq))
		emu_cut(e, now, r->seq);
	if (e->power.off) {
		/* a dead card answers at once, and costs the model nothing */
		r->done = now;
	} else {
		model_arrival = clock_model_arrival(&e->clock, now);
		if (r->op == EMU_NR_OPS) {
			service = 0;
		} else {
			model_done = fm_submit(e->model, model_arrival, fop,
					       r->off, r->len, fflags);
			service = clock_model_service(&e->clock, model_arrival,
						      model_done);
		}
		r->done = clock_book(&e->clock, now, service);
	}

	if (!e->fifo_len)
		e->busy_since = now;
	e->fifo[e->fifo_len++] = tag;
	occ = e->fifo_len;
	if (occ > e->max_occupancy)
		e->max_occupancy = occ;
	e->occupancy_sum += occ;
	e->occupancy_hist[occ < 64 ? occ : 64]++;
	if (!e->t_first)
		e->t_first = now;

	if (e->log)
		fprintf(e->log, "%" PRIu64 " %" PRIu64 " %s%s %" PRIu64 " %" PRIu64 "\n",
			r->seq, now - e->clock.t0, op_name[r->op],
			r->fua ? "F" : "", r->off, r->len);
}

/* Serve @tag on the card and count it; the ublk result. */
static int emu_do_io(struct emu *e, unsigned int tag)
{
	struct emu_req *r = &e->req[tag];
	int res = io_serve(&e->cache, &e->power, r, e->buf[tag], e->max_io);

	if (res < 0)
		return res;
	e->nr_ops[r->op]++;
	e->bytes_ops[r->op] += r->len;
	if (r->fua)
		e->nr_fua++;
	return res;
}

void emu_cut(struct emu *e, uint64_t now, uint64_t arrived)
{
	unsigned int i;
	int ret;

	if (e->power.off)
		return;
	e->power.cut_at = arrived;
	ret = power_cut(&e->power, &e->cache);
	if (ret)
		fprintf(stderr, "flashemu: power cut: %s: the image is incomplete\n",
			strerror(-ret));
	/* completion times stay non-decreasing: all were >= now */
	for (i = 0; i < e->fifo_len; i++)
		e->req[e->fifo[i]].done = now;
	power_print(&e->power, stderr);
	if (e->image_path) {
		ret = image_save(&e->cache.durable, e->image_path);
		if (ret)
			fprintf(stderr, "flashemu: %s: %s\n", e->image_path,
				strerror(-ret));
	}
	if (e->log)
		fflush(e->log);
	if (e->stats_path)
		emu_write_stats(e, e->stats_path);
}

/*
 * Index in e->fifo of the request that completes first: the earliest
 * completion time, then the oldest.  With one channel that is always 0.
 */
static unsigned int emu_next_done(const struct emu *e)
{
	unsigned int i, best = 0;

	for (i = 1; i < e->fifo_len; i++)
		if (e->req[e->fifo[i]].done < e->req[e->fifo[best]].done)
			best = i;
	return best;
}

/* Commit every request in the server whose time has come. */
static void emu_commit_due(struct emu *e, struct io_uring *ring, uint64_t now)
{
	while (e->fifo_len) {
		unsigned int i = emu_next_done(e), tag = e->fifo[i];
		struct emu_req *r = &e->req[tag];
		uint64_t late;
		int res;

		if (r->done > now)
			break;
		res = emu_do_io(e, tag);
		if (res < 0)
			e->nr_errors++;
		late = now - r->done;
		if (late > e->late_max)
			e->late_max = late;
		e->late_sum += late;
		if (late > 1000000)
			e->late_over_1ms++;
		e->t_last = now;
		if (i)
			e->reordered++;
		ublk_prep_io_cmd(emu_get_sqe(ring), e->cdev_fd,
				 UBLK_U_IO_COMMIT_AND_FETCH_REQ, tag, res,
				 e->buf[tag]);
		memmove(&e->fifo[i], &e->fifo[i + 1],
			(e->fifo_len - i - 1) * sizeof(*e->fifo));
		if (!--e->fifo_len)
			e->busy_wall += now - e->busy_since;
	}
}

/*
 * Arm a timeout for the earliest completion unless one is armed at or
 * before it.  Timeouts are never cancelled: one that fires with nothing
 * due just runs the loop once more.
 */
static void emu_arm_timer(struct emu *e, struct io_uring *ring,
			  struct __kernel_timespec *ts)
{
	struct io_uring_sqe *sqe;
	uint64_t t;

	if (!e->fifo_len)
		return;
	t = e->req[e->fifo[emu_next_done(e)]].done;
	if (e->timer_at && e->timer_at <= t)
		return;
	ts->tv_sec = (int64_t)(t / 1000000000ull);
	ts->tv_nsec = (long long)(t % 1000000000ull);
	sqe = emu_get_sqe(ring);
	io_uring_prep_timeout(sqe, ts, 0, IORING_TIMEOUT_ABS);
	io_uring_sqe_set_data64(sqe, UD_TIMER | t);
	e->timer_at = t;
}

/* Read eventfd @efd into @val; its completion carries @ud. */
static void emu_arm_efd(struct io_uring *ring, int efd, uint64_t *val,
			uint64_t ud)
{
	struct io_uring_sqe *sqe;

	if (efd < 0)
		return;
	sqe = emu_get_sqe(ring);
	io_uring_prep_read(sqe, efd, val, sizeof(*val), 0);
	io_uring_sqe_set_data64(sqe, ud);
}

static void emu_ready(struct emu *e)
{
	uint64_t one = 1;

	if (write(e->ready_fd, &one, sizeof(one)) != sizeof(one))
		perror("flashemu: ready eventfd");
}

void *emu_thread(void *arg)
{
	struct emu *e = arg;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned int entries = 4, i, head, n;
	uint64_t stats_val, cut_val;
	int ret;

	while (entries < 2 * e->depth + 2)
		entries <<= 1;
	ret = io_uring_queue_init(entries, &ring, IORING_SETUP_SQE128);
	if (ret < 0) {
		e->err = ret;
		emu_ready(e);
		return NULL;
	}

	clock_init_channels(&e->clock, now_ns(), e->dilate, e->channels);
	for (i = 0; i < e->depth; i++)
		ublk_prep_io_cmd(emu_get_sqe(&ring), e->cdev_fd,
				 UBLK_U_IO_FETCH_REQ, i, -1, e->buf[i]);
	ret = io_uring_submit(&ring);
	if (ret < 0) {
		e->err = ret;
		goto out_ready;
	}
	/* the driver takes FETCH inline: a failure is already on the CQ */
	if (io_uring_peek_cqe(&ring, &cqe) == 0) {
		fprintf(stderr, "flashemu: FETCH for tag %llu failed: %s\n",
			(unsigned long long)cqe->user_data, strerror(-cqe->res));
		e->err = cqe->res < 0 ? cqe->res : -EIO;
		goto out_ready;
	}
	e->nr_live = e->depth;
	emu_arm_efd(&ring, e->stats_efd, &stats_val, UD_STATS);
	emu_arm_efd(&ring, e->cut_efd, &cut_val, UD_CUT);
	emu_ready(e);

	while (e->nr_live || e->fifo_len) {
		uint64_t now;

		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN) {
			fprintf(stderr, "flashemu: io_uring: %s\n",
				strerror(-ret));
			e->err = ret;
			break;
		}
		now = now_ns();
		n = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			uint64_t ud = cqe->user_data;

			n++;
			if (ud & UD_TIMER) {
				if ((ud & ~UD_TIMER) == e->timer_at)
					e->timer_at = 0;
			} else if (ud == UD_STATS) {
				if (e->log)
					fflush(e->log);
				if (e->stats_path)
					emu_write_stats(e, e->stats_path);
				emu_arm_efd(&ring, e->stats_efd, &stats_val,
					    UD_STATS);
			} else if (ud == UD_CUT) {
				emu_cut(e, now, e->seq);
			} else if (cqe->res == UBLK_IO_RES_OK) {
				emu_arrive(e, (unsigned int)ud, now);
			} else {
				/* ABORT: device stopped; others: our bug */
				if (cqe->res != UBLK_IO_RES_ABORT)
					fprintf(stderr, "flashemu: tag %u: %s\n",
						(unsigned int)ud,
						strerror(-cqe->res));
				e->nr_live--;
			}
		}
		io_uring_cq_advance(&ring, n);
		emu_commit_due(e, &ring, now_ns());
		emu_arm_timer(e, &ring, &ts);
	}
	if (e->log)
		fflush(e->log);
	io_uring_queue_exit(&ring);
	return NULL;

out_ready:
	emu_ready(e);
	io_uring_queue_exit(&ring);
	return NULL;
}

/* ------------------------------------------------------------- stats */

static void json_u64_array(FILE *f, const char *name, const uint64_t *v,
			   unsigned int n, const char *tail)
{
	unsigned int i;

	fprintf(f, "    \"%s\": [", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", v[i]);
	fprintf(f, "]%s\n", tail);
}

/* One "name": value member of the model object (always followed by more). */
static void json_u64(FILE *f, const char *name, uint64_t v)
{
	fprintf(f, "    \"%s\": %" PRIu64 ",\n", name, v);
}

static void emu_json_cache(const struct emu_cache *c, FILE *f)
{
	fprintf(f, "  \"cache\": {\"enabled\": %d, \"limit\": %" PRIu64,
		c->enabled, c->limit);
	fprintf(f, ", \"entries\": %" PRIu64 ", \"mem\": %" PRIu64, c->nr,
		c->mem);
	fprintf(f, ", \"peak_mem\": %" PRIu64 ", \"flushed\": %" PRIu64,
		c->peak_mem, c->flushed);
	fprintf(f, ", \"writebacks\": %" PRIu64 ", \"fua_direct\": %" PRIu64
		"},\n", c->writebacks, c->fua_direct);
}

static void emu_json_power(const struct emu_power *p, FILE *f)
{
	fprintf(f, "  \"power\": {\"seed\": %" PRIu64 ", \"cut_after\": %"
		PRIu64 ", \"survive\": %g, \"tear\": %d, \"page\": %u,\n",
		p->seed, p->cut_after, p->survive, p->tear, p->page);
	fprintf(f, "    \"cut\": %d, \"cut_at\": %" PRIu64 ", \"cached\": %"
		PRIu64 ", \"fua\": %" PRIu64, p->off, p->cut_at, p->cached,
		p->fua);
	fprintf(f, ", \"survived\": %" PRIu64 ", \"dropped\": %" PRIu64,
		p->survived, p->dropped);
	fprintf(f, ", \"torn\": %d, \"torn_len\": %" PRIu64
		", \"torn_kept\": %" PRIu64 "},\n", p->torn, p->torn_len,
		p->torn_kept);
}

static void emu_json(struct emu *e, FILE *f)
{
	struct fm_stats s;
	uint64_t total = 0, elapsed;
	unsigned int i;

	fm_get_stats(e->model, &s);
	for (i = 0; i < EMU_NR_OPS; i++)
		total += e->nr_ops[i];
	elapsed = e->t_last > e->t_first ? e->t_last - e->t_first : 0;

	fprintf(f, "{\n");
	fprintf(f, "  \"preset\": \"%s\",\n", e->preset);
	fprintf(f, "  \"dev_id\": %d,\n", e->dev_id);
	fprintf(f, "  \"size\": %" PRIu64 ",\n", e->size);
	fprintf(f, "  \"dilate\": %g,\n", e->dilate);
	fprintf(f, "  \"queue_depth\": %u,\n", e->depth);
	fprintf(f, "  \"channels\": %u,\n", e->clock.channels);
	fprintf(f, "  \"max_concurrency\": %u,\n", e->clock.max_conc);
	fprintf(f, "  \"reordered\": %" PRIu64 ",\n", e->reordered);
	fprintf(f, "  \"channel_busy_wall_ns\": [");
	for (i = 0; i < e->clock.channels; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", e->clock.chan_busy[i]);
	fprintf(f, "],\n");
	fprintf(f, "  \"max_io\": %u,\n", e->max_io);
	fprintf(f, "  \"uptime_ns\": %" PRIu64 ",\n", now_ns() - e->clock.t0);
	fprintf(f, "  \"active_ns\": %" PRIu64 ",\n", elapsed);
	fprintf(f, "  \"device_busy_wall_ns\": %" PRIu64 ",\n",
		e->busy_wall);
	fprintf(f, "  \"requests\": {");
	for (i = 0; i < EMU_NR_OPS; i++)
		fprintf(f, "\"%s\": %" PRIu64 ", ", op_json[i], e->nr_ops[i]);
	fprintf(f, "\"fua\": %" PRIu64 ", \"total\": %" PRIu64,
		e->nr_fua, total);
	fprintf(f, ", \"errors\": %" PRIu64 "},\n", e->nr_errors);
	fprintf(f, "  \"bytes\": {");
	for (i = 0; i < EMU_NR_OPS; i++)
		fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", op_json[i],
			e->bytes_ops[i]);
	fprintf(f, "},\n");
	fprintf(f, "  \"requests_per_s\": %.1f,\n",
		elapsed ? (double)total * 1e9 / (double)elapsed : 0.0);
	fprintf(f, "  \"occupancy\": {\"max\": %" PRIu64, e->max_occupancy);
	fprintf(f, ", \"mean_at_arrival\": %.3f,\n",
		e->seq ? (double)e->occupancy_sum / (double)e->seq : 0.0);
	json_u64_array(f, "hist_at_arrival", e->occupancy_hist, 65, "},");
	fprintf(f, "  \"lateness\": {\"max_ns\": %" PRIu64, e->late_max);
	fprintf(f, ", \"mean_ns\": %" PRIu64,
		total ? e->late_sum / total : 0);
	fprintf(f, ", \"over_1ms\": %" PRIu64 "},\n", e->late_over_1ms);
	fprintf(f, "  \"store\": {\"chunks\": %" PRIu64,
		e->cache.durable.allocated);
	fprintf(f, ", \"peak_chunks\": %" PRIu64 ", \"chunk_size\": %u},\n",
		e->cache.durable.peak_allocated, STORE_CHUNK);
	emu_json_cache(&e->cache, f);
	emu_json_power(&e->power, f);
	fprintf(f, "  \"model\": {\n");
	json_u64(f, "reads", s.reads);
	json_u64(f, "writes", s.writes);
	json_u64(f, "flushes", s.flushes);
	json_u64(f, "discards", s.discards);
	json_u64(f, "read_bytes", s.read_bytes);
	json_u64(f, "host_write_bytes", s.host_write_bytes);
	json_u64(f, "programmed_bytes", s.programmed_bytes);
	json_u64(f, "copied_bytes", s.copied_bytes);
	json_u64(f, "erases", s.erases);
	json_u64(f, "switch_merges", s.switch_merges);
	json_u64(f, "full_merges", s.full_merges);
	json_u64(f, "pending_aus", s.pending_aus);
	json_u64(f, "pending_copy_bytes", s.pending_copy_bytes);
	json_u64(f, "busy_ns", s.busy_ns);
	json_u64(f, "last_completion_ns", s.last_completion_ns);
	fprintf(f, "    \"write_amplification\": %.4f,\n",
		fm_write_amplification(&s));
	fprintf(f, "    \"write_mibps\": %.3f,\n", fm_write_mibps(&s));
	for (i = 0; i < 2; i++) {
		enum fm_op op = i ? FM_WRITE : FM_READ;
		const char *n = i ? "write" : "read";
		char key[64];

		snprintf(key, sizeof(key), "%s_service_p50_ns", n);
		json_u64(f, key, fm_service_percentile(e->model, op, 0.5));
		snprintf(key, sizeof(key), "%s_service_p99_ns", n);
		json_u64(f, key, fm_service_percentile(e->model, op, 0.99));
		snprintf(key, sizeof(key), "%s_latency_p50_ns", n);
		json_u64(f, key, fm_latency_percentile(e->model, op, 0.5));
		snprintf(key, sizeof(key), "%s_latency_p99_ns", n);
		json_u64(f, key, fm_latency_percentile(e->model, op, 0.99));
	}
	json_u64_array(f, "write_service_hist", s.write_service_hist,
		       FM_HIST_BUCKETS, ",");
	json_u64_array(f, "read_service_hist", s.read_service_hist,
		       FM_HIST_BUCKETS, "");
	fprintf(f, "  }\n}\n");
}

int emu_write_stats(struct emu *e, const char *path)
{
	char tmp[4096];
	FILE *f;
	int ret = 0;

	/* write beside and rename, so readers never see half a file */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "flashemu: %s: %s\n", tmp, strerror(errno));
		return -errno;
	}
	emu_json(e, f);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		ret = -errno;
		fprintf(stderr, "flashemu: %s: %s\n", path, strerror(errno));
	}
	return ret;
}
