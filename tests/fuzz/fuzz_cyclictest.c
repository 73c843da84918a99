// SPDX-License-Identifier: GPL-2.0-only
/*
 * The readers of cyclictest's histogram file and stdout
 * (rig/bench/core/parsers/cyclictest_out.c), what `udrv-bench timer` makes
 * its cyclictest row from.
 *
 * Input: part 0 the histogram file (--histfile), part 1 its stdout with
 * --spike (fuzz.h's separator). Each is read twice: with a range of 4
 * buckets (so whole files fit in a few lines), 3 spike nodes and 20
 * samples, and with a range of 100, 300 nodes and 300 samples.
 *
 * Properties:
 *  - ct-result: 0 or -EINVAL, and a message exactly when it is -EINVAL;
 *  - ct-hist: an accepted histogram file: the histogram holds "Total"
 *    samples, Total + overflows no more than the cap, cycle numbers no
 *    more than the range or the overflows; with samples: min the
 *    histogram's, min <= avg <= max, and with no overflow max the
 *    histogram's and avg its mean as cyclictest computes it;
 *  - ct-spikes: accepted spikes: each at or above the range, as many as
 *    the nodes or the spikes counted, whichever is fewer, no more than
 *    the cap; their min and max the histogram's;
 *  - ct-check: both accepted and ct_out_check() too: the two together
 *    hold every sample, min (or all above CT_MIN_START, its min) and max
 *    the summary's, avg their mean;
 *  - ct-whole: an accepted file with a line added is refused, and so is
 *    one without its last line that is not empty (the Thread line; the
 *    "spikes = N" line);
 *  - the same input gives the same result twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/hist.h>

#include "core/parsers/cyclictest_out.h"
#include "fuzz.h"

struct limits {
	uint64_t range, nodes, cap;
};

struct run {
	struct udrv_hist *h;
	struct ct_hist hist;
	struct ct_spikes spikes;
	char why[200];
	int ret;
};

static void parse(struct run *r, bool hist, const char *text, size_t len,
		  const struct limits *l)
{
	r->h = udrv_hist_new();
	FUZZ_CHECK(r->h, "out of memory");
	memset(&r->hist, 0, sizeof(r->hist));
	memset(&r->spikes, 0, sizeof(r->spikes));
	strcpy(r->why, "unset");
	if (hist)
		r->ret = ct_hist_parse(text, len, l->range, l->cap, r->h, &r->hist,
				       r->why, sizeof(r->why));
	else
		r->ret = ct_spikes_parse(text, len, l->range, l->nodes, l->cap, r->h,
					 &r->spikes, r->why, sizeof(r->why));
}

static void done(struct run *r)
{
	udrv_hist_free(r->h);
}

static bool same(const struct run *a, const struct run *b)
{
	return a->ret == b->ret && !strcmp(a->why, b->why) &&
	       !memcmp(&a->hist, &b->hist, sizeof(a->hist)) &&
	       !memcmp(&a->spikes, &b->spikes, sizeof(a->spikes)) &&
	       udrv_hist_count(a->h) == udrv_hist_count(b->h);
}

static void check_hist(const struct run *r, const struct limits *l)
{
	const struct ct_hist *s = &r->hist;
	uint64_t count = s->total + s->overflows;

	FUZZ_CHECK(udrv_hist_count(r->h) == s->total, "%" PRIu64 " recorded, Total %" PRIu64,
		   udrv_hist_count(r->h), s->total);
	FUZZ_CHECK(count <= l->cap, "%" PRIu64 " samples, cap %" PRIu64, count, l->cap);
	FUZZ_CHECK(s->cycles_listed <= l->range && s->cycles_listed <= s->overflows,
		   "%" PRIu64 " cycle numbers for %" PRIu64 " overflows", s->cycles_listed,
		   s->overflows);
	if (!count)
		return;
	FUZZ_CHECK(s->min <= s->avg && s->avg <= s->max, "min %" PRIu64 " avg %" PRIu64
		   " max %" PRIu64, s->min, s->avg, s->max);
	if (s->total)
		FUZZ_CHECK(udrv_hist_min(r->h) == s->min, "min %" PRIu64 ", recorded %" PRIu64,
			   s->min, udrv_hist_min(r->h));
	else
		FUZZ_CHECK(s->min >= l->range, "min %" PRIu64 " with every sample above the range",
			   s->min);
	if (s->overflows) {
		FUZZ_CHECK(s->max >= l->range, "max %" PRIu64 " below the range", s->max);
		return;
	}
	FUZZ_CHECK(udrv_hist_max(r->h) == s->max, "max %" PRIu64 ", recorded %" PRIu64,
		   s->max, udrv_hist_max(r->h));
	FUZZ_CHECK(ct_avg(s->sum, count) == s->avg && (uint64_t)udrv_hist_mean(r->h) == s->avg,
		   "avg %" PRIu64 ", mean %.3f", s->avg, udrv_hist_mean(r->h));
}

static void check_spikes(const struct run *r, const struct limits *l)
{
	const struct ct_spikes *s = &r->spikes;

	FUZZ_CHECK(udrv_hist_count(r->h) == s->listed, "%" PRIu64 " recorded, %" PRIu64 " listed",
		   udrv_hist_count(r->h), s->listed);
	FUZZ_CHECK(s->spikes <= l->cap, "%" PRIu64 " spikes, cap %" PRIu64, s->spikes, l->cap);
	FUZZ_CHECK(s->listed == (s->spikes < l->nodes ? s->spikes : l->nodes),
		   "%" PRIu64 " listed of %" PRIu64 " spikes, %" PRIu64 " nodes", s->listed,
		   s->spikes, l->nodes);
	if (!s->listed)
		return;
	FUZZ_CHECK(udrv_hist_min(r->h) == s->min && s->min >= l->range &&
		   udrv_hist_max(r->h) == s->max, "spikes %" PRIu64 "..%" PRIu64 ", recorded %"
		   PRIu64 "..%" PRIu64, s->min, s->max, udrv_hist_min(r->h), udrv_hist_max(r->h));
}

/* Both accepted and consistent: together they are the summary. */
static void check_pair(const struct run *h, const struct run *s)
{
	const struct ct_hist *a = &h->hist;
	uint64_t count = a->total + a->overflows;
	struct udrv_hist *all = udrv_hist_new();
	char why[200];

	if (ct_out_check(a, &s->spikes, why, sizeof(why)) || fuzz_skip("ct-check")) {
		udrv_hist_free(all);
		return;
	}
	FUZZ_CHECK(all, "out of memory");
	udrv_hist_merge(all, h->h);
	udrv_hist_merge(all, s->h);
	FUZZ_CHECK(udrv_hist_count(all) == count, "%" PRIu64 " samples, %" PRIu64 " in the summary",
		   udrv_hist_count(all), count);
	if (count)
		FUZZ_CHECK((udrv_hist_min(all) == a->min ||
			    (a->min == CT_MIN_START && udrv_hist_min(all) > a->min)) &&
			   udrv_hist_max(all) == a->max &&
			   ct_avg(a->sum + s->spikes.sum, count) == a->avg,
			   "samples %" PRIu64 "..%" PRIu64 ", summary min %" PRIu64 " avg %" PRIu64
			   " max %" PRIu64, udrv_hist_min(all), udrv_hist_max(all), a->min, a->avg,
			   a->max);
	udrv_hist_free(all);
}

/* Accepted: with one more line, or without its last non-empty line, not. */
static void check_whole(bool hist, const char *text, size_t len, const struct limits *l)
{
	char *more = malloc(len + 3);
	struct run r;
	size_t cut = len;

	FUZZ_CHECK(more, "out of memory");
	memcpy(more, text, len);
	memcpy(more + len, "x\n", 2);
	parse(&r, hist, more, len + 2, l);
	FUZZ_CHECK(r.ret == -EINVAL, "a line after the end accepted");
	done(&r);
	free(more);
	while (cut > 1 && text[cut - 2] == '\n')	/* its empty last lines */
		cut--;
	if (!hist) {	/* stdout: only its "spikes = N" line must be there */
		size_t start = cut ? cut - 1 : 0;

		while (start && text[start - 1] != '\n')
			start--;
		if (cut - start < 9 || strncmp(text + start, "spikes = ", 9))
			return;
	}
	for (cut = cut ? cut - 1 : 0; cut > 0 && text[cut - 1] != '\n'; cut--)
		;
	parse(&r, hist, text, cut, l);
	FUZZ_CHECK(r.ret == -EINVAL, "accepted without its last line (%zu of %zu bytes)", cut, len);
	done(&r);
}

static void one(bool hist, const char *text, size_t len, const struct limits *l,
		struct run *r)
{
	struct run again;

	parse(r, hist, text, len, l);
	if (!fuzz_skip("ct-result"))
		FUZZ_CHECK((r->ret == 0 && !r->why[0]) || (r->ret == -EINVAL && r->why[0]),
			   "returned %d, message '%s'", r->ret, r->why);
	parse(&again, hist, text, len, l);
	FUZZ_CHECK(same(r, &again), "two parses of one input differ");
	done(&again);
	if (r->ret)
		return;
	if (hist && !fuzz_skip("ct-hist"))
		check_hist(r, l);
	if (!hist && !fuzz_skip("ct-spikes"))
		check_spikes(r, l);
	if (!fuzz_skip("ct-whole"))
		check_whole(hist, text, len, l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct limits limits[] = { { 4, 3, 20 }, { 100, 300, 300 } };
	struct fuzz_parts parts;
	struct run h, s;

	fuzz_split(data, size, &parts);
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		one(true, parts.n > 0 ? (const char *)parts.p[0] : "",
		    parts.n > 0 ? parts.len[0] : 0, &limits[i], &h);
		one(false, parts.n > 1 ? (const char *)parts.p[1] : "",
		    parts.n > 1 ? parts.len[1] : 0, &limits[i], &s);
		if (!h.ret && !s.ret)
			check_pair(&h, &s);
		done(&h);
		done(&s);
	}
	return 0;
}
