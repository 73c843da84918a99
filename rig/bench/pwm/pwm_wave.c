// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pwm: the waveform a generator put on the wire, from the
 * kernel's timestamps of the edges on its input line (pwm.h).
 */
#include "pwm/pwm.h"

static uint64_t diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* A period from rising edge @prev to @now: one sample, or pulses missing. */
static void period(uint64_t d, uint64_t period_ns, struct udrv_hist *period_err,
		   struct pwm_measure *m)
{
	uint64_t k = pwm_whole_periods(d, period_ns);

	if (k >= 2) {
		m->missing += k - 1;
		m->expected += k;
		return;
	}
	m->expected += 1;
	m->periods++;
	if (period_err)
		udrv_hist_record(period_err, diff(d, period_ns));
}

/* A measured pulse of @w ns from rising edge @rise (@first: the run's first). */
static void pulse(uint64_t first, uint64_t rise, uint64_t w, uint64_t width_ns,
		  struct udrv_hist *width_err, struct pwm_timeline *tl)
{
	if (width_err)
		udrv_hist_record(width_err, diff(w, width_ns));
	if (!tl)
		return;
	if (tl->len == PWM_TIMELINE_MAX) {
		tl->dropped++;
		return;
	}
	tl->pulse[tl->len++] = (struct pwm_pulse){
		.start_ns = rise - first,
		.error_ns = w >= width_ns ? (int64_t)(w - width_ns) : -(int64_t)(width_ns - w),
	};
}

void pwm_measure(const struct udrv_edge_event *ev, size_t n, uint64_t period_ns,
		 uint64_t width_ns, struct udrv_hist *width_err,
		 struct udrv_hist *period_err, struct pwm_timeline *timeline,
		 struct pwm_measure *m)
{
	uint64_t first = 0, rise = 0, pending = 0, pending_rise = 0;
	bool have_rise = false, have_pending = false;
	enum udrv_edge last = UDRV_EDGE_NONE;

	*m = (struct pwm_measure){ .edges = n };
	if (timeline) {
		timeline->len = 0;
		timeline->dropped = 0;
	}
	for (size_t i = 0; i < n; i++) {
		m->lost += ev[i].lost;
		if (ev[i].edge == last)
			m->repeated++;
		last = ev[i].edge;
		if (ev[i].edge == UDRV_EDGE_RISING) {
			if (have_rise) {
				period(ev[i].timestamp_ns - rise, period_ns, period_err, m);
			} else {
				m->expected = 1;
				first = ev[i].timestamp_ns;
				m->first_ns = first;
			}
			rise = ev[i].timestamp_ns;
			have_rise = true;
			continue;
		}
		if (!have_rise || (i && ev[i - 1].edge != UDRV_EDGE_RISING))
			continue;
		/* the pulse before this one was not the last: measure it */
		if (have_pending)
			pulse(first, pending_rise, pending, width_ns, width_err, timeline);
		m->pulses += have_pending;
		pending = ev[i].timestamp_ns - rise;
		pending_rise = rise;
		have_pending = true;
	}
}
