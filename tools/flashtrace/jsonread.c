// SPDX-License-Identifier: GPL-2.0
/*
 * A small recursive-descent JSON reader, enough for compare mode to read
 * the files flashtrace --json writes (and any other well-formed JSON).
 * Values form a tree of ft_jval; free with ft_json_free().  Strings are
 * decoded except that \u escapes above 0x7f become '?'.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashtrace.h"

#define FT_JSON_MAX_DEPTH	64

struct jr {
	const char *p;
	const char *start;
	char *err;
	size_t errlen;
	int failed;
};

static void jr_fail(struct jr *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "offset %ld: %s",
			 (long)(r->p - r->start), what);
	r->failed = 1;
}

static void jr_space(struct jr *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static struct ft_jval *jv_new(struct jr *r, enum ft_jtype t)
{
	struct ft_jval *v = calloc(1, sizeof(*v));

	if (!v)
		jr_fail(r, "out of memory");
	else
		v->type = t;
	return v;
}

static char *jr_string(struct jr *r)
{
	size_t cap = 16, n = 0;
	char *s, *q;

	if (*r->p != '"') {
		jr_fail(r, "string expected");
		return NULL;
	}
	r->p++;
	s = malloc(cap);
	if (!s) {
		jr_fail(r, "out of memory");
		return NULL;
	}
	while (*r->p != '"') {
		char ch = *r->p++;

		if (ch == '\0' || (unsigned char)ch < 0x20) {
			jr_fail(r, "unterminated string");
			free(s);
			return NULL;
		}
		if (ch == '\\') {
			ch = *r->p++;
			switch (ch) {
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'r':
				ch = '\r';
				break;
			case 'b':
				ch = '\b';
				break;
			case 'f':
				ch = '\f';
				break;
			case '"':
			case '\\':
			case '/':
				break;
			case 'u': {
				unsigned int u = 0;
				int i;

				for (i = 0; i < 4; i++) {
					char h = *r->p++;

					u <<= 4;
					if (h >= '0' && h <= '9')
						u |= h - '0';
					else if (h >= 'a' && h <= 'f')
						u |= h - 'a' + 10;
					else if (h >= 'A' && h <= 'F')
						u |= h - 'A' + 10;
					else
						goto bad_escape;
				}
				ch = u < 0x80 ? (char)u : '?';
				break;
			}
			default:
				goto bad_escape;
			}
		}
		if (n + 2 > cap) {
			cap *= 2;
			q = realloc(s, cap);
			if (!q) {
				free(s);
				jr_fail(r, "out of memory");
				return NULL;
			}
			s = q;
		}
		s[n++] = ch;
	}
	r->p++;
	s[n] = '\0';
	return s;

bad_escape:
	free(s);
	jr_fail(r, "bad escape");
	return NULL;
}

static struct ft_jval *jr_value(struct jr *r, int depth);

/* Members or elements up to @close; @obj says whether keys come first. */
static struct ft_jval *jr_container(struct jr *r, int depth, int obj)
{
	struct ft_jval *v = jv_new(r, obj ? FT_J_OBJ : FT_J_ARR), **tail;
	char close = obj ? '}' : ']';

	if (!v)
		return NULL;
	tail = &v->child;
	r->p++;
	jr_space(r);
	if (*r->p == close) {
		r->p++;
		return v;
	}
	for (;;) {
		struct ft_jval *m;
		char *key = NULL;

		jr_space(r);
		if (obj) {
			key = jr_string(r);
			if (!key)
				break;
			jr_space(r);
			if (*r->p != ':') {
				free(key);
				jr_fail(r, "':' expected");
				break;
			}
			r->p++;
		}
		m = jr_value(r, depth + 1);
		if (!m) {
			free(key);
			break;
		}
		m->key = key;
		*tail = m;
		tail = &m->next;
		jr_space(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == close) {
			r->p++;
			return v;
		}
		jr_fail(r, obj ? "',' or '}' expected" : "',' or ']' expected");
		break;
	}
	ft_json_free(v);
	return NULL;
}

static struct ft_jval *jr_value(struct jr *r, int depth)
{
	struct ft_jval *v;
	char *end;

	if (depth > FT_JSON_MAX_DEPTH) {
		jr_fail(r, "nested too deeply");
		return NULL;
	}
	jr_space(r);
	switch (*r->p) {
	case '{':
		return jr_container(r, depth, 1);
	case '[':
		return jr_container(r, depth, 0);
	case '"':
		v = jv_new(r, FT_J_STR);
		if (v) {
			v->str = jr_string(r);
			if (!v->str) {
				free(v);
				v = NULL;
			}
		}
		return v;
	case 't':
	case 'f':
	case 'n': {
		static const char *const words[] = { "true", "false", "null" };
		int i;

		for (i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);

			if (strncmp(r->p, words[i], n) == 0) {
				r->p += n;
				v = jv_new(r, i == 2 ? FT_J_NULL : FT_J_BOOL);
				if (v)
					v->num = i == 0;
				return v;
			}
		}
		jr_fail(r, "unknown word");
		return NULL;
	}
	default:
		if (*r->p != '-' && (*r->p < '0' || *r->p > '9')) {
			jr_fail(r, "value expected");
			return NULL;
		}
		v = jv_new(r, FT_J_NUM);
		if (!v)
			return NULL;
		v->num = strtod(r->p, &end);
		if (end == r->p) {
			free(v);
			jr_fail(r, "bad number");
			return NULL;
		}
		r->p = end;
		return v;
	}
}

struct ft_jval *ft_json_parse(const char *text, char *err, size_t errlen)
{
	struct jr r = { text, text, err, errlen, 0 };
	struct ft_jval *v = jr_value(&r, 0);

	if (!v)
		return NULL;
	jr_space(&r);
	if (*r.p) {
		jr_fail(&r, "trailing characters");
		ft_json_free(v);
		return NULL;
	}
	return v;
}

void ft_json_free(struct ft_jval *v)
{
	while (v) {
		struct ft_jval *next = v->next;

		ft_json_free(v->child);
		free(v->str);
		free(v->key);
		free(v);
		v = next;
	}
}

const struct ft_jval *ft_json_get(const struct ft_jval *v, const char *key)
{
	const struct ft_jval *m;

	if (!v || v->type != FT_J_OBJ)
		return NULL;
	for (m = v->child; m; m = m->next)
		if (m->key && strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

const struct ft_jval *ft_json_path(const struct ft_jval *v, const char *path)
{
	char part[128];
	const char *dot;
	size_t n;

	while (v && *path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		v = ft_json_get(v, part);
		path += n + (dot ? 1 : 0);
	}
	return v;
}

double ft_json_num(const struct ft_jval *v, const char *path)
{
	const struct ft_jval *n = ft_json_path(v, path);

	return n && n->type == FT_J_NUM ? n->num : NAN;
}
