// SPDX-License-Identifier: GPL-2.0
/*
 * The device clock: maps wall time to model time and books each request on
 * a single FIFO server.  See struct emu_clock in flashemu.h.
 */
#include <string.h>

#include "flashemu.h"

void clock_init(struct emu_clock *c, uint64_t t0, double dilate)
{
	memset(c, 0, sizeof(*c));
	c->t0 = t0;
	c->dilate = dilate > 0 ? dilate : 1.0;
	c->dev_free = t0;
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
	uint64_t start = wall > c->dev_free ? wall : c->dev_free;

	c->dev_free = start + (uint64_t)((double)service_ns * c->dilate + 0.5);
	return c->dev_free;
}
