// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two texts udrv bench rate reads: --rates LIST, and the output of the
 * peer's `rx` subcommand (udrv-bench-peer, libgpiod's receiver), the latter
 * through the one reader of the peer's lines (peer_parse.h) plus what rx's
 * counts must satisfy. Both strict: every number through udrv_parse_u64,
 * nothing taken from half a line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <udrv/hist.h>
#include <udrv/parse.h>

#include "peer_parse.h"
#include "rate.h"

static int rate_why(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rate_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}

/* One rate: DIGITS[k|M]. */
static int rate_one(const char *s, size_t n, uint64_t *v)
{
	char num[24];
	uint64_t mul = 1, x;
	int ret;

	if (n && (s[n - 1] == 'k' || s[n - 1] == 'M')) {
		mul = s[n - 1] == 'k' ? 1000 : 1000000;
		n--;
	}
	if (!n || n >= sizeof(num))
		return n ? -ERANGE : -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	ret = udrv_parse_u64(num, RATE_MAX_PER_S / mul, &x);
	if (ret)
		return ret;
	if (!x)
		return -ERANGE;
	*v = x * mul;
	return 0;
}

int rate_parse_list(const char *s, uint64_t *rates, size_t max, char *why,
		    size_t whylen)
{
	size_t k = 0;
	int ret;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		uint64_t v;

		if (k == max)
			return rate_why(why, whylen, -ERANGE,
					"more than %zu rates", max);
		ret = rate_one(s, n, &v);
		if (ret)
			return rate_why(why, whylen, ret,
					"rate %zu '%.*s': a number of events per second, 1..%llu, k or M suffix (5000, 20k, 1M)",
					k + 1, (int)(n < 32 ? n : 32), s,
					(unsigned long long)RATE_MAX_PER_S);
		if (k && v <= rates[k - 1])
			return rate_why(why, whylen, -EINVAL,
					"rate %zu (%llu) is not above the one before it: the rates must increase",
					k + 1, (unsigned long long)v);
		rates[k++] = v;
		if (!comma)
			return (int)k;
		s = comma + 1;
	}
}

/* ---- the peer's rx output ------------------------------------------- */

/* the keys of `udrv-bench-peer rx`, through peer_parse.h's one reader */
enum { RX_RECEIVED, RX_READS, RX_FIRST, RX_LAST, RX_USER, RX_SYS, RX_SAMPLES,
       RX_LAT, RX_NKEYS };

static const struct bench_peer_key rx_keys[RX_NKEYS] = {
	[RX_RECEIVED] = { "received", 1, BENCH_PEER_REQUIRED },
	[RX_READS] = { "reads", 1, BENCH_PEER_REQUIRED },
	[RX_FIRST] = { "seqno_first", 1, BENCH_PEER_REQUIRED },
	[RX_LAST] = { "seqno_last", 1, BENCH_PEER_REQUIRED },
	[RX_USER] = { "cpu_user_ns", 1, BENCH_PEER_REQUIRED },
	[RX_SYS] = { "cpu_sys_ns", 1, BENCH_PEER_REQUIRED },
	[RX_SAMPLES] = { "samples", 1, BENCH_PEER_REQUIRED },
	[RX_LAT] = { "lat", 1, BENCH_PEER_MANY },
};

struct rx_parse {
	uint64_t v[RX_LAT];
	uint64_t lats;
	bool samples_seen;
	struct udrv_hist *lat;
};

static int rx_line(void *ctx, size_t key, const uint64_t *vals)
{
	struct rx_parse *p = ctx;

	if (key == RX_SAMPLES)
		p->samples_seen = true;
	if (key != RX_LAT) {
		p->v[key] = vals[0];
		return 0;
	}
	/* the samples come after their count, and no more of them */
	if (!p->samples_seen || p->lats == p->v[RX_SAMPLES])
		return -ERANGE;
	p->lats++;
	udrv_hist_record(p->lat, vals[0]);
	return 0;
}

static int peer_check(const struct rate_peer_out *o, char *why, size_t len)
{
	if (o->samples > o->received)
		return rate_why(why, len, -EINVAL,
				"samples %llu > received %llu",
				(unsigned long long)o->samples,
				(unsigned long long)o->received);
	if (!o->received && (o->seqno_first || o->seqno_last || o->reads))
		return rate_why(why, len, -EINVAL,
				"no event received, yet seqnos %llu..%llu or %llu reads",
				(unsigned long long)o->seqno_first,
				(unsigned long long)o->seqno_last,
				(unsigned long long)o->reads);
	if (o->received && (!o->seqno_first || o->seqno_last < o->seqno_first ||
			    o->seqno_last - o->seqno_first >= UINT64_MAX - 1 ||
			    o->seqno_last - o->seqno_first + 1 < o->received ||
			    !o->reads || o->reads > o->received))
		return rate_why(why, len, -EINVAL,
				"%llu events in %llu reads do not fit seqnos %llu..%llu",
				(unsigned long long)o->received,
				(unsigned long long)o->reads,
				(unsigned long long)o->seqno_first,
				(unsigned long long)o->seqno_last);
	return 0;
}

int rate_peer_parse(const char *text, size_t len, struct udrv_hist *lat,
		    struct rate_peer_out *out, char *why, size_t whylen)
{
	struct rx_parse p = { .lat = lat };
	struct rate_peer_out o;
	int ret;

	if (len < 6 || memcmp(text, "ready\n", 6))
		return rate_why(why, whylen, -EINVAL,
				"line 1: not 'ready' (the peer did not start)");
	ret = bench_peer_text(text + 6, len - 6, rx_keys, RX_NKEYS, "end", rx_line,
			      &p, why, whylen);
	if (ret == -ERANGE)
		return rate_why(why, whylen, -EINVAL,
				"a 'lat' line before 'samples' or beyond its %llu",
				(unsigned long long)p.v[RX_SAMPLES]);
	if (ret)
		return -EINVAL;
	if (p.lats != p.v[RX_SAMPLES])
		return rate_why(why, whylen, -EINVAL,
				"%llu 'lat' lines, 'samples' says %llu",
				(unsigned long long)p.lats,
				(unsigned long long)p.v[RX_SAMPLES]);
	o = (struct rate_peer_out){ .received = p.v[RX_RECEIVED],
		.reads = p.v[RX_READS], .seqno_first = p.v[RX_FIRST],
		.seqno_last = p.v[RX_LAST], .cpu_user_ns = p.v[RX_USER],
		.cpu_sys_ns = p.v[RX_SYS], .samples = p.v[RX_SAMPLES] };
	ret = peer_check(&o, why, whylen);
	if (ret)
		return ret;
	*out = o;
	return 0;
}
