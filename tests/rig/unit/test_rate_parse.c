// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of udrv-bench rate's two readers (rig/bench/rate/rate_parse.c): the
 * --rates list and the output of `udrv-bench-peer rx`, with each rule of
 * the contract broken on purpose.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <udrv/hist.h>

#include "harness.h"
#include "rate/rate.h"

static void test_rates_good(void)
{
	uint64_t r[RATE_MAX_RATES];
	char why[160] = "";

	CHECK_INT(rate_parse_list("1k,2k,5k,10k,1M", r, RATE_MAX_RATES, why, sizeof(why)), 5);
	CHECK_INT(r[0], 1000);
	CHECK_INT(r[3], 10000);
	CHECK_INT(r[4], 1000000);
	CHECK_INT(rate_parse_list("7", r, RATE_MAX_RATES, why, sizeof(why)), 1);
	CHECK_INT(r[0], 7);
	CHECK_INT(rate_parse_list("999999,1000000", r, RATE_MAX_RATES, why, sizeof(why)), 2);
}

static void rate_refused(const char *s, int err, const char *why_part, int line)
{
	uint64_t r[4] = { 0 };
	char why[160] = "";
	int ret = rate_parse_list(s, r, 4, why, sizeof(why));

	if (ret != err || !strstr(why, why_part))
		harness_fail(__FILE__, line, "'%s': %d '%s', expected %d '%s'", s, ret,
			     why, err, why_part);
}

#define RATE_REFUSED(s, err, why) rate_refused(s, err, why, __LINE__)

static void test_rates_refused(void)
{
	RATE_REFUSED("", -EINVAL, "rate 1 ''");
	RATE_REFUSED("0", -ERANGE, "rate 1 '0'");
	RATE_REFUSED("1k,,2k", -EINVAL, "rate 2 ''");
	RATE_REFUSED("1k,", -EINVAL, "rate 2 ''");
	RATE_REFUSED("2M", -ERANGE, "1..1000000");
	RATE_REFUSED("1001k", -ERANGE, "rate 1");
	RATE_REFUSED("1000001", -ERANGE, "rate 1");
	RATE_REFUSED("18446744073709551616", -ERANGE, "rate 1");
	RATE_REFUSED("-1", -EINVAL, "rate 1");
	RATE_REFUSED("1.5k", -EINVAL, "rate 1");
	RATE_REFUSED("1K", -EINVAL, "rate 1");
	RATE_REFUSED("1kk", -EINVAL, "rate 1");
	RATE_REFUSED("k", -EINVAL, "rate 1");
	RATE_REFUSED(" 1", -EINVAL, "rate 1");
	RATE_REFUSED("2k,1k", -EINVAL, "must increase");
	RATE_REFUSED("1k,1000", -EINVAL, "must increase");
	RATE_REFUSED("1,2,3,4,5", -ERANGE, "more than 4 rates");
}

static const char good[] =
	"received 5\n"
	"reads 3\n"
	"seqno_first 2\n"
	"seqno_last 7\n"
	"cpu_user_ns 1000\n"
	"cpu_sys_ns 20000\n"
	"samples 3\n"
	"lat 4000\n"
	"lat 5000\n"
	"lat 6000\n"
	"end\n";

static int peer(const char *text, struct udrv_hist *h, struct rate_peer_out *o,
		char *why, size_t len)
{
	udrv_hist_reset(h);
	why[0] = '\0';
	return rate_peer_parse(text, strlen(text), 0, h, o, why, len);
}

static void test_peer_good(void)
{
	struct udrv_hist *h = udrv_hist_new();
	struct rate_peer_out o;
	char why[200];

	CHECK_INT(peer(good, h, &o, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_INT(o.received, 5);
	CHECK_INT(o.reads, 3);
	CHECK_INT(o.seqno_first, 2);
	CHECK_INT(o.seqno_last, 7);
	CHECK_INT(o.cpu_user_ns + o.cpu_sys_ns, 21000);
	CHECK_INT(o.samples, 3);
	CHECK_INT(udrv_hist_count(h), 3);
	CHECK_INT(udrv_hist_min(h), 4000);
	CHECK_INT(udrv_hist_max(h), 6000);
	/* nothing received */
	CHECK_INT(peer("received 0\nreads 0\nseqno_first 0\nseqno_last 0\n"
		       "cpu_user_ns 0\ncpu_sys_ns 5\nsamples 0\nend\n", h, &o, why,
		       sizeof(why)), 0);
	CHECK_INT(o.received, 0);
	udrv_hist_free(h);
}

/* @good with the line @from replaced by @to ("" deletes it). */
static void peer_refused(const char *from, const char *to, const char *why_part,
			 int line)
{
	struct udrv_hist *h = udrv_hist_new();
	struct rate_peer_out o = { 0 };
	char text[1024], why[200];
	const char *at = strstr(good, from);
	int ret;

	if (!at) {
		harness_fail(__FILE__, line, "'%s' not in the output", from);
		return;
	}
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to,
		 at + strlen(from));
	ret = peer(text, h, &o, why, sizeof(why));
	if (ret != -EINVAL || !strstr(why, why_part))
		harness_fail(__FILE__, line, "%d '%s', expected -EINVAL '%s'", ret, why,
			     why_part);
	if (o.received)
		harness_fail(__FILE__, line, "the output was written on failure");
	udrv_hist_free(h);
}

#define PEER_REFUSED(from, to, why) peer_refused(from, to, why, __LINE__)

static void test_peer_refused(void)
{
	PEER_REFUSED("received 5\n", "ready\nreceived 5\n", "unknown key 'ready'");
	PEER_REFUSED("reads 3\n", "", "no 'reads' line");
	PEER_REFUSED("reads 3\n", "reads 3\nreads 3\n", "'reads' twice");
	PEER_REFUSED("reads 3\n", "rads 3\n", "unknown key 'rads'");
	PEER_REFUSED("reads 3\n", "reads  3\n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads -3\n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads 3x\n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads \n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads 18446744073709551616\n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads 3 4\n", "reads");
	PEER_REFUSED("cpu_user_ns 1000\n", "cpu_user_ns 1000\r\n", "not 'key N...'");
	PEER_REFUSED("reads 3\n", "reads 6\n", "do not fit");
	PEER_REFUSED("reads 3\n", "reads 0\n", "do not fit");
	PEER_REFUSED("seqno_last 7\n", "seqno_last 5\n", "do not fit");
	PEER_REFUSED("seqno_first 2\n", "seqno_first 0\n", "do not fit");
	PEER_REFUSED("samples 3\n", "samples 6\n", "3 'lat' lines, 'samples' says 6");
	PEER_REFUSED("samples 3\n", "samples 2\n", "beyond its 2");
	PEER_REFUSED("samples 3\nlat 4000\n", "lat 4000\nsamples 3\n", "before 'samples'");
	PEER_REFUSED("lat 5000\n", "lat 5e3\n", "not 'key N...'");
	PEER_REFUSED("end\n", "", "no 'end' line");
	PEER_REFUSED("end\n", "end", "no newline");
	PEER_REFUSED("end\n", "end\nlat 1\n", "after 'end'");
	PEER_REFUSED("end\n", "fin\n", "unknown key 'fin'");
	PEER_REFUSED("received 5\n", "received 0\n", "samples 3 > received 0");
	PEER_REFUSED("cpu_sys_ns 20000\n", "cpu_sys_ns 20000\nunknown 1\n",
		     "unknown key 'unknown'");
}

/* the keys in another order are the same output (peer_parse.h) */
static void test_peer_any_order(void)
{
	struct udrv_hist *h = udrv_hist_new();
	struct rate_peer_out o;
	char why[200];

	CHECK_INT(peer("reads 3\nreceived 5\nseqno_last 7\nseqno_first 2\n"
		       "cpu_sys_ns 20000\ncpu_user_ns 1000\nsamples 1\nlat 9\nend\n",
		       h, &o, why, sizeof(why)), 0);
	CHECK_INT(o.received, 5);
	CHECK_INT(o.seqno_first, 2);
	CHECK_INT(udrv_hist_count(h), 1);
	udrv_hist_free(h);
}

static void test_peer_embedded_nul(void)
{
	struct udrv_hist *h = udrv_hist_new();
	struct rate_peer_out o;
	char text[sizeof(good)], why[200] = "";

	memcpy(text, good, sizeof(good));
	text[strstr(good, "lat 5000") - good + 4] = '\0';
	CHECK_INT(rate_peer_parse(text, sizeof(good) - 1, 0, h, &o, why, sizeof(why)), -EINVAL);
	CHECK_CONTAINS(why, "line 9");
	udrv_hist_free(h);
}

/* The warm-up's events, the first ones read, are left out. */
static void test_peer_warmup(void)
{
	static const char text[] =
		"received 5\nreads 4\nseqno_first 1\nseqno_last 6\ncpu_user_ns 0\n"
		"cpu_sys_ns 9\nsamples 5\nlat 100\nlat 200\nlat 3000\nlat 4000\nlat 5000\nend\n";
	struct udrv_hist *h = udrv_hist_new();
	struct rate_peer_out o;
	char why[200] = "";

	CHECK_INT(rate_peer_parse(text, strlen(text), 2, h, &o, why, sizeof(why)), 0);
	CHECK_INT(o.received, 3);
	CHECK_INT(o.reads, 2);
	CHECK_INT(o.seqno_first, 1);
	CHECK_INT(o.seqno_last, 4);
	CHECK_INT(o.samples, 3);
	CHECK_INT(udrv_hist_count(h), 3);
	CHECK_INT(udrv_hist_min(h), 3000);
	/* no more events than the warm-up's: nothing of the step */
	udrv_hist_reset(h);
	CHECK_INT(rate_peer_parse(text, strlen(text), 6, h, &o, why, sizeof(why)), 0);
	CHECK_INT(o.received + o.reads + o.seqno_first + o.seqno_last + o.samples, 0);
	CHECK_INT(o.cpu_sys_ns, 9);
	CHECK_INT(udrv_hist_count(h), 0);
	/* a warm-up edge lost before the first read: refused too */
	udrv_hist_reset(h);
	CHECK_INT(rate_peer_parse(good, strlen(good), 1, h, &o, why, sizeof(why)), -EINVAL);
	CHECK_CONTAINS(why, "seqno_first 2");
	udrv_hist_free(h);
}

UDRV_TESTS(
	UDRV_T(test_rates_good),
	UDRV_T(test_rates_refused),
	UDRV_T(test_peer_good),
	UDRV_T(test_peer_refused),
	UDRV_T(test_peer_any_order),
	UDRV_T(test_peer_warmup),
	UDRV_T(test_peer_embedded_nul),
)
