// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output: one object per run, schema in README.md ("JSON schema").
 * Counters are integers; ratios are numbers with fixed precision; a value
 * that does not exist (e.g. percentiles with no writes) is 0.  Keys never
 * disappear, so consumers can index without checks.
 */
#include <math.h>
#include <stdio.h>

#include "flashtrace.h"

void ft_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", out);
		else if (ch == '\t')
			fputs("\\t", out);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* Writer state: indentation and whether a comma is due. */
struct jw {
	FILE *out;
	int depth;
	int need_comma;
};

static void jw_sep(struct jw *w)
{
	if (w->need_comma)
		fputc(',', w->out);
	fputc('\n', w->out);
	fprintf(w->out, "%*s", 2 * w->depth, "");
}

static void jw_key(struct jw *w, const char *key)
{
	jw_sep(w);
	if (key) {
		ft_json_string(w->out, key);
		fputs(": ", w->out);
	}
}

static void jw_open(struct jw *w, const char *key, char bracket)
{
	jw_key(w, key);
	fputc(bracket, w->out);
	w->depth++;
	w->need_comma = 0;
}

static void jw_close(struct jw *w, char bracket)
{
	w->depth--;
	fputc('\n', w->out);
	fprintf(w->out, "%*s%c", 2 * w->depth, "", bracket);
	w->need_comma = 1;
}

static void jw_u64(struct jw *w, const char *key, u64 v)
{
	jw_key(w, key);
	fprintf(w->out, "%llu", (unsigned long long)v);
	w->need_comma = 1;
}

static void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (!isfinite(v))
		v = 0;
	fprintf(w->out, "%.10g", v);
	w->need_comma = 1;
}

static void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	ft_json_string(w->out, s);
	w->need_comma = 1;
}

static void jw_u64_array(struct jw *w, const char *key, const u64 *v,
			 int n)
{
	int i;

	jw_key(w, key);
	fputc('[', w->out);
	for (i = 0; i < n; i++)
		fprintf(w->out, "%s%llu", i ? ", " : "",
			(unsigned long long)v[i]);
	fputc(']', w->out);
	w->need_comma = 1;
}

static const char *const op_keys[FT_NR_OPS] = {
	[FT_OP_READ] = "read",
	[FT_OP_WRITE] = "write",
	[FT_OP_DISCARD] = "discard",
	[FT_OP_FLUSH] = "flush",
	[FT_OP_OTHER] = "other",
};

static void json_input(struct jw *w, const struct ft_stats *st)
{
	char dev[32];

	jw_open(w, "input", '{');
	jw_u64(w, "lines", st->lines);
	jw_u64(w, "events", st->events);
	jw_u64(w, "dispatches", st->dispatches);
	jw_u64(w, "other_events", st->other_actions);
	jw_u64(w, "messages", st->messages);
	jw_u64(w, "flash_switch_messages", st->flash_switch_msgs);
	jw_u64(w, "summary_lines", st->summary_lines);
	jw_u64(w, "blank_lines", st->blank_lines);
	jw_u64(w, "not_understood", st->bad_lines);
	jw_u64(w, "filtered_dispatches", st->filtered);
	jw_u64(w, "other_device_dispatches", st->other_dev);
	jw_u64(w, "timestamps_backwards", st->time_backwards);
	jw_u64(w, "blktrace_files", st->bin_files);
	jw_u64(w, "blktrace_records", st->bin_records);
	jw_u64(w, "blktrace_notes", st->bin_notes);
	jw_u64(w, "blktrace_bad_records", st->bin_bad);
	jw_u64(w, "blktrace_skipped_bytes", st->bin_skipped_bytes);
	jw_u64(w, "blktrace_truncated", st->bin_truncated);
	if (st->have_dev)
		snprintf(dev, sizeof(dev), "%u,%u", st->major, st->minor);
	else
		dev[0] = '\0';
	jw_str(w, "device", dev);
	jw_u64(w, "first_ns", st->have_time ? st->first_ns : 0);
	jw_u64(w, "last_ns", st->have_time ? st->last_ns : 0);
	jw_num(w, "duration_s", st->have_time ?
	       (double)(st->last_ns - st->first_ns) / 1e9 : 0.0);
	jw_close(w, '}');
}

static void json_requests(struct jw *w, const struct ft_stats *st)
{
	u64 mins[FT_SIZE_BUCKETS];
	int i;

	jw_open(w, "requests", '{');
	for (i = 0; i < FT_NR_OPS; i++) {
		const struct ft_dir_stats *d = &st->dir[i];

		jw_open(w, op_keys[i], '{');
		jw_u64(w, "requests", d->requests);
		jw_u64(w, "with_data", d->with_data);
		jw_u64(w, "bytes", d->bytes);
		jw_u64(w, "page_crossing", d->page_cross);
		jw_u64(w, "page_violations", d->page_violations);
		jw_u64(w, "erase_crossing", d->erase_cross);
		jw_u64(w, "not_power_of_two", d->not_pow2);
		jw_close(w, '}');
	}
	jw_close(w, '}');

	jw_open(w, "flags", '{');
	jw_u64(w, "preflush", st->preflush);
	jw_u64(w, "fua", st->fua);
	jw_u64(w, "sync", st->sync);
	jw_u64(w, "meta", st->meta);
	jw_u64(w, "ahead", st->ahead);
	jw_u64(w, "secure_erase", st->secure_erase);
	jw_close(w, '}');

	for (i = 0; i < FT_SIZE_BUCKETS; i++)
		mins[i] = ft_size_bucket_min(i);
	jw_open(w, "size_histogram", '{');
	jw_u64_array(w, "bucket_min_bytes", mins, FT_SIZE_BUCKETS);
	jw_u64_array(w, "read", st->dir[FT_OP_READ].sizes, FT_SIZE_BUCKETS);
	jw_u64_array(w, "write", st->dir[FT_OP_WRITE].sizes, FT_SIZE_BUCKETS);
	jw_u64_array(w, "discard", st->dir[FT_OP_DISCARD].sizes,
		     FT_SIZE_BUCKETS);
	jw_close(w, '}');
}

static void json_writes(struct jw *w, const struct ft_stats *st)
{
	const struct ft_dir_stats *d = &st->dir[FT_OP_WRITE];

	jw_open(w, "writes", '{');
	jw_u64(w, "requests", d->with_data);
	jw_u64(w, "bytes", d->bytes);
	jw_num(w, "mib", (double)d->bytes / FT_MIB);
	jw_u64(w, "page_violations", d->page_violations);
	jw_num(w, "page_violations_pct", ft_pct(d->page_violations,
						d->with_data));
	jw_u64(w, "page_aligned", st->page_aligned);
	jw_num(w, "page_aligned_pct", ft_pct(st->page_aligned, d->with_data));
	jw_u64(w, "naturally_aligned", st->nat_aligned);
	jw_num(w, "naturally_aligned_pct", ft_pct(st->nat_aligned,
						  d->with_data));
	jw_u64(w, "erase_crossing", d->erase_cross);
	jw_u64(w, "switches", st->switches);
	jw_num(w, "switches_per_mib", ft_switches_per_mib(st));
	jw_u64(w, "sequential", st->sequential);
	jw_u64(w, "backward", st->backward);
	jw_u64(w, "distinct_erase_blocks", st->distinct_ebs);
	jw_u64(w, "untracked_erase_block_writes", st->untracked_eb_writes);
	jw_close(w, '}');
}

static void json_models(struct jw *w, const struct ft_ctx *c)
{
	struct ft_model_result r;
	int i;

	jw_open(w, "models", '[');
	for (i = 0; i < c->rp.nr; i++) {
		ft_replay_result(&c->rp, i, &r);
		jw_open(w, NULL, '{');
		jw_str(w, "preset", r.name);
		jw_str(w, "model_name", r.params->name);
		jw_u64(w, "au_size", r.params->au_size);
		jw_u64(w, "unit", r.params->unit);
		jw_u64(w, "open_aus", r.params->open_aus);
		jw_u64(w, "requests", c->rp.submitted);
		jw_num(w, "write_amplification", r.wa);
		jw_u64(w, "erases", r.st.erases);
		jw_u64(w, "switch_merges", r.st.switch_merges);
		jw_u64(w, "full_merges", r.st.full_merges);
		jw_u64(w, "pending_aus", r.st.pending_aus);
		jw_u64(w, "pending_copy_bytes", r.st.pending_copy_bytes);
		jw_u64(w, "host_write_bytes", r.st.host_write_bytes);
		jw_u64(w, "programmed_bytes", r.st.programmed_bytes);
		jw_u64(w, "copied_bytes", r.st.copied_bytes);
		jw_u64(w, "read_bytes", r.st.read_bytes);
		jw_u64(w, "busy_ns", r.st.busy_ns);
		jw_u64(w, "last_completion_ns", r.st.last_completion_ns);
		jw_num(w, "write_mibps", r.mibps);
		jw_u64(w, "write_service_p50_ns", r.wr_service_p50);
		jw_u64(w, "write_service_p99_ns", r.wr_service_p99);
		jw_u64(w, "write_latency_p50_ns", r.wr_lat_p50);
		jw_u64(w, "write_latency_p99_ns", r.wr_lat_p99);
		jw_u64(w, "read_service_p50_ns", r.rd_service_p50);
		jw_u64(w, "read_service_p99_ns", r.rd_service_p99);
		jw_u64(w, "read_latency_p50_ns", r.rd_lat_p50);
		jw_u64(w, "read_latency_p99_ns", r.rd_lat_p99);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

void ft_report_json(const struct ft_ctx *c, FILE *out)
{
	const struct ft_stats *st = &c->st;
	struct jw w = { out, 0, 0 };

	fputc('{', out);
	w.depth = 1;
	jw_str(&w, "tool", "flashtrace");
	jw_u64(&w, "schema", FT_JSON_SCHEMA);
	jw_open(&w, "geometry", '{');
	jw_u64(&w, "page_size", st->geom.page_size);
	jw_u64(&w, "erase_size", st->geom.erase_size);
	jw_u64(&w, "sector_size", st->geom.sector_size);
	jw_u64(&w, "offset_sectors", st->geom.offset);
	jw_close(&w, '}');
	json_input(&w, st);
	json_requests(&w, st);
	json_writes(&w, st);
	json_models(&w, c);
	fputs("\n}\n", out);
}
