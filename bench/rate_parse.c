// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two texts udrv bench rate reads: --rates LIST, and the output of the
 * peer's `rx` subcommand (udrv-bench-peer, libgpiod's receiver). Both strict:
 * every number through udrv_parse_u64, nothing taken from half a line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <udrv/hist.h>
#include <udrv/parse.h>

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

static const char *const peer_keys[] = {
	"received", "reads", "seqno_first", "seqno_last", "cpu_user_ns",
	"cpu_sys_ns", "samples",
};
#define PEER_NKEYS	(sizeof(peer_keys) / sizeof(peer_keys[0]))

struct peer_cursor {
	const char *p, *end;
	unsigned int lineno;
	char line[64];
};

/* The next line into c->line (without '\n'); -1 at the end or bad line. */
static int peer_line(struct peer_cursor *c)
{
	const char *nl;
	size_t n;

	if (c->p >= c->end)
		return -1;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (!nl)
		return -1;	/* every line ends with '\n' */
	n = (size_t)(nl - c->p);
	c->lineno++;
	if (n >= sizeof(c->line) || memchr(c->p, '\0', n))
		return -2;
	memcpy(c->line, c->p, n);
	c->line[n] = '\0';
	c->p = nl + 1;
	return 0;
}

/* "KEY VALUE" with @key; the value through udrv_parse_u64. */
static int peer_kv(struct peer_cursor *c, const char *key, uint64_t *v,
		   char *why, size_t len)
{
	size_t k = strlen(key);
	int ret = peer_line(c);

	if (ret)
		return rate_why(why, len, -EINVAL,
				"line %u: %s where '%s N' belongs", c->lineno,
				ret == -1 ? "end of output" : "an overlong or NUL line", key);
	if (strncmp(c->line, key, k) || c->line[k] != ' ')
		return rate_why(why, len, -EINVAL,
				"line %u: '%.40s' where '%s N' belongs",
				c->lineno, c->line, key);
	if (udrv_parse_u64(c->line + k + 1, UINT64_MAX, v))
		return rate_why(why, len, -EINVAL,
				"line %u: '%s' is not a decimal number",
				c->lineno, c->line + k + 1);
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
	struct peer_cursor c = { .p = text, .end = text + len };
	uint64_t v[PEER_NKEYS], ns;
	struct rate_peer_out o;
	int ret;

	if (peer_line(&c) || strcmp(c.line, "ready"))
		return rate_why(why, whylen, -EINVAL,
				"line 1: not 'ready' (the peer did not start)");
	for (size_t i = 0; i < PEER_NKEYS; i++) {
		ret = peer_kv(&c, peer_keys[i], &v[i], why, whylen);
		if (ret)
			return ret;
	}
	o = (struct rate_peer_out){ .received = v[0], .reads = v[1],
		.seqno_first = v[2], .seqno_last = v[3], .cpu_user_ns = v[4],
		.cpu_sys_ns = v[5], .samples = v[6] };
	ret = peer_check(&o, why, whylen);
	if (ret)
		return ret;
	for (uint64_t i = 0; i < o.samples; i++) {
		ret = peer_kv(&c, "lat", &ns, why, whylen);
		if (ret)
			return ret;
		udrv_hist_record(lat, ns);
	}
	if (peer_line(&c) || strcmp(c.line, "end"))
		return rate_why(why, whylen, -EINVAL,
				"line %u: no 'end' after %llu samples", c.lineno,
				(unsigned long long)o.samples);
	if (c.p != c.end)
		return rate_why(why, whylen, -EINVAL,
				"line %u: output after 'end'", c.lineno + 1);
	*out = o;
	return 0;
}
