// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two texts udrv-bench rate reads: --rates LIST, and the output of the
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

#include "peer.h"
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

/* `udrv-bench-peer rx`'s keys (peer.h), read by peer_parse.h's one reader */
static const struct bench_peer_key rx_keys[BENCH_PEER_RX_KEYS] = {
	BENCH_PEER_RX_TABLE
};
enum { RX_RECEIVED, RX_READS, RX_FIRST, RX_LAST, RX_USER, RX_SYS, RX_SAMPLES };

struct rx_parse {
	uint64_t v[BENCH_PEER_RX_LAT];
	uint64_t lats, skip;
	bool samples_seen;
	struct udrv_hist *lat;
};

static int rx_line(void *ctx, size_t key, const uint64_t *vals)
{
	struct rx_parse *p = ctx;

	if (key == RX_SAMPLES)
		p->samples_seen = true;
	if (key != BENCH_PEER_RX_LAT) {
		p->v[key] = vals[0];
		return 0;
	}
	/* the samples come after their count, and no more of them */
	if (!p->samples_seen || p->lats == p->v[RX_SAMPLES])
		return -ERANGE;
	if (p->lats++ >= p->skip)
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

/*
 * Leave out the @w warm-up events, the first ones the peer read, and number
 * the rest as a fresh request would (from 1). A peer that read no more than
 * them got nothing of the step; one that read step events must have read
 * the warm-up first (else they cannot be told apart).
 */
static int peer_skip(struct rate_peer_out *o, uint64_t w, char *why, size_t len)
{
	if (!w)
		return 0;
	if (o->received <= w) {
		*o = (struct rate_peer_out){ .cpu_user_ns = o->cpu_user_ns,
					     .cpu_sys_ns = o->cpu_sys_ns };
		return 0;
	}
	if (o->reads <= w || o->seqno_first != 1 || o->seqno_last <= w ||
	    (o->samples < w && o->samples < o->received))
		return rate_why(why, len, -EINVAL,
				"it did not read the %llu warm-up event(s) first (received %llu, seqno_first %llu)",
				(unsigned long long)w, (unsigned long long)o->received,
				(unsigned long long)o->seqno_first);
	o->received -= w;
	o->reads -= w;
	o->samples = o->samples > w ? o->samples - w : 0;
	o->seqno_last -= w;
	return 0;
}

int rate_peer_parse(const char *text, size_t len, uint64_t warmup,
		    struct udrv_hist *lat, struct rate_peer_out *out, char *why,
		    size_t whylen)
{
	struct rx_parse p = { .lat = lat, .skip = warmup };
	struct rate_peer_out o;
	int ret;

	ret = bench_peer_text(text, len, rx_keys, BENCH_PEER_RX_KEYS, "end",
			      rx_line, &p, why, whylen);
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
	if (!ret)
		ret = peer_skip(&o, warmup, why, whylen);
	if (ret)
		return ret;
	*out = o;
	return 0;
}
