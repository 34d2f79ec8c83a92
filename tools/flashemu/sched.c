// SPDX-License-Identifier: GPL-2.0
/*
 * The device clock: maps wall time to model time and books each request on
 * one of the device's channels (servers).  See struct emu_clock in
 * flashemu.h.
 */
#include <string.h>

#include "flashemu.h"

void clock_init_channels(struct emu_clock *c, uint64_t t0, double dilate,
			 unsigned int channels)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->t0 = t0;
	c->dilate = dilate > 0 ? dilate : 1.0;
	c->channels = channels < 1 ? 1 : channels > EMU_MAX_CHANNELS ?
		      EMU_MAX_CHANNELS : channels;
	for (i = 0; i < c->channels; i++)
		c->chan_free[i] = t0;
}

void clock_init(struct emu_clock *c, uint64_t t0, double dilate)
{
	clock_init_channels(c, t0, dilate, 1);
}

uint64_t clock_model_arrival(struct emu_clock *c, uint64_t wall)
{
	uint64_t m = 0;

	if (wall > c->t0)
		m = (uint64_t)((double)(wall - c->t0) / c->dilate);
	/* flashmodel wants non-decreasing arrivals */
	if (m < c->model_arrival)
		m = c->model_arrival;
	c->model_arrival = m;
	return m;
}

uint64_t clock_model_service(struct emu_clock *c, uint64_t arrival,
			     uint64_t done)
{
	uint64_t start = arrival > c->model_done ? arrival : c->model_done;

	if (done > c->model_done)
		c->model_done = done;
	return done > start ? done - start : 0;
}

uint64_t clock_book(struct emu_clock *c, uint64_t wall, uint64_t service_ns)
{
	uint64_t start, len = (uint64_t)((double)service_ns * c->dilate + 0.5);
	unsigned int i, ch = 0, conc = 1;

	for (i = 1; i < c->channels; i++)
		if (c->chan_free[i] < c->chan_free[ch])
			ch = i;
	start = wall > c->chan_free[ch] ? wall : c->chan_free[ch];
	/* busy at @start: every other channel whose last booking ends later */
	for (i = 0; i < c->channels; i++)
		if (i != ch && c->chan_free[i] > start)
			conc++;
	if (len && conc > c->max_conc)
		c->max_conc = conc;
	c->chan_free[ch] = start + len;
	c->chan_busy[ch] += len;
	return c->chan_free[ch];
}
