// SPDX-License-Identifier: GPL-2.0
/*
 * Picture of dispatched offset over time, after seekwatcher/iowatcher:
 * x = D timestamp, y = device offset, writes as bars coloured by erase
 * block (a palette cycled by erase block index), reads as grey rings,
 * discards as black outlines.  Horizontal lines mark erase block
 * boundaries when few enough are in view.
 *
 * Bounded memory: at most FT_SVG_POINTS samples are kept.  When the buffer
 * fills, every other sample is dropped and from then on only every
 * 2^k-th dispatch is sampled, so the kept samples stay evenly spread over
 * the trace whatever its length.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashtrace.h"

struct ft_svg_point {
	u64 t;		/* ns */
	u64 off;		/* bytes */
	u64 len;		/* bytes */
	u64 eb;		/* erase block of off */
	enum ft_op op;
};

struct ft_svg {
	int have_w, have_all;
	u64 wmin, wmax;		/* byte range of writes and discards */
	u64 amin, amax;		/* byte range of everything */
	u64 seen;		/* dispatches with data offered */
	u64 stride;	/* keep one in @stride */
	size_t nr;
	struct ft_svg_point pt[FT_SVG_POINTS];
};

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#bcbd22", "#17becf", "#393b79",
};

#define NR_COLOURS	ARRAY_SIZE(palette)

/* Plot area inside the picture, in pixels. */
#define SVG_W		1000
#define SVG_H		620
#define PLOT_X		90
#define PLOT_Y		50
#define PLOT_W		860
#define PLOT_H		480

struct ft_svg *ft_svg_new(void)
{
	struct ft_svg *s = ft_calloc(1, sizeof(*s));

	if (s)
		s->stride = 1;
	return s;
}

void ft_svg_free(struct ft_svg *s)
{
	ft_free(s, sizeof(*s));
}

static void widen(int *have, u64 *lo, u64 *hi, u64 start, u64 end)
{
	if (!*have || start < *lo)
		*lo = start;
	if (!*have || end > *hi)
		*hi = end;
	*have = 1;
}

void ft_svg_dispatch(struct ft_svg *s, const struct ft_geom *g,
		     const struct ft_event *ev)
{
	struct ft_svg_point *p;
	enum ft_op op = ev->rwbs.op;
	u64 off, end;
	size_t i;

	if (ev->passthrough || !ev->has_sector || !ev->nsectors ||
	    (op != FT_OP_READ && op != FT_OP_WRITE && op != FT_OP_DISCARD))
		return;
	off = ft_byte_offset(g, ev->sector);
	end = off + ev->nsectors * g->sector_size;
	widen(&s->have_all, &s->amin, &s->amax, off, end);
	if (op != FT_OP_READ)
		widen(&s->have_w, &s->wmin, &s->wmax, off, end);
	if (s->seen++ % s->stride)
		return;
	if (s->nr == FT_SVG_POINTS) {
		for (i = 0; i < FT_SVG_POINTS / 2; i++)
			s->pt[i] = s->pt[2 * i];
		s->nr = FT_SVG_POINTS / 2;
		s->stride *= 2;
		/* this dispatch is kept only if it falls on the new stride */
		if ((s->seen - 1) % s->stride)
			return;
	}
	p = &s->pt[s->nr++];
	p->t = ev->time_ns;
	p->off = off;
	p->len = ev->nsectors * g->sector_size;
	p->eb = p->off / g->erase_size;
	p->op = op;
}

/* A round step giving about @n ticks over @range. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = 1;

	if (raw <= 0)
		return 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	if (raw / mag >= 5)
		return 5 * mag;
	if (raw / mag >= 2)
		return 2 * mag;
	return mag;
}

void ft_svg_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else
			fputc(*s, out);
	}
}

static void svg_text(FILE *out, double x, double y, const char *anchor,
		     const char *extra, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>",
		x, y, anchor, extra);
	ft_svg_escape(out, s);
	fputs("</text>\n", out);
}

int ft_svg_write(const struct ft_svg *s, const struct ft_stats *st,
		 FILE *out, const char *title)
{
	const struct ft_geom *g = &st->geom;
	double t0 = st->first_ns, t1 = st->last_ns;
	double y0 = s->wmin, y1 = s->wmax;
	double unit = FT_MIB, step, v;
	const char *uname = "MiB";
	char buf[256], e[16];
	double px, py, ph, lasty = -1, lastx = -1;
	size_t i;

	u64 outside = 0;

	/*
	 * The writes decide the vertical range; reads elsewhere are pinned
	 * to the nearest edge.
	 */
	if (!s->have_w) {
		y0 = s->have_all ? s->amin : 0;
		y1 = s->have_all ? s->amax : FT_MIB;
	}
	/* whole erase blocks in view */
	y0 = (double)((u64)y0 / g->erase_size * g->erase_size);
	y1 = (double)(((u64)y1 + g->erase_size - 1) / g->erase_size *
		      g->erase_size);
	if (y1 <= y0)
		y1 = y0 + g->erase_size;
	if (y1 - y0 > 64.0 * 1024 * FT_MIB) {
		unit = 1024 * FT_MIB;
		uname = "GiB";
	}
	if (t1 <= t0)
		t1 = t0 + 1e6;

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		SVG_W, SVG_H, SVG_W, SVG_H);
	svg_text(out, SVG_W / 2.0, 24, "middle", " font-size=\"15\"",
		 title ? title : "flashtrace: dispatched offset over time");
	fprintf(out,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
		PLOT_X, PLOT_Y, PLOT_W, PLOT_H);

	/* erase block boundaries, when they are not a solid grey */
	if ((y1 - y0) / g->erase_size <= 64) {
		for (v = y0 + g->erase_size; v < y1; v += g->erase_size) {
			py = PLOT_Y + PLOT_H - (v - y0) / (y1 - y0) * PLOT_H;
			fprintf(out,
				"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				PLOT_X, py, PLOT_X + PLOT_W, py);
		}
	}

	/* y axis: offset */
	step = nice_step((y1 - y0) / unit, 8);
	for (v = ((u64)(y0 / unit / step) + 1) * step; v * unit < y1;
	     v += step) {
		py = PLOT_Y + PLOT_H - (v * unit - y0) / (y1 - y0) * PLOT_H;
		fprintf(out,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#444\"/>\n",
			PLOT_X - 5, py, PLOT_X, py);
		snprintf(buf, sizeof(buf), "%g", v);
		svg_text(out, PLOT_X - 8, py + 4, "end", "", buf);
	}
	snprintf(buf, sizeof(buf), "offset (%s)", uname);
	fprintf(out,
		"<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">%s</text>\n",
		PLOT_Y + PLOT_H / 2, PLOT_Y + PLOT_H / 2, buf);

	/* x axis: seconds since the first dispatch */
	step = nice_step((t1 - t0) / 1e9, 10);
	for (v = 0; v * 1e9 <= t1 - t0; v += step) {
		px = PLOT_X + v * 1e9 / (t1 - t0) * PLOT_W;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n",
			px, PLOT_Y + PLOT_H, px, PLOT_Y + PLOT_H + 5);
		snprintf(buf, sizeof(buf), "%g", v);
		svg_text(out, px, PLOT_Y + PLOT_H + 18, "middle", "", buf);
	}
	svg_text(out, PLOT_X + PLOT_W / 2.0, PLOT_Y + PLOT_H + 38, "middle", "",
		 "time since first dispatch (s)");

	for (i = 0; i < s->nr; i++) {
		const struct ft_svg_point *p = &s->pt[i];

		px = PLOT_X + ((double)p->t - t0) / (t1 - t0) * PLOT_W;
		py = PLOT_Y + PLOT_H -
			((double)p->off + p->len - y0) / (y1 - y0) * PLOT_H;
		ph = (double)p->len / (y1 - y0) * PLOT_H;
		if (ph < 2)
			ph = 2;
		switch (p->op) {
		case FT_OP_WRITE:
			if (px == lastx && py == lasty)
				continue;
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"2\" height=\"%.1f\" fill=\"%s\"/>\n",
				px - 1, py, ph, palette[p->eb % NR_COLOURS]);
			lastx = px;
			lasty = py;
			break;
		case FT_OP_READ:
			py += ph / 2;
			if (py < PLOT_Y || py > PLOT_Y + PLOT_H) {
				py = py < PLOT_Y ? PLOT_Y : PLOT_Y + PLOT_H;
				outside++;
			}
			fprintf(out,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"none\" stroke=\"#888\"/>\n",
				px, py);
			break;
		default:
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
				px - 1.5, py, ph);
			break;
		}
	}

	/* legend */
	py = SVG_H - 22;
	for (i = 0; i < 5; i++)
		fprintf(out,
			"<rect x=\"%zu\" y=\"%.1f\" width=\"6\" height=\"10\" fill=\"%s\"/>\n",
			PLOT_X + 7 * i, py - 9, palette[i]);
	snprintf(buf, sizeof(buf),
		 "writes (colour = erase block of %s, %zu colours cycled)",
		 ft_fmt_size(g->erase_size, e, sizeof(e)), NR_COLOURS);
	svg_text(out, PLOT_X + 40, py, "start", "", buf);
	fprintf(out,
		"<circle cx=\"%d\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"#888\"/>\n",
		PLOT_X + 470, py - 4);
	svg_text(out, PLOT_X + 480, py, "start", "", "reads");
	fprintf(out,
		"<rect x=\"%d\" y=\"%.1f\" width=\"3\" height=\"10\" fill=\"none\" stroke=\"black\"/>\n",
		PLOT_X + 540, py - 9);
	svg_text(out, PLOT_X + 550, py, "start", "", "discards");
	if (outside)
		snprintf(buf, sizeof(buf),
			 "%zu of %llu dispatches drawn; %llu reads outside the written range on the edges",
			 s->nr, (unsigned long long)s->seen,
			 (unsigned long long)outside);
	else
		snprintf(buf, sizeof(buf), "%zu of %llu dispatches drawn",
			 s->nr, (unsigned long long)s->seen);
	svg_text(out, PLOT_X + PLOT_W, PLOT_Y - 8, "end",
		 " fill=\"#666\" font-size=\"11\"", buf);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
