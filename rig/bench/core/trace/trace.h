/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace's text output ("trace" in tracefs) read back: one line at a time
 * into an event (trace_parse_line), and what ran on one CPU in a time
 * window (struct trace_analysis): each task with comm, pid and priority,
 * each hardirq handler, softirq and hrtimer callback, with the time it
 * held the CPU there, and which of them were the measured path (the bench
 * and the chain of wake-ups that led to it) and which one was not: the
 * cause. Pure text in, numbers out: no file is read here (spike.c does
 * that), so unit tests and the fuzzer drive it directly.
 *
 * The line format is the kernel's (kernel/trace/trace_output.c):
 *   "  <comm>-<pid>  [<cpu>] <flags>  <sec>.<usec>: <event>: <fields>"
 * The flags column is 5 characters on a standard 6.1 kernel and 7 on
 * PREEMPT_RT; comm may hold spaces. Timestamps are microseconds with the
 * "mono" trace clock (any number of fraction digits is read as such).
 */
#ifndef UDRV_BENCH_TRACE_H
#define UDRV_BENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_COMM_LEN		24	/* TASK_COMM_LEN 16, with room */
#define TRACE_NAME_LEN		48	/* irq name, softirq action, function */
#define TRACE_PRIO_UNKNOWN	(-1000)
#define TRACE_MAX_ENTRIES	64
#define TRACE_MAX_DEPTH		8
#define TRACE_MAX_WAKEUPS	64
#define TRACE_MAX_PATH		12	/* tasks named as the measured path */
#define TRACE_MAX_PIDS		256
#define TRACE_MAX_WAITING	32

enum trace_kind {
	TRACE_OTHER,		/* an event we do not use */
	TRACE_SWITCH,		/* sched_switch */
	TRACE_WAKEUP,		/* sched_waking, sched_wakeup(_new) */
	TRACE_SETPRIO,		/* sched_pi_setprio */
	TRACE_IRQ_ENTRY,	/* irq_handler_entry */
	TRACE_IRQ_EXIT,
	TRACE_SOFTIRQ_ENTRY,	/* softirq_entry */
	TRACE_SOFTIRQ_EXIT,
	TRACE_HRTIMER_ENTRY,	/* hrtimer_expire_entry */
	TRACE_HRTIMER_EXIT,
	TRACE_VECTOR_ENTRY,	/* irq_vectors: local_timer_entry, ... */
	TRACE_VECTOR_EXIT,
	TRACE_GPIO_VALUE,	/* gpio_value: a line read or written */
};

struct trace_task {
	char comm[TRACE_COMM_LEN];
	int pid;
	int prio;		/* the kernel's: 0..98 RT, 100..139 normal */
};

struct trace_event {
	uint64_t ts_ns;
	unsigned int cpu;
	struct trace_task cur;	/* the line's TASK-PID (prio unknown) */
	enum trace_kind kind;
	bool in_irq;		/* flags say hardirq, softirq or NMI */
	bool prev_runnable;	/* sched_switch: prev_state R (preempted) */
	int target_cpu;		/* wakeups; -1: not given */
	struct trace_task prev;	/* sched_switch */
	struct trace_task task;	/* sched_switch: next; wakeup, setprio:
				 * the task (setprio: newprio) */
	int irq;		/* irq_handler_*, softirq vec */
	char what[TRACE_NAME_LEN]; /* irq name, softirq action, function,
				    * vector event name */
	unsigned int gpio;	/* gpio_value: the global line number, */
	bool gpio_get;		/* read (true) or written */
	int value;		/* and the value */
};

/*
 * Parse one line (without its newline; @len bytes, no NUL needed).
 * 1: an event in @ev; 0: a comment, blank line or a line we cannot read
 * (skipped by the caller: ftrace also prints "CPU 0 buffer started" and
 * lost-event notes).
 */
int trace_parse_line(const char *line, size_t len, struct trace_event *ev);

/*
 * The same trace in ftrace's raw format (options/raw): "<pid> <cpu> <ts>
 * type: <id>", the timestamp in the trace clock's nanoseconds, which the
 * text rounds to microseconds. Lines are in the same order as the text's.
 */
struct trace_raw {
	int pid;
	unsigned int cpu;
	uint64_t ts_ns;
	int type;		/* the event's id (events/.../id) */
};

/* 1: an event line in @r; 0: anything else ("#" comments, lost events). */
int trace_parse_raw(const char *line, size_t len, struct trace_raw *r);

enum trace_entry_kind {
	TRACE_E_TASK,
	TRACE_E_IDLE,		/* pid 0 */
	TRACE_E_HARDIRQ,	/* irq_handler (irq, name) or a vector */
	TRACE_E_SOFTIRQ,
	TRACE_E_HRTIMER,	/* the callback, inside its interrupt */
};

enum trace_role {
	TRACE_ROLE_OTHER,
	TRACE_ROLE_BENCH,	/* the measured thread */
	TRACE_ROLE_PATH,	/* woke the bench, or woke what woke it */
	TRACE_ROLE_IDLE,
};

struct trace_entry {
	enum trace_entry_kind kind;
	enum trace_role role;
	char name[TRACE_NAME_LEN];	/* comm, irq name, action, function */
	int pid;			/* tasks; -1 otherwise */
	int irq;			/* hardirqs by number; -1 otherwise */
	int prio;			/* tasks: the kernel's, last seen */
	char policy[8];			/* "FIFO", "RR" if known, else "" */
	uint64_t ns;			/* on the CPU inside the window */
	uint64_t rt_waiting_ns;		/* RT task runnable here while the CPU
					 * idled or ran non-RT tasks */
	unsigned int count;		/* times it started running there */
	/* tasks: the longest stretch on the CPU that overlaps the window,
	 * from its switch-in to its switch-out (interrupts included) */
	uint64_t run_start, run_end;
};

struct trace_wakeup {
	int target;			/* pid woken */
	int waker_pid;			/* -1: woken from interrupt context */
	int frames[TRACE_MAX_DEPTH];	/* entry indexes of the frames */
	int nframes;
};

struct trace_frame {
	int entry;			/* index into entries, -1: not kept */
	enum trace_kind exit;		/* the event that ends it */
};

struct trace_pid {
	int pid, prio;
};

struct trace_analysis {
	/* the question */
	uint64_t start, end;		/* window, CLOCK_MONOTONIC ns */
	unsigned int cpu;
	int bench_pid;
	int path_pids[TRACE_MAX_PATH];	/* also the measured path, with
					 * what woke them (see
					 * trace_analysis_add_path) */
	size_t npath;
	char path_irq[TRACE_NAME_LEN];	/* hardirqs of this name too ("":
					 * none; trace_analysis_add_path_irq) */
	/* the answer */
	struct trace_entry entries[TRACE_MAX_ENTRIES];
	size_t n;
	uint64_t unattributed_ns;	/* entries beyond the table */
	uint64_t events;		/* events read, all CPUs */
	uint64_t window_events;		/* on the CPU, in the window */
	uint64_t first_ts, last_ts;	/* of the CPU's events; 0: none */
	uint64_t covered_ns;		/* window time the trace explains */
	uint64_t bench_woken;		/* last wake-up of the bench in the
					 * window; 0: none */
	uint64_t runnable_ns;		/* from it until the bench ran */
	/* while an RT task was runnable on the CPU (woken or preempted, not
	 * yet running), the CPU idled / ran non-RT tasks: RT throttling */
	uint64_t rt_waiting_idle_ns, rt_waiting_other_ns;
	int waiter;			/* entry that waited longest; -1 */
	unsigned int nwaiters;		/* RT tasks that waited so */
	uint64_t rt_period_at;		/* sched_rt_period_timer in the window */
	bool kept_waiting;		/* more than half the window so */
	bool throttled;			/* and sched_rt_period_timer fired in
					 * it: RT throttling */
	int cause;			/* entry index; -1: none */
	/* state while reading */
	bool have_cur;
	struct trace_task cur;
	int cur_entry;			/* the task's entry, -1 none yet */
	uint64_t cur_since;		/* switch-in of cur (0: unknown) */
	uint64_t last;			/* time accounted up to */
	struct trace_frame stack[TRACE_MAX_DEPTH];
	int depth;
	struct trace_wakeup wakeups[TRACE_MAX_WAKEUPS];
	size_t nwakeups;
	struct trace_pid pids[TRACE_MAX_PIDS];	/* priorities seen */
	size_t npids, next_pid;
	bool bench_waiting;		/* woken, not yet switched in */
	uint64_t bench_wait_from;
	uint64_t runnable_until;	/* end of what runnable_ns counts */
	int waiting[TRACE_MAX_WAITING];	/* entries: RT tasks runnable here */
	size_t nwaiting;
};

void trace_analysis_init(struct trace_analysis *a, uint64_t start,
			 uint64_t end, unsigned int cpu, int bench_pid);
/*
 * @pid is on the measured path too, like the bench: a thread its wake-ups go
 * through (an irq thread) or a process of the bench's own (bench reply's
 * responder, whose reply ends the sample before the bench wakes). What woke
 * it is then on the path as well. Beyond TRACE_MAX_PATH: ignored.
 */
void trace_analysis_add_path(struct trace_analysis *a, int pid);
/*
 * Hardirq handlers named @name (the irq's action name: a GPIO line's
 * consumer) are on the measured path: the interrupt that timestamps the
 * edge bench pwm measures. One name; NULL or "" clears it.
 */
void trace_analysis_add_path_irq(struct trace_analysis *a, const char *name);
void trace_analysis_feed(struct trace_analysis *a, const struct trace_event *ev);
/* After the last event: close the window, mark roles, sort by time. */
void trace_analysis_finish(struct trace_analysis *a);

/* "FIFO 90" style: RT @prio as "rt 90" (or @policy 90), "nice 0", "dl". */
void trace_prio_str(int prio, const char *policy, char *buf, size_t len);
/* "task hog (pid 321, FIFO 90)", "hardirq 24 udrv-bench-irq", ... */
void trace_entry_str(const struct trace_entry *e, char *buf, size_t len);
/* The verdict in one sentence, for people (no trailing newline). */
void trace_verdict(const struct trace_analysis *a, char *buf, size_t len);
const char *trace_entry_kind_str(enum trace_entry_kind k);
const char *trace_role_str(enum trace_role r);

#endif /* UDRV_BENCH_TRACE_H */
