// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rig/bench/core/peer_parse.c, the one reader of what udrv-bench-peer
 * prints (and of the commands it reads): texts as the peer prints them,
 * and what must be refused.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "peer_parse.h"
#include "harness.h"

static int line(const char *s, char *key, uint64_t *v, unsigned int *n)
{
	return bench_peer_line(s, strlen(s), key, BENCH_PEER_KEY_LEN, v,
			       BENCH_PEER_MAX_VALS, n);
}

static void test_line(void)
{
	char key[BENCH_PEER_KEY_LEN];
	uint64_t v[BENCH_PEER_MAX_VALS];
	unsigned int n = 9;

	CHECK_INT(line("ready", key, v, &n), 0);
	CHECK_STR(key, "ready");
	CHECK_INT(n, 0);
	CHECK_INT(line("ns 520704", key, v, &n), 0);
	CHECK_STR(key, "ns");
	CHECK(n == 1 && v[0] == 520704);
	CHECK_INT(line("edge 1 18446744073709551615 3 0", key, v, &n), 0);
	CHECK(n == 4 && v[1] == UINT64_MAX && v[3] == 0);
	CHECK_INT(line("seqno_first 0", key, v, &n), 0);
	CHECK_STR(key, "seqno_first");
	/* the most numbers, each as long as the field reader takes them
	 * (fuzz_peer's regress/peer/zero-padded-numbers) */
	CHECK_INT(line("edge 00000000001067528929303 00000000000000000000001 "
		       "18446744073709551615 00000000000000000000000", key, v, &n), 0);
	CHECK(n == 4 && v[0] == 1067528929303ULL && v[1] == 1 && v[3] == 0);
}

static void test_line_rejects(void)
{
	static const char *const bad[] = {
		"", " ", "ns", "ns 1 ", " ns 1", "ns  1", "ns\t1", "ns -1", "ns +1",
		"ns 0x10", "ns 1.5", "ns 18446744073709551616", "NS 1", "n5 1",
		"ns 1 2 3 4 5", "ns 1\n", "ns 1\r", "edge 1 2 3 4 ",
		"a_very_long_key_of_more_than_24 1",
	};
	char key[BENCH_PEER_KEY_LEN];
	uint64_t v[BENCH_PEER_MAX_VALS];
	unsigned int n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = line(bad[i], key, v, &n);

		/* "ns" alone is a key without numbers: accepted as such */
		if (!strcmp(bad[i], "ns")) {
			CHECK(ret == 0 && n == 0);
			continue;
		}
		if (ret != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
	}
	/* a NUL inside the line */
	CHECK_INT(bench_peer_line("ns 1\0002", 6, key, sizeof(key), v, 4, &n), -EINVAL);
	/* more numbers than asked for */
	CHECK_INT(bench_peer_line("ns 1 2", 6, key, sizeof(key), v, 1, &n), -EINVAL);
}

/* the rx output of the contract (docs/rig/results.md) */
static const struct bench_peer_key rx_keys[] = {
	{ "received", 1, BENCH_PEER_REQUIRED },
	{ "reads", 1, BENCH_PEER_REQUIRED },
	{ "seqno_first", 1, BENCH_PEER_REQUIRED },
	{ "seqno_last", 1, BENCH_PEER_REQUIRED },
	{ "cpu_user_ns", 1, BENCH_PEER_REQUIRED },
	{ "cpu_sys_ns", 1, BENCH_PEER_REQUIRED },
	{ "samples", 1, BENCH_PEER_REQUIRED },
	{ "lat", 1, BENCH_PEER_MANY },
};
#define NRX	(sizeof(rx_keys) / sizeof(rx_keys[0]))

struct sums {
	uint64_t v[NRX];
	unsigned int lines;
};

static int add(void *ctx, size_t key, const uint64_t *vals)
{
	struct sums *s = ctx;

	s->v[key] += vals[0];
	s->lines++;
	return 0;
}

static const char rx_text[] =
	"received 3\nreads 2\nseqno_first 5\nseqno_last 7\n"
	"cpu_user_ns 0\ncpu_sys_ns 4000000\nsamples 2\nlat 11\nlat 31\nend\n";

static int rx(const char *text, struct sums *s, char *why)
{
	memset(s, 0, sizeof(*s));
	why[0] = '\0';
	return bench_peer_text(text, strlen(text), rx_keys, NRX, "end", add, s,
			       why, 120);
}

static void test_text(void)
{
	struct sums s;
	char why[120];

	CHECK_INT(rx(rx_text, &s, why), 0);
	CHECK(s.v[0] == 3 && s.v[2] == 5 && s.v[5] == 4000000 && s.v[7] == 42);
	CHECK_INT(s.lines, 9);
	/* no samples at all: still whole */
	CHECK_INT(rx("received 0\nreads 0\nseqno_first 0\nseqno_last 0\n"
		     "cpu_user_ns 0\ncpu_sys_ns 0\nsamples 0\nend\n", &s, why), 0);
}

static void test_text_rejects(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "received 3\nend\n", "no 'reads' line" },
		{ "received 3\nreceived 3\nend\n", "'received' twice" },
		{ "bogus 1\nend\n", "unknown key 'bogus'" },
		{ "received 1 2\nend\n", "another number of values" },
		{ "received 3\n", "stops early" },
		{ "received 3", "no newline" },
		{ "", "stops early" },
		{ "lat 1\nend\nlat 2\n", "after 'end'" },
		{ "lat 1\nend\n\n", "after 'end'" },
		{ "lat x\nend\n", "not 'key N...'" },
		{ "\nend\n", "not 'key N...'" },
		{ "end \n", "not 'key N...'" },
	};
	struct sums s;
	char why[120];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(rx(bad[i].text, &s, why), -EINVAL);
		CHECK_CONTAINS(why, bad[i].why);
	}
}

static int refuse(void *ctx, size_t key, const uint64_t *vals)
{
	(void)ctx;
	(void)key;
	return vals[0] == 2 ? -ERANGE : 0;
}

static void test_callback_stops(void)
{
	char why[120];

	CHECK_INT(bench_peer_text("lat 1\nlat 2\nlat 3\nend\n", 24, rx_keys + 7, 1,
				  "end", refuse, NULL, why, sizeof(why)), -ERANGE);
}

UDRV_TESTS(
	UDRV_T(test_line),
	UDRV_T(test_line_rejects),
	UDRV_T(test_text),
	UDRV_T(test_text_rejects),
	UDRV_T(test_callback_stops),
)
