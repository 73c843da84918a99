// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Latency histogram, log-linear like HdrHistogram: values below 2048 have a
 * bucket each; above, every power of two [2^k, 2^(k+1)) is split into 1024
 * buckets of width 2^(k-10), so a bucket is never wider than 1/1024 of its
 * values. Up to UDRV_HIST_MAX_NS that is 27649 buckets (216 KiB), allocated
 * once; a last counter holds the overflow.
 *
 * The index of a value is (shift << 10) + (v >> shift) with shift = k - 10
 * (0 below 2048): one clz and a shift, no loop, no branch in the caller.
 *
 * Mean: an exact 128-bit sum divided by the count. Variance: Welford's
 * running M2 (merged with Chan's formula), in double.
 *
 * Not thread-safe: use one histogram per thread and merge them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/hist.h>

#include "internal.h"

#define SUB_BITS	10
#define SUB_COUNT	(1u << SUB_BITS)		/* 1024 */
#define EXACT_LIMIT	(2u * SUB_COUNT)		/* 0..2047 exact */
#define MAX_SHIFT	(36 - SUB_BITS)			/* 2^36: shift 26 */
#define NBUCKETS	((size_t)(MAX_SHIFT + 1) * SUB_COUNT + 1) /* 27649 */
#define OVERFLOW_SLOT	NBUCKETS

struct udrv_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum_lo;	/* exact sum of the values, 128 bits */
	uint64_t sum_hi;
	double wmean;		/* Welford running mean and M2 */
	double m2;
	uint64_t buckets[NBUCKETS + 1];	/* + the overflow counter */
};

static inline size_t bucket_index(uint64_t v)
{
	unsigned int k = 63 - (unsigned int)__builtin_clzll(v | 1);
	unsigned int shift = k > SUB_BITS ? k - SUB_BITS : 0;

	return ((size_t)shift << SUB_BITS) + (size_t)(v >> shift);
}

/* [lo, hi] of bucket @idx (hi clamped to the resolved range). */
static void bucket_range(size_t idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;
	uint64_t m;

	if (idx < SUB_COUNT) {
		*lo = *hi = idx;
		return;
	}
	shift = (unsigned int)(idx >> SUB_BITS) - 1;
	m = idx - ((size_t)shift << SUB_BITS);
	*lo = m << shift;
	*hi = *lo + ((1ULL << shift) - 1);
	if (*hi > UDRV_HIST_MAX_NS)
		*hi = UDRV_HIST_MAX_NS;
}

struct udrv_hist *udrv_hist_new(void)
{
	struct udrv_hist *h = calloc(1, sizeof(*h));

	if (h)
		udrv_hist_reset(h);
	return h;
}

void udrv_hist_free(struct udrv_hist *h)
{
	free(h);
}

void udrv_hist_reset(struct udrv_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void udrv_hist_record(struct udrv_hist *h, uint64_t ns)
{
	size_t idx = ns > UDRV_HIST_MAX_NS ? OVERFLOW_SLOT : bucket_index(ns);
	double x = (double)ns, delta;

	h->buckets[idx]++;
	h->count++;
	h->min = ns < h->min ? ns : h->min;
	h->max = ns > h->max ? ns : h->max;
	h->sum_lo += ns;
	h->sum_hi += h->sum_lo < ns;
	delta = x - h->wmean;
	h->wmean += delta / (double)h->count;
	h->m2 += delta * (x - h->wmean);
}

/* Chan et al.: combine two (count, mean, M2) sets. */
static void merge_moments(struct udrv_hist *dst, const struct udrv_hist *src)
{
	double na = (double)dst->count, nb = (double)src->count;
	double n = na + nb, delta = src->wmean - dst->wmean;

	dst->wmean += delta * (nb / n);
	dst->m2 += src->m2 + delta * delta * (na * nb / n);
}

void udrv_hist_merge(struct udrv_hist *dst, const struct udrv_hist *src)
{
	size_t i;

	if (!src->count)
		return;
	for (i = 0; i <= NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	merge_moments(dst, src);
	dst->count += src->count;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	dst->sum_lo += src->sum_lo;
	dst->sum_hi += src->sum_hi + (dst->sum_lo < src->sum_lo);
}

uint64_t udrv_hist_count(const struct udrv_hist *h)
{
	return h->count;
}

uint64_t udrv_hist_overflow(const struct udrv_hist *h)
{
	return h->buckets[OVERFLOW_SLOT];
}

uint64_t udrv_hist_min(const struct udrv_hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t udrv_hist_max(const struct udrv_hist *h)
{
	return h->max;
}

double udrv_hist_mean(const struct udrv_hist *h)
{
	long double sum;

	if (!h->count)
		return 0.0;
	sum = (long double)h->sum_hi * 18446744073709551616.0L +
	      (long double)h->sum_lo;
	return (double)(sum / (long double)h->count);
}

double udrv_hist_stddev(const struct udrv_hist *h)
{
	if (!h->count || h->m2 <= 0.0)
		return 0.0;
	return sqrt(h->m2 / (double)h->count);
}

/* ceil(p% of count), within 1..count; p a hair above an integer rank
 * because of rounding (99.9% of 1000 = 999.0000000000001) stays there. */
static uint64_t percentile_rank(uint64_t count, double p)
{
	double x;
	uint64_t rank;

	if (!(p > 0.0))
		return 1;
	if (p >= 100.0)
		return count;
	x = p / 100.0 * (double)count;
	x = ceil(x - x * 1e-12);
	rank = (uint64_t)x;
	if (rank < 1)
		rank = 1;
	return rank > count ? count : rank;
}

uint64_t udrv_hist_percentile(const struct udrv_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi;
	size_t i;

	if (!h->count)
		return 0;
	rank = percentile_rank(h->count, p);
	for (i = 0; i < NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	if (i == NBUCKETS)
		return h->max;		/* the rank is in the overflow */
	bucket_range(i, &lo, &hi);
	if (hi < h->min)
		return h->min;
	return hi > h->max ? h->max : hi;
}

int udrv_hist_next_bucket(const struct udrv_hist *h, size_t *cursor,
			  uint64_t *lo, uint64_t *hi, uint64_t *count)
{
	size_t i = *cursor;

	while (i < NBUCKETS && !h->buckets[i])
		i++;
	if (i >= NBUCKETS) {
		*cursor = NBUCKETS;
		return 0;
	}
	bucket_range(i, lo, hi);
	*count = h->buckets[i];
	*cursor = i + 1;
	return 1;
}

static void write_buckets(const struct udrv_hist *h, struct udrv_json *j)
{
	uint64_t lo, hi, count;
	size_t cursor = 0;

	udrv_json_key(j, "buckets");
	udrv_json_arr_begin(j);
	while (udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count)) {
		udrv_json_arr_begin(j);
		udrv_json_uint(j, lo);
		udrv_json_uint(j, hi);
		udrv_json_uint(j, count);
		udrv_json_arr_end(j);
	}
	udrv_json_arr_end(j);
}

void udrv_hist_write_json(const struct udrv_hist *h, struct udrv_json *j)
{
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "count", udrv_hist_count(h));
	udrv_json_kuint(j, "min", udrv_hist_min(h));
	udrv_json_kdouble(j, "avg", udrv_hist_mean(h));
	udrv_json_kuint(j, "max", udrv_hist_max(h));
	udrv_json_kdouble(j, "stddev", udrv_hist_stddev(h));
	udrv_json_kuint(j, "p50", udrv_hist_percentile(h, 50.0));
	udrv_json_kuint(j, "p90", udrv_hist_percentile(h, 90.0));
	udrv_json_kuint(j, "p99", udrv_hist_percentile(h, 99.0));
	udrv_json_kuint(j, "p99_9", udrv_hist_percentile(h, 99.9));
	udrv_json_kuint(j, "p99_99", udrv_hist_percentile(h, 99.99));
	udrv_json_kuint(j, "overflow", udrv_hist_overflow(h));
	write_buckets(h, j);
	udrv_json_obj_end(j);
}
