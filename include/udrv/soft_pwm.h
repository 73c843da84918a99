/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A software PWM on any output line of a request, of any backend: a
 * thread of its own drives the line with udrv_request_set_value(), on
 * absolute deadlines of CLOCK_MONOTONIC (clock_nanosleep(TIMER_ABSTIME)).
 * The hardware PWM of the kernel's PWM class is udrv/pwm.h; the servo
 * helpers there give the period and duty cycle of a servo pulse for both.
 *
 * The waveform: period k starts at t0 + k * period (t0: the start), with
 * the active level, and turns inactive at t0 + k * period + duty. Each
 * deadline is computed from the start, never from the last wake-up, so no
 * lateness accumulates. A duty cycle of 0 or of the whole period is a
 * steady level: the line is driven once, with no edges. Polarity as the
 * hardware's: UDRV_PWM_POLARITY_NORMAL is active high, INVERSED active
 * low (the logical level: a line requested active-low is inverted again).
 *
 * Changes while it runs (udrv_soft_pwm_set_config(), _set_duty_ns()) take
 * effect at the next period boundary: the pulse under way ends with the
 * duty cycle it started with, and its period keeps its length; the new
 * period starts there (the deadlines count from that boundary). A pulse is
 * never cut short or stretched by a change: no runt pulse. Of two changes
 * before a boundary the last one wins.
 *
 * Lateness: an edge is driven when the thread wakes up; its lateness is
 * the clock read then (before the write) minus its deadline. A period
 * counts as missed when one of its edges came more than late_ns late, or
 * its pulse was skipped: a rising edge later than late_ns, or after its
 * falling deadline, is not driven at all (a pulse shortened by the
 * lateness would turn a servo; the line stays inactive for that period),
 * and when the thread wakes up after whole periods have passed (a stall),
 * each of them counts as missed and skipped. A late falling edge can only
 * be driven late: the pulse was that much too long, and counts. The counts
 * are the thread's own, at the source (udrv_soft_pwm_stats()).
 *
 * The thread: started by udrv_soft_pwm_start(), with every signal blocked
 * (a program's handlers run in its other threads), it sets its own
 * scheduling with the real-time helpers of udrv/rt.h (SCHED_FIFO
 * priority, CPU, mlockall()) and its timer slack to 1 ns (the kernel's
 * default, 50 us, would end a SCHED_OTHER thread's sleeps that much
 * late), then drives the first period and returns.
 * Its wake-ups come from the kernel's hrtimer (in hard interrupt context
 * for a SCHED_FIFO sleeper, also on PREEMPT_RT): no irq thread stands
 * between the timer and the PWM, so none is raised. Give it a priority
 * above the threads that share its CPU (the rest of the program, the
 * load), and its own CPU where you can. With a busy-wait tail it sleeps
 * until tail_ns before each edge and then reads the clock until the
 * deadline, which removes the wake-up's variation at the cost of that
 * much CPU time per edge. On the mmio backend (SoC registers with set and
 * clear registers) an edge is one store: the least time between the
 * deadline and the level on the pin.
 *
 * Stopping: udrv_soft_pwm_stop() lets a pulse under way end (at most the
 * duty cycle), then leaves the line at its inactive level; between pulses
 * it takes effect within 50 ms (the longest sleep). A thread that ends on
 * an error (the line's write failed: the chip went away) reports it from
 * udrv_soft_pwm_running() and udrv_soft_pwm_stop(). After SIGKILL nothing
 * of it runs: the line is left at its last level, for as long as its
 * request is held (libudrv(3), NOTES: a line whose holder dies).
 *
 * The request stays the caller's and must outlive the PWM. While a PWM
 * runs, its thread writes the request's line: the caller may still drive
 * the request's other lines from another thread (each write is one
 * ioctl, pwrite or store), except on an mmio block without set and clear
 * registers, whose data register is read, modified and written back; it
 * must not reconfigure or release the request, or run two PWMs on one
 * line. A failed write leaves its message on the request too.
 *
 * Calls return 0 or a negative errno and leave a message on the PWM
 * (udrv_soft_pwm_errmsg()); udrv_soft_pwm_new()'s go to the request's
 * (udrv_request_errmsg()). Since 1.9.
 */
#ifndef UDRV_SOFT_PWM_H
#define UDRV_SOFT_PWM_H

#include <stddef.h>
#include <stdint.h>
#include <udrv/line.h>
#include <udrv/pwm.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_soft_pwm;

/* The shortest and longest period: 10 us (100 kHz, where every edge is a
 * wake-up of a few us at best) and 60 s. */
#define UDRV_SOFT_PWM_PERIOD_MIN_NS	10000ULL
#define UDRV_SOFT_PWM_PERIOD_MAX_NS	60000000000ULL
/* late_ns when 0; the longest busy-wait tail */
#define UDRV_SOFT_PWM_LATE_NS		50000u
#define UDRV_SOFT_PWM_TAIL_MAX_NS	1000000u

/* udrv_soft_pwm_config.flags */
#define UDRV_SOFT_PWM_LOCK_MEMORY	(1u << 0)	/* mlockall() while it runs */
#define UDRV_SOFT_PWM_PIN_CPU		(1u << 1)	/* its thread on .cpu */

/*
 * Zeroed memory is a plain PWM: its thread at SCHED_OTHER, on any CPU,
 * no tail, late_ns 50 us. Every field is 32 bits, no padding.
 */
struct udrv_soft_pwm_config {
	/* its thread's SCHED_FIFO priority, 1..99; 0: SCHED_OTHER */
	int priority;
	unsigned int flags;		/* UDRV_SOFT_PWM_* */
	int cpu;			/* with UDRV_SOFT_PWM_PIN_CPU */
	/* busy-wait the last tail_ns before each edge, reading the clock;
	 * at most UDRV_SOFT_PWM_TAIL_MAX_NS; 0: sleep to the deadline */
	uint32_t tail_ns;
	/* an edge later than this makes its period a missed one; 0: 50 us */
	uint32_t late_ns;
};

/* What the thread counted since the last start (kept after a stop). */
struct udrv_soft_pwm_stats {
	uint64_t periods;		/* periods begun */
	uint64_t missed;		/* of them: an edge late, or skipped */
	uint64_t skipped;		/* of them: the pulse not driven */
	uint64_t edges;			/* levels driven on deadlines */
	uint64_t worst_late_ns;		/* the latest edge's lateness */
};

/*
 * A PWM on line @idx of @req (its index in the request, as for
 * udrv_request_set_value()), nothing driven yet. -EINVAL: an index out of
 * range, a line the request holds as an input (an adopted request's lines
 * are checked by the kernel at the first write), a bad setting. The
 * request must outlive the PWM.
 */
int udrv_soft_pwm_new_sz(struct udrv_request *req, size_t idx,
			 const struct udrv_soft_pwm_config *cfg,
			 size_t cfg_size, struct udrv_soft_pwm **out);
#define udrv_soft_pwm_new(req, idx, cfg, out)				\
	udrv_soft_pwm_new_sz(req, idx, cfg,				\
			     sizeof(struct udrv_soft_pwm_config), out)
/* Stops it first (the line inactive); NULL is allowed. */
void udrv_soft_pwm_free(struct udrv_soft_pwm *pwm);
const char *udrv_soft_pwm_errmsg(const struct udrv_soft_pwm *pwm);

/*
 * The period and duty cycle in ns: -EINVAL for a period outside
 * UDRV_SOFT_PWM_PERIOD_MIN_NS..MAX_NS or a duty cycle above it (nothing
 * changed). While it runs: from the next period boundary (see above);
 * stopped: from the next start.
 */
int udrv_soft_pwm_set_config(struct udrv_soft_pwm *pwm, uint64_t period_ns,
			     uint64_t duty_ns);
/* The duty cycle against the period last set: -EINVAL above it. */
int udrv_soft_pwm_set_duty_ns(struct udrv_soft_pwm *pwm, uint64_t ns);
/* -EBUSY while it runs (stop it first). */
int udrv_soft_pwm_set_polarity(struct udrv_soft_pwm *pwm,
			       enum udrv_pwm_polarity polarity);
/* What was last set (it may take effect at the next boundary): 0. */
int udrv_soft_pwm_period_ns(struct udrv_soft_pwm *pwm, uint64_t *ns);
int udrv_soft_pwm_duty_ns(struct udrv_soft_pwm *pwm, uint64_t *ns);
int udrv_soft_pwm_polarity(struct udrv_soft_pwm *pwm,
			   enum udrv_pwm_polarity *polarity);

/*
 * Start the thread: it sets its scheduling, drives the first period's
 * level and then this returns 0; the counts start again. -EINVAL: no
 * period set; -EBUSY: it runs, or its thread ended on an error that
 * udrv_soft_pwm_stop() collects first; the thread's own failure
 * (-EPERM for a priority or a memory lock not allowed, the first write's
 * error), the message saying what to do. The thread is gone then.
 */
int udrv_soft_pwm_start(struct udrv_soft_pwm *pwm);
/*
 * End the pulse under way, leave the line inactive, end the thread: 0, or
 * the error the thread ended on. A stopped PWM: 0. Not from a signal
 * handler (set a flag there, stop from the program's thread).
 */
int udrv_soft_pwm_stop(struct udrv_soft_pwm *pwm);
/* 1 running, 0 stopped, or the negative errno its thread ended on. */
int udrv_soft_pwm_running(struct udrv_soft_pwm *pwm);
/* The counts (kept after a stop, reset at a start). 0, or -EINVAL for a
 * size below 1.9's. */
int udrv_soft_pwm_stats_sz(struct udrv_soft_pwm *pwm,
			   struct udrv_soft_pwm_stats *stats,
			   size_t stats_size);
#define udrv_soft_pwm_stats(pwm, stats)					\
	udrv_soft_pwm_stats_sz(pwm, stats, sizeof(struct udrv_soft_pwm_stats))

#ifdef __cplusplus
}
#endif

#endif /* UDRV_SOFT_PWM_H */
