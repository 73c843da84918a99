// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench toy: a bench that tests/rig/test_toy_bench.py adds to a copy of
 * the tree, to show what a new bench touches: its folder (this file, its
 * meson.build, its spec and schema part) and its name in two lists.
 *
 * It measures something real and small: the time between two consecutive
 * clock_gettime(CLOCK_MONOTONIC) calls, one row, and its own section "toy"
 * with the number of calls it made (the spec checks it against the row).
 */
#include <getopt.h>
#include <stdio.h>

#include "bench.h"
#include "benches.h"
#include "msg.h"

#define DEFAULT_SAMPLES	1000

struct toy {
	struct bench_run run;
	uint64_t calls;
};

static const char help[] =
"Usage: udrv-bench toy [OPTIONS]\n"
"\n"
"The time between two clock_gettime(CLOCK_MONOTONIC) calls.\n"
"\n"
BENCH_OPTS_HELP;

static const struct option long_opts[] = {
	{ NULL, 0, NULL, 0 },
};

static int toy_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	(void)opt;
	(void)ctx;
	return bench_usage(run->bench, "unknown option '%s'", arg ? arg : "");
}

static void toy_json(const struct bench_run *run, struct udrv_json *j)
{
	const struct toy *t = (const struct toy *)run;

	udrv_json_key(j, "toy");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "calls", t->calls);
	udrv_json_obj_end(j);
}

static int toy_measure(struct toy *t)
{
	struct bench_row *row = bench_row(&t->run, "clock", "udrv", NULL,
					  "call_to_call");
	uint64_t n = bench_samples(&t->run, DEFAULT_SAMPLES);
	uint64_t t0 = bench_now_ns(), prev = t0;

	if (!row)
		return bench_error(EXIT_FAIL, "no row");
	while (bench_more(&t->run, t0, t->calls, n)) {
		uint64_t now = bench_now_ns();

		udrv_hist_record(row->hist, now - prev);
		prev = now;
		t->calls++;
	}
	return EXIT_OK;
}

BENCH_COMMAND(toy, "the time between two clock_gettime() calls (a test's toy)");

int cmd_bench_toy(int argc, char **argv)
{
	struct toy t = { 0 };
	int ret = bench_parse(&t.run, "toy", argc, argv, help, "", long_opts,
			      toy_opt, &t);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	t.run.json_extra = toy_json;
	ret = bench_begin(&t.run);
	if (!ret)
		ret = toy_measure(&t);
	return bench_end(&t.run, ret);
}
