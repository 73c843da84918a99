// SPDX-License-Identifier: GPL-2.0-only
/*
 * The libgpiod 2.3 receiver of udrv-bench rate: `udrv-bench-peer rx`, run
 * through the bench framework's peer (peer.h: found by bench_peer_path(),
 * started at the bench's scheduling by bench_peer_start(), stopped by
 * bench_peer_stop()'s SIGTERM every 10 ms). Per step: the peer requests the
 * line and prints "ready"; two slow warm-up edges let its fresh irq thread
 * run once (the in-process receivers keep one request over their sweep and
 * had a warm-up step); the source runs for the step; then the bench stops
 * the source, lets the kernel settle and stops the peer, which prints its
 * counts, CPU and latencies (rate_peer_parse()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "msg.h"
#include "peer.h"
#include "rate.h"

#define PEER_SETTLE_MS	20		/* after the source stops */
#define PEER_WARMUP	2		/* edges before the step, 1 ms apart */
#define PEER_WARMUP_NS	1000000ULL
#define PEER_MARGIN_NS	200000ULL	/* after the source's last edge */
#define PEER_QUIET_MS	50		/* before the step */

static void peer_sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	while (!bench_interrupted() &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int peer_start(struct rate_rx *rx, struct bench_peer *p)
{
	char batch[16], buffer[16], line[16], max[24], why[320];
	const char *args[] = { "rx", "--chip", rx->chip_path, "--line", line,
			       "--batch", batch, "--buffer", buffer,
			       "--max-samples", max, rx->mlock ? "--mlock" : NULL,
			       NULL };

	snprintf(batch, sizeof(batch), "%u", rx->batch);
	snprintf(buffer, sizeof(buffer), "%u", rx->buffer);
	snprintf(line, sizeof(line), "%u", rx->line);
	snprintf(max, sizeof(max), "%llu", (unsigned long long)rx->max_samples);
	if (bench_peer_start(p, args, true, why, sizeof(why)))
		return bench_error(EXIT_FAIL, "bench rate: %s", why);
	if (bench_peer_reply(p, "ready", 0, NULL, why, sizeof(why)))
		return bench_error(EXIT_FAIL, "bench rate: %s rx: %s", rx->peer, why);
	return 0;
}

/* Two edges at 1 kHz, made and counted before the step starts. */
static int peer_warmup(struct rate_src *src, struct rate_count *w)
{
	struct rate_count a, b;

	if (rate_src_count(src, &a) ||
	    rate_src_start(src, PEER_WARMUP_NS, PEER_WARMUP))
		return EXIT_FAIL;
	peer_sleep_until(bench_now_ns() + (PEER_WARMUP + 2) * PEER_WARMUP_NS);
	if (rate_src_stop(src) || rate_src_count(src, &b))
		return EXIT_FAIL;
	/*
	 * A fresh process per step: what the previous peer's exit and this
	 * one's start left to the kernel (RCU callbacks, freeing its memory:
	 * softirq work that stalls the irq thread for tens of us) runs now,
	 * not in the step.
	 */
	peer_sleep_until(bench_now_ns() + PEER_QUIET_MS * 1000000ULL);
	w->made = b.made - a.made;
	return 0;
}

static int peer_result(const struct rate_rx *rx, const char *out, size_t len,
		       uint64_t warmup, struct udrv_hist *lat, struct rate_step *st)
{
	struct rate_peer_out o;
	char why[200];

	if (rate_peer_parse(out, len, warmup, lat, &o, why, sizeof(why)))
		return bench_error(EXIT_FAIL, "bench rate: the output of %s rx: %s",
				 rx->peer, why);
	st->received = o.received;
	st->reads = o.reads;
	st->cpu_ns = o.cpu_user_ns + o.cpu_sys_ns;
	st->left_out = o.received - o.samples;
	/*
	 * The contract's (last - first + 1) - received, from the line's first
	 * event: a fresh request numbers its events from 1, so events dropped
	 * before the first read count too.
	 */
	st->dropped = o.received ? o.seqno_last - o.received : 0;
	return 0;
}

int rate_peer_step(struct rate_rx *rx, struct rate_src *src,
		   uint64_t period_ns, uint64_t duration_ns,
		   struct udrv_hist *lat, struct rate_step *st)
{
	struct rate_count w = { 0 }, c0, c1;
	struct bench_peer p = { .pid = -1, .to = -1 };
	char *out = NULL, why[320];
	size_t len = 0;
	uint64_t t0 = 0, limit = (duration_ns + period_ns - 1) / period_ns;
	int ret;

	memset(st, 0, sizeof(*st));
	udrv_hist_reset(lat);
	ret = peer_start(rx, &p);
	if (!ret && rx->peer_ready)
		ret = rx->peer_ready(rx->ctx);
	if (!ret)
		ret = peer_warmup(src, &w);
	if (!ret)
		ret = rate_src_count(src, &c0);
	if (!ret) {
		t0 = bench_now_ns();
		ret = rate_src_start(src, period_ns, limit);
	}
	if (!ret) {
		/*
		 * The source ends the step by itself (its limit): the bench,
		 * at the peer's priority, wakes only after that. Waking at the
		 * last edges, its stop write kept the CPU from the irq thread
		 * while two edges came: one merged, lost (1 of 2500 at 50k/s,
		 * the peer's knee at 20k/s where udrv's was 50k/s).
		 */
		peer_sleep_until(t0 + limit * period_ns + PEER_MARGIN_NS +
				 2 * period_ns);
		ret = rate_src_stop(src);
		st->duration_ns = bench_now_ns() - t0;
		if (st->duration_ns > limit * period_ns)
			st->duration_ns = limit * period_ns;
		peer_sleep_until(bench_now_ns() + PEER_SETTLE_MS * 1000000ULL);
	}
	if (p.pid > 0 && bench_peer_stop(&p, &out, &len, why, sizeof(why)) && !ret)
		ret = bench_error(EXIT_FAIL, "bench rate: %s rx: %s", rx->peer, why);
	if (!ret)
		ret = peer_result(rx, out, len, w.made, lat, st);
	if (!ret)
		ret = rate_src_count(src, &c1);
	/* the peer reports no times: the events count over the source's */
	st->elapsed_ns = st->duration_ns;
	if (!ret) {
		rate_count_sub(&st->c, &c0, &c1);
		st->c.signalled = st->c.made;	/* the peer's events: the edges made */
	}
	free(out);
	return ret;
}
