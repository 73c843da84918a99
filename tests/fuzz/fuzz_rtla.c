// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader of `rtla timerlat hist -n` (rig/bench/core/parsers/rtla_hist.c), what
 * `udrv-bench timer` makes its rtla rows from.
 *
 * The input is rtla's stdout, read twice: with a range of 100000 (what the
 * bench asks for) and of 1000 (so samples above the range are common), each
 * with a cap on the samples per column.
 *
 * Properties:
 *  - rtla-result: 0 or -EINVAL, and a message exactly when it is -EINVAL;
 *  - rtla-stats: accepted, every context's histogram holds its count, with
 *    its min and max exactly; min <= avg <= max; over <= count; at least
 *    one CPU, numbered in increasing order; no more samples than the cap
 *    per CPU; one CPU without samples above the range: the histogram's
 *    mean truncates to avg (rtla's own check of its buckets);
 *  - rtla-whole: accepted text with a line added after it, or without its
 *    last line, is refused (the whole output or nothing);
 *  - the same input gives the same result twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/hist.h>

#include "fuzz.h"
#include "core/parsers/rtla_hist.h"

struct run {
	struct udrv_hist *h[RTLA_NCTX];
	struct rtla_hist res;
	char why[200];
	int ret;
};

static void parse(struct run *r, const char *text, size_t len, uint64_t range,
		  uint64_t cap)
{
	r->h[RTLA_IRQ] = udrv_hist_new();
	r->h[RTLA_THREAD] = udrv_hist_new();
	FUZZ_CHECK(r->h[RTLA_IRQ] && r->h[RTLA_THREAD], "out of memory");
	r->why[0] = '\0';
	r->ret = rtla_hist_parse(text, len, range, cap, r->h, &r->res, r->why,
				 sizeof(r->why));
}

static void done(struct run *r)
{
	udrv_hist_free(r->h[RTLA_IRQ]);
	udrv_hist_free(r->h[RTLA_THREAD]);
}

static void check_stats(const struct run *r, uint64_t cap)
{
	const struct rtla_hist *res = &r->res;

	FUZZ_CHECK(res->cpus >= 1 && res->cpus <= RTLA_MAX_CPUS, "%u CPUs", res->cpus);
	for (unsigned int i = 1; i < res->cpus; i++)
		FUZZ_CHECK(res->cpu[i] > res->cpu[i - 1], "CPU %u after %u",
			   res->cpu[i], res->cpu[i - 1]);
	for (int c = 0; c < RTLA_NCTX; c++) {
		const struct rtla_stats *s = &res->ctx[c];
		const struct udrv_hist *h = r->h[c];

		FUZZ_CHECK(udrv_hist_count(h) == s->count, "ctx %d: %" PRIu64 " recorded, count %" PRIu64,
			   c, udrv_hist_count(h), s->count);
		FUZZ_CHECK(s->count <= (uint64_t)res->cpus * cap, "ctx %d: count %" PRIu64 " above the cap",
			   c, s->count);
		FUZZ_CHECK(s->over <= s->count, "ctx %d: over %" PRIu64 " > count", c, s->over);
		if (!s->count)
			continue;
		FUZZ_CHECK(udrv_hist_min(h) == s->min && udrv_hist_max(h) == s->max,
			   "ctx %d: recorded min %" PRIu64 " max %" PRIu64 ", summary %" PRIu64 " %" PRIu64,
			   c, udrv_hist_min(h), udrv_hist_max(h), s->min, s->max);
		FUZZ_CHECK(s->min <= s->avg && s->avg <= s->max, "ctx %d: avg %" PRIu64
			   " outside [%" PRIu64 ", %" PRIu64 "]", c, s->avg, s->min, s->max);
		if (res->cpus == 1 && !s->over)
			FUZZ_CHECK((uint64_t)udrv_hist_mean(h) == s->avg,
				   "ctx %d: mean %.3f, avg %" PRIu64, c, udrv_hist_mean(h), s->avg);
	}
}

static bool same(const struct run *a, const struct run *b)
{
	return a->ret == b->ret && !strcmp(a->why, b->why) &&
	       !memcmp(&a->res, &b->res, sizeof(a->res));
}

/* Accepted: with one more line, or one line less, it is not. */
static void check_whole(const char *text, size_t len, uint64_t range, uint64_t cap)
{
	char *more = malloc(len + 3);
	struct run r;
	size_t cut;

	FUZZ_CHECK(more, "out of memory");
	memcpy(more, text, len);
	memcpy(more + len, "x\n", 2);
	parse(&r, more, len + 2, range, cap);
	FUZZ_CHECK(r.ret == -EINVAL, "a line after the summary accepted");
	done(&r);
	free(more);
	for (cut = len - 1; cut > 0 && text[cut - 1] != '\n'; cut--)
		;
	parse(&r, text, cut, range, cap);
	FUZZ_CHECK(r.ret == -EINVAL, "accepted without its last line (%zu of %zu bytes)", cut, len);
	done(&r);
}

static void one(const char *text, size_t len, uint64_t range, uint64_t cap)
{
	struct run r, again;

	parse(&r, text, len, range, cap);
	if (!fuzz_skip("rtla-result"))
		FUZZ_CHECK((r.ret == 0 && !r.why[0]) || (r.ret == -EINVAL && r.why[0]),
			   "returned %d, message '%s'", r.ret, r.why);
	parse(&again, text, len, range, cap);
	FUZZ_CHECK(same(&r, &again), "two parses of one input differ");
	done(&again);
	if (!r.ret && !fuzz_skip("rtla-stats"))
		check_stats(&r, cap);
	if (!r.ret && !fuzz_skip("rtla-whole"))
		check_whole(text, len, range, cap);
	done(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one((const char *)data, size, 100000, 5000);
	one((const char *)data, size, 1000, 2000);
	return 0;
}
