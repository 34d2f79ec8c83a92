// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the flashmodel command line: list presets, run flashbench's
 * open-AU pattern, replay a request list, measure the model's speed.
 * Exit status: 0 ok, 1 runtime error (bad preset, bad input file), 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fit.h"
#include "flashmodel.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char usage_text[] =
"usage: flashmodel COMMAND [options]\n"
"\n"
"  presets                      list the builtin presets and their parameters\n"
"  show --preset P [--assumed]  print preset P in preset file format\n"
"                               (\"# assumed\" on values no measurement\n"
"                               supports); --assumed: only those keys\n"
"  openau --preset P --aus N --block SIZE [--random] [--erasesize SIZE]\n"
"         [--total BYTES]       flashbench --open-au: N regions written at\n"
"                               once, one row per block size from the erase\n"
"                               size (default: the card's AU) down to SIZE\n"
"  replay --preset P FILE       replay requests, one per line:\n"
"                               R|W|F|D OFFSET LEN [fua]  (bytes; - = stdin)\n"
"  fit [--name N] [--erasesize SIZE] [--page SIZE] [--assume KEY=VALUE]...\n"
"      FILE... | --csv FILE --card ID\n"
"                               fit a preset to flashbench --open-au (and -a)\n"
"                               output, or to a card of the data set's CSV;\n"
"                               writes the preset and its residuals;\n"
"                               --check P: no fit, P against the rows;\n"
"                               --csv FILE --table: every card, one line each\n"
"  bench [--preset P] [--requests N]\n"
"                               model speed in requests per second\n"
"\n"
"P is a builtin preset (sd-c10, usb-8g, emmc-toshiba, emmc-sandisk) or a\n"
"preset file.  SIZE takes K, M, G suffixes (binary).  MB/s means 10^6 bytes\n"
"per second, as flashbench prints it.\n";

static void usage(const char *why)
{
	if (why)
		fprintf(stderr, "flashmodel: %s\n", why);
	fputs(usage_text, stderr);
	exit(2);
}

/* Parse "123", "1.5M", "16K", "2G" into bytes; -1 on error. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double x, mult = 1;

	errno = 0;
	if (!*s || !strchr("0123456789.", *s))
		return -1;
	x = strtod(s, &end);
	if (errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		mult = 1024.0;
	else if (*end == 'M')
		mult = 1048576.0;
	else if (*end == 'G')
		mult = 1073741824.0;
	else if (*end && *end != 'B')
		return -1;
	if (*end && *end != 'B') {
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
	}
	if (*end == 'B')
		end++;
	if (*end)
		return -1;
	x *= mult;
	if (x < 0 || x >= 1.8e19 || x != (double)(uint64_t)x)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

static void get_preset(const char *name, struct fm_params *p)
{
	char err[512];

	if (!name)
		usage("--preset is required");
	if (fm_preset_get(name, p, err, sizeof(err))) {
		fprintf(stderr, "flashmodel: %s\n", err);
		exit(1);
	}
}

static struct fm_model *new_model(const struct fm_params *p)
{
	struct fm_model *m = fm_new(p);

	if (!m) {
		fprintf(stderr, "flashmodel: out of memory\n");
		exit(1);
	}
	return m;
}

static void print_params(FILE *f, const struct fm_params *p)
{
	fm_preset_write(f, p, NULL);
}

static int cmd_presets(int argc, char **argv)
{
	const char *const *n;
	struct fm_params p;

	if (argc > 1)
		usage("presets takes no arguments");
	(void)argv;
	for (n = fm_preset_names(); *n; n++) {
		fm_preset_builtin(*n, &p);
		printf("[%s]\n", *n);
		print_params(stdout, &p);
		if (n[1])
			printf("\n");
	}
	return 0;
}

static const struct option long_opts[] = {
	{ "preset", required_argument, NULL, 'p' },
	{ "aus", required_argument, NULL, 'n' },
	{ "block", required_argument, NULL, 'b' },
	{ "random", no_argument, NULL, 'r' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "total", required_argument, NULL, 't' },
	{ "requests", required_argument, NULL, 'q' },
	{ "assumed", no_argument, NULL, 'A' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct cli {
	const char *preset;
	uint64_t aus, block, erasesize, total, requests;
	int random, assumed;
};

/* Parse the options every command shares; returns the first operand. */
static int parse_opts(int argc, char **argv, struct cli *c)
{
	int o, idx = 0;

	optind = 1;
	while ((o = getopt_long(argc, argv, "+h", long_opts, &idx)) != -1) {
		uint64_t *dst = NULL;

		switch (o) {
		case 'p':
			c->preset = optarg;
			break;
		case 'n':
			dst = &c->aus;
			break;
		case 'b':
			dst = &c->block;
			break;
		case 'e':
			dst = &c->erasesize;
			break;
		case 't':
			dst = &c->total;
			break;
		case 'q':
			dst = &c->requests;
			break;
		case 'r':
			c->random = 1;
			break;
		case 'A':
			c->assumed = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			usage(NULL);
		}
		if (dst && parse_size(optarg, dst)) {
			fprintf(stderr, "flashmodel: bad size '%s' for --%s\n",
				optarg, long_opts[idx].name);
			usage(NULL);
		}
	}
	return optind;
}

static void fmt_block(char *b, size_t n, uint64_t v)
{
	if (v >= 1048576)
		snprintf(b, n, "%.3gMiB", v / 1048576.0);
	else if (v >= 1024)
		snprintf(b, n, "%.3gKiB", v / 1024.0);
	else
		snprintf(b, n, "%" PRIu64 "B", v);
}

static int cmd_openau(int argc, char **argv)
{
	struct fm_openau_row rows[64];
	struct cli c = { 0 };
	struct fm_openau o = { 0 };
	struct fm_params p;
	struct fm_model *m;
	int n, i;

	if (parse_opts(argc, argv, &c) != argc)
		usage("openau takes no operands");
	get_preset(c.preset, &p);
	if (!c.aus || c.aus > 100000)
		usage("--aus N (1..100000) is required");
	if (!c.block)
		usage("--block SIZE is required");
	o.erasesize = c.erasesize ? c.erasesize : p.au_size;
	o.block = c.block;
	o.aus = c.aus;
	o.random = c.random;
	o.total = c.total;
	o.offset = UINT64_MAX;
	if (c.block < 512 || c.block > o.erasesize || o.erasesize % c.block ||
	    ((o.erasesize / c.block) & (o.erasesize / c.block - 1))) {
		fprintf(stderr,
			"flashmodel: --block %" PRIu64 " must be the erase size %" PRIu64
			" divided by a power of two, at least 512\n",
			c.block, o.erasesize);
		return 2;
	}
	m = new_model(&p);
	n = fm_openau_run(m, &o, rows, 64);
	if (n < 0) {
		fprintf(stderr, "flashmodel: cannot run this pattern\n");
		fm_free(m);
		return 1;
	}
	for (i = 0; i < n; i++) {
		char b[32], r[32];

		fmt_block(b, sizeof(b), rows[i].block);
		snprintf(r, sizeof(r), "%.3gM/s", rows[i].mbps);
		printf("%-8s%s\n", b, r);
	}
	fm_free(m);
	return 0;
}

/* Parse one replay line; returns 0, 1 for a blank line, -1 with @why. */
static int parse_line(char *line, enum fm_op *op, uint64_t *off,
		      uint64_t *len, unsigned int *flags, char *why, size_t n)
{
	char *tok[5], *save = NULL, *end;
	int nt = 0;
	char *h = strchr(line, '#');

	if (h)
		*h = '\0';
	for (char *t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (nt == 5) {
			snprintf(why, n, "too many fields");
			return -1;
		}
		tok[nt++] = t;
	}
	if (!nt)
		return 1;
	if (nt < 3) {
		snprintf(why, n, "expected 'R|W|F|D OFFSET LEN [fua]'");
		return -1;
	}
	if (strlen(tok[0]) != 1 || !strchr("RWFDrwfd", tok[0][0])) {
		snprintf(why, n, "unknown operation '%s' (R, W, F or D)", tok[0]);
		return -1;
	}
	switch (tok[0][0] & ~0x20) {
	case 'R':
		*op = FM_READ;
		break;
	case 'W':
		*op = FM_WRITE;
		break;
	case 'F':
		*op = FM_FLUSH;
		break;
	default:
		*op = FM_DISCARD;
		break;
	}
	errno = 0;
	*off = strtoull(tok[1], &end, 0);
	if (errno || *end || tok[1][0] == '-') {
		snprintf(why, n, "bad offset '%s'", tok[1]);
		return -1;
	}
	*len = strtoull(tok[2], &end, 0);
	if (errno || *end || tok[2][0] == '-' || *off + *len < *off) {
		snprintf(why, n, "bad length '%s'", tok[2]);
		return -1;
	}
	*flags = 0;
	for (int i = 3; i < nt; i++) {
		if (!strcmp(tok[i], "fua") && *op == FM_WRITE) {
			*flags |= FM_FUA;
		} else if (!strcmp(tok[i], "preflush")) {
			*flags |= FM_PREFLUSH;
		} else {
			snprintf(why, n, "unknown flag '%s' (fua on writes, preflush)",
				 tok[i]);
			return -1;
		}
	}
	return 0;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static int cmd_replay(int argc, char **argv)
{
	struct cli c = { 0 };
	struct fm_params p;
	struct fm_stats s;
	struct fm_model *m;
	char line[4096], why[128];
	const char *path;
	unsigned long lineno = 0;
	FILE *f;
	int i;

	i = parse_opts(argc, argv, &c);
	if (i != argc - 1)
		usage("replay needs exactly one FILE");
	path = argv[i];
	get_preset(c.preset, &p);
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "flashmodel: %s: %s\n", path, strerror(errno));
		return 1;
	}
	m = new_model(&p);
	while (fgets(line, sizeof(line), f)) {
		enum fm_op op;
		uint64_t off, len;
		unsigned int flags;
		int r;

		lineno++;
		r = parse_line(line, &op, &off, &len, &flags, why, sizeof(why));
		if (r < 0) {
			fprintf(stderr, "%s:%lu: %s\n", path, lineno, why);
			if (f != stdin)
				fclose(f);
			fm_free(m);
			return 1;
		}
		if (!r)
			fm_submit(m, 0, op, off, len, flags);
	}
	if (f != stdin)
		fclose(f);
	fm_get_stats(m, &s);
	printf("preset            %s\n", p.name);
	printf("requests          %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
	       " flushes, %" PRIu64 " discards\n",
	       s.reads, s.writes, s.flushes, s.discards);
	printf("host written      %.3f MiB\n", s.host_write_bytes / 1048576.0);
	printf("WA                %.3f\n", fm_write_amplification(&s));
	printf("erases            %" PRIu64 "\n", s.erases);
	printf("merges            %" PRIu64 " switch, %" PRIu64 " full\n",
	       s.switch_merges, s.full_merges);
	printf("copied            %.3f MiB\n", s.copied_bytes / 1048576.0);
	printf("pending           %" PRIu64 " open AUs would copy %.3f MiB\n",
	       s.pending_aus, s.pending_copy_bytes / 1048576.0);
	printf("busy              %.3f s\n", s.busy_ns / 1e9);
	printf("write MiB/s       %.3f\n", fm_write_mibps(&s));
	printf("write MB/s        %.3f\n", fm_write_mbps(&s));
	printf("write service     p50 %.3f ms, p99 %.3f ms\n",
	       ms(fm_service_percentile(m, FM_WRITE, 0.5)),
	       ms(fm_service_percentile(m, FM_WRITE, 0.99)));
	printf("read service      p50 %.3f ms, p99 %.3f ms\n",
	       ms(fm_service_percentile(m, FM_READ, 0.5)),
	       ms(fm_service_percentile(m, FM_READ, 0.99)));
	fm_free(m);
	return 0;
}

static uint64_t bench_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * A mixed stream over 1 GiB: random 4 KiB writes, sequential 64 KiB
 * writes, random 16 KiB reads, an occasional discard and flush.
 */
static int cmd_bench(int argc, char **argv)
{
	struct cli c = { .requests = 5000000 };
	struct timespec t0, t1;
	struct fm_params p;
	struct fm_model *m;
	uint64_t x = 88172645463325252ull, seq = 0, i, t = 0;
	double sec;

	if (parse_opts(argc, argv, &c) != argc)
		usage("bench takes no operands");
	get_preset(c.preset ? c.preset : "sd-c10", &p);
	if (!c.requests)
		usage("--requests must be above 0");
	m = new_model(&p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < c.requests; i++) {
		uint64_t r = bench_rand(&x);

		switch (r % 16) {
		case 0 ... 6:
			t = fm_submit(m, t, FM_WRITE,
				      (r >> 8) % (1ull << 18) * 4096, 4096, 0);
			break;
		case 7 ... 11:
			t = fm_submit(m, t, FM_WRITE, seq, 65536, 0);
			seq = (seq + 65536) % (1ull << 30);
			break;
		case 12 ... 14:
			t = fm_submit(m, t, FM_READ,
				      (r >> 8) % (1ull << 16) * 16384, 16384, 0);
			break;
		default:
			if (r & 0x100)
				t = fm_submit(m, t, FM_FLUSH, 0, 0, 0);
			else
				t = fm_submit(m, t, FM_DISCARD,
					      (r >> 9) % 256 * p.au_size,
					      p.au_size, 0);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sec = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%" PRIu64 " requests in %.3f s: %.2f M requests/s (preset %s)\n",
	       c.requests, sec, c.requests / sec / 1e6, p.name);
	fm_free(m);
	return 0;
}

static const struct option fit_opts[] = {
	{ "name", required_argument, NULL, 'N' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "page", required_argument, NULL, 'g' },
	{ "csv", required_argument, NULL, 'c' },
	{ "card", required_argument, NULL, 'C' },
	{ "assume", required_argument, NULL, 'a' },
	{ "check", required_argument, NULL, 'k' },
	{ "table", no_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* One markdown row per card of @csv: what the fit gives, or why it fails. */
static int fit_table(const char *csv, struct fm_fit_opts *o)
{
	static struct fm_fit_input in;
	static char cards[256][64];
	struct fm_fit_result r;
	char err[512];
	int n = fm_fit_csv_cards(csv, cards, 256, err, sizeof(err));

	if (n < 0) {
		fprintf(stderr, "flashmodel: %s\n", err);
		return 1;
	}
	printf("| device | rows | used | max error (used) | max error (all) | fitted parameters |\n");
	printf("|---|---|---|---|---|---|\n");
	for (int c = 0; c < n; c++) {
		char copy[32] = "lumped";

		memset(&in, 0, sizeof(in));
		o->name = cards[c];
		if (fm_fit_read_csv(csv, cards[c], &in, err, sizeof(err)) < 0 ||
		    fm_fit(&in, o, &r, err, sizeof(err))) {
			printf("| %s | - | - | - | - | not fitted: %s |\n", cards[c], err);
			continue;
		}
		if (r.p.copy_bw < 1000000000000ull)
			snprintf(copy, sizeof(copy), "%.3g MB/s", r.p.copy_bw / 1e6);
		printf("| %s | %d | %d | %.1f%% | %.1f%% | AU %gM, unit %uK, open %u, random_ok %d, %.3g ms + %.3g MB/s, merge %.3g ms + copy %s |\n",
		       cards[c], r.total, r.used, 100 * r.max_err_used,
		       100 * r.max_err_all, r.p.au_size / 1048576.0,
		       r.p.unit / 1024, r.p.open_aus, r.p.random_ok,
		       r.p.write_overhead_ns / 1e6, r.p.write_bw / 1e6,
		       r.p.merge_ns / 1e6, copy);
	}
	return 0;
}

/*
 * fit [--name N] [--erasesize S] [--page S] [--assume KEY=VALUE]...
 *     FILE... | --csv FILE --card ID
 */
static int cmd_fit(int argc, char **argv)
{
	static struct fm_fit_input in;
	struct fm_fit_opts o = { 0 };
	struct fm_fit_result r;
	const char *csv = NULL, *card = NULL, *check = NULL;
	char err[512];
	int c, idx = 0, i, table = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", fit_opts, &idx)) != -1) {
		char *eq;
		int id;

		switch (c) {
		case 'N':
			o.name = optarg;
			break;
		case 'e':
		case 'g':
			if (parse_size(optarg, c == 'e' ? &o.erasesize : &o.page)) {
				fprintf(stderr, "flashmodel: bad size '%s' for --%s\n",
					optarg, fit_opts[idx].name);
				usage(NULL);
			}
			break;
		case 'c':
			csv = optarg;
			break;
		case 'C':
			card = optarg;
			break;
		case 'k':
			check = optarg;
			break;
		case 'T':
			table = 1;
			break;
		case 'a':
			eq = strchr(optarg, '=');
			if (!eq)
				usage("--assume takes KEY=VALUE");
			*eq = '\0';
			id = fm_param_set(&o.fixed, optarg, eq + 1, err, sizeof(err));
			if (id < 0) {
				fprintf(stderr, "flashmodel: --assume %s: %s\n", optarg,
					id == -1 ? "not a model parameter" : err);
				usage(NULL);
			}
			o.fixed_mask |= FM_ASSUMED(id);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			usage(NULL);
		}
	}
	if (table) {
		if (!csv || card || optind != argc)
			usage("--table goes with --csv FILE only");
		return fit_table(csv, &o);
	}
	if (!o.name)
		o.name = card ? card : "fitted";
	if (csv) {
		if (!card || optind != argc)
			usage("--csv FILE needs --card ID and no FILE operands");
		if (fm_fit_read_csv(csv, card, &in, err, sizeof(err)) < 0) {
			fprintf(stderr, "flashmodel: %s\n", err);
			return 1;
		}
		if (!in.nruns) {
			fprintf(stderr, "flashmodel: %s: no rows for card '%s'\n",
				csv, card);
			return 1;
		}
	} else {
		if (card)
			usage("--card goes with --csv");
		if (optind == argc)
			usage("fit needs FILE... (flashbench output, - = stdin) or --csv");
		for (i = optind; i < argc; i++) {
			FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
			int rc;

			if (!f) {
				fprintf(stderr, "flashmodel: %s: %s\n", argv[i],
					strerror(errno));
				return 1;
			}
			rc = fm_fit_read(f, argv[i], &in, err, sizeof(err));
			if (f != stdin)
				fclose(f);
			if (rc) {
				fprintf(stderr, "flashmodel: %s\n", err);
				return 1;
			}
		}
	}
	if (check) {
		/* no fit: the rows against an existing preset */
		memset(&r, 0, sizeof(r));
		get_preset(check, &r.p);
		r.max_err_all = fm_fit_eval(&r.p, &in, &r.max_err_used);
		for (i = 0; i < in.nruns; i++)
			r.total += in.runs[i].nrows;
		r.used = r.total;
		fm_fit_write(stdout, &in, &r);
		return 0;
	}
	if (fm_fit(&in, &o, &r, err, sizeof(err))) {
		fprintf(stderr, "flashmodel: cannot fit: %s\n", err);
		return 1;
	}
	fm_fit_write(stdout, &in, &r);
	return 0;
}

static int cmd_show(int argc, char **argv)
{
	struct cli c = { 0 };
	struct fm_params p;

	if (parse_opts(argc, argv, &c) != argc)
		usage("show takes no operands");
	get_preset(c.preset, &p);
	if (c.assumed) {
		for (int id = 0; id < FM_K_COUNT; id++)
			if (p.assumed & FM_ASSUMED(id))
				printf("%s\n", fm_key_name(id));
		return 0;
	}
	print_params(stdout, &p);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "presets", cmd_presets },
		{ "show", cmd_show },
		{ "openau", cmd_openau },
		{ "replay", cmd_replay },
		{ "bench", cmd_bench },
		{ "fit", cmd_fit },
	};
	size_t i;

	if (argc < 2)
		usage(NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "flashmodel: unknown command '%s'\n", argv[1]);
	usage(NULL);
	return 2;
}
