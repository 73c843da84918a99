// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the latency histogram (lib/measure/hist.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <udrv/hist.h>

#include "harness.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Log-uniform in [1, 2^bits). */
static uint64_t random_value(unsigned int bits)
{
	unsigned int b = 1 + (unsigned int)(xorshift() % bits);

	return 1 + (xorshift() & ((1ULL << b) - 1)) % ((1ULL << b) - 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool close_rel(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fabs(b) || a == b;
}

static void test_empty(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t lo, hi, count;
	size_t cursor = 0;

	CHECK(h != NULL);
	CHECK_INT(udrv_hist_count(h), 0);
	CHECK_INT(udrv_hist_overflow(h), 0);
	CHECK_INT(udrv_hist_min(h), 0);
	CHECK_INT(udrv_hist_max(h), 0);
	CHECK(udrv_hist_mean(h) == 0.0);
	CHECK(udrv_hist_stddev(h) == 0.0);
	CHECK_INT(udrv_hist_percentile(h, 50), 0);
	CHECK_INT(udrv_hist_percentile(h, 100), 0);
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 0);
	udrv_hist_free(h);
}

static void test_single(void)
{
	struct udrv_hist *h = udrv_hist_new();

	udrv_hist_record(h, 123456789);
	CHECK_INT(udrv_hist_count(h), 1);
	CHECK_INT(udrv_hist_min(h), 123456789);
	CHECK_INT(udrv_hist_max(h), 123456789);
	CHECK(udrv_hist_mean(h) == 123456789.0);
	CHECK(udrv_hist_stddev(h) == 0.0);
	/* the bucket's top is clamped to [min, max] */
	CHECK_INT(udrv_hist_percentile(h, 50), 123456789);
	CHECK_INT(udrv_hist_percentile(h, 0.0001), 123456789);
	udrv_hist_free(h);
}

static void test_exact_below_2048(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t v, lo, hi, count;
	size_t cursor = 0;

	for (v = 0; v < 2048; v++)
		udrv_hist_record(h, v);
	for (v = 0; v < 2048; v++) {
		CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count),
			  1);
		if (lo != v || hi != v || count != 1) {
			CHECK_INT(lo, v);
			CHECK_INT(hi, v);
			CHECK_INT(count, 1);
			break;
		}
		/* rank v + 1 of 2048 */
		CHECK_INT(udrv_hist_percentile(h, (v + 1) * 100.0 / 2048), v);
	}
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 0);
	udrv_hist_free(h);
}

/* Each value lands in a bucket that holds it and is at most 1/1024 wide. */
static void check_bucket_of(uint64_t v)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t lo = 0, hi = 0, count = 0;
	size_t cursor = 0;

	udrv_hist_record(h, v);
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 1);
	CHECK(lo <= v && v <= hi);
	CHECK((hi - lo + 1) * 1024 <= lo || lo == hi);
	CHECK_INT(count, 1);
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 0);
	udrv_hist_free(h);
}

static void test_bucket_boundaries(void)
{
	unsigned int k;
	int d;

	for (k = 10; k <= 35; k++)
		for (d = -1; d <= 1; d++)
			check_bucket_of((1ULL << k) + (uint64_t)(int64_t)d);
	check_bucket_of(0);
	check_bucket_of(UDRV_HIST_MAX_NS);
}

/* Buckets are increasing and disjoint; their counts add up to count. */
static void test_bucket_totals(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t lo, hi, count, total = 0, prev_hi = 0;
	size_t cursor = 0, n = 0;
	int i;

	for (i = 0; i < 200000; i++)
		udrv_hist_record(h, random_value(36));
	while (udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count)) {
		if (n && lo <= prev_hi)
			CHECK(lo > prev_hi);
		CHECK(lo <= hi && count > 0);
		prev_hi = hi;
		total += count;
		n++;
	}
	CHECK_INT(total, udrv_hist_count(h));
	CHECK_INT(udrv_hist_overflow(h), 0);
	CHECK(n > 1000);
	udrv_hist_free(h);
}

static void test_uniform_1_1000(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t v;

	for (v = 1000; v >= 1; v--)
		udrv_hist_record(h, v);
	CHECK_INT(udrv_hist_count(h), 1000);
	CHECK_INT(udrv_hist_min(h), 1);
	CHECK_INT(udrv_hist_max(h), 1000);
	CHECK(udrv_hist_mean(h) == 500.5);
	CHECK(close_rel(udrv_hist_stddev(h), sqrt((1000.0 * 1000 - 1) / 12),
			1e-12));
	CHECK_INT(udrv_hist_percentile(h, 0.01), 1);
	CHECK_INT(udrv_hist_percentile(h, 0.1), 1);
	CHECK_INT(udrv_hist_percentile(h, 0.15), 2);
	CHECK_INT(udrv_hist_percentile(h, 50), 500);
	CHECK_INT(udrv_hist_percentile(h, 90), 900);
	CHECK_INT(udrv_hist_percentile(h, 99), 990);
	CHECK_INT(udrv_hist_percentile(h, 99.9), 999);
	CHECK_INT(udrv_hist_percentile(h, 99.99), 1000);
	CHECK_INT(udrv_hist_percentile(h, 100), 1000);
	CHECK_INT(udrv_hist_percentile(h, 150), 1000);
	CHECK_INT(udrv_hist_percentile(h, 0), 1);
	udrv_hist_free(h);
}

static void check_precision(const uint64_t *sorted, size_t n,
			    const struct udrv_hist *h, double p)
{
	double x = ceil(p / 100 * (double)n - 1e-9);
	size_t rank = x < 1 ? 1 : (size_t)x;
	uint64_t exact = sorted[rank - 1];
	uint64_t got = udrv_hist_percentile(h, p);

	if (got < exact || (double)(got - exact) > exact / 1000.0)
		harness_fail(__FILE__, __LINE__,
			     "p%g: %llu, exact %llu", p,
			     (unsigned long long)got,
			     (unsigned long long)exact);
}

static void test_precision(void)
{
	static const double ps[] = {
		0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100,
	};
	struct udrv_hist *h = udrv_hist_new();
	size_t n = 100000, i;
	uint64_t *v = malloc(n * sizeof(*v));
	double p;

	for (i = 0; i < n; i++) {
		v[i] = random_value(36);
		udrv_hist_record(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < ARRAY_LEN(ps); i++)
		check_precision(v, n, h, ps[i]);
	for (p = 0.5; p <= 100; p += 0.5)
		check_precision(v, n, h, p);
	CHECK_INT(udrv_hist_min(h), v[0]);
	CHECK_INT(udrv_hist_max(h), v[n - 1]);
	free(v);
	udrv_hist_free(h);
}

/* Mean and stddev match a two-pass computation in long double. */
static void test_moments(void)
{
	struct udrv_hist *h = udrv_hist_new();
	size_t n = 1000000, i;
	uint64_t *v = malloc(n * sizeof(*v));
	long double sum = 0, sq = 0, mean;

	for (i = 0; i < n; i++) {
		/* a realistic shape: 20 us +- jitter, rare long tails */
		v[i] = 20000 + xorshift() % 3000;
		if (xorshift() % 1000 == 0)
			v[i] += xorshift() % 5000000;
		udrv_hist_record(h, v[i]);
		sum += v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	CHECK(close_rel(udrv_hist_mean(h), (double)mean, 1e-12));
	CHECK(close_rel(udrv_hist_stddev(h), (double)sqrtl(sq / n), 1e-9));
	free(v);
	udrv_hist_free(h);
}

/* Tight samples far from zero: a naive sum of squares would cancel. */
static void test_moments_offset(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t base = 1ULL << 40;
	int i;

	for (i = 0; i < 1000000; i++)
		udrv_hist_record(h, base + (i & 1 ? 1 : 3));
	CHECK(udrv_hist_mean(h) == (double)(base + 2));
	CHECK(close_rel(udrv_hist_stddev(h), 1.0, 1e-9));
	udrv_hist_free(h);
}

static void check_same(const struct udrv_hist *a, const struct udrv_hist *b)
{
	uint64_t alo, ahi, ac, blo, bhi, bc;
	size_t ca = 0, cb = 0;
	double p;

	CHECK_INT(udrv_hist_count(a), udrv_hist_count(b));
	CHECK_INT(udrv_hist_overflow(a), udrv_hist_overflow(b));
	CHECK_INT(udrv_hist_min(a), udrv_hist_min(b));
	CHECK_INT(udrv_hist_max(a), udrv_hist_max(b));
	CHECK(close_rel(udrv_hist_mean(a), udrv_hist_mean(b), 1e-15));
	CHECK(close_rel(udrv_hist_stddev(a), udrv_hist_stddev(b), 1e-9));
	for (p = 1; p <= 100; p += 1)
		CHECK_INT(udrv_hist_percentile(a, p),
			  udrv_hist_percentile(b, p));
	while (udrv_hist_next_bucket(a, &ca, &alo, &ahi, &ac)) {
		CHECK_INT(udrv_hist_next_bucket(b, &cb, &blo, &bhi, &bc), 1);
		if (alo != blo || ac != bc) {
			CHECK_INT(alo, blo);
			CHECK_INT(ac, bc);
			break;
		}
	}
	CHECK_INT(udrv_hist_next_bucket(b, &cb, &blo, &bhi, &bc), 0);
}

static void test_merge(void)
{
	struct udrv_hist *a = udrv_hist_new(), *b = udrv_hist_new();
	struct udrv_hist *all = udrv_hist_new(), *e = udrv_hist_new();
	uint64_t v;
	int i;

	for (i = 0; i < 50000; i++) {
		v = 1000 + xorshift() % 500;
		udrv_hist_record(a, v);
		udrv_hist_record(all, v);
	}
	for (i = 0; i < 30000; i++) {
		v = random_value(40);	/* some overflow */
		udrv_hist_record(b, v);
		udrv_hist_record(all, v);
	}
	udrv_hist_merge(a, b);
	check_same(a, all);
	CHECK(udrv_hist_overflow(a) > 0);

	/* merging an empty one changes nothing; into an empty one copies */
	udrv_hist_merge(a, e);
	check_same(a, all);
	udrv_hist_merge(e, all);
	check_same(e, all);
	udrv_hist_free(a);
	udrv_hist_free(b);
	udrv_hist_free(all);
	udrv_hist_free(e);
}

static void test_overflow(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t lo, hi, count;
	size_t cursor = 0;
	long double mean;

	udrv_hist_record(h, UDRV_HIST_MAX_NS);
	udrv_hist_record(h, UDRV_HIST_MAX_NS + 1);
	udrv_hist_record(h, UINT64_MAX);
	CHECK_INT(udrv_hist_count(h), 3);
	CHECK_INT(udrv_hist_overflow(h), 2);
	CHECK_INT(udrv_hist_min(h), UDRV_HIST_MAX_NS);
	CHECK(udrv_hist_max(h) == UINT64_MAX);
	mean = ((long double)UDRV_HIST_MAX_NS * 2 + 1 + UINT64_MAX) / 3;
	CHECK(close_rel(udrv_hist_mean(h), (double)mean, 1e-15));
	CHECK(udrv_hist_stddev(h) > 1e18);
	CHECK_INT(udrv_hist_percentile(h, 33), UDRV_HIST_MAX_NS);
	CHECK(udrv_hist_percentile(h, 50) == UINT64_MAX);
	CHECK(udrv_hist_percentile(h, 100) == UINT64_MAX);
	/* overflow is not a bucket */
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 1);
	CHECK_INT(lo, UDRV_HIST_MAX_NS);
	CHECK_INT(hi, UDRV_HIST_MAX_NS);
	CHECK_INT(count, 1);
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 0);
	udrv_hist_free(h);
}

static void test_reset(void)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t lo, hi, count;
	size_t cursor = 0;

	udrv_hist_record(h, 5);
	udrv_hist_record(h, UINT64_MAX);
	udrv_hist_reset(h);
	CHECK_INT(udrv_hist_count(h), 0);
	CHECK_INT(udrv_hist_overflow(h), 0);
	CHECK_INT(udrv_hist_min(h), 0);
	CHECK_INT(udrv_hist_max(h), 0);
	CHECK(udrv_hist_mean(h) == 0.0);
	CHECK_INT(udrv_hist_next_bucket(h, &cursor, &lo, &hi, &count), 0);
	udrv_hist_record(h, 7);
	CHECK_INT(udrv_hist_min(h), 7);
	CHECK_INT(udrv_hist_percentile(h, 50), 7);
	udrv_hist_free(h);
}

static char *hist_json(const struct udrv_hist *h, bool pretty)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	struct udrv_json *j = udrv_json_new(f, pretty);

	udrv_hist_write_json(h, j);
	CHECK_INT(udrv_json_free(j), 0);
	fclose(f);
	return buf;
}

static void test_json(void)
{
	static const char *const keys[] = {
		"\"count\":3,", "\"min\":10,", "\"avg\":20,", "\"max\":30,",
		"\"stddev\":8.16496580927726", "\"p50\":20,", "\"p90\":30,",
		"\"p99\":30,", "\"p99_9\":30,", "\"p99_99\":30,",
		"\"overflow\":0,",
		"\"buckets\":[[10,10,1],[20,20,1],[30,30,1]]}",
	};
	struct udrv_hist *h = udrv_hist_new();
	char *s;
	size_t i;

	udrv_hist_record(h, 10);
	udrv_hist_record(h, 20);
	udrv_hist_record(h, 30);
	s = hist_json(h, false);
	CHECK(s[0] == '{');
	for (i = 0; i < ARRAY_LEN(keys); i++)
		CHECK_CONTAINS(s, keys[i]);
	free(s);

	udrv_hist_reset(h);
	s = hist_json(h, false);
	CHECK_STR(s, "{\"count\":0,\"min\":0,\"avg\":0,\"max\":0,\"stddev\":0,"
		     "\"p50\":0,\"p90\":0,\"p99\":0,\"p99_9\":0,\"p99_99\":0,"
		     "\"overflow\":0,\"buckets\":[]}\n");
	free(s);
	udrv_hist_free(h);
}

UDRV_TESTS(
	UDRV_T(test_empty),
	UDRV_T(test_single),
	UDRV_T(test_exact_below_2048),
	UDRV_T(test_bucket_boundaries),
	UDRV_T(test_bucket_totals),
	UDRV_T(test_uniform_1_1000),
	UDRV_T(test_precision),
	UDRV_T(test_moments),
	UDRV_T(test_moments_offset),
	UDRV_T(test_merge),
	UDRV_T(test_overflow),
	UDRV_T(test_reset),
	UDRV_T(test_json),
)
