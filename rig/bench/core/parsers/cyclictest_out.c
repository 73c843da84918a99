// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading what cyclictest leaves behind (cyclictest_out.h): a line at a
 * time, any length, numbers through udrv_parse_u64 at the width cyclictest
 * prints them, every figure checked against the others.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <udrv/parse.h>

#include "cyclictest_out.h"
#include "text.h"

#define NUM_LEN		24
#define CT_MAX_SPIKE	2147483647u	/* it keeps a spike in an int */
#define QUOTE		40		/* characters of a line quoted */

static int quote_len(size_t len)
{
	return (int)(len < QUOTE ? len : QUOTE);
}

/*
 * A number printed "%0<width>lu" (@width 0: "%lu"): digits only, zero-padded
 * to exactly @width when shorter, no other leading zero.
 */
static int number(struct bench_text *p, const char *s, size_t len, size_t width,
		  const char *what, uint64_t *v)
{
	char buf[NUM_LEN];
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (!len || i < len || len >= sizeof(buf))
		return bench_text_fail(p, "%s '%.*s' is not a number", what, quote_len(len), s);
	if (!width && len > 1 && s[0] == '0')
		return bench_text_fail(p, "%s '%.*s' has a leading zero", what, (int)len, s);
	if (len < width || (len > width && s[0] == '0'))
		return bench_text_fail(p, "%s '%.*s' is not printed %%0%zulu", what, (int)len, s, width);
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (udrv_parse_u64(buf, UINT64_MAX, v))
		return bench_text_fail(p, "%s %s does not fit in 64 bits", what, buf);
	return 0;
}

/* A number printed "%<width>ld": spaces to @width, then digits. */
static int padded(struct bench_text *p, const char *s, size_t len, size_t width,
		  const char *what, uint64_t *v)
{
	size_t sp = 0;

	while (sp < len && s[sp] == ' ')
		sp++;
	if (sp == len || sp != (len - sp < width ? width - (len - sp) : 0))
		return bench_text_fail(p, "%s '%.*s' is not printed %%%zuld", what, quote_len(len), s, width);
	return number(p, s + sp, len - sp, 0, what, v);
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

uint64_t ct_avg(uint64_t sum, uint64_t count)
{
	return count ? (uint64_t)((double)sum / (double)count) : 0;
}

/* ---- the histogram file ---- */

/* what comes next, in the order cyclictest prints it */
enum hstate {
	H_HEAD, H_BUCKETS, H_TOTAL, H_MIN, H_AVG, H_MAX, H_OVERFLOWS,
	H_CYCLES, H_THREAD, H_EMPTY, H_END,
};

static const struct {
	const char *prefix;
	size_t width;
} sum_line[] = {
	[H_TOTAL] = { "# Total: ", 9 },
	[H_MIN] = { "# Min Latencies: ", 5 },
	[H_AVG] = { "# Avg Latencies: ", 5 },
	[H_MAX] = { "# Max Latencies: ", 5 },
	[H_OVERFLOWS] = { "# Histogram Overflows: ", 5 },
};

struct hist_parser {
	struct bench_text p;
	enum hstate state;
	uint64_t range, max_count;
	uint64_t next;			/* the next bucket */
	uint64_t first, last;		/* lowest and highest non-empty one */
	struct udrv_hist *out;
	struct ct_hist *res;
};

/* "000023 000027": bucket @h->next and its count. */
static int hist_bucket(struct hist_parser *h, const char *s, size_t len)
{
	struct ct_hist *res = h->res;
	char pre[NUM_LEN + 2];
	uint64_t n;
	int plen;

	plen = snprintf(pre, sizeof(pre), "%06llu ", (unsigned long long)h->next);
	if (!starts(s, len, pre))
		return bench_text_fail(&h->p, "expected bucket %06llu of the %llu asked for (-h), not '%.*s'",
			    (unsigned long long)h->next, (unsigned long long)h->range,
			    quote_len(len), s);
	if (number(&h->p, s + plen, len - (size_t)plen, 6, "its count", &n))
		return -EINVAL;
	if (n > h->max_count - res->total)
		return bench_text_fail(&h->p, "bucket %llu: %llu samples, more than the %llu asked for in all",
			    (unsigned long long)h->next, (unsigned long long)n,
			    (unsigned long long)h->max_count);
	if (n) {
		if (!res->total)
			h->first = h->next;
		h->last = h->next;
		res->total += n;
		res->sum += h->next * n;	/* < 2^20 x 2^32 */
		while (n--)
			udrv_hist_record(h->out, h->next);
	}
	if (++h->next == h->range)
		h->state = H_TOTAL;
	return 0;
}

/* "# Min Latencies: 03642" and the other summary lines. */
static int hist_summary(struct hist_parser *h, const char *s, size_t len)
{
	const char *prefix = sum_line[h->state].prefix;
	size_t plen = strlen(prefix);
	struct ct_hist *res = h->res;
	uint64_t v;

	if (!starts(s, len, prefix))
		return bench_text_fail(&h->p, "expected '%s', not '%.*s'", prefix, quote_len(len), s);
	if (number(&h->p, s + plen, len - plen, sum_line[h->state].width, prefix + 2, &v))
		return -EINVAL;
	switch (h->state) {
	case H_TOTAL:
		if (v != res->total)
			return bench_text_fail(&h->p, "Total %llu, its buckets hold %llu",
				    (unsigned long long)v, (unsigned long long)res->total);
		break;
	case H_MIN:
		res->min = v;
		break;
	case H_AVG:
		res->avg = v;
		break;
	case H_MAX:
		res->max = v;
		break;
	default:
		if (v > h->max_count - res->total)
			return bench_text_fail(&h->p, "%llu overflows + %llu in buckets: more than the %llu asked for",
				    (unsigned long long)v, (unsigned long long)res->total,
				    (unsigned long long)h->max_count);
		res->overflows = v;
		break;
	}
	h->state++;
	return 0;
}

/* " # 00012 others" at the end of the Thread line: 0, or -EINVAL. */
static int hist_others(struct hist_parser *h, const char *s, size_t len)
{
	struct ct_hist *res = h->res;
	uint64_t others;

	if (!starts(s, len, " # ") || len < 10 || memcmp(s + len - 7, " others", 7))
		return bench_text_fail(&h->p, "expected ' # N others', not '%.*s'", quote_len(len), s);
	if (number(&h->p, s + 3, len - 10, 5, "others", &others))
		return -EINVAL;
	if (res->cycles_listed != h->range || others != res->overflows - res->cycles_listed)
		return bench_text_fail(&h->p, "%llu cycle numbers and %llu others for %llu overflows, at most %llu listed",
			    (unsigned long long)res->cycles_listed, (unsigned long long)others,
			    (unsigned long long)res->overflows, (unsigned long long)h->range);
	return 0;
}

/* "# Thread 0: 00015 00023 ...": the cycle number of each overflow. */
static int hist_thread(struct hist_parser *h, const char *s, size_t len)
{
	static const char prefix[] = "# Thread 0:";
	struct ct_hist *res = h->res;
	uint64_t count = res->total + res->overflows, cycle, prev = 0;
	size_t i = sizeof(prefix) - 1, start;

	if (!starts(s, len, prefix))
		return bench_text_fail(&h->p, "expected '%s', not '%.*s'", prefix, quote_len(len), s);
	while (i < len) {
		if (s[i] != ' ' || i + 1 == len)
			return bench_text_fail(&h->p, "column %zu: expected ' <cycle number>'", i + 1);
		if (s[i + 1] == '#')
			return hist_others(h, s + i, len - i);
		for (start = ++i; i < len && s[i] != ' '; i++)
			;
		if (number(&h->p, s + start, i - start, 5, "cycle number", &cycle))
			return -EINVAL;
		if (cycle >= count || (res->cycles_listed && cycle <= prev))
			return bench_text_fail(&h->p, "cycle number %llu after %llu, of %llu samples",
				    (unsigned long long)cycle, (unsigned long long)prev,
				    (unsigned long long)count);
		if (res->cycles_listed == h->range || res->cycles_listed == res->overflows)
			return bench_text_fail(&h->p, "more cycle numbers than the %llu overflows (at most %llu)",
				    (unsigned long long)res->overflows,
				    (unsigned long long)h->range);
		res->cycles_listed++;
		prev = cycle;
	}
	if (res->cycles_listed != res->overflows)
		return bench_text_fail(&h->p, "%llu cycle numbers for %llu overflows",
			    (unsigned long long)res->cycles_listed,
			    (unsigned long long)res->overflows);
	return 0;
}

static int hist_line(void *ctx, const char *s, size_t len)
{
	struct hist_parser *h = ctx;
	int ret;

	switch (h->state) {
	case H_HEAD:
		if (len != strlen("# Histogram") || !starts(s, len, "# Histogram"))
			return bench_text_fail(&h->p, "expected '# Histogram' (cyclictest --histfile)");
		h->state = H_BUCKETS;
		return 0;
	case H_BUCKETS:
		return hist_bucket(h, s, len);
	case H_CYCLES:
		if (len != strlen("# Histogram Overflow at cycle number:") ||
		    !starts(s, len, "# Histogram Overflow at cycle number:"))
			return bench_text_fail(&h->p, "expected '# Histogram Overflow at cycle number:'");
		h->state = H_THREAD;
		return 0;
	case H_THREAD:
		ret = hist_thread(h, s, len);
		h->state = H_EMPTY;
		return ret;
	case H_EMPTY:
		if (len)
			return bench_text_fail(&h->p, "text after the '# Thread 0:' line (one thread only): '%.*s'",
				    quote_len(len), s);
		h->state = H_END;
		return 0;
	case H_END:
		return bench_text_fail(&h->p, "text after the histogram's end");
	default:
		return hist_summary(h, s, len);
	}
}

/* The summary against the buckets, once everything is read. */
static int hist_check(struct hist_parser *h)
{
	const struct ct_hist *r = h->res;
	uint64_t count = r->total + r->overflows, known, rest, lo, low, high;

	if (!count) {
		if (r->min != CT_MIN_START || r->avg || r->max)
			return bench_text_fail(&h->p, "no sample, but min %llu avg %llu max %llu (not %u 0 0)",
				    (unsigned long long)r->min, (unsigned long long)r->avg,
				    (unsigned long long)r->max, CT_MIN_START);
		return 0;
	}
	if (r->total ? r->min != h->first : r->min < h->range)
		return bench_text_fail(&h->p, "min %llu is not its lowest sample", (unsigned long long)r->min);
	if (r->overflows ? r->max < h->range : r->max != h->last)
		return bench_text_fail(&h->p, "max %llu is not its highest sample", (unsigned long long)r->max);
	if (r->min > r->avg || r->avg > r->max)
		return bench_text_fail(&h->p, "min %llu, avg %llu, max %llu out of order",
			    (unsigned long long)r->min, (unsigned long long)r->avg,
			    (unsigned long long)r->max);
	if (!r->overflows) {
		if (ct_avg(r->sum, count) != r->avg)
			return bench_text_fail(&h->p, "avg %llu, its buckets' mean %llu",
				    (unsigned long long)r->avg,
				    (unsigned long long)ct_avg(r->sum, count));
		return 0;
	}
	/* the overflows: one is the max, one the min when no bucket has a
	 * sample (unless it is CT_MIN_START, maybe below them all), the others
	 * between; bounds that overflow are not checked */
	known = r->sum + r->max;
	rest = r->overflows - 1;
	lo = r->total ? h->range : r->min;
	if (!r->total && rest && r->min != CT_MIN_START) {
		known += r->min;
		rest--;
	}
	if ((!r->total && r->overflows == 1 && r->min != r->max &&
	     r->min != CT_MIN_START) ||
	    (!__builtin_mul_overflow(rest, lo, &low) &&
	     !__builtin_add_overflow(low, known, &low) && r->avg < ct_avg(low, count)) ||
	    (!__builtin_mul_overflow(rest, r->max, &high) &&
	     !__builtin_add_overflow(high, known, &high) && r->avg > ct_avg(high, count)))
		return bench_text_fail(&h->p, "min %llu, avg %llu, max %llu cannot come from its buckets and %llu overflows",
			    (unsigned long long)r->min, (unsigned long long)r->avg,
			    (unsigned long long)r->max, (unsigned long long)r->overflows);
	return 0;
}

int ct_hist_parse(const char *text, size_t len, uint64_t range,
		  uint64_t max_count, struct udrv_hist *out, struct ct_hist *res,
		  char *why, size_t whylen)
{
	struct hist_parser h = {
		.p = { .why = why, .whylen = whylen },
		.range = range, .max_count = max_count, .out = out, .res = res,
	};
	int ret;

	memset(res, 0, sizeof(*res));
	why[0] = '\0';
	if (!range || range > CT_MAX_RANGE || max_count > UINT32_MAX)
		return bench_text_fail(&h.p, "bad range %llu or count %llu", (unsigned long long)range,
			    (unsigned long long)max_count);
	ret = bench_text_lines(&h.p, text, len, hist_line, &h);
	if (ret)
		return ret;
	if (h.state == H_BUCKETS)
		return bench_text_fail(&h.p, "it ends at bucket %llu of the %llu asked for (-h)",
			    (unsigned long long)h.next, (unsigned long long)range);
	if (h.state < H_EMPTY)
		return bench_text_fail(&h.p, "it ends before its '%s' line",
			    h.state == H_HEAD ? "# Histogram" :
			    h.state == H_CYCLES ? "# Histogram Overflow at cycle number:" :
			    h.state == H_THREAD ? "# Thread 0:" : sum_line[h.state].prefix);
	return hist_check(&h);
}

/* ---- its stdout: the spikes ---- */

enum sstate { S_HEAD, S_LIST, S_TAIL };

struct spike_parser {
	struct bench_text p;
	enum sstate state;
	bool after_empty;		/* the line before was empty */
	uint64_t range, nodes, max_count;
	uint64_t last_ts;
	struct udrv_hist *out;
	struct ct_spikes *res;
};

/* "T: 0 Spike:    4286: TS:      3256236" */
static int spike(struct spike_parser *sp, const char *s, size_t len,
		 bool after_empty)
{
	static const char prefix[] = "T: 0 Spike:", mid[] = ": TS: ";
	struct ct_spikes *res = sp->res;
	size_t i = sizeof(prefix) - 1;
	const char *colon;
	uint64_t v, ts;

	if (sp->state == S_TAIL)
		return bench_text_fail(&sp->p, "a spike after 'spikes ='");
	if (sp->state == S_HEAD && !after_empty)
		return bench_text_fail(&sp->p, "no empty line before the first spike");
	if (!starts(s, len, prefix))
		return bench_text_fail(&sp->p, "expected 'T: 0 Spike:' (thread 0 only), not '%.*s'",
			    quote_len(len), s);
	colon = memchr(s + i, ':', len - i);
	if (!colon || !starts(colon, len - (size_t)(colon - s), mid))
		return bench_text_fail(&sp->p, "expected 'T: 0 Spike: V: TS: T', not '%.*s'",
			    quote_len(len), s);
	if (padded(&sp->p, s + i, (size_t)(colon - s) - i, 8, "spike", &v))
		return -EINVAL;
	i = (size_t)(colon - s) + strlen(mid);
	if (padded(&sp->p, s + i, len - i, 12, "time stamp", &ts))
		return -EINVAL;
	if (v < sp->range || v > CT_MAX_SPIKE)
		return bench_text_fail(&sp->p, "spike %llu: not in %llu..%u (--spike=%llu)",
			    (unsigned long long)v, (unsigned long long)sp->range, CT_MAX_SPIKE,
			    (unsigned long long)sp->range - 1);
	if (res->listed && ts < sp->last_ts)
		return bench_text_fail(&sp->p, "time stamp %llu after %llu", (unsigned long long)ts,
			    (unsigned long long)sp->last_ts);
	if (res->listed == sp->nodes || res->listed == sp->max_count)
		return bench_text_fail(&sp->p, "more than the %llu spikes asked for (--spike-nodes) or the %llu samples",
			    (unsigned long long)sp->nodes, (unsigned long long)sp->max_count);
	if (!res->listed || v < res->min)
		res->min = v;
	if (v > res->max)
		res->max = v;
	res->sum += v;		/* < 2^31 x 2^32 */
	res->listed++;
	sp->last_ts = ts;
	udrv_hist_record(sp->out, v);
	sp->state = S_LIST;
	return 0;
}

/* "spikes = 47": every spike, listed or not. */
static int spikes_count(struct spike_parser *sp, const char *s, size_t len)
{
	struct ct_spikes *res = sp->res;
	size_t plen = strlen("spikes = ");
	uint64_t n, want;

	if (sp->state != S_LIST)
		return bench_text_fail(&sp->p, "'spikes =' without a spike before it");
	if (number(&sp->p, s + plen, len - plen, 0, "spikes", &n))
		return -EINVAL;
	if (n > sp->max_count)
		return bench_text_fail(&sp->p, "%llu spikes: more than the %llu samples asked for",
			    (unsigned long long)n, (unsigned long long)sp->max_count);
	want = n < sp->nodes ? n : sp->nodes;
	if (res->listed != want)
		return bench_text_fail(&sp->p, "%llu spikes listed of %llu, not %llu (--spike-nodes=%llu)",
			    (unsigned long long)res->listed, (unsigned long long)n,
			    (unsigned long long)want, (unsigned long long)sp->nodes);
	res->spikes = n;
	sp->state = S_TAIL;
	return 0;
}

static int spike_line(void *ctx, const char *s, size_t len)
{
	struct spike_parser *sp = ctx;
	bool after_empty = sp->after_empty;

	sp->after_empty = !len;
	if (!len)
		return sp->state == S_LIST ?
		       bench_text_fail(&sp->p, "expected 'spikes = N' after the spikes") : 0;
	if (starts(s, len, "T:"))
		return spike(sp, s, len, after_empty);
	if (starts(s, len, "spikes = "))
		return spikes_count(sp, s, len);
	if (s[0] == '#' && sp->state == S_HEAD)
		return 0;
	return bench_text_fail(&sp->p, "%s '%.*s'", sp->state == S_HEAD ?
		    "not cyclictest -q's output:" : sp->state == S_LIST ?
		    "expected a spike or 'spikes = N', not" : "text after 'spikes = N':",
		    quote_len(len), s);
}

int ct_spikes_parse(const char *text, size_t len, uint64_t range,
		    uint64_t nodes, uint64_t max_count, struct udrv_hist *out,
		    struct ct_spikes *res, char *why, size_t whylen)
{
	struct spike_parser sp = {
		.p = { .why = why, .whylen = whylen },
		.range = range, .nodes = nodes, .max_count = max_count,
		.out = out, .res = res,
	};
	int ret;

	memset(res, 0, sizeof(*res));
	why[0] = '\0';
	if (!range || range > CT_MAX_RANGE || !nodes || max_count > UINT32_MAX)
		return bench_text_fail(&sp.p, "bad range %llu, nodes %llu or count %llu",
			    (unsigned long long)range, (unsigned long long)nodes,
			    (unsigned long long)max_count);
	ret = bench_text_lines(&sp.p, text, len, spike_line, &sp);
	if (ret)
		return ret;
	if (sp.state == S_LIST)
		return bench_text_fail(&sp.p, "it ends before its 'spikes = N' line");
	return 0;
}

/* ---- the two together ---- */

int ct_out_check(const struct ct_hist *h, const struct ct_spikes *s,
		 char *why, size_t whylen)
{
	uint64_t count = h->total + h->overflows;

	if (s->spikes != h->overflows)
		snprintf(why, whylen, "%llu spikes on its stdout, %llu overflows in its histogram",
			 (unsigned long long)s->spikes, (unsigned long long)h->overflows);
	else if (s->listed != s->spikes)
		snprintf(why, whylen, "only %llu of its %llu spikes listed (--spike-nodes)",
			 (unsigned long long)s->listed, (unsigned long long)s->spikes);
	else if (!h->total && s->listed && s->min != h->min &&
		 !(h->min == CT_MIN_START && s->min > h->min))
		snprintf(why, whylen, "min %llu, its lowest spike %llu",
			 (unsigned long long)h->min, (unsigned long long)s->min);
	else if (s->listed && s->max != h->max)
		snprintf(why, whylen, "max %llu, its highest spike %llu",
			 (unsigned long long)h->max, (unsigned long long)s->max);
	else if (ct_avg(h->sum + s->sum, count) != h->avg)
		snprintf(why, whylen, "avg %llu, its samples' mean %llu",
			 (unsigned long long)h->avg,
			 (unsigned long long)ct_avg(h->sum + s->sum, count));
	else
		return 0;
	return -EINVAL;
}
