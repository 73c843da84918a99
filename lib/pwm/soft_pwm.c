// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The software PWM's handle: made on a line of a request, its settings
 * checked, its waveform and polarity set and read, its counts read. The
 * thread is soft_pwm_thread.c's, the timing soft_pwm_run.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "abi.h"
#include "gpio/backend.h"
#include "pwm/soft_pwm_priv.h"

#define SPWM_FLAGS	(UDRV_SOFT_PWM_LOCK_MEMORY | UDRV_SOFT_PWM_PIN_CPU)

/* ---- the line and the settings ---- */

static int check_line(struct udrv_request *req, size_t idx)
{
	if (idx >= req->num_lines)
		return udrv_err(req->errmsg, EINVAL,
				"soft PWM: line index %zu out of range: the request holds %zu lines (0..%zu)",
				idx, req->num_lines, req->num_lines - 1);
	/* an adopted request (no consumer name) does not know its lines'
	 * settings: the kernel refuses the first write to an input */
	if (req->consumer[0] &&
	    req->settings[idx].direction != UDRV_DIR_OUTPUT)
		return udrv_err(req->errmsg, EINVAL,
				"soft PWM: line %u of %s (index %zu) is an input: request it as an output (UDRV_DIR_OUTPUT) to drive a PWM on it",
				req->offsets[idx], req->chip_name, idx);
	return 0;
}

static int check_rt(struct udrv_request *req,
		    const struct udrv_soft_pwm_config *c)
{
	if (c->priority < 0 || c->priority > 99)
		return udrv_err(req->errmsg, EINVAL,
				"soft PWM: priority %d: SCHED_FIFO priorities are 1..99 (0: SCHED_OTHER)",
				c->priority);
	if (c->flags & ~SPWM_FLAGS)
		return udrv_err(req->errmsg, EINVAL,
				"soft PWM: flags 0x%x: unknown bits 0x%x (this libudrv %s knows UDRV_SOFT_PWM_LOCK_MEMORY and _PIN_CPU)",
				c->flags, c->flags & ~SPWM_FLAGS, udrv_version());
	if (c->flags & UDRV_SOFT_PWM_PIN_CPU ?
	    c->cpu < 0 || c->cpu >= CPU_SETSIZE : c->cpu != 0)
		return udrv_err(req->errmsg, EINVAL,
				c->flags & UDRV_SOFT_PWM_PIN_CPU ?
				"soft PWM: CPU %d does not exist: CPUs are 0..%d" :
				"soft PWM: cpu is %d without UDRV_SOFT_PWM_PIN_CPU: set that flag to pin its thread (CPUs 0..%d), or leave cpu 0",
				c->cpu, CPU_SETSIZE - 1);
	return 0;
}

static int check_timing(struct udrv_request *req,
			const struct udrv_soft_pwm_config *c)
{
	if (c->tail_ns > UDRV_SOFT_PWM_TAIL_MAX_NS)
		return udrv_err(req->errmsg, EINVAL,
				"soft PWM: a busy-wait tail of %" PRIu32 " ns: at most %u ns (1 ms; the thread spins that long before every edge)",
				c->tail_ns, UDRV_SOFT_PWM_TAIL_MAX_NS);
	return 0;
}

static int mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t attr;
	int ret = pthread_mutexattr_init(&attr);

	if (ret)
		return ret;
	/* the thread at SCHED_FIFO takes it after a caller that may be
	 * preempted holding it: the caller inherits the thread's priority
	 * (a plain mutex where the system has no PI futexes) */
	if (pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) ||
	    pthread_mutex_init(m, &attr))
		ret = pthread_mutex_init(m, NULL);
	pthread_mutexattr_destroy(&attr);
	return ret;
}

static struct udrv_soft_pwm *spwm_alloc(void)
{
	struct udrv_soft_pwm *pwm = calloc(1, sizeof(*pwm));

	if (!pwm)
		return NULL;
	if (mutex_init(&pwm->lock)) {
		free(pwm);
		return NULL;
	}
	if (pthread_cond_init(&pwm->cond, NULL)) {
		pthread_mutex_destroy(&pwm->lock);
		free(pwm);
		return NULL;
	}
	return pwm;
}

int udrv_soft_pwm_new_sz(struct udrv_request *req, size_t idx,
			 const struct udrv_soft_pwm_config *cfg,
			 size_t cfg_size, struct udrv_soft_pwm **out)
{
	struct udrv_soft_pwm_config c = { 0 };
	struct udrv_soft_pwm *pwm;
	int ret = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!req)
		return -EINVAL;
	if (cfg)
		ret = udrv_abi_in(req->errmsg, &udrv_abi_soft_pwm_config, &c,
				  cfg, cfg_size);
	if (!ret)
		ret = check_line(req, idx);
	if (!ret)
		ret = check_rt(req, &c);
	if (!ret)
		ret = check_timing(req, &c);
	if (ret)
		return ret;
	pwm = spwm_alloc();
	if (!pwm)
		return udrv_err(req->errmsg, ENOMEM, "soft PWM: out of memory");
	if (!c.late_ns)
		c.late_ns = UDRV_SOFT_PWM_LATE_NS;
	pwm->req = req;
	pwm->idx = idx;
	pwm->offset = req->offsets[idx];
	pwm->cfg = c;
	pwm->clock = &udrv_spwm_monotonic;
	*out = pwm;
	return 0;
}

void udrv_soft_pwm_free(struct udrv_soft_pwm *pwm)
{
	if (!pwm)
		return;
	udrv_soft_pwm_stop(pwm);
	pthread_cond_destroy(&pwm->cond);
	pthread_mutex_destroy(&pwm->lock);
	free(pwm);
}

const char *udrv_soft_pwm_errmsg(const struct udrv_soft_pwm *pwm)
{
	return pwm ? pwm->errmsg : "no udrv_soft_pwm handle";
}

/* ---- the waveform ---- */

static int bad_period(struct udrv_soft_pwm *pwm, uint64_t period_ns)
{
	return udrv_err(pwm->errmsg, EINVAL,
			"soft PWM on line %u of %s: a period of %" PRIu64 " ns: it takes %llu ns (100 kHz) to %llu ns (60 s)",
			pwm->offset, pwm->req->chip_name, period_ns,
			UDRV_SOFT_PWM_PERIOD_MIN_NS, UDRV_SOFT_PWM_PERIOD_MAX_NS);
}

static int bad_duty(struct udrv_soft_pwm *pwm, uint64_t duty_ns,
		    uint64_t period_ns)
{
	return udrv_err(pwm->errmsg, EINVAL,
			"soft PWM on line %u of %s: a duty cycle of %" PRIu64 " ns is above the period, %" PRIu64 " ns: give one up to the period (the period itself: always active)",
			pwm->offset, pwm->req->chip_name, duty_ns, period_ns);
}

/* The new waveform, for the loop's next boundary (or the next start). */
static void wave_set(struct udrv_soft_pwm *pwm, uint64_t period_ns,
		     uint64_t duty_ns)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->set.period = period_ns;
	pwm->set.duty = duty_ns;
	pwm->changed = true;
	pthread_mutex_unlock(&pwm->lock);
}

int udrv_soft_pwm_set_config(struct udrv_soft_pwm *pwm, uint64_t period_ns,
			     uint64_t duty_ns)
{
	if (!pwm)
		return -EINVAL;
	if (period_ns < UDRV_SOFT_PWM_PERIOD_MIN_NS ||
	    period_ns > UDRV_SOFT_PWM_PERIOD_MAX_NS)
		return bad_period(pwm, period_ns);
	if (duty_ns > period_ns)
		return bad_duty(pwm, duty_ns, period_ns);
	wave_set(pwm, period_ns, duty_ns);
	return 0;
}

int udrv_soft_pwm_set_duty_ns(struct udrv_soft_pwm *pwm, uint64_t ns)
{
	if (!pwm)
		return -EINVAL;
	if (!pwm->set.period)
		return udrv_err(pwm->errmsg, EINVAL,
				"soft PWM on line %u of %s: no period set: udrv_soft_pwm_set_config() sets both",
				pwm->offset, pwm->req->chip_name);
	if (ns > pwm->set.period)
		return bad_duty(pwm, ns, pwm->set.period);
	wave_set(pwm, pwm->set.period, ns);
	return 0;
}

int udrv_soft_pwm_set_polarity(struct udrv_soft_pwm *pwm,
			       enum udrv_pwm_polarity polarity)
{
	if (!pwm)
		return -EINVAL;
	if (polarity != UDRV_PWM_POLARITY_NORMAL &&
	    polarity != UDRV_PWM_POLARITY_INVERSED)
		return udrv_err(pwm->errmsg, EINVAL,
				"soft PWM on line %u of %s: polarity %d: UDRV_PWM_POLARITY_NORMAL or _INVERSED",
				pwm->offset, pwm->req->chip_name, (int)polarity);
	if (udrv_spwm_live(pwm))
		return udrv_err(pwm->errmsg, EBUSY,
				"soft PWM on line %u of %s: its polarity cannot change while it runs (its inactive level would become its active one): udrv_soft_pwm_stop() first",
				pwm->offset, pwm->req->chip_name);
	pthread_mutex_lock(&pwm->lock);
	pwm->polarity = polarity;
	pthread_mutex_unlock(&pwm->lock);
	return 0;
}

int udrv_soft_pwm_period_ns(struct udrv_soft_pwm *pwm, uint64_t *ns)
{
	if (!pwm || !ns)
		return -EINVAL;
	*ns = pwm->set.period;
	return 0;
}

int udrv_soft_pwm_duty_ns(struct udrv_soft_pwm *pwm, uint64_t *ns)
{
	if (!pwm || !ns)
		return -EINVAL;
	*ns = pwm->set.duty;
	return 0;
}

int udrv_soft_pwm_polarity(struct udrv_soft_pwm *pwm,
			   enum udrv_pwm_polarity *polarity)
{
	if (!pwm || !polarity)
		return -EINVAL;
	*polarity = pwm->polarity;
	return 0;
}

int udrv_soft_pwm_stats_sz(struct udrv_soft_pwm *pwm,
			   struct udrv_soft_pwm_stats *stats,
			   size_t stats_size)
{
	struct udrv_soft_pwm_stats st;
	int ret;

	if (!pwm || !stats)
		return -EINVAL;
	ret = udrv_abi_size(pwm->errmsg, &udrv_abi_soft_pwm_stats, stats_size);
	if (ret)
		return ret;
	pthread_mutex_lock(&pwm->lock);
	st = pwm->stats;
	pthread_mutex_unlock(&pwm->lock);
	udrv_abi_out(&udrv_abi_soft_pwm_stats, stats, &st, stats_size);
	return 0;
}
