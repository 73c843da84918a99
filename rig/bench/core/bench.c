// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark framework: common options, RT setup through libudrv, rows,
 * progress, and the result document / table (see bench.h, docs/rig/results.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "spike.h"

enum {
	OPT_NO_MLOCK = 0x100,
	OPT_NO_DMA,
	OPT_BOARD,
	OPT_IRQ_PRIO,
	OPT_SPIKE,
	OPT_SPIKE_OUT,
};

static const struct option common_long[] = {
	{ "prio", required_argument, NULL, 'P' },
	{ "cpu", required_argument, NULL, 'a' },
	{ "no-mlock", no_argument, NULL, OPT_NO_MLOCK },
	{ "no-dma-latency", no_argument, NULL, OPT_NO_DMA },
	{ "samples", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'D' },
	{ "load", required_argument, NULL, 'L' },
	{ "board", required_argument, NULL, OPT_BOARD },
	{ "irq-prio", required_argument, NULL, OPT_IRQ_PRIO },
	{ "trace-on-spike", required_argument, NULL, OPT_SPIKE },
	{ "spike-out", required_argument, NULL, OPT_SPIKE_OUT },
	{ "out", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
};
#define COMMON_SHORT "P:a:n:D:L:o:jqh"

/* One of ours (short or long-only), or '?': not the bench's own option. */
static bool is_common_opt(int opt)
{
	if (opt >= OPT_NO_MLOCK)
		return opt <= OPT_SPIKE_OUT;
	return opt == '?' || (opt > 0 && opt < 256 && opt != ':' &&
			      strchr(COMMON_SHORT, opt));
}

static int common_opt(struct bench_run *run, int opt, const char *arg)
{
	const char *cmd = run->bench;
	int64_t v;

	switch (opt) {
	case 'P':
		if (udrv_parse_s64(arg, 0, 99, &v))
			return bench_usage(cmd, "bad --prio '%s': 0..99", arg);
		run->o.prio = (int)v;
		return 0;
	case 'a':
		if (udrv_parse_s64(arg, 0, CPU_SETSIZE - 1, &v))
			return bench_usage(cmd, "bad --cpu '%s'", arg);
		run->o.cpu = (int)v;
		return 0;
	case OPT_NO_MLOCK:
		run->o.mlock = false;
		return 0;
	case OPT_NO_DMA:
		run->o.dma_latency = false;
		return 0;
	case 'n':
		if (udrv_parse_u64(arg, UINT64_MAX, &run->o.samples) || !run->o.samples)
			return bench_usage(cmd, "bad --samples '%s'", arg);
		return 0;
	case 'D':
		if (udrv_parse_duration_ns(arg, BENCH_DURATION_MAX_NS, &run->o.duration_ns) ||
		    !run->o.duration_ns)
			return bench_usage(cmd, "bad --duration '%s': e.g. 10s, 500ms", arg);
		return 0;
	case 'L':
		if (!load_profile_valid(arg))
			return bench_usage(cmd, "unknown load profile '%s': hackbench, memory, fork or all", arg);
		run->o.load = strcmp(arg, "none") ? arg : NULL;
		return 0;
	case OPT_BOARD:
		run->o.board = arg;
		return 0;
	case OPT_IRQ_PRIO:
		if (udrv_parse_s64(arg, 1, 99, &v))
			return bench_usage(cmd, "bad --irq-prio '%s': a SCHED_FIFO priority, 1..99", arg);
		run->o.irq_prio = (int)v;
		return 0;
	case OPT_SPIKE:
		if (udrv_parse_s64(arg, 1, SPIKE_MAX_US, &v))
			return bench_usage(cmd, "bad --trace-on-spike '%s': a latency in us, 1..%d", arg, SPIKE_MAX_US);
		run->o.spike_ns = (uint64_t)v * 1000;
		return 0;
	case OPT_SPIKE_OUT:
		if (!*arg)
			return bench_usage(cmd, "bad --spike-out '': a file name");
		run->o.spike_out = arg;
		return 0;
	case 'o':
		run->o.out = arg;
		return 0;
	case 'j':
		run->o.json = true;
		return 0;
	case 'q':
		run->o.quiet = true;
		return 0;
	default:
		return bench_usage(cmd, "bad option");
	}
}

static const char bench_opts_help[] =
"Common options:\n"
"  -P, --prio N        SCHED_FIFO priority (default 80; 0: SCHED_OTHER)\n"
"  -a, --cpu N         pin to CPU N (default: no pinning)\n"
"      --irq-prio N    run the threads the wake-ups go through (the irq\n"
"                      thread of the interrupt, uio-ticker's notifier) at\n"
"                      SCHED_FIFO N, 1..99, while measuring (default: as\n"
"                      they are; 50 on PREEMPT_RT): above --prio is the\n"
"                      usual RT tuning\n"
"      --no-mlock      don't mlockall() (default: locked, stack prefaulted)\n"
"      --no-dma-latency  don't hold /dev/cpu_dma_latency at 0\n"
"  -n, --samples N     samples per row (default: per bench)\n"
"  -D, --duration D    run each row for D (e.g. 10s) instead of -n\n"
"  -L, --load PROFILE  run a load while measuring: hackbench, memory, fork,\n"
"                      all (see 'udrv-bench load --help'); default none\n"
"      --board NAME    board label in the results (default: detected)\n"
"  -o, --out FILE      also write the JSON result document to FILE\n"
"  -j, --json          print the JSON result document instead of a table\n"
"  -q, --quiet         no live progress line\n"
"      --trace-on-spike US  (irq, uio, pci, timer, reply, pwm) trace the\n"
"                      scheduler and interrupts with ftrace; at the first\n"
"                      sample above US microseconds stop, save the trace\n"
"                      around it and say what ran on the bench's CPU\n"
"                      during it: the cause (needs root and tracefs; put\n"
"                      back afterwards)\n"
"      --spike-out FILE  the spike's trace (default: --out's name with\n"
"                      .spike.txt, else ./udrv-BENCH-spike.txt)\n";

/* A bench's help, the common options in place of BENCH_OPTS_MARKER. */
static void bench_print_help(const char *help)
{
	const char *mark = strstr(help, BENCH_OPTS_MARKER "\n");

	if (!mark) {
		fputs(help, stdout);
		return;
	}
	fwrite(help, 1, (size_t)(mark - help), stdout);
	fputs(bench_opts_help, stdout);
	fputs(mark + sizeof(BENCH_OPTS_MARKER), stdout);
}

int bench_parse(struct bench_run *run, const char *bench, int argc,
		char **argv, const char *help, const char *extra_short,
		const struct option *extra_long,
		int (*extra)(struct bench_run *run, int opt, const char *arg,
			     void *ctx),
		void *ctx)
{
	struct option longopts[48];
	char shortopts[96];
	size_t k = 0;
	bool traceable = run->traceable;	/* set by the bench before */
	int opt, ret;

	memset(run, 0, sizeof(*run));
	run->traceable = traceable;
	run->bench = bench;
	run->o = (struct bench_opts){ .prio = 80, .cpu = -1, .mlock = true,
				      .dma_latency = true };
	for (size_t i = 0; i < sizeof(common_long) / sizeof(common_long[0]); i++)
		longopts[k++] = common_long[i];
	for (; extra_long && extra_long[0].name && k < 47; extra_long++)
		longopts[k++] = *extra_long;
	memset(&longopts[k], 0, sizeof(longopts[k]));
	snprintf(shortopts, sizeof(shortopts), "%s%s", COMMON_SHORT,
		 extra_short ? extra_short : "");
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			bench_print_help(help);
			return -1;
		}
		if (is_common_opt(opt))
			ret = opt == '?' ? bench_usage(bench, "bad option") :
			      common_opt(run, opt, optarg);
		else
			ret = extra ? extra(run, opt, optarg, ctx) :
				      bench_usage(bench, "bad option");
		if (ret)
			return ret;
	}
	if (optind < argc && !extra)
		return bench_usage(bench, "unexpected argument '%s'", argv[optind]);
	if (run->o.spike_ns && !run->traceable)
		return bench_usage(bench, "--trace-on-spike: this bench hands no latency samples to trace; use it with irq, uio, pci, timer, reply or pwm");
	return 0;
}

static int rt_setup(struct bench_run *run)
{
	struct udrv_rt *rt = udrv_rt_new();
	int ret = 0;

	run->rt = rt;
	if (!rt)
		return bench_error(EXIT_FAIL, "out of memory");
	if (run->o.mlock)
		ret = udrv_rt_lock_memory(rt, 0);
	if (!ret && run->o.cpu >= 0)
		ret = udrv_rt_set_cpu(rt, run->o.cpu);
	if (!ret && run->o.prio)
		ret = udrv_rt_set_scheduler(rt, SCHED_FIFO, run->o.prio);
	if (ret)
		return bench_error(EXIT_FAIL, "%s (see --prio, --cpu, --no-mlock)",
				 udrv_rt_errmsg(rt));
	/* optional: a missing /dev/cpu_dma_latency is reported, not fatal */
	if (run->o.dma_latency && udrv_rt_hold_dma_latency(rt, 0) && !run->o.quiet)
		fprintf(stderr, "udrv-bench: note: %s\n", udrv_rt_errmsg(rt));
	return 0;
}

/*
 * SIGINT and SIGTERM end a bench, not the process: the handler only notes
 * the signal (no SA_RESTART, so a blocking wait returns EINTR), the loops
 * stop at bench_more(), and the bench's normal way out restores what it
 * changed (the ticker's period, the load, the DMA latency request) and
 * writes the rows measured so far, marked interrupted.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

int bench_interrupted(void)
{
	return stop_signal;
}

static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int bench_begin(struct bench_run *run)
{
	char err[256];
	int ret;

	catch_stop_signals();
	if (run->o.load && load_start(run->o.load, &run->load_pid, err, sizeof(err)))
		return bench_error(EXIT_FAIL, "load %s: %s", run->o.load, err);
	ret = rt_setup(run);
	if (!ret && run->o.spike_ns)
		ret = bench_spike_arm(run);
	if (ret)
		load_stop(run->load_pid);
	return ret;
}

const char *bench_sysroot(void)
{
	const char *root = secure_getenv("UDRV_SYSROOT");

	return root ? root : "";
}

static int tracefs_at(const char *where, const char *file, char *dir,
		      size_t len)
{
	char path[PATH_MAX];

	if (snprintf(dir, len, "%s%s", bench_sysroot(), where) >= (int)len ||
	    snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return access(path, F_OK) ? -ENOENT : 0;
}

int bench_tracefs_dir(const char *file, char *dir, size_t len)
{
	int ret = tracefs_at(BENCH_TRACEFS, file, dir, len);

	if (ret != -ENOENT)
		return ret;
	if (!tracefs_at(BENCH_TRACEFS_OLD, file, dir, len))
		return 0;
	(void)tracefs_at(BENCH_TRACEFS, file, dir, len);	/* where to mount */
	return -ENOENT;
}

uint64_t bench_samples(const struct bench_run *run, uint64_t dflt)
{
	if (run->o.duration_ns)
		return UINT64_MAX;
	return run->o.samples ? run->o.samples : dflt;
}

bool bench_more(struct bench_run *run, uint64_t t0_ns, uint64_t done,
		uint64_t samples)
{
	if (stop_signal)
		return false;
	if (run->o.duration_ns)
		return bench_now_ns() - t0_ns < run->o.duration_ns;
	return done < samples;
}

struct bench_row *bench_row(struct bench_run *run, const char *mechanism,
			    const char *implementation, const char *wait,
			    const char *what)
{
	struct bench_row *row;

	if (run->num_rows == BENCH_MAX_ROWS)
		return NULL;
	row = &run->rows[run->num_rows];
	memset(row, 0, sizeof(*row));
	row->hist = udrv_hist_new();
	if (!row->hist)
		return NULL;
	row->mechanism = mechanism;
	row->implementation = implementation;
	row->wait = wait;
	row->what = what;
	row->reference = -1;
	run->num_rows++;
	return row;
}

int bench_row_index(const struct bench_run *run, const struct bench_row *row)
{
	return (int)(row - run->rows);
}

void bench_note_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used && used + 2 < len) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void bench_progress(struct bench_run *run, const struct bench_row *row,
		    uint64_t done, uint64_t total)
{
	uint64_t now = bench_now_ns();

	if (run->o.quiet || !isatty(STDERR_FILENO) ||
	    now - run->last_progress_ns < 250000000ULL)
		return;
	run->last_progress_ns = now;
	if (total == UINT64_MAX)
		fprintf(stderr, "\r%s %s/%s%s%s: %llu samples   ", run->bench,
			row->mechanism, row->implementation, row->wait ? "/" : "",
			row->wait ? row->wait : "", (unsigned long long)done);
	else
		fprintf(stderr, "\r%s %s/%s%s%s: %llu/%llu (%.0f%%)   ", run->bench,
			row->mechanism, row->implementation, row->wait ? "/" : "",
			row->wait ? row->wait : "", (unsigned long long)done,
			(unsigned long long)total, 100.0 * (double)done / (double)total);
}
