// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software PWM's waveform on a simulated clock (soft_pwm_fixture.h):
 * every edge at its deadline to the ns, 0 % and 100 % as steady levels,
 * polarity, a change at the next period boundary (never inside a pulse),
 * late wake-ups and stalls counted as missed and the line still at the
 * right level, the busy-wait tail, a stop that lets the pulse end and
 * leaves the line inactive, a restart.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "soft_pwm_fixture.h"

static void test_edges_on_deadlines(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	struct udrv_soft_pwm_stats st;

	/* asked during the fourth pulse: that pulse ends first */
	sim_at(T0 + 3 * MS + 100 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 250 * US, 0 },
		    { T0 + 1 * MS, 1 }, { T0 + 1 * MS + 250 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 250 * US, 0 },
		    { T0 + 3 * MS, 1 }, { T0 + 3 * MS + 250 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 4);
	CHECK_INT(st.edges, 8);
	CHECK_INT(st.missed, 0);
	CHECK_INT(st.skipped, 0);
	CHECK_INT(st.worst_late_ns, 0);
	/* it slept to each deadline, never further than one */
	CHECK_INT(sim.nsleeps, 7);
	CHECK_INT(sim.sleeps[0], T0 + 250 * US);
	CHECK_INT(sim.sleeps[6], T0 + 3 * MS + 250 * US);
	udrv_soft_pwm_free(pwm);
}

/* Every wake-up 3 us late: each edge 3 us after its own deadline, from
 * the start, never more: the lateness does not add up. */
static void test_no_drift(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, 1500 * US,
					    500 * US);
	struct udrv_soft_pwm_stats st;
	bool exact = true;

	sim.late_each = 3 * US;
	sim_at(T0 + 20 * 1500 * US - 700 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_INT(nrec, 40);
	CHECK_INT(rec[0].t, T0);
	for (size_t k = 1; k < 20 && nrec == 40; k++)
		exact = exact && rec[2 * k].t == T0 + k * 1500 * US + 3 * US &&
			rec[2 * k].level == 1 &&
			rec[2 * k + 1].t == T0 + k * 1500 * US + 503 * US &&
			rec[2 * k + 1].level == 0;
	CHECK(exact);
	st = stats_of(pwm);
	CHECK_INT(st.periods, 20);
	CHECK_INT(st.worst_late_ns, 3 * US);
	CHECK_INT(st.missed, 0);
	udrv_soft_pwm_free(pwm);
}

/* Duty 0 and the whole period: one level, driven once, no edges after;
 * the stop of a 100 % PWM leaves it inactive. */
static void test_steady_levels(void)
{
	struct udrv_request *req = fake_request();
	struct udrv_soft_pwm *pwm = sim_pwm(req, NULL, MS, 0);
	struct udrv_soft_pwm_stats st;

	sim_at(T0 + 10 * MS + 1, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 11);
	CHECK_INT(st.edges, 1);
	udrv_soft_pwm_free(pwm);

	pwm = sim_pwm(fake_request(), NULL, MS, MS);
	sim_at(T0 + 5 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 6 * MS, 0 });
	CHECK_INT(stats_of(pwm).edges, 1);	/* the stop's is on no deadline */
	udrv_soft_pwm_free(pwm);
}

static void test_inversed(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 100 * US);
	enum udrv_pwm_polarity pol = UDRV_PWM_POLARITY_NORMAL;

	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(udrv_soft_pwm_polarity(pwm, &pol), 0);
	CHECK_INT(pol, UDRV_PWM_POLARITY_INVERSED);
	sim_at(T0 + 1 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 0 }, { T0 + 100 * US, 1 },
		    { T0 + MS, 0 }, { T0 + MS + 100 * US, 1 });
	udrv_soft_pwm_free(pwm);

	/* inversed at 100 %: low throughout, high when stopped */
	pwm = sim_pwm(fake_request(), NULL, MS, MS);
	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	sim_at(T0 + 2 * MS, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 0 }, { T0 + 2 * MS, 1 });
	udrv_soft_pwm_free(pwm);
}

/*
 * A change inside a pulse: that pulse ends with its own duty cycle, its
 * period keeps its length, the new waveform starts at the boundary and
 * its deadlines count from there. Two changes in one period: the last.
 */
static void test_change_at_boundary(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	uint64_t ns = 0;

	sim_at(T0 + MS + 100 * US, act_config, 2 * MS, 500 * US);
	/* in the gap of the first 2 ms period: two, the second wins */
	sim_at(T0 + 2 * MS + 600 * US, act_duty, 300 * US, 0);
	sim_at(T0 + 2 * MS + 700 * US, act_duty, 1500 * US, 0);
	sim_at(T0 + 5 * MS + 700 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 250 * US, 0 },
		    { T0 + MS, 1 }, { T0 + MS + 250 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 500 * US, 0 },
		    { T0 + 4 * MS, 1 }, { T0 + 5 * MS + 500 * US, 0 });
	CHECK_INT(stats_of(pwm).periods, 4);
	CHECK_INT(udrv_soft_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 2 * MS);
	CHECK_INT(udrv_soft_pwm_duty_ns(pwm, &ns), 0);
	CHECK_INT(ns, 1500 * US);
	udrv_soft_pwm_free(pwm);
}

/* 50 % to 100 % and back: the line stays active across the boundaries,
 * then the pulse that was under way falls at its own deadline. */
static void test_change_through_full(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 500 * US);

	sim_at(T0 + 600 * US, act_duty, MS, 0);
	sim_at(T0 + 2 * MS + 100 * US, act_duty, 400 * US, 0);
	sim_at(T0 + 3 * MS + 450 * US, act_duty, 0, 0);
	sim_at(T0 + 4 * MS + 100 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 500 * US, 0 },
		    { T0 + MS, 1 },
		    { T0 + 3 * MS + 400 * US, 0 });
	udrv_soft_pwm_free(pwm);
}

/*
 * A rising edge more than late_ns late is not driven: the period is
 * missed and skipped, the line stays low. A late falling edge is driven
 * late: the period is missed, and the lateness is the worst one seen.
 */
static void test_late_edges(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	struct udrv_soft_pwm_stats st;

	sim.stall_at = T0 + MS;
	sim.stall_to = T0 + MS + 80 * US;
	sim_at(T0 + 2 * MS + 200 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 250 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 250 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 3);
	CHECK_INT(st.missed, 1);
	CHECK_INT(st.skipped, 1);
	CHECK_INT(st.worst_late_ns, 80 * US);
	udrv_soft_pwm_free(pwm);

	pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	sim.stall_at = T0 + MS + 250 * US;
	sim.stall_to = T0 + MS + 350 * US;
	sim_at(T0 + 2 * MS + 200 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 250 * US, 0 },
		    { T0 + MS, 1 }, { T0 + MS + 350 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 250 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.missed, 1);
	CHECK_INT(st.skipped, 0);
	CHECK_INT(st.worst_late_ns, 100 * US);
	udrv_soft_pwm_free(pwm);
}

/* Late by less than late_ns: on time as far as the counts go, but the
 * lateness is seen; late past a pulse shorter than late_ns: skipped. */
static void test_late_within_tolerance(void)
{
	struct udrv_soft_pwm_config cfg = { .late_ns = 20 * US };
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), &cfg, MS, 10 * US);
	struct udrv_soft_pwm_stats st;

	sim.stall_at = T0 + MS;
	sim.stall_to = T0 + MS + 15 * US;
	sim_at(T0 + 2 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 10 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 10 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.missed, 1);
	CHECK_INT(st.skipped, 1);
	CHECK_INT(st.worst_late_ns, 15 * US);

	pwm->cfg.late_ns = 20 * US;
	CHECK_INT(udrv_soft_pwm_set_config(pwm, MS, 100 * US), 0);
	memset(&sim.acts, 0, sizeof(sim.acts));
	sim.nacts = 0;
	sim.now = T0;
	sim.stalled = false;
	nrec = 0;
	sim_at(T0 + 2 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 100 * US, 0 },
		    { T0 + MS + 15 * US, 1 }, { T0 + MS + 100 * US, 0 },
		    { T0 + 2 * MS, 1 }, { T0 + 2 * MS + 100 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.missed, 0);
	CHECK_INT(st.worst_late_ns, 15 * US);
	udrv_soft_pwm_free(pwm);
}

/* The thread wakes 4.5 periods late between pulses: each period wholly
 * over is missed and skipped at once, the one in progress too (its rise
 * long past), and the next starts on its own deadline. */
static void test_stall_between_pulses(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	struct udrv_soft_pwm_stats st;

	sim.stall_at = T0 + MS;
	sim.stall_to = T0 + 5 * MS + 500 * US;
	sim_at(T0 + 6 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 250 * US, 0 },
		    { T0 + 6 * MS, 1 }, { T0 + 6 * MS + 250 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 7);
	CHECK_INT(st.missed, 5);
	CHECK_INT(st.skipped, 5);
	CHECK_INT(st.worst_late_ns, 4 * MS + 500 * US);
	udrv_soft_pwm_free(pwm);
}

/* A stall inside a pulse: the pulse ends when the thread wakes (late,
 * missed), the periods it overran are skipped: the line is low again
 * and the next pulse is on its deadline. */
static void test_stall_in_pulse(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	struct udrv_soft_pwm_stats st;

	sim.stall_at = T0 + 250 * US;
	sim.stall_to = T0 + 3 * MS + 100 * US;
	sim_at(T0 + 4 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 3 * MS + 100 * US, 0 },
		    { T0 + 4 * MS, 1 }, { T0 + 4 * MS + 250 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 5);
	CHECK_INT(st.missed, 4);
	CHECK_INT(st.skipped, 3);
	CHECK_INT(st.worst_late_ns, 2 * MS + 850 * US);
	CHECK_INT(udrv_soft_pwm_running(pwm), 0);	/* no thread */
	udrv_soft_pwm_free(pwm);
}

/* A stall of a steady level: no edge was due, nothing missed; a level
 * change due at a boundary and made late counts. */
static void test_stall_steady(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, MS);
	struct udrv_soft_pwm_stats st;

	sim.stall_at = T0 + MS;
	sim.stall_to = T0 + 3 * MS + 500 * US;
	sim_at(T0 + 3 * MS + 400 * US, act_duty, 0, 0);
	sim_at(T0 + 4 * MS + 500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	/* 0 % from the boundary the thread saw late, T0 + 1 ms */
	CHECK_EDGES({ T0, 1 }, { T0 + 3 * MS + 500 * US, 0 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 5);
	CHECK_INT(st.missed, 1);
	CHECK_INT(st.skipped, 0);
	udrv_soft_pwm_free(pwm);
}

/* The busy-wait tail: asleep until tail_ns before each deadline, then
 * the clock read (1 us a read here) up to it: each edge on it exactly. */
static void test_busy_tail(void)
{
	struct udrv_soft_pwm_config cfg = { .tail_ns = 20 * US };
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), &cfg, MS, 300 * US);

	sim.step = US;
	sim_at(T0 + MS + 400 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + 300 * US, 0 },
		    { T0 + MS, 1 }, { T0 + MS + 300 * US, 0 });
	CHECK_INT(sim.nsleeps, 4);
	CHECK_INT(sim.sleeps[0], T0 + 280 * US);
	CHECK_INT(sim.sleeps[1], T0 + 980 * US);
	CHECK_INT(sim.sleeps[2], T0 + MS + 280 * US);
	CHECK_INT(sim.sleeps[3], T0 + MS + 980 * US);	/* the stop seen */
	CHECK_INT(stats_of(pwm).worst_late_ns, 0);
	udrv_soft_pwm_free(pwm);
}

/* Long periods: asleep 50 ms at a time, so a stop between pulses is seen
 * within 50 ms; a stop inside a pulse waits for its end. */
static void test_stop_long_period(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, 10 * S, S);

	sim_at(T0 + S + 120 * MS, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + S, 0 });
	CHECK_INT(sim.now, T0 + S + 150 * MS);
	CHECK_INT(sim.sleeps[0], T0 + 50 * MS);
	udrv_soft_pwm_free(pwm);

	pwm = sim_pwm(fake_request(), NULL, 10 * S, S);
	sim_at(T0 + 300 * MS, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0, 1 }, { T0 + S, 0 });
	CHECK_INT(sim.now, T0 + S);
	udrv_soft_pwm_free(pwm);
}

/* Stopped, its changes wait for the next start (nothing driven); a start
 * begins a new waveform at its own time and counts again. */
static void test_restart(void)
{
	struct udrv_soft_pwm *pwm = sim_pwm(fake_request(), NULL, MS, 250 * US);
	struct udrv_soft_pwm_stats st;

	sim_at(T0 + 1500 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_INT(nrec, 4);
	CHECK_INT(udrv_soft_pwm_set_config(pwm, 2 * MS, 1500 * US), 0);
	CHECK_INT(udrv_soft_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(nrec, 4);
	CHECK_INT(stats_of(pwm).periods, 2);	/* kept after the stop */

	sim.now = T0 + 10 * MS;
	sim.nacts = 0;
	nrec = 0;
	sim_at(T0 + 12 * MS + 100 * US, act_stop, 0, 0);
	CHECK_INT(sim_run(pwm), 0);
	CHECK_EDGES({ T0 + 10 * MS, 0 }, { T0 + 11 * MS + 500 * US, 1 },
		    { T0 + 12 * MS, 0 }, { T0 + 13 * MS + 500 * US, 1 });
	st = stats_of(pwm);
	CHECK_INT(st.periods, 2);
	CHECK_INT(st.edges, 4);
	udrv_soft_pwm_free(pwm);
}

UDRV_TESTS(UDRV_T(test_edges_on_deadlines), UDRV_T(test_no_drift),
	   UDRV_T(test_steady_levels), UDRV_T(test_inversed),
	   UDRV_T(test_change_at_boundary), UDRV_T(test_change_through_full),
	   UDRV_T(test_late_edges), UDRV_T(test_late_within_tolerance),
	   UDRV_T(test_stall_between_pulses), UDRV_T(test_stall_in_pulse),
	   UDRV_T(test_stall_steady), UDRV_T(test_busy_tail),
	   UDRV_T(test_stop_long_period), UDRV_T(test_restart))
