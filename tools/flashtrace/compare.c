// SPDX-License-Identifier: GPL-2.0
/*
 * flashtrace compare: read the JSON of several runs (e.g. the same fio job
 * under mq-deadline and under flash) and print them side by side, one
 * column per run, optionally with a bar chart (--svg) and as JSON (--json).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashtrace.h"

#define MAX_RUNS	16

struct run {
	char name[64];
	struct ft_jval *doc;
};

/* One row of the table: a JSON path, or a function of the document. */
struct metric {
	const char *label;
	const char *path;	/* under the run, or under a model entry */
	double scale;		/* multiply the value */
	int decimals;
	int per_model;		/* path is inside models[] */
};

static const struct metric geometry_rows[] = {
	{ "dispatches", "input.dispatches", 1, 0, 0 },
	{ "lines not understood", "input.not_understood", 1, 0, 0 },
	{ "MiB read", "requests.read.bytes", 1 / FT_MIB, 2, 0 },
	{ "MiB written", "writes.mib", 1, 2, 0 },
	{ "writes", "writes.requests", 1, 0, 0 },
	{ "writes crossing page unaligned", "writes.page_violations", 1, 0, 0 },
	{ "  as % of writes", "writes.page_violations_pct", 1, 2, 0 },
	{ "writes naturally aligned %", "writes.naturally_aligned_pct", 1, 2, 0 },
	{ "writes crossing erase block", "writes.erase_crossing", 1, 0, 0 },
	{ "segment switches", "writes.switches", 1, 0, 0 },
	{ "switches per MiB written", "writes.switches_per_mib", 1, 3, 0 },
	{ "backward writes", "writes.backward", 1, 0, 0 },
	{ "distinct erase blocks", "writes.distinct_erase_blocks", 1, 0, 0 },
	{ "\"flash switch\" messages", "input.flash_switch_messages", 1, 0, 0 },
};

static const struct metric model_rows[] = {
	{ "write amplification", "write_amplification", 1, 2, 1 },
	{ "write MiB/s", "write_mibps", 1, 2, 1 },
	{ "erases", "erases", 1, 0, 1 },
	{ "full merges", "full_merges", 1, 0, 1 },
	{ "write latency p99 (ms)", "write_latency_p99_ns", 1 / 1000000.0, 3, 1 },
	{ "read latency p99 (ms)", "read_latency_p99_ns", 1 / 1000000.0, 3, 1 },
};

/* The models[] entry of @doc whose "preset" is @preset, or NULL. */
static const struct ft_jval *model_of(const struct ft_jval *doc,
				      const char *preset)
{
	const struct ft_jval *arr = ft_json_get(doc, "models"), *m;

	if (!arr || arr->type != FT_J_ARR)
		return NULL;
	for (m = arr->child; m; m = m->next) {
		const struct ft_jval *n = ft_json_get(m, "preset");

		if (n && n->type == FT_J_STR && strcmp(n->str, preset) == 0)
			return m;
	}
	return NULL;
}

static double value(const struct run *r, const struct metric *m,
		    const char *preset)
{
	const struct ft_jval *base = r->doc;

	if (m->per_model) {
		base = model_of(r->doc, preset);
		if (!base)
			return NAN;
	}
	return ft_json_num(base, m->path) * m->scale;
}

/* Presets in order of first appearance over all runs. */
static int collect_presets(const struct run *runs, int nr,
			   const char **names, int max)
{
	int n = 0, i, j;

	for (i = 0; i < nr; i++) {
		const struct ft_jval *arr = ft_json_get(runs[i].doc, "models");
		const struct ft_jval *m;

		if (!arr || arr->type != FT_J_ARR)
			continue;
		for (m = arr->child; m; m = m->next) {
			const struct ft_jval *p = ft_json_get(m, "preset");

			if (!p || p->type != FT_J_STR)
				continue;
			for (j = 0; j < n; j++)
				if (strcmp(names[j], p->str) == 0)
					break;
			if (j == n && n < max)
				names[n++] = p->str;
		}
	}
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 65536, n = 0, got;
	char *buf, *q;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n < cap - 1)
			break;
		cap *= 2;
		q = realloc(buf, cap);
		if (!q) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = q;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int load_run(struct run *r, const char *arg)
{
	const char *eq = strchr(arg, '='), *path = arg, *base;
	char err[256];
	char *text;
	size_t n;

	if (eq && !memchr(arg, '/', eq - arg)) {
		n = eq - arg;
		path = eq + 1;
	} else {
		base = strrchr(arg, '/');
		base = base ? base + 1 : arg;
		arg = base;
		n = strlen(base);
		if (n > 5 && strcmp(base + n - 5, ".json") == 0)
			n -= 5;
	}
	if (n >= sizeof(r->name))
		n = sizeof(r->name) - 1;
	memcpy(r->name, arg, n);
	r->name[n] = '\0';

	text = slurp(path);
	if (!text) {
		fprintf(stderr, "flashtrace compare: cannot read %s\n", path);
		return -1;
	}
	r->doc = ft_json_parse(text, err, sizeof(err));
	free(text);
	if (!r->doc) {
		fprintf(stderr, "flashtrace compare: %s: %s\n", path, err);
		return -1;
	}
	return 0;
}

static void cell(FILE *out, double v, int decimals, int width)
{
	if (isnan(v))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.*f", width, decimals, v);
}

static void text_table(FILE *out, const struct run *runs, int nr,
		       const char **presets, int np)
{
	int width = 12, i, j, k;
	size_t m;

	for (i = 0; i < nr; i++)
		if ((int)strlen(runs[i].name) > width)
			width = strlen(runs[i].name);
	fprintf(out, "%-32s", "");
	for (i = 0; i < nr; i++)
		fprintf(out, " %*s", width, runs[i].name);
	fprintf(out, "\n");
	for (m = 0; m < ARRAY_SIZE(geometry_rows); m++) {
		fprintf(out, "%-32s", geometry_rows[m].label);
		for (i = 0; i < nr; i++)
			cell(out, value(&runs[i], &geometry_rows[m], NULL),
			     geometry_rows[m].decimals, width);
		fprintf(out, "\n");
	}
	for (j = 0; j < np; j++) {
		fprintf(out, "model %s\n", presets[j]);
		for (k = 0; k < (int)ARRAY_SIZE(model_rows); k++) {
			fprintf(out, "  %-30s", model_rows[k].label);
			for (i = 0; i < nr; i++)
				cell(out, value(&runs[i], &model_rows[k],
						presets[j]),
				     model_rows[k].decimals, width);
			fprintf(out, "\n");
		}
	}
}

static void json_num_or_null(FILE *out, double v)
{
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.6g", v);
}

static void json_table(FILE *out, const struct run *runs, int nr,
		       const char **presets, int np)
{
	int i, j, first = 1;
	size_t m;

	fputs("{\n  \"runs\": [", out);
	for (i = 0; i < nr; i++) {
		fputs(i ? ", " : "", out);
		ft_json_string(out, runs[i].name);
	}
	fputs("],\n  \"rows\": [", out);
	for (m = 0; m < ARRAY_SIZE(geometry_rows); m++) {
		fprintf(out, "%s\n    {\"metric\": \"%s\", \"preset\": null, \"values\": [",
			first ? "" : ",", geometry_rows[m].path);
		first = 0;
		for (i = 0; i < nr; i++) {
			fputs(i ? ", " : "", out);
			json_num_or_null(out, value(&runs[i], &geometry_rows[m],
						    NULL));
		}
		fputs("]}", out);
	}
	for (j = 0; j < np; j++) {
		for (m = 0; m < ARRAY_SIZE(model_rows); m++) {
			fprintf(out, ",\n    {\"metric\": \"%s\", \"preset\": ",
				model_rows[m].path);
			ft_json_string(out, presets[j]);
			fputs(", \"values\": [", out);
			for (i = 0; i < nr; i++) {
				fputs(i ? ", " : "", out);
				json_num_or_null(out, value(&runs[i],
							    &model_rows[m],
							    presets[j]));
			}
			fputs("]}", out);
		}
	}
	fputs("\n  ]\n}\n", out);
}

/* ---- bar chart ---- */

static const char *const run_colours[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

struct panel {
	const char *title;
	const struct metric *m;
};

/* printf format of a label: x, y, anchor; the text follows */
#define SVG_SMALL_TEXT \
	"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"10\">"

#define PANEL_W		480
#define PANEL_H		260

static void svg_panel(FILE *out, double x, double y, const struct panel *p,
		      const struct run *runs, int nr, const char **groups,
		      int ng)
{
	double vmax = 0, v, bw, gx, bx, bh;
	double px = x + 50, py = y + 40, pw = PANEL_W - 70, ph = PANEL_H - 90;
	int g, i;

	for (g = 0; g < ng; g++)
		for (i = 0; i < nr; i++) {
			v = value(&runs[i], p->m, groups[g]);
			if (!isnan(v) && v > vmax)
				vmax = v;
		}
	if (vmax <= 0)
		vmax = 1;
	vmax *= 1.15;
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">",
		x + PANEL_W / 2.0, y + 22);
	ft_svg_escape(out, p->title);
	fputs("</text>\n", out);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		px, py, px, py + ph, px, py + ph, px + pw, py + ph);
	fprintf(out, SVG_SMALL_TEXT "0</text>\n", px - 4, py + ph + 4, "end");
	fprintf(out, SVG_SMALL_TEXT "%.3g</text>\n", px - 4, py + 4, "end",
		vmax);
	bw = pw / ng / (nr + 1);
	for (g = 0; g < ng; g++) {
		gx = px + g * pw / ng + bw / 2;
		for (i = 0; i < nr; i++) {
			v = value(&runs[i], p->m, groups[g]);
			bx = gx + i * bw;
			if (isnan(v)) {
				fprintf(out, SVG_SMALL_TEXT "n/a</text>\n",
					bx + bw / 2, py + ph - 4, "middle");
				continue;
			}
			bh = v / vmax * ph;
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
				bx, py + ph - bh, bw * 0.9, bh,
				run_colours[i % ARRAY_SIZE(run_colours)]);
			fprintf(out, SVG_SMALL_TEXT "%.*f</text>\n",
				bx + bw * 0.45, py + ph - bh - 3, "middle",
				v >= 100 ? 0 : 2, v);
		}
		if (groups[g]) {
			fprintf(out, SVG_SMALL_TEXT, px + (g + 0.5) * pw / ng,
				py + ph + 16, "middle");
			ft_svg_escape(out, groups[g]);
			fputs("</text>\n", out);
		}
	}
}

static int svg_chart(FILE *out, const struct run *runs, int nr,
		     const char **presets, int np, const char *title)
{
	static const struct panel fixed[] = {
		{ "writes crossing a page boundary unaligned (% of writes)",
		  &geometry_rows[6] },
		{ "segment switches per MiB written", &geometry_rows[10] },
	};
	static const struct panel modelled[] = {
		{ "write amplification (model, lower is better)",
		  &model_rows[0] },
		{ "write MiB/s (model, higher is better)", &model_rows[1] },
	};
	const char *none[1] = { NULL };
	int npanels = 2 + (np ? 2 : 0), rows = (npanels + 1) / 2, i, k = 0;
	int w = 2 * PANEL_W, h = rows * PANEL_H + 70;

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		w, h, w, h);
	fprintf(out, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">",
		w / 2);
	ft_svg_escape(out, title ? title : "flashtrace compare");
	fputs("</text>\n", out);
	for (i = 0; i < nr; i++) {
		fprintf(out, "<rect x=\"%d\" y=\"36\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			20 + 160 * i, run_colours[i % ARRAY_SIZE(run_colours)]);
		fprintf(out, "<text x=\"%d\" y=\"46\">", 36 + 160 * i);
		ft_svg_escape(out, runs[i].name);
		fputs("</text>\n", out);
	}
	if (np) {
		for (i = 0; i < 2; i++, k++)
			svg_panel(out, (k % 2) * PANEL_W, 60 + (k / 2) * PANEL_H,
				  &modelled[i], runs, nr, presets, np);
	}
	for (i = 0; i < 2; i++, k++)
		svg_panel(out, (k % 2) * PANEL_W, 60 + (k / 2) * PANEL_H,
			  &fixed[i], runs, nr, none, 1);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

static const char compare_usage[] =
	"usage: flashtrace compare [--svg FILE] [--json] [--title TEXT] [NAME=]RUN.json...\n";

int ft_compare_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "svg", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *svg = NULL, *title = NULL;
	const char *presets[FT_MAX_PRESETS * MAX_RUNS];
	struct run runs[MAX_RUNS];
	int json = 0, nr = 0, np, opt, rc = 0, i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			svg = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			printf("%s", compare_usage);
			return 0;
		default:
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "%s", compare_usage);
		return 2;
	}
	if (argc - optind > MAX_RUNS) {
		fprintf(stderr, "flashtrace compare: at most %d runs\n", MAX_RUNS);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		if (load_run(&runs[nr], argv[i])) {
			rc = 1;
			goto out;
		}
		nr++;
	}
	np = collect_presets(runs, nr, presets, ARRAY_SIZE(presets));
	if (json)
		json_table(stdout, runs, nr, presets, np);
	else
		text_table(stdout, runs, nr, presets, np);
	if (svg) {
		FILE *f = fopen(svg, "w");

		if (!f || svg_chart(f, runs, nr, presets, np, title) ||
		    fclose(f)) {
			perror(svg);
			rc = 1;
		}
	}
out:
	for (i = 0; i < nr; i++)
		ft_json_free(runs[i].doc);
	return rc;
}
