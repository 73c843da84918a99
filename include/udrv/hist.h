/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Latency statistics: a log-linear (HDR style) histogram with ~3 significant
 * digits from 1 ns to UDRV_HIST_MAX_NS, exact min/max/mean/stddev, and
 * percentiles. Values above the range are counted as overflow (they still
 * count in min/max/mean/stddev and in the total).
 *
 * Recording is O(1) and allocation-free: safe in a measurement loop.
 *
 * Kept for the ABI (UDRV_1.0, lib/measure/): it serves udrv's rig, not the
 * toolkit's API promise; no new function is added here (docs/abi.md,
 * "The rig's helpers").
 */
#ifndef UDRV_HIST_H
#define UDRV_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <udrv/json.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest value the buckets resolve: 2^36 ns, about 68.7 s. */
#define UDRV_HIST_MAX_NS	(1ULL << 36)

struct udrv_hist;

struct udrv_hist *udrv_hist_new(void);
void udrv_hist_free(struct udrv_hist *h);
void udrv_hist_reset(struct udrv_hist *h);

void udrv_hist_record(struct udrv_hist *h, uint64_t ns);
/* Add @src's samples into @dst. */
void udrv_hist_merge(struct udrv_hist *dst, const struct udrv_hist *src);

uint64_t udrv_hist_count(const struct udrv_hist *h);
uint64_t udrv_hist_overflow(const struct udrv_hist *h);
uint64_t udrv_hist_min(const struct udrv_hist *h);	/* 0 when empty */
uint64_t udrv_hist_max(const struct udrv_hist *h);
double udrv_hist_mean(const struct udrv_hist *h);
double udrv_hist_stddev(const struct udrv_hist *h);	/* population */
/*
 * Value at percentile @p (0..100]: the highest value equivalent (within the
 * bucket's precision) to the sample of that rank, clamped to [min, max].
 */
uint64_t udrv_hist_percentile(const struct udrv_hist *h, double p);

/*
 * Non-empty buckets in increasing order: start with *cursor = 0; returns 1
 * and fills the bucket's [lo, hi] range (inclusive) and count, 0 at the end.
 */
int udrv_hist_next_bucket(const struct udrv_hist *h, size_t *cursor,
			  uint64_t *lo, uint64_t *hi, uint64_t *count);

/*
 * Write the statistics as a JSON object: count, min, avg, max, stddev,
 * p50, p90, p99, p99_9, p99_99, overflow (all ns) and "buckets":
 * [[lo, hi, count], ...] of the non-empty buckets.
 */
void udrv_hist_write_json(const struct udrv_hist *h, struct udrv_json *j);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_HIST_H */
