// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The software PWM's timing loop (udrv/soft_pwm.h has the rules it keeps).
 *
 * The loop has one deadline at a time: in phase SPWM_FALL the current
 * pulse's end (start + duty), in SPWM_BOUNDARY the current period's end,
 * which is the next one's start (start + period). Every deadline is the
 * period's start plus a constant, and the start moves by whole periods,
 * so the deadlines are t0 + k * period to the ns: none is taken from a
 * wake-up. A boundary is where the caller's news is taken (a new
 * waveform, a stop), so a change never falls inside a pulse.
 *
 * Each wake-up reads the clock once; that time, before the write, is the
 * edge's time for its lateness. Waits are clock_nanosleep(TIMER_ABSTIME)
 * on CLOCK_MONOTONIC (through struct spwm_clock), at most SPWM_CHUNK_NS at
 * a time so that a stop between pulses is seen, then the busy-wait tail
 * reads the clock up to the deadline.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "gpio/backend.h"
#include "pwm/soft_pwm_priv.h"

#define NS_PER_S	1000000000ULL

static uint64_t mono_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* An early return (a signal: the thread blocks them all) is allowed: the
 * loop reads the clock again. */
static void mono_sleep_until(void *ctx, uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / NS_PER_S),
		.tv_nsec = (long)(t % NS_PER_S),
	};

	(void)ctx;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

const struct spwm_clock udrv_spwm_monotonic = {
	.now = mono_now,
	.sleep_until = mono_sleep_until,
};

static uint64_t now_of(struct udrv_soft_pwm *pwm)
{
	return pwm->clock->now(pwm->clock_ctx);
}

/* ---- what is counted ---- */

static void mark(struct spwm_run *s)
{
	if (!s->marked) {
		s->marked = true;
		s->st.missed++;
	}
}

/* A deadline met at @now: its lateness counted (0 when on time). */
static uint64_t lateness(struct udrv_soft_pwm *pwm, uint64_t deadline,
			 uint64_t now)
{
	struct spwm_run *s = &pwm->run;
	uint64_t late = now > deadline ? now - deadline : 0;

	if (late > s->st.worst_late_ns)
		s->st.worst_late_ns = late;
	if (late > pwm->cfg.late_ns)
		mark(s);
	return late;
}

static void publish(struct udrv_soft_pwm *pwm)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->stats = pwm->run.st;
	pthread_mutex_unlock(&pwm->lock);
}

/* ---- the line ---- */

static int drive(struct udrv_soft_pwm *pwm, int level)
{
	struct udrv_request *req = pwm->req;
	int ret = udrv_request_set_value(req, pwm->idx, level);

	if (ret < 0)
		return udrv_err(pwm->run_msg, -ret,
				"soft PWM on line %u of %s: driving it %s: %s",
				pwm->offset, req->chip_name,
				level ? "high" : "low",
				udrv_request_errmsg(req));
	pwm->run.level = level;
	return 0;
}

/* An edge due at @deadline, driven at @now. */
static int edge(struct udrv_soft_pwm *pwm, int level, uint64_t deadline,
		uint64_t now)
{
	int ret = drive(pwm, level);

	if (ret)
		return ret;
	pwm->run.st.edges++;
	lateness(pwm, deadline, now);
	return 0;
}

/* The line inactive, the loop done: 1 (or a write's error). */
static int finish(struct udrv_soft_pwm *pwm)
{
	int inactive = !pwm->run.active;
	int ret = pwm->run.level == inactive ? 0 : drive(pwm, inactive);

	return ret ? ret : 1;
}

/* ---- a period's start ---- */

/* The caller's news since the last boundary: a new waveform (taken), a
 * stop (true). */
static bool take_news(struct udrv_soft_pwm *pwm)
{
	bool stop;

	pthread_mutex_lock(&pwm->lock);
	if (pwm->changed) {
		pwm->run.w = pwm->set;
		pwm->changed = false;
	}
	stop = pwm->stop;
	pthread_mutex_unlock(&pwm->lock);
	return stop;
}

/*
 * Duty 0 or the whole period: one level, driven if the line is not at it
 * (a late one counts like any edge). After a stall the periods already
 * over begin and end here at once: nothing was due in them.
 */
static int steady(struct udrv_soft_pwm *pwm, uint64_t now)
{
	struct spwm_run *s = &pwm->run;
	int want = s->w.duty ? s->active : !s->active;
	uint64_t over;
	int ret = 0;

	s->phase = SPWM_BOUNDARY;
	if (s->level != want)
		ret = edge(pwm, want, s->start, now);
	over = (now - s->start) / s->w.period;
	s->start += over * s->w.period;
	s->st.periods += over;
	return ret;
}

/*
 * A pulse not driven: its rising edge came too late. The line stays
 * inactive to the period's end. Periods wholly over after this one (a
 * stall) are skipped at once; the one in progress is the next boundary's
 * (its deadline has passed: the loop comes back at once), which may still
 * drive its pulse.
 */
static int skip(struct udrv_soft_pwm *pwm, uint64_t now)
{
	struct spwm_run *s = &pwm->run;
	uint64_t over = (now - s->start) / s->w.period;

	mark(s);
	s->st.skipped++;
	s->phase = SPWM_BOUNDARY;
	if (over < 2)
		return 0;
	over--;
	s->start += over * s->w.period;
	s->st.periods += over;
	s->st.missed += over;
	s->st.skipped += over;
	return 0;
}

static int pulse(struct udrv_soft_pwm *pwm, uint64_t now)
{
	struct spwm_run *s = &pwm->run;
	uint64_t late;
	int ret;

	/* after a steady active level the pulse is under way already */
	if (s->level == s->active) {
		s->phase = SPWM_FALL;
		return 0;
	}
	late = lateness(pwm, s->start, now);
	if (late > pwm->cfg.late_ns || late >= s->w.duty)
		return skip(pwm, now);
	s->phase = SPWM_FALL;
	ret = drive(pwm, s->active);
	if (!ret)
		s->st.edges++;
	return ret;
}

/* The period starting at s->start: 0, 1 (stopped) or an error. */
static int boundary(struct udrv_soft_pwm *pwm, uint64_t now)
{
	struct spwm_run *s = &pwm->run;

	if (take_news(pwm))
		return finish(pwm);
	s->st.periods++;
	s->marked = false;
	if (!s->w.duty || s->w.duty >= s->w.period)
		return steady(pwm, now);
	return pulse(pwm, now);
}

/* The pulse's end, due at start + duty. */
static int fall(struct udrv_soft_pwm *pwm, uint64_t now)
{
	struct spwm_run *s = &pwm->run;

	s->phase = SPWM_BOUNDARY;
	return edge(pwm, !s->active, s->start + s->w.duty, now);
}

/* ---- the wait ---- */

static bool stop_asked(struct udrv_soft_pwm *pwm)
{
	bool stop;

	pthread_mutex_lock(&pwm->lock);
	stop = pwm->stop;
	pthread_mutex_unlock(&pwm->lock);
	return stop;
}

static uint64_t deadline_of(const struct spwm_run *s)
{
	return s->start + (s->phase == SPWM_FALL ? s->w.duty : s->w.period);
}

/*
 * Until the next deadline: 0 and *@now, the time the wait ended; or 1, a
 * stop asked between pulses (a pulse under way is never cut).
 */
static int wait_next(struct udrv_soft_pwm *pwm, uint64_t *now)
{
	uint64_t deadline = deadline_of(&pwm->run);
	uint64_t tail = pwm->cfg.tail_ns, t, wake;

	for (;;) {
		t = now_of(pwm);
		if (t >= deadline)
			break;
		if (pwm->run.phase == SPWM_BOUNDARY && stop_asked(pwm))
			return 1;
		if (deadline - t > tail) {
			wake = deadline - tail;
			if (wake - t > SPWM_CHUNK_NS)
				wake = t + SPWM_CHUNK_NS;
			pwm->clock->sleep_until(pwm->clock_ctx, wake);
			continue;
		}
		/* the tail: the clock read up to the deadline */
		do
			t = now_of(pwm);
		while (t < deadline);
		break;
	}
	*now = t;
	return 0;
}

/* ---- the loop ---- */

static void run_init(struct udrv_soft_pwm *pwm)
{
	struct spwm_run *s = &pwm->run;

	memset(s, 0, sizeof(*s));
	s->level = -1;
	pthread_mutex_lock(&pwm->lock);
	s->w = pwm->set;
	pwm->changed = false;
	s->active = pwm->polarity == UDRV_PWM_POLARITY_NORMAL;
	pthread_mutex_unlock(&pwm->lock);
}

/* One deadline met: 0 go on, 1 stopped, or an error. */
static int step(struct udrv_soft_pwm *pwm)
{
	struct spwm_run *s = &pwm->run;
	uint64_t now;

	if (wait_next(pwm, &now))
		return finish(pwm);
	if (s->phase == SPWM_FALL)
		return fall(pwm, now);
	s->start += s->w.period;
	return boundary(pwm, now);
}

int udrv_spwm_loop(struct udrv_soft_pwm *pwm)
{
	struct spwm_run *s = &pwm->run;
	int ret;

	run_init(pwm);
	s->start = now_of(pwm);
	ret = boundary(pwm, s->start);
	publish(pwm);
	udrv_spwm_started(pwm, ret < 0 ? ret : 0);
	while (!ret) {
		ret = step(pwm);
		publish(pwm);
	}
	return ret < 0 ? ret : 0;
}
