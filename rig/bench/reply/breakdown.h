/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench reply --breakdown: where the microseconds of a reply go, from
 * an ftrace trace of a run of replies (trace.h reads its lines).
 *
 * Each reply runs from t_write (CLOCK_MONOTONIC, just before the log host
 * writes A) to D's edge event timestamp (gpiolib-cdev's, CLOCK_MONOTONIC).
 * In between, the trace (trace_clock mono) marks what happened, in order:
 *
 *   write       t_write (the bench's clock)
 *   ipi         irq_vectors:irq_work_entry: gpio-wire's self-IPI for B
 *   b_hardirq   irq:irq_handler_entry of B's interrupt
 *   b_thread    sched_switch to B's irq thread (irq/B-...)
 *   b_thread_s  sched_switch to its forced-threading second thread
 *               (irq/B-s-...), when the trace has one
 *   responder   sched_switch to the user responder's pid
 *   reply       gpio:gpio_value, C set (the responder's write)
 *   d_hardirq   irq:irq_handler_entry of D's interrupt
 *   d_thread    sched_switch to D's irq thread before the timestamp (a
 *               timestamp taken in a thread), when the trace has one
 *   timestamp   D's event timestamp (the kernel's)
 *
 * Which marks a reply must have depends on the responder (the chain):
 *   isr      write ipi b_hardirq reply d_hardirq timestamp
 *   kthread  write ipi b_hardirq b_thread reply d_hardirq timestamp
 *   user     write ipi b_hardirq b_thread responder reply d_hardirq timestamp
 *   busy     write reply d_hardirq timestamp
 *   helper   write ipi b_hardirq responder reply d_hardirq timestamp
 *   helper_reply
 *            write ipi b_hardirq responder helper_write d_hardirq timestamp
 * helper: the lib responder woken by udrv-irq from B's hard irq handler,
 * C written through its request. helper_reply: the same wake-up, C
 * udrv-irq's reply line: the reply mark is then "helper_write", the
 * helper's write of C in the responder's next UDRV_IRQ_SET (the gpio_value
 * event in the responder's own task: the write of another task is no
 * mark), the call that, once C is written, waits for the next edge. So
 * responder_to_helper_write is the callback, the return from the previous
 * call and the entry into the next one up to its write, and D's timestamp
 * falls inside that call, after the write, before its wait: the wire's
 * edge interrupts the writer (gpio-wire's self-IPI, D's hardirq).
 * (ipi only when spec.ipi, d_hardirq only when spec.d_side: udrv-bench
 * traces neither, the fewer events the better). The stages are the stretches
 * between consecutive marks, named "<from>_to_<to>" (write_to_ipi, ...):
 * contiguous, so they add up to the reply's trigger_to_reply exactly.
 *
 * ftrace's text prints mono timestamps in microseconds, rounded: a mark is
 * known to +-500 ns (a->round_ns). A mark that the rounding puts before the
 * one it follows (or after the timestamp) is moved to it; one further out
 * of order than the rounding can explain refuses the reply. The bench reads
 * the trace again in ftrace's raw format, which has the nanoseconds, and
 * sets round_ns to 0.
 *
 * Each trace event costs the reply time of its own (0.3 to 1 us of guest
 * time in the lab; a filtered one the most). With a->cost_ns[] set (the
 * cost of one event of each type, which the bench measures with that type
 * alone traced), every mark is moved back by the cost of the events of its
 * reply up to and including its own (ftrace takes a filtered event's
 * timestamp when it commits it, at the end of its work), and the
 * timestamp by the cost of all of them: the stages are then the untraced
 * reply's, as well as tracing one type at a time can tell.
 */
#ifndef UDRV_BENCH_BREAKDOWN_H
#define UDRV_BENCH_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

#define BD_ROUND_NS	500	/* half of the trace's microsecond */
#define BD_WHO_LEN	64

enum bd_mark {
	BD_WRITE, BD_IPI, BD_B_HARDIRQ, BD_B_THREAD, BD_B_THREAD_S,
	BD_RESPONDER, BD_REPLY, BD_D_HARDIRQ, BD_D_THREAD, BD_TIMESTAMP,
	BD_NMARKS
};

/* The event types traced, each with its own cost (bd_event_of) */
enum bd_event { BD_EV_IPI, BD_EV_IRQ, BD_EV_SWITCH, BD_EV_GPIO, BD_NEV };

/* helper, helper_reply: the lib responder woken by udrv-irq from B's hard
 * irq handler (above); helper_reply: udrv-irq writes the reply too */
enum bd_chain { BD_CHAIN_ISR, BD_CHAIN_KTHREAD, BD_CHAIN_USER,
		BD_CHAIN_BUSY, BD_CHAIN_HELPER, BD_CHAIN_HELPER_REPLY };

/* The responder waits through udrv-irq: no irq thread on B's side. */
static inline bool bd_chain_helper(enum bd_chain c)
{
	return c == BD_CHAIN_HELPER || c == BD_CHAIN_HELPER_REPLY;
}

struct bd_spec {
	enum bd_chain chain;
	bool ipi;		/* irq_vectors traced: the ipi mark is due */
	bool d_side;		/* D's hardirq traced: the d_hardirq mark is
				 * due (and d_thread may follow) */
	int b_irq, d_irq;	/* B's and D's interrupts (b_irq -1: busy) */
	int responder_pid;	/* user responders */
	unsigned int c_gpio;	/* C's global line number (gpio_value) */
};

/* One reply: the bench's two times, and the marks the trace gave it. */
struct bd_reply {
	uint64_t t_write, t_d;
	uint64_t at[BD_NMARKS];		/* ns; 0: not seen */
	char who[BD_NMARKS][BD_WHO_LEN];	/* what the mark was */
	int last;			/* last mark taken, -1: none */
	unsigned int events;		/* trace events inside the reply */
	double cost;			/* their cost (cost_ns[]) */
	double cost_at[BD_NMARKS];	/* cost up to each mark, inclusive */
};

struct bd_stage {
	char name[32];			/* "ipi_to_b_hardirq" */
	uint64_t ns;
	char who[BD_WHO_LEN];		/* what ended it */
};

struct bd_analysis {
	struct bd_spec spec;
	struct bd_reply *r;		/* the caller's, in time order */
	size_t n, cur;
	uint64_t events;		/* lines parsed */
	uint64_t round_ns;		/* the timestamps' rounding */
	double cost_ns[BD_NEV];		/* one event's cost; 0: none taken off */
	uint64_t count[BD_NEV];		/* events inside the replies, by type */
};

const char *bd_mark_name(enum bd_mark m);
/* Mark @m's name in @s's chain (helper_reply's reply: "helper_write"). */
const char *bd_chain_mark_name(const struct bd_spec *s, enum bd_mark m);
/* "irq_handler_entry", ...: the event of type @e */
const char *bd_event_name(enum bd_event e);
/* @ev's type, or -1: not one of the traced types */
int bd_event_of(const struct trace_event *ev);
const char *bd_chain_name(enum bd_chain c);
/*
 * @r[0..n): the replies with t_write and t_d set, in time order. round_ns
 * BD_ROUND_NS, no cost taken off: set them before feeding.
 */
void bd_init(struct bd_analysis *a, const struct bd_spec *spec,
	     struct bd_reply *r, size_t n);
/* The trace's events, in time order (the trace file's order). */
void bd_feed(struct bd_analysis *a, const struct trace_event *ev);
/* Reply @i's total, @i's cost taken off (the sum of its stages). */
uint64_t bd_total(const struct bd_analysis *a, size_t i);
/*
 * Reply @i's stages into @st (room for BD_NMARKS - 1): their number, or
 * -1 with @err saying which mark is missing or out of order.
 */
int bd_stages(const struct bd_analysis *a, size_t i, struct bd_stage *st,
	      char *err, size_t errlen);
/*
 * The reply whose total (bd_total) is the median (of an odd count: the middle one;
 * of an even count: the lower middle). -1 with @err when a reply has no
 * full set of stages (the first such one named) or there are none.
 */
long bd_median(const struct bd_analysis *a, char *err, size_t errlen);

#endif /* UDRV_BENCH_BREAKDOWN_H */
