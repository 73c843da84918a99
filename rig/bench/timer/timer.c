// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench timer: the timer wake-up baseline, cyclictest style.
 *
 * The udrv row sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)
 * until the next multiple of --interval-us and records wake time -
 * programmed time, exactly like cyclictest's measurement loop (an overrun
 * skips to the next period in the future). Then, one after the other on the
 * same CPU, Debian's cyclictest (rt-tests) runs with the same priority,
 * interval, number of loops and mlock setting: its row is the udrv row's
 * reference.
 *
 * Every cyclictest sample is taken over exactly: with -N it measures in ns,
 * and its histogram (-h) then has 1 ns buckets; samples at or above the
 * histogram's range are listed one by one by --spike. So the cyclictest row
 * holds the same samples cyclictest saw, and its min/avg/max are its own
 * (checked against its summary, which the row's note quotes). Its files are
 * read strictly (cyclictest_out.c): one that is not what cyclictest prints
 * leaves the row out, the udrv row's note saying which file and line.
 *
 * Without cyclictest (not installed, --cyclictest none, or it failed) the
 * udrv row still runs; its note says why it has no reference.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "benches.h"
#include "core/parsers/cyclictest_out.h"
#include "spike.h"
#include "timer_rtla.h"
#include "tool.h"

#define DEFAULT_SAMPLES		10000
#define DEFAULT_INTERVAL_US	1000
#define CT_HIST_NS		100000	/* cyclictest -h range with -N: 100 us */
#define CT_MAX_ARGS		24
#define CT_ARG_LEN		128
#define CT_MAX_SPIKES		100000	/* --spike-nodes: samples >= the range */
/*
 * cyclictest's main thread: SCHED_FIFO 1, as rtla's process (timer_rtla.c).
 * It measures nothing (its thread at --priority does), but it sees that
 * thread end and writes the histogram file: at SCHED_OTHER, under --load
 * all, `udrv-bench timer -n 1000 --rtla none` took 6.1 s of guest time on
 * std, 2.5 s at 1 (the udrv row alone: 1.1 s), its row unchanged. As rtla,
 * SCHED_OTHER with --prio 0 or 1, so it never preempts what is measured.
 */
#define CT_MAIN_PRIO		1

struct timer {
	struct bench_run run;
	uint64_t interval_ns;
	const char *ct_spec;		/* --cyclictest; NULL: on PATH */
	const char *rtla_spec;		/* --rtla; NULL: on PATH */
	char ct_path[PATH_MAX];		/* "" when there is none */
	char ct_why[160];		/* why there is no cyclictest row */
	uint64_t overruns;
};

static const char help[] =
"Usage: udrv-bench timer [OPTIONS]\n"
"\n"
"Timer wake-up latency, the baseline every other latency is read against:\n"
"sleep with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until the next\n"
"period and record wake time - programmed time (the udrv row). Then run\n"
"cyclictest (rt-tests) with the same priority, interval, loops and mlock\n"
"setting, one after the other: its row is the reference, with every one of\n"
"its samples in ns (-N, 1 ns histogram buckets, --spike for the tail),\n"
"its files read strictly: text that is not what cyclictest prints, or\n"
"that does not add up, leaves its row out ('cyclictest's output: hist:\n"
"line N: ...'). Without cyclictest the udrv row still runs, with a note.\n"
"\n"
"Where the kernel has the timerlat tracer (Debian 12: the rt kernel) and\n"
"rtla is installed, 'rtla timerlat hist' runs next, as long (whole\n"
"seconds), at the same period, priority and CPU: two more rows, the latency\n"
"of the timer's IRQ (irq_latency) and of the kernel thread it wakes\n"
"(thread_latency), every sample in ns. The first is the hardware and the\n"
"interrupt entry, the rest of the second the scheduler's wake-up.\n"
"rtla's own process, which collects the samples, and cyclictest's main\n"
"thread run at SCHED_FIFO 1: above a SCHED_OTHER load, which would starve\n"
"them (under --load all a 1 s rtla run took 31 s), below the threads they\n"
"measure (SCHED_OTHER with -P 0 or 1).\n"
"\n"
"Options:\n"
"  -i, --interval-us N   period in us (default 1000)\n"
"      --cyclictest PATH  the cyclictest to run (default: cyclictest on\n"
"                        PATH; 'none': no reference row)\n"
"  -n, --samples N       wake-ups per row (default 10000)\n"
TIMER_RTLA_HELP
"\n"
BENCH_OPTS_HELP
"\n"
"Example:\n"
"  udrv-bench timer -n 100000 --load hackbench\n";

/* long-only options: values below the common ones (0x100), not in their short set */
enum { OPT_CYCLICTEST = 'C', OPT_RTLA = 'R' };

static const struct option long_opts[] = {
	{ "interval-us", required_argument, NULL, 'i' },
	{ "cyclictest", required_argument, NULL, OPT_CYCLICTEST },
	{ "rtla", required_argument, NULL, OPT_RTLA },
	{ NULL, 0, NULL, 0 },
};

static int timer_opt(struct bench_run *run, int opt, const char *arg,
		     void *ctx)
{
	struct timer *t = ctx;
	int64_t v;

	switch (opt) {
	case 'i':
		if (udrv_parse_s64(arg, 10, 10000000, &v))
			return bench_usage(run->bench, "bad --interval-us '%s': 10..10000000", arg);
		t->interval_ns = (uint64_t)v * 1000;
		return 0;
	case OPT_CYCLICTEST:
		t->ct_spec = arg;
		return 0;
	case OPT_RTLA:
		t->rtla_spec = arg;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* Find cyclictest: --cyclictest PATH, else the first one on PATH. */
static void find_cyclictest(struct timer *t)
{
	t->ct_path[0] = '\0';
	if (t->ct_spec && !strcmp(t->ct_spec, "none")) {
		snprintf(t->ct_why, sizeof(t->ct_why), "no cyclictest row: --cyclictest none");
		return;
	}
	if (t->ct_spec) {
		if (access(t->ct_spec, X_OK) == 0)
			snprintf(t->ct_path, sizeof(t->ct_path), "%s", t->ct_spec);
		else
			snprintf(t->ct_why, sizeof(t->ct_why),
				 "no cyclictest row: %.60s: %s", t->ct_spec, strerror(errno));
		return;
	}
	if (bench_which("cyclictest", t->ct_path, sizeof(t->ct_path)))
		snprintf(t->ct_why, sizeof(t->ct_why),
			 "no cyclictest row: cyclictest is not on PATH (Debian: apt-get install rt-tests)");
}

static struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000ULL),
				  .tv_nsec = (long)(ns % 1000000000ULL) };
}

/* The udrv row: cyclictest's loop (clock_nanosleep mode, absolute timer). */
static int timer_udrv(struct timer *t, struct bench_row *row, uint64_t *done)
{
	uint64_t n = bench_samples(&t->run, DEFAULT_SAMPLES);
	uint64_t next = bench_now_ns() + t->interval_ns, now, t0, i;
	struct timespec ts;
	int ret;

	for (t0 = bench_now_ns(), i = 0; bench_more(&t->run, t0, i, n); i++) {
		ts = ns_to_ts(next);
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (ret)
			return bench_error(EXIT_FAIL, "clock_nanosleep: %s", strerror(ret));
		now = bench_now_ns();
		udrv_hist_record(row->hist, now > next ? now - next : 0);
		bench_spike_check(row, next, now);
		for (next += t->interval_ns; now > next; next += t->interval_ns)
			t->overruns++;
		bench_progress(&t->run, row, i, n);
	}
	*done = i;
	return EXIT_OK;
}

/* --spike-nodes: the spikes it lists at most (it counts them all). */
static uint64_t ct_nodes(uint64_t loops)
{
	return loops < CT_MAX_SPIKES ? loops : CT_MAX_SPIKES;
}

/* cyclictest's command line for @loops wake-ups, files in @dir. */
static void ct_argv(const struct timer *t, uint64_t loops, const char *dir,
		    char bufs[][CT_ARG_LEN], char **argv)
{
	const struct bench_opts *o = &t->run.o;
	int k = 0, b = 0;

	argv[k++] = (char *)t->ct_path;
	argv[k++] = "-q";
	argv[k++] = "-N";
#define ARG(...) (snprintf(bufs[b], CT_ARG_LEN, __VA_ARGS__), argv[k++] = bufs[b++])
	ARG("--interval=%llu", (unsigned long long)(t->interval_ns / 1000));
	ARG("--loops=%llu", (unsigned long long)loops);
	if (o->prio)
		ARG("--priority=%d", o->prio);
	else
		argv[k++] = "--policy=other";
	if (o->mlock)
		argv[k++] = "-m";
	if (o->cpu >= 0)
		ARG("--affinity=%d", o->cpu);
	if (!o->dma_latency)
		argv[k++] = "--default-system";
	ARG("--histogram=%d", CT_HIST_NS);
	ARG("--spike=%d", CT_HIST_NS - 1);
	ARG("--spike-nodes=%llu", (unsigned long long)ct_nodes(loops));
	ARG("--histfile=%s/hist", dir);
#undef ARG
	argv[k] = NULL;
}

/* Run cyclictest to the end; returns 0, or sets t->ct_why. */
static int ct_run(struct timer *t, struct bench_tool *tool, uint64_t loops)
{
	char bufs[CT_MAX_ARGS][CT_ARG_LEN], *argv[CT_MAX_ARGS], why[120];

	ct_argv(t, loops, tool->dir, bufs, argv);
	if (!bench_tool_run(tool, argv, why, sizeof(why)))
		return 0;
	snprintf(t->ct_why, sizeof(t->ct_why), "no cyclictest row: %s", why);
	return -1;
}

/* One of cyclictest's files, whole; NULL with t->ct_why set. */
static char *ct_slurp(struct timer *t, const struct bench_tool *tool,
		      const char *file, size_t *len)
{
	char path[BENCH_TOOL_DIR_LEN + 8];
	char *text;

	bench_tool_file(tool, file, path, sizeof(path));
	text = bench_slurp(path, len);
	if (!text)
		snprintf(t->ct_why, sizeof(t->ct_why),
			 "no cyclictest row: it left no %s (%s)", file, strerror(errno));
	return text;
}

/*
 * Read its histogram file and its stdout (cyclictest_out.h) into @h; 0, or
 * -1 with t->ct_why saying which file and line is not what cyclictest
 * prints.
 */
static int ct_read(struct timer *t, const struct bench_tool *tool,
		   uint64_t loops, struct udrv_hist *h, struct ct_hist *hres,
		   struct ct_spikes *sres)
{
	char *hist, *out, why[128];
	const char *file = "hist";
	size_t hlen, olen;
	int ret = -1;

	hist = ct_slurp(t, tool, "hist", &hlen);
	out = hist ? ct_slurp(t, tool, "out", &olen) : NULL;
	if (out) {
		ret = ct_hist_parse(hist, hlen, CT_HIST_NS, loops, h, hres, why, sizeof(why));
		if (!ret) {
			file = "out";
			ret = ct_spikes_parse(out, olen, CT_HIST_NS, ct_nodes(loops), loops,
					      h, sres, why, sizeof(why));
		}
		if (ret)
			snprintf(t->ct_why, sizeof(t->ct_why),
				 "no cyclictest row: cyclictest's output: %s: %s", file, why);
	}
	free(hist);
	free(out);
	return ret ? -1 : 0;
}

/* Fill the cyclictest row; check its samples against its summary. */
static void ct_fill(struct bench_row *row, const struct udrv_hist *h,
		    const struct ct_hist *hres, const struct ct_spikes *sres,
		    uint64_t loops)
{
	char why[128] = "";
	bool ok;

	udrv_hist_merge(row->hist, h);
	ok = !ct_out_check(hres, sres, why, sizeof(why));
	if (ok && udrv_hist_count(h) != loops && !bench_interrupted())
		snprintf(why, sizeof(why), "%llu samples of the %llu asked for",
			 (unsigned long long)udrv_hist_count(h), (unsigned long long)loops);
	ok = !why[0];
	snprintf(row->note, sizeof(row->note),
		 "cyclictest -N: every sample in ns (1 ns buckets < %d ns, --spike above); its summary: min %llu avg %llu max %llu%s",
		 CT_HIST_NS, (unsigned long long)hres->min,
		 (unsigned long long)hres->avg, (unsigned long long)hres->max,
		 ok ? "" : " (MISMATCH with its samples)");
	if (!ok)
		fprintf(stderr, "udrv-bench: warning: cyclictest's summary does not match its samples: %s\n",
			why);
}

/* The reference row, when cyclictest is there and works. */
static struct bench_row *timer_cyclictest(struct timer *t, uint64_t loops)
{
	struct bench_tool tool = {
		.name = "cyclictest", .stop_signal = SIGINT,
		.fifo_prio = t->run.o.prio > CT_MAIN_PRIO ? CT_MAIN_PRIO : 0,
	};
	struct udrv_hist *h = udrv_hist_new();
	struct bench_row *row = NULL;
	struct ct_spikes sres;
	struct ct_hist hres;
	char why[80];

	if (!h) {
		snprintf(t->ct_why, sizeof(t->ct_why), "no cyclictest row: out of memory");
		return NULL;
	}
	if (bench_tool_mkdir(&tool, why, sizeof(why))) {
		snprintf(t->ct_why, sizeof(t->ct_why), "no cyclictest row: %s", why);
		udrv_hist_free(h);
		return NULL;
	}
	if (!ct_run(t, &tool, loops) && !ct_read(t, &tool, loops, h, &hres, &sres)) {
		row = bench_row(&t->run, "clock_nanosleep", "cyclictest", NULL, "wakeup");
		if (row)
			ct_fill(row, h, &hres, &sres, loops);
	}
	bench_tool_rmdir(&tool);
	udrv_hist_free(h);
	return row;
}

static int timer_rows(struct timer *t)
{
	struct bench_row *row, *ref = NULL;
	uint64_t done = 0;
	int ret;

	row = bench_row(&t->run, "clock_nanosleep", "udrv", NULL, "wakeup");
	if (!row)
		return bench_error(EXIT_FAIL, "out of memory");
	ret = timer_udrv(t, row, &done);
	if (ret)
		return ret;
	if (t->ct_path[0] && done)
		ref = timer_cyclictest(t, done);
	if (ref) {
		row->reference = bench_row_index(&t->run, ref);
	} else {
		bench_note_add(row->note, sizeof(row->note), "%s", t->ct_why);
		if (!t->run.o.quiet)
			fprintf(stderr, "udrv-bench: note: %s\n", t->ct_why);
	}
	if (done)
		timer_rtla(&t->run, t->rtla_spec, t->interval_ns, done, row);
	if (t->overruns)
		bench_note_add(row->note, sizeof(row->note), "%llu periods overrun (skipped, as cyclictest does)",
			 (unsigned long long)t->overruns);
	return EXIT_OK;
}

BENCH_COMMAND(timer,
		"clock_nanosleep wake-up, with cyclictest and rtla as references");

int cmd_bench_timer(int argc, char **argv)
{
	struct timer *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return bench_error(EXIT_FAIL, "out of memory");
	t->interval_ns = DEFAULT_INTERVAL_US * 1000ULL;
	t->run.traceable = true;
	ret = bench_parse(&t->run, "timer", argc, argv, help, "i:",
			  long_opts, timer_opt, t);
	if (!ret && optind < argc)
		ret = bench_usage(t->run.bench, "unexpected argument '%s'", argv[optind]);
	if (ret) {
		free(t);
		return ret < 0 ? EXIT_OK : ret;
	}
	find_cyclictest(t);
	ret = bench_begin(&t->run);
	if (!ret)
		ret = timer_rows(t);
	ret = bench_end(&t->run, ret);
	free(t);
	return ret;
}
