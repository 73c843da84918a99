/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software PWM tests' fixture (test_soft_pwm.c: the waveform;
 * test_soft_pwm_thread.c: the thread, its settings, the errors).
 *
 * A simulated clock takes the place of CLOCK_MONOTONIC and
 * clock_nanosleep(): a sleep ends exactly at its deadline (plus what the
 * test asks: every wake-up some ns late, or one wake-up much later, a
 * stall), and the caller's calls (a new waveform, a stop) happen at given
 * times of that clock, from inside the sleep that passes them, as if
 * another thread made them while the PWM slept. So the loop runs in the
 * test's own thread, and every edge's time is known to the ns: nothing
 * depends on the machine's timing.
 *
 * The line: a request built by hand (lines 5, an input, 6 and 7, outputs,
 * of "gpiochip7"), whose backend records each level written to line 6
 * with the simulated time (line 7's last level only), through
 * udrv_request_set_value() as the library calls it.
 */
#ifndef UDRV_TEST_SOFT_PWM_FIXTURE_H
#define UDRV_TEST_SOFT_PWM_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <udrv/udrv.h>

#include "gpio/backend.h"
#include "pwm/soft_pwm_priv.h"

#define T0		1000000000ULL	/* the simulated clock's start */
#define US		1000ULL
#define MS		1000000ULL
#define S		1000000000ULL
#define OUT_IDX		1		/* line 6 */
#define OUT2_IDX	2		/* line 7 */
#define MAX_EDGES	64
#define MAX_ACTS	8

struct rec_edge {
	uint64_t t;
	int level;
};

/* what the fake backend wrote */
extern struct rec_edge rec[MAX_EDGES];
extern size_t nrec;
/* the write that fails (1: the first), with @fail_err */
extern size_t fail_write;
extern int fail_err;
extern int out2_level;		/* line 7's, -1: never written */

typedef void (*sim_act_fn)(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b);

struct sim {
	uint64_t now;
	uint64_t late_each;		/* every wake-up this late */
	uint64_t step;			/* a clock read right after another: +step */
	bool read_since_sleep;
	/* the first sleep that would end at or after @stall_at ends at
	 * @stall_to instead */
	uint64_t stall_at, stall_to;
	bool stalled;
	struct {
		uint64_t at;
		sim_act_fn fn;
		uint64_t a, b;
		bool done;
	} acts[MAX_ACTS];
	size_t nacts;
	uint64_t sleeps[256];		/* each sleep's target */
	size_t nsleeps;
	struct udrv_soft_pwm *pwm;
};

extern struct sim sim;
extern const struct spwm_clock sim_clock;

/* The request (lines 5, 6 and 7 of gpiochip7), the records cleared. */
struct udrv_request *fake_request(void);
/* A PWM on line 6 with @cfg (NULL: defaults), on the simulated clock at
 * T0, with @period and @duty set. */
struct udrv_soft_pwm *sim_pwm(struct udrv_request *req,
			      const struct udrv_soft_pwm_config *cfg,
			      uint64_t period, uint64_t duty);
/* At @at on the simulated clock: @fn(pwm, a, b). */
void sim_at(uint64_t at, sim_act_fn fn, uint64_t a, uint64_t b);
/* The actions: a new waveform (period a, duty b), a duty cycle (a), a stop. */
void act_config(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b);
void act_duty(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b);
void act_stop(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b);
/* One run in this thread, as the PWM's thread runs it: the loop's return. */
int sim_run(struct udrv_soft_pwm *pwm);
/* The records are these @n (time, level) pairs, in order. */
void check_edges(const struct rec_edge *want, size_t n);
#define CHECK_EDGES(...)						\
	do {								\
		static const struct rec_edge _w[] = { __VA_ARGS__ };	\
		check_edges(_w, sizeof(_w) / sizeof(_w[0]));		\
	} while (0)
struct udrv_soft_pwm_stats stats_of(struct udrv_soft_pwm *pwm);

#endif /* UDRV_TEST_SOFT_PWM_FIXTURE_H */
