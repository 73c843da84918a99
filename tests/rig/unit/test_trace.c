// SPDX-License-Identifier: GPL-2.0-only
/*
 * rig/bench/core/trace/trace.c: ftrace's text read back, and what held the
 * CPU in a window.
 * traces/hog-{std,rt}.txt are real --spike-out files from the lab (a
 * SCHED_FIFO 90 hog busy for 2 ms above `udrv-bench timer`), each with
 * udrv's first line naming the window and the bench's pid.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/trace/trace.h"

static int parse(const char *line, struct trace_event *ev)
{
	return trace_parse_line(line, strlen(line), ev);
}

static void test_parse_std_switch(void)
{
	struct trace_event ev;

	CHECK_INT(parse("          <idle>-0       [000] d..2.     2.433267: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=udrv next_pid=133 next_prio=19",
			&ev), 1);
	CHECK_INT(ev.kind, TRACE_SWITCH);
	CHECK_INT(ev.cpu, 0);
	CHECK_INT(ev.ts_ns, 2433267000ULL);
	CHECK_STR(ev.cur.comm, "<idle>");
	CHECK_INT(ev.cur.pid, 0);
	CHECK_STR(ev.prev.comm, "swapper/0");
	CHECK_INT(ev.prev.prio, 120);
	CHECK_STR(ev.task.comm, "udrv");
	CHECK_INT(ev.task.pid, 133);
	CHECK_INT(ev.task.prio, 19);
}

static void test_parse_rt_flags_and_wakeup(void)
{
	struct trace_event ev;

	CHECK_INT(parse("            udrv-151     [002] dn.h311     2.528286: sched_wakeup: comm=uio-ticker pid=115 prio=49 target_cpu=000",
			&ev), 1);
	CHECK_INT(ev.kind, TRACE_WAKEUP);
	CHECK_INT(ev.cpu, 2);
	CHECK_INT(ev.ts_ns, 2528286000ULL);
	CHECK_STR(ev.cur.comm, "udrv");
	CHECK_INT(ev.cur.pid, 151);
	CHECK_STR(ev.task.comm, "uio-ticker");
	CHECK_INT(ev.task.pid, 115);
	CHECK_INT(ev.task.prio, 49);
}

static void test_parse_interrupts(void)
{
	struct trace_event ev;

	CHECK_INT(parse("  udrv-138 [000] d.h1.     2.613434: irq_handler_entry: irq=24 name=udrv-bench-irq", &ev), 1);
	CHECK_INT(ev.kind, TRACE_IRQ_ENTRY);
	CHECK_INT(ev.irq, 24);
	CHECK_STR(ev.what, "udrv-bench-irq");
	CHECK_INT(parse("  udrv-138 [000] d.h1.     2.613435: irq_handler_exit: irq=24 ret=handled", &ev), 1);
	CHECK_INT(ev.kind, TRACE_IRQ_EXIT);
	CHECK_INT(parse("  <idle>-0 [000] ..s1.     2.408005: softirq_entry: vec=1 [action=TIMER]", &ev), 1);
	CHECK_INT(ev.kind, TRACE_SOFTIRQ_ENTRY);
	CHECK_STR(ev.what, "TIMER");
	CHECK_INT(parse("  <idle>-0 [000] .Ns1.     2.408009: softirq_exit: vec=1 [action=TIMER]", &ev), 1);
	CHECK_INT(ev.kind, TRACE_SOFTIRQ_EXIT);
	CHECK_INT(parse("  udrv-137 [000] d.h..     2.404451: hrtimer_expire_entry: hrtimer=(____ptrval____) function=uio_ticker_fire [uio_ticker] now=2404450489", &ev), 1);
	CHECK_INT(ev.kind, TRACE_HRTIMER_ENTRY);
	CHECK_STR(ev.what, "uio_ticker_fire");
	CHECK_INT(parse("  udrv-137 [000] d.h..     2.404453: local_timer_exit: vector=236", &ev), 1);
	CHECK_INT(ev.kind, TRACE_VECTOR_EXIT);
	CHECK_STR(ev.what, "local_timer");
	CHECK_INT(parse("  sh-1 [000] d..2.     2.404140: sched_process_exec: filename=/bin/x pid=1 old_pid=1", &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
}

/* comm may hold spaces (prctl PR_SET_NAME), even " [0" and "-9" */
static void test_parse_comm_with_spaces(void)
{
	struct trace_event ev;

	CHECK_INT(parse("  my task -9 [1] x-12     [001] d..2.     5.000001: sched_switch: prev_comm=my task -9 [1] x prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=a b next_pid=13 next_prio=9",
			&ev), 1);
	CHECK_STR(ev.cur.comm, "my task -9 [1] x");
	CHECK_INT(ev.cur.pid, 12);
	CHECK_INT(ev.cpu, 1);
	CHECK_STR(ev.prev.comm, "my task -9 [1] x");
	CHECK_STR(ev.task.comm, "a b");
	CHECK_INT(ev.task.pid, 13);
	CHECK_INT(ev.task.prio, 9);
}

static void test_parse_timestamps(void)
{
	struct trace_event ev;

	CHECK_INT(parse("  a-1 [000] .....  12.123456789: sched_waking: comm=b pid=2 prio=120 target_cpu=000", &ev), 1);
	CHECK_INT(ev.ts_ns, 12123456789ULL);
	CHECK_INT(parse("  a-1 [000] .....  12.5: sched_waking: comm=b pid=2 prio=120 target_cpu=000", &ev), 1);
	CHECK_INT(ev.ts_ns, 12500000000ULL);
}

static void test_parse_refuses(void)
{
	static const char *const bad[] = {
		"", "# tracer: nop", "##### CPU 0 buffer started ####",
		"CPU:0 [LOST 12 EVENTS]", "garbage",
		"  a-1 [000] .....  12: sched_waking: comm=b pid=2 prio=1",
		"  a-1 [000] .....  -1.5: sched_waking: comm=b pid=2 prio=1",
		"  a-1 [000] .....  1.1234567890: sched_waking: comm=b pid=2 prio=1",
		"  a-1 [000] .....  99999999999.5: x: y",
		"  a-1 [-1] .....  1.5: x: y",
		"  a-x [000] .....  1.5: x: y",
		"  a-1 [000] .....  1.5 x: y",
		"  a-1 [000]",
		"  a-99999999999 [000] .....  1.5: x: y",
		"  a-073 [000] .....  1.5: x: y",	/* "%d": no leading 0 */
		"  a-0x1f [000] .....  1.5: x: y",
	};
	struct trace_event ev;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(bad[i], &ev) != 0)
			harness_fail(__FILE__, __LINE__, "took \"%s\"", bad[i]);
	/* a known event whose fields do not parse: read, but not used */
	CHECK_INT(parse("  a-1 [000] .....  1.5: sched_switch: prev_comm=x prev_pid=y", &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	CHECK_INT(parse("  a-1 [000] .....  1.5: sched_wakeup: comm=x pid=-5x prio=1", &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
}

/* ---- analysis of synthetic traces ---------------------------------------- */

static void feed_only(struct trace_analysis *a, const char *const *lines, size_t n)
{
	struct trace_event ev;

	for (size_t i = 0; i < n; i++)
		if (parse(lines[i], &ev))
			trace_analysis_feed(a, &ev);
}

static void feed(struct trace_analysis *a, const char *const *lines, size_t n)
{
	feed_only(a, lines, n);
	trace_analysis_finish(a);
}

static const struct trace_entry *entry(const struct trace_analysis *a,
				       const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->entries[i].name, name))
			return &a->entries[i];
	return NULL;
}

static long long ns_of(const struct trace_analysis *a, const char *name)
{
	const struct trace_entry *e = entry(a, name);

	return e ? (long long)e->ns : -1;
}

/* bench (pid 10, FIFO 80) woken by irq thread 20, woken by irq 24; hog 30 */
static const char *const chain[] = {
	"  hog-30 [000] d..2.  1.000000: sched_switch: prev_comm=bench prev_pid=10 prev_prio=19 prev_state=S ==> next_comm=hog next_pid=30 next_prio=9",
	"  hog-30 [000] d.h1.  1.000100: irq_handler_entry: irq=24 name=wire",
	"  hog-30 [000] d.h1.  1.000102: sched_waking: comm=irq/24-wire pid=20 prio=49 target_cpu=000",
	"  hog-30 [000] d.h1.  1.000110: irq_handler_exit: irq=24 ret=handled",
	"  hog-30 [000] d..2.  1.000500: sched_switch: prev_comm=hog prev_pid=30 prev_prio=9 prev_state=S ==> next_comm=irq/24-wire next_pid=20 next_prio=49",
	"  irq/24-wire-20 [000] d..2.  1.000510: sched_waking: comm=bench pid=10 prio=19 target_cpu=000",
	"  irq/24-wire-20 [000] d..2.  1.000520: sched_switch: prev_comm=irq/24-wire prev_pid=20 prev_prio=49 prev_state=R+ ==> next_comm=bench next_pid=10 next_prio=19",
	"  bench-10 [000] d..2.  1.000600: sched_switch: prev_comm=bench prev_pid=10 prev_prio=19 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
};

static void test_chain_and_cause(void)
{
	struct trace_analysis a;
	const struct trace_entry *e;

	trace_analysis_init(&a, 1000050000, 1000600000, 0, 10);
	feed(&a, chain, sizeof(chain) / sizeof(chain[0]));
	CHECK_INT(a.covered_ns, 550000);
	e = entry(&a, "hog");
	CHECK(e && e->role == TRACE_ROLE_OTHER);
	CHECK_INT(e->ns, 440000);		/* 50..500 us less the irq's 10 */
	CHECK_INT(e->run_end - e->run_start, 500000);	/* 0..500, irq included */
	CHECK(a.cause >= 0 && &a.entries[a.cause] == e);
	e = entry(&a, "wire");
	CHECK(e && e->role == TRACE_ROLE_PATH && e->ns == 10000 && e->irq == 24);
	e = entry(&a, "irq/24-wire");
	CHECK(e && e->role == TRACE_ROLE_PATH && e->ns == 20000);
	e = entry(&a, "bench");
	CHECK(e && e->role == TRACE_ROLE_BENCH && e->ns == 80000);
	CHECK_INT(a.runnable_ns, 10000);	/* woken 510, ran 520 */
}

/* the same with the hog as the measured thread: no longer a cause */
static void test_cause_follows_the_bench(void)
{
	struct trace_analysis a;
	char v[512];

	trace_analysis_init(&a, 1000050000, 1000600000, 0, 30);
	feed(&a, chain, sizeof(chain) / sizeof(chain[0]));
	CHECK(a.cause >= 0 && strcmp(a.entries[a.cause].name, "hog"));
	trace_verdict(&a, v, sizeof(v));
	CHECK(!strstr(v, "task hog"));
}

/* the hog named as part of the measured path (bench reply's responder):
 * no longer the cause; without it (the chain test above) it is */
static void test_added_path_is_no_cause(void)
{
	struct trace_analysis a;
	const struct trace_entry *e;

	trace_analysis_init(&a, 1000050000, 1000600000, 0, 10);
	trace_analysis_add_path(&a, 30);
	trace_analysis_add_path(&a, 10);	/* the bench: ignored */
	trace_analysis_add_path(&a, 0);		/* idle: ignored */
	CHECK_INT(a.npath, 1);
	feed(&a, chain, sizeof(chain) / sizeof(chain[0]));
	e = entry(&a, "hog");
	CHECK(e && e->role == TRACE_ROLE_PATH);
	CHECK(a.cause < 0 || strcmp(a.entries[a.cause].name, "hog"));
	e = entry(&a, "bench");
	CHECK(e && e->role == TRACE_ROLE_BENCH);
	for (int i = 0; i < TRACE_MAX_PATH + 3; i++)
		trace_analysis_add_path(&a, 100 + i);
	CHECK_INT(a.npath, TRACE_MAX_PATH);
}

/*
 * bench pwm: the PWM thread (pid 40, on the path) spins to its deadline,
 * the tick (or not) takes the CPU, then the write, whose edge the input
 * line's interrupt (irq 24, named by its consumer) timestamps. The bench
 * (pid 10) sleeps.
 */
static const char *const pwm_tick[] = {
	"  gen-40 [000] d..2.  2.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=gen next_pid=40 next_prio=9",
	"  gen-40 [000] d.h..  2.000010: local_timer_entry: vector=236",
	"  gen-40 [000] d.h..  2.000011: hrtimer_expire_entry: hrtimer=0 function=tick_sched_timer now=2000011000",
	"  gen-40 [000] d.h..  2.000012: hrtimer_expire_exit: hrtimer=0",
	"  gen-40 [000] d.h..  2.000013: local_timer_exit: vector=236",
};
static const char *const pwm_edge[] = {
	"  gen-40 [000] d.h1.  2.000015: irq_handler_entry: irq=24 name=udrv-bench",
	"  gen-40 [000] d.h1.  2.000016: irq_handler_exit: irq=24 ret=handled",
	"  gen-40 [000] d..2.  2.000020: sched_switch: prev_comm=gen prev_pid=40 prev_prio=9 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
};

static void pwm_analyse(struct trace_analysis *a, bool tick, const char *irq)
{
	trace_analysis_init(a, 2000005000, 2000016000, 0, 10);
	trace_analysis_add_path(a, 40);
	trace_analysis_add_path_irq(a, irq);
	if (tick)
		feed_only(a, pwm_tick, sizeof(pwm_tick) / sizeof(pwm_tick[0]));
	else
		feed_only(a, pwm_tick, 1);
	feed(a, pwm_edge, sizeof(pwm_edge) / sizeof(pwm_edge[0]));
}

static void test_path_irq_is_no_cause(void)
{
	struct trace_analysis a;
	const struct trace_entry *e;

	/* the tick is the cause; the edge's own interrupt is the path */
	pwm_analyse(&a, true, "udrv-bench");
	CHECK(a.cause >= 0);
	CHECK(!strcmp(a.entries[a.cause].name, "local_timer") ||
	      !strcmp(a.entries[a.cause].name, "tick_sched_timer"));
	e = entry(&a, "udrv-bench");
	CHECK(e && e->kind == TRACE_E_HARDIRQ && e->role == TRACE_ROLE_PATH &&
	      e->ns == 1000);
	CHECK(entry(&a, "gen") && entry(&a, "gen")->role == TRACE_ROLE_PATH);
	/* no tick: nothing but the PWM and its edge, so no cause */
	pwm_analyse(&a, false, "udrv-bench");
	CHECK_INT(a.cause, -1);
	/* on purpose: without the name, the edge's interrupt is blamed */
	pwm_analyse(&a, false, NULL);
	CHECK(a.cause >= 0 && !strcmp(a.entries[a.cause].name, "udrv-bench"));
	pwm_analyse(&a, false, "other-name");
	CHECK(a.cause >= 0 && !strcmp(a.entries[a.cause].name, "udrv-bench"));
}

static void test_other_cpu_and_no_events(void)
{
	struct trace_analysis a;
	char v[512];

	trace_analysis_init(&a, 1000050000, 1000600000, 1, 10);
	feed(&a, chain, sizeof(chain) / sizeof(chain[0]));
	CHECK_INT(a.covered_ns, 0);
	CHECK_INT(a.cause, -1);
	CHECK_INT(a.events, sizeof(chain) / sizeof(chain[0]));
	trace_verdict(&a, v, sizeof(v));
	CHECK_CONTAINS(v, "no verdict: the trace has no event on CPU 1");
}

/* lost exits close the frames inside; an exit without entry is ignored */
static void test_frames(void)
{
	static const char *const lines[] = {
		"  t-5 [000] d..2.  1.000000: sched_switch: prev_comm=x prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=t next_pid=5 next_prio=120",
		"  t-5 [000] d.h1.  1.000010: irq_handler_exit: irq=3 ret=handled",
		"  t-5 [000] d.h1.  1.000020: local_timer_entry: vector=236",
		"  t-5 [000] d.h1.  1.000030: hrtimer_expire_entry: hrtimer=0 function=f now=1",
		"  t-5 [000] d.h1.  1.000050: local_timer_exit: vector=236",
		"  t-5 [000] ..s1.  1.000060: softirq_entry: vec=7 [action=SCHED]",
		"  t-5 [000] ..s1.  1.000090: softirq_exit: vec=7 [action=SCHED]",
	};
	struct trace_analysis a;

	trace_analysis_init(&a, 1000000000, 1000100000, 0, 99);
	feed(&a, lines, sizeof(lines) / sizeof(lines[0]));
	CHECK_INT(ns_of(&a, "t"), 20000 + 10000 + 10000);
	CHECK_INT(ns_of(&a, "local_timer"), 10000);
	CHECK_INT(ns_of(&a, "f"), 20000);
	CHECK_INT(ns_of(&a, "SCHED"), 30000);
	CHECK_INT(a.covered_ns, 100000);
}

/* the bench (FIFO 80) runnable while a nice 0 task runs: RT throttling */
static void test_throttling_words(void)
{
	static const char *const lines[] = {
		"  x-8 [000] d..2.  0.900000: sched_switch: prev_comm=x prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=load next_pid=7 next_prio=120",
		"  load-7 [000] d.h1.  1.000000: sched_waking: comm=bench pid=10 prio=19 target_cpu=000",
		"  load-7 [000] d..2.  1.050000: sched_switch: prev_comm=load prev_pid=7 prev_prio=120 prev_state=R ==> next_comm=bench next_pid=10 next_prio=19",
	};
	struct trace_analysis a;
	char v[512];

	trace_analysis_init(&a, 1000000000, 1050010000, 0, 10);
	feed(&a, lines, 3);
	trace_verdict(&a, v, sizeof(v));
	/* no sched_rt_period_timer: kept waiting, not said to be throttling */
	CHECK_CONTAINS(v, "an RT task kept waiting: task bench (pid 10, rt 80), the bench, was runnable for 50.00 ms of the 50.01 ms window while the CPU idled 0.0 us and ran non-RT tasks 50.00 ms (no sched_rt_period_timer in the window");
	CHECK_CONTAINS(v, "the largest other work: task load (pid 7, nice 0) ran 50.00 ms");
	CHECK_INT(a.rt_waiting_other_ns, 50000000);
	CHECK(a.kept_waiting && !a.throttled);
}

/* the same with the load at FIFO 90: above the bench, no throttling */
static void test_higher_is_no_throttling(void)
{
	static const char *const lines[] = {
		"  load-7 [000] d.h1.  1.000000: sched_waking: comm=bench pid=10 prio=19 target_cpu=000",
		"  load-7 [000] d..2.  1.050000: sched_switch: prev_comm=load prev_pid=7 prev_prio=9 prev_state=R ==> next_comm=bench next_pid=10 next_prio=19",
	};
	struct trace_analysis a;
	char v[512];

	trace_analysis_init(&a, 1000000000, 1050010000, 0, 10);
	feed(&a, lines, 2);
	trace_verdict(&a, v, sizeof(v));
	CHECK(!a.kept_waiting && !a.throttled && !strstr(v, "throttling"));
	CHECK_CONTAINS(v, "task load (pid 7, rt 90) ran 50.00 ms");
}

/* ---- the lab's traces ------------------------------------------------------ */

struct fixture {
	uint64_t start, end;
	int bench;
};

/* The window moved by @shift ns and @len long (0: as it was). */
static void analyse_file(const char *name, struct trace_analysis *a,
			 struct fixture *fx, int64_t shift, uint64_t len,
			 int bench)
{
	const char *dir = getenv("UDRV_TEST_TRACES");
	char path[512], *line = NULL;
	struct trace_event ev;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "traces", name);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	n = getline(&line, &cap, f);
	CHECK(n > 0 && sscanf(line, "# udrv: spike of %*u ns: sample %*u of %*s %*s window %" SCNu64 "..%" SCNu64 " ns CLOCK_MONOTONIC, CPU 0, bench pid %d",
			       &fx->start, &fx->end, &fx->bench) == 3);
	trace_analysis_init(a, fx->start + (uint64_t)shift,
			    len ? fx->start + (uint64_t)shift + len :
				  fx->end + (uint64_t)shift,
			    0, bench ? bench : fx->bench);
	while ((n = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (trace_parse_line(line, strlen(line), &ev))
			trace_analysis_feed(a, &ev);
	}
	trace_analysis_finish(a);
	free(line);
	fclose(f);
}

static void check_hog(const char *file, int hog_pid, uint64_t burst_end)
{
	struct trace_analysis a;
	struct fixture fx;
	const struct trace_entry *c;
	char v[512];

	analyse_file(file, &a, &fx, 0, 0, 0);
	CHECK(a.cause >= 0);
	if (a.cause < 0)
		return;
	c = &a.entries[a.cause];
	CHECK_STR(c->name, "udrv-spike-hog");
	CHECK_INT(c->pid, hog_pid);
	CHECK_INT(c->prio, 9);			/* FIFO 90 */
	CHECK(c->ns * 100 >= (fx.end - fx.start) * 95);
	/* the hog's busy loop is 2 ms of CLOCK_MONOTONIC; its stretch on
	 * the CPU is that plus the switches, within the trace's 1 us */
	CHECK(c->run_end - c->run_start >= 2000000 &&
	      c->run_end - c->run_start <= 2020000);
	/* it ends where the hog said its burst ended (trace_clock mono) */
	CHECK(c->run_end >= burst_end && c->run_end <= burst_end + 10000);
	CHECK_INT(a.covered_ns, fx.end - fx.start);
	trace_verdict(&a, v, sizeof(v));
	CHECK_CONTAINS(v, "task udrv-spike-hog");
	for (size_t i = 0; i < a.n; i++)
		if (a.entries[i].pid == fx.bench && a.entries[i].kind == TRACE_E_TASK)
			CHECK_INT(a.entries[i].role, TRACE_ROLE_BENCH);
	CHECK(entry(&a, "hrtimer_wakeup") &&
	      entry(&a, "hrtimer_wakeup")->role == TRACE_ROLE_PATH);
}

static void test_lab_hog_std(void)
{
	/* hog's own report: burst 2 ended at 2437256339 */
	check_hog("hog-std.txt", 132, 2437256339ULL);
}

static void test_lab_hog_rt(void)
{
	/* burst 2 ended at 2557378683 */
	check_hog("hog-rt.txt", 146, 2557378683ULL);
}

/* the same trace, a 1 ms window ending 0.9 ms before (the hog had not
 * started): the hog is not the cause there; and with the hog as the
 * measured thread, it is no cause either */
static void test_lab_hog_break_on_purpose(void)
{
	struct trace_analysis a;
	struct fixture fx;

	analyse_file("hog-std.txt", &a, &fx, -1900000, 1000000, 0);
	CHECK(a.covered_ns > 0);
	CHECK(a.cause < 0 || strcmp(a.entries[a.cause].name, "udrv-spike-hog"));
	analyse_file("hog-std.txt", &a, &fx, 0, 0, 132);
	CHECK(a.covered_ns > 0);
	CHECK(a.cause < 0 || strcmp(a.entries[a.cause].name, "udrv-spike-hog"));
}

/* udrv-bench irq -D 2s, std, idle: a 50 ms write_to_wake. The irq thread
 * woke the bench, then the CPU ran kworkers and idled until the RT period
 * timer: RT throttling (the bench and its irq thread, both RT, had used
 * 950 ms of the second) */
static void test_lab_throttling(void)
{
	struct trace_analysis a;
	struct fixture fx;
	char v[640];

	analyse_file("throttle-std.txt", &a, &fx, 0, 0, 0);
	CHECK(a.throttled);
	CHECK(a.runnable_ns > 49900000 && a.runnable_ns <= fx.end - fx.start);
	CHECK(a.rt_waiting_idle_ns > 49000000);
	CHECK(a.rt_period_at > fx.end - 20000 && a.rt_period_at < fx.end);
	CHECK_INT(a.covered_ns, fx.end - fx.start);
	trace_verdict(&a, v, sizeof(v));
	CHECK_CONTAINS(v, "RT throttling: task udrv (pid 128, rt 80), the bench, was runnable for 49.78 ms of the 50.02 ms window while the CPU idled 49.66 ms");
	CHECK_CONTAINS(v, "until sched_rt_period_timer gave the RT tasks their runtime back 50.01 ms into the window");
	CHECK(entry(&a, "irq/24-udrv-ben") &&
	      entry(&a, "irq/24-udrv-ben")->role == TRACE_ROLE_PATH);
}

static void test_words(void)
{
	char b[64];
	struct trace_entry e = { .kind = TRACE_E_TASK, .pid = 3, .prio = 9 };

	trace_prio_str(9, "FIFO", b, sizeof(b));
	CHECK_STR(b, "FIFO 90");
	trace_prio_str(120, NULL, b, sizeof(b));
	CHECK_STR(b, "nice 0");
	trace_prio_str(-1, NULL, b, sizeof(b));
	CHECK_STR(b, "dl");
	snprintf(e.name, sizeof(e.name), "x");
	trace_entry_str(&e, b, sizeof(b));
	CHECK_STR(b, "task x (pid 3, rt 90)");
}

UDRV_TESTS(UDRV_T(test_parse_std_switch), UDRV_T(test_parse_rt_flags_and_wakeup),
	   UDRV_T(test_parse_interrupts), UDRV_T(test_parse_comm_with_spaces),
	   UDRV_T(test_parse_timestamps), UDRV_T(test_parse_refuses),
	   UDRV_T(test_chain_and_cause), UDRV_T(test_cause_follows_the_bench),
	   UDRV_T(test_added_path_is_no_cause), UDRV_T(test_path_irq_is_no_cause),
	   UDRV_T(test_other_cpu_and_no_events), UDRV_T(test_frames),
	   UDRV_T(test_throttling_words), UDRV_T(test_higher_is_no_throttling),
	   UDRV_T(test_lab_throttling), UDRV_T(test_lab_hog_std),
	   UDRV_T(test_lab_hog_rt), UDRV_T(test_lab_hog_break_on_purpose),
	   UDRV_T(test_words))
