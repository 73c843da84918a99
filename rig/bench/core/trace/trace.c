// SPDX-License-Identifier: GPL-2.0-only
/*
 * What held one CPU in a window of an ftrace trace (trace.h; the lines are
 * read by trace_parse.c).
 *
 * Attribution: between two events on the CPU, the time goes to the
 * innermost open frame (an hrtimer callback inside the timer interrupt,
 * a softirq, a hardirq handler), else to the task switched in last. So a
 * hardirq's time excludes the callbacks it ran, and a task's excludes the
 * interrupts that interrupted it (its run_start..run_end stretch does not).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

/* ---- the analysis ------------------------------------------------------ */

#define WAKE_SLACK_NS	2000	/* µs timestamps: a wake-up just before start */

void trace_analysis_init(struct trace_analysis *a, uint64_t start,
			 uint64_t end, unsigned int cpu, int bench_pid)
{
	memset(a, 0, sizeof(*a));
	a->start = start;
	a->end = end > start ? end : start;
	a->cpu = cpu;
	a->bench_pid = bench_pid;
	a->cause = -1;
	a->cur_entry = -1;
	a->waiter = -1;
}

void trace_analysis_add_path(struct trace_analysis *a, int pid)
{
	if (pid > 0 && pid != a->bench_pid && a->npath < TRACE_MAX_PATH)
		a->path_pids[a->npath++] = pid;
}

void trace_analysis_add_path_irq(struct trace_analysis *a, const char *name)
{
	snprintf(a->path_irq, sizeof(a->path_irq), "%s", name ? name : "");
}

static void pid_prio_set(struct trace_analysis *a, int pid, int prio)
{
	if (prio == TRACE_PRIO_UNKNOWN)
		return;
	for (size_t i = 0; i < a->npids; i++) {
		if (a->pids[i].pid == pid) {
			a->pids[i].prio = prio;
			return;
		}
	}
	/* a ring: the oldest pid gives way */
	a->pids[a->next_pid] = (struct trace_pid){ pid, prio };
	a->next_pid = (a->next_pid + 1) % TRACE_MAX_PIDS;
	if (a->npids < TRACE_MAX_PIDS)
		a->npids++;
}

static int pid_prio(const struct trace_analysis *a, int pid)
{
	for (size_t i = 0; i < a->npids; i++)
		if (a->pids[i].pid == pid)
			return a->pids[i].prio;
	return TRACE_PRIO_UNKNOWN;
}

static int entry_find(struct trace_analysis *a, enum trace_entry_kind kind,
		      int pid, int irq, const char *name)
{
	struct trace_entry *e;

	for (size_t i = 0; i < a->n; i++) {
		e = &a->entries[i];
		if (e->kind != kind)
			continue;
		if (kind == TRACE_E_TASK || kind == TRACE_E_IDLE ? e->pid == pid :
		    irq >= 0 ? e->irq == irq : !strcmp(e->name, name))
			return (int)i;
	}
	if (a->n == TRACE_MAX_ENTRIES)
		return -1;
	e = &a->entries[a->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->pid = pid;
	e->irq = irq;
	e->prio = TRACE_PRIO_UNKNOWN;
	snprintf(e->name, sizeof(e->name), "%s", name);
	return (int)a->n++;
}

static int task_entry(struct trace_analysis *a, const struct trace_task *t)
{
	int i = entry_find(a, t->pid ? TRACE_E_TASK : TRACE_E_IDLE, t->pid, -1,
			   t->comm);

	if (i >= 0) {
		if (t->comm[0])
			snprintf(a->entries[i].name, sizeof(a->entries[i].name),
				 "%s", t->comm);
		if (t->prio != TRACE_PRIO_UNKNOWN)
			a->entries[i].prio = t->prio;
	}
	return i;
}

static bool in_window(const struct trace_analysis *a, uint64_t ts)
{
	return ts >= a->start && ts <= a->end;
}

/* [from, to) clipped to the window goes to the innermost context. */
static void account(struct trace_analysis *a, uint64_t from, uint64_t to)
{
	uint64_t lo = from > a->start ? from : a->start;
	uint64_t hi = to < a->end ? to : a->end;
	int e;

	if (hi <= lo || !a->have_cur)
		return;
	e = a->depth ? a->stack[a->depth - 1].entry : a->cur_entry;
	a->covered_ns += hi - lo;
	if (e < 0)
		a->unattributed_ns += hi - lo;
	else
		a->entries[e].ns += hi - lo;
	/* RT tasks wait while idle or a non-RT task has the CPU */
	if (a->nwaiting && !a->depth && (!a->cur.pid || a->cur.prio >= 100)) {
		for (size_t i = 0; i < a->nwaiting; i++)
			a->entries[a->waiting[i]].rt_waiting_ns += hi - lo;
		if (a->cur.pid)
			a->rt_waiting_other_ns += hi - lo;
		else
			a->rt_waiting_idle_ns += hi - lo;
	}
}

/* The current task's stretch on the CPU ends at @ts. */
static void stretch_end(struct trace_analysis *a, uint64_t ts)
{
	struct trace_entry *e;
	uint64_t from = a->cur_since ? a->cur_since : a->first_ts;

	if (a->cur_entry < 0 || ts < a->start || from > a->end)
		return;
	e = &a->entries[a->cur_entry];
	if (ts - from > e->run_end - e->run_start) {
		e->run_start = from;
		e->run_end = ts;
	}
}

static void set_cur(struct trace_analysis *a, const struct trace_task *t,
		    uint64_t since)
{
	a->cur = *t;
	if (a->cur.prio == TRACE_PRIO_UNKNOWN)
		a->cur.prio = pid_prio(a, t->pid);
	a->cur_entry = task_entry(a, &a->cur);
	a->cur_since = since;
	a->have_cur = true;
}

static void waiting_set(struct trace_analysis *a, const struct trace_task *t,
			bool on)
{
	int e = on ? task_entry(a, t) : -1;

	for (size_t i = 0; i < a->nwaiting; i++) {
		const struct trace_entry *w = &a->entries[a->waiting[i]];

		if (w->kind == TRACE_E_TASK && w->pid == t->pid) {
			if (!on)
				a->waiting[i] = a->waiting[--a->nwaiting];
			return;
		}
	}
	if (on && e >= 0 && t->pid && a->nwaiting < TRACE_MAX_WAITING)
		a->waiting[a->nwaiting++] = e;
}

static bool is_rt(int prio)
{
	return prio >= 0 && prio < 100;
}

/*
 * The bench, woken at bench_wait_from, runs at @ts: its runnable time,
 * clipped to the window and to what was counted before (a trace whose
 * timestamps go back must not count the same stretch twice).
 */
static void bench_ran(struct trace_analysis *a, uint64_t ts)
{
	uint64_t from = a->bench_wait_from;

	if (!a->bench_waiting)
		return;
	a->bench_waiting = false;
	if (from < a->start)
		from = a->start;
	if (from < a->runnable_until)
		from = a->runnable_until;
	if (ts > a->end)
		ts = a->end;
	if (ts <= from)
		return;
	a->runnable_ns += ts - from;
	a->runnable_until = ts;
}

static void on_switch(struct trace_analysis *a, const struct trace_event *ev)
{
	stretch_end(a, ev->ts_ns);
	pid_prio_set(a, ev->prev.pid, ev->prev.prio);
	pid_prio_set(a, ev->task.pid, ev->task.prio);
	if (a->cur_entry >= 0 && ev->prev.pid == a->cur.pid)
		task_entry(a, &ev->prev);	/* its full comm and prio */
	if (ev->prev_runnable && is_rt(ev->prev.prio))
		waiting_set(a, &ev->prev, true);	/* preempted */
	set_cur(a, &ev->task, ev->ts_ns);
	waiting_set(a, &ev->task, false);
	a->depth = 0;			/* never inside an interrupt */
	if (a->cur_entry >= 0 && in_window(a, ev->ts_ns))
		a->entries[a->cur_entry].count++;
	if (ev->task.pid == a->bench_pid)
		bench_ran(a, ev->ts_ns);
}

static void on_wakeup(struct trace_analysis *a, const struct trace_event *ev)
{
	struct trace_wakeup *w;

	pid_prio_set(a, ev->task.pid, ev->task.prio);
	if (is_rt(ev->task.prio) && ev->task.pid != a->cur.pid &&
	    (ev->target_cpu < 0 || (unsigned int)ev->target_cpu == a->cpu))
		waiting_set(a, &ev->task, true);
	if (ev->ts_ns + WAKE_SLACK_NS < a->start || ev->ts_ns > a->end)
		return;
	if (ev->task.pid == a->bench_pid) {
		a->bench_woken = ev->ts_ns;
		if (!a->bench_waiting) {
			a->bench_waiting = true;
			a->bench_wait_from = ev->ts_ns;
		}
	}
	if (a->nwakeups == TRACE_MAX_WAKEUPS)
		return;
	w = &a->wakeups[a->nwakeups++];
	w->target = ev->task.pid;
	w->waker_pid = a->depth || ev->in_irq ? -1 : a->cur.pid;
	w->nframes = a->depth;
	for (int i = 0; i < a->depth; i++)
		w->frames[i] = a->stack[i].entry;
}

static void push(struct trace_analysis *a, enum trace_entry_kind kind,
		 int irq, const char *name, enum trace_kind exit, uint64_t ts)
{
	int e = entry_find(a, kind, -1, irq, name);

	if (a->depth == TRACE_MAX_DEPTH)
		return;
	if (e >= 0 && kind == TRACE_E_HARDIRQ && irq >= 0)
		snprintf(a->entries[e].name, sizeof(a->entries[e].name), "%s", name);
	if (e >= 0 && in_window(a, ts))
		a->entries[e].count++;
	/* the RT class gets its runtime back (kernel/sched/rt.c) */
	if (kind == TRACE_E_HRTIMER && in_window(a, ts) &&
	    !strcmp(name, "sched_rt_period_timer"))
		a->rt_period_at = ts;
	a->stack[a->depth++] = (struct trace_frame){ e, exit };
}

/* Close the innermost frame that @exit ends (and any left open inside it:
 * their exits were lost); an exit with no open frame is ignored. */
static void pop(struct trace_analysis *a, enum trace_kind exit)
{
	for (int i = a->depth - 1; i >= 0; i--) {
		if (a->stack[i].exit == exit) {
			a->depth = i;
			return;
		}
	}
}

void trace_analysis_feed(struct trace_analysis *a, const struct trace_event *ev)
{
	uint64_t ts = ev->ts_ns;

	a->events++;
	if (ev->kind == TRACE_SWITCH) {
		pid_prio_set(a, ev->prev.pid, ev->prev.prio);
		pid_prio_set(a, ev->task.pid, ev->task.prio);
	}
	if (ev->cpu != a->cpu) {
		/* woken from another CPU to run here */
		if (ev->kind == TRACE_WAKEUP && is_rt(ev->task.prio) &&
		    ev->target_cpu >= 0 && (unsigned int)ev->target_cpu == a->cpu)
			waiting_set(a, &ev->task, true);
		return;
	}
	if (!a->last_ts)
		a->first_ts = ts ? ts : 1;
	if (ts < a->last)
		ts = a->last;		/* never backwards */
	account(a, a->last ? a->last : ts, ts);
	a->last = ts;
	a->last_ts = ts ? ts : 1;
	if (in_window(a, ts))
		a->window_events++;
	if (!a->have_cur || (ev->cur.pid != a->cur.pid && ev->kind != TRACE_SWITCH))
		set_cur(a, &ev->cur, 0);
	switch (ev->kind) {
	case TRACE_SWITCH:
		on_switch(a, ev);
		break;
	case TRACE_WAKEUP:
		on_wakeup(a, ev);
		break;
	case TRACE_SETPRIO:
		pid_prio_set(a, ev->task.pid, ev->task.prio);
		if (ev->task.pid == a->cur.pid)
			a->cur.prio = ev->task.prio;
		break;
	case TRACE_IRQ_ENTRY:
		push(a, TRACE_E_HARDIRQ, ev->irq, ev->what, TRACE_IRQ_EXIT, ts);
		break;
	case TRACE_VECTOR_ENTRY:
		push(a, TRACE_E_HARDIRQ, -1, ev->what, TRACE_VECTOR_EXIT, ts);
		break;
	case TRACE_SOFTIRQ_ENTRY:
		push(a, TRACE_E_SOFTIRQ, -1, ev->what, TRACE_SOFTIRQ_EXIT, ts);
		break;
	case TRACE_HRTIMER_ENTRY:
		push(a, TRACE_E_HRTIMER, -1, ev->what, TRACE_HRTIMER_EXIT, ts);
		break;
	case TRACE_IRQ_EXIT:
	case TRACE_VECTOR_EXIT:
	case TRACE_SOFTIRQ_EXIT:
	case TRACE_HRTIMER_EXIT:
		pop(a, ev->kind);
		break;
	default:
		break;
	}
}

static bool pid_in(const int *set, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

static void mark(struct trace_analysis *a, int e)
{
	if (e >= 0 && a->entries[e].role == TRACE_ROLE_OTHER)
		a->entries[e].role = TRACE_ROLE_PATH;
}

/* The bench, and whatever woke it, and whatever woke that, ... */
static void mark_path(struct trace_analysis *a)
{
	int set[TRACE_MAX_WAKEUPS + 1 + TRACE_MAX_PATH];
	size_t nset = 1, before;

	for (size_t i = 0; i < a->n; i++) {
		struct trace_entry *e = &a->entries[i];

		if (e->kind == TRACE_E_IDLE)
			e->role = TRACE_ROLE_IDLE;
		else if (e->kind == TRACE_E_TASK && e->pid == a->bench_pid)
			e->role = TRACE_ROLE_BENCH;
		else if (e->kind == TRACE_E_HARDIRQ && a->path_irq[0] &&
			 !strcmp(e->name, a->path_irq))
			e->role = TRACE_ROLE_PATH;
	}
	set[0] = a->bench_pid;
	for (size_t i = 0; i < a->npath; i++) {
		if (pid_in(set, nset, a->path_pids[i]))
			continue;
		set[nset++] = a->path_pids[i];
		for (size_t k = 0; k < a->n; k++)
			if (a->entries[k].kind == TRACE_E_TASK &&
			    a->entries[k].pid == a->path_pids[i])
				mark(a, (int)k);
	}
	do {
		before = nset;
		for (size_t i = 0; i < a->nwakeups; i++) {
			const struct trace_wakeup *w = &a->wakeups[i];

			if (!pid_in(set, nset, w->target))
				continue;
			for (int k = 0; k < w->nframes; k++)
				mark(a, w->frames[k]);
			if (w->waker_pid > 0 && !pid_in(set, nset, w->waker_pid)) {
				set[nset++] = w->waker_pid;
				for (size_t k = 0; k < a->n; k++)
					if (a->entries[k].kind == TRACE_E_TASK &&
					    a->entries[k].pid == w->waker_pid)
						mark(a, (int)k);
			}
		}
	} while (nset != before);
}

static void sort_entries(struct trace_analysis *a)
{
	/* insertion sort, stable: at most TRACE_MAX_ENTRIES */
	for (size_t i = 1; i < a->n; i++) {
		struct trace_entry e = a->entries[i];
		size_t k = i;

		for (; k > 0 && a->entries[k - 1].ns < e.ns; k--)
			a->entries[k] = a->entries[k - 1];
		a->entries[k] = e;
	}
}

void trace_analysis_finish(struct trace_analysis *a)
{
	if (a->last_ts) {
		if (a->last < a->end)
			account(a, a->last, a->end);
		stretch_end(a, a->last > a->end ? a->last : a->end);
	}
	bench_ran(a, a->end);
	for (size_t i = 0; i < a->n; i++)
		if (a->entries[i].kind == TRACE_E_TASK &&
		    a->entries[i].prio == TRACE_PRIO_UNKNOWN)
			a->entries[i].prio = pid_prio(a, a->entries[i].pid);
	/* an RT task runnable, and the CPU idle or running non-RT tasks for
	 * most of the window: only RT throttling does that */
	a->kept_waiting = (a->rt_waiting_idle_ns + a->rt_waiting_other_ns) * 2 >
			  a->end - a->start;
	/* the RT class got its runtime back in the window: it had none */
	a->throttled = a->kept_waiting && a->rt_period_at;
	mark_path(a);
	sort_entries(a);
	a->waiter = -1;
	a->nwaiters = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (!a->entries[i].rt_waiting_ns)
			continue;
		a->nwaiters++;
		if (a->waiter < 0 || a->entries[i].rt_waiting_ns >
				     a->entries[a->waiter].rt_waiting_ns)
			a->waiter = (int)i;
	}
	a->cause = -1;
	for (size_t i = 0; i < a->n; i++) {
		if (a->entries[i].role == TRACE_ROLE_OTHER && a->entries[i].ns) {
			a->cause = (int)i;
			break;
		}
	}
}

/* ---- words --------------------------------------------------------------- */

void trace_prio_str(int prio, const char *policy, char *buf, size_t len)
{
	if (prio == TRACE_PRIO_UNKNOWN)
		snprintf(buf, len, "prio ?");
	else if (prio < 0)
		snprintf(buf, len, "dl");
	else if (prio < 100)
		snprintf(buf, len, "%s %d", policy && *policy ? policy : "rt",
			 99 - prio);
	else
		snprintf(buf, len, "nice %d", prio - 120);
}

const char *trace_entry_kind_str(enum trace_entry_kind k)
{
	switch (k) {
	case TRACE_E_TASK:
		return "task";
	case TRACE_E_IDLE:
		return "idle";
	case TRACE_E_HARDIRQ:
		return "hardirq";
	case TRACE_E_SOFTIRQ:
		return "softirq";
	default:
		return "hrtimer";
	}
}

const char *trace_role_str(enum trace_role r)
{
	switch (r) {
	case TRACE_ROLE_BENCH:
		return "bench";
	case TRACE_ROLE_PATH:
		return "wake-up path";
	case TRACE_ROLE_IDLE:
		return "idle";
	default:
		return "other";
	}
}

void trace_entry_str(const struct trace_entry *e, char *buf, size_t len)
{
	char prio[24];

	switch (e->kind) {
	case TRACE_E_TASK:
		trace_prio_str(e->prio, e->policy, prio, sizeof(prio));
		snprintf(buf, len, "task %s (pid %d, %s)", e->name, e->pid, prio);
		break;
	case TRACE_E_IDLE:
		snprintf(buf, len, "idle");
		break;
	case TRACE_E_HARDIRQ:
		if (e->irq >= 0)
			snprintf(buf, len, "hardirq %d %s", e->irq, e->name);
		else
			snprintf(buf, len, "hardirq %s", e->name);
		break;
	default:
		snprintf(buf, len, "%s %s", trace_entry_kind_str(e->kind), e->name);
		break;
	}
}

static void fmt_time(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
}

static size_t add(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t add(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return n < 0 ? used : used + (size_t)n;
}

/* "the bench 12.0 us, its wake-up path 3.0 us, idle 1.0 us" */
static size_t add_roles(const struct trace_analysis *a, char *buf, size_t len,
			size_t used)
{
	static const enum trace_role roles[] = { TRACE_ROLE_BENCH,
		TRACE_ROLE_PATH, TRACE_ROLE_IDLE };
	char t[24];

	for (size_t r = 0; r < 3; r++) {
		uint64_t ns = 0;

		for (size_t i = 0; i < a->n; i++)
			if (a->entries[i].role == roles[r])
				ns += a->entries[i].ns;
		fmt_time(ns, t, sizeof(t));
		used = add(buf, len, used, "%s%s %s", r ? ", " : "",
			   trace_role_str(roles[r]), t);
	}
	return used;
}

void trace_verdict(const struct trace_analysis *a, char *buf, size_t len)
{
	const struct trace_entry *c;
	char what[96], t1[24], t2[24], t3[24];
	size_t used;

	buf[0] = '\0';
	fmt_time(a->end - a->start, t2, sizeof(t2));
	if (!a->covered_ns) {
		snprintf(buf, len, "no verdict: the trace has no event on CPU %u around the %s window (buffer overwritten, or the events were off)",
			 a->cpu, t2);
		return;
	}
	used = 0;
	if (a->kept_waiting && a->waiter >= 0) {
		const struct trace_entry *w = &a->entries[a->waiter];

		trace_entry_str(w, what, sizeof(what));
		fmt_time(w->rt_waiting_ns, t1, sizeof(t1));
		used = add(buf, len, 0, "%s: %s%s was runnable for %s of the %s window",
			   a->throttled ? "RT throttling" : "an RT task kept waiting",
			   what, w->role == TRACE_ROLE_BENCH ? ", the bench," :
			   w->role == TRACE_ROLE_PATH ? ", on the bench's wake-up path," : "",
			   t1, t2);
		if (a->nwaiters > 1)
			used = add(buf, len, used, " (with %u other RT task(s))",
				   a->nwaiters - 1);
		fmt_time(a->rt_waiting_idle_ns, t3, sizeof(t3));
		used = add(buf, len, used, " while the CPU idled %s", t3);
		fmt_time(a->rt_waiting_other_ns, t3, sizeof(t3));
		used = add(buf, len, used, " and ran non-RT tasks %s", t3);
		if (a->rt_period_at) {
			fmt_time(a->rt_period_at - a->start, t3, sizeof(t3));
			used = add(buf, len, used, ", until sched_rt_period_timer gave the RT tasks their runtime back %s into the window",
				   t3);
		}
		used = add(buf, len, used, a->throttled ?
			   " (RT tasks had used sched_rt_runtime_us of sched_rt_period_us: see udrv rt check); " :
			   " (no sched_rt_period_timer in the window: a section that cannot be preempted, or throttling that began before it); ");
	}
	if (a->cause < 0) {
		used = add(buf, len, used, "no other work on CPU %u in the %s window: ",
			   a->cpu, t2);
		add_roles(a, buf, len, used);
		return;
	}
	c = &a->entries[a->cause];
	trace_entry_str(c, what, sizeof(what));
	fmt_time(c->ns, t1, sizeof(t1));
	used = add(buf, len, used, "%s%s ran %s of the %s window",
		   a->kept_waiting ? "the largest other work: " : "", what, t1, t2);
	if (c->kind == TRACE_E_TASK && c->run_end > c->run_start) {
		fmt_time(c->run_end - c->run_start, t3, sizeof(t3));
		used = add(buf, len, used, " (on the CPU for %s in one stretch)", t3);
	}
	used = add(buf, len, used, "; ");
	add_roles(a, buf, len, used);
}
