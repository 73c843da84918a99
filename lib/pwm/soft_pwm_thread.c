// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The software PWM's thread: started with every signal blocked, it sets
 * its own scheduling with the real-time helpers (lib/rt/rt.c: SCHED_FIFO
 * or SCHED_OTHER, its CPU, mlockall()), runs the loop (soft_pwm_run.c)
 * and ends when a stop is asked or a write fails. The start waits until
 * the thread has driven the first period's level, or failed, so that its
 * errors are the start's. Its timer slack is 1 ns: a SCHED_OTHER thread's
 * sleeps otherwise end up to the default 50 us late, which made every
 * rising edge of a plain PWM later than late_ns (measured in the lab:
 * worst 54.5 us, every period missed; 4.3 us with the slack at 1 ns).
 * The settings are the thread's own and end with it, except the memory lock, which is the process's: it is taken by the
 * first running PWM that asks for it (unless memory was locked already)
 * and dropped when the last of them stops.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include <udrv/rt.h>

#include "gpio/backend.h"
#include "pwm/soft_pwm_priv.h"

/* udrv_rt_lock_memory() prefaults 512 KiB from one array on the stack */
#define SPWM_STACK		(2u << 20)
#define SPWM_PREFAULT		(64u << 10)

/* ---- a run's state ---- */

void udrv_spwm_begin(struct udrv_soft_pwm *pwm)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->stop = false;
	pwm->started = false;
	pwm->start_ret = 0;
	pwm->ended = false;
	pwm->error = 0;
	memset(&pwm->stats, 0, sizeof(pwm->stats));
	pwm->run_msg[0] = '\0';
	pthread_mutex_unlock(&pwm->lock);
}

void udrv_spwm_started(struct udrv_soft_pwm *pwm, int ret)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->started = true;
	pwm->start_ret = ret;
	pthread_cond_broadcast(&pwm->cond);
	pthread_mutex_unlock(&pwm->lock);
}

void udrv_spwm_end(struct udrv_soft_pwm *pwm, int ret)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->ended = true;
	pwm->error = ret;
	pthread_mutex_unlock(&pwm->lock);
}

void udrv_spwm_ask_stop(struct udrv_soft_pwm *pwm)
{
	pthread_mutex_lock(&pwm->lock);
	pwm->stop = true;
	pthread_mutex_unlock(&pwm->lock);
}

int udrv_spwm_collect(struct udrv_soft_pwm *pwm)
{
	int ret;

	pthread_mutex_lock(&pwm->lock);
	ret = pwm->ended ? pwm->error : 0;
	if (ret)
		udrv_strlcpy(pwm->errmsg, pwm->run_msg, sizeof(pwm->errmsg));
	pthread_mutex_unlock(&pwm->lock);
	return ret;
}

/* ---- the thread's settings ---- */

static int lock_memory(struct udrv_soft_pwm *pwm, struct udrv_rt *rt)
{
	int ret = udrv_rt_hold_memory(rt, SPWM_PREFAULT);

	pwm->locks_memory = !ret;
	return ret;
}

/* After the thread ended: the last holder of the memory lock unlocks it. */
static void unlock_memory(struct udrv_soft_pwm *pwm)
{
	if (!pwm->locks_memory)
		return;
	pwm->locks_memory = false;
	udrv_rt_release_memory();
}

static int rt_setup(struct udrv_soft_pwm *pwm)
{
	const struct udrv_soft_pwm_config *c = &pwm->cfg;
	struct udrv_rt *rt = udrv_rt_new();
	int ret;

	if (!rt)
		return udrv_err(pwm->run_msg, ENOMEM, "soft PWM: out of memory");
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL)) {
		udrv_rt_free(rt);
		return udrv_err(pwm->run_msg, errno,
				"soft PWM on line %u of %s: setting its timer slack to 1 ns: %s",
				pwm->offset, pwm->req->chip_name, strerror(errno));
	}
	ret = udrv_rt_set_scheduler(rt, c->priority ? SCHED_FIFO : SCHED_OTHER,
				    c->priority);
	if (!ret && (c->flags & UDRV_SOFT_PWM_PIN_CPU))
		ret = udrv_rt_set_cpu(rt, c->cpu);
	if (!ret && (c->flags & UDRV_SOFT_PWM_LOCK_MEMORY))
		ret = lock_memory(pwm, rt);
	if (ret)
		udrv_err(pwm->run_msg, -ret,
			 "soft PWM on line %u of %s, setting up its thread: %s",
			 pwm->offset, pwm->req->chip_name, udrv_rt_errmsg(rt));
	udrv_rt_free(rt);
	return ret;
}

static void *spwm_thread(void *arg)
{
	struct udrv_soft_pwm *pwm = arg;
	int ret = rt_setup(pwm);

	if (ret)
		udrv_spwm_started(pwm, ret);
	else
		ret = udrv_spwm_loop(pwm);
	udrv_spwm_end(pwm, ret);
	return NULL;
}

/* ---- start and stop ---- */

static int thread_create(struct udrv_soft_pwm *pwm)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int ret;

	ret = pthread_attr_init(&attr);
	if (!ret)
		ret = pthread_attr_setstacksize(&attr, SPWM_STACK);
	if (ret)
		return -ret;
	/* the thread starts with every signal blocked: none interrupts its
	 * sleeps, the program's handlers run in its own threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&pwm->thread, &attr, spwm_thread, pwm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return -ret;
}

/* The thread gone: joined, its memory lock counted out. */
static void thread_join(struct udrv_soft_pwm *pwm)
{
	pthread_join(pwm->thread, NULL);
	pwm->thread_live = false;
	unlock_memory(pwm);
}

static int start_error(struct udrv_soft_pwm *pwm, int ret)
{
	return udrv_err(pwm->errmsg, -ret,
			"soft PWM on line %u of %s: starting its thread: %s",
			pwm->offset, pwm->req->chip_name, strerror(-ret));
}

int udrv_soft_pwm_start(struct udrv_soft_pwm *pwm)
{
	int ret;

	if (!pwm)
		return -EINVAL;
	if (pwm->thread_live)
		return udrv_err(pwm->errmsg, EBUSY,
				udrv_spwm_live(pwm) ?
				"soft PWM on line %u of %s: it runs already" :
				"soft PWM on line %u of %s: its thread ended on an error: udrv_soft_pwm_stop() returns it, then start again",
				pwm->offset, pwm->req->chip_name);
	if (!pwm->set.period)
		return udrv_err(pwm->errmsg, EINVAL,
				"soft PWM on line %u of %s: no period set: udrv_soft_pwm_set_config() first",
				pwm->offset, pwm->req->chip_name);
	udrv_spwm_begin(pwm);
	ret = thread_create(pwm);
	if (ret)
		return start_error(pwm, ret);
	pwm->thread_live = true;
	pthread_mutex_lock(&pwm->lock);
	while (!pwm->started)
		pthread_cond_wait(&pwm->cond, &pwm->lock);
	ret = pwm->start_ret;
	pthread_mutex_unlock(&pwm->lock);
	if (!ret)
		return 0;
	thread_join(pwm);
	udrv_spwm_collect(pwm);
	return ret;
}

int udrv_soft_pwm_stop(struct udrv_soft_pwm *pwm)
{
	if (!pwm)
		return -EINVAL;
	if (!pwm->thread_live)
		return 0;
	udrv_spwm_ask_stop(pwm);
	thread_join(pwm);
	return udrv_spwm_collect(pwm);
}

bool udrv_spwm_live(struct udrv_soft_pwm *pwm)
{
	bool ended;

	if (!pwm->thread_live)
		return false;
	pthread_mutex_lock(&pwm->lock);
	ended = pwm->ended;
	pthread_mutex_unlock(&pwm->lock);
	return !ended;
}

int udrv_soft_pwm_running(struct udrv_soft_pwm *pwm)
{
	if (!pwm)
		return -EINVAL;
	if (!pwm->thread_live)
		return 0;
	return udrv_spwm_live(pwm) ? 1 : udrv_spwm_collect(pwm);
}
