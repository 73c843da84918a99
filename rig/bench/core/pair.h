/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rows that run the same operation through different implementations (the
 * raw ioctl, libudrv's call) in one loop: batches of each in turn, so that
 * whatever drifts during the run (a cache, a clock, a neighbour's load)
 * falls on every row alike. A batch is timed as a whole; its mean ns per
 * operation is a sample of its row. The first implementation is the
 * reference of the others (their ratio in the document).
 */
#ifndef UDRV_BENCH_PAIR_H
#define UDRV_BENCH_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

#define BENCH_PAIR_MAX	4

/* @n operations in a row, each checked: 0, or an exit code (after a
 * message naming the operation and what came back). */
typedef int (*bench_batch_fn)(void *ctx, uint64_t n);

struct bench_pair_impl {
	const char *implementation;	/* "raw", "udrv" */
	bench_batch_fn batch;
};

struct bench_pair {
	const char *mechanism;		/* the operation: "byte-data" */
	const char *what;		/* a sample: "transaction" */
	size_t n;
	struct bench_pair_impl impl[BENCH_PAIR_MAX];
	uint64_t batch;			/* operations a sample */
	uint64_t samples;		/* samples a row */
};

/* --batch N (operations a sample) of a bench whose rows are pairs: 0, or
 * EXIT_USAGE after the message. */
#define BENCH_PAIR_BATCH_MAX	1000000
int bench_pair_batch_opt(const struct bench_run *run, const char *arg, uint64_t *batch);

/* Add the rows of @p and measure them; 0 or an exit code. */
int bench_pair_run(struct bench_run *run, const struct bench_pair *p, void *ctx);

#endif /* UDRV_BENCH_PAIR_H */
