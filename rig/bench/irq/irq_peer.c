// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench irq's libgpiod-2.3 rows: the same write/read loop as irq.c's,
 * run by udrv-bench-peer (libgpiod 2.3) on the same lines, its edges read
 * back as they come and checked against gpio-wire's count.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "irq.h"
#include "peer.h"

void irq_peer_find(struct irq_bench *b)
{
	char path[256];

	b->has_peer = !bench_peer_path(path, sizeof(path));
	if (!b->has_peer)
		snprintf(b->peer_note, sizeof(b->peer_note), "no cdev/%s rows: %s",
			 BENCH_PEER_IMPL, BENCH_PEER_ABSENT);
}

/* What the peer printed, read as it comes (irq_peer_line). */
struct irq_peer_out {
	struct irq_bench *b;
	struct irq_method *m;
	struct bench_peer_run run;
	int level;		/* the level the next edge drives */
	uint64_t edges, received, lost;
};

enum { PEER_EDGE = BENCH_PEER_RUN_KEYS, PEER_RECEIVED, PEER_LOST };

static int irq_peer_line(void *ctx, size_t key, const uint64_t *v)
{
	struct irq_peer_out *o = ctx;
	struct irq_event ev = { .ts = v[1], .rising = v[3] == 1 };

	if (key < BENCH_PEER_RUN_KEYS) {
		bench_peer_run_store(&o->run, key, v);
		return 0;
	}
	switch (key) {
	case PEER_EDGE:
		if (v[3] > 1)
			return bench_error(-EINVAL, "bench irq: %s: edge RISING is 0 or 1, not %llu",
					 BENCH_PEER_NAME, (unsigned long long)v[3]);
		irq_record(o->m, v[0], &ev, v[2], o->level);
		o->level = !o->level;
		o->edges++;
		return 0;
	case PEER_RECEIVED:
		o->received = v[0];
		return 0;
	default:
		o->lost = v[0];
		return 0;
	}
}

/* The peer's counts against the wire's: sent = received + lost, lost 0. */
static int irq_peer_counts(struct irq_bench *b, struct irq_method *m,
			   const struct irq_peer_out *o, uint64_t total,
			   const struct bench_wire *w0)
{
	struct bench_wire w1 = { 0 };

	if (o->lost)
		return bench_error(EXIT_FAIL, "bench irq: %s saw %llu gap(s) in the kernel's sequence numbers with one edge in flight",
				 BENCH_PEER_NAME, (unsigned long long)o->lost);
	if (o->received != total || o->edges != total - IRQ_WARMUP)
		return bench_error(EXIT_FAIL, "bench irq: %s read %llu events and printed %llu edges for %llu edges written",
				 BENCH_PEER_NAME, (unsigned long long)o->received,
				 (unsigned long long)o->edges, (unsigned long long)total);
	m->sent = m->received = o->edges;
	if (!b->wire[0])
		return 0;
	if (bench_wire_counts(b->wire, b->out + 1, &w1))
		return EXIT_FAIL;
	/* the warm-up edges are in the wire's count, not in the rows */
	m->sent = w1.driven - w0->driven - IRQ_WARMUP;
	m->lost = w1.dropped - w0->dropped;
	if (m->sent != m->received + m->lost)
		return bench_error(EXIT_FAIL, "bench irq: gpio-wire put %llu edges on line %u during %s's run, but it read %llu events and %llu edges were dropped",
				 (unsigned long long)(m->sent + IRQ_WARMUP), b->out + 1,
				 BENCH_PEER_NAME, (unsigned long long)o->received,
				 (unsigned long long)m->lost);
	return 0;
}

/* The peer's first part, up to "ready": how it runs (checked). */
static int irq_peer_head(struct irq_bench *b, struct bench_peer *p,
			 struct irq_peer_out *o, char *why, size_t len)
{
	static const struct bench_peer_key keys[] = { BENCH_PEER_RUN_TABLE };

	if (bench_peer_read(p, keys, BENCH_PEER_RUN_KEYS, "ready",
			    irq_peer_line, o, why, len))
		return -1;
	return bench_peer_run_check(&o->run, b->run.o.mlock, why, len);
}

/* The rest, after "go": keys from PEER_EDGE on. */
static int irq_peer_tail_line(void *ctx, size_t key, const uint64_t *v)
{
	return irq_peer_line(ctx, key + PEER_EDGE, v);
}

/* The edges, however many: read to the end, then checked line by line. */
static int irq_peer_tail(struct bench_peer *p, struct irq_peer_out *o,
			 char *why, size_t len)
{
	static const struct bench_peer_key keys[] = {
		{ "edge", 4, BENCH_PEER_MANY },
		{ "received", 1, BENCH_PEER_REQUIRED },
		{ "lost", 1, BENCH_PEER_REQUIRED },
	};
	size_t tlen = 0;
	char *text;
	int ret;

	if (bench_peer_rest(p, &text, &tlen, why, len))
		return -1;
	ret = bench_peer_text(text, tlen, keys, sizeof(keys) / sizeof(keys[0]),
			      "end", irq_peer_tail_line, o, why, len);
	free(text);
	return ret;
}

/* Head, the peer's irq thread set, "go", the edges. 0 or an exit code. */
static int irq_peer_session(struct irq_bench *b, struct bench_peer *p,
			    struct irq_peer_out *o, char *why, size_t len)
{
	int ret;

	if (irq_peer_head(b, p, o, why, len))
		return -1;
	/* its request's own thread (irq/N-udrv-bench-peer), run by its
	 * warm-up: set as udrv's rows' is, so the rows compare at one setting */
	ret = irq_wake_for(b, BENCH_PEER_NAME, BENCH_PEER_IMPL);
	if (ret)
		return ret;
	if (bench_peer_send(p, why, len, "go\n") || irq_peer_tail(p, o, why, len))
		return -1;
	return 0;
}

/*
 * The edges of the libgpiod-2.3 rows: udrv-bench-peer runs irq.c's loop
 * (write, blocking read of one event) with libgpiod 2.3, in a child at the
 * bench's policy, priority, CPU and memory locking (checked from what it
 * prints); after its warm-up it waits while its irq thread is set as udrv's
 * is (irq_peer_wake), then prints the three clocks of each edge; recorded
 * here like every other row's.
 */
int irq_peer_run(struct irq_bench *b, struct irq_method *m)
{
	uint64_t n = bench_samples(&b->run, IRQ_SAMPLES);
	char out[12], level[4], samples[24], warm[12], why[320] = "", end[160] = "";
	const char *args[] = { "irq", "--chip", udrv_chip_path(b->chip),
			       "--out-line", out, "--level", level,
			       "--samples", samples, "--warmup", warm, "--ready",
			       b->run.o.mlock ? "--mlock" : NULL, NULL };
	struct irq_peer_out o = { .b = b, .m = m };
	struct bench_wire w0 = { 0 };
	struct bench_peer p;
	int ret;

	if (n == UINT64_MAX)	/* --duration: the peer takes a count */
		n = IRQ_SAMPLES;
	snprintf(out, sizeof(out), "%u", b->out);
	snprintf(level, sizeof(level), "%d", b->level);
	snprintf(samples, sizeof(samples), "%llu", (unsigned long long)n);
	snprintf(warm, sizeof(warm), "%d", IRQ_WARMUP);
	if (b->wire[0] && bench_wire_counts(b->wire, b->out + 1, &w0))
		return EXIT_FAIL;
	alarm(0);	/* the peer has its own watchdog */
	if (bench_peer_start(&p, args, true, why, sizeof(why)))
		return bench_interrupted() ? EXIT_FAIL :
		       bench_error(EXIT_FAIL, "bench irq: %s: %s", BENCH_PEER_NAME, why);
	/* the level after the warm-up: the first recorded edge drives !it */
	o.level = (b->level ^ (IRQ_WARMUP & 1)) ? 0 : 1;
	ret = irq_peer_session(b, &p, &o, why, sizeof(why));
	if (ret && p.pid > 0)
		kill(p.pid, SIGTERM);	/* not left writing to a pipe no one reads */
	if (bench_peer_finish(&p, NULL, NULL, end, sizeof(end)) && !ret)
		ret = -1, snprintf(why, sizeof(why), "%s", end);
	if (ret < 0)
		ret = bench_interrupted() ? EXIT_FAIL :
		      bench_error(EXIT_FAIL, "bench irq: %s: %s", BENCH_PEER_NAME,
				  why[0] ? why : "a bad edge");
	if (!ret && bench_interrupted())
		ret = EXIT_FAIL;	/* the edges so far are in the rows */
	else if (!ret)
		ret = irq_peer_counts(b, m, &o, n + IRQ_WARMUP, &w0);
	b->level ^= (int)((n + IRQ_WARMUP) & 1);
	return ret;
}

void irq_versus_peer(struct irq_bench *b)
{
	struct irq_method *u = &b->m[IRQ_READ], *g = &b->m[IRQ_PEER];
	double avg, p50;

	if (!g->w2w || !udrv_hist_count(g->w2w->hist) ||
	    !udrv_hist_count(u->w2w->hist))
		return;
	avg = udrv_hist_mean(u->w2w->hist) / udrv_hist_mean(g->w2w->hist);
	p50 = (double)udrv_hist_percentile(u->w2w->hist, 50) /
	      (double)udrv_hist_percentile(g->w2w->hist, 50);
	bench_note_add(u->w2w->note, sizeof(u->w2w->note), "vs %s x%.3f avg",
		       BENCH_PEER_IMPL, avg);
	snprintf(b->peer_note, sizeof(b->peer_note),
		 "cdev/udrv/read write_to_wake vs %s x%.3f avg, x%.3f p50 (same edges, same run)",
		 BENCH_PEER_IMPL, avg, p50);
}
