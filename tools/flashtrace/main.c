// SPDX-License-Identifier: GPL-2.0
/*
 * flashtrace command line: analyse blkparse text (files or stdin) or
 * blktrace's binary per-CPU files, compare
 * JSON results of several runs, or measure its own speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "flashtrace.h"

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: flashtrace [OPTIONS] [FILE...]      analyse blkparse text (stdin without FILE or with -)\n"
		"       flashtrace [OPTIONS] --blktrace DIR/NAME...  analyse blktrace -D DIR -o NAME binary files\n"
		"       flashtrace compare [--svg FILE] [--json] [NAME=]RUN.json...\n"
		"       flashtrace --bench [--preset P] [EVENTS]\n"
		"       flashtrace --list-presets\n"
		"\n"
		"geometry:\n"
		"  --page-size BYTES     flash page (default 16K); K/M/G suffixes\n"
		"  --erase-size BYTES    erase block (default 4M; 1.5M, 3M, 6M are fine)\n"
		"  --sector-size BYTES   bytes per trace sector (default 512, as blkparse prints)\n"
		"  --offset SECTORS      partition start, when the trace is of a partition\n"
		"  --dev MAJ,MIN         only dispatches of this device\n"
		"input:\n"
		"  --blktrace            FILEs are blktrace binary traces: NAME for NAME.blktrace.*\n"
		"                        (found without it when NAME.blktrace.0 exists or FILE is one)\n"
		"model:\n"
		"  --preset NAME|FILE    replay through flashmodel (repeatable)\n"
		"output:\n"
		"  --json                print JSON instead of the table\n"
		"  --json=FILE           also write JSON to FILE\n"
		"  --svg FILE            picture of offset over time\n"
		"  --title TEXT          title of the picture\n"
		"  -h, --help\n");
}

enum {
	OPT_PAGE = 256, OPT_ERASE, OPT_SECTOR, OPT_OFFSET, OPT_DEV, OPT_PRESET,
	OPT_JSON, OPT_SVG, OPT_TITLE, OPT_BENCH, OPT_LIST, OPT_BLKTRACE,
};

static const struct option long_opts[] = {
	{ "page-size", required_argument, NULL, OPT_PAGE },
	{ "erase-size", required_argument, NULL, OPT_ERASE },
	{ "sector-size", required_argument, NULL, OPT_SECTOR },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "bench", no_argument, NULL, OPT_BENCH },
	{ "list-presets", no_argument, NULL, OPT_LIST },
	{ "blktrace", no_argument, NULL, OPT_BLKTRACE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int size_opt(const char *name, const char *arg, u64 *v)
{
	if (ft_parse_size(arg, v) || !*v) {
		fprintf(stderr, "flashtrace: %s: bad size '%s'\n", name, arg);
		return -1;
	}
	return 0;
}

static u64 now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * Synthesise @n dispatch lines (alternating both formats, a mix of
 * sequential writes, random writes and reads) into a memory file, then time
 * ft_feed_fd() over it.  Prints events per second.
 */
static int run_bench(struct ft_ctx *c, u64 n)
{
	u64 i, sector = 0, rnd = 1, t0, t1, c0, c1;
	char line[160];
	FILE *f;
	int fd, len;

	fd = memfd_create("flashtrace-bench", 0);
	if (fd < 0) {
		perror("flashtrace: memfd_create");
		return 1;
	}
	f = fdopen(fd, "w+");
	if (!f) {
		perror("flashtrace: fdopen");
		return 1;
	}
	for (i = 0; i < n; i++) {
		u64 ns = i * 25000, s;
		const char *rwbs = "WS";
		unsigned int nsec = 256;

		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		if (i % 4 == 3) {
			rwbs = "R";
			s = (rnd >> 20) % (1u << 24);
			nsec = 8;
		} else if (i % 4 == 2) {
			s = ((rnd >> 20) % (1u << 21)) * 8;
			nsec = 8;
		} else {
			s = sector;
			sector += nsec;
		}
		if (i & 1)
			len = snprintf(line, sizeof(line),
				       "%llu.%09llu D %s %llu %u\n",
				       (unsigned long long)(ns / 1000000000),
				       (unsigned long long)(ns % 1000000000),
				       rwbs, (unsigned long long)s, nsec);
		else
			len = snprintf(line, sizeof(line),
				       "179,0    1 %8llu %5llu.%09llu  4321  D %3s %llu + %u [fio]\n",
				       (unsigned long long)i + 1,
				       (unsigned long long)(ns / 1000000000),
				       (unsigned long long)(ns % 1000000000),
				       rwbs, (unsigned long long)s, nsec);
		fwrite(line, 1, len, f);
	}
	fflush(f);
	lseek(fd, 0, SEEK_SET);
	t0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	ft_feed_fd(c, fd);
	c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	t1 = now_ns(CLOCK_MONOTONIC);
	fclose(f);
	/* CPU time too: on a loaded machine wall time measures the others */
	printf("flashtrace bench: %llu events (%d presets) in %.3f s (%.3f s CPU): ",
	       (unsigned long long)c->st.dispatches, c->rp.nr,
	       (t1 - t0) / 1e9, (c1 - c0) / 1e9);
	printf("%.0f events/s, %.0f per CPU second\n",
	       c->st.dispatches / ((t1 - t0) / 1e9),
	       c->st.dispatches / ((c1 - c0) / 1e9));
	return c->st.dispatches == n && c->st.bad_lines == 0 ? 0 : 1;
}

/* The binary trace base of @arg (static buffer), or @arg itself. */
static const char *base_of(const char *arg, int binary)
{
	static char base[4096];

	if (strcmp(arg, "-") && ft_blktrace_base(arg, base, sizeof(base)))
		return base;
	return binary ? arg : NULL;
}

/*
 * 0: argv[i] is text; 1: a binary trace to read; 2: a binary trace named
 * by an earlier argument too (NAME.blktrace.0 NAME.blktrace.1 read once).
 */
static int binary_input(char **argv, int first, int i, int binary)
{
	char cur[4096];
	const char *b = base_of(argv[i], binary);
	int j;

	if (!b)
		return 0;
	snprintf(cur, sizeof(cur), "%s", b);
	for (j = first; j < i; j++) {
		b = base_of(argv[j], binary);
		if (b && strcmp(b, cur) == 0)
			return 2;
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *presets[FT_MAX_PRESETS];
	const char *json_file = NULL, *svg_file = NULL, *title = NULL;
	int npresets = 0, json_stdout = 0, do_bench = 0, opt, i, rc = 0;
	unsigned int fmaj = 0, fmin = 0;
	int dev_filter = 0, binary = 0;
	struct ft_geom g;
	struct ft_ctx c;
	char err[512];

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return ft_compare_main(argc - 1, argv + 1);

	ft_geom_default(&g);
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_PAGE:
			if (size_opt("--page-size", optarg, &g.page_size))
				return 2;
			break;
		case OPT_ERASE:
			if (size_opt("--erase-size", optarg, &g.erase_size))
				return 2;
			break;
		case OPT_SECTOR:
			if (size_opt("--sector-size", optarg, &g.sector_size))
				return 2;
			break;
		case OPT_OFFSET: {
			char *end;

			errno = 0;
			g.offset = strtoull(optarg, &end, 0);
			if (errno || *end || optarg[0] == '-') {
				fprintf(stderr, "flashtrace: --offset: bad sector count '%s'\n",
					optarg);
				return 2;
			}
			break;
		}
		case OPT_DEV:
			if (sscanf(optarg, "%u,%u", &fmaj, &fmin) != 2) {
				fprintf(stderr, "flashtrace: --dev wants MAJ,MIN\n");
				return 2;
			}
			dev_filter = 1;
			break;
		case OPT_PRESET:
			if (npresets == FT_MAX_PRESETS) {
				fprintf(stderr, "flashtrace: at most %d presets\n",
					FT_MAX_PRESETS);
				return 2;
			}
			presets[npresets++] = optarg;
			break;
		case OPT_JSON:
			if (optarg)
				json_file = optarg;
			else
				json_stdout = 1;
			break;
		case OPT_SVG:
			svg_file = optarg;
			break;
		case OPT_TITLE:
			title = optarg;
			break;
		case OPT_BENCH:
			do_bench = 1;
			break;
		case OPT_BLKTRACE:
			binary = 1;
			break;
		case OPT_LIST: {
			const char *const *n;

			for (n = fm_preset_names(); *n; n++)
				printf("%s\n", *n);
			return 0;
		}
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (binary && optind == argc && !do_bench) {
		fprintf(stderr,
			"flashtrace: --blktrace wants DIR/NAME (blktrace -D DIR -o NAME)\n");
		return 2;
	}
	if (ft_geom_check(&g, err, sizeof(err))) {
		fprintf(stderr, "flashtrace: %s\n", err);
		return 2;
	}

	ft_ctx_init(&c, &g);
	c.dev_filter = dev_filter;
	c.filter_major = fmaj;
	c.filter_minor = fmin;
	for (i = 0; i < npresets; i++) {
		if (ft_replay_add(&c.rp, presets[i], err, sizeof(err))) {
			fprintf(stderr, "flashtrace: --preset: %s\n", err);
			ft_ctx_free(&c);
			return 2;
		}
	}
	if (svg_file) {
		c.svg = ft_svg_new();
		if (!c.svg) {
			fprintf(stderr, "flashtrace: out of memory\n");
			return 1;
		}
	}

	if (do_bench) {
		u64 n = optind < argc ? strtoull(argv[optind], NULL, 0) :
			2000000;

		rc = run_bench(&c, n ? n : 2000000);
		ft_ctx_free(&c);
		return rc;
	}

	if (optind == argc) {
		if (ft_feed_fd(&c, 0))
			rc = 1;
	}
	for (i = optind; i < argc; i++) {
		int fd;

		switch (binary_input(argv, optind, i, binary)) {
		case 1:
			if (ft_feed_blktrace(&c, base_of(argv[i], binary), err,
					     sizeof(err))) {
				fprintf(stderr, "flashtrace: %s\n", err);
				rc = 1;
			}
			continue;
		case 2:
			continue;	/* another file of a trace already read */
		}
		fd = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY) : 0;

		if (fd < 0 || ft_feed_fd(&c, fd)) {
			fprintf(stderr, "flashtrace: %s: %s\n", argv[i],
				strerror(errno));
			rc = 1;
		}
		if (fd > 0)
			close(fd);
	}

	if (json_stdout)
		ft_report_json(&c, stdout);
	else
		ft_report_text(&c, stdout);
	if (json_file) {
		FILE *f = fopen(json_file, "w");

		if (!f) {
			fprintf(stderr, "flashtrace: %s: %s\n", json_file,
				strerror(errno));
			rc = 1;
		} else {
			ft_report_json(&c, f);
			if (fclose(f))
				rc = 1;
		}
	}
	if (svg_file) {
		FILE *f = fopen(svg_file, "w");

		if (!f || ft_svg_write(c.svg, &c.st, f, title) || fclose(f)) {
			fprintf(stderr, "flashtrace: %s: %s\n", svg_file,
				strerror(errno));
			rc = 1;
		}
	}
	ft_ctx_free(&c);
	return rc;
}
