// SPDX-License-Identifier: GPL-2.0
/*
 * The pipeline for one run: split input into lines, parse each line, and
 * hand D events to the statistics, the model replay and the picture.
 * Binary blktrace input (blkbin.c) joins at ft_feed_event().
 * Input is read in fixed-size chunks; a line longer than the chunk is
 * counted as not understood and skipped.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "flashtrace.h"

#define FT_CHUNK	(256 * 1024)

void ft_ctx_init(struct ft_ctx *c, const struct ft_geom *g)
{
	memset(c, 0, sizeof(*c));
	ft_stats_init(&c->st, g);
	ft_replay_init(&c->rp);
}

void ft_ctx_free(struct ft_ctx *c)
{
	ft_stats_free(&c->st);
	ft_replay_free(&c->rp);
	ft_svg_free(c->svg);
	c->svg = NULL;
}

static int contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (s[i] == needle[0] && memcmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

void ft_feed_line(struct ft_ctx *c, const char *line, size_t len)
{
	struct ft_event ev;
	enum ft_line_kind kind;

	c->st.lines++;
	kind = ft_parse_line(&c->parser, line, len, &ev);
	ft_feed_event(c, kind, &ev);
}

void ft_feed_event(struct ft_ctx *c, enum ft_line_kind kind,
		   const struct ft_event *ev)
{
	struct ft_stats *st = &c->st;

	switch (kind) {
	case FT_LINE_BLANK:
		st->blank_lines++;
		return;
	case FT_LINE_SUMMARY:
		st->summary_lines++;
		return;
	case FT_LINE_BAD:
		st->bad_lines++;
		return;
	case FT_LINE_MESSAGE:
		st->messages++;
		if (contains(ev->msg, ev->msg_len, "flash switch"))
			st->flash_switch_msgs++;
		return;
	case FT_LINE_EVENT:
		break;
	}
	st->events++;
	if (ev->action[0] != 'D' || ev->action[1]) {
		st->other_actions++;
		return;
	}
	if (c->dev_filter && ev->has_dev &&
	    (ev->major != c->filter_major || ev->minor != c->filter_minor)) {
		st->filtered++;
		return;
	}
	ft_stats_dispatch(st, ev);
	ft_replay_dispatch(&c->rp, &st->geom, ev);
	if (c->svg)
		ft_svg_dispatch(c->svg, &st->geom, ev);
}

int ft_feed_fd(struct ft_ctx *c, int fd)
{
	static char buf[FT_CHUNK];
	size_t have = 0, start;
	int skipping = 0;	/* inside an over-long line */
	ssize_t n;
	char *nl;

	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		have += n;
		start = 0;
		while ((nl = memchr(buf + start, '\n', have - start))) {
			if (skipping) {
				skipping = 0;
				c->st.lines++;
				c->st.bad_lines++;
			} else {
				ft_feed_line(c, buf + start, nl - (buf + start));
			}
			start = nl - buf + 1;
		}
		if (start == 0 && have == sizeof(buf)) {
			/* no newline in a full buffer: drop it */
			skipping = 1;
			have = 0;
			continue;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	if (skipping) {
		c->st.lines++;
		c->st.bad_lines++;
	} else if (have) {
		ft_feed_line(c, buf, have);
	}
	return 0;
}
