// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading `rtla timerlat hist -n` (rtla_hist.h): a line at a time, numbers
 * through udrv_parse_u64, every figure checked against the others.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <udrv/parse.h>

#include "rtla_hist.h"
#include "text.h"

#define MAX_COLS	(2 * RTLA_MAX_CPUS)
#define MAX_TOKENS	(MAX_COLS + 2)
#define NUM_LEN		24

/* the summary lines, in the order rtla prints them */
enum { SUM_OVER, SUM_COUNT, SUM_MIN, SUM_AVG, SUM_MAX, NSUM };
static const char *const sum_key[NSUM] = { "over:", "count:", "min:", "avg:", "max:" };

struct col {
	uint64_t in_buckets;	/* samples in its bucket lines */
	uint64_t sum;		/* of their values */
	uint64_t first, last;	/* lowest and highest non-empty bucket */
	uint64_t v[NSUM];
};

struct tok {
	const char *s;
	size_t len;
};

struct parser {
	struct bench_text t;		/* the line, the message */
	unsigned int ncols;
	unsigned int next_sum;		/* summary lines read */
	bool in_buckets;		/* after the Index line */
	bool any_bucket;
	uint64_t last_index;
	uint64_t range, max_count;
	struct col col[MAX_COLS];
	long double avg_sum[RTLA_NCTX];	/* avg x count (max may be huge) */
	struct udrv_hist **out;
	struct rtla_hist *res;
};

#define fail(p, ...)	bench_text_fail(&(p)->t, __VA_ARGS__)

static bool tok_is(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

/* Split at spaces; the number of tokens, or -1 when there are too many. */
static int split(const char *s, size_t len, struct tok *tok)
{
	size_t i = 0, start;
	int n = 0;

	while (i < len) {
		if (s[i] == ' ') {
			i++;
			continue;
		}
		if (n == MAX_TOKENS)
			return -1;
		for (start = i; i < len && s[i] != ' '; i++)
			;
		tok[n].s = s + start;
		tok[n++].len = i - start;
	}
	return n;
}

static int number(struct parser *p, const struct tok *t, uint64_t *v)
{
	char buf[NUM_LEN];

	if (t->len >= sizeof(buf))
		return fail(p, "'%.*s...' is not a count", NUM_LEN, t->s);
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	if (udrv_parse_u64(buf, UINT64_MAX, v))
		return fail(p, "'%s' is not a count", buf);
	return 0;
}

/* "Index   IRQ-000   Thr-000 ...": an IRQ and a Thr column per CPU. */
static int header(struct parser *p, const struct tok *tok, int n)
{
	unsigned int cpu, k;
	char buf[NUM_LEN];
	int i;

	if (n < 1 || !tok_is(&tok[0], "Index"))
		return fail(p, "expected rtla's 'Index IRQ-000 Thr-000' header");
	if (n == 1 || (n - 1) % 2)
		return fail(p, "expected an IRQ and a Thr column per CPU, got %d columns", n - 1);
	for (i = 1; i < n; i++) {
		const struct tok *t = &tok[i];

		if (t->len < 5 || t->len - 4 >= sizeof(buf) ||
		    memcmp(t->s, i % 2 ? "IRQ-" : "Thr-", 4))
			return fail(p, "column %d is '%.*s', not %s-<cpu>", i,
				    (int)(t->len > 20 ? 20 : t->len), t->s, i % 2 ? "IRQ" : "Thr");
		memcpy(buf, t->s + 4, t->len - 4);
		buf[t->len - 4] = '\0';
		if (udrv_parse_uint(buf, 65535, &cpu))
			return fail(p, "bad CPU number in column '%.*s'", (int)t->len, t->s);
		k = (unsigned int)(i - 1) / 2;
		if (i % 2 == 0 && cpu != p->res->cpu[k])
			return fail(p, "Thr-%u follows IRQ-%u", cpu, p->res->cpu[k]);
		if (i % 2 && k && cpu <= p->res->cpu[k - 1])
			return fail(p, "CPU %u after CPU %u", cpu, p->res->cpu[k - 1]);
		p->res->cpu[k] = cpu;
	}
	p->ncols = (unsigned int)(n - 1);
	p->res->cpus = p->ncols / 2;
	p->in_buckets = true;
	return 0;
}

static int record(struct parser *p, unsigned int c, uint64_t index, uint64_t n)
{
	struct col *col = &p->col[c];
	uint64_t add;

	if (!n)
		return 0;
	if (n > p->max_count - col->in_buckets)
		return fail(p, "more than %llu samples in column %u",
			    (unsigned long long)p->max_count, c + 1);
	if (__builtin_mul_overflow(index, n, &add) ||
	    __builtin_add_overflow(col->sum, add, &col->sum))
		return fail(p, "the sum of column %u overflows", c + 1);
	if (!col->in_buckets)
		col->first = index;
	col->last = index;
	col->in_buckets += n;
	while (n--)
		udrv_hist_record(p->out[c % 2], index);
	return 0;
}

/* "4040          0         1 ": a bucket and its count per column. */
static int bucket(struct parser *p, const struct tok *tok, int n)
{
	uint64_t index, v;
	int i, ret;

	if ((unsigned int)n != p->ncols + 1)
		return fail(p, "%d counts for %u columns", n - 1, p->ncols);
	if (number(p, &tok[0], &index))
		return -EINVAL;
	if (index >= p->range)
		return fail(p, "bucket %llu is beyond the range of %llu asked for",
			    (unsigned long long)index, (unsigned long long)p->range);
	if (p->any_bucket && index <= p->last_index)
		return fail(p, "bucket %llu after bucket %llu",
			    (unsigned long long)index, (unsigned long long)p->last_index);
	p->any_bucket = true;
	p->last_index = index;
	for (i = 1; i < n; i++) {
		if (number(p, &tok[i], &v))
			return -EINVAL;
		ret = record(p, (unsigned int)i - 1, index, v);
		if (ret)
			return ret;
	}
	return 0;
}

/* "over:", "count:", "min:", "avg:", "max:" with a value per column. */
static int summary(struct parser *p, const struct tok *tok, int n)
{
	unsigned int k = p->next_sum, c;
	uint64_t v;

	if ((unsigned int)n != p->ncols + 1)
		return fail(p, "%d values for %u columns", n - 1, p->ncols);
	for (c = 0; c < p->ncols; c++) {
		/* a column without samples may print '-' for min/avg/max */
		if (k > SUM_COUNT && !p->col[c].v[SUM_COUNT] && tok_is(&tok[c + 1], "-"))
			continue;
		if (number(p, &tok[c + 1], &v))
			return -EINVAL;
		p->col[c].v[k] = v;
	}
	p->next_sum++;
	return 0;
}

static int line(void *ctx, const char *s, size_t len)
{
	struct parser *p = ctx;
	static const char *const head[] = {
		"# RTLA timerlat histogram",
		"# Time unit is nanoseconds (ns)",
		"# Duration:",
	};
	struct tok tok[MAX_TOKENS];
	int n;

	if (p->t.line <= 3) {
		const char *h = head[p->t.line - 1];

		if (len < strlen(h) || memcmp(s, h, strlen(h)) ||
		    (p->t.line < 3 && len != strlen(h)))
			return fail(p, "expected '%s'%s", h, p->t.line == 2 ?
				    " (rtla timerlat hist -n)" : "");
		return 0;
	}
	n = split(s, len, tok);
	if (n < 0)
		return fail(p, "more than %d columns", MAX_COLS);
	if (!p->in_buckets)
		return header(p, tok, n);
	if (p->next_sum == NSUM)	/* rtla ends with it, even blank lines */
		return fail(p, "text after the summary");
	if (n && tok_is(&tok[0], sum_key[p->next_sum]))
		return summary(p, tok, n);
	if (p->next_sum)
		return fail(p, "expected '%s'", sum_key[p->next_sum]);
	return bucket(p, tok, n);
}

/*
 * The samples above the range: one is the max, one the min when that is
 * above the range too, the others lie between; the average must be one
 * they can make. Bounds that overflow 64 bits are not checked. 0 or -1.
 */
static int check_over(const struct col *col, uint64_t range)
{
	const uint64_t *v = col->v;
	uint64_t lo = v[SUM_MIN] >= range ? v[SUM_MIN] : range;
	uint64_t rest = v[SUM_OVER] - 1, low, high;

	if (!col->in_buckets && rest == 0 && v[SUM_MIN] != v[SUM_MAX])
		return -1;	/* a single sample */
	/* low: the buckets, the max, the others at lo; high: the buckets,
	 * the min if it is one of them, the others at the max */
	if (!__builtin_mul_overflow(lo, rest, &low) &&
	    !__builtin_add_overflow(low, col->sum, &low) &&
	    !__builtin_add_overflow(low, v[SUM_MAX], &low) &&
	    v[SUM_AVG] < low / v[SUM_COUNT])
		return -1;
	if (v[SUM_MIN] < range)
		rest++;
	if (!__builtin_mul_overflow(v[SUM_MAX], rest, &high) &&
	    !__builtin_add_overflow(high, col->sum, &high) &&
	    !__builtin_add_overflow(high, v[SUM_MIN] < range ? 0 : v[SUM_MIN], &high) &&
	    v[SUM_AVG] > high / v[SUM_COUNT])
		return -1;
	return 0;
}

/* One column's figures against each other. */
static int check_col(struct parser *p, unsigned int c)
{
	const struct col *col = &p->col[c];
	const uint64_t *v = col->v;
	const char *what = c % 2 ? "Thr" : "IRQ";
	unsigned int cpu = p->res->cpu[c / 2];

	if (col->in_buckets + v[SUM_OVER] != v[SUM_COUNT])
		return fail(p, "%s-%03u: %llu in buckets + %llu over != count %llu", what, cpu,
			    (unsigned long long)col->in_buckets,
			    (unsigned long long)v[SUM_OVER], (unsigned long long)v[SUM_COUNT]);
	if (!v[SUM_COUNT])
		return 0;
	if (v[SUM_MIN] > v[SUM_AVG] || v[SUM_AVG] > v[SUM_MAX])
		return fail(p, "%s-%03u: min %llu, avg %llu, max %llu out of order", what, cpu,
			    (unsigned long long)v[SUM_MIN], (unsigned long long)v[SUM_AVG],
			    (unsigned long long)v[SUM_MAX]);
	if (col->in_buckets ? col->first != v[SUM_MIN] : v[SUM_MIN] < p->range)
		return fail(p, "%s-%03u: min %llu is not its lowest bucket", what, cpu,
			    (unsigned long long)v[SUM_MIN]);
	if (v[SUM_OVER] ? v[SUM_MAX] < p->range : col->last != v[SUM_MAX])
		return fail(p, "%s-%03u: max %llu is not its highest bucket", what, cpu,
			    (unsigned long long)v[SUM_MAX]);
	if (!v[SUM_OVER] && col->sum / v[SUM_COUNT] != v[SUM_AVG])
		return fail(p, "%s-%03u: avg %llu, its buckets' mean %llu", what, cpu,
			    (unsigned long long)v[SUM_AVG],
			    (unsigned long long)(col->sum / v[SUM_COUNT]));
	if (v[SUM_OVER] && check_over(col, p->range))
		return fail(p, "%s-%03u: min %llu, avg %llu, max %llu cannot come from %llu samples above %llu",
			    what, cpu, (unsigned long long)v[SUM_MIN],
			    (unsigned long long)v[SUM_AVG], (unsigned long long)v[SUM_MAX],
			    (unsigned long long)v[SUM_OVER], (unsigned long long)p->range);
	return 0;
}

/*
 * The samples above the range, whose values rtla does not keep: one at its
 * max, one at its min when that is above the range too, the others at the
 * lowest value they can have (a lower bound).
 */
static void add_col(struct parser *p, unsigned int c)
{
	const uint64_t *v = p->col[c].v;
	struct rtla_stats *s = &p->res->ctx[c % 2];
	uint64_t over = v[SUM_OVER], lo = p->range;

	if (over) {
		udrv_hist_record(p->out[c % 2], v[SUM_MAX]);
		over--;
	}
	if (over && v[SUM_MIN] >= p->range) {
		lo = v[SUM_MIN];
		udrv_hist_record(p->out[c % 2], lo);
		over--;
	}
	while (over--)
		udrv_hist_record(p->out[c % 2], lo);
	if (!v[SUM_COUNT])
		return;
	if (!s->count || v[SUM_MIN] < s->min)
		s->min = v[SUM_MIN];
	if (v[SUM_MAX] > s->max)
		s->max = v[SUM_MAX];
	p->avg_sum[c % 2] += (long double)v[SUM_AVG] * v[SUM_COUNT];
	s->count += v[SUM_COUNT];
	s->avg = (uint64_t)(p->avg_sum[c % 2] / s->count);
	s->over += v[SUM_OVER];
}

static int finish(struct parser *p)
{
	unsigned int c;
	int ret;

	if (!p->in_buckets)
		return fail(p, "rtla's output ends before its histogram");
	if (p->next_sum < NSUM)
		return fail(p, "rtla's output ends before its '%s' line", sum_key[p->next_sum]);
	for (c = 0; c < p->ncols; c++) {
		if (p->col[c].v[SUM_COUNT] > p->max_count)
			return fail(p, "count %llu: more than the %llu asked for",
				    (unsigned long long)p->col[c].v[SUM_COUNT],
				    (unsigned long long)p->max_count);
		ret = check_col(p, c);
		if (ret)
			return ret;
	}
	for (c = 0; c < p->ncols; c++)
		add_col(p, c);
	return 0;
}

int rtla_hist_parse(const char *text, size_t len, uint64_t range,
		    uint64_t max_count, struct udrv_hist *out[RTLA_NCTX],
		    struct rtla_hist *res, char *why, size_t whylen)
{
	static struct parser zero;
	struct parser p = zero;
	int ret;

	memset(res, 0, sizeof(*res));
	p.range = range;
	p.max_count = max_count;
	p.out = out;
	p.res = res;
	p.t.why = why;
	p.t.whylen = whylen;
	if (!range || range > UINT32_MAX || max_count > UINT32_MAX)
		return fail(&p, "bad range %llu or count %llu", (unsigned long long)range,
			    (unsigned long long)max_count);
	ret = bench_text_lines(&p.t, text, len, line, &p);
	if (ret)
		return ret;
	return finish(&p);
}
