// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the rtla timerlat hist reader
 * (rig/bench/core/parsers/rtla_hist.c) on outputs captured in the lab
 * (tests/rig/unit/rtla/README.md), and on those outputs cut short or changed:
 * every figure it checks, broken on purpose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <udrv/hist.h>

#include "harness.h"
#include "core/parsers/rtla_hist.h"

#define RANGE		100000
#define MAX_COUNT	100000

struct parsed {
	struct udrv_hist *h[RTLA_NCTX];
	struct rtla_hist res;
	char why[200];
	int ret;
};

static char *load(const char *name, size_t *len)
{
	return harness_load(RTLA_DATA, name, len);
}

static void parse_text(struct parsed *p, const char *text, size_t len,
		       uint64_t range, uint64_t max_count)
{
	p->h[RTLA_IRQ] = udrv_hist_new();
	p->h[RTLA_THREAD] = udrv_hist_new();
	p->why[0] = '\0';
	p->ret = rtla_hist_parse(text, len, range, max_count, p->h, &p->res,
				 p->why, sizeof(p->why));
}

static void parse_file(struct parsed *p, const char *name, uint64_t range)
{
	size_t len;
	char *text = load(name, &len);

	parse_text(p, text, len, range, MAX_COUNT);
	free(text);
}

static void done(struct parsed *p)
{
	udrv_hist_free(p->h[RTLA_IRQ]);
	udrv_hist_free(p->h[RTLA_THREAD]);
}

/* What a whole, consistent output gives: its summary in the histograms. */
static void check_ok(struct parsed *p, uint64_t count)
{
	for (int c = 0; c < RTLA_NCTX; c++) {
		const struct rtla_stats *s = &p->res.ctx[c];

		CHECK_INT(s->count, count);
		CHECK_INT(udrv_hist_count(p->h[c]), count);
		CHECK_INT(udrv_hist_min(p->h[c]), s->min);
		CHECK_INT(udrv_hist_max(p->h[c]), s->max);
		if (!s->over)	/* rtla truncates its average */
			CHECK_INT((uint64_t)udrv_hist_mean(p->h[c]), s->avg);
	}
}

static void test_idle(void)
{
	struct parsed p;

	parse_file(&p, "idle.txt", RANGE);
	CHECK_INT(p.ret, 0);
	CHECK_STR(p.why, "");
	CHECK_INT(p.res.cpus, 1);
	CHECK_INT(p.res.cpu[0], 0);
	check_ok(&p, 1000);
	/* its summary lines, as printed */
	CHECK_INT(p.res.ctx[RTLA_IRQ].min, 636);
	CHECK_INT(p.res.ctx[RTLA_IRQ].avg, 730);
	CHECK_INT(p.res.ctx[RTLA_IRQ].max, 787);
	CHECK_INT(p.res.ctx[RTLA_THREAD].min, 4095);
	CHECK_INT(p.res.ctx[RTLA_THREAD].avg, 4403);
	CHECK_INT(p.res.ctx[RTLA_THREAD].max, 5149);
	CHECK_INT(p.res.ctx[RTLA_IRQ].over, 0);
	/* the irq handler runs before the thread it wakes */
	CHECK(p.res.ctx[RTLA_IRQ].max < p.res.ctx[RTLA_THREAD].min);
	done(&p);
}

static void test_more_outputs(void)
{
	static const struct { const char *name; uint64_t count; } outs[] = {
		{ "p500.txt", 2000 }, { "load.txt", 3000 }, { "sigint.txt", 1940 },
	};
	struct parsed p;

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		parse_file(&p, outs[i].name, RANGE);
		CHECK_INT(p.ret, 0);
		CHECK_STR(p.why, "");
		check_ok(&p, outs[i].count);
		done(&p);
	}
}

/* Two CPUs, samples above the range: one at the max, the rest at the range. */
static void test_smp_over(void)
{
	struct parsed p;

	parse_file(&p, "smp.txt", RANGE);
	CHECK_INT(p.ret, 0);
	CHECK_STR(p.why, "");
	CHECK_INT(p.res.cpus, 2);
	CHECK_INT(p.res.cpu[1], 1);
	check_ok(&p, 734 + 735);
	CHECK_INT(p.res.ctx[RTLA_IRQ].over, 33 + 33);
	CHECK_INT(p.res.ctx[RTLA_THREAD].over, 72 + 41);
	CHECK_INT(p.res.ctx[RTLA_IRQ].min, 25760);
	CHECK_INT(p.res.ctx[RTLA_IRQ].max, 211562700);
	CHECK_INT(p.res.ctx[RTLA_THREAD].max, 211631680);
	/* count-weighted: (437972 x 734 + 445417 x 735) / 1469 */
	CHECK_INT(p.res.ctx[RTLA_IRQ].avg, 441697);
	done(&p);
}

static void test_all_over(void)
{
	static const char *const names[] = { "all-over.txt", "dup-header.txt" };
	struct parsed p;

	for (size_t i = 0; i < 2; i++) {
		parse_file(&p, names[i], 10);
		CHECK_INT(p.ret, 0);
		CHECK_STR(p.why, "");
		check_ok(&p, 5000);
		CHECK_INT(p.res.ctx[RTLA_IRQ].over, 5000);
		/* one at the min, one at the max, 4998 at the min (a lower bound) */
		CHECK_INT(udrv_hist_percentile(p.h[RTLA_IRQ], 99.9), p.res.ctx[RTLA_IRQ].min);
		done(&p);
	}
}

static void check_refused(const char *text, size_t len, uint64_t range,
			  uint64_t max_count, const char *why, int line)
{
	struct parsed p;

	parse_text(&p, text, len, range, max_count);
	if (p.ret != -EINVAL || !strstr(p.why, why))
		harness_fail(__FILE__, line, "parse returned %d \"%s\", expected -EINVAL \"%s\"",
			     p.ret, p.why, why);
	done(&p);
}

#define REFUSED(text, why) \
	check_refused(text, strlen(text), RANGE, MAX_COUNT, why, __LINE__)

static void test_refused_outputs(void)
{
	size_t len;
	char *text;

	text = load("truncated.txt", &len);
	check_refused(text, len, RANGE, MAX_COUNT, "cut short (no newline)", __LINE__);
	free(text);
	text = load("us.txt", &len);
	check_refused(text, len, RANGE, MAX_COUNT, "rtla timerlat hist -n", __LINE__);
	free(text);
	text = load("std-stderr.txt", &len);
	check_refused(text, len, RANGE, MAX_COUNT, "expected '# RTLA timerlat histogram'", __LINE__);
	free(text);
	REFUSED("", "ends before its histogram");
}

/* Every proper prefix of a real output that ends at a line is refused. */
static void test_every_prefix_refused(void)
{
	struct parsed p;
	size_t len, cut;
	char *text = load("idle.txt", &len);

	for (cut = 0; cut < len; cut++) {
		if (cut && text[cut - 1] != '\n')
			continue;
		parse_text(&p, text, cut, RANGE, MAX_COUNT);
		if (p.ret != -EINVAL)
			harness_fail(__FILE__, __LINE__, "the first %zu of %zu bytes accepted", cut, len);
		done(&p);
	}
	free(text);
}

/* idle.txt with @from replaced by @to (once): refused, saying @why. */
static void check_changed(const char *from, const char *to, const char *why,
			  uint64_t range, uint64_t max_count, int line)
{
	size_t len, flen = strlen(from), tlen = strlen(to);
	char *text = load("idle.txt", &len), *at = strstr(text, from), *out;

	if (!at) {
		harness_fail(__FILE__, line, "'%s' is not in idle.txt", from);
		free(text);
		return;
	}
	out = malloc(len - flen + tlen + 1);
	memcpy(out, text, (size_t)(at - text));
	memcpy(out + (at - text), to, tlen);
	memcpy(out + (at - text) + tlen, at + flen, len - (size_t)(at - text) - flen + 1);
	check_refused(out, len - flen + tlen, range, max_count, why, line);
	free(out);
	free(text);
}

#define CHANGED(from, to, why) \
	check_changed(from, to, why, RANGE, MAX_COUNT, __LINE__)

static void test_garbled(void)
{
	/* a bucket's count: the buckets no longer make "count:" */
	CHANGED("\n722          47 ", "\n722          48 ", "in buckets + 0 over != count 1000");
	/* the summary against the buckets */
	CHANGED("min:        636", "min:        637", "min 637 is not its lowest bucket");
	CHANGED("max:        787", "max:        786", "max 786 is not its highest bucket");
	CHANGED("avg:        730", "avg:        731", "avg 731, its buckets' mean 730");
	CHANGED("over:         0", "over:         1", "in buckets + 1 over != count 1000");
	/* the form */
	CHANGED("Thr-000", "Thr-001", "Thr-1 follows IRQ-0");
	CHANGED("Thr-000", "Usr-000", "not Thr-<cpu>");
	CHANGED("\n722 ", "\n-722 ", "'-722' is not a count");
	CHANGED("\n722          47 ", "\n722          47 3", "3 counts for 2 columns");
	CHANGED("\n722          47 ", "\n720          47 ", "bucket 720 after bucket 721");
	CHANGED("count:     1000", "count:     1000x", "'1000x' is not a count");
	CHANGED("min:  ", "mean: ", "expected 'min:'");
	CHANGED("max:        787      5149 \n", "max:        787      5149 \nmore\n",
		"text after the summary");
	CHANGED("max:        787      5149 \n", "max:        787      5149 \n\n",
		"line 132: text after the summary");
	CHANGED("\n722 ", "\nFailed to apply CPUs config\n722 ", "line 10: 4 counts for 2 columns");
	CHANGED("\n722 ", "\nFailed\n722 ", "line 10: 0 counts for 2 columns");
	/* what the caller asked for */
	check_changed("\n722 ", "\n722 ", "more than 500 samples in column 1",
		      RANGE, 500, __LINE__);
	check_changed("\n722 ", "\n722 ", "beyond the range of 4000 asked for",
		      4000, MAX_COUNT, __LINE__);
}

/* The samples above the range must be able to make min, avg and max. */
static void test_over_checked(void)
{
	static const char head[] = "# RTLA timerlat histogram\n# Time unit is nanoseconds (ns)\n"
		"# Duration:   0 00:00:01\nIndex   IRQ-000   Thr-000\n650           1         0 \n"
		"over:         0         %s \ncount:        1         %s \n"
		"min:        650    %s \navg:        650    %s \nmax:        650    %s \n";
	static const struct { const char *v[5]; const char *why; } cases[] = {
		/* over count min avg max: 3 samples from 150000 to 200000
		 * have an avg from 166666 to 183333 */
		{ { "1", "1", "200000", "200000", "200000" }, NULL },
		{ { "1", "1", "199999", "200000", "200000" }, "cannot come from" },
		{ { "2", "2", "150000", "175000", "200000" }, NULL },
		{ { "2", "2", "150000", "174999", "200000" }, "cannot come from" },
		{ { "2", "2", "150000", "175001", "200000" }, "cannot come from" },
		{ { "3", "3", "150000", "166666", "200000" }, NULL },
		{ { "3", "3", "150000", "183333", "200000" }, NULL },
		{ { "3", "3", "150000", "166665", "200000" }, "cannot come from" },
		{ { "3", "3", "150000", "183334", "200000" }, "cannot come from" },
		{ { "2", "2", "150000", "200001", "200000" }, "out of order" },
	};
	char text[512];
	struct parsed p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *v = cases[i].v;
		const struct rtla_stats *s = &p.res.ctx[RTLA_THREAD];

		snprintf(text, sizeof(text), head, v[0], v[1], v[2], v[3], v[4]);
		parse_text(&p, text, strlen(text), RANGE, MAX_COUNT);
		if (!cases[i].why != !p.ret)
			harness_fail(__FILE__, __LINE__, "case %zu: %d \"%s\"", i, p.ret, p.why);
		if (cases[i].why) {
			CHECK_CONTAINS(p.why, cases[i].why);
		} else {
			CHECK_INT(s->count, strtoull(v[1], NULL, 10));
			CHECK_INT(udrv_hist_count(p.h[RTLA_THREAD]), s->count);
			CHECK_INT(udrv_hist_min(p.h[RTLA_THREAD]), s->min);
			CHECK_INT(udrv_hist_max(p.h[RTLA_THREAD]), s->max);
		}
		done(&p);
	}
}

/* A NUL byte inside a line (strings cannot carry it into CHANGED). */
static void test_nul_byte(void)
{
	size_t len;
	char *text = load("idle.txt", &len), *at = strstr(text, "\n722 ");

	CHECK(at != NULL);
	if (at) {
		at[2] = '\0';
		check_refused(text, len, RANGE, MAX_COUNT, "line 10: a NUL byte", __LINE__);
	}
	free(text);
}

UDRV_TESTS(UDRV_T(test_idle), UDRV_T(test_more_outputs), UDRV_T(test_smp_over),
	   UDRV_T(test_all_over), UDRV_T(test_refused_outputs),
	   UDRV_T(test_every_prefix_refused), UDRV_T(test_garbled), UDRV_T(test_nul_byte),
	   UDRV_T(test_over_checked))
