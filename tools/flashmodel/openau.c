// SPDX-License-Identifier: GPL-2.0
/*
 * openau.c - drive a model with flashbench's --open-au write pattern.
 *
 * The pattern (re-stated from flashbench's documented behaviour, own code):
 * one row per block size, from the erase size down by halving.  A row walks
 * the block positions of an erase-size region (in order, or in one fixed
 * random order with --random) and, for each position, writes that block in
 * every region in turn, so @aus regions are being filled at once.  Every row
 * rewrites the same regions, so the card's state carries from row to row.
 * flashbench prints bytes / time with M = 10^6; fm_openau_row.mbps does too.
 */
#include <stdlib.h>

#include "flashmodel.h"

#define FM_OPENAU_SKIP	(16ull << 20)	/* start past the FAT area */
#define FM_OPENAU_SEED	0x2545F4914F6CDD1Dull

/* xorshift64*: a small fixed-seed generator, same sequence on every host */
static uint64_t openau_rand(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1Dull;
}

/* Fill @pos[0..n) with 0..n-1, shuffled when @random (fixed seed per row). */
static void openau_order(uint32_t *pos, uint32_t n, int random, uint64_t row)
{
	uint64_t x = FM_OPENAU_SEED ^ (row * 0x9E3779B97F4A7C15ull);
	uint32_t i;

	for (i = 0; i < n; i++)
		pos[i] = i;
	if (!random)
		return;
	for (i = n - 1; i > 0; i--) {
		uint32_t j = openau_rand(&x) % (i + 1);
		uint32_t t = pos[i];

		pos[i] = pos[j];
		pos[j] = t;
	}
}

int fm_openau_run(struct fm_model *m, const struct fm_openau *o,
		  struct fm_openau_row *rows, int max)
{
	struct fm_stats st;
	uint64_t es, block, offset, stride, total;
	uint32_t *pos;
	int nrows = 0;

	es = o->erasesize ? o->erasesize : fm_model_params(m)->au_size;
	block = o->block ? o->block : es;
	if (!o->aus || block < 512 || block > es || es % block)
		return -1;
	offset = o->offset;
	if (!offset || offset == UINT64_MAX)
		offset = (FM_OPENAU_SKIP + es - 1) / es * es;
	stride = o->stride ? o->stride : 12 * es;
	pos = malloc((es / 512) * sizeof(*pos));
	if (!pos)
		return -1;

	for (uint64_t bs = es; bs >= block && nrows < max; bs /= 2) {
		uint32_t n = es / bs, i = 0, a = 0;
		uint64_t written = 0, busy;

		if (es % bs) /* halving left a fraction: stop */
			break;
		total = o->total ? o->total : (uint64_t)o->aus * es;
		openau_order(pos, n, o->random, nrows);
		fm_get_stats(m, &st);
		busy = st.busy_ns;
		while (written < total) {
			uint64_t len = total - written < bs ? total - written : bs;

			fm_submit(m, 0, FM_WRITE,
				  offset + a * stride + (uint64_t)pos[i] * bs,
				  len, 0);
			written += len;
			if (++a == o->aus) {
				a = 0;
				if (++i == n)
					i = 0;
			}
		}
		fm_get_stats(m, &st);
		rows[nrows].block = bs;
		rows[nrows].bytes = written;
		rows[nrows].ns = st.busy_ns - busy;
		rows[nrows].mbps = rows[nrows].ns ?
			(double)written * 1000.0 / (double)rows[nrows].ns : 0;
		nrows++;
		if (bs % 2)
			break;
	}
	free(pos);
	return nrows;
}
