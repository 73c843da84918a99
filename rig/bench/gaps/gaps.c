// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench gaps: the scheduler's gaps in a busy real-time loop (VanguardiaSur,
 * Fast GPIO toggle on BeagleBone Black; docs/references.md:
 * a SCHED_FIFO toggle loop stops for ~50 ms every second, RT throttling's
 * sched_rt_runtime_us 950000 of sched_rt_period_us 1000000).
 *
 * One loop at the bench's priority toggles a GPIO line through libudrv
 * (or, with --no-line, only reads the clock) for --duration and timestamps
 * every toggle with CLOCK_MONOTONIC. Each interval between two consecutive
 * toggles is a sample (toggle_gap); an interval of --gap-threshold or more
 * is a gap: counted, summed into the time stalled, and kept with its start
 * (from the beginning of the run) in a bounded timeline.
 *
 * --rt-runtime sets /proc/sys/kernel/sched_rt_runtime_us for the run and
 * puts the old value back after the loop, whatever ended it (its end, an
 * error, SIGINT/SIGTERM through the framework's flag); the document records
 * the value read back while measuring.
 *
 * Counted at the source: on gpio-wire the toggles the loop made are
 * compared with the level changes gpio-wire itself counted on the wire
 * (rig/bench/core/wire.c). None may go missing: sent = toggles written,
 * received = changes on the wire, lost = 0, and a difference fails the bench.
 *
 * --backend takes libudrv's backend names: the list the help and a bad
 * value's message give is udrv_backend_str() over the public enum
 * udrv_backend, not one of the bench's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "benches.h"

#define DEFAULT_DURATION_NS	5000000000ULL
#define DEFAULT_THRESHOLD_NS	1000000ULL
#define TIMELINE_MAX		1000	/* gaps kept with their start */
#define RUNTIME_PATH		"/proc/sys/kernel/sched_rt_runtime_us"
#define RUNTIME_UNSET		LONG_MIN
#define BACKENDS_MAX		16	/* enum udrv_backend values looked at */

struct gap {
	uint64_t start_ns;		/* from the start of the run */
	uint64_t len_ns;
};

struct gaps {
	struct bench_run run;
	/* options */
	const char *chip_spec;
	unsigned int line;
	enum udrv_backend backend;
	char backends[128];		/* "cdev, sysfs or mmio": libudrv's */
	bool no_line;
	uint64_t threshold_ns;
	long want_runtime;		/* --rt-runtime; RUNTIME_UNSET: leave */
	/* the line */
	struct udrv_chip *chip;
	struct udrv_request *req;
	char wire_path[160];		/* gpio-wire's counts; "" none */
	struct bench_wire wire0;
	/* RT throttling */
	long old_runtime, runtime, period;	/* us; runtime read back */
	bool runtime_set;
	/* results */
	uint64_t toggles, elapsed_ns, longest_ns, longest_start_ns;
	uint64_t num_gaps, stalled_ns, timeline_dropped;
	size_t timeline_len;
	struct gap timeline[TIMELINE_MAX];
};

/* two %s: the backends' names (gaps_backend_names()) and the default */
static const char help_fmt[] =
"Usage: udrv-bench gaps [OPTIONS]\n"
"\n"
"The gaps the scheduler leaves in a busy real-time loop (VanguardiaSur,\n"
"Fast GPIO toggle on BeagleBone Black). One loop at the bench's priority\n"
"(SCHED_FIFO 80) toggles a GPIO line as fast as it can for --duration and\n"
"timestamps every toggle (CLOCK_MONOTONIC); each interval between two\n"
"toggles is a sample (toggle_gap). An interval of --gap-threshold or more\n"
"is a gap: the result gives the longest, the gaps per second, the time\n"
"stalled, and each gap with its start in the run (the timeline, the first\n"
"1000).\n"
"\n"
"RT throttling: the kernel lets real-time tasks run sched_rt_runtime_us\n"
"of every sched_rt_period_us (default 950000 of 1000000) and then stops\n"
"them until the period ends, whether or not anything else wants the CPU.\n"
"A busy SCHED_FIFO loop alone on its CPU should therefore stop for\n"
"period - runtime (50 ms) every period (1 s); with --rt-runtime -1 it\n"
"should not stop at all, and nothing else runs on that CPU until it ends.\n"
"\n"
"On gpio-wire the toggles are counted at the source: gpio-wire's own\n"
"count of level changes on the wire must equal the toggles written, or\n"
"the bench fails.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP     chip: label, name, number or path (default gpio-wire)\n"
"      --line OFFSET   the output line to toggle (default 0)\n"
"  -b, --backend B     %s (default %s)\n"
"      --no-line       toggle nothing: only read the clock (a board\n"
"                      without a free line)\n"
"      --gap-threshold D  an interval of at least D is a gap (default 1ms)\n"
"      --rt-runtime US  set /proc/sys/kernel/sched_rt_runtime_us to US\n"
"                      (1..sched_rt_period_us) or -1 (no throttling) for the\n"
"                      run; the old value is put back afterwards, also after\n"
"                      an error, SIGINT or SIGTERM (not after SIGKILL).\n"
"                      Expect a gap of period - US every period. With -1 a\n"
"                      SCHED_FIFO loop starves its CPU for the whole run\n"
"  -D, --duration D    how long to toggle (default 5s)\n"
"  -n, --samples N     toggle N times instead of --duration\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Examples:\n"
"  udrv-bench gaps                         # the default throttling\n"
"  udrv-bench gaps --rt-runtime -1 -D 3s   # without it (starves the CPU)\n"
"  udrv-bench gaps --no-line --rt-runtime 900000\n";

/* long-only options: below the common ones (0x100), not in their short set */
enum {
	OPT_LINE = 'l',
	OPT_NO_LINE = 'N',
	OPT_THRESHOLD = 'T',
	OPT_RUNTIME = 'R',
};

static const struct option long_opts[] = {
	{ "chip", required_argument, NULL, 'c' },
	{ "line", required_argument, NULL, OPT_LINE },
	{ "backend", required_argument, NULL, 'b' },
	{ "no-line", no_argument, NULL, OPT_NO_LINE },
	{ "gap-threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "rt-runtime", required_argument, NULL, OPT_RUNTIME },
	{ NULL, 0, NULL, 0 },
};

static int gaps_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct gaps *g = ctx;
	int64_t v;

	switch (opt) {
	case 'c':
		g->chip_spec = arg;
		return 0;
	case OPT_LINE:
		if (udrv_parse_s64(arg, 0, 1023, &v))
			return bench_usage(run->bench, "bad --line '%s': 0..1023", arg);
		g->line = (unsigned int)v;
		return 0;
	case 'b':
		if (udrv_backend_parse(arg, &g->backend))
			return bench_usage(run->bench, "bad --backend '%s': %s", arg,
					   g->backends);
		return 0;
	case OPT_NO_LINE:
		g->no_line = true;
		return 0;
	case OPT_THRESHOLD:
		if (udrv_parse_duration_ns(arg, BENCH_DURATION_MAX_NS, &g->threshold_ns) || !g->threshold_ns)
			return bench_usage(run->bench, "bad --gap-threshold '%s': a duration above 0, e.g. 1ms, 200us", arg);
		return 0;
	case OPT_RUNTIME:
		/* -1, or a positive number; checked against the period later */
		if (udrv_parse_s64(arg, -1, INT_MAX, &v) || !v)
			return bench_usage(run->bench, "bad --rt-runtime '%s': microseconds, 1..sched_rt_period_us, or -1 for no throttling", arg);
		g->want_runtime = v;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* RT throttling: read, set, put back */

/* sched_rt_runtime_us and sched_rt_period_us as the kernel has them now */
static int throttle_read(long *runtime, long *period)
{
	struct udrv_rt_report rep;

	udrv_rt_check(&rep);
	if (!rep.rt_period_us)
		return bench_error(EXIT_FAIL, "cannot read %s and sched_rt_period_us (is /proc mounted?)",
				 RUNTIME_PATH);
	*runtime = rep.rt_runtime_us;
	*period = rep.rt_period_us;
	return EXIT_OK;
}

/*
 * Written where libudrv reads it: under UDRV_SYSROOT when set (the CLI
 * tests' fake tree, as for udrv_rt_check()), else in /proc.
 */
static int throttle_write(long us)
{
	const char *root = bench_sysroot();
	char buf[24], path[PATH_MAX];
	int fd, len = snprintf(buf, sizeof(buf), "%ld\n", us);
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s%s", root,
		     RUNTIME_PATH) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, (size_t)len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n == len ? 0 : n < 0 ? (int)n : -EIO;
}

/* Before the RT settings: the period, and whether --rt-runtime fits it. */
static int throttle_check(struct gaps *g)
{
	int ret = throttle_read(&g->old_runtime, &g->period);

	g->runtime = g->old_runtime;
	if (ret || g->want_runtime == RUNTIME_UNSET || g->want_runtime == -1)
		return ret;
	if (g->want_runtime > g->period)
		return bench_usage(g->run.bench, "--rt-runtime %ld: above sched_rt_period_us %ld (1..%ld, or -1)",
				 g->want_runtime, g->period, g->period);
	return EXIT_OK;
}

static int throttle_set(struct gaps *g)
{
	long period;
	int ret;

	if (g->want_runtime == RUNTIME_UNSET)
		return EXIT_OK;
	ret = throttle_write(g->want_runtime);
	if (ret)
		return bench_error(EXIT_FAIL, "cannot write %ld to %s: %s (%s; or leave --rt-runtime out to measure the setting as it is)",
				 g->want_runtime, RUNTIME_PATH, strerror(-ret),
				 ret == -EACCES || ret == -EPERM ? "needs root" :
				 "the kernel refused it: SCHED_DEADLINE tasks or RT groups may need more");
	g->runtime_set = true;
	return throttle_read(&g->runtime, &period);
}

static void throttle_restore(struct gaps *g)
{
	int ret;

	if (!g->runtime_set)
		return;
	ret = throttle_write(g->old_runtime);
	if (ret)
		bench_error(EXIT_FAIL, "cannot put %s back to %ld: %s; do it by hand: echo %ld > %s",
			  RUNTIME_PATH, g->old_runtime, strerror(-ret),
			  g->old_runtime, RUNTIME_PATH);
	g->runtime_set = false;
}

/* the line */

static int line_request(struct gaps *g)
{
	struct udrv_request_config cfg = { .consumer = "udrv-bench-gaps",
					   .backend = g->backend };
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT };

	if (udrv_chip_request(g->chip, &cfg, 1, &g->line, &s, &g->req))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(g->chip));
	return EXIT_OK;
}

/*
 * Before the load starts: the chip, the line, and whether it is free (an
 * error now rather than after the load started). The line is requested
 * for the measurement after bench_begin(), so that the load's processes,
 * forked there, do not inherit the request and hold the line after udrv
 * is gone (they did: the next bench found it busy).
 */
static int line_open(struct gaps *g)
{
	bool wire;

	g->chip = udrv_chip_new();
	if (!g->chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(g->chip, g->chip_spec))
		return bench_error(EXIT_FAIL, "%s (or --no-line to only read the clock)",
				 udrv_chip_errmsg(g->chip));
	if (g->line >= udrv_chip_num_lines(g->chip))
		return bench_usage(g->run.bench, "--line %u: %s has lines 0..%u",
				 g->line, udrv_chip_name(g->chip),
				 udrv_chip_num_lines(g->chip) - 1);
	wire = !strcmp(udrv_chip_label(g->chip), "gpio-wire");
	if (wire && g->line % 2)
		return bench_usage(g->run.bench, "--line %u: gpio-wire's odd lines are inputs; give an even line",
				 g->line);
	if (line_request(g))
		return EXIT_FAIL;
	udrv_request_release(g->req);
	g->req = NULL;
	if (wire && !bench_wire_path(g->chip, g->wire_path, sizeof(g->wire_path)))
		bench_note_add(g->run.rows[0].note, sizeof(g->run.rows[0].note),
			       "toggles not counted at the source: this gpio-wire has no edges counter (an older module)");
	return EXIT_OK;
}

/* the loop */

static void gap_record(struct gaps *g, uint64_t start, uint64_t len)
{
	g->num_gaps++;
	g->stalled_ns += len;
	if (len > g->longest_ns) {
		g->longest_ns = len;
		g->longest_start_ns = start;
	}
	if (g->timeline_len == TIMELINE_MAX) {
		g->timeline_dropped++;
		return;
	}
	g->timeline[g->timeline_len++] = (struct gap){ start, len };
}

static int gaps_loop(struct gaps *g, struct bench_row *row)
{
	uint64_t n = bench_samples(&g->run, UINT64_MAX), t0, prev, now, d;
	struct udrv_request *req = g->req;
	int value = 1;

	t0 = prev = bench_now_ns();
	while (bench_more(&g->run, t0, g->toggles, n)) {
		if (req && udrv_request_set_value(req, 0, value))
			return bench_error(EXIT_FAIL, "%s", udrv_request_errmsg(req));
		value ^= 1;
		now = bench_now_ns();
		d = now - prev;
		udrv_hist_record(row->hist, d);
		if (d >= g->threshold_ns)
			gap_record(g, prev - t0, d);
		prev = now;
		g->toggles++;
		if (!(g->toggles & 0xffff))
			bench_progress(&g->run, row, g->toggles, n);
	}
	g->elapsed_ns = prev - t0;
	return EXIT_OK;
}

/*
 * sent: the toggles written; received: the level changes gpio-wire counted
 * on the wire; lost: none may be. A difference fails the bench.
 */
static int count_at_source(struct gaps *g, struct bench_row *row)
{
	struct bench_wire w;

	if (!g->wire_path[0] || bench_interrupted())
		return EXIT_OK;
	if (bench_wire_counts(g->wire_path, g->line + 1, &w))
		return EXIT_FAIL;
	row->has_loss = true;
	row->sent = g->toggles;
	row->received = w.driven - g->wire0.driven;
	row->lost = 0;
	if (row->sent == row->received)
		return EXIT_OK;
	return bench_error(EXIT_FAIL, "the loop made %llu toggles of %s line %u, but gpio-wire counted %llu level changes on the wire (%s)",
			 (unsigned long long)row->sent, udrv_chip_name(g->chip),
			 g->line, (unsigned long long)row->received, g->wire_path);
}

static int gaps_measure(struct gaps *g)
{
	struct bench_row *row = &g->run.rows[0];
	int ret = g->chip ? line_request(g) : EXIT_OK;

	if (!ret && g->wire_path[0])
		ret = bench_wire_counts(g->wire_path, g->line + 1, &g->wire0) ?
		      EXIT_FAIL : EXIT_OK;
	if (!ret)
		ret = throttle_set(g);
	if (!ret)
		ret = gaps_loop(g, row);
	throttle_restore(g);
	if (!ret)
		ret = count_at_source(g, row);
	return ret;
}

/* the results */

/* The gap RT throttling should leave each period, ns; 0: none expected. */
static uint64_t expected_gap_ns(const struct gaps *g)
{
	if (!g->run.o.prio || g->runtime < 0 || g->runtime >= g->period)
		return 0;
	return (uint64_t)(g->period - g->runtime) * 1000;
}

static double per_s(const struct gaps *g, uint64_t n)
{
	return g->elapsed_ns ? (double)n * 1e9 / (double)g->elapsed_ns : 0;
}

static void json_timeline(const struct gaps *g, struct udrv_json *j)
{
	udrv_json_key(j, "timeline");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < g->timeline_len; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "start_ns", g->timeline[i].start_ns);
		udrv_json_kuint(j, "gap_ns", g->timeline[i].len_ns);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
	udrv_json_kuint(j, "timeline_dropped", g->timeline_dropped);
}

static void gaps_json(const struct bench_run *run, struct udrv_json *j)
{
	const struct gaps *g = (const struct gaps *)run;
	uint64_t expect = expected_gap_ns(g);

	udrv_json_key(j, "gaps");
	udrv_json_obj_begin(j);
	udrv_json_kint(j, "sched_rt_runtime_us", g->runtime);
	udrv_json_kint(j, "sched_rt_period_us", g->period);
	udrv_json_key(j, "sched_rt_runtime_us_before");
	if (g->want_runtime == RUNTIME_UNSET)
		udrv_json_null(j);
	else
		udrv_json_int(j, g->old_runtime);
	udrv_json_kuint(j, "threshold_ns", g->threshold_ns);
	udrv_json_kuint(j, "duration_ns", g->elapsed_ns);
	udrv_json_kuint(j, "toggles", g->toggles);
	/* here, not as the row's rate_per_s: the row is a latency row */
	udrv_json_kdouble(j, "toggles_per_s", per_s(g, g->toggles));
	udrv_json_kuint(j, "longest_ns", g->longest_ns);
	udrv_json_kuint(j, "longest_start_ns", g->longest_start_ns);
	udrv_json_kuint(j, "count", g->num_gaps);
	udrv_json_kdouble(j, "per_s", per_s(g, g->num_gaps));
	udrv_json_kuint(j, "stalled_ns", g->stalled_ns);
	udrv_json_kdouble(j, "stalled_pct", g->elapsed_ns ?
			  100.0 * (double)g->stalled_ns / (double)g->elapsed_ns : 0);
	udrv_json_key(j, "expected_gap_ns");
	if (expect)
		udrv_json_uint(j, expect);
	else
		udrv_json_null(j);
	json_timeline(g, j);
	udrv_json_obj_end(j);
}

static void gaps_print(const struct gaps *g)
{
	uint64_t expect = expected_gap_ns(g);

	printf("run %.3f s, %llu toggles; gaps >= %.3f ms: %llu (%.2f per s), longest %.3f ms at %.3f s, stalled %.3f ms (%.2f%%)\n",
	       (double)g->elapsed_ns / 1e9, (unsigned long long)g->toggles,
	       (double)g->threshold_ns / 1e6, (unsigned long long)g->num_gaps,
	       per_s(g, g->num_gaps), (double)g->longest_ns / 1e6,
	       (double)g->longest_start_ns / 1e9, (double)g->stalled_ns / 1e6,
	       g->elapsed_ns ? 100.0 * (double)g->stalled_ns / (double)g->elapsed_ns : 0);
	printf("sched_rt_runtime_us %ld of sched_rt_period_us %ld%s: ", g->runtime,
	       g->period, g->want_runtime != RUNTIME_UNSET ? " (set for the run)" : "");
	if (expect)
		printf("expected a gap of %.3f ms every %.3f s\n", (double)expect / 1e6,
		       (double)g->period / 1e6);
	else if (!g->run.o.prio)
		printf("SCHED_OTHER is not throttled: no gap expected from it\n");
	else
		printf("no throttling: no gap expected from it\n");
	for (size_t i = 0; i < g->timeline_len && i < 20; i++)
		printf("  gap at %10.6f s: %9.3f ms\n",
		       (double)g->timeline[i].start_ns / 1e9,
		       (double)g->timeline[i].len_ns / 1e6);
	if (g->timeline_len > 20 || g->timeline_dropped)
		printf("  ... %llu more (the document has the first %d)\n",
		       (unsigned long long)(g->num_gaps - 20), TIMELINE_MAX);
}

/* setup and teardown */

static int gaps_setup(struct gaps *g)
{
	struct bench_row *row;
	int ret;

	row = bench_row(&g->run, g->no_line ? "clock" : udrv_backend_str(g->backend),
			"udrv", NULL, "toggle_gap");
	if (!row)
		return bench_error(EXIT_FAIL, "out of memory");
	snprintf(row->note, sizeof(row->note), "%s",
		 g->no_line ? "clock_gettime(CLOCK_MONOTONIC) only, nothing toggled" :
		 "udrv_request_set_value() then clock_gettime(CLOCK_MONOTONIC)");
	ret = throttle_check(g);
	if (!ret && !g->no_line)
		ret = line_open(g);
	return ret;
}

static void gaps_teardown(struct gaps *g)
{
	throttle_restore(g);
	udrv_request_release(g->req);
	udrv_chip_free(g->chip);
	free(g);
}

/*
 * libudrv's GPIO backends, "cdev, sysfs or mmio": each value of enum
 * udrv_backend from 0 whose udrv_backend_str() parses back to it, up to the
 * first that does not (the registry has no holes: tests/lib/test_backends.c).
 */
static void gaps_backend_names(char *buf, size_t len)
{
	const char *name[BACKENDS_MAX];
	enum udrv_backend b;
	size_t n, off = 0;

	for (n = 0; n < BACKENDS_MAX; n++) {
		name[n] = udrv_backend_str((enum udrv_backend)n);
		if (udrv_backend_parse(name[n], &b) || b != (enum udrv_backend)n)
			break;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		const char *sep = !i ? "" : i + 1 < n ? ", " : " or ";
		int w = snprintf(buf + off, len - off, "%s%s", sep, name[i]);

		if (w < 0)
			break;
		off += (size_t)w;
	}
}

BENCH_COMMAND(gaps,
		"the scheduler's gaps in a busy SCHED_FIFO loop (RT throttling)");

int cmd_bench_gaps(int argc, char **argv)
{
	struct gaps *g = calloc(1, sizeof(*g));
	char help[sizeof(help_fmt) + sizeof(g->backends)];
	int ret;

	if (!g)
		return bench_error(EXIT_FAIL, "out of memory");
	gaps_backend_names(g->backends, sizeof(g->backends));
	snprintf(help, sizeof(help), help_fmt, g->backends,
		 udrv_backend_str(UDRV_BACKEND_CDEV));
	g->chip_spec = "gpio-wire";
	g->backend = UDRV_BACKEND_CDEV;
	g->threshold_ns = DEFAULT_THRESHOLD_NS;
	g->want_runtime = RUNTIME_UNSET;
	ret = bench_parse(&g->run, "gaps", argc, argv, help, "c:b:",
			  long_opts, gaps_opt, g);
	if (!ret && optind < argc)
		ret = bench_usage(g->run.bench, "unexpected argument '%s'", argv[optind]);
	if (ret) {
		free(g);
		return ret < 0 ? EXIT_OK : ret;
	}
	if (!g->run.o.duration_ns && !g->run.o.samples)
		g->run.o.duration_ns = DEFAULT_DURATION_NS;
	g->run.json_extra = gaps_json;
	ret = gaps_setup(g);
	if (!ret) {
		ret = bench_begin(&g->run);
		if (!ret)
			ret = gaps_measure(g);
		ret = bench_end(&g->run, ret);
		if (!ret && !g->run.o.json)
			gaps_print(g);
	} else {
		for (size_t i = 0; i < g->run.num_rows; i++)
			udrv_hist_free(g->run.rows[i].hist);
	}
	gaps_teardown(g);
	return ret;
}
