/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace-on-spike US: why the worst sample happened.
 *
 * bench_begin() arms ftrace through tracefs (trace_clock mono, so trace
 * timestamps are CLOCK_MONOTONIC; the scheduler, irq, softirq and hrtimer
 * events) for a bench that set run->traceable. The bench hands each sample
 * to bench_spike_check() with its start and end (CLOCK_MONOTONIC ns); the
 * first one longer than US stops the trace at once (one write to
 * tracing_on). bench_end() then reads the trace, saves the part around the
 * sample (--spike-out), says what ran on the bench's CPU in the sample's
 * window and names the cause (trace.h), puts tracefs back as it was, and
 * the document gets a "spike" object (docs/rig/results.md).
 */
#ifndef UDRV_BENCH_SPIKE_H
#define UDRV_BENCH_SPIKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct bench_run;
struct bench_row;
struct udrv_json;

#define SPIKE_MAX_US		10000000	/* 10 s */

/* The threshold in ns while armed; 0 otherwise. */
extern uint64_t bench_spike_ns;

void bench_spike_hit(const struct bench_row *row, uint64_t start_ns,
		     uint64_t end_ns);
/* The sample numbered @index in @row, on CPU @cpu (-1: the caller's),
 * analysed from @lead_ns before its start. */
void bench_spike_hit_at(const struct bench_row *row, uint64_t start_ns,
			uint64_t end_ns, uint64_t lead_ns, uint64_t index,
			int cpu);

/* A sample of @row from @start_ns to @end_ns (CLOCK_MONOTONIC), recorded. */
static inline void bench_spike_check(const struct bench_row *row,
				     uint64_t start_ns, uint64_t end_ns)
{
	if (bench_spike_ns && end_ns > start_ns &&
	    end_ns - start_ns > bench_spike_ns)
		bench_spike_hit(row, start_ns, end_ns);
}

/*
 * A sample judged once it is over (bench pwm reads a run's edges when the
 * run has ended): sample @index of @row (from 1), which ran on CPU @cpu
 * (-1: the caller's), from @start_ns (where it was due) to @end_ns (where
 * it was seen). The analysis looks from @lead_ns before @start_ns: what
 * delayed it may have begun before the timestamp says (an edge's stamp is
 * taken in the input line's interrupt, after the write). The trace stops at
 * the first sample above the threshold, so it must still hold the window
 * then: a run longer than the trace buffer (TRACEFS_BUFFER_KB per CPU) may
 * have lost it, and the analysis says so.
 */
static inline void bench_spike_check_at(const struct bench_row *row,
					uint64_t start_ns, uint64_t end_ns,
					uint64_t lead_ns, uint64_t index,
					int cpu)
{
	if (bench_spike_ns && end_ns > start_ns &&
	    end_ns - start_ns > bench_spike_ns)
		bench_spike_hit_at(row, start_ns, end_ns, lead_ns, index, cpu);
}

/*
 * @pid is part of what the bench measures (bench reply's responder
 * process): a spike's analysis counts it, and what woke it, as the measured
 * path rather than a cause. The wake threads (bench_wake_threads) are.
 */
void bench_spike_path(pid_t pid);
/* The hardirq named @name (bench pwm's input line) is too (one name). */
void bench_spike_path_irq(const char *name);

/* Arm (bench_begin does); 0 or an exit code, tracefs untouched on error. */
int bench_spike_arm(struct bench_run *run);
/* Read and analyse the trace of the spike, print the summary (bench_end). */
void bench_spike_finish(struct bench_run *run);
void bench_spike_json(struct udrv_json *j);
/* Put tracefs back (bench_end does); messages on failure. */
void bench_spike_restore(void);
/* The same with open/write/close only: from a signal handler. */
void bench_spike_restore_signal_safe(void);

#endif /* UDRV_BENCH_SPIKE_H */
