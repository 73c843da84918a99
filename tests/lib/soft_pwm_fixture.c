// SPDX-License-Identifier: GPL-2.0-only
/* The software PWM tests' fixture: see soft_pwm_fixture.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "soft_pwm_fixture.h"

struct rec_edge rec[MAX_EDGES];
size_t nrec;
size_t fail_write;
int fail_err;
int out2_level = -1;
struct sim sim;

/* ---- the clock ---- */

static uint64_t sim_now(void *ctx)
{
	struct sim *s = ctx;

	/* reads in a row: the busy-wait tail's spin moves on */
	if (s->read_since_sleep)
		s->now += s->step;
	s->read_since_sleep = true;
	return s->now;
}

static void sim_acts(struct sim *s)
{
	for (size_t i = 0; i < s->nacts; i++) {
		if (s->acts[i].done || s->acts[i].at > s->now)
			continue;
		s->acts[i].done = true;
		s->acts[i].fn(s->pwm, s->acts[i].a, s->acts[i].b);
	}
}

static void sim_sleep_until(void *ctx, uint64_t t)
{
	struct sim *s = ctx;
	uint64_t wake = t + s->late_each;

	CHECK(t > s->now);	/* the loop never sleeps to the past */
	if (s->nsleeps < sizeof(s->sleeps) / sizeof(s->sleeps[0]))
		s->sleeps[s->nsleeps++] = t;
	if (s->stall_to && !s->stalled && wake >= s->stall_at) {
		s->stalled = true;
		wake = s->stall_to;
	}
	if (wake > s->now)
		s->now = wake;
	s->read_since_sleep = false;
	sim_acts(s);
}

const struct spwm_clock sim_clock = {
	.now = sim_now,
	.sleep_until = sim_sleep_until,
};

void sim_at(uint64_t at, sim_act_fn fn, uint64_t a, uint64_t b)
{
	if (sim.nacts >= MAX_ACTS) {
		CHECK(!"too many actions");
		return;
	}
	sim.acts[sim.nacts].at = at;
	sim.acts[sim.nacts].fn = fn;
	sim.acts[sim.nacts].a = a;
	sim.acts[sim.nacts].b = b;
	sim.acts[sim.nacts].done = false;
	sim.nacts++;
}

void act_config(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b)
{
	CHECK_INT(udrv_soft_pwm_set_config(pwm, a, b), 0);
}

void act_duty(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b)
{
	(void)b;
	CHECK_INT(udrv_soft_pwm_set_duty_ns(pwm, a), 0);
}

void act_stop(struct udrv_soft_pwm *pwm, uint64_t a, uint64_t b)
{
	(void)a;
	(void)b;
	udrv_spwm_ask_stop(pwm);
}

/* ---- the line ---- */

static struct udrv_backend_ops rec_ops;
static struct udrv_request req;

static int rec_set_value(struct udrv_request *r, size_t idx, int value)
{
	CHECK(idx == OUT_IDX || idx == OUT2_IDX);
	if (idx == OUT2_IDX) {
		out2_level = value;
		return 0;
	}
	if (fail_write && nrec + 1 == fail_write)
		return udrv_err(r->errmsg, fail_err, "fake write refused");
	if (nrec < MAX_EDGES) {
		rec[nrec].t = sim.now;
		rec[nrec].level = value;
	}
	nrec++;
	return 0;
}

static int rec_set(struct udrv_request *r, uint64_t mask, uint64_t values)
{
	return rec_set_value(r, OUT_IDX, !!(values & mask));
}

static void rec_release(struct udrv_request *r)
{
	(void)r;
}

struct udrv_request *fake_request(void)
{
	alarm(20);		/* a loop that never ends: killed, failed */
	memset(&req, 0, sizeof(req));
	memset(&sim, 0, sizeof(sim));
	nrec = 0;
	fail_write = 0;
	out2_level = -1;
	rec_ops.name = "test";
	rec_ops.set = rec_set;
	rec_ops.set_value = rec_set_value;
	rec_ops.release = rec_release;
	req.ops = &rec_ops;
	req.set_value = rec_set_value;
	req.backend = UDRV_BACKEND_CDEV;
	req.fd = -1;
	req.num_lines = 3;
	req.offsets[0] = 5;
	req.offsets[1] = 6;
	req.offsets[2] = 7;
	req.settings[1].direction = UDRV_DIR_OUTPUT;
	req.settings[2].direction = UDRV_DIR_OUTPUT;
	strcpy(req.chip_name, "gpiochip7");
	strcpy(req.chip_label, "fake-wire");
	strcpy(req.consumer, "udrv-pwm");
	return &req;
}

struct udrv_soft_pwm *sim_pwm(struct udrv_request *r,
			      const struct udrv_soft_pwm_config *cfg,
			      uint64_t period, uint64_t duty)
{
	struct udrv_soft_pwm *pwm = NULL;

	CHECK_INT(udrv_soft_pwm_new(r, OUT_IDX, cfg, &pwm), 0);
	if (!pwm)
		return NULL;
	sim.now = T0;
	sim.pwm = pwm;
	pwm->clock = &sim_clock;
	pwm->clock_ctx = &sim;
	if (period)
		CHECK_INT(udrv_soft_pwm_set_config(pwm, period, duty), 0);
	return pwm;
}

int sim_run(struct udrv_soft_pwm *pwm)
{
	int ret;

	udrv_spwm_begin(pwm);
	ret = udrv_spwm_loop(pwm);
	udrv_spwm_end(pwm, ret);
	return ret;
}

/* ---- what was seen ---- */

static void print_edges(void)
{
	for (size_t i = 0; i < nrec && i < MAX_EDGES; i++)
		printf("#   %zu: T0 + %" PRIu64 " ns: %d\n", i, (uint64_t)(rec[i].t - T0),
		       rec[i].level);
}

void check_edges(const struct rec_edge *want, size_t n)
{
	bool same = nrec == n;

	for (size_t i = 0; same && i < n; i++)
		same = rec[i].t == want[i].t && rec[i].level == want[i].level;
	if (same)
		return;
	CHECK(!"the edges are not the expected ones");
	printf("# expected:\n");
	for (size_t i = 0; i < n; i++)
		printf("#   %zu: T0 + %" PRIu64 " ns: %d\n", i, (uint64_t)(want[i].t - T0),
		       want[i].level);
	printf("# driven:\n");
	print_edges();
}

struct udrv_soft_pwm_stats stats_of(struct udrv_soft_pwm *pwm)
{
	struct udrv_soft_pwm_stats st;

	memset(&st, 0xff, sizeof(st));
	CHECK_INT(udrv_soft_pwm_stats(pwm, &st), 0);
	return st;
}
