// SPDX-License-Identifier: GPL-2.0-only
/*
 * --trace-on-spike: ftrace armed through tracefs for the run (tracefs.c,
 * which also puts every setting back), stopped at the first sample above
 * the threshold, read back and analysed at the end (spike.h, trace.h).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "spike.h"
#include "core/trace/trace.h"
#include "core/trace/tracefs.h"

#define SPIKE_MARGIN_NS		1000000ULL	/* kept before the window, at least */
#define SPIKE_AFTER_NS		100000ULL	/* kept after it */
#define SPIKE_TOP		8

/* The events, "system/name"; optional ones may be absent (x86 only). */
static const struct bench_trace_event spike_events[] = {
	{ "sched/sched_switch", NULL, false },
	{ "sched/sched_wakeup", NULL, false },
	{ "sched/sched_wakeup_new", NULL, false },
	{ "sched/sched_waking", NULL, false },
	{ "sched/sched_pi_setprio", NULL, false },
	{ "irq/irq_handler_entry", NULL, false },
	{ "irq/irq_handler_exit", NULL, false },
	{ "irq/softirq_entry", NULL, false },
	{ "irq/softirq_exit", NULL, false },
	{ "timer/hrtimer_expire_entry", NULL, false },
	{ "timer/hrtimer_expire_exit", NULL, false },
	{ "irq_vectors/local_timer_entry", NULL, true },
	{ "irq_vectors/local_timer_exit", NULL, true },
};

static struct {
	bool armed;
	uint64_t threshold;		/* ns */
	/* the spike */
	bool hit;
	uint64_t over;			/* samples above the threshold */
	const struct bench_row *row;
	uint64_t start, end, lead, index;
	int cpu;
	/* the analysis */
	bool finished;
	char file[PATH_MAX];
	uint64_t lines, from, to;
	char error[320];
	char verdict[640];
	struct trace_analysis an;
} sp;

uint64_t bench_spike_ns;

/* ---- arming --------------------------------------------------------------- */

int bench_spike_arm(struct bench_run *run)
{
	int ret;

	memset(&sp, 0, sizeof(sp));
	ret = bench_trace_setup("--trace-on-spike", spike_events,
				sizeof(spike_events) / sizeof(spike_events[0]),
				NULL);
	if (!ret)
		ret = bench_trace_start();
	if (ret)
		return ret;	/* tracefs put back */
	sp.armed = true;
	sp.threshold = run->o.spike_ns;
	bench_spike_ns = sp.threshold;
	return 0;
}

void bench_spike_restore(void)
{
	bench_trace_restore();
	bench_spike_ns = 0;
}

void bench_spike_restore_signal_safe(void)
{
	bench_trace_restore_signal_safe();
	bench_spike_ns = 0;
}

void bench_spike_hit_at(const struct bench_row *row, uint64_t start_ns,
			uint64_t end_ns, uint64_t lead_ns, uint64_t index,
			int cpu)
{
	sp.over++;
	if (sp.hit)
		return;
	bench_trace_stop();	/* the spike is the newest */
	sp.hit = true;
	sp.row = row;
	sp.start = start_ns;
	sp.end = end_ns;
	sp.lead = lead_ns < start_ns ? lead_ns : start_ns;
	sp.index = index;
	sp.cpu = cpu >= 0 ? cpu : sched_getcpu();
}

void bench_spike_hit(const struct bench_row *row, uint64_t start_ns,
		     uint64_t end_ns)
{
	bench_spike_hit_at(row, start_ns, end_ns, 0, udrv_hist_count(row->hist), -1);
}

/* ---- reading the trace ------------------------------------------------------ */

/* --spike-out, else next to --out (x.json -> x.spike.txt), else ./udrv-BENCH-spike.txt */
static void spike_file(const struct bench_run *run, char *buf, size_t len)
{
	const char *name = run->bench;
	size_t n;

	if (run->o.spike_out) {
		snprintf(buf, len, "%s", run->o.spike_out);
	} else if (run->o.out) {
		n = strlen(run->o.out);
		if (n > 5 && !strcmp(run->o.out + n - 5, ".json"))
			n -= 5;
		snprintf(buf, len, "%.*s.spike.txt", (int)n, run->o.out);
	} else {
		snprintf(buf, len, "udrv-%s-spike.txt", name);
	}
}

/* Stream the trace: feed the analysis, keep [from, to] (and comments). */
static int spike_read(FILE *in, FILE *out)
{
	struct trace_event ev;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');
		int got = trace_parse_line(line, len, &ev);

		if (got)
			trace_analysis_feed(&sp.an, &ev);
		if (got && (ev.ts_ns < sp.from || ev.ts_ns > sp.to))
			continue;
		if (fwrite(line, 1, (size_t)n, out) != (size_t)n)
			break;
		sp.lines++;
	}
	free(line);
	return ferror(in) ? -EIO : 0;
}

static void spike_policies(void)
{
	for (size_t i = 0; i < sp.an.n; i++) {
		struct trace_entry *e = &sp.an.entries[i];
		struct udrv_rt_thread t[4];
		char comm[TRACE_COMM_LEN + 2];
		int n;

		if (e->kind != TRACE_E_TASK || e->prio < 0 || e->prio >= 100)
			continue;
		/* the task as it is now, if it is still the same one */
		snprintf(comm, sizeof(comm), "%s", e->name);
		n = udrv_rt_threads(comm, t, 4);
		for (int k = 0; k < n && k < 4; k++)
			if (t[k].pid == e->pid && t[k].policy >= 0 &&
			    !strncmp(udrv_rt_policy_str(t[k].policy), "SCHED_", 6))
				snprintf(e->policy, sizeof(e->policy), "%s",
					 udrv_rt_policy_str(t[k].policy) + 6);
	}
}

static pid_t spike_path[TRACE_MAX_PATH];
static size_t spike_npath;
static const char *spike_path_irq;

void bench_spike_path(pid_t pid)
{
	if (spike_npath < TRACE_MAX_PATH)
		spike_path[spike_npath++] = pid;
}

void bench_spike_path_irq(const char *name)
{
	spike_path_irq = name;
}

static void spike_analyse(const struct bench_run *run)
{
	uint64_t lat = sp.end - sp.start, begin = sp.start - sp.lead;
	uint64_t margin = lat > SPIKE_MARGIN_NS ? lat : SPIKE_MARGIN_NS;
	char path[PATH_MAX];
	FILE *in, *out;
	int err;

	sp.from = begin > margin ? begin - margin : 0;
	sp.to = sp.end + SPIKE_AFTER_NS;
	trace_analysis_init(&sp.an, begin, sp.end,
			    sp.cpu < 0 ? 0 : (unsigned int)sp.cpu, (int)getpid());
	trace_analysis_add_path_irq(&sp.an, spike_path_irq);
	/* the threads the wake-ups go through, and the bench's own helpers */
	for (size_t i = 0; i < run->num_threads; i++)
		trace_analysis_add_path(&sp.an, (int)run->threads[i].now.pid);
	for (size_t i = 0; i < spike_npath; i++)
		trace_analysis_add_path(&sp.an, (int)spike_path[i]);
	spike_file(run, sp.file, sizeof(sp.file));
	bench_trace_path(path, sizeof(path), "trace");
	in = fopen(path, "re");
	if (!in) {
		snprintf(sp.error, sizeof(sp.error), "cannot read %s: %s", path,
			 strerror(errno));
		return;
	}
	out = fopen(sp.file, "we");
	if (!out) {
		snprintf(sp.error, sizeof(sp.error), "cannot write the trace to %s: %s (see --spike-out)",
			 sp.file, strerror(errno));
		fclose(in);
		return;
	}
	fprintf(out, "# udrv-bench: spike of %llu ns: sample %llu of %s/%s%s%s %s, window %llu..%llu ns CLOCK_MONOTONIC, CPU %d, bench pid %d\n",
		(unsigned long long)lat, (unsigned long long)sp.index,
		sp.row->mechanism, sp.row->implementation,
		sp.row->wait ? "/" : "", sp.row->wait ? sp.row->wait : "",
		sp.row->what,
		(unsigned long long)begin, (unsigned long long)sp.end,
		sp.cpu, (int)getpid());
	err = spike_read(in, out);
	fclose(in);
	if (fclose(out) || err)
		snprintf(sp.error, sizeof(sp.error), "reading %s or writing %s failed",
			 path, sp.file);
	trace_analysis_finish(&sp.an);
	spike_policies();
	trace_verdict(&sp.an, sp.verdict, sizeof(sp.verdict));
}

static void spike_summary(void)
{
	const struct bench_row *r = sp.row;
	char what[96];

	fprintf(stderr, "udrv-bench: spike of %.1f us at sample %llu of %s/%s%s%s %s (CPU %d; %llu sample(s) above %llu us)\n",
		(double)(sp.end - sp.start) / 1e3, (unsigned long long)sp.index,
		r->mechanism, r->implementation, r->wait ? "/" : "",
		r->wait ? r->wait : "", r->what, sp.cpu,
		(unsigned long long)sp.over,
		(unsigned long long)(sp.threshold / 1000));
	if (sp.error[0]) {
		fprintf(stderr, "udrv-bench: spike: no analysis: %s\n", sp.error);
		return;
	}
	fprintf(stderr, "udrv-bench: spike: %s%s\n", sp.an.cause >= 0 ? "cause: " : "",
		sp.verdict);
	for (size_t i = 0; i < sp.an.n && i < SPIKE_TOP; i++) {
		const struct trace_entry *e = &sp.an.entries[i];

		if (!e->ns)
			break;
		trace_entry_str(e, what, sizeof(what));
		fprintf(stderr, "udrv-bench: spike: %10.1f us  %-48s %s\n",
			(double)e->ns / 1e3, what, trace_role_str(e->role));
	}
	fprintf(stderr, "udrv-bench: spike: trace: %s (%llu lines)\n", sp.file,
		(unsigned long long)sp.lines);
}

void bench_spike_finish(struct bench_run *run)
{
	if (!sp.armed || sp.finished)
		return;
	sp.finished = true;
	if (!sp.hit) {
		fprintf(stderr, "udrv-bench: no sample above %llu us: no spike to trace\n",
			(unsigned long long)(sp.threshold / 1000));
		return;
	}
	spike_analyse(run);
	spike_summary();
}

/* ---- the document ------------------------------------------------------------ */

static void json_entry(struct udrv_json *j, const struct trace_entry *e)
{
	char prio[24];

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "kind", trace_entry_kind_str(e->kind));
	udrv_json_kstr(j, "name", e->name);
	udrv_json_key(j, "pid");
	if (e->kind == TRACE_E_TASK || e->kind == TRACE_E_IDLE)
		udrv_json_int(j, e->pid);
	else
		udrv_json_null(j);
	udrv_json_key(j, "irq");
	if (e->irq >= 0)
		udrv_json_int(j, e->irq);
	else
		udrv_json_null(j);
	trace_prio_str(e->prio, e->policy, prio, sizeof(prio));
	udrv_json_kstr(j, "priority", e->kind == TRACE_E_TASK ? prio : NULL);
	udrv_json_kuint(j, "ns", e->ns);
	udrv_json_kuint(j, "count", e->count);
	udrv_json_kstr(j, "role", trace_role_str(e->role));
	udrv_json_kuint(j, "rt_waiting_ns", e->rt_waiting_ns);
	udrv_json_key(j, "run_ns");
	if (e->kind == TRACE_E_TASK && e->run_end > e->run_start)
		udrv_json_uint(j, e->run_end - e->run_start);
	else
		udrv_json_null(j);
	udrv_json_obj_end(j);
}

static void json_sample(struct udrv_json *j)
{
	const struct bench_row *r = sp.row;

	udrv_json_key(j, "sample");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", r->mechanism);
	udrv_json_kstr(j, "implementation", r->implementation);
	udrv_json_kstr(j, "wait", r->wait);
	udrv_json_kstr(j, "sample", r->what);
	udrv_json_kuint(j, "index", sp.index);
	udrv_json_kuint(j, "latency_ns", sp.end - sp.start);
	udrv_json_kuint(j, "start_ns", sp.start);
	udrv_json_kuint(j, "end_ns", sp.end);
	udrv_json_kint(j, "cpu", sp.cpu);
	udrv_json_obj_end(j);
}

static void json_analysis(struct udrv_json *j)
{
	bool ok = sp.finished && !sp.error[0];

	udrv_json_key(j, "window");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "start_ns", sp.start - sp.lead);
	udrv_json_kuint(j, "end_ns", sp.end);
	udrv_json_kuint(j, "covered_ns", sp.an.covered_ns);
	udrv_json_kuint(j, "events", sp.an.window_events);
	udrv_json_kuint(j, "runnable_ns", sp.an.runnable_ns);
	udrv_json_kuint(j, "rt_waiting_idle_ns", sp.an.rt_waiting_idle_ns);
	udrv_json_kuint(j, "rt_waiting_other_ns", sp.an.rt_waiting_other_ns);
	udrv_json_obj_end(j);
	udrv_json_kbool(j, "rt_kept_waiting", ok && sp.an.kept_waiting);
	udrv_json_kbool(j, "rt_throttled", ok && sp.an.throttled);
	udrv_json_key(j, "top");
	udrv_json_arr_begin(j);
	for (size_t i = 0; ok && i < sp.an.n && i < SPIKE_TOP && sp.an.entries[i].ns; i++)
		json_entry(j, &sp.an.entries[i]);
	udrv_json_arr_end(j);
	udrv_json_key(j, "cause");
	if (ok && sp.an.cause >= 0)
		json_entry(j, &sp.an.entries[sp.an.cause]);
	else
		udrv_json_null(j);
	udrv_json_kstr(j, "verdict", ok ? sp.verdict : NULL);
	udrv_json_key(j, "trace");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "file", sp.file[0] ? sp.file : NULL);
	udrv_json_kuint(j, "lines", sp.lines);
	udrv_json_kuint(j, "from_ns", sp.from);
	udrv_json_kuint(j, "to_ns", sp.to);
	udrv_json_kstr(j, "tracefs", bench_trace_dir());
	udrv_json_kstr(j, "clock", "mono");
	udrv_json_kuint(j, "buffer_size_kb", bench_trace_buffer_kb());
	udrv_json_obj_end(j);
	udrv_json_kstr(j, "error", sp.error[0] ? sp.error : NULL);
}

void bench_spike_json(struct udrv_json *j)
{
	if (!sp.armed)
		return;
	udrv_json_key(j, "spike");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "threshold_ns", sp.threshold);
	udrv_json_kuint(j, "samples_over", sp.over);
	udrv_json_kbool(j, "found", sp.hit);
	if (sp.hit) {
		json_sample(j);
		json_analysis(j);
	}
	udrv_json_obj_end(j);
}
