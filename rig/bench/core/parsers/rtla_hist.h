/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text `rtla timerlat hist -n -b 1` prints (Linux 6.1's rtla, Debian 12),
 * read strictly: every sample it counted, into one histogram per context
 * (the timer's IRQ, the woken thread), checked against its own summary.
 *
 *   # RTLA timerlat histogram
 *   # Time unit is nanoseconds (ns)
 *   # Duration:   0 00:00:01
 *   Index   IRQ-000   Thr-000
 *   629           1         0
 *   4040          0         1
 *   over:         0         0
 *   count:     1000      1000
 *   min:        629      4040
 *   avg:        728      4273
 *   max:        765      4540
 *
 * One IRQ and one Thr column per CPU; a bucket line per non-empty 1 ns
 * bucket below the range (-E entries); "over:" counts the samples at or
 * above it, whose values rtla does not keep.
 */
#ifndef UDRV_BENCH_RTLA_HIST_H
#define UDRV_BENCH_RTLA_HIST_H

#include <stddef.h>
#include <stdint.h>

#include <udrv/hist.h>

enum rtla_ctx { RTLA_IRQ, RTLA_THREAD, RTLA_NCTX };

#define RTLA_MAX_CPUS	64

/* One context, every CPU's column together. */
struct rtla_stats {
	uint64_t count;		/* samples (sum of its "count:") */
	uint64_t min, max;	/* the smallest "min:", the largest "max:" */
	uint64_t avg;		/* count-weighted mean of "avg:" (it truncates) */
	uint64_t over;		/* at or above the range ("over:") */
};

struct rtla_hist {
	unsigned int cpus;		/* CPUs it printed columns for */
	unsigned int cpu[RTLA_MAX_CPUS];
	struct rtla_stats ctx[RTLA_NCTX];
};

/*
 * Parse @len bytes of rtla's stdout. @range: the -E entries asked for (1 ns
 * buckets: values below it are exact); @max_count: no column may hold more
 * samples than this (what was asked for, with a margin). Every sample goes
 * into @out[RTLA_IRQ] or @out[RTLA_THREAD]: the buckets' values, and each
 * CPU's samples above the range as one at its max, one at its min if that
 * is above the range too, the others at the lowest value they can have
 * (@range or that min). Returns 0, or -EINVAL with @why ("line 7: ...") when the
 * text is not rtla's histogram or does not add up: its buckets and "over:"
 * must make "count:", the lowest and highest bucket must be "min:" and
 * "max:", and the buckets' mean must truncate to "avg:". On an error @out
 * may hold part of the samples.
 */
int rtla_hist_parse(const char *text, size_t len, uint64_t range,
		    uint64_t max_count, struct udrv_hist *out[RTLA_NCTX],
		    struct rtla_hist *res, char *why, size_t whylen);

#endif /* UDRV_BENCH_RTLA_HIST_H */
