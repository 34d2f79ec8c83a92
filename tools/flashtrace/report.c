// SPDX-License-Identifier: GPL-2.0
/*
 * The human-readable report: plain words first, then tables in the spirit
 * of blkparse's summary (counts and KiB per direction) and btt (Q/D/C
 * names).  Only reads the context.
 */
#include <stdio.h>

#include "flashtrace.h"

static const char *const op_names[FT_NR_OPS] = {
	[FT_OP_READ] = "read",
	[FT_OP_WRITE] = "write",
	[FT_OP_DISCARD] = "discard",
	[FT_OP_FLUSH] = "flush",
	[FT_OP_OTHER] = "other",
};

static void part_of(FILE *out, const char *what, u64 part, u64 whole)
{
	fprintf(out, "  %s: %llu of %llu (%.2f%%)\n", what,
		(unsigned long long)part, (unsigned long long)whole,
		ft_pct(part, whole));
}

static void size_label(int i, char *buf, size_t len)
{
	char a[16], b[16];

	if (i == 0)
		snprintf(buf, len, "< %s", ft_fmt_size(ft_size_bucket_min(1), a,
						       sizeof(a)));
	else if (i == FT_SIZE_BUCKETS - 1)
		snprintf(buf, len, ">= %s",
			 ft_fmt_size(ft_size_bucket_min(i), a, sizeof(a)));
	else
		snprintf(buf, len, "%s .. < %s",
			 ft_fmt_size(ft_size_bucket_min(i), a, sizeof(a)),
			 ft_fmt_size(ft_size_bucket_min(i + 1), b, sizeof(b)));
}

static void report_input(const struct ft_stats *st, FILE *out)
{
	fprintf(out, "input\n");
	if (st->lines || !st->bin_files)
		fprintf(out, "  %-34s %llu\n", "lines read",
			(unsigned long long)st->lines);
	if (st->bin_files) {
		fprintf(out, "  %-34s %llu (%llu per-CPU files)\n",
			"blktrace records",
			(unsigned long long)st->bin_records,
			(unsigned long long)st->bin_files);
		fprintf(out, "  %-34s %llu\n", "process/time notes skipped",
			(unsigned long long)st->bin_notes);
	}
	fprintf(out, "  %-34s %llu\n", "dispatches (D events)",
		(unsigned long long)st->dispatches);
	fprintf(out, "  %-34s %llu\n", "other events (Q, G, I, C, ...)",
		(unsigned long long)st->other_actions);
	fprintf(out, "  %-34s %llu (\"flash switch\": %llu)\n",
		"messages (m)", (unsigned long long)st->messages,
		(unsigned long long)st->flash_switch_msgs);
	if (st->summary_lines)
		fprintf(out, "  %-34s %llu\n", "blkparse summary lines skipped",
			(unsigned long long)st->summary_lines);
	if (st->filtered)
		fprintf(out, "  %-34s %llu\n", "dispatches of other devices",
			(unsigned long long)st->filtered);
	if (st->lines || !st->bin_files)
		fprintf(out, "  %llu lines not understood\n",
			(unsigned long long)st->bad_lines);
	if (st->bin_files)
		fprintf(out,
			"  %llu bad records (%llu bytes skipped), %llu truncated records\n",
			(unsigned long long)st->bin_bad,
			(unsigned long long)st->bin_skipped_bytes,
			(unsigned long long)st->bin_truncated);
	if (st->other_dev)
		fprintf(out,
			"  warning: %llu dispatches come from a device other than %u,%u; use --dev\n",
			(unsigned long long)st->other_dev, st->major, st->minor);
	if (st->time_backwards)
		fprintf(out,
			"  warning: %llu dispatches are earlier than the one before (unsorted input?)\n",
			(unsigned long long)st->time_backwards);
}

static void report_dirs(const struct ft_stats *st, FILE *out)
{
	int i;

	fprintf(out, "\ndispatches (D)  %10s %12s %10s %10s %10s\n",
		"requests", "KiB", "cross page", "unaligned", "cross erase");
	for (i = 0; i < FT_NR_OPS; i++) {
		const struct ft_dir_stats *d = &st->dir[i];

		if (i == FT_OP_FLUSH || i == FT_OP_OTHER) {
			fprintf(out, "  %-13s %10llu %12s %10s %10s %10s\n",
				op_names[i], (unsigned long long)d->requests,
				"-", "-", "-", "-");
			continue;
		}
		fprintf(out, "  %-13s %10llu %12llu %10llu %10llu %10llu\n",
			op_names[i], (unsigned long long)d->requests,
			(unsigned long long)(d->bytes / 1024),
			(unsigned long long)d->page_cross,
			(unsigned long long)d->page_violations,
			(unsigned long long)d->erase_cross);
	}
	fprintf(out,
		"  flags: preflush %llu, FUA %llu, sync %llu, meta %llu, read-ahead %llu, secure erase %llu\n",
		(unsigned long long)st->preflush, (unsigned long long)st->fua,
		(unsigned long long)st->sync, (unsigned long long)st->meta,
		(unsigned long long)st->ahead,
		(unsigned long long)st->secure_erase);
}

static void report_sizes(const struct ft_stats *st, FILE *out)
{
	char label[32];
	int i;

	fprintf(out, "\nrequest size         %10s %10s %10s\n", "read", "write",
		"discard");
	for (i = 0; i < FT_SIZE_BUCKETS; i++) {
		size_label(i, label, sizeof(label));
		fprintf(out, "  %-18s %10llu %10llu %10llu\n", label,
			(unsigned long long)st->dir[FT_OP_READ].sizes[i],
			(unsigned long long)st->dir[FT_OP_WRITE].sizes[i],
			(unsigned long long)st->dir[FT_OP_DISCARD].sizes[i]);
	}
	fprintf(out, "  %-18s %10llu %10llu %10llu\n", "not a power of two",
		(unsigned long long)st->dir[FT_OP_READ].not_pow2,
		(unsigned long long)st->dir[FT_OP_WRITE].not_pow2,
		(unsigned long long)st->dir[FT_OP_DISCARD].not_pow2);
}

static void report_writes(const struct ft_stats *st, FILE *out)
{
	const struct ft_dir_stats *w = &st->dir[FT_OP_WRITE];
	u64 nw = w->with_data;
	char a[16];

	fprintf(out, "\nwrites (%.2f MiB in %llu requests with data)\n",
		(double)w->bytes / FT_MIB, (unsigned long long)nw);
	part_of(out, "writes crossing a page boundary unaligned",
		w->page_violations, nw);
	part_of(out, "writes starting and ending on a page boundary",
		st->page_aligned, nw);
	part_of(out, "writes naturally aligned in their erase block",
		st->nat_aligned, nw);
	part_of(out, "writes crossing an erase block boundary",
		w->erase_cross, nw);
	part_of(out, "writes continuing where the previous write ended",
		st->sequential, nw);
	part_of(out, "backward writes inside an erase block", st->backward,
		nw);
	fprintf(out, "  segment switches: %llu (%.2f per MiB written)\n",
		(unsigned long long)st->switches, ft_switches_per_mib(st));
	fprintf(out, "  distinct erase blocks written: %llu (%s each)%s\n",
		(unsigned long long)st->distinct_ebs,
		ft_fmt_size(st->geom.erase_size, a, sizeof(a)),
		st->untracked_eb_writes ? " (some beyond the tracked range)" :
		"");
}

static double ms(u64 ns)
{
	return (double)ns / 1e6;
}

static void report_models(const struct ft_ctx *c, FILE *out)
{
	struct ft_model_result r[FT_MAX_PRESETS];
	const struct ft_replay *rp = &c->rp;
	char a[16], b[16];
	int i;

	if (!rp->nr)
		return;
	fprintf(out,
		"\nmodel replay (flashmodel; %llu requests, arrival = D time; times on the model clock)\n",
		(unsigned long long)rp->submitted);
	fprintf(out, "  %-28s", "preset");
	for (i = 0; i < rp->nr; i++) {
		ft_replay_result(rp, i, &r[i]);
		fprintf(out, " %14.14s", r[i].params->name[0] ?
			r[i].params->name : r[i].name);
	}
	fprintf(out, "\n");

#define ROW(label, fmt, expr) do {				\
		fprintf(out, "  %-28s", label);			\
		for (i = 0; i < rp->nr; i++)			\
			fprintf(out, " " fmt, expr);		\
		fprintf(out, "\n");				\
	} while (0)

	fprintf(out, "  %-28s", "erase block / unit");
	for (i = 0; i < rp->nr; i++) {
		char cell[40];

		snprintf(cell, sizeof(cell), "%s/%s",
			 ft_fmt_size(r[i].params->au_size, a, sizeof(a)),
			 ft_fmt_size(r[i].params->unit, b, sizeof(b)));
		fprintf(out, " %14s", cell);
	}
	fprintf(out, "\n");
	ROW("open erase blocks", "%14u", r[i].params->open_aus);
	ROW("write amplification", "%14.2f", r[i].wa);
	ROW("erases", "%14llu", (unsigned long long)r[i].st.erases);
	ROW("switch merges (free)", "%14llu",
	    (unsigned long long)r[i].st.switch_merges);
	ROW("full merges (copy)", "%14llu",
	    (unsigned long long)r[i].st.full_merges);
	ROW("MiB copied", "%14.2f", (double)r[i].st.copied_bytes / FT_MIB);
	ROW("open at end needing copy", "%14llu",
	    (unsigned long long)r[i].st.pending_aus);
	ROW("busy time (s)", "%14.3f", (double)r[i].st.busy_ns / 1e9);
	ROW("write MiB/s", "%14.2f", r[i].mibps);
	ROW("write service p50 (ms)", "%14.3f", ms(r[i].wr_service_p50));
	ROW("write service p99 (ms)", "%14.3f", ms(r[i].wr_service_p99));
	ROW("write latency p50 (ms)", "%14.3f", ms(r[i].wr_lat_p50));
	ROW("write latency p99 (ms)", "%14.3f", ms(r[i].wr_lat_p99));
	ROW("read service p50 (ms)", "%14.3f", ms(r[i].rd_service_p50));
	ROW("read service p99 (ms)", "%14.3f", ms(r[i].rd_service_p99));
	ROW("read latency p50 (ms)", "%14.3f", ms(r[i].rd_lat_p50));
	ROW("read latency p99 (ms)", "%14.3f", ms(r[i].rd_lat_p99));
#undef ROW
	for (i = 0; i < rp->nr; i++)
		if (r[i].params->au_size != c->st.geom.erase_size) {
			fprintf(out,
				"  note: preset %s models %s erase blocks; the geometry above uses --erase-size %s\n",
				r[i].name,
				ft_fmt_size(r[i].params->au_size, a, sizeof(a)),
				ft_fmt_size(c->st.geom.erase_size, b, sizeof(b)));
		}
}

void ft_report_text(const struct ft_ctx *c, FILE *out)
{
	const struct ft_stats *st = &c->st;
	char p[16], e[16];

	fprintf(out, "flashtrace: ");
	if (st->have_dev)
		fprintf(out, "device %u,%u, ", st->major, st->minor);
	fprintf(out, "%llu dispatches over %.6f s\n",
		(unsigned long long)st->dispatches,
		st->have_time ? (double)(st->last_ns - st->first_ns) / 1e9 : 0.0);
	fprintf(out,
		"geometry: page %s, erase block %s, sector %llu bytes, offset %llu sectors\n\n",
		ft_fmt_size(st->geom.page_size, p, sizeof(p)),
		ft_fmt_size(st->geom.erase_size, e, sizeof(e)),
		(unsigned long long)st->geom.sector_size,
		(unsigned long long)st->geom.offset);
	report_input(st, out);
	report_dirs(st, out);
	report_sizes(st, out);
	report_writes(st, out);
	report_models(c, out);
}
