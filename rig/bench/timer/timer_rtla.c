// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench timer's second reference: rtla timerlat (Linux's rtla, Debian
 * package rtla), where the kernel has the timerlat tracer (Debian 12: the
 * PREEMPT_RT kernel only).
 *
 * The timerlat tracer arms a per-CPU hrtimer every period and records two
 * latencies from the time the timer was due: when its IRQ handler runs
 * (irq_latency) and when the kernel thread it wakes runs (thread_latency,
 * what a woken task sees; cyclictest and the udrv loop measure the same
 * thing from user space). `rtla timerlat hist -n -b 1` prints every sample
 * in a 1 ns bucket below RTLA_RANGE_NS, so the rows hold the samples rtla
 * saw and their percentiles are real; rtla_hist.c checks its text against
 * its own summary.
 *
 * rtla 6.1 runs for whole seconds (-d), not a number of samples: it runs
 * for the udrv row's samples x period rounded up to a second, and each row's
 * note says how many samples that asked for.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "core/parsers/rtla_hist.h"
#include "timer_rtla.h"
#include "tool.h"

#define RTLA_RANGE_NS	100000ULL	/* -E: 1 ns buckets below 100 us */
#define RTLA_MIN_PERIOD	100ULL		/* us: the kernel's timerlat limits */
#define RTLA_MAX_PERIOD	1000000ULL
#define RTLA_MAX_ARGS	24
#define RTLA_ARG_LEN	48
#define RTLA_MAX_OUT	(256u << 20)	/* bytes of output read at most */
/*
 * rtla's own process: SCHED_FIFO 1. The samples are taken by the kernel's
 * timerlat threads (-P f:PRIO), but rtla's main process collects them from
 * the trace buffer every second and ends the run, and its start (reading
 * every event format) is long: at SCHED_OTHER it starves behind a
 * SCHED_OTHER load (`--load all` on the rt kernel: `rtla timerlat hist -d 1`
 * took 31 s of guest time). At 1 it runs before any such load and after every task of the
 * bench's priority, so it never delays the threads it measures; with
 * --prio 0 or 1 it keeps SCHED_OTHER (it must not preempt them). rtla 6.1
 * has no option for its own priority (-P is the timerlat threads').
 */
#define RTLA_COLLECTOR_PRIO	1
#define NS_PER_S	1000000000ULL

/* What rtla sets in tracefs for the run, put back if it did not (killed). */
static const char *const rtla_settings[] = {
	"osnoise/timerlat_period_us",
	"osnoise/cpus",
};
#define RTLA_NSETTINGS	(sizeof(rtla_settings) / sizeof(rtla_settings[0]))
#define RTLA_INSTANCE	"instances/timerlat_hist"	/* rtla 6.1's */

struct rtla_run {
	char tracefs[192];	/* bench_tracefs_dir() */
	char path[256];
	uint64_t period_us;
	uint64_t seconds;	/* -d */
	uint64_t asked;		/* samples per CPU that asks for */
	char *saved[RTLA_NSETTINGS];
};

/* Does the kernel have the timerlat tracer? 0, or -1 with @why set. */
static int have_timerlat(struct rtla_run *r, char *why, size_t len)
{
	const char *sep = " \t\n";
	char *buf = NULL, *tok, *save, path[sizeof(r->tracefs) + 24];
	bool found = false;

	if (!bench_tracefs_dir("available_tracers", r->tracefs, sizeof(r->tracefs))) {
		snprintf(path, sizeof(path), "%s/available_tracers", r->tracefs);
		buf = bench_slurp(path, NULL);
	}
	if (!buf) {
		snprintf(why, len, "tracefs is not mounted (no %s%s: mount -t tracefs nodev %s)",
			 bench_sysroot(), BENCH_TRACEFS, BENCH_TRACEFS);
		return -1;
	}
	for (tok = strtok_r(buf, sep, &save); tok && !found; tok = strtok_r(NULL, sep, &save))
		found = !strcmp(tok, "timerlat");
	free(buf);
	if (found)
		return 0;
	snprintf(why, len, "no timerlat tracer in this kernel (%s)",
		 "CONFIG_TIMERLAT_TRACER; Debian 12: the rt kernel");
	return -1;
}

/* rtla's path from --rtla or PATH; 0, or -1 with @why set. */
static int find_rtla(const char *spec, char *path, size_t plen, char *why, size_t len)
{
	if (spec) {
		if (access(spec, X_OK) == 0) {
			snprintf(path, plen, "%s", spec);
			return 0;
		}
		snprintf(why, len, "%.60s: %s", spec, strerror(errno));
		return -1;
	}
	if (!bench_which("rtla", path, plen))
		return 0;
	snprintf(why, len, "rtla is not on PATH (Debian: apt-get install rtla)");
	return -1;
}

static void rtla_argv(const struct bench_run *run, struct rtla_run *r,
		      char bufs[][RTLA_ARG_LEN], char **argv)
{
	const struct bench_opts *o = &run->o;
	int k = 0, b = 0;

	argv[k++] = r->path;
	argv[k++] = "timerlat";
	argv[k++] = "hist";
	argv[k++] = "-n";
#define ARG(...) (snprintf(bufs[b], RTLA_ARG_LEN, __VA_ARGS__), argv[k++] = bufs[b++])
	ARG("--period=%llu", (unsigned long long)r->period_us);
	ARG("--duration=%llu", (unsigned long long)r->seconds);
	if (o->prio)
		ARG("--priority=f:%d", o->prio);
	else
		argv[k++] = "--priority=o:0";
	if (o->cpu >= 0)
		ARG("--cpus=%d", o->cpu);
	if (o->dma_latency)
		argv[k++] = "--dma-latency=0";
	argv[k++] = "--bucket-size=1";
	ARG("--entries=%llu", RTLA_RANGE_NS);
#undef ARG
	argv[k] = NULL;
}

/* Whole seconds for @samples periods, and the samples that makes per CPU. */
static int rtla_plan(struct rtla_run *r, uint64_t interval_ns, uint64_t samples,
		     char *why, size_t len)
{
	r->period_us = interval_ns / 1000;
	if (r->period_us < RTLA_MIN_PERIOD || r->period_us > RTLA_MAX_PERIOD) {
		snprintf(why, len, "timerlat's period is %llu us..1 s, not %llu us (--interval-us)",
			 RTLA_MIN_PERIOD, (unsigned long long)r->period_us);
		return -1;
	}
	if (samples > UINT32_MAX / 4)	/* 2 x asked: what rtla_hist_parse() */
		samples = UINT32_MAX / 4;	/* takes (it counts in 32 bits) */
	r->seconds = (samples * interval_ns + NS_PER_S - 1) / NS_PER_S;
	if (!r->seconds)
		r->seconds = 1;
	r->asked = r->seconds * NS_PER_S / interval_ns;
	return 0;
}

static void row_note(struct bench_row *row, const struct rtla_run *r,
		     const struct rtla_hist *h, enum rtla_ctx c)
{
	const struct rtla_stats *s = &h->ctx[c];
	uint64_t asked = r->asked * h->cpus;

	snprintf(row->note, sizeof(row->note),
		 "rtla timerlat hist -n -b 1 -E %llu: %s; %llu s at %llu us%s: %llu samples asked, %llu counted",
		 RTLA_RANGE_NS, c == RTLA_IRQ ? "the timer's IRQ" : "the woken kernel thread",
		 (unsigned long long)r->seconds,
		 (unsigned long long)r->period_us, h->cpus > 1 ? " per CPU" : "",
		 (unsigned long long)asked, (unsigned long long)s->count);
	if (s->over)
		bench_note_add(row->note, sizeof(row->note),
			       "%llu >= %llu ns at their lower bound, one at its max",
			       (unsigned long long)s->over, RTLA_RANGE_NS);
	if (h->cpus > 1)
		bench_note_add(row->note, sizeof(row->note), "%u CPUs", h->cpus);
	if (bench_interrupted())
		bench_note_add(row->note, sizeof(row->note), "stopped early: interrupted");
}

/* Parse rtla's stdout into its two rows; 0, or -1 with @why set. */
static int rtla_rows(struct bench_run *run, const struct bench_tool *tool,
		     const struct rtla_run *r, char *why, size_t len)
{
	static const char *const sample[RTLA_NCTX] = { "irq_latency", "thread_latency" };
	struct udrv_hist *h[RTLA_NCTX] = { udrv_hist_new(), udrv_hist_new() };
	char path[BENCH_TOOL_DIR_LEN + 8], perr[200];
	struct bench_row *row;
	struct rtla_hist res;
	size_t n = 0;
	char *out;
	int ret = -1;

	bench_tool_file(tool, "out", path, sizeof(path));
	out = bench_slurp(path, &n);
	if (!h[0] || !h[1] || !out) {
		snprintf(why, len, "reading its output: %s", strerror(errno));
	} else if (n > RTLA_MAX_OUT) {
		snprintf(why, len, "its output is over %u bytes", RTLA_MAX_OUT);
	} else if (rtla_hist_parse(out, n, RTLA_RANGE_NS, 2 * r->asked + 16, h, &res,
				   perr, sizeof(perr))) {
		snprintf(why, len, "its output does not add up: %s", perr);
	} else {
		for (int c = 0; c < RTLA_NCTX; c++) {
			row = bench_row(run, "hrtimer", "rtla-timerlat", NULL, sample[c]);
			if (!row)
				break;
			udrv_hist_merge(row->hist, h[c]);
			row_note(row, r, &res, c);
		}
		ret = 0;
	}
	free(out);
	udrv_hist_free(h[0]);
	udrv_hist_free(h[1]);
	return ret;
}

static void rtla_save(struct rtla_run *r)
{
	char path[sizeof(r->tracefs) + 40];

	for (size_t i = 0; i < RTLA_NSETTINGS; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->tracefs, rtla_settings[i]);
		r->saved[i] = bench_slurp(path, NULL);
	}
}

static void put_back(const char *path, const char *value)
{
	size_t n = strlen(value);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0 || write(fd, value, n) != (ssize_t)n)
		fprintf(stderr, "udrv-bench: warning: cannot put back %s (%s): %s\n",
			path, value, strerror(errno));
	else
		fprintf(stderr, "udrv-bench: rtla left %s changed: put back\n", path);
	if (fd >= 0)
		close(fd);
}

/*
 * rtla puts back what it changed when it ends, even after SIGINT; killed,
 * it cannot: remove its instance (which stops its tracer) and restore the
 * settings it had changed.
 */
static void rtla_restore(struct rtla_run *r)
{
	char path[sizeof(r->tracefs) + 40], *now;

	snprintf(path, sizeof(path), "%s/%s", r->tracefs, RTLA_INSTANCE);
	if (!access(path, F_OK)) {
		if (rmdir(path))
			fprintf(stderr, "udrv-bench: warning: cannot remove rtla's %s: %s (rmdir it)\n",
				path, strerror(errno));
		else
			fprintf(stderr, "udrv-bench: rtla left %s: removed\n", path);
	}
	for (size_t i = 0; i < RTLA_NSETTINGS; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->tracefs, rtla_settings[i]);
		now = bench_slurp(path, NULL);
		if (r->saved[i] && now && strcmp(now, r->saved[i]))
			put_back(path, r->saved[i]);
		free(now);
		free(r->saved[i]);
		r->saved[i] = NULL;
	}
}

/* Run rtla and add its rows; 0, or -1 with @why set. */
static int rtla_measure(struct bench_run *run, struct rtla_run *r, char *why, size_t len)
{
	struct bench_tool tool = {
		.name = "rtla", .stop_signal = SIGINT,
		.fifo_prio = run->o.prio > RTLA_COLLECTOR_PRIO ? RTLA_COLLECTOR_PRIO : 0,
	};
	char bufs[RTLA_MAX_ARGS][RTLA_ARG_LEN], *argv[RTLA_MAX_ARGS], msg[120];
	int ret;

	if (bench_tool_mkdir(&tool, why, len))
		return -1;
	rtla_argv(run, r, bufs, argv);
	rtla_save(r);
	ret = bench_tool_run(&tool, argv, msg, sizeof(msg));
	rtla_restore(r);
	if (ret)
		snprintf(why, len, "%s", msg);
	else
		ret = rtla_rows(run, &tool, r, why, len);
	bench_tool_rmdir(&tool);
	return ret;
}

void timer_rtla(struct bench_run *run, const char *spec, uint64_t interval_ns,
		uint64_t samples, struct bench_row *udrv)
{
	struct rtla_run r = { 0 };
	char why[200];

	if (spec && !strcmp(spec, "none"))
		snprintf(why, sizeof(why), "--rtla none");
	else if (!have_timerlat(&r, why, sizeof(why)) &&
		 !find_rtla(spec, r.path, sizeof(r.path), why, sizeof(why)) &&
		 !rtla_plan(&r, interval_ns, samples, why, sizeof(why)) &&
		 !rtla_measure(run, &r, why, sizeof(why)))
		return;
	bench_note_add(udrv->note, sizeof(udrv->note), "no rtla rows: %s", why);
	if (!run->o.quiet)
		fprintf(stderr, "udrv-bench: note: no rtla rows: %s\n", why);
}
