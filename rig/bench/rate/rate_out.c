// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench rate's figures and output: a step's loss and rates, whether a
 * receiver kept up, its knee, throughput and CPU per event against the bare
 * read(), the results document's "rate" object and the tables (the sweep
 * itself is rate.c).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "rate.h"

#define RATE_KEPT_UP		0.95	/* received / offered per second */

uint64_t rate_lost(const struct rate_step *st)
{
	return st->c.made > st->received ? st->c.made - st->received : 0;
}

double rate_per_s(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0;
}

/* events delivered per second of their arrival */
double rate_received_per_s(const struct rate_step *s)
{
	return rate_per_s(s->received, s->elapsed_ns);
}

/*
 * Kept up: nothing lost, and nothing left behind either: the events came
 * in at the rate offered, at least RATE_KEPT_UP of it (a receiver behind a
 * source that queues without bound, as uio-ticker's notifier on PREEMPT_RT
 * does, loses nothing but reads its events long after the step).
 */
bool rate_kept_up(const struct rate_step *st)
{
	return st->c.made && !rate_lost(st) &&
	       rate_received_per_s(st) >= RATE_KEPT_UP *
					  rate_per_s(st->c.made, st->duration_ns);
}


static const struct rate_recv *rate_raw_of(const struct rate_bench *b,
					   enum rate_mech m)
{
	for (size_t i = 0; i < b->nrecv; i++)
		if (b->recv[i].mech == m && b->recv[i].impl == RATE_RAW &&
		    b->recv[i].best >= 0)
			return &b->recv[i];
	return NULL;
}

static double rate_ns_per_event(const struct rate_recv *r)
{
	const struct rate_step *s;

	if (r->best < 0)
		return 0;
	s = &r->steps[r->best];
	return s->received ? (double)s->cpu_ns / (double)s->received : 0;
}

static double rate_step_npe(const struct rate_step *s)
{
	return s->received ? (double)s->cpu_ns / (double)s->received : 0;
}

static const struct rate_step *rate_step_at(const struct rate_recv *r,
					    uint64_t target)
{
	for (size_t i = 0; i < r->nsteps; i++)
		if (r->steps[i].target_per_s == target)
			return &r->steps[i];
	return NULL;
}

/*
 * Preempted for at most 1% of its events (or not known: the peer). Where
 * a higher irq thread preempts the receiver, the interrupts it takes land
 * while the receiver runs and are charged to its CPU (no
 * IRQ_TIME_ACCOUNTING in Debian's kernels): the CPU per event then follows
 * the phase of the loop against the source's period, which a few
 * instructions more or less change (rt, --irq-prio 90, cdev: udrv x0.98
 * of raw at 95k/s, x1.12 at 100k/s, with 2057 and 3487 preemptions per
 * 5000 events against raw's 2271 and 2733), not what the library costs.
 */
static bool rate_step_quiet(const struct rate_step *s)
{
	return !s->has_switches || s->preempted * 100 <= s->received;
}

/*
 * CPU per event over the bare read()'s, at one offered rate for both: the
 * highest rate that the raw receiver kept up with, at which neither was
 * preempted (so neither batches more for being slower, and neither is
 * charged the interrupts of a preemption); @at: that rate. Without one,
 * at each one's throughput step (@at 0).
 */
static double rate_ratio(const struct rate_recv *r, const struct rate_recv *raw,
			 uint64_t *at)
{
	const struct rate_step *a = NULL, *b = NULL;

	*at = 0;
	if (!raw)
		return 0;
	for (size_t i = 0; i < raw->nsteps; i++) {
		const struct rate_step *s = &raw->steps[i];
		const struct rate_step *t = rate_step_at(r, s->target_per_s);

		if (t && rate_kept_up(s) && rate_step_npe(t) > 0 &&
		    rate_step_quiet(s) && rate_step_quiet(t) &&
		    (!b || s->target_per_s > b->target_per_s)) {
			a = t;
			b = s;
		}
	}
	if (a && rate_step_npe(b) > 0) {
		*at = b->target_per_s;
		return rate_step_npe(a) / rate_step_npe(b);
	}
	return rate_ns_per_event(raw) > 0 ?
	       rate_ns_per_event(r) / rate_ns_per_event(raw) : 0;
}

/* over the time the events took to arrive (elapsed_ns) */
static double rate_cpu_pct(const struct rate_step *s)
{
	return s->elapsed_ns ? 100.0 * (double)s->cpu_ns / (double)s->elapsed_ns : 0;
}

void rate_finish(struct rate_bench *b)
{
	for (size_t i = 0; i < b->nrecv; i++) {
		struct rate_recv *r = &b->recv[i];
		const struct rate_recv *raw = rate_raw_of(b, r->mech);
		struct bench_row *row = r->row;

		if (!row)
			continue;
		if (r->impl != RATE_RAW && raw)
			row->reference = bench_row_index(&b->run, raw->row);
		if (r->best >= 0)
			row->rate_per_s = rate_received_per_s(&r->steps[r->best]);
		if (r->knee >= 0) {
			const struct rate_step *k = &r->steps[r->knee];

			row->has_loss = true;
			row->sent = k->c.made;
			row->received = k->received;
			row->lost = rate_lost(k);
			bench_note_add(row->note, sizeof(row->note),
				       "latency at the knee, %.0f/s offered, CPU %.1f%%",
				       rate_per_s(k->c.made, k->duration_ns),
				       rate_cpu_pct(k));
		} else if (r->present && r->nsteps) {
			bench_note_add(row->note, sizeof(row->note),
				       "no knee: every rate lost events; no latency row");
		}
		if (r->note[0])
			bench_note_add(row->note, sizeof(row->note), "%s", r->note);
	}
}

static void rate_json_step(const struct rate_recv *r, const struct rate_step *s,
			   struct udrv_json *j)
{
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", rate_mech_names[r->mech]);
	udrv_json_kstr(j, "implementation", rate_impl_names[r->impl]);
	udrv_json_kuint(j, "target_per_s", s->target_per_s);
	udrv_json_kbool(j, "refined", s->refined);
	udrv_json_kdouble(j, "offered_per_s", rate_per_s(s->c.made, s->duration_ns));
	udrv_json_kdouble(j, "received_per_s", rate_received_per_s(s));
	udrv_json_kuint(j, "duration_ns", s->duration_ns);
	udrv_json_kuint(j, "elapsed_ns", s->elapsed_ns);
	udrv_json_kuint(j, "source_count", s->c.made);
	udrv_json_kuint(j, "received", s->received);
	udrv_json_kuint(j, "lost", rate_lost(s));
	udrv_json_kuint(j, "kernel_dropped", s->dropped);
	udrv_json_kuint(j, "masked", s->c.masked);
	udrv_json_kuint(j, "injected", s->c.injected);
	udrv_json_kuint(j, "overruns", s->c.overruns);
	udrv_json_kuint(j, "reads", s->reads);
	udrv_json_kuint(j, "cpu_ns", s->cpu_ns);
	udrv_json_kdouble(j, "cpu_pct", rate_cpu_pct(s));
	udrv_json_key(j, "preempted");
	if (s->has_switches)
		udrv_json_uint(j, s->preempted);
	else
		udrv_json_null(j);
	udrv_json_key(j, "slept");
	if (s->has_switches)
		udrv_json_uint(j, s->slept);
	else
		udrv_json_null(j);
	udrv_json_kuint(j, "samples", s->samples);
	udrv_json_kuint(j, "p50_ns", s->p50);
	udrv_json_kuint(j, "p99_ns", s->p99);
	udrv_json_kuint(j, "max_ns", s->max);
	udrv_json_obj_end(j);
}

static void rate_json_capacity(const struct rate_bench *b,
			       const struct rate_recv *r, struct udrv_json *j)
{
	const struct rate_recv *raw = rate_raw_of(b, r->mech);
	uint64_t at;
	double npe = rate_ns_per_event(r), ratio = rate_ratio(r, raw, &at);

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", rate_mech_names[r->mech]);
	udrv_json_kstr(j, "implementation", rate_impl_names[r->impl]);
	udrv_json_kbool(j, "measured", r->present && r->nsteps);
	udrv_json_key(j, "knee_per_s");
	if (r->knee >= 0)
		udrv_json_double(j, rate_per_s(r->steps[r->knee].c.made,
					       r->steps[r->knee].duration_ns));
	else
		udrv_json_null(j);
	udrv_json_key(j, "cpu_pct_at_knee");
	if (r->knee >= 0)
		udrv_json_double(j, rate_cpu_pct(&r->steps[r->knee]));
	else
		udrv_json_null(j);
	udrv_json_key(j, "throughput_per_s");
	if (r->best >= 0)
		udrv_json_double(j, rate_received_per_s(&r->steps[r->best]));
	else
		udrv_json_null(j);
	udrv_json_key(j, "ns_per_event");
	if (npe > 0)
		udrv_json_double(j, npe);
	else
		udrv_json_null(j);
	udrv_json_key(j, "ratio_vs_raw");
	if (ratio > 0)
		udrv_json_double(j, ratio);
	else
		udrv_json_null(j);
	udrv_json_key(j, "ratio_at_per_s");
	if (ratio > 0 && at)
		udrv_json_uint(j, at);
	else
		udrv_json_null(j);
	udrv_json_kstr(j, "note", r->note[0] ? r->note : NULL);
	udrv_json_obj_end(j);
}

static void rate_json(const struct bench_run *run, struct udrv_json *j)
{
	const struct rate_bench *b = (const struct rate_bench *)run;	/* first */

	udrv_json_key(j, "rate");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "step_duration_ns", b->step_ns);
	udrv_json_kuint(j, "batch", b->batch);
	udrv_json_kuint(j, "buffer", b->buffer);
	udrv_json_kuint(j, "line", b->line);
	udrv_json_kuint(j, "refine", b->refine);
	udrv_json_key(j, "rates");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < b->nrates; i++)
		udrv_json_uint(j, b->rates[i]);
	udrv_json_arr_end(j);
	udrv_json_key(j, "steps");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < b->nrecv; i++)
		for (size_t k = 0; k < b->recv[i].nsteps; k++)
			rate_json_step(&b->recv[i], &b->recv[i].steps[k], j);
	udrv_json_arr_end(j);
	udrv_json_key(j, "capacity");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < b->nrecv; i++)
		rate_json_capacity(b, &b->recv[i], j);
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
}

static void rate_print_steps(const struct rate_bench *b, enum rate_mech m)
{
	printf("\n%s: %s\n", rate_mech_names[m],
	       m == RATE_CDEV ? "one event per read" :
	       m == RATE_CDEV_BATCH ? "up to --batch events per read" :
	       m == RATE_UIO_READ ? "blocking read" :
	       m == RATE_UIO_POLL ? "poll + read" :
	       m == RATE_IRQ ? "udrv-irq: read(), then the reply (two calls an edge)" :
	       "udrv-irq: the reply and the next wait in one call");
	printf("%-13s %8s %10s %9s %8s %8s %7s %6s %6s %6s %8s %8s %9s\n", "impl",
	       "target", "offered/s", "received", "lost", "dropped", "masked",
	       "ev/rd", "CPU%", "pre/ev", "p50", "p99", "max(ns)");
	for (size_t i = 0; i < b->nrecv; i++) {
		const struct rate_recv *r = &b->recv[i];

		if (r->mech != m)
			continue;
		if (!r->present)
			printf("%-13s %s\n", rate_impl_names[r->impl], r->note);
		for (size_t k = 0; k < r->nsteps; k++) {
			const struct rate_step *s = &r->steps[k];
			char pre[16] = "-";

			if (s->has_switches && s->received)
				snprintf(pre, sizeof(pre), "%.2f",
					 (double)s->preempted / (double)s->received);
			printf("%-13s %7llu%c %10.0f %9llu %8llu %8llu %7llu %6.2f %6.1f %6s %8llu %8llu %9llu\n",
			       rate_impl_names[r->impl],
			       (unsigned long long)s->target_per_s, s->refined ? '+' : ' ',
			       rate_per_s(s->c.made, s->duration_ns),
			       (unsigned long long)s->received,
			       (unsigned long long)rate_lost(s),
			       (unsigned long long)s->dropped,
			       (unsigned long long)s->c.masked,
			       s->reads ? (double)s->received / (double)s->reads : 0.0,
			       rate_cpu_pct(s), pre,
			       (unsigned long long)s->p50, (unsigned long long)s->p99,
			       (unsigned long long)s->max);
		}
	}
}

static void rate_print_capacity(const struct rate_bench *b)
{
	printf("\ncapacity (knee: highest offered rate with nothing lost, received/s >= 95%% of offered/s)\n");
	printf("%-11s %-13s %10s %9s %13s %9s %9s %8s\n", "mechanism", "impl",
	       "knee/s", "CPU%", "throughput/s", "ns/event", "vs raw", "at/s");
	for (size_t i = 0; i < b->nrecv; i++) {
		const struct rate_recv *r = &b->recv[i];
		const struct rate_recv *raw = rate_raw_of(b, r->mech);
		uint64_t at;
		double npe = rate_ns_per_event(r), rt = rate_ratio(r, raw, &at);
		char knee[16] = "-", cpu[16] = "-", tp[16] = "-", ns[16] = "-",
		     ratio[16] = "-", ratio_at[24] = "-";

		if (!r->present || !r->nsteps) {
			printf("%-11s %-13s %s\n", rate_mech_names[r->mech],
			       rate_impl_names[r->impl], r->present ? "not measured" : "absent");
			continue;
		}
		if (r->knee >= 0) {
			snprintf(knee, sizeof(knee), "%.0f",
				 rate_per_s(r->steps[r->knee].c.made, r->steps[r->knee].duration_ns));
			snprintf(cpu, sizeof(cpu), "%.1f", rate_cpu_pct(&r->steps[r->knee]));
		}
		snprintf(tp, sizeof(tp), "%.0f", rate_received_per_s(&r->steps[r->best]));
		if (npe > 0)
			snprintf(ns, sizeof(ns), "%.0f", npe);
		if (rt > 0)
			snprintf(ratio, sizeof(ratio), "x%.2f", rt);
		if (rt > 0 && at)
			snprintf(ratio_at, sizeof(ratio_at), "%llu", (unsigned long long)at);
		printf("%-11s %-13s %10s %9s %13s %9s %9s %8s\n", rate_mech_names[r->mech],
		       rate_impl_names[r->impl], knee, cpu, tp, ns, ratio, ratio_at);
	}
}

void rate_print(const struct rate_bench *b)
{
	if (b->run.o.json || bench_interrupted())
		return;
	printf("udrv-bench rate: %llu ms per rate, batch %u, buffer %u; receiver at %s %d\n",
	       (unsigned long long)(b->step_ns / 1000000), b->batch, b->buffer,
	       b->run.o.prio ? "SCHED_FIFO" : "SCHED_OTHER", b->run.o.prio);
	for (int m = 0; m < RATE_NMECH; m++)
		if (b->want_mech[m])
			rate_print_steps(b, (enum rate_mech)m);
	rate_print_capacity(b);
	printf("\n");
	fflush(stdout);
}

/* The "rate" object of @b's results document. */
void rate_json_attach(struct rate_bench *b)
{
	b->run.json_extra = rate_json;
}
