/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The software PWM (udrv/soft_pwm.h): soft_pwm.c is the handle and its
 * settings, soft_pwm_thread.c the thread (its scheduling, the start and
 * stop), soft_pwm_run.c the timing loop the thread runs.
 *
 * The loop reads the time and sleeps through a clock (struct spwm_clock):
 * CLOCK_MONOTONIC and clock_nanosleep() for the library, a simulated
 * clock for the unit tests (tests/lib/test_soft_pwm.c), which run the loop
 * in their own thread and check every edge's time exactly.
 */
#ifndef UDRV_SOFT_PWM_PRIV_H
#define UDRV_SOFT_PWM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <udrv/soft_pwm.h>

#include "internal.h"

/* The longest sleep: how soon a stop between pulses is seen. */
#define SPWM_CHUNK_NS		50000000ULL

struct spwm_clock {
	/* CLOCK_MONOTONIC in ns */
	uint64_t (*now)(void *ctx);
	/* Sleep until @t at the latest; an earlier return is allowed (the
	 * loop reads the clock again). */
	void (*sleep_until)(void *ctx, uint64_t t);
};

extern const struct spwm_clock udrv_spwm_monotonic;

/* A waveform: what udrv_soft_pwm_set_config() sets. */
struct spwm_wave {
	uint64_t period;
	uint64_t duty;
};

enum spwm_phase {
	SPWM_BOUNDARY,		/* next: the period's end, the next one's start */
	SPWM_FALL,		/* next: the pulse's falling deadline */
};

/* The loop's own state: its thread's only, no lock. */
struct spwm_run {
	struct spwm_wave w;		/* the current period's */
	uint64_t start;			/* the current period's start */
	enum spwm_phase phase;
	int active;			/* the active level: 1, or 0 (inversed) */
	int level;			/* as driven; -1: not yet */
	bool marked;			/* the current period counted missed */
	struct udrv_soft_pwm_stats st;
};

struct udrv_soft_pwm {
	struct udrv_request *req;
	size_t idx;
	unsigned int offset;		/* for messages */
	struct udrv_soft_pwm_config cfg;	/* late_ns filled in */
	const struct spwm_clock *clock;
	void *clock_ctx;

	/* under @lock (priority inheritance: the thread takes it too) */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* the thread started (or failed) */
	struct spwm_wave set;		/* last set */
	bool changed;			/* @set is news to the loop */
	enum udrv_pwm_polarity polarity;
	bool stop;			/* asked to stop */
	bool started;			/* the first period driven, or failed */
	int start_ret;
	bool ended;			/* the loop returned */
	int error;			/* what it returned */
	struct udrv_soft_pwm_stats stats;	/* the loop's, published */
	/* the loop's message: udrv_soft_pwm_errmsg()'s once collected */
	char run_msg[UDRV_ERRMSG_LEN];

	/* the caller's side */
	char errmsg[UDRV_ERRMSG_LEN];
	bool thread_live;		/* created, not joined */
	pthread_t thread;
	bool locks_memory;		/* counted in the process's mlockall() users */

	struct spwm_run run;
};

/* soft_pwm_run.c: the loop, from now until a stop is asked (0, the line
 * inactive) or a write fails (its negative errno, the message in
 * pwm->run_msg). It calls udrv_spwm_started() once the first period's
 * level is driven, or failed. */
int udrv_spwm_loop(struct udrv_soft_pwm *pwm);

/* soft_pwm_thread.c */
/* The loop's thread started: the first period driven (0) or not. */
void udrv_spwm_started(struct udrv_soft_pwm *pwm, int ret);
/* A run's state set up (the counts reset, a stop not asked), as
 * udrv_soft_pwm_start() does before its thread; its end, what the loop
 * returned (the thread's last act). The unit tests call them around
 * udrv_spwm_loop() in their own thread. */
void udrv_spwm_begin(struct udrv_soft_pwm *pwm);
void udrv_spwm_end(struct udrv_soft_pwm *pwm, int ret);
/* After the end: the loop's error (its message into pwm->errmsg), or 0. */
int udrv_spwm_collect(struct udrv_soft_pwm *pwm);
/* Its thread runs (started, not ended): nothing collected. */
bool udrv_spwm_live(struct udrv_soft_pwm *pwm);
/* Ask the loop to stop (what udrv_soft_pwm_stop() does before joining). */
void udrv_spwm_ask_stop(struct udrv_soft_pwm *pwm);

#endif /* UDRV_SOFT_PWM_PRIV_H */
