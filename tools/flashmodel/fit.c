// SPDX-License-Identifier: GPL-2.0
/*
 * fit.c - fit a preset to a card's flashbench --open-au (and -a) output.
 *
 * The fit drives the model with flashbench's own pattern (openau.c) and
 * compares every published row, so whatever the model does (switch merges,
 * erases, RANDOM slots) is in the residuals.  Objective: the largest
 * |ln(modelled / published)| over the rows of a step.  Steps, each on the
 * rows that determine it (README.md "Fitting a card" says the same):
 *  1. runs past the open-AU limit: a run whose smallest-block rate is below
 *     half that of the run of the same pattern with the fewest AUs, and
 *     every run with more AUs than a collapsed one; open_aus (random_aus)
 *     is the largest run within;
 *  2. rows the model cannot describe are left out (exclude_rows());
 *  3. write_overhead, write_bw: minimax over the linear rows within the
 *     limit (random ones if there is no linear run);
 *  4. au_size among 2, 1, 1/2, 1/4 times the test's erase size, each with
 *     step 3 again and merge, copy_bw minimax over the rows past the limit;
 *  5. random_ok: whichever of 0 and 1 models the --random rows better.
 * Everything else keeps a documented default and is marked assumed.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

#define KiB		1024ull
#define MiB		(1024ull * 1024)
#define US		1000ull
#define MS		1000000ull
#define LUMPED_BW	1000000000000ull	/* copy_bw that makes copying free */

/* Defaults of the parameters open-AU rows cannot determine. */
#define DEF_UNIT	(16 * KiB)
#define DEF_ERASESIZE	(4 * MiB)	/* flashbench's --erasesize default */
#define DEF_AUS		2		/* flashbench's --open-au-nr default */

/* ---- parsing ---- */

struct unit_tab {
	const char *s;
	double mult;
};

static const struct unit_tab size_units[] = {
	{ "", 1 }, { "B", 1 }, { "K", 1024.0 }, { "KiB", 1024.0 },
	{ "k", 1024.0 }, { "M", 1048576.0 }, { "MiB", 1048576.0 },
	{ "G", 1073741824.0 }, { "GiB", 1073741824.0 }, { NULL, 0 }
};

/* flashbench prints rates in decimal units: M/s = 10^6 bytes/s */
static const struct unit_tab rate_units[] = {
	{ "B/s", 1e-6 }, { "K/s", 1e-3 }, { "M/s", 1 }, { "G/s", 1e3 },
	{ NULL, 0 }
};

/* flashbench prints "µs"; "n" is how a truncated "ns" shows up */
static const struct unit_tab time_units[] = {
	{ "ns", 1 }, { "n", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 },
	{ "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 }
};

/* "<number><unit>" with a unit from @tab; 0 or -1. */
static int parse_unit(const char *s, const struct unit_tab *tab, double *out)
{
	char *end;
	double x;
	int i;

	errno = 0;
	if (!*s || !strchr("-0123456789.", *s))
		return -1;
	x = strtod(s, &end);
	if (errno || end == s)
		return -1;
	for (i = 0; tab[i].s; i++) {
		if (!strcmp(end, tab[i].s)) {
			*out = x * tab[i].mult;
			return 0;
		}
	}
	return -1;
}

static int parse_bytes(const char *s, uint64_t *out)
{
	double x;

	if (parse_unit(s, size_units, &x) || x < 512 || x > 1e15 ||
	    x != (double)(uint64_t)x)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

static void fmt_bytes(char *b, size_t n, uint64_t v)
{
	if (v >= MiB && !(v % MiB))
		snprintf(b, n, "%lluMiB", (unsigned long long)(v / MiB));
	else if (v >= KiB && !(v % KiB))
		snprintf(b, n, "%lluKiB", (unsigned long long)(v / KiB));
	else if (v >= MiB)
		snprintf(b, n, "%.4gMiB", v / (double)MiB);
	else
		snprintf(b, n, "%lluB", (unsigned long long)v);
}

static struct fm_fit_run *new_run(struct fm_fit_input *in, uint32_t aus,
				  int random, uint64_t es, int line)
{
	struct fm_fit_run *r;

	/* a run that printed nothing (interrupted at once) is dropped */
	if (in->nruns && !in->runs[in->nruns - 1].nrows)
		in->nruns--;
	if (in->nruns == FM_FIT_RUNS)
		return NULL;
	r = &in->runs[in->nruns++];
	memset(r, 0, sizeof(*r));
	r->aus = aus;
	r->random = random;
	r->erasesize = es;
	r->line = line;
	return r;
}

static int add_row(struct fm_fit_run *r, uint64_t block, double mbps,
		   int line, char *why, size_t n)
{
	int i;

	if (block > r->erasesize || r->erasesize % block) {
		snprintf(why, n, "block %llu does not divide the run's erase size %llu",
			 (unsigned long long)block,
			 (unsigned long long)r->erasesize);
		return -1;
	}
	if (!(mbps > 0)) {
		snprintf(why, n, "rate must be above 0");
		return -1;
	}
	for (i = 0; i < r->nrows; i++) {
		if (r->rows[i].block == block) {
			snprintf(why, n, "block size printed twice in one run");
			return -1;
		}
	}
	if (r->nrows == FM_FIT_ROWS) {
		snprintf(why, n, "more than %d rows in one run", FM_FIT_ROWS);
		return -1;
	}
	r->rows[r->nrows].block = block;
	r->rows[r->nrows].mbps = mbps;
	r->rows[r->nrows].line = line;
	r->nrows++;
	return 0;
}

enum mode { M_NONE, M_OPENAU, M_ALIGN, M_SKIP };

/*
 * A flashbench command line: "--open-au" (-O) starts a run with
 * --open-au-nr (default 2), --random (-r), --erasesize (-e, default 4M);
 * "-a"/"--align" starts align output; any other command is skipped.
 */
static int parse_command(char *s, struct fm_fit_input *in, enum mode *mode,
			 struct fm_fit_run **run, int line, char *why, size_t n)
{
	char *tok[64], *save = NULL;
	int nt = 0, i, openau = 0, align = 0, random = 0;
	uint64_t aus = DEF_AUS, es = DEF_ERASESIZE;

	for (char *t = strtok_r(s, " \t", &save); t && nt < 64;
	     t = strtok_r(NULL, " \t", &save))
		tok[nt++] = t;
	for (i = 0; i < nt; i++) {
		char *v = NULL, *eq = strchr(tok[i], '=');
		const char *opt = tok[i];

		if (eq && !strncmp(tok[i], "--", 2)) {
			*eq = '\0';
			v = eq + 1;
		}
		if (!strcmp(opt, "--open-au") || !strcmp(opt, "-O")) {
			openau = 1;
		} else if (!strcmp(opt, "--random") || !strcmp(opt, "-r")) {
			random = 1;
		} else if (!strcmp(opt, "-a") || !strcmp(opt, "--align")) {
			align = 1;
		} else if (!strcmp(opt, "--open-au-nr") ||
			   !strcmp(opt, "--erasesize") || !strcmp(opt, "-e")) {
			uint64_t x = 0;
			char *end = NULL;

			if (!v && i + 1 < nt)
				v = tok[++i];
			if (v && opt[2] == 'o')
				x = strtoull(v, &end, 10);
			if (!v || (opt[2] == 'o' ? *end || !x || x > 4096 :
				   parse_bytes(v, &x))) {
				snprintf(why, n, "bad value '%s' for %s",
					 v ? v : "", opt);
				return -1;
			}
			if (opt[2] == 'o')
				aus = x;
			else
				es = x;
		}
	}
	if (openau) {
		*run = new_run(in, aus, random, es, line);
		if (!*run) {
			snprintf(why, n, "more than %d runs", FM_FIT_RUNS);
			return -1;
		}
		*mode = M_OPENAU;
	} else {
		*mode = align ? M_ALIGN : M_SKIP;
	}
	return 0;
}

/* "# run aus=N pattern=linear|random [erasesize=SIZE]" */
static int parse_annotation(char *s, struct fm_fit_input *in,
			    enum mode *mode, struct fm_fit_run **run,
			    int line, char *why, size_t n)
{
	char *save = NULL;
	uint64_t aus = 0, es = DEF_ERASESIZE;
	int random = -1;

	for (char *t = strtok_r(s, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(t, "run"))
			continue;
		if (!strncmp(t, "aus=", 4)) {
			char *end;

			aus = strtoull(t + 4, &end, 10);
			if (*end || !aus || aus > 4096) {
				snprintf(why, n, "bad '%s' (aus=1..4096)", t);
				return -1;
			}
		} else if (!strcmp(t, "pattern=linear")) {
			random = 0;
		} else if (!strcmp(t, "pattern=random")) {
			random = 1;
		} else if (!strncmp(t, "erasesize=", 10)) {
			if (parse_bytes(t + 10, &es)) {
				snprintf(why, n, "bad erase size '%s'", t + 10);
				return -1;
			}
		} else {
			snprintf(why, n,
				 "unknown field '%s' (run aus=N pattern=linear|random [erasesize=SIZE])",
				 t);
			return -1;
		}
	}
	if (!aus || random < 0) {
		snprintf(why, n, "a run line needs aus=N and pattern=linear|random");
		return -1;
	}
	*run = new_run(in, aus, random, es, line);
	if (!*run) {
		snprintf(why, n, "more than %d runs", FM_FIT_RUNS);
		return -1;
	}
	*mode = M_OPENAU;
	return 0;
}

#define ALIGN_MAX	48

/*
 * Guess the erase size and the page from flashbench -a: "diff" is the
 * extra time of a read across an align boundary.  Page: the largest align
 * whose diff is at least 4x every smaller align's (crossing a smaller
 * boundary costs nothing).  Erase size: the align >= 1 MiB with the largest
 * diff(align) / diff(align / 2), if that ratio is at least 1.05.
 */
static void align_guess(struct fm_fit_input *in, const uint64_t *al,
			const double *d, int n)
{
	double best = 1.05, dmax;
	int i, j;

	for (i = 0; i < n; i++) {
		dmax = -1e30;
		for (j = 0; j < n; j++)
			if (al[j] < al[i] && d[j] > dmax)
				dmax = d[j];
		if (dmax > -1e30 && d[i] > 0 && dmax < 0.25 * d[i] &&
		    al[i] > in->align_page)
			in->align_page = al[i];
	}
	for (i = 0; i < n; i++) {
		if (al[i] < MiB || d[i] <= 0)
			continue;
		for (j = 0; j < n; j++) {
			if (al[j] * 2 != al[i] || d[j] <= 0)
				continue;
			if (d[i] / d[j] >= best) {
				best = d[i] / d[j];
				in->align_erase = al[i];
				snprintf(in->align_why, sizeof(in->align_why),
					 "flashbench -a: diff %.0fus at %lluK, %.0fus at %lluK",
					 d[i] / 1e3,
					 (unsigned long long)(al[i] / KiB),
					 d[j] / 1e3,
					 (unsigned long long)(al[j] / KiB));
			}
		}
	}
}

int fm_fit_read(FILE *f, const char *path, struct fm_fit_input *in,
		char *err, size_t errlen)
{
	char line[1024], why[200];
	enum mode mode = M_NONE;
	struct fm_fit_run *run = NULL;
	uint64_t al[ALIGN_MAX];
	double diff[ALIGN_MAX];
	int lineno = 0, nal = 0;

	if (!in->source[0])
		snprintf(in->source, sizeof(in->source), "%s", path);
	else if (strlen(in->source) + strlen(path) + 3 < sizeof(in->source))
		strcat(strcat(in->source, ", "), path);
	while (fgets(line, sizeof(line), f)) {
		char *s, *a, *b, *save = NULL;

		lineno++;
		s = fm_trim(line);
		if (!*s)
			continue;
		if (*s == '#') {
			char *body = fm_trim(s + 1);

			if (!strncmp(body, "run ", 4) || !strcmp(body, "run")) {
				if (parse_annotation(body, in, &mode, &run,
						     lineno, why, sizeof(why)))
					goto bad;
			} else if (strstr(body, "flashbench")) {
				if (parse_command(body, in, &mode, &run, lineno,
						  why, sizeof(why)))
					goto bad;
			}
			continue;
		}
		if (strstr(s, "flashbench")) {
			if (parse_command(s, in, &mode, &run, lineno, why,
					  sizeof(why)))
				goto bad;
			continue;
		}
		if (mode == M_SKIP)
			continue;
		if (mode == M_NONE) {
			snprintf(why, sizeof(why),
				 "'%s' before any flashbench command line or '# run aus=N pattern=...' line",
				 s);
			goto bad;
		}
		if (mode == M_ALIGN) {
			/* align A pre T on T post T diff T */
			char *tok[12];
			int nt = 0;
			uint64_t x;
			double dd;

			for (char *t = strtok_r(s, " \t", &save); t && nt < 12;
			     t = strtok_r(NULL, " \t", &save))
				tok[nt++] = t;
			if (nt != 10 || strcmp(tok[0], "align") ||
			    strcmp(tok[8], "diff") ||
			    (x = strtoull(tok[1], NULL, 10)) < 512 ||
			    parse_unit(tok[9], time_units, &dd)) {
				snprintf(why, sizeof(why),
					 "expected flashbench -a output 'align N pre T on T post T diff T'");
				goto bad;
			}
			if (nal < ALIGN_MAX) {
				al[nal] = x;
				diff[nal++] = dd;
			}
			continue;
		}
		/* open-au row: "4MiB    8.79M/s" */
		a = strtok_r(s, " \t", &save);
		b = strtok_r(NULL, " \t", &save);
		{
			uint64_t block;
			double mbps;

			if (!a || !b || strtok_r(NULL, " \t", &save)) {
				snprintf(why, sizeof(why),
					 "expected an open-au row 'BLOCK RATE' (e.g. '4MiB 8.79M/s')");
				goto bad;
			}
			if (parse_bytes(a, &block)) {
				snprintf(why, sizeof(why),
					 "bad block size '%s' (e.g. 512KiB, at least 512B)", a);
				goto bad;
			}
			if (parse_unit(b, rate_units, &mbps)) {
				snprintf(why, sizeof(why),
					 "bad rate '%s' (B/s, K/s, M/s or G/s, as flashbench prints)",
					 b);
				goto bad;
			}
			if (add_row(run, block, mbps, lineno, why, sizeof(why)))
				goto bad;
		}
	}
	if (in->nruns && !in->runs[in->nruns - 1].nrows)
		in->nruns--;
	if (nal)
		align_guess(in, al, diff, nal);
	return 0;
bad:
	snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
	return -1;
}

/* ---- the data set's CSV ---- */

#define CSV_FIELDS	16

/* Split one CSV line in place (double quotes, "" inside quotes). */
static int csv_split(char *s, char **fld, int max)
{
	int n = 0;

	while (n < max) {
		char *w = s;

		fld[n++] = s;
		if (*s == '"') {
			s++;
			for (;;) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					*w++ = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*w++ = *s++;
				}
			}
		}
		while (*s && *s != ',' && *s != '\n' && *s != '\r')
			*w++ = *s++;
		if (*s != ',') {
			*w = '\0';
			return n;
		}
		*w = '\0';
		s++;
	}
	return -1;
}

struct csv_cols {
	int card, aus, bytes, mbps, pattern, es;
};

static int csv_header(char *line, struct csv_cols *c)
{
	char *fld[CSV_FIELDS];
	int n = csv_split(line, fld, CSV_FIELDS), i;

	memset(c, -1, sizeof(*c));
	for (i = 0; i < n; i++) {
		char *f = fm_trim(fld[i]);

		if (!strcmp(f, "card"))
			c->card = i;
		else if (!strcmp(f, "aus"))
			c->aus = i;
		else if (!strcmp(f, "blocksize_bytes"))
			c->bytes = i;
		else if (!strcmp(f, "mbps"))
			c->mbps = i;
		else if (!strcmp(f, "pattern"))
			c->pattern = i;
		else if (!strcmp(f, "erasesize"))
			c->es = i;
	}
	return c->card < 0 || c->aus < 0 || c->bytes < 0 || c->mbps < 0 ||
	       c->pattern < 0 || c->es < 0 ? -1 : 0;
}

int fm_fit_read_csv(const char *path, const char *card,
		    struct fm_fit_input *in, char *err, size_t errlen)
{
	char line[4096], why[200];
	struct csv_cols c;
	struct fm_fit_run *run = NULL;
	int lineno = 0, rows = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(in->source, sizeof(in->source), "%s, card %s", path, card);
	while (fgets(line, sizeof(line), f)) {
		char *fld[CSV_FIELDS], *end, esbuf[32];
		uint64_t aus, bytes, es;
		int random, n;
		double mbps;

		lineno++;
		if (lineno == 1) {
			if (csv_header(line, &c)) {
				snprintf(why, sizeof(why),
					 "header lacks card, aus, blocksize_bytes, mbps, pattern or erasesize");
				goto bad;
			}
			continue;
		}
		n = csv_split(line, fld, CSV_FIELDS);
		if (n <= c.es || n <= c.card || n <= c.pattern) {
			snprintf(why, sizeof(why), "too few fields");
			goto bad;
		}
		if (strcmp(fld[c.card], card))
			continue;
		if (!*fld[c.aus]) {
			snprintf(why, sizeof(why),
				 "card %s: open-au-nr (aus) unknown, the pattern cannot be reproduced",
				 card);
			goto bad;
		}
		aus = strtoull(fld[c.aus], &end, 10);
		bytes = strtoull(fld[c.bytes], NULL, 10);
		mbps = strtod(fld[c.mbps], NULL);
		random = !strcmp(fld[c.pattern], "random");
		/* "4MiB" or "4MiB (default)" */
		snprintf(esbuf, sizeof(esbuf), "%s", fld[c.es]);
		esbuf[strcspn(esbuf, " ")] = '\0';
		if (*end || !aus || (!random && strcmp(fld[c.pattern], "linear")) ||
		    parse_bytes(esbuf, &es)) {
			snprintf(why, sizeof(why), "bad aus, pattern or erasesize");
			goto bad;
		}
		if (!run || run->aus != aus || run->random != random ||
		    run->erasesize != es) {
			run = new_run(in, aus, random, es, lineno);
			if (!run) {
				snprintf(why, sizeof(why), "more than %d runs",
					 FM_FIT_RUNS);
				goto bad;
			}
		}
		if (add_row(run, bytes, mbps, lineno, why, sizeof(why)))
			goto bad;
		rows++;
	}
	fclose(f);
	return rows;
bad:
	fclose(f);
	snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
	return -1;
}

int fm_fit_csv_cards(const char *path, char names[][64], int max,
		     char *err, size_t errlen)
{
	char line[4096];
	struct csv_cols c;
	int lineno = 0, n = 0, i;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *fld[CSV_FIELDS];

		if (++lineno == 1) {
			if (csv_header(line, &c)) {
				snprintf(err, errlen, "%s:1: not an open-au CSV", path);
				fclose(f);
				return -1;
			}
			continue;
		}
		if (csv_split(line, fld, CSV_FIELDS) <= c.card)
			continue;
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], fld[c.card]))
				break;
		if (i == n && n < max)
			snprintf(names[n++], 64, "%s", fld[c.card]);
	}
	fclose(f);
	return n;
}

/* ---- modelling the rows ---- */

const char *fm_fit_row_use(const struct fm_fit_row *row)
{
	switch (row->excluded) {
	case 0:
		return NULL;
	case 1:
		return "rate falls as the block grows";
	case 2:
		return "over 15% off the same block in the other runs";
	case 3:
		return "rate falls as the block grows within the limit";
	default:
		return "not used";
	}
}

static double rel_err(const struct fm_fit_row *r)
{
	return r->model / r->mbps - 1;
}

/*
 * The fit's objective: |ln(modelled / published)|, symmetric, so that
 * 4x too fast and 4x too slow weigh the same (about the relative error
 * for small errors).
 */
static double log_err(const struct fm_fit_row *r)
{
	if (!(r->model > 0))
		return 1e9;
	return fabs(log(r->model / r->mbps));
}

/* Model run @r with @p; returns the max log error over its used rows. */
static double eval_run(const struct fm_params *p, struct fm_fit_run *r)
{
	struct fm_openau_row out[64];
	struct fm_openau o = { .aus = r->aus, .random = r->random,
			       .erasesize = r->erasesize,
			       .offset = UINT64_MAX };
	struct fm_model *m;
	double used = 0;
	int n, i, j;

	o.block = r->erasesize;
	for (i = 0; i < r->nrows; i++)
		if (r->rows[i].block < o.block)
			o.block = r->rows[i].block;
	m = fm_new(p);
	n = m ? fm_openau_run(m, &o, out, 64) : -1;
	fm_free(m);
	for (i = 0; i < r->nrows; i++) {
		struct fm_fit_row *w = &r->rows[i];

		w->model = 0;
		for (j = 0; j < n; j++)
			if (out[j].block == w->block)
				w->model = out[j].mbps;
		if (!w->excluded && log_err(w) > used)
			used = log_err(w);
	}
	return used;
}

double fm_fit_eval(const struct fm_params *p, struct fm_fit_input *in,
		   double *used_err)
{
	double all = 0, used = 0;
	int i, j;

	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];

		eval_run(p, r);
		for (j = 0; j < r->nrows; j++) {
			double e = fabs(rel_err(&r->rows[j]));

			if (e > all)
				all = e;
			if (!r->rows[j].excluded && e > used)
				used = e;
		}
	}
	if (used_err)
		*used_err = used;
	return all;
}

/* Largest relative error over the used rows of the runs in @set. */
static double set_rel_err(const struct fm_params *p, struct fm_fit_input *in,
			  int set);

/* Run sets the steps fit to. */
enum { SET_WITHIN_LINEAR = 1, SET_WITHIN_RANDOM = 2, SET_OVER = 4,
       SET_RANDOM = 8, SET_OVER_LINEAR = 16 };

static int in_set(const struct fm_fit_run *r, int set)
{
	if ((set & SET_WITHIN_LINEAR) && !r->over && !r->random)
		return 1;
	if ((set & SET_WITHIN_RANDOM) && !r->over && r->random)
		return 1;
	if ((set & SET_OVER) && r->over)
		return 1;
	if ((set & SET_OVER_LINEAR) && r->over && !r->random)
		return 1;
	return (set & SET_RANDOM) && r->random;
}

static double set_err(const struct fm_params *p, struct fm_fit_input *in,
		      int set)
{
	double worst = 0;
	int i;

	for (i = 0; i < in->nruns; i++) {
		if (in_set(&in->runs[i], set)) {
			double e = eval_run(p, &in->runs[i]);

			if (e > worst)
				worst = e;
		}
	}
	return worst;
}

static double set_rel_err(const struct fm_params *p, struct fm_fit_input *in,
			  int set)
{
	double worst = 0;
	int i, j;

	set_err(p, in, set);
	for (i = 0; i < in->nruns; i++) {
		const struct fm_fit_run *r = &in->runs[i];

		if (!in_set(r, set))
			continue;
		for (j = 0; j < r->nrows; j++)
			if (!r->rows[j].excluded &&
			    fabs(rel_err(&r->rows[j])) > worst)
				worst = fabs(rel_err(&r->rows[j]));
	}
	return worst;
}

static int set_rows(const struct fm_fit_input *in, int set, uint64_t *minb,
		    uint64_t *maxb)
{
	int i, j, n = 0;

	*minb = UINT64_MAX;
	*maxb = 0;
	for (i = 0; i < in->nruns; i++) {
		const struct fm_fit_run *r = &in->runs[i];

		if (!in_set(r, set))
			continue;
		for (j = 0; j < r->nrows; j++) {
			if (r->rows[j].excluded)
				continue;
			n++;
			if (r->rows[j].block < *minb)
				*minb = r->rows[j].block;
			if (r->rows[j].block > *maxb)
				*maxb = r->rows[j].block;
		}
	}
	return n;
}

/* ---- the search ---- */

/*
 * Which parameters a search moves, in log space: x = ln(value + shift),
 * so that a time can reach (almost) 0.
 */
struct search {
	struct fm_params p;
	struct fm_fit_input *in;
	int set;
	int nvar;
	uint64_t *var[2];
	double shift[2];
	double lo[2], hi[2];
};

static void search_apply(struct search *s, const double *x)
{
	int i;

	for (i = 0; i < s->nvar; i++) {
		double v = exp(x[i]) - s->shift[i];

		if (v < s->lo[i])
			v = s->lo[i];
		if (v > s->hi[i])
			v = s->hi[i];
		*s->var[i] = (uint64_t)(v + 0.5);
	}
}

static double search_f(struct search *s, const double *x)
{
	search_apply(s, x);
	return set_err(&s->p, s->in, s->set);
}

/* Compass search from @x: halve the step when no move helps. */
static double search_run(struct search *s, double *x, double step)
{
	double best = search_f(s, x);

	while (step > 0.002) {
		int moved = 0, i, d;

		for (i = 0; i < s->nvar; i++) {
			for (d = -1; d <= 1; d += 2) {
				double save = x[i], v;

				x[i] += d * step;
				v = search_f(s, x);
				if (v < best - 1e-9) {
					best = v;
					moved = 1;
				} else {
					x[i] = save;
				}
			}
		}
		if (!moved)
			step /= 2;
	}
	search_apply(s, x);
	return best;
}

/* Round to 3 significant digits in units of @q. */
static uint64_t round3(uint64_t v, uint64_t q)
{
	double x = (double)v / q, m = 1;

	if (x < 1)
		return v < q / 2 ? 0 : q;
	while (x >= 1000) {
		x /= 10;
		m *= 10;
	}
	return (uint64_t)(floor(x + 0.5) * m) * q;
}

/* ---- the fit ---- */

/* Smallest-block rate of @r that @ref also has, and @ref's; 0 if none. */
static int common_rates(const struct fm_fit_run *r, const struct fm_fit_run *ref,
			double *rr, double *rref, uint64_t *block)
{
	uint64_t best = UINT64_MAX;
	int i, j;

	for (i = 0; i < r->nrows; i++)
		for (j = 0; j < ref->nrows; j++)
			if (r->rows[i].block == ref->rows[j].block &&
			    r->rows[i].block < best) {
				best = r->rows[i].block;
				*rr = r->rows[i].mbps;
				*rref = ref->rows[j].mbps;
			}
	*block = best;
	return best != UINT64_MAX;
}

/*
 * Step 1: mark runs past the limit for one pattern.  Returns the largest
 * AU count within it (0 if no run), in *over_at the smallest one past it
 * (0 if none) and the evidence in @why.
 */
static uint32_t classify(struct fm_fit_input *in, int random,
			 uint32_t *over_at, char *why, size_t n)
{
	struct fm_fit_run *ref = NULL;
	uint32_t within = 0;
	int i;

	*over_at = 0;
	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];

		if (r->random == random && (!ref || r->aus < ref->aus))
			ref = r;
	}
	if (!ref)
		return 0;
	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];
		double a, b;
		uint64_t blk;

		if (r->random != random || r == ref || r->aus == ref->aus)
			continue;
		if (common_rates(r, ref, &a, &b, &blk) && a < 0.5 * b &&
		    (!*over_at || r->aus < *over_at)) {
			char bs[32];

			*over_at = r->aus;
			fmt_bytes(bs, sizeof(bs), blk);
			snprintf(why, n,
				 "%u AUs %.3g MB/s vs %u AUs %.3g MB/s at %s",
				 r->aus, a, ref->aus, b, bs);
		}
	}
	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];

		if (r->random != random)
			continue;
		r->over = *over_at && r->aus >= *over_at;
		if (!r->over && r->aus > within)
			within = r->aus;
	}
	return within;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Rows the model cannot describe are left out of the fit (they stay in
 * the table with their error):
 *  1. within the limit, a row whose rate is more than 15% below the run's
 *     peak at a smaller block: the model's rate never falls as the block
 *     grows;
 *  2. within the limit, a row more than 15% off the median of the same
 *     block and pattern in at least 3 runs: the model gives all of them
 *     the same rate (it is the card's state, not the pattern);
 *  3. past the limit, a row at a block size whose within-limit rows were
 *     all left out by rule 1.
 */
static void exclude_rows(struct fm_fit_input *in)
{
	int i, j, k;

	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];
		int peak = 0;

		for (j = 0; j < r->nrows; j++) {
			r->rows[j].excluded = 0;
			if (r->rows[j].mbps > r->rows[peak].mbps)
				peak = j;
		}
		if (r->over)
			continue;
		for (j = 0; j < r->nrows; j++)
			if (r->rows[j].block > r->rows[peak].block &&
			    r->rows[j].mbps < 0.85 * r->rows[peak].mbps)
				r->rows[j].excluded = 1;
	}
	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];

		if (r->over)
			continue;
		for (j = 0; j < r->nrows; j++) {
			struct fm_fit_row *w = &r->rows[j];
			double v[FM_FIT_RUNS], med;
			int n = 0;

			for (k = 0; k < in->nruns; k++) {
				const struct fm_fit_run *q = &in->runs[k];

				if (q->over || q->random != r->random)
					continue;
				for (int l = 0; l < q->nrows; l++)
					if (q->rows[l].block == w->block)
						v[n++] = q->rows[l].mbps;
			}
			if (n < 3 || w->excluded)
				continue;
			qsort(v, n, sizeof(v[0]), cmp_double);
			med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
			if (fabs(w->mbps / med - 1) > 0.15)
				w->excluded = 2;
		}
	}
	for (i = 0; i < in->nruns; i++) {
		struct fm_fit_run *r = &in->runs[i];

		if (!r->over)
			continue;
		for (j = 0; j < r->nrows; j++) {
			int within = 0, falling = 0;

			for (k = 0; k < in->nruns; k++) {
				const struct fm_fit_run *q = &in->runs[k];

				if (q->over || q->random != r->random)
					continue;
				for (int l = 0; l < q->nrows; l++) {
					if (q->rows[l].block != r->rows[j].block)
						continue;
					within++;
					falling += q->rows[l].excluded == 1;
				}
			}
			if (within && falling == within)
				r->rows[j].excluded = 3;
		}
	}
}

static void note(struct fm_fit_result *r, int id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct fm_fit_result *r, int id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->note[id], sizeof(r->note[id]), fmt, ap);
	va_end(ap);
}

static void assume(struct fm_fit_result *r, int id, const char *why)
{
	r->p.assumed |= FM_ASSUMED(id);
	snprintf(r->note[id], sizeof(r->note[id]), "%s", why);
}

/* Defaults: every parameter starts assumed; the steps clear what they fit. */
static void defaults(struct fm_fit_result *r, const struct fm_fit_opts *o)
{
	struct fm_params *p = &r->p;

	memset(r, 0, sizeof(*r));
	snprintf(p->name, sizeof(p->name), "%s", o->name ? o->name : "fitted");
	p->au_size = DEF_ERASESIZE;
	p->unit = DEF_UNIT;
	p->open_aus = 1;
	p->write_overhead_ns = 1 * MS;
	p->write_bw = 10000000;
	p->read_overhead_ns = 500 * US;
	p->read_bw = 20000000;
	p->erase_ns = 2 * MS;
	p->merge_ns = 100 * MS;
	p->copy_bw = 10000000;
	p->discard_ns = 2 * MS;
	p->aged = 1;
	p->host_depth = 2;
	assume(r, FM_K_FAT_AUS, "no --find-fat data");
	assume(r, FM_K_RMW, "no row below the page");
	assume(r, FM_K_CROSS, "no write-align data");
	assume(r, FM_K_CROSS_SIZE, "no write-align data");
	assume(r, FM_K_CROSS_MAX, "no write-align data");
	assume(r, FM_K_READ_OVERHEAD, "--open-au times writes only");
	assume(r, FM_K_READ_BW, "--open-au times writes only");
	assume(r, FM_K_ERASE, "not separable from merge in open-AU rows");
	assume(r, FM_K_FLUSH, "no data");
	assume(r, FM_K_FUA, "no data");
	assume(r, FM_K_DISCARD, "one erase");
	assume(r, FM_K_BUFFER_A_SIZE, "no data");
	assume(r, FM_K_BUFFER_A_ENTRIES, "no data");
	assume(r, FM_K_AGED, "the test area held data");
	assume(r, FM_K_MAX_TRANSFER, "host dependent");
	assume(r, FM_K_HOST_DEPTH, "host dependent: MMC without command queue");
}

/* Apply --assume values: they are used as given and stay assumed. */
static void apply_fixed(struct fm_fit_result *r, const struct fm_fit_opts *o)
{
	int id;

	for (id = 0; id < FM_K_COUNT; id++) {
		if (!(o->fixed_mask & FM_ASSUMED(id)))
			continue;
		fm_param_copy(&r->p, &o->fixed, id);
		assume(r, id, "given with --assume");
	}
}

static int fixed(const struct fm_fit_opts *o, int id)
{
	return !!(o->fixed_mask & FM_ASSUMED(id));
}

/* Step 2: write_overhead and write_bw, minimax over the rows of @set. */
static void fit_write(struct fm_fit_result *r, struct fm_fit_input *in,
		      const struct fm_fit_opts *o, int set)
{
	struct search s = { .in = in, .set = set };
	double sw = 0, swp = 0, swpp = 0, swt = 0, swpt = 0, x[2], det, a, c;
	uint64_t minb, maxb;
	int i, j, n, fa = fixed(o, FM_K_WRITE_OVERHEAD), fb = fixed(o, FM_K_WRITE_BW);
	char lo[32], hi[32];

	/* start: least squares of relative time error, t = a + c * programmed */
	for (i = 0; i < in->nruns; i++) {
		const struct fm_fit_run *rr = &in->runs[i];

		if (!in_set(rr, set))
			continue;
		for (j = 0; j < rr->nrows; j++) {
			const struct fm_fit_row *w = &rr->rows[j];
			double t = w->block / (w->mbps * 1e6);
			double pb = (double)((w->block + r->p.unit - 1) / r->p.unit *
					     r->p.unit);
			double q = 1 / (t * t);

			if (w->excluded)
				continue;
			sw += q;
			swp += q * pb;
			swpp += q * pb * pb;
			swt += q * t;
			swpt += q * pb * t;
		}
	}
	det = sw * swpp - swp * swp;
	a = det > 0 ? (swpp * swt - swp * swpt) / det : 0;
	c = det > 0 ? (sw * swpt - swp * swt) / det : swpt / swpp;
	if (a < 0 || c <= 0) {
		a = 0;
		c = swpt / swpp;
	}
	if (!fa)
		r->p.write_overhead_ns = (uint64_t)(a * 1e9);
	if (!fb)
		r->p.write_bw = (uint64_t)(1 / c);
	s.p = r->p;
	if (!fa) {
		s.var[s.nvar] = &s.p.write_overhead_ns;
		s.shift[s.nvar] = 10 * US;
		s.lo[s.nvar] = 0;
		s.hi[s.nvar] = 10e9;
		x[s.nvar++] = log(s.p.write_overhead_ns + 10.0 * US);
	}
	if (!fb) {
		s.var[s.nvar] = &s.p.write_bw;
		s.shift[s.nvar] = 0;
		s.lo[s.nvar] = 1000;
		s.hi[s.nvar] = 1e11;
		x[s.nvar++] = log(s.p.write_bw);
	}
	if (s.nvar)
		search_run(&s, x, 0.5);
	r->p.write_overhead_ns = round3(s.p.write_overhead_ns, US);
	r->p.write_bw = round3(s.p.write_bw, 1000);
	n = set_rows(in, set, &minb, &maxb);
	fmt_bytes(lo, sizeof(lo), minb);
	fmt_bytes(hi, sizeof(hi), maxb);
	if (!fb)
		note(r, FM_K_WRITE_BW,
		     "fitted: minimax over %d %s rows within the open-AU limit (%s-%s), max error %.1f%%",
		     n, set == SET_WITHIN_LINEAR ? "linear" : "random", lo, hi,
		     100 * set_rel_err(&r->p, in, set));
	if (!fa && minb > 128 * KiB)
		assume(r, FM_K_WRITE_OVERHEAD,
		       "intercept of the same fit, but no row below 256KiB: an extrapolation to 4-128KiB writes");
	else if (!fa)
		note(r, FM_K_WRITE_OVERHEAD, "fitted with write_bw (%s-%s rows)",
		     lo, hi);
}

/* Step 4: merge and copy_bw for one AU size; returns the max error. */
static double fit_merge_au(struct fm_fit_result *r, struct fm_fit_input *in,
			   const struct fm_fit_opts *o, int set)
{
	static const double copies[] = {
		1e6, 2e6, 3e6, 5e6, 7e6, 1e7, 1.5e7, 2e7, 3e7, 5e7, 1e8, 3e8,
		(double)LUMPED_BW
	};
	struct search s = { .in = in, .set = set };
	double best = 1e30, bm = 0, bc = LUMPED_BW, x[2];
	int fm = fixed(o, FM_K_MERGE), fc = fixed(o, FM_K_COPY_BW);
	size_t i, j;

	s.p = r->p;
	/* coarse grid, then a compass search from the best point */
	for (i = 0; i < 16; i++) {
		double mg = fm ? r->p.merge_ns : (i ? 1e6 * pow(2, (double)i - 1) * 0.5 : 0);

		for (j = 0; j < sizeof(copies) / sizeof(copies[0]); j++) {
			double e;

			s.p.merge_ns = (uint64_t)mg;
			s.p.copy_bw = fc ? r->p.copy_bw : (uint64_t)copies[j];
			e = set_err(&s.p, in, set);
			if (e < best) {
				best = e;
				bm = s.p.merge_ns;
				bc = s.p.copy_bw;
			}
			if (fc)
				break;
		}
		if (fm)
			break;
	}
	s.p.merge_ns = (uint64_t)bm;
	s.p.copy_bw = (uint64_t)bc;
	if (!fm) {
		s.var[s.nvar] = &s.p.merge_ns;
		s.shift[s.nvar] = 100 * US;
		s.lo[s.nvar] = 0;
		s.hi[s.nvar] = 100e9;
		x[s.nvar++] = log(bm + 100.0 * US);
	}
	if (!fc) {
		s.var[s.nvar] = &s.p.copy_bw;
		s.shift[s.nvar] = 0;
		s.lo[s.nvar] = 1e5;
		s.hi[s.nvar] = LUMPED_BW;
		x[s.nvar++] = log(bc);
	}
	if (s.nvar)
		best = search_run(&s, x, 0.25);
	r->p.merge_ns = round3(s.p.merge_ns, US);
	r->p.copy_bw = s.p.copy_bw >= 2e10 ? LUMPED_BW : round3(s.p.copy_bw, 1000);
	return set_err(&r->p, in, set);
}

/*
 * Steps 2 and 4 for each AU candidate (2, 1, 1/2, 1/4 times the test's
 * erase size, a measured one first): write cost on the rows of @wset, then
 * merge and copy_bw on those of @oset (0: no run past the limit, only the
 * preferred AU is tried).  The AU whose fit models both sets best wins; a
 * later candidate must be better by more than 1%.
 */
static void fit_au(struct fm_fit_result *r, struct fm_fit_input *in,
		   const struct fm_fit_opts *o, int wset, int oset, uint64_t es,
		   const char *why_limit)
{
	struct fm_fit_result best_r = *r;
	uint64_t cand[6], minb, maxb;
	double best = 1e30, e;
	int nc = 0, i, n;
	char lo[32], hi[32];

	if (o->erasesize)
		cand[nc++] = o->erasesize;
	if (in->align_erase)
		cand[nc++] = in->align_erase;
	cand[nc++] = es;
	if (oset) {
		cand[nc++] = es * 2;
		cand[nc++] = es / 2;
		cand[nc++] = es / 4;
	}
	if (fixed(o, FM_K_AU_SIZE)) {
		cand[0] = r->p.au_size;
		nc = 1;
	}
	for (i = 0; i < nc; i++) {
		struct fm_fit_result t = *r;
		int j;

		for (j = 0; j < i && cand[j] != cand[i]; j++)
			;
		if (j < i || cand[i] < 2 * r->p.unit || cand[i] % r->p.unit)
			continue;
		t.p.au_size = cand[i];
		fit_write(&t, in, o, wset);
		if (oset)
			fit_merge_au(&t, in, o, oset);
		e = set_err(&t.p, in, wset | oset);
		if (e < best - 0.01) {
			best = e;
			best_r = t;
		}
		if (!oset)
			break;
	}
	*r = best_r;
	if (!oset)
		return;
	n = set_rows(in, oset, &minb, &maxb);
	fmt_bytes(lo, sizeof(lo), minb);
	fmt_bytes(hi, sizeof(hi), maxb);
	e = set_rel_err(&r->p, in, oset);
	if (!fixed(o, FM_K_AU_SIZE))
		note(r, FM_K_AU_SIZE,
		     "fitted: best of 2, 1, 1/2, 1/4 x the test's erase size on all rows the fit uses; past the limit: %s",
		     why_limit);
	if (!fixed(o, FM_K_MERGE))
		note(r, FM_K_MERGE,
		     "fitted with copy_bw: minimax over %d rows past the limit (%s-%s), max error %.1f%%",
		     n, lo, hi, 100 * e);
	if (!fixed(o, FM_K_COPY_BW))
		note(r, FM_K_COPY_BW, "%s",
		     r->p.copy_bw == LUMPED_BW ?
		     "fitted: lumped (copying costs nothing beyond merge)" :
		     "fitted with merge");
}

int fm_fit(struct fm_fit_input *in, const struct fm_fit_opts *o,
	   struct fm_fit_result *r, char *err, size_t errlen)
{
	uint32_t lin, lin_over, rnd, rnd_over;
	char why_lin[160] = "", why_rnd[160] = "";
	uint64_t es = 0, minb, maxb;
	int i, wset, nwithin, has_random = 0, has_linear = 0;

	defaults(r, o);
	if (!in->nruns) {
		snprintf(err, errlen, "%s: no --open-au rows", in->source);
		return -1;
	}
	for (i = 0; i < in->nruns; i++) {
		if (in->runs[i].erasesize > es)
			es = in->runs[i].erasesize;
		if (in->runs[i].random)
			has_random = 1;
		else
			has_linear = 1;
	}
	/* unit: --page, else -a, else the default */
	if (o->page) {
		r->p.unit = o->page;
		note(r, FM_K_UNIT, "given with --page");
	} else if (in->align_page) {
		r->p.unit = in->align_page;
		note(r, FM_K_UNIT, "flashbench -a: read diff drops below this align");
	} else {
		assume(r, FM_K_UNIT, "default page; no -a output or --page");
	}
	r->p.au_size = o->erasesize ? o->erasesize :
		       in->align_erase ? in->align_erase : es;
	apply_fixed(r, o);
	if (r->p.au_size % r->p.unit) {
		snprintf(err, errlen, "%s: erase size %llu is not a multiple of the page %u",
			 in->source, (unsigned long long)r->p.au_size, r->p.unit);
		return -1;
	}

	/* step 1 and 3: the limits */
	lin = classify(in, 0, &lin_over, why_lin, sizeof(why_lin));
	rnd = classify(in, 1, &rnd_over, why_rnd, sizeof(why_rnd));
	exclude_rows(in);
	if (!fixed(o, FM_K_OPEN_AUS)) {
		r->p.open_aus = lin ? lin : rnd;
		if (lin && lin_over)
			note(r, FM_K_OPEN_AUS, "fitted: collapse past %u (%s)",
			     lin, why_lin);
		else
			assume(r, FM_K_OPEN_AUS,
			       "lower bound: no --open-au run collapses");
	}

	/* steps 2 and 4: write cost, AU, merges */
	wset = has_linear ? SET_WITHIN_LINEAR : SET_WITHIN_RANDOM;
	nwithin = set_rows(in, wset, &minb, &maxb);
	if (nwithin < 3) {
		snprintf(err, errlen,
			 "%s: %d rows within the open-AU limit (%s runs), at least 3 needed to fit write_overhead and write_bw",
			 in->source, nwithin, has_linear ? "linear" : "random");
		return -1;
	}
	/* merges are fitted on linear runs, or on random ones taken as fast */
	if (!fixed(o, FM_K_RANDOM_OK))
		r->p.random_ok = !has_linear;
	if (!fixed(o, FM_K_RANDOM_AUS))
		r->p.random_aus = r->p.random_ok ? r->p.open_aus : 0;
	if (has_linear && lin_over) {
		fit_au(r, in, o, wset, SET_OVER_LINEAR, es, why_lin);
	} else if (!has_linear && rnd_over) {
		fit_au(r, in, o, wset, SET_OVER, es, why_rnd);
	} else {
		fit_au(r, in, o, wset, 0, es, "");
		if (!fixed(o, FM_K_AU_SIZE))
			assume(r, FM_K_AU_SIZE,
			       o->erasesize ? "given with --erasesize; no run past the limit" :
			       in->align_erase ? in->align_why :
			       "the test's --erasesize; no run past the limit");
		if (!fixed(o, FM_K_MERGE))
			assume(r, FM_K_MERGE, "no run past the open-AU limit");
		if (!fixed(o, FM_K_COPY_BW)) {
			r->p.copy_bw = r->p.write_bw;
			assume(r, FM_K_COPY_BW,
			       "no run past the open-AU limit; copy at write_bw");
		}
	}

	/* step 5: random writes inside an open AU */
	if (!fixed(o, FM_K_RANDOM_OK) && has_random) {
		struct fm_params p0 = r->p, p1 = r->p;
		double e0, e1;

		p0.random_ok = 0;
		p0.random_aus = 0;
		p1.random_ok = 1;
		p1.random_aus = rnd && rnd < p1.open_aus ? rnd : p1.open_aus;
		e0 = set_err(&p0, in, SET_RANDOM);
		e1 = set_err(&p1, in, SET_RANDOM);
		r->p = e1 <= e0 ? p1 : p0;
		e0 = set_rel_err(&p0, in, SET_RANDOM);
		e1 = set_rel_err(&p1, in, SET_RANDOM);
		note(r, FM_K_RANDOM_OK,
		     "fitted: --random rows max error %.0f%% with 1, %.0f%% with 0",
		     100 * e1, 100 * e0);
		if (!fixed(o, FM_K_RANDOM_AUS)) {
			if (!r->p.random_ok)
				note(r, FM_K_RANDOM_AUS, "random_ok = 0");
			else if (rnd_over)
				note(r, FM_K_RANDOM_AUS,
				     "fitted: --random collapse past %u (%s)",
				     rnd, why_rnd);
			else
				assume(r, FM_K_RANDOM_AUS,
				       "lower bound: no --random run collapses");
		}
	} else if (!has_random) {
		if (!fixed(o, FM_K_RANDOM_OK))
			assume(r, FM_K_RANDOM_OK, "never run with --random");
		if (!fixed(o, FM_K_RANDOM_AUS)) {
			r->p.random_aus = r->p.random_ok ? r->p.open_aus : 0;
			assume(r, FM_K_RANDOM_AUS, "never run with --random");
		}
	}
	if (!fixed(o, FM_K_OPEN_AUS) && r->p.random_aus > r->p.open_aus)
		r->p.random_aus = r->p.open_aus;

	if (fm_params_check(&r->p, err, errlen)) {
		char why[128];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: fitted parameters invalid: %s",
			 in->source, why);
		return -1;
	}
	r->max_err_all = fm_fit_eval(&r->p, in, &r->max_err_used);
	r->used = set_rows(in, SET_WITHIN_LINEAR | SET_WITHIN_RANDOM | SET_OVER,
			   &minb, &maxb);
	r->total = 0;
	for (i = 0; i < in->nruns; i++)
		r->total += in->runs[i].nrows;
	return 0;
}

void fm_fit_write(FILE *f, const struct fm_fit_input *in,
		  const struct fm_fit_result *r)
{
	const char *notes[FM_K_COUNT];
	int i, j;

	for (i = 0; i < FM_K_COUNT; i++)
		notes[i] = r->note[i][0] ? r->note[i] : NULL;
	fprintf(f, "# flashmodel fit of %s\n", in->source);
	fprintf(f, "# Rates as flashbench prints them: M/s = 10^6 bytes/s, K/s = 10^3.\n");
	fprintf(f, "# Each value says where it comes from; '# assumed' = no row determines it.\n");
	fm_preset_write(f, &r->p, notes);
	fprintf(f, "#\n# Rows: published vs modelled (flashbench's --open-au pattern, fresh card per run)\n");
	fprintf(f, "# %-5s %-7s %-7s %9s %9s %8s  %s\n", "aus", "pattern", "block",
		"published", "modelled", "error", "use");
	for (i = 0; i < in->nruns; i++) {
		const struct fm_fit_run *run = &in->runs[i];

		for (j = 0; j < run->nrows; j++) {
			const struct fm_fit_row *w = &run->rows[j];
			const char *why = fm_fit_row_use(w);
			char bs[32];

			fmt_bytes(bs, sizeof(bs), w->block);
			fprintf(f, "# %-5u %-7s %-7s %9.4g %9.4g %+7.1f%%  %s%s%s\n",
				run->aus, run->random ? "random" : "linear", bs,
				w->mbps, w->model, 100 * rel_err(w),
				run->over ? "past the limit" : "within the limit",
				why ? ", not fitted: " : "", why ? why : "");
		}
	}
	fprintf(f, "# max error %.1f%% over the %d rows the fit used, %.1f%% over all %d rows\n",
		100 * r->max_err_used, r->used, 100 * r->max_err_all, r->total);
}
