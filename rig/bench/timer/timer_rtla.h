/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rtla rows of 'udrv-bench timer' (timer_rtla.c): rtla timerlat hist,
 * where the kernel has the timerlat tracer.
 */
#ifndef UDRV_BENCH_TIMER_RTLA_H
#define UDRV_BENCH_TIMER_RTLA_H

#include <stdint.h>

struct bench_run;
struct bench_row;

#define TIMER_RTLA_HELP \
"      --rtla PATH       the rtla to run (default: rtla on PATH; 'none':\n" \
"                        no rtla rows)\n"

/*
 * After the udrv row (@udrv, @samples wake-ups every @interval_ns): run
 * `rtla timerlat hist` for as long (whole seconds), at the bench's priority
 * and CPU, and add the rows hrtimer/rtla-timerlat irq_latency and
 * thread_latency. Where it cannot (no timerlat tracer, no rtla, --rtla
 * none, it failed), @udrv's note says why. @spec: --rtla, or NULL.
 */
void timer_rtla(struct bench_run *run, const char *spec, uint64_t interval_ns,
		uint64_t samples, struct bench_row *udrv);

#endif /* UDRV_BENCH_TIMER_RTLA_H */
