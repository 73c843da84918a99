// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rig/bench/pwm/pwm_wave.c: udrv-bench pwm's reading of the
 * wire's edges into pulse widths and periods, on made-up edge sequences:
 * exact ones, late edges, a missing pulse, the last pulse left out, an
 * edge repeated, the kernel's lost count; the timeline of each pulse's
 * signed width error, and its bound.
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "pwm/pwm.h"

#define PERIOD	1000000ULL	/* 1 kHz */
#define WIDTH	500000ULL
#define MAXEV	(2 * PWM_TIMELINE_MAX + 16)

struct seq {
	struct udrv_edge_event ev[MAXEV];
	size_t n;
};

static struct pwm_timeline tl;

static void edge(struct seq *s, uint64_t t, enum udrv_edge e)
{
	memset(&s->ev[s->n], 0, sizeof(s->ev[0]));
	s->ev[s->n].timestamp_ns = t;
	s->ev[s->n].edge = e;
	s->n++;
}

/* pulse k of a waveform from t0, its rising edge @late_r and falling @late_f late */
static void pulse(struct seq *s, uint64_t k, uint64_t late_r, uint64_t late_f)
{
	edge(s, 1000 + k * PERIOD + late_r, UDRV_EDGE_RISING);
	edge(s, 1000 + k * PERIOD + WIDTH + late_f, UDRV_EDGE_FALLING);
}

static void measure(const struct seq *s, struct udrv_hist *w, struct udrv_hist *p,
		    struct pwm_measure *m)
{
	udrv_hist_reset(w);
	udrv_hist_reset(p);
	pwm_measure(s->ev, s->n, PERIOD, WIDTH, w, p, &tl, m);
}

static void test_exact(void)
{
	struct udrv_hist *w = udrv_hist_new(), *p = udrv_hist_new();
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	for (uint64_t k = 0; k < 10; k++)
		pulse(&s, k, 0, 0);
	measure(&s, w, p, &m);
	CHECK_INT(m.edges, 20);
	CHECK_INT(m.pulses, 9);		/* the last one left out */
	CHECK_INT(m.periods, 9);
	CHECK_INT(m.expected, 10);
	CHECK_INT(m.missing, 0);
	CHECK_INT(m.repeated, 0);
	CHECK_INT(m.first_ns, 1000);	/* t0: --trace-on-spike's edges from it */
	CHECK_INT(udrv_hist_count(w), 9);
	CHECK_INT(udrv_hist_max(w), 0);
	CHECK_INT(udrv_hist_max(p), 0);
	udrv_hist_free(w);
	udrv_hist_free(p);
}

/* a rising edge 3 us late: its pulse 3 us short, the periods around it
 * 3 us long and short; a falling edge 7 us late: 7 us long */
static void test_late_edges(void)
{
	struct udrv_hist *w = udrv_hist_new(), *p = udrv_hist_new();
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	for (uint64_t k = 0; k < 6; k++)
		pulse(&s, k, k == 2 ? 3000 : 0, k == 4 ? 7000 : 0);
	measure(&s, w, p, &m);
	CHECK_INT(m.pulses, 5);
	CHECK_INT(udrv_hist_max(w), 7000);
	CHECK_INT(udrv_hist_percentile(w, 50), 0);
	CHECK_INT(m.periods, 5);
	CHECK_INT(udrv_hist_max(p), 3000);
	CHECK_INT(udrv_hist_count(p), 5);
	/* a late last pulse is not measured (a stop may cut it) */
	s.n = 0;
	for (uint64_t k = 0; k < 4; k++)
		pulse(&s, k, 0, k == 3 ? 90000 : 0);
	measure(&s, w, p, &m);
	CHECK_INT(udrv_hist_max(w), 0);
	udrv_hist_free(w);
	udrv_hist_free(p);
}

/* pulses 3 and 4 skipped: two missing, one long gap that is no period sample */
static void test_missing(void)
{
	struct udrv_hist *w = udrv_hist_new(), *p = udrv_hist_new();
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	for (uint64_t k = 0; k < 8; k++)
		if (k != 3 && k != 4)
			pulse(&s, k, 0, 0);
	measure(&s, w, p, &m);
	CHECK_INT(m.expected, 8);
	CHECK_INT(m.missing, 2);
	CHECK_INT(m.periods, 4);		/* 0-1, 1-2, 5-6, 6-7 */
	CHECK_INT(udrv_hist_max(p), 0);
	CHECK_INT(m.pulses, 5);
	udrv_hist_free(w);
	udrv_hist_free(p);
}

/* an edge in the direction of the one before is counted, and a falling
 * edge with no rising one before it is no pulse */
static void test_repeated_and_lost(void)
{
	struct udrv_hist *w = udrv_hist_new(), *p = udrv_hist_new();
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	edge(&s, 10, UDRV_EDGE_FALLING);
	pulse(&s, 1, 0, 0);
	edge(&s, 1000 + PERIOD + WIDTH + 5, UDRV_EDGE_FALLING);
	pulse(&s, 2, 0, 0);
	pulse(&s, 3, 0, 0);
	s.ev[3].lost = 2;
	measure(&s, w, p, &m);
	CHECK_INT(m.repeated, 1);
	CHECK_INT(m.lost, 2);
	CHECK_INT(m.pulses, 2);
	CHECK_INT(udrv_hist_max(w), 0);
	/* NULL histograms: the counts alone */
	pwm_measure(s.ev, s.n, PERIOD, WIDTH, NULL, NULL, NULL, &m);
	CHECK_INT(m.pulses, 2);
	pwm_measure(s.ev, 0, PERIOD, WIDTH, w, p, &tl, &m);
	CHECK_INT(m.edges, 0);
	CHECK_INT(m.expected, 0);
	CHECK_INT(tl.len, 0);
	udrv_hist_free(w);
	udrv_hist_free(p);
}

/*
 * The timeline: each measured pulse's signed error (a rising edge 3 us late:
 * 3 us short, a falling one 7 us late: 7 us long) at its rising edge's time
 * from the first; a missing pulse leaves a gap in the starts, the last
 * pulse none.
 */
static void test_timeline(void)
{
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	for (uint64_t k = 0; k < 7; k++)
		if (k != 3)
			pulse(&s, k, k == 1 ? 3000 : 0, k == 4 ? 7000 : 0);
	pwm_measure(s.ev, s.n, PERIOD, WIDTH, NULL, NULL, &tl, &m);
	CHECK_INT(m.pulses, 5);
	CHECK_INT(tl.len, 5);
	CHECK_INT(tl.dropped, 0);
	CHECK_INT(tl.pulse[0].start_ns, 0);
	CHECK_INT(tl.pulse[0].error_ns, 0);
	CHECK_INT(tl.pulse[1].start_ns, PERIOD + 3000);
	CHECK_INT(tl.pulse[1].error_ns, -3000);
	CHECK_INT(tl.pulse[2].start_ns, 2 * PERIOD);
	CHECK_INT(tl.pulse[3].start_ns, 4 * PERIOD);	/* pulse 3 missing */
	CHECK_INT(tl.pulse[3].error_ns, 7000);
	CHECK_INT(tl.pulse[4].start_ns, 5 * PERIOD);
	/* a second run starts its own */
	s.n = 0;
	for (uint64_t k = 2; k < 5; k++)
		pulse(&s, k, 0, 10);
	pwm_measure(s.ev, s.n, PERIOD, WIDTH, NULL, NULL, &tl, &m);
	CHECK_INT(tl.len, 2);
	CHECK_INT(tl.pulse[0].start_ns, 0);
	CHECK_INT(tl.pulse[1].start_ns, PERIOD);
	CHECK_INT(tl.pulse[1].error_ns, 10);
}

/* the first PWM_TIMELINE_MAX pulses are kept, the rest counted */
static void test_timeline_bound(void)
{
	struct udrv_hist *w = udrv_hist_new(), *p = udrv_hist_new();
	struct pwm_measure m;
	static struct seq s;

	s.n = 0;
	for (uint64_t k = 0; k < PWM_TIMELINE_MAX + 6; k++)
		pulse(&s, k, 0, k == PWM_TIMELINE_MAX + 2 ? 5000 : 1);
	measure(&s, w, p, &m);
	CHECK_INT(m.pulses, PWM_TIMELINE_MAX + 5);
	CHECK_INT(tl.len, PWM_TIMELINE_MAX);
	CHECK_INT(tl.dropped, 5);
	CHECK_INT(tl.pulse[PWM_TIMELINE_MAX - 1].start_ns, (PWM_TIMELINE_MAX - 1) * PERIOD);
	CHECK_INT(tl.pulse[PWM_TIMELINE_MAX - 1].error_ns, 1);
	/* the histogram has them all */
	CHECK_INT(udrv_hist_count(w), PWM_TIMELINE_MAX + 5);
	CHECK_INT(udrv_hist_max(w), 5000);
	udrv_hist_free(w);
	udrv_hist_free(p);
}

UDRV_TESTS(
	UDRV_T(test_exact),
	UDRV_T(test_late_edges),
	UDRV_T(test_missing),
	UDRV_T(test_repeated_and_lost),
	UDRV_T(test_timeline),
	UDRV_T(test_timeline_bound),
)
