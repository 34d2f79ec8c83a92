// SPDX-License-Identifier: GPL-2.0
/*
 * Flash geometry: option parsing for sizes and the pure helpers that say
 * whether a request crosses a page or erase block boundary or is aligned.
 * Erase blocks need not be a power of two (1.5, 3, 6 MiB exist), so every
 * helper divides instead of masking.
 */
#include <stdio.h>
#include <string.h>

#include "flashtrace.h"

void ft_geom_default(struct ft_geom *g)
{
	g->page_size = FT_DEF_PAGE_SIZE;
	g->erase_size = FT_DEF_ERASE_SIZE;
	g->sector_size = FT_DEF_SECTOR_SIZE;
	g->offset = 0;
}

int ft_geom_check(const struct ft_geom *g, char *err, size_t errlen)
{
	if (!g->page_size || !g->erase_size || !g->sector_size) {
		snprintf(err, errlen, "sizes must be greater than zero");
		return -1;
	}
	if (g->erase_size % g->page_size) {
		snprintf(err, errlen,
			 "erase size %llu is not a multiple of the page size %llu",
			 (unsigned long long)g->erase_size,
			 (unsigned long long)g->page_size);
		return -1;
	}
	if (!ft_is_pow2(g->sector_size) || g->sector_size < 512 ||
	    g->sector_size > 4096) {
		snprintf(err, errlen,
			 "sector size must be 512, 1024, 2048 or 4096 (blkparse uses 512)");
		return -1;
	}
	if (g->offset > (1ull << 48)) {
		snprintf(err, errlen, "offset too large");
		return -1;
	}
	return 0;
}

int ft_parse_size(const char *s, u64 *out)
{
	u64 whole = 0, frac = 0, fdiv = 1, mult = 1;
	const char *p = s;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (whole > UINT64_MAX / 10)
			return -1;
		whole = whole * 10 + (*p++ - '0');
		digits++;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (fdiv >= 1000000000ull)
				return -1;
			frac = frac * 10 + (*p - '0');
			fdiv *= 10;
			digits++;
		}
	}
	if (!digits)
		return -1;
	switch (*p) {
	case 'k':
	case 'K':
		mult = 1ull << 10;
		p++;
		break;
	case 'm':
	case 'M':
		mult = 1ull << 20;
		p++;
		break;
	case 'g':
	case 'G':
		mult = 1ull << 30;
		p++;
		break;
	}
	if (mult > 1 && *p == 'i')
		p++;
	if (*p == 'B' || *p == 'b')
		p++;
	if (*p)
		return -1;
	if (whole > UINT64_MAX / mult)
		return -1;
	/* the fraction must come out as whole bytes */
	if ((frac * mult) % fdiv)
		return -1;
	*out = whole * mult + frac * mult / fdiv;
	return 0;
}

const char *ft_fmt_size(u64 bytes, char *buf, size_t len)
{
	static const char units[] = "KMG";
	int i;

	for (i = 2; i >= 0; i--) {
		u64 u = 1ull << (10 * (i + 1));

		if (bytes >= u && bytes % (u / 2) == 0) {
			if (bytes % u == 0)
				snprintf(buf, len, "%llu%c",
					 (unsigned long long)(bytes / u), units[i]);
			else
				snprintf(buf, len, "%llu.5%c",
					 (unsigned long long)(bytes / u), units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

u64 ft_byte_offset(const struct ft_geom *g, u64 sector)
{
	return (sector + g->offset) * g->sector_size;
}

int ft_crosses(u64 start, u64 len, u64 unit)
{
	if (len == 0)
		return 0;
	return start / unit != (start + len - 1) / unit;
}

int ft_page_violation(const struct ft_geom *g, u64 start, u64 len)
{
	return ft_crosses(start, len, g->page_size) && start % g->page_size;
}

int ft_page_aligned(const struct ft_geom *g, u64 start, u64 len)
{
	return len && start % g->page_size == 0 && len % g->page_size == 0;
}

int ft_is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

int ft_naturally_aligned(const struct ft_geom *g, u64 start, u64 len)
{
	u64 rel = start % g->erase_size;

	return ft_is_pow2(len) && rel % len == 0 && rel + len <= g->erase_size;
}
