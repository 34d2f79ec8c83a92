// SPDX-License-Identifier: GPL-2.0
/*
 * Model replay: every D event goes to each selected flashmodel preset in
 * trace order, arriving at its D timestamp.  The model keeps its own
 * fixed-size histograms, so nothing here grows with the trace.
 */
#include <stdio.h>
#include <string.h>

#include "flashtrace.h"

void ft_replay_init(struct ft_replay *rp)
{
	memset(rp, 0, sizeof(*rp));
}

int ft_replay_add(struct ft_replay *rp, const char *name, char *err,
		  size_t errlen)
{
	struct ft_preset_run *r;

	if (rp->nr >= FT_MAX_PRESETS) {
		snprintf(err, errlen, "at most %d presets", FT_MAX_PRESETS);
		return -1;
	}
	r = &rp->run[rp->nr];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (fm_preset_get(name, &r->params, err, errlen))
		return -1;
	r->model = fm_new(&r->params);
	if (!r->model) {
		snprintf(err, errlen, "%s: cannot create the model", name);
		return -1;
	}
	rp->nr++;
	return 0;
}

/*
 * Translate an event into a model request.  Returns 0 and fills the
 * outputs, or -1 for requests the model has no operation for.
 */
static int to_model(const struct ft_geom *g, const struct ft_event *ev,
		    enum fm_op *op, u64 *off, u64 *len,
		    unsigned int *flags)
{
	*flags = 0;
	*off = 0;
	*len = 0;
	if (ev->passthrough)
		return -1;
	if (ev->rwbs.flags & FT_RWBS_PREFLUSH)
		*flags |= FM_PREFLUSH;
	if (ev->rwbs.flags & FT_RWBS_FUA)
		*flags |= FM_FUA;
	switch (ev->rwbs.op) {
	case FT_OP_READ:
		*op = FM_READ;
		break;
	case FT_OP_WRITE:
		*op = FM_WRITE;
		break;
	case FT_OP_DISCARD:
		*op = FM_DISCARD;
		break;
	case FT_OP_FLUSH:
		*op = FM_FLUSH;
		return 0;
	default:
		return -1;
	}
	if (!ev->has_sector || !ev->nsectors)
		return -1;
	*off = ft_byte_offset(g, ev->sector);
	*len = ev->nsectors * g->sector_size;
	return 0;
}

void ft_replay_dispatch(struct ft_replay *rp, const struct ft_geom *g,
			const struct ft_event *ev)
{
	u64 arrival = ev->time_ns, off, len;
	unsigned int flags;
	enum fm_op op;
	int i;

	if (!rp->nr)
		return;
	if (to_model(g, ev, &op, &off, &len, &flags)) {
		rp->skipped++;
		return;
	}
	/* the model wants non-decreasing arrivals */
	if (arrival < rp->last_arrival)
		arrival = rp->last_arrival;
	rp->last_arrival = arrival;
	rp->submitted++;
	for (i = 0; i < rp->nr; i++)
		fm_submit(rp->run[i].model, arrival, op, off, len, flags);
}

void ft_replay_result(const struct ft_replay *rp, int i,
		      struct ft_model_result *res)
{
	const struct ft_preset_run *r = &rp->run[i];
	const struct fm_model *m = r->model;

	memset(res, 0, sizeof(*res));
	res->name = r->name;
	res->params = &r->params;
	fm_get_stats(m, &res->st);
	res->wa = fm_write_amplification(&res->st);
	res->mibps = fm_write_mibps(&res->st);
	if (res->st.writes) {
		res->wr_service_p50 = fm_service_percentile(m, FM_WRITE, 0.50);
		res->wr_service_p99 = fm_service_percentile(m, FM_WRITE, 0.99);
		res->wr_lat_p50 = fm_latency_percentile(m, FM_WRITE, 0.50);
		res->wr_lat_p99 = fm_latency_percentile(m, FM_WRITE, 0.99);
	}
	if (res->st.reads) {
		res->rd_service_p50 = fm_service_percentile(m, FM_READ, 0.50);
		res->rd_service_p99 = fm_service_percentile(m, FM_READ, 0.99);
		res->rd_lat_p50 = fm_latency_percentile(m, FM_READ, 0.50);
		res->rd_lat_p99 = fm_latency_percentile(m, FM_READ, 0.99);
	}
}

void ft_replay_free(struct ft_replay *rp)
{
	int i;

	for (i = 0; i < rp->nr; i++)
		fm_free(rp->run[i].model);
	rp->nr = 0;
}
