// SPDX-License-Identifier: GPL-2.0-only
/*
 * rig/bench/core/peer_parse.c, the one reader of what udrv-bench-peer prints (the
 * rx contract's output, the irq edges, the toggle replies) and of the
 * commands the peer reads.
 *
 * The input is the text, read with a table of the rx contract's keys plus
 * "edge" (4 numbers, any number of times), ended by "end".
 *
 * Properties:
 *  - peer-model: accepted exactly when an independent model accepts: lines
 *    "key N..." (key of [a-z_], fewer than 24 characters; numbers of 1..23
 *    digits, at most UINT64_MAX, one space before each), keys from the
 *    table with their count of numbers, the single keys at most once, the
 *    required ones present, "end" the last line and nothing after it;
 *  - peer-values: accepted, the callback saw every line in order, with the
 *    model's numbers (sums and count);
 *  - peer-why: rejected, the message is set and terminated;
 *  - peer-line: bench_peer_line() on the first line agrees with the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rig/bench/core/peer_parse.h"
#include "fuzz.h"

typedef unsigned __int128 u128;

static const struct bench_peer_key keys[] = {
	{ "received", 1, BENCH_PEER_REQUIRED },
	{ "reads", 1, BENCH_PEER_REQUIRED },
	{ "seqno_first", 1, BENCH_PEER_REQUIRED },
	{ "seqno_last", 1, BENCH_PEER_REQUIRED },
	{ "cpu_user_ns", 1, 0 },
	{ "cpu_sys_ns", 1, 0 },
	{ "samples", 1, 0 },
	{ "lat", 1, BENCH_PEER_MANY },
	{ "edge", 4, BENCH_PEER_MANY },
};
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

struct tally {
	uint64_t lines, sum;
};

static int count(void *ctx, size_t key, const uint64_t *vals)
{
	struct tally *t = ctx;

	t->lines++;
	for (unsigned int i = 0; i < keys[key].nvals; i++)
		t->sum += vals[i];
	return 0;
}

/* One line of the model: key and numbers; -1 if malformed. */
static int model_line(const char *p, size_t len, char *key, uint64_t *sum,
		      unsigned int *n)
{
	size_t i = 0;

	while (i < len && ((p[i] >= 'a' && p[i] <= 'z') || p[i] == '_'))
		i++;
	if (!i || i >= BENCH_PEER_KEY_LEN)
		return -1;
	memcpy(key, p, i);
	key[i] = '\0';
	*n = 0;
	while (i < len) {
		u128 x = 0;
		size_t d = 0;

		if (p[i++] != ' ')
			return -1;
		for (; i < len && p[i] >= '0' && p[i] <= '9'; i++, d++)
			if (x <= UINT64_MAX)
				x = x * 10 + (u128)(p[i] - '0');
		if (!d || d > 23 || x > UINT64_MAX || ++*n > BENCH_PEER_MAX_VALS)
			return -1;
		*sum += (uint64_t)x;
	}
	return 0;
}

static int model(const char *text, size_t len, struct tally *t)
{
	unsigned int seen[NKEYS] = { 0 }, n;
	const char *p = text, *nl;
	char key[BENCH_PEER_KEY_LEN];
	size_t k;

	for (; p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (!nl)
			return -1;
		if (nl - p == 3 && !memcmp(p, "end", 3)) {
			if (nl + 1 != text + len)
				return -1;
			for (k = 0; k < NKEYS; k++)
				if ((keys[k].flags & BENCH_PEER_REQUIRED) && !seen[k])
					return -1;
			return 0;
		}
		if (model_line(p, (size_t)(nl - p), key, &t->sum, &n))
			return -1;
		for (k = 0; k < NKEYS && strcmp(keys[k].name, key); k++)
			;
		if (k == NKEYS || keys[k].nvals != n)
			return -1;
		if (seen[k]++ && !(keys[k].flags & BENCH_PEER_MANY))
			return -1;
		t->lines++;
	}
	return -1;
}

static void check_line(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t l = nl ? (size_t)(nl - text) : len;
	char key[BENCH_PEER_KEY_LEN], mkey[BENCH_PEER_KEY_LEN];
	uint64_t v[BENCH_PEER_MAX_VALS], msum = 0, sum = 0;
	unsigned int n = 0, mn = 0;
	int ret = bench_peer_line(text, l, key, sizeof(key), v,
				  BENCH_PEER_MAX_VALS, &n);
	int want = model_line(text, l, mkey, &msum, &mn);

	if (fuzz_skip("peer-line"))
		return;
	FUZZ_CHECK((ret == 0) == (want == 0), "line: reader %d, model %d", ret, want);
	if (ret)
		return;
	for (unsigned int i = 0; i < n; i++)
		sum += v[i];
	FUZZ_CHECK(!strcmp(key, mkey) && n == mn && sum == msum,
		   "line: '%s' %u numbers, model '%s' %u", key, n, mkey, mn);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tally got = { 0 }, want = { 0 };
	char why[160];
	int ret, mret;

	memset(why, 'x', sizeof(why));
	why[0] = '\0';
	ret = bench_peer_text(text, size, keys, NKEYS, "end", count, &got, why,
			      sizeof(why));
	mret = model(text, size, &want);
	if (!fuzz_skip("peer-model"))
		FUZZ_CHECK((ret == 0) == (mret == 0), "reader %d, model %d", ret, mret);
	if (!ret && !fuzz_skip("peer-values"))
		FUZZ_CHECK(got.lines == want.lines && got.sum == want.sum,
			   "%llu lines sum %llu, model %llu sum %llu",
			   (unsigned long long)got.lines, (unsigned long long)got.sum,
			   (unsigned long long)want.lines, (unsigned long long)want.sum);
	if (ret && !fuzz_skip("peer-why"))
		FUZZ_CHECK(ret == -EINVAL && why[0] && memchr(why, '\0', sizeof(why)),
			   "rejected (%d) without a message", ret);
	check_line(text, size);
	return 0;
}
