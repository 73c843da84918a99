// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software PWM's thread and its checks: the scheduling, CPU and
 * memory lock it sets on itself (sched_setscheduler, sched_setaffinity,
 * mlockall and munlockall wrapped: recorded, or refused on demand, and
 * the test process's own scheduling never changed), the memory lock
 * shared by the PWMs that ask for it, the start's and the thread's
 * errors, a real thread on the real clock driving a line of the fake
 * sysfs tree through the sysfs backend (asserting only what holds
 * however the machine is loaded: it ran some periods, it stopped at the
 * inactive level), and the refusals of bad settings, each with its
 * message.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fake_gpio.h"
#include "harness.h"
#include "soft_pwm_fixture.h"

/* ---- the wrapped calls ---- */

int __wrap_sched_setscheduler(pid_t pid, int policy,
			      const struct sched_param *sp);
int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
int __wrap_mlockall(int flags);
int __wrap_munlockall(void);

static struct {
	pid_t tid;			/* the caller of the last one */
	int sched_calls, policy, prio;
	int affinity_calls, cpu;
	int mlock_calls, mlock_flags, munlock_calls;
	int sched_err, mlock_err;	/* refuse with these */
} wrap;

int __wrap_sched_setscheduler(pid_t pid, int policy,
			      const struct sched_param *sp)
{
	CHECK_INT(pid, 0);
	wrap.tid = gettid();
	if (wrap.sched_err) {
		errno = wrap.sched_err;
		return -1;
	}
	wrap.sched_calls++;
	wrap.policy = policy;
	wrap.prio = sp->sched_priority;
	return 0;
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	CHECK_INT(pid, 0);
	wrap.affinity_calls++;
	wrap.cpu = CPU_COUNT_S(size, set) == 1 && CPU_ISSET_S(1, size, set) ?
		   1 : -1;
	return 0;
}

int __wrap_mlockall(int flags)
{
	if (wrap.mlock_err) {
		errno = wrap.mlock_err;
		return -1;
	}
	wrap.mlock_calls++;
	wrap.mlock_flags = flags;
	return 0;
}

int __wrap_munlockall(void)
{
	wrap.munlock_calls++;
	return 0;
}

/* ---- helpers ---- */

static struct udrv_soft_pwm *new_pwm(struct udrv_request *req, size_t idx,
				     const struct udrv_soft_pwm_config *cfg)
{
	struct udrv_soft_pwm *pwm = NULL;

	CHECK_INT(udrv_soft_pwm_new(req, idx, cfg, &pwm), 0);
	if (pwm)
		CHECK_INT(udrv_soft_pwm_set_config(pwm, MS, 500 * US), 0);
	return pwm;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* The timer slack of thread @tid of this process, as the kernel has it */
static long timer_slack_ns(pid_t tid)
{
	char path[64];
	long ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK_INT(fscanf(f, "%ld", &ns), 1);
		fclose(f);
	}
	return ns;
}

/* Wait for the thread to end on its own (an error): as long as it takes. */
static int wait_ended(struct udrv_soft_pwm *pwm)
{
	int r;

	while ((r = udrv_soft_pwm_running(pwm)) == 1)
		pause_ms(1);
	return r;
}

/* ---- the thread's settings ---- */

static void test_thread_settings(void)
{
	struct udrv_soft_pwm_config cfg = {
		.priority = 70, .cpu = 1,
		.flags = UDRV_SOFT_PWM_LOCK_MEMORY | UDRV_SOFT_PWM_PIN_CPU,
	};
	struct udrv_soft_pwm *pwm;

	fake_root();	/* no /proc/self/status: memory not locked yet */
	pwm = new_pwm(fake_request(), OUT_IDX, &cfg);
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	/* set before the start returned, by the PWM's thread on itself */
	CHECK_INT(wrap.sched_calls, 1);
	CHECK_INT(wrap.policy, SCHED_FIFO);
	CHECK_INT(wrap.prio, 70);
	CHECK(wrap.tid != gettid());
	CHECK_INT(wrap.affinity_calls, 1);
	CHECK_INT(wrap.cpu, 1);
	CHECK_INT(wrap.mlock_calls, 1);
	CHECK_INT(wrap.mlock_flags, MCL_CURRENT | MCL_FUTURE);
	CHECK_INT(timer_slack_ns(wrap.tid), 1);	/* not the default 50 us */
	CHECK_INT(udrv_soft_pwm_running(pwm), 1);
	CHECK_INT(udrv_soft_pwm_start(pwm), -EBUSY);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "runs already");
	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED),
		  -EBUSY);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "udrv_soft_pwm_stop() first");
	CHECK_INT(udrv_soft_pwm_set_duty_ns(pwm, 100 * US), 0);
	CHECK_INT(wrap.munlock_calls, 0);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK_INT(wrap.munlock_calls, 1);
	/* the first pulse began at the start, the line ends inactive */
	CHECK(nrec >= 2 && rec[0].level == 1 && rec[nrec - 1].level == 0);
	CHECK_INT(udrv_soft_pwm_running(pwm), 0);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	udrv_soft_pwm_free(pwm);

	/* priority 0: SCHED_OTHER, whatever the starting thread had */
	wrap.sched_calls = 0;
	pwm = new_pwm(fake_request(), OUT_IDX, NULL);
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(wrap.sched_calls, 1);
	CHECK_INT(wrap.policy, SCHED_OTHER);
	CHECK_INT(wrap.affinity_calls, 1);
	CHECK_INT(wrap.mlock_calls, 1);
	udrv_soft_pwm_free(pwm);	/* stops it */
	CHECK(nrec >= 2 && rec[nrec - 1].level == 0);
}

/* mlockall() is the process's: once for the PWMs that ask, undone after
 * the last of them; never undone when memory was locked before. */
static void test_memory_lock_shared(void)
{
	struct udrv_soft_pwm_config cfg = { .flags = UDRV_SOFT_PWM_LOCK_MEMORY };
	struct udrv_request *req;
	struct udrv_soft_pwm *a, *b;

	fake_root();
	req = fake_request();
	a = new_pwm(req, OUT_IDX, &cfg);
	b = new_pwm(req, OUT2_IDX, &cfg);
	CHECK_INT(udrv_soft_pwm_start(a), 0);
	CHECK_INT(udrv_soft_pwm_start(b), 0);
	CHECK_INT(wrap.mlock_calls, 1);
	CHECK_INT(udrv_soft_pwm_stop(a), 0);
	CHECK_INT(wrap.munlock_calls, 0);
	CHECK_INT(udrv_soft_pwm_stop(b), 0);
	CHECK_INT(wrap.munlock_calls, 1);
	CHECK_INT(out2_level, 0);

	fake_file("proc/self/status", "Name:\ttest\nVmLck:\t    1024 kB\n");
	CHECK_INT(udrv_soft_pwm_start(a), 0);
	CHECK_INT(udrv_soft_pwm_stop(a), 0);
	CHECK_INT(wrap.mlock_calls, 1);
	CHECK_INT(wrap.munlock_calls, 1);
	udrv_soft_pwm_free(a);
	udrv_soft_pwm_free(b);
}

/* A setting the thread may not make: the start fails with the reason,
 * nothing driven, no thread left; allowed, it starts. */
static void test_thread_refused(void)
{
	struct udrv_soft_pwm_config cfg = {
		.priority = 80, .flags = UDRV_SOFT_PWM_LOCK_MEMORY,
	};
	struct udrv_soft_pwm *pwm;

	fake_root();
	pwm = new_pwm(fake_request(), OUT_IDX, &cfg);
	wrap.sched_err = EPERM;
	CHECK_INT(udrv_soft_pwm_start(pwm), -EPERM);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm),
		       "soft PWM on line 6 of gpiochip7, setting up its thread");
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "CAP_SYS_NICE");
	CHECK_INT(nrec, 0);
	CHECK_INT(udrv_soft_pwm_running(pwm), 0);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);

	wrap.sched_err = 0;
	wrap.mlock_err = ENOMEM;
	CHECK_INT(udrv_soft_pwm_start(pwm), -ENOMEM);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "RLIMIT_MEMLOCK");
	CHECK_INT(nrec, 0);
	wrap.mlock_err = 0;
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(wrap.mlock_calls, 1);	/* the failed one counted nothing */
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK_INT(wrap.munlock_calls, 1);
	udrv_soft_pwm_free(pwm);
}

/* The first write fails: the start's error. A later one: the thread
 * ends, running() and stop() say why, once; then it starts again. */
static void test_write_fails(void)
{
	struct udrv_soft_pwm *pwm = new_pwm(fake_request(), OUT_IDX, NULL);

	fail_write = 1;
	fail_err = EPERM;
	CHECK_INT(udrv_soft_pwm_start(pwm), -EPERM);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm),
		       "soft PWM on line 6 of gpiochip7: driving it high: fake write refused");
	CHECK_INT(udrv_soft_pwm_running(pwm), 0);

	fail_write = 3;
	fail_err = ENODEV;
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(wait_ended(pwm), -ENODEV);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "driving it high");
	CHECK_INT(udrv_soft_pwm_start(pwm), -EBUSY);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "ended on an error");
	CHECK_INT(udrv_soft_pwm_stop(pwm), -ENODEV);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK_INT(udrv_soft_pwm_running(pwm), 0);
	CHECK_INT(nrec, 2);

	fail_write = 0;
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK_INT(rec[nrec - 1].level, 0);
	udrv_soft_pwm_free(pwm);
}

/* ---- a real thread, the real clock, the sysfs backend ---- */

static int wait_periods(struct udrv_soft_pwm *pwm, uint64_t n)
{
	struct udrv_soft_pwm_stats st = { 0 };

	while (udrv_soft_pwm_running(pwm) == 1 &&
	       !udrv_soft_pwm_stats(pwm, &st) && st.periods < n)
		pause_ms(1);
	return udrv_soft_pwm_running(pwm);
}

static void test_real_thread_sysfs(void)
{
	static const struct udrv_request_config rc = {
		.backend = UDRV_BACKEND_SYSFS,
	};
	struct udrv_line_settings ls = { .direction = UDRV_DIR_OUTPUT };
	struct udrv_chip *chip = udrv_chip_new();
	struct udrv_soft_pwm_stats st;
	struct udrv_request *req = NULL;
	struct udrv_soft_pwm *pwm;
	unsigned int off = 2;

	alarm(30);
	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_gpio_export_start();
	CHECK_INT(udrv_chip_open(chip, "fake-wire"), 0);
	CHECK_INT(udrv_chip_request(chip, &rc, 1, &off, &ls, &req), 0);
	if (!req)
		return;
	pwm = new_pwm(req, 0, NULL);
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(wait_periods(pwm, 3), 1);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio514/value", "0"));
	st = stats_of(pwm);
	CHECK(st.periods >= 3);
	CHECK(st.edges >= 1);
	CHECK(st.missed <= st.periods);

	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(udrv_soft_pwm_start(pwm), 0);
	CHECK_INT(wait_periods(pwm, 2), 1);
	CHECK_INT(udrv_soft_pwm_stop(pwm), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio514/value", "1"));
	udrv_soft_pwm_free(pwm);
	udrv_request_release(req);
	udrv_chip_free(chip);
}

/* ---- refusals ---- */

static void check_new_refused(struct udrv_request *req, size_t idx,
			      const struct udrv_soft_pwm_config *cfg,
			      const char *msg)
{
	struct udrv_soft_pwm *pwm = (struct udrv_soft_pwm *)1;

	CHECK_INT(udrv_soft_pwm_new(req, idx, cfg, &pwm), -EINVAL);
	CHECK(pwm == NULL);
	CHECK_CONTAINS(udrv_request_errmsg(req), msg);
}

static void test_new_refused(void)
{
	struct udrv_request *req = fake_request();
	struct udrv_soft_pwm_config c;
	struct udrv_soft_pwm *pwm = NULL;
	unsigned char big[sizeof(c) + 8] = { 0 };

	check_new_refused(req, 3, NULL, "line index 3 out of range: the request holds 3 lines");
	check_new_refused(req, 0, NULL, "line 5 of gpiochip7 (index 0) is an input: request it as an output");
	c = (struct udrv_soft_pwm_config){ .priority = 100 };
	check_new_refused(req, 1, &c, "priority 100: SCHED_FIFO priorities are 1..99");
	c = (struct udrv_soft_pwm_config){ .priority = -1 };
	check_new_refused(req, 1, &c, "priority -1");
	c = (struct udrv_soft_pwm_config){ .flags = 0x4 };
	check_new_refused(req, 1, &c, "unknown bits 0x4");
	c = (struct udrv_soft_pwm_config){ .cpu = 3 };
	check_new_refused(req, 1, &c, "without UDRV_SOFT_PWM_PIN_CPU");
	c = (struct udrv_soft_pwm_config){ .flags = UDRV_SOFT_PWM_PIN_CPU, .cpu = -1 };
	check_new_refused(req, 1, &c, "CPU -1 does not exist");
	c = (struct udrv_soft_pwm_config){ .tail_ns = UDRV_SOFT_PWM_TAIL_MAX_NS + 1 };
	check_new_refused(req, 1, &c, "at most 1000000 ns");
	CHECK_INT(udrv_soft_pwm_new_sz(req, 1, &c, 4, &pwm), -EINVAL);
	CHECK_CONTAINS(udrv_request_errmsg(req), "struct udrv_soft_pwm_config of 4 bytes");
	big[sizeof(c) + 2] = 1;
	CHECK_INT(udrv_soft_pwm_new_sz(req, 1, (void *)big, sizeof(big), &pwm), -E2BIG);
	CHECK_INT(udrv_soft_pwm_new(req, 1, NULL, NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_new(NULL, 1, NULL, &pwm), -EINVAL);

	/* an adopted request (no consumer) does not know its directions */
	req->consumer[0] = '\0';
	CHECK_INT(udrv_soft_pwm_new(req, 0, NULL, &pwm), 0);
	udrv_soft_pwm_free(pwm);
	udrv_soft_pwm_free(NULL);
	CHECK_STR(udrv_soft_pwm_errmsg(NULL), "no udrv_soft_pwm handle");
}

static void test_settings_refused(void)
{
	struct udrv_soft_pwm *pwm = NULL;
	struct {
		struct udrv_soft_pwm_stats st;
		uint64_t extra;
	} big;
	enum udrv_pwm_polarity pol;
	uint64_t ns;

	CHECK_INT(udrv_soft_pwm_new(fake_request(), OUT_IDX, NULL, &pwm), 0);
	if (!pwm)
		return;
	CHECK_INT(udrv_soft_pwm_start(pwm), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "no period set: udrv_soft_pwm_set_config() first");
	CHECK_INT(udrv_soft_pwm_set_duty_ns(pwm, 0), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "no period set");
	CHECK_INT(udrv_soft_pwm_set_config(pwm, 0, 0), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "soft PWM on line 6 of gpiochip7: a period of 0 ns: it takes 10000 ns (100 kHz) to 60000000000 ns (60 s)");
	CHECK_INT(udrv_soft_pwm_set_config(pwm, UDRV_SOFT_PWM_PERIOD_MIN_NS - 1, 0), -EINVAL);
	CHECK_INT(udrv_soft_pwm_set_config(pwm, UDRV_SOFT_PWM_PERIOD_MAX_NS + 1, 0), -EINVAL);
	CHECK_INT(udrv_soft_pwm_set_config(pwm, UINT64_MAX, 0), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "a period of 18446744073709551615 ns");
	CHECK_INT(udrv_soft_pwm_set_config(pwm, MS, MS + 1), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "a duty cycle of 1000001 ns is above the period, 1000000 ns");
	CHECK_INT(udrv_soft_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 0);	/* nothing changed */
	CHECK_INT(udrv_soft_pwm_set_config(pwm, UDRV_SOFT_PWM_PERIOD_MIN_NS, 0), 0);
	CHECK_INT(udrv_soft_pwm_set_config(pwm, UDRV_SOFT_PWM_PERIOD_MAX_NS,
					   UDRV_SOFT_PWM_PERIOD_MAX_NS), 0);
	CHECK_INT(udrv_soft_pwm_set_duty_ns(pwm, UDRV_SOFT_PWM_PERIOD_MAX_NS + 1), -EINVAL);
	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, (enum udrv_pwm_polarity)7), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "polarity 7");
	CHECK_INT(udrv_soft_pwm_polarity(pwm, &pol), 0);
	CHECK_INT(pol, UDRV_PWM_POLARITY_NORMAL);
	CHECK_INT(udrv_soft_pwm_period_ns(pwm, NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_duty_ns(NULL, &ns), -EINVAL);
	CHECK_INT(udrv_soft_pwm_polarity(pwm, NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_start(NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_stop(NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_running(NULL), -EINVAL);
	CHECK_INT(udrv_soft_pwm_set_config(NULL, MS, 0), -EINVAL);

	CHECK_INT(udrv_soft_pwm_stats_sz(pwm, &big.st, 8), -EINVAL);
	CHECK_CONTAINS(udrv_soft_pwm_errmsg(pwm), "struct udrv_soft_pwm_stats of 8 bytes");
	memset(&big, 0xff, sizeof(big));
	CHECK_INT(udrv_soft_pwm_stats_sz(pwm, &big.st, sizeof(big)), 0);
	CHECK_INT(big.st.periods, 0);
	CHECK_INT(big.extra, 0);
	CHECK_INT(nrec, 0);	/* nothing ever driven */
	udrv_soft_pwm_free(pwm);
}

UDRV_TESTS(UDRV_T(test_thread_settings), UDRV_T(test_memory_lock_shared),
	   UDRV_T(test_thread_refused), UDRV_T(test_write_fails),
	   UDRV_T(test_real_thread_sysfs), UDRV_T(test_new_refused),
	   UDRV_T(test_settings_refused))
