// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two texts udrv-bench rate reads (rig/bench/rate/rate_parse.c): --rates LIST,
 * and the stdout of `udrv-bench-peer rx` (libgpiod's receiver).
 *
 * Part 0 of the input is the rate list, part 1 the peer's output after its
 * "ready" line.
 *
 * Properties:
 *  - rate-list: an accepted list is 1..max rates, each 1..1000000, strictly
 *    increasing, and its decimal rendering parses back to the same list;
 *    a refused one has a message and a negative errno;
 *  - peer-result: 0 with no message, or -EINVAL with one;
 *  - peer-counts: accepted, the histogram holds exactly `samples` samples,
 *    samples <= received, reads <= received, seqnos 0 without events and
 *    last - first + 1 >= received with them;
 *  - peer-whole: accepted text without its last line is refused (`end` is
 *    required), and so is the same text with a line after it;
 *  - the same input gives the same result twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/hist.h>

#include "fuzz.h"
#include "rate/rate.h"

#define MAX_RATES	8

static void check_list(const char *s)
{
	uint64_t rates[MAX_RATES], again[MAX_RATES];
	char why[160] = "", text[MAX_RATES * 24] = "";
	int n = rate_parse_list(s, rates, MAX_RATES, why, sizeof(why));
	size_t used = 0;

	if (n < 0) {
		FUZZ_CHECK((n == -EINVAL || n == -ERANGE) && why[0],
			   "refused with %d, message '%s'", n, why);
		return;
	}
	FUZZ_CHECK(n >= 1 && n <= MAX_RATES, "%d rates", n);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(rates[i] >= 1 && rates[i] <= RATE_MAX_PER_S,
			   "rate %d is %" PRIu64, i, rates[i]);
		FUZZ_CHECK(!i || rates[i] > rates[i - 1], "rate %d not increasing", i);
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%" PRIu64,
					 i ? "," : "", rates[i]);
	}
	FUZZ_CHECK(rate_parse_list(text, again, MAX_RATES, why, sizeof(why)) == n &&
		   !memcmp(rates, again, (size_t)n * sizeof(*rates)),
		   "'%s' does not parse back to the same list", text);
}

struct run {
	struct udrv_hist *h;
	struct rate_peer_out o;
	char why[200];
	int ret;
};

static void parse(struct run *r, const char *text, size_t len)
{
	r->h = udrv_hist_new();
	FUZZ_CHECK(r->h, "out of memory");
	memset(&r->o, 0, sizeof(r->o));
	r->why[0] = '\0';
	r->ret = rate_peer_parse(text, len, 0, r->h, &r->o, r->why, sizeof(r->why));
}

static void check_counts(const struct run *r)
{
	const struct rate_peer_out *o = &r->o;

	FUZZ_CHECK(udrv_hist_count(r->h) == o->samples, "%" PRIu64 " samples kept of %" PRIu64,
		   udrv_hist_count(r->h), o->samples);
	FUZZ_CHECK(o->samples <= o->received && o->reads <= o->received,
		   "samples %" PRIu64 " reads %" PRIu64 " received %" PRIu64,
		   o->samples, o->reads, o->received);
	if (!o->received)
		FUZZ_CHECK(!o->seqno_first && !o->seqno_last, "seqnos without events");
	else
		FUZZ_CHECK(o->seqno_first >= 1 && o->seqno_last >= o->seqno_first &&
			   o->seqno_last - o->seqno_first + 1 >= o->received,
			   "seqnos %" PRIu64 "..%" PRIu64 " for %" PRIu64 " events",
			   o->seqno_first, o->seqno_last, o->received);
}

static void check_whole(const char *text, size_t len)
{
	char *more = malloc(len + 8);
	size_t cut = len - 1;
	struct run r;

	FUZZ_CHECK(more, "out of memory");
	while (cut && text[cut - 1] != '\n')
		cut--;
	parse(&r, text, cut);
	FUZZ_CHECK(r.ret == -EINVAL, "accepted without its last line");
	udrv_hist_free(r.h);
	memcpy(more, text, len);
	memcpy(more + len, "end\n", 4);
	parse(&r, more, len + 4);
	FUZZ_CHECK(r.ret == -EINVAL, "accepted with a line after 'end'");
	udrv_hist_free(r.h);
	free(more);
}

static void check_peer(const char *text, size_t len)
{
	struct run r, again;

	parse(&r, text, len);
	if (!fuzz_skip("peer-result"))
		FUZZ_CHECK((r.ret == 0 && !r.why[0]) || (r.ret == -EINVAL && r.why[0]),
			   "returned %d, message '%s'", r.ret, r.why);
	parse(&again, text, len);
	FUZZ_CHECK(r.ret == again.ret && !strcmp(r.why, again.why) &&
		   (r.ret || !memcmp(&r.o, &again.o, sizeof(r.o))),
		   "two parses of one input differ");
	udrv_hist_free(again.h);
	if (!r.ret && !fuzz_skip("peer-counts"))
		check_counts(&r);
	if (!r.ret && !fuzz_skip("peer-whole"))
		check_whole(text, len);
	udrv_hist_free(r.h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;
	char *list;

	fuzz_split(data, size, &parts);
	list = fuzz_str(&parts, 0);
	if (list) {
		check_list(list);
		free(list);
	}
	if (fuzz_has(&parts, 1))
		check_peer((const char *)parts.p[1], parts.len[1]);
	return 0;
}
