// SPDX-License-Identifier: GPL-2.0
/*
 * Line parser for blkparse text.
 *
 * Two layouts are recognised, decided per line by the first token:
 *
 *   default:  "MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS REST"
 *             REST is "SECTOR + N [comm]", "[comm]" (no data, e.g. FN),
 *             "BYTES [comm]" / "BYTES (cdb) [comm]" (passthrough), or the
 *             message text when ACTION is "m".
 *   short:    "SECONDS.NANOS ACTION RWBS SECTOR NSECTORS"
 *             from blkparse -f '%T.%9t %a %d %S %n\n'.
 *
 * blkparse's closing summary ("CPU0 (8,0):", "Total (8,0):", indented
 * counters, "Throughput ...", "Events ...", "Skips ...") and the "Input file
 * NAME added" notes of "blkparse -i NAME" are recognised and reported
 * separately.  The parser never allocates and keeps no state but whether
 * the summary has started.
 */
#include <string.h>

#include "flashtrace.h"

/* Larger values are garbage: 2^48 sectors is 128 PiB, 2^32 sectors 2 TiB. */
#define FT_MAX_SECTOR		BIT_ULL(48)
#define FT_MAX_NSECTORS		BIT_ULL(32)

/* A cursor over one line. */
struct ft_cur {
	const char *p;
	const char *end;
};

static inline int ft_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static inline int ft_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static inline void skip_space(struct ft_cur *c)
{
	while (c->p < c->end && ft_isspace(*c->p))
		c->p++;
}

/* Next whitespace separated token; 0 if the line is exhausted. */
static int next_token(struct ft_cur *c, const char **tok, size_t *len)
{
	const char *s;

	skip_space(c);
	if (c->p >= c->end)
		return 0;
	s = c->p;
	while (c->p < c->end && !ft_isspace(*c->p))
		c->p++;
	*tok = s;
	*len = c->p - s;
	return 1;
}

/* Whole token must be decimal digits (at most 19 of them). */
static int tok_u64(const char *s, size_t len, u64 *out)
{
	u64 v = 0;
	size_t i;

	if (len == 0 || len > 19)
		return -1;
	for (i = 0; i < len; i++) {
		if (!ft_isdigit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "SECONDS.FRACTION" -> nanoseconds; the fraction may have 1-9 digits. */
static int tok_time(const char *s, size_t len, u64 *ns)
{
	const char *dot = memchr(s, '.', len);
	u64 sec, frac = 0;
	size_t i, flen;

	if (!dot || tok_u64(s, dot - s, &sec) || sec > 18000000000ull)
		return -1;
	flen = len - (dot - s) - 1;
	if (flen == 0 || flen > 9)
		return -1;
	for (i = 0; i < 9; i++) {
		frac *= 10;
		if (i < flen) {
			if (!ft_isdigit(dot[1 + i]))
				return -1;
			frac += dot[1 + i] - '0';
		}
	}
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* "MAJ,MIN" */
static int tok_dev(const char *s, size_t len, unsigned int *maj,
		   unsigned int *min)
{
	const char *comma = memchr(s, ',', len);
	u64 a, b;

	if (!comma || tok_u64(s, comma - s, &a) ||
	    tok_u64(comma + 1, len - (comma - s) - 1, &b) ||
	    a > 0xfffffffful || b > 0xfffffffful)
		return -1;
	*maj = a;
	*min = b;
	return 0;
}

/* Action letters blkparse prints: one or two characters. */
static int tok_action(const char *s, size_t len, struct ft_event *ev)
{
	size_t i;

	if (len == 0 || len > 2)
		return -1;
	for (i = 0; i < len; i++) {
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
			return -1;
		ev->action[i] = s[i];
	}
	ev->action[len] = '\0';
	return 0;
}

int ft_parse_rwbs(const char *s, size_t len, struct ft_rwbs *r)
{
	size_t i = 0;

	r->flags = 0;
	if (len == 0 || len > 8)
		return -1;
	/* A leading F followed by an operation letter is a preflush. */
	if (s[0] == 'F' && len > 1 && strchr("RWDNF", s[1])) {
		r->flags |= FT_RWBS_PREFLUSH;
		i = 1;
	}
	switch (s[i]) {
	case 'R':
		r->op = FT_OP_READ;
		break;
	case 'W':
		r->op = FT_OP_WRITE;
		break;
	case 'D':
		r->op = FT_OP_DISCARD;
		if (i + 1 < len && s[i + 1] == 'E') {
			r->flags |= FT_RWBS_SECURE;
			i++;
		}
		break;
	case 'F':
		/* kernel tracepoint spelling of REQ_OP_FLUSH */
		r->op = FT_OP_FLUSH;
		break;
	case 'N':
		/* blkparse: no data; with a preflush it is a pure flush */
		r->op = (r->flags & FT_RWBS_PREFLUSH) ? FT_OP_FLUSH : FT_OP_OTHER;
		if (r->op == FT_OP_FLUSH)
			r->flags &= ~FT_RWBS_PREFLUSH;
		break;
	default:
		return -1;
	}
	for (i++; i < len; i++) {
		switch (s[i]) {
		case 'F':
			r->flags |= FT_RWBS_FUA;
			break;
		case 'A':
			r->flags |= FT_RWBS_AHEAD;
			break;
		case 'S':
			r->flags |= FT_RWBS_SYNC;
			break;
		case 'M':
			r->flags |= FT_RWBS_META;
			break;
		case 'B':
			r->flags |= FT_RWBS_BARRIER;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/*
 * Lines of blkparse's closing summary.  "CPUn (" and "Total (" open it;
 * after that every line that is not an event belongs to it (indented
 * counters, per-process headers of -s, blank separators).
 */
static int summary_line(struct ft_parser *p, const char *s, size_t len)
{
	size_t i = 0;

	if (starts_with(s, len, "CPU")) {
		for (i = 3; i < len && ft_isdigit(s[i]); i++)
			;
		if (i > 3 && i + 1 < len && s[i] == ' ' && s[i + 1] == '(') {
			p->in_summary = 1;
			return 1;
		}
	}
	if (starts_with(s, len, "Total (")) {
		p->in_summary = 1;
		return 1;
	}
	/* blkparse -i NAME announces each per-CPU file it opens */
	if (starts_with(s, len, "Input file ") ||
	    starts_with(s, len, "Throughput (") ||
	    starts_with(s, len, "Events (") ||
	    starts_with(s, len, "Skips: "))
		return 1;
	return p->in_summary;
}

/* REST of a default-format event line, after the RWBS token. */
static int parse_rest(struct ft_cur *c, struct ft_event *ev)
{
	const char *t;
	size_t n;
	u64 v;

	if (!next_token(c, &t, &n))
		return 0;		/* nothing: P, U and friends may end here */
	if (t[0] == '[')
		return 0;		/* "[comm]": no sector (flush) */
	if (tok_u64(t, n, &v))
		return ev->action[0] == 'D' ? -1 : 0;
	skip_space(c);
	if (c->p < c->end && *c->p == '+') {
		c->p++;
		if (!next_token(c, &t, &n) || tok_u64(t, n, &ev->nsectors))
			return -1;
		if (v > FT_MAX_SECTOR || ev->nsectors > FT_MAX_NSECTORS)
			return -1;
		ev->sector = v;
		ev->has_sector = 1;
		return 0;
	}
	/* "BYTES [comm]" or "BYTES (cdb) [comm]": a passthrough request */
	ev->passthrough = 1;
	ev->nsectors = 0;
	return 0;
}

static enum ft_line_kind parse_default(struct ft_parser *p, struct ft_cur *c,
				       const char *dev, size_t devlen,
				       struct ft_event *ev)
{
	const char *t;
	size_t n;
	u64 v;

	if (tok_dev(dev, devlen, &ev->major, &ev->minor))
		return FT_LINE_BAD;
	ev->has_dev = 1;
	/* CPU, sequence */
	if (!next_token(c, &t, &n) || tok_u64(t, n, &v))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_u64(t, n, &v))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_time(t, n, &ev->time_ns))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_u64(t, n, &v))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_action(t, n, ev))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n))
		return FT_LINE_BAD;
	if (ev->action[0] == 'm' && ev->action[1] == '\0') {
		/* message: the RWBS column is "N", the text follows */
		skip_space(c);
		ev->msg = c->p;
		ev->msg_len = c->end - c->p;
		while (ev->msg_len && ft_isspace(ev->msg[ev->msg_len - 1]))
			ev->msg_len--;
		return FT_LINE_MESSAGE;
	}
	if (ft_parse_rwbs(t, n, &ev->rwbs))
		return FT_LINE_BAD;
	if (parse_rest(c, ev))
		return FT_LINE_BAD;
	(void)p;
	return FT_LINE_EVENT;
}

static enum ft_line_kind parse_short(struct ft_cur *c, const char *tt,
				     size_t tlen, struct ft_event *ev)
{
	const char *t;
	size_t n;

	if (tok_time(tt, tlen, &ev->time_ns))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_action(t, n, ev))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || ft_parse_rwbs(t, n, &ev->rwbs))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_u64(t, n, &ev->sector))
		return FT_LINE_BAD;
	if (!next_token(c, &t, &n) || tok_u64(t, n, &ev->nsectors))
		return FT_LINE_BAD;
	if (ev->sector > FT_MAX_SECTOR || ev->nsectors > FT_MAX_NSECTORS)
		return FT_LINE_BAD;
	/* blkparse prints "0 0" for requests without data */
	ev->has_sector = ev->sector || ev->nsectors;
	return FT_LINE_EVENT;
}

enum ft_line_kind ft_parse_line(struct ft_parser *p, const char *line,
				size_t len, struct ft_event *ev)
{
	struct ft_cur c = { line, line + len };
	const char *t;
	size_t n;
	enum ft_line_kind k;

	ev->action[0] = '\0';
	ev->has_dev = 0;
	ev->has_sector = 0;
	ev->passthrough = 0;
	ev->sector = 0;
	ev->nsectors = 0;
	ev->msg = NULL;
	ev->msg_len = 0;
	ev->time_ns = 0;
	ev->rwbs.op = FT_OP_OTHER;
	ev->rwbs.flags = 0;

	if (!next_token(&c, &t, &n))
		return FT_LINE_BLANK;
	if (ft_isdigit(t[0])) {
		if (memchr(t, ',', n))
			k = parse_default(p, &c, t, n, ev);
		else
			k = parse_short(&c, t, n, ev);
		if (k != FT_LINE_BAD)
			return k;
	}
	if (summary_line(p, line, len))
		return FT_LINE_SUMMARY;
	return FT_LINE_BAD;
}
