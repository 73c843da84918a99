/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench pwm's parts: the waveform read from the wire's edges
 * (pwm_wave.c), the observer of the wire's input line (pwm_watch.c) and
 * the generators measured in turns (pwm_gen.c): the hardware PWM (the
 * kernel's PWM class, the lab's pwm-fixture), udrv's software PWM in a
 * child process, lgpio's in udrv-bench-lgpio.
 */
#ifndef UDRV_BENCH_PWM_H
#define UDRV_BENCH_PWM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/line.h>

#include "bench.h"

/* A waveform the bench asks of every generator. */
struct pwm_wave {
	const char *name;	/* the rows' mechanism: "servo", "1khz" */
	uint32_t frequency_hz;
	uint32_t width_us;	/* the pulse: 1500 us of a servo, 500 us */
	bool servo;		/* lgpio's tx_servo, else tx_pwm (duty in %) */
};

/*
 * What the edges on the wire's input line say of a run: every pulse (a
 * rising edge to the next falling one) and period (rising to rising)
 * against the waveform asked for. The last pulse is not measured (a
 * generator's stop may cut it short); a period longer than 1.5 periods
 * has pulses missing (none came on the wire) and is not a period sample.
 */
struct pwm_measure {
	uint64_t edges;		/* seen on the wire */
	uint64_t pulses;	/* measured: width samples */
	uint64_t periods;	/* measured: period samples */
	uint64_t expected;	/* periods from the first rising edge to the last */
	uint64_t missing;	/* of them: no pulse on the wire */
	uint64_t repeated;	/* an edge in the direction of the one before */
	uint64_t lost;		/* events the kernel dropped (read too late) */
	uint64_t first_ns;	/* the first rising edge's timestamp; 0: none */
};

#define PWM_TIMELINE_MAX	1000	/* pulses a run keeps with their start */

/* A measured pulse: its rising edge from the run's first, its width's error. */
struct pwm_pulse {
	uint64_t start_ns;
	int64_t error_ns;	/* measured - asked */
};

/* The first PWM_TIMELINE_MAX measured pulses of a run, in order. */
struct pwm_timeline {
	struct pwm_pulse pulse[PWM_TIMELINE_MAX];
	size_t len;
	uint64_t dropped;	/* measured beyond them: len + dropped = pulses */
};

/* Whole periods in @d ns between rising edges, rounded: 1 (or 0) for a period
 * sample, 2 or more when pulses are missing. */
static inline uint64_t pwm_whole_periods(uint64_t d, uint64_t period_ns)
{
	return (d + period_ns / 2) / period_ns;
}

/*
 * Measure @n events (in time order) against a period of @period_ns and a
 * pulse of @width_ns: the absolute errors into @width_err and @period_err,
 * each measured pulse into @timeline (any of them may be NULL), the counts
 * into @m. Pure: the unit tests feed it.
 */
void pwm_measure(const struct udrv_edge_event *ev, size_t n, uint64_t period_ns,
		 uint64_t width_ns, struct udrv_hist *width_err,
		 struct udrv_hist *period_err, struct pwm_timeline *timeline,
		 struct pwm_measure *m);

/* The wire's input line, its edges collected while a generator runs. */
struct pwm_watch {
	struct udrv_request *req;
	struct udrv_edge_event *ev;
	size_t n, cap;
	uint64_t lost;
	bool polled;	/* the last run was read while it ran (too long) */
};

/* The watch's consumer: also the name of the input line's interrupt. */
#define PWM_WATCH_CONSUMER	"udrv-bench"

/* Request line @in of @chip for both edges (PWM_WATCH_CONSUMER). 0, or
 * an exit code. */
int pwm_watch_open(struct pwm_watch *w, struct udrv_chip *chip, unsigned int in);
void pwm_watch_close(struct pwm_watch *w);
/* Forget what was seen (drain the kernel's queue too), room for @cap. */
int pwm_watch_reset(struct pwm_watch *w, size_t cap);
/* Take the pending events; 0 or an exit code (too many: more than cap). */
int pwm_watch_drain(struct pwm_watch *w);
/*
 * Collect the edges of a generator's run: @done(@ctx, block) says whether
 * it is over (1; with @block it first waits for that). A run whose edges
 * (the room pwm_watch_reset() made) fit in the kernel's queue is read once
 * it is over, with no wake-up of the bench meanwhile; a longer one every
 * PWM_WATCH_EVERY_NS while it runs (polled): @done without @block is
 * called between the reads, and a run that ends sooner than the next read
 * should wait for its end itself. 0, or an exit code (@done's negative
 * value is one, negated).
 */
#define PWM_WATCH_EVERY_NS	17000000L	/* no multiple of the waves' periods */
int pwm_watch_until(struct pwm_watch *w, int (*done)(void *ctx, bool block), void *ctx);
/*
 * The generator has stopped: 17 ms more for the last edges to reach the
 * queue (an edge is queued from the input line's interrupt, which may come
 * after the write that made it returned), then take them. 0 or an exit code.
 */
int pwm_watch_settle(struct pwm_watch *w);

/* How a generator runs. */
struct pwm_tuning {
	int prio;		/* SCHED_FIFO priority, 0: SCHED_OTHER */
	int cpu;		/* its CPU, -1: any */
	bool mlock;
	uint32_t tail_ns;	/* udrv's busy-wait tail, 0: none */
};

/* What a generator says of its run, counted at the source. */
struct pwm_source {
	uint64_t duration_ns;	/* start to stop */
	uint64_t cpu_ns;	/* the generator's CPU time; UINT64_MAX: n/a */
	bool has_counts;	/* udrv's thread, the fixture: the counts below */
	uint64_t periods;	/* periods begun */
	uint64_t missed;	/* udrv: an edge late or skipped; fixture: overruns */
	uint64_t skipped;	/* udrv: pulses not driven */
	uint64_t edges;		/* level changes driven */
	uint64_t worst_late_ns;	/* udrv: the latest edge's lateness */
	uint64_t thread;	/* udrv: its PWM thread's id, 0: not known */
};

struct pwm_gen_ctx {
	struct udrv_chip *chip;	/* the wire's chip */
	unsigned int out;	/* the generators' output line */
	struct pwm_watch *watch;
	uint64_t periods;	/* to run */
};

/* Channel @channel of PWM chip @chip (udrv_pwm_open()'s forms) drives the
 * wire: one run. */
int pwm_gen_hw(const struct pwm_gen_ctx *g, const char *chip, unsigned int channel,
	       const struct pwm_wave *wave, struct pwm_source *src);
/* udrv's software PWM in a child process, as @t says. */
int pwm_gen_udrv(const struct pwm_gen_ctx *g, const struct pwm_tuning *t,
		 const struct pwm_wave *wave, struct pwm_source *src);
/* lgpio's (udrv-bench-lgpio), as @t says (no tail); -ENOENT: no peer. */
int pwm_gen_lgpio(const struct pwm_gen_ctx *g, const struct pwm_tuning *t,
		  const struct pwm_wave *wave, struct pwm_source *src, char *why,
		  size_t len);

#endif /* UDRV_BENCH_PWM_H */
