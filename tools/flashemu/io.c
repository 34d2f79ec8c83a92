// SPDX-License-Identifier: GPL-2.0
/*
 * One request's effect on the card, at the time the device completes it:
 * data moved between the request's buffer and the cache, or a failure once
 * the power is off.  See io_serve in flashemu.h.
 */
#include <errno.h>

#include "flashemu.h"

int io_serve(struct emu_cache *c, const struct emu_power *p,
	     const struct emu_req *r, void *buf, unsigned int max_io)
{
	int ret = 0;

	if (p->off)
		return -EIO;
	if (r->op == EMU_NR_OPS)
		return -EOPNOTSUPP;
	if ((r->op == EMU_R || r->op == EMU_W) && (!r->len || r->len > max_io))
		return -EIO;
	switch (r->op) {
	case EMU_R:
		ret = cache_read(c, r->off, buf, r->len);
		break;
	case EMU_W:
		ret = cache_write(c, r->off, buf, r->len, r->fua);
		break;
	case EMU_F:
		ret = cache_flush(c);
		break;
	case EMU_D:
	case EMU_Z:
		ret = cache_zero(c, r->off, r->len, r->fua);
		break;
	default:
		break;
	}
	if (ret)
		return ret == -ENOMEM ? -ENOMEM : -EIO;
	return (r->op == EMU_R || r->op == EMU_W) ? (int)r->len : 0;
}
