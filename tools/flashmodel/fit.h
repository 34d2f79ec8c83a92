/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fit.h - fit a flashmodel preset to a card's flashbench output
 * (`flashmodel fit`, README.md "Fitting a card").
 *
 * Input: runs of flashbench --open-au (one published row per block size)
 * and optionally flashbench -a (erase size and page guesses), read from
 * flashbench's text output or from the transcribed data set's CSV.
 * Output: a parameter set, a note per parameter saying where its value
 * comes from, and the modelled rate of every published row.
 * MB/s = 10^6 bytes/s throughout, as flashbench prints it.
 */
#ifndef FLASHMODEL_FIT_H
#define FLASHMODEL_FIT_H

#include <stdio.h>

#include "flashmodel.h"

#define FM_FIT_RUNS	32
#define FM_FIT_ROWS	24

struct fm_fit_row {
	uint64_t block;
	double mbps;		/* published */
	int line;		/* where it was read */
	int excluded;		/* not used by the fit: see fm_fit_row_use() */
	double model;		/* modelled MB/s (fm_fit_eval) */
};

struct fm_fit_run {
	uint32_t aus;		/* --open-au-nr */
	int random;		/* --random */
	uint64_t erasesize;	/* --erasesize of the run */
	int over;		/* fm_fit: past the open-AU limit */
	int line;		/* first line of the run */
	int nrows;
	struct fm_fit_row rows[FM_FIT_ROWS];
};

struct fm_fit_input {
	char source[256];
	int nruns;
	struct fm_fit_run runs[FM_FIT_RUNS];
	uint64_t align_erase;	/* erase size guessed from -a output, 0: none */
	uint64_t align_page;	/* page guessed from -a output, 0: none */
	char align_why[160];
};

struct fm_fit_opts {
	const char *name;	/* preset name; default "fitted" */
	uint64_t erasesize;	/* --erasesize: AU measured elsewhere */
	uint64_t page;		/* --page */
	struct fm_params fixed;	/* --assume KEY=VALUE values ... */
	uint64_t fixed_mask;	/* ... for these FM_ASSUMED() bits */
};

struct fm_fit_result {
	struct fm_params p;
	char note[FM_K_COUNT][200];	/* source of each value */
	int used, total;		/* rows the fit used, rows published */
	double max_err_used;		/* max |modelled / published - 1| */
	double max_err_all;
};

/*
 * Read flashbench text output from @f (named @path in errors) and append
 * its runs to @in.  Returns 0, or -1 with "PATH:LINE: reason" in @err.
 */
int fm_fit_read(FILE *f, const char *path, struct fm_fit_input *in,
		char *err, size_t errlen);

/*
 * Append the rows of card @card of the data set's flash-cards-openau.csv
 * to @in.  Returns the number of rows, or -1 with "PATH:LINE: reason".
 */
int fm_fit_read_csv(const char *path, const char *card,
		    struct fm_fit_input *in, char *err, size_t errlen);

/* The distinct card ids of such a CSV, in file order; count or -1. */
int fm_fit_csv_cards(const char *path, char names[][64], int max,
		     char *err, size_t errlen);

/* Fit @in; returns 0 or -1 with why the rows cannot be fitted in @err. */
int fm_fit(struct fm_fit_input *in, const struct fm_fit_opts *o,
	   struct fm_fit_result *r, char *err, size_t errlen);

/*
 * Model every row of @in with @p (fresh card per run, flashbench's
 * pattern, openau.c) and store it in row.model.  Returns the largest
 * |modelled / published - 1| over all rows (over used rows in *@used_err
 * if not NULL).
 */
double fm_fit_eval(const struct fm_params *p, struct fm_fit_input *in,
		   double *used_err);

/* Why a row is not used by the fit, or NULL if it is. */
const char *fm_fit_row_use(const struct fm_fit_row *row);

/* Write the preset with its notes and the row table (stdout format). */
void fm_fit_write(FILE *f, const struct fm_fit_input *in,
		  const struct fm_fit_result *r);

#endif /* FLASHMODEL_FIT_H */
