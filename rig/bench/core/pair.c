// SPDX-License-Identifier: GPL-2.0-only
/*
 * Implementations of one operation measured in turns (pair.h).
 */
#include <stdio.h>

#include "msg.h"
#include "pair.h"

int bench_pair_batch_opt(const struct bench_run *run, const char *arg, uint64_t *batch)
{
	if (udrv_parse_u64(arg, BENCH_PAIR_BATCH_MAX, batch) || !*batch)
		return bench_usage(run->bench, "bad --batch '%s': 1..%d", arg,
				   BENCH_PAIR_BATCH_MAX);
	return 0;
}

static int add_rows(struct bench_run *run, const struct bench_pair *p,
		    struct bench_row **rows)
{
	for (size_t i = 0; i < p->n; i++) {
		rows[i] = bench_row(run, p->mechanism, p->impl[i].implementation, NULL, p->what);
		if (!rows[i])
			return bench_error(EXIT_FAIL, "out of memory (or more than %d rows)",
					   BENCH_MAX_ROWS);
		if (i)
			rows[i]->reference = bench_row_index(run, rows[0]);
	}
	return 0;
}

/* One batch of implementation @i, timed into its row. */
static int timed_batch(const struct bench_pair *p, size_t i, struct bench_row *row, void *ctx)
{
	uint64_t t0 = bench_now_ns();
	int err = p->impl[i].batch(ctx, p->batch);
	uint64_t dt = bench_now_ns() - t0;

	if (err)
		return err;
	udrv_hist_record(row->hist, (dt + p->batch / 2) / p->batch);
	return 0;
}

int bench_pair_run(struct bench_run *run, const struct bench_pair *p, void *ctx)
{
	struct bench_row *rows[BENCH_PAIR_MAX];
	uint64_t t0, done;
	int err;

	if (!p->n || p->n > BENCH_PAIR_MAX || !p->batch)
		return bench_error(EXIT_FAIL, "%s: %zu implementations, batch %llu", p->mechanism,
				   p->n, (unsigned long long)p->batch);
	err = add_rows(run, p, rows);
	/* one untimed batch each first: the paths warm, the checks run once */
	for (size_t i = 0; !err && i < p->n; i++)
		err = p->impl[i].batch(ctx, p->batch);
	t0 = bench_now_ns();
	for (done = 0; !err && bench_more(run, t0, done, p->samples); done++) {
		for (size_t i = 0; !err && i < p->n; i++) {
			size_t k = (done % 2) ? p->n - 1 - i : i;	/* ABBA: neither always first */

			err = timed_batch(p, k, rows[k], ctx);
		}
		bench_progress(run, rows[0], done + 1, p->samples);
	}
	for (size_t i = 0; !err && i < p->n; i++) {
		rows[i]->rate_per_s = 1e9 / udrv_hist_mean(rows[i]->hist);
		snprintf(rows[i]->note, sizeof(rows[i]->note), "mean of each batch of %llu, "
			 "in turns with the other implementations",
			 (unsigned long long)p->batch);
	}
	return err;
}
