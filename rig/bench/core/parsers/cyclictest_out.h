/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What cyclictest (rt-tests 2.5, Debian 12) leaves behind for one thread
 * measured in ns (-N), read strictly: every sample it took, into one
 * histogram, checked against its own summary.
 *
 * Its --histfile with -h RANGE: one line per 1 ns bucket 0..RANGE-1 (index
 * and count printed "%06d %06lu"), then its summary ("%09llu", "%05lu"):
 *
 *   # Histogram
 *   000000 000000
 *   ...
 *   003999 000000
 *   # Total: 000000153            the samples in the buckets only
 *   # Min Latencies: 03642        over every sample, the overflows too
 *   # Avg Latencies: 03833
 *   # Max Latencies: 04385
 *   # Histogram Overflows: 00047  the samples at or above RANGE
 *   # Histogram Overflow at cycle number:
 *   # Thread 0: 00015 00023 ...   their cycle numbers (from 0): at most
 *                                 RANGE, then " # 00012 others"
 *   (an empty line)
 *
 * Its stdout with --spike=RANGE-1 --spike-nodes=NODES: the first NODES
 * samples above RANGE-1 (the overflows), after what it printed first:
 *
 *   # /dev/cpu_dma_latency set to 0us
 *
 *   T: 0 Spike:    4286: TS:      3256236     "T:%2d Spike:%8ld: TS: %12ld"
 *   ...
 *   spikes = 47                              all of them, listed or not
 *   (an empty line)
 *
 * With no spike at all it prints neither the list nor "spikes =".
 */
#ifndef UDRV_BENCH_CYCLICTEST_OUT_H
#define UDRV_BENCH_CYCLICTEST_OUT_H

#include <stddef.h>
#include <stdint.h>

#include <udrv/hist.h>

/*
 * cyclictest's min starts at 1 ms and only goes down: with every sample
 * above it, its summary says 1000000 (and with no sample at all).
 */
#define CT_MIN_START	1000000u
#define CT_MAX_RANGE	CT_MIN_START

/* Its histogram file's figures. */
struct ct_hist {
	uint64_t total;		/* "# Total:": the samples in the buckets */
	uint64_t sum;		/* of the buckets' samples, ns */
	uint64_t min, avg, max;	/* its summary, over every sample, ns */
	uint64_t overflows;	/* samples at or above the range */
	uint64_t cycles_listed;	/* cycle numbers on the "# Thread 0:" line */
};

/* Its stdout's spikes. */
struct ct_spikes {
	uint64_t listed;	/* "T: 0 Spike:" lines */
	uint64_t spikes;	/* "spikes = N" (0 without the line) */
	uint64_t sum;		/* of the listed values, ns */
	uint64_t min, max;	/* of the listed values (0 when none) */
};

/*
 * Parse @len bytes of the histogram file of `cyclictest -N -h @range` for
 * one thread. @max_count: no more samples than this (what was asked for).
 * The buckets' samples go into @out (the overflows are in the spikes). 0, or
 * -EINVAL with @why ("line 7: ...") when the text is not that file or does
 * not add up: every bucket once and in order, "# Total:" their sum, min the
 * lowest bucket, and with no overflow max the highest one and avg their
 * mean as cyclictest computes it; every overflow's cycle number listed, in
 * increasing order. On an error @out may hold part of the samples.
 */
int ct_hist_parse(const char *text, size_t len, uint64_t range,
		  uint64_t max_count, struct udrv_hist *out, struct ct_hist *res,
		  char *why, size_t whylen);

/*
 * Parse @len bytes of the stdout of cyclictest -q with --spike=@range - 1
 * --spike-nodes=@nodes: comment lines ("# ..."), empty lines, then the
 * spikes of thread 0, each at or above @range, in time order, then
 * "spikes = N" (no more than @max_count) and only empty lines. It lists
 * min(N, @nodes) of them. The listed values go into @out. 0 or -EINVAL
 * with @why, as ct_hist_parse().
 */
int ct_spikes_parse(const char *text, size_t len, uint64_t range,
		    uint64_t nodes, uint64_t max_count, struct udrv_hist *out,
		    struct ct_spikes *res, char *why, size_t whylen);

/*
 * The two files of one run against each other: every overflow is a spike
 * and is listed, and the buckets and spikes together make the summary's
 * min (or every sample is above CT_MIN_START, its min), max and avg. 0, or
 * -EINVAL with @why.
 */
int ct_out_check(const struct ct_hist *h, const struct ct_spikes *s,
		 char *why, size_t whylen);

/* cyclictest's average: (long)(sum / (double)count), 0 for no sample. */
uint64_t ct_avg(uint64_t sum, uint64_t count);

#endif /* UDRV_BENCH_CYCLICTEST_OUT_H */
