// SPDX-License-Identifier: GPL-2.0
/*
 * flashemu command line and device lifecycle.
 *
 *   flashemu --preset NAME_OR_FILE --size BYTES [options]
 *   flashemu --delete N
 *
 * The main thread adds the ublk device, starts the queue thread (emu.c),
 * starts the device, prints its path, then waits for signals: SIGUSR1
 * writes the stats file, SIGUSR2 cuts the power (emu_cut), SIGTERM/SIGINT/
 * SIGHUP stop and delete the device, write the stats (and, unless the power
 * was cut, flush the cache and save the image) and exit.  If the process
 * dies without that, ublk_drv aborts the device itself when the io_uring
 * goes away: outstanding and new I/O fail, /dev/ublkbN disappears, and the
 * dead /dev/ublkcN remains until "flashemu --delete N".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "flashemu.h"
#include "../flashmodel/flashmodel.h"

#define DEFAULT_DEPTH	64
#define DEFAULT_MAX_IO	(1u << 20)

struct opts {
	const char *preset;
	uint64_t size;
	double dilate;
	unsigned int depth;
	unsigned int max_io;
	unsigned int channels;
	const char *log;
	const char *stats;
	int dev_id;
	int daemon;
	int del_id;
	int no_cache;
	int64_t io_opt;			/* -1: the AU size */
	uint64_t chunk;			/* chunk_sectors to advertise, bytes; 0: none */
	int max_io_set;
	int depth_host;			/* --queue-depth host */
	const char *image;
	uint64_t seed;
	uint64_t cut_after;
	double survive;
	int no_tear;
};

static void print_usage(FILE *f)
{
	const char *const *n;

	fprintf(f,
		"usage: flashemu --preset NAME_OR_FILE --size BYTES [options]\n"
		"       flashemu --delete N\n"
		"  --preset P       builtin preset or preset file (see flashmodel)\n"
		"  --size BYTES     capacity; K/M/G/T suffixes (binary)\n"
		"  --dilate X       wall time per model time (default 1.0)\n"
		"  --queue-depth N  tags advertised (default %d); \"host\": the\n"
		"                   preset's host_depth\n"
		"  --channels N     requests served at once (default 1: one at a\n"
		"                   time, in arrival order)\n"
		"  --max-io BYTES   largest request (default: the preset's\n"
		"                   max_transfer, else 1M)\n"
		"  --io-opt BYTES   io_opt to advertise (default: AU size; 0: none)\n"
		"  --chunk BYTES    chunk_sectors to advertise, a boundary no request\n"
		"                   crosses (default: none)\n"
		"  --no-cache       do not advertise a volatile cache (no flush/FUA)\n"
		"  --log FILE       arrival log: SEQ ARRIVAL_NS OP OFFSET LEN\n"
		"  --stats FILE     JSON stats, written on SIGUSR1 and at exit\n"
		"  --image FILE     load the card from FILE if it exists; save it\n"
		"                   there at a power cut and at exit\n"
		"  --cut-after N    cut the power when request N (1 = first) arrives\n"
		"  --seed N         PRNG seed for what a cut keeps (default 1)\n"
		"  --survive P      chance a cached write lands at a cut (0.5)\n"
		"  --no-tear        do not tear the newest cached write at a cut\n"
		"  --dev-id N       ublk device number (default: any free)\n"
		"  --daemon         detach once the device is ready\n"
		"  --delete N       delete ublk device N (e.g. after a crash)\n"
		"Prints /dev/ublkbN when the device is ready.  SIGUSR2 cuts the\n"
		"power.\nBuiltin presets:",
		DEFAULT_DEPTH);
	for (n = fm_preset_names(); n && *n; n++)
		fprintf(f, " %s", *n);
	fprintf(f, "\n");
}

/* Parse a byte count with an optional K/M/G/T (binary) suffix. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (shift) {
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'b' || *end == 'B')
			end++;
	}
	if (*end || (shift && v > (~0ull >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "dilate", required_argument, NULL, 'x' },
		{ "queue-depth", required_argument, NULL, 'q' },
		{ "channels", required_argument, NULL, 'n' },
		{ "max-io", required_argument, NULL, 'm' },
		{ "io-opt", required_argument, NULL, 'o' },
		{ "chunk", required_argument, NULL, 'k' },
		{ "no-cache", no_argument, NULL, 'C' },
		{ "log", required_argument, NULL, 'l' },
		{ "stats", required_argument, NULL, 'S' },
		{ "image", required_argument, NULL, 'I' },
		{ "cut-after", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 'r' },
		{ "survive", required_argument, NULL, 'u' },
		{ "no-tear", no_argument, NULL, 'T' },
		{ "dev-id", required_argument, NULL, 'i' },
		{ "daemon", no_argument, NULL, 'd' },
		{ "delete", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->dilate = 1.0;
	o->depth = DEFAULT_DEPTH;
	o->max_io = DEFAULT_MAX_IO;
	o->channels = 1;
	o->dev_id = -1;
	o->del_id = -1;
	o->io_opt = -1;
	o->seed = 1;
	o->survive = 0.5;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->preset = optarg;
			break;
		case 's':
			if (parse_size(optarg, &o->size))
				goto bad;
			break;
		case 'x':
			o->dilate = strtod(optarg, &end);
			if (*end || !(o->dilate > 0))
				goto bad;
			break;
		case 'q':
			if (!strcmp(optarg, "host")) {
				o->depth_host = 1;
				break;
			}
			if (parse_size(optarg, &v) || !v || v > 4096)
				goto bad;
			o->depth = (unsigned int)v;
			o->depth_host = 0;
			break;
		case 'n':
			if (parse_size(optarg, &v) || !v ||
			    v > EMU_MAX_CHANNELS)
				goto bad;
			o->channels = (unsigned int)v;
			break;
		case 'm':
			if (parse_size(optarg, &v) || v < 4096 ||
			    v > (32u << 20) || (v & 4095))
				goto bad;
			o->max_io = (unsigned int)v;
			o->max_io_set = 1;
			break;
		case 'o':
			if (parse_size(optarg, &v) || v > (1ull << 31))
				goto bad;
			o->io_opt = (int64_t)v;
			break;
		case 'k':
			if (parse_size(optarg, &v) || v > (1ull << 31) || (v & 511))
				goto bad;
			o->chunk = v;
			break;
		case 'C':
			o->no_cache = 1;
			break;
		case 'l':
			o->log = optarg;
			break;
		case 'S':
			o->stats = optarg;
			break;
		case 'I':
			o->image = optarg;
			break;
		case 'c':
			if (parse_size(optarg, &o->cut_after) || !o->cut_after)
				goto bad;
			break;
		case 'r':
			if (parse_size(optarg, &o->seed))
				goto bad;
			break;
		case 'u':
			o->survive = strtod(optarg, &end);
			if (*end || !(o->survive >= 0 && o->survive <= 1))
				goto bad;
			break;
		case 'T':
			o->no_tear = 1;
			break;
		case 'i':
			if (parse_size(optarg, &v) || v > 0xffffff)
				goto bad;
			o->dev_id = (int)v;
			break;
		case 'd':
			o->daemon = 1;
			break;
		case 'D':
			if (parse_size(optarg, &v) || v > 0xffffff)
				goto bad;
			o->del_id = (int)v;
			break;
		case 'h':
			print_usage(stdout);
			exit(0);
		default:
			print_usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "flashemu: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (o->del_id >= 0)
		return 0;
	if (!o->preset) {
		fprintf(stderr, "flashemu: --preset is required\n");
		print_usage(stderr);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "flashemu: bad option value '%s'\n", optarg);
	return -1;
}

/* log2 of the largest power of two that divides @v, capped at @cap. */
static unsigned int pow2_shift(uint64_t v, unsigned int cap)
{
	unsigned int s = 0;

	if (!v)
		return 0;
	while (!(v & 1) && s < cap) {
		v >>= 1;
		s++;
	}
	return s;
}

/*
 * What the block layer is told (see README.md, "Geometry"):
 * logical block 512; physical block min(unit, 4 KiB); io_min = unit and
 * io_opt = AU (both rounded down to the power of two that divides them,
 * since ublk passes shifts); discard granularity = AU (exact, bytes).
 */
static void fill_params(struct ublk_params *p, const struct fm_params *fp,
			const struct opts *o)
{
	struct ublk_param_basic *b = &p->basic;
	struct ublk_param_discard *d = &p->discard;
	unsigned int io_min = pow2_shift(fp->unit, 30);
	uint32_t au_sectors = (uint32_t)(fp->au_size >> 9);

	memset(p, 0, sizeof(*p));
	p->types = UBLK_PARAM_TYPE_BASIC | UBLK_PARAM_TYPE_DISCARD;
	if (!o->no_cache)
		b->attrs = UBLK_ATTR_VOLATILE_CACHE | UBLK_ATTR_FUA;
	b->logical_bs_shift = 9;
	b->io_min_shift = io_min < 9 ? 9 : io_min;
	b->physical_bs_shift = b->io_min_shift > 12 ? 12 : b->io_min_shift;
	if (o->io_opt < 0)
		b->io_opt_shift = pow2_shift(fp->au_size, 30);
	else
		b->io_opt_shift = o->io_opt ? pow2_shift(o->io_opt, 30) : 0;
	if (b->io_opt_shift && b->io_opt_shift < b->physical_bs_shift)
		b->io_opt_shift = 0;
	b->max_sectors = o->max_io >> 9;
	b->chunk_sectors = (uint32_t)(o->chunk >> 9);
	b->dev_sectors = o->size >> 9;

	d->discard_alignment = 0;
	d->discard_granularity = (uint32_t)fp->au_size;
	d->max_discard_sectors = au_sectors ?
		UINT32_MAX / au_sectors * au_sectors : UINT32_MAX;
	d->max_write_zeroes_sectors = o->max_io >> 9;
	d->max_discard_segments = 1;
}

static int wait_path(const char *path, int secs)
{
	struct stat st;
	int i;

	for (i = 0; i < secs * 100; i++) {
		if (stat(path, &st) == 0)
			return 0;
		usleep(10000);
	}
	return -1;
}

static int do_delete(int id)
{
	struct ublk_ctrl c;
	int ret;

	ret = ublk_ctrl_open(&c);
	if (ret) {
		fprintf(stderr, "flashemu: /dev/ublk-control: %s (modprobe ublk_drv?)\n",
			strerror(-ret));
		return 1;
	}
	ret = ublk_del_dev(&c, id);
	ublk_ctrl_close(&c);
	if (ret) {
		fprintf(stderr, "flashemu: delete ublk %d: %s\n", id,
			strerror(-ret));
		return 1;
	}
	return 0;
}

/*
 * --daemon: fork before anything touches ublk (the task that fetches
 * must serve).  The parent relays the child's first stdout line and exits
 * 0 if it names the device, 1 otherwise.
 */
static int daemonize(void)
{
	int pfd[2];
	char line[256];
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		close(pfd[0]);
		setsid();
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			close(fd);
		}
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[1]);
		return 0;
	}
	close(pfd[1]);
	while (got < (ssize_t)sizeof(line) - 1) {
		n = read(pfd[0], line + got, sizeof(line) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
		if (memchr(line, '\n', got))
			break;
	}
	line[got] = '\0';
	if (got && !strncmp(line, "/dev/", 5)) {
		fputs(line, stdout);
		exit(0);
	}
	exit(1);
}

/* --image at start: a missing file is a blank card. */
static int load_image(struct emu_store *s, const char *path)
{
	int ret = image_load(s, path);

	if (ret == -ENOENT)
		return 0;
	if (ret == -EINVAL)
		fprintf(stderr, "flashemu: %s: size is not %llu\n", path,
			(unsigned long long)s->size);
	else if (ret)
		fprintf(stderr, "flashemu: %s: %s\n", path, strerror(-ret));
	return ret;
}

/*
 * An orderly power-off, as at a device's shutdown: the cache is written
 * back, then the image is saved.  0 or -errno.
 */
static int power_off_clean(struct emu *e, const char *path)
{
	int ret = cache_flush(&e->cache);

	if (!ret)
		ret = image_save(&e->cache.durable, path);
	if (ret)
		fprintf(stderr, "flashemu: %s: %s\n", path, strerror(-ret));
	return ret;
}

static struct emu emu;

static void *queue_main(void *arg)
{
	emu_thread(arg);
	/* device gone (stopped, deleted or failed): wake the main thread */
	kill(getpid(), SIGTERM);
	return NULL;
}

int main(int argc, char **argv)
{
	struct fm_params fp;
	struct ublk_ctrl ctrl;
	struct opts o;
	pthread_t thr;
	sigset_t set;
	char path[64], err[256];
	void *iod_map = MAP_FAILED;
	size_t iod_len = 0;
	uint64_t one = 1;
	int ret, rc = 1, added = 0, started_thread = 0, sig, cut_asked = 0;

	if (parse_opts(argc, argv, &o))
		return 2;
	if (o.del_id >= 0)
		return do_delete(o.del_id);

	if (fm_preset_get(o.preset, &fp, err, sizeof(err))) {
		fprintf(stderr, "flashemu: preset %s: %s\n", o.preset, err);
		return 2;
	}
	if (!o.size)
		o.size = fp.capacity;
	o.size &= ~511ull;
	if (!o.size) {
		fprintf(stderr, "flashemu: --size is required for preset %s\n",
			o.preset);
		return 2;
	}
	if (fp.au_size > UINT32_MAX || !fp.au_size || !fp.unit) {
		fprintf(stderr, "flashemu: preset %s: unsupported geometry\n",
			o.preset);
		return 2;
	}
	fp.capacity = o.size;
	if (fm_params_check(&fp, err, sizeof(err))) {
		fprintf(stderr, "flashemu: preset %s: %s\n", o.preset, err);
		return 2;
	}
	if (o.depth_host) {
		if (!fp.host_depth) {
			fprintf(stderr,
				"flashemu: preset %s: no host_depth for --queue-depth host\n",
				o.preset);
			return 2;
		}
		o.depth = fp.host_depth;
	}
	if (!o.max_io_set && fp.max_transfer) {
		uint64_t m = fp.max_transfer & ~4095ull;

		o.max_io = m < 4096 ? 4096 : m > (32u << 20) ? 32u << 20 :
			   (unsigned int)m;
	}

	if (o.daemon && daemonize()) {
		perror("flashemu: daemonize");
		return 1;
	}

	/* every thread inherits this: signals are taken by sigwait below */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	memset(&emu, 0, sizeof(emu));
	emu.fp = &fp;
	emu.size = o.size;
	emu.depth = o.depth;
	emu.max_io = o.max_io;
	emu.dilate = o.dilate;
	emu.channels = o.channels;
	emu.stats_path = o.stats;
	emu.preset = fp.name[0] ? fp.name : o.preset;
	emu.cdev_fd = -1;
	emu.stats_efd = eventfd(0, EFD_CLOEXEC);
	emu.cut_efd = eventfd(0, EFD_CLOEXEC);
	emu.ready_fd = eventfd(0, EFD_CLOEXEC);
	emu.model = fm_new(&fp);
	/* without an image nothing can see what a cut drops: write through */
	emu.volatile_cache = !o.no_cache && o.image;
	emu.image_path = o.image;
	power_init(&emu.power, o.seed);
	emu.power.cut_after = o.cut_after;
	emu.power.survive = o.survive;
	emu.power.tear = !o.no_tear;
	emu.power.page = fp.unit;
	if (emu.stats_efd < 0 || emu.cut_efd < 0 || emu.ready_fd < 0 ||
	    !emu.model) {
		fprintf(stderr, "flashemu: setup failed\n");
		return 1;
	}
	if (o.log) {
		emu.log = fopen(o.log, "w");
		if (!emu.log) {
			fprintf(stderr, "flashemu: %s: %s\n", o.log,
				strerror(errno));
			return 1;
		}
		setvbuf(emu.log, NULL, _IOFBF, 1 << 20);
	}
	ret = emu_init(&emu);
	if (ret) {
		fprintf(stderr, "flashemu: %s\n", strerror(-ret));
		return 1;
	}
	if (o.image && load_image(&emu.cache.durable, o.image))
		return 1;

	ret = ublk_ctrl_open(&ctrl);
	if (ret) {
		fprintf(stderr, "flashemu: /dev/ublk-control: %s (modprobe ublk_drv?)\n",
			strerror(-ret));
		return 1;
	}
	ret = ublk_add_dev(&ctrl, o.dev_id, o.depth, o.max_io,
			   UBLK_F_CMD_IOCTL_ENCODE);
	if (ret) {
		fprintf(stderr, "flashemu: ADD_DEV: %s\n", strerror(-ret));
		goto out;
	}
	added = 1;
	emu.dev_id = (int)ctrl.info.dev_id;
	if (ctrl.info.queue_depth != o.depth ||
	    ctrl.info.max_io_buf_bytes < o.max_io) {
		fprintf(stderr, "flashemu: driver gave depth %u max io %u\n",
			ctrl.info.queue_depth, ctrl.info.max_io_buf_bytes);
		goto out;
	}
	fill_params(&ctrl.params, &fp, &o);
	ret = ublk_set_params(&ctrl);
	if (ret) {
		fprintf(stderr, "flashemu: SET_PARAMS: %s\n", strerror(-ret));
		goto out;
	}

	snprintf(path, sizeof(path), "/dev/ublkc%d", emu.dev_id);
	if (wait_path(path, 5)) {
		fprintf(stderr, "flashemu: %s did not appear\n", path);
		goto out;
	}
	emu.cdev_fd = open(path, O_RDWR | O_CLOEXEC);
	if (emu.cdev_fd < 0) {
		fprintf(stderr, "flashemu: %s: %s\n", path, strerror(errno));
		goto out;
	}
	iod_len = ublk_iod_map_size(o.depth);
	iod_map = mmap(NULL, iod_len, PROT_READ, MAP_SHARED | MAP_POPULATE,
		       emu.cdev_fd, UBLKSRV_CMD_BUF_OFFSET);
	if (iod_map == MAP_FAILED) {
		fprintf(stderr, "flashemu: mmap %s: %s\n", path,
			strerror(errno));
		goto out;
	}
	emu.iod = iod_map;

	ret = pthread_create(&thr, NULL, queue_main, &emu);
	if (ret) {
		fprintf(stderr, "flashemu: pthread_create: %s\n",
			strerror(ret));
		goto out;
	}
	started_thread = 1;
	if (read(emu.ready_fd, &one, sizeof(one)) != sizeof(one) || emu.err) {
		fprintf(stderr, "flashemu: queue setup failed: %s\n",
			strerror(emu.err ? -emu.err : errno));
		goto out;
	}
	ret = ublk_start_dev(&ctrl, getpid());
	if (ret) {
		fprintf(stderr, "flashemu: START_DEV: %s\n", strerror(-ret));
		goto out;
	}
	snprintf(path, sizeof(path), "/dev/ublkb%d", emu.dev_id);
	if (wait_path(path, 10))
		fprintf(stderr, "flashemu: warning: %s did not appear\n", path);
	printf("%s\n", path);
	fflush(stdout);
	if (o.daemon) {
		/*
		 * Detach from the caller's pipes, or "dev=$(flashemu --daemon
		 * 2>&1)" would wait for the server to exit.
		 */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
	}

	for (;;) {
		sig = sigwaitinfo(&set, NULL);
		if (sig < 0)
			continue;
		if (sig == SIGUSR1 || sig == SIGUSR2) {
			int efd = sig == SIGUSR1 ? emu.stats_efd : emu.cut_efd;

			cut_asked |= sig == SIGUSR2;
			one = 1;
			if (write(efd, &one, sizeof(one)) < 0)
				perror("flashemu: eventfd");
			continue;
		}
		break;
	}
	rc = 0;

out:
	/*
	 * Teardown order matters: STOP_DEV lets the queue thread drain and
	 * see every tag aborted; the cdev (and its mmap) must be closed
	 * before DEL_DEV, which waits for the device to be released.
	 */
	if (added) {
		ret = ublk_stop_dev(&ctrl);
		if (ret && ret != -ENODEV)
			fprintf(stderr, "flashemu: STOP_DEV: %s\n",
				strerror(-ret));
	}
	if (started_thread)
		pthread_join(thr, NULL);
	if (iod_map != MAP_FAILED)
		munmap(iod_map, iod_len);
	if (emu.cdev_fd >= 0)
		close(emu.cdev_fd);
	if (added) {
		ret = ublk_del_dev(&ctrl, emu.dev_id);
		if (ret && ret != -ENODEV) {
			fprintf(stderr, "flashemu: DEL_DEV: %s\n",
				strerror(-ret));
			rc = 1;
		}
	}
	ublk_ctrl_close(&ctrl);
	/* the queue thread is gone: the state is ours */
	if (started_thread && cut_asked)
		emu_cut(&emu, now_ns(), emu.seq);	/* if it missed it */
	if (started_thread && !emu.power.off && o.image &&
	    power_off_clean(&emu, o.image))
		rc = 1;
	if (emu.log)
		fclose(emu.log);
	if (started_thread && o.stats && emu_write_stats(&emu, o.stats))
		rc = 1;
	fm_free(emu.model);
	emu_fini(&emu);
	return rc;
}
