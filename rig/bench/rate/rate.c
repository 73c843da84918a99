// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench rate: how many interrupts per second a userspace driver takes
 * (Koch, Userspace I/O drivers in a realtime context: 1000 interrupts/s at
 * 90% CPU on an i.MX31; docs/references.md).
 *
 * A source that counts what it raises is swept over offered rates:
 * gpio-wire's generator (an hrtimer toggling an input line, edges through
 * the chip's hard irq_work, timestamped by gpiolib-cdev's hardirq handler)
 * for the GPIO character device, uio-ticker (its period_ns) for UIO. For
 * each mechanism (cdev: one event per read; cdev-batch: up to K per read
 * with a big kernel buffer; uio-read: blocking read; uio-poll: poll + read)
 * and receiver (udrv, raw system calls, libgpiod 2.3 through the peer) and
 * each rate, one step: the source's own count over the step is what was
 * offered; lost = that count - events received; the kernel's own drop
 * count (line_seqno gaps, UIO event count gaps) beside it; the receiving
 * process's CPU; latency from the event's kernel timestamp to the wake-up.
 * The knee is the highest offered rate with zero loss; the throughput the
 * most events per second a receiver took, with its CPU ns per event. This
 * file is the command and the sweep; the figures and the output are
 * rate_out.c, the sources rate_src.c, the receivers rate_rx.c and
 * rate_peer.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "benches.h"
#include "peer.h"
#include "rate.h"

#include <udrv/udrv-irq.h>

#define RATE_STEP_NS		50000000ULL	/* default --step-duration */
#define RATE_WARMUP_NS		20000000ULL
#define RATE_BATCH		16
#define RATE_BATCH_BUFFER	1024	/* gpiolib-cdev's maximum for one line */
#define RATE_PEER_SAMPLES	200000
#define RATE_LINE		3	/* gpio-wire's wire1-in */
#define RATE_REFINE		2	/* default --refine */

const char *const rate_mech_names[RATE_NMECH] = {
	[RATE_CDEV] = "cdev", [RATE_CDEV_BATCH] = "cdev-batch",
	[RATE_UIO_READ] = "uio-read", [RATE_UIO_POLL] = "uio-poll",
	[RATE_IRQ] = "irq", [RATE_IRQ_REPLY] = "irq-reply",
};
const char *const rate_impl_names[RATE_NIMPL] = {
	[RATE_UDRV] = "udrv", [RATE_RAW] = "raw", [RATE_LIBGPIOD] = BENCH_PEER_IMPL,
};

static const uint64_t rate_default[] = {
	1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000,
};

enum {
	OPT_RATES = 0x80,	/* long-only; below the framework's 0x100 */
	OPT_STEP,
	OPT_BATCH,
	OPT_BUFFER,
	OPT_MECH,
	OPT_IMPL,
	OPT_LINE,
	OPT_REFINE,
};


static const char rate_help[] =
"Usage: udrv-bench rate [OPTIONS]\n"
"\n"
"How many interrupts per second a userspace driver can take. A source that\n"
"counts what it raises is swept over offered rates: gpio-wire's generator\n"
"(an hrtimer toggling an input line; its gen_edges) for the GPIO character\n"
"device, uio-ticker (period_ns; the ticks in its page) for UIO. Per\n"
"mechanism, receiver and rate, one step of --step-duration:\n"
"  offered   the source's own count / the step's duration\n"
"  received  events read (UIO: reads, each one wake-up)\n"
"  lost      source count - received: counted at the source, so a receiver\n"
"            that falls behind or stops early shows here, and so do edges\n"
"            merged before cdev's irq thread ran (no kernel count)\n"
"  dropped   what the kernel admits: cdev line_seqno gaps (kfifo overflow),\n"
"            UIO event count gaps (interrupts merged into one wake-up)\n"
"  masked    cdev: edges made while the line's interrupt was masked\n"
"  ev/rd     events per read call\n"
"  pre/ev    times the receiver was preempted, per event (involuntary\n"
"            switches: its CPU then includes the interrupts that land on it)\n"
"  CPU %     the receiver's user + system CPU / the time the events took\n"
"            to arrive\n"
"  p50/p99/max  latency from the event's kernel timestamp (cdev: hardirq;\n"
"            UIO: the hrtimer handler, from the page) to the wake-up\n"
"and per receiver the knee (the highest offered rate with nothing lost and\n"
"nothing left behind: received/s at least 95% of offered/s), the\n"
"CPU there, the throughput (the most events per second it received) and the\n"
"CPU ns per event there, with its ratio to the bare read() (raw) of the same\n"
"mechanism at one rate for both (at/s): the highest that raw kept up with\n"
"and at which neither was preempted for more than 1% of its events.\n"
"A receiver's sweep stops after a rate at which it lost more than half.\n"
"The source makes at most rate x step edges or ticks (gen_limit,\n"
"tick_limit): a rate the CPU cannot take ends by itself, as loss.\n"
"\n"
"Mechanisms: cdev (one event per read), cdev-batch (up to --batch events per\n"
"read, kernel buffer --buffer), uio-read (blocking read), uio-poll (poll +\n"
"read), irq and irq-reply (a responder through udrv-irq, C = !B on --line\n"
"+ 3: read then reply, or both in one call; raw; all: if it is loaded).\n"
"Receivers: udrv (libudrv), raw (bare system calls, the reference),\n"
"libgpiod-2.3 (cdev only: 'udrv-bench-peer rx', UDRV_BENCH_PEER in\n"
"udrv-bench(1); without it the rows are left out).\n"
"The receiver runs at --prio; the irq thread that queues cdev's events (and\n"
"on PREEMPT_RT uio-ticker's notifier) is SCHED_FIFO 50, below it: on one CPU\n"
"a receiver busy with one event holds the next one back, and the edges that\n"
"arrive meanwhile merge in the irq thread. On\n"
"PREEMPT_RT uio-ticker's notifier queues without bound: nothing is lost but\n"
"a slow receiver reads late (max latency). --irq-prio N raises those\n"
"threads above the receiver (rt's cdev knee: 20k/s -> 100k/s in the lab).\n"
"\n"
"Options:\n"
"  -c, --chip CHIP       the gpio-wire chip (default gpio-wire)\n"
"      --line N          the input line the generator toggles (odd; default 3)\n"
"      --rates LIST      offered rates per second, increasing, k/M suffixes\n"
"                        (default 1k,2k,5k,10k,20k,50k,100k,200k; at most\n"
"                        1M: the sources' 1 us period)\n"
"      --step-duration D  guest time per rate (default 50ms)\n"
"      --batch K         events per read for cdev-batch, 2..1024 (default 16)\n"
"      --buffer B        cdev-batch's kernel event buffer, K..1024 (default\n"
"                        1024; cdev keeps the kernel's default, 16)\n"
"      --mechanisms LIST  of cdev,cdev-batch,uio-read,uio-poll,irq,irq-reply\n"
"                        (default all)\n"
"      --impls LIST      of udrv,raw,libgpiod-2.3 (default all)\n"
"      --refine N        then N rates evenly between the knee and the next\n"
"                        rate, 0..8 (default 2; marked + in the table)\n"
BENCH_OPTS_HELP
"\n"
"-n, -D: see --rates, --step-duration. Root, gpio-wire and uio-ticker from\n"
"rig/kernel/ (the lab loads them). Example:\n"
"  udrv-bench rate --mechanisms cdev-batch --rates 10k,50k,100k --batch 64\n";

/* ---- options -------------------------------------------------------- */

static int rate_list(struct rate_bench *b, const char *arg, bool mech)
{
	size_t n = mech ? RATE_NMECH : RATE_NIMPL;
	const char *const *names = mech ? rate_mech_names : rate_impl_names;
	bool *want = mech ? b->want_mech : b->want_impl;
	char buf[128], *save = NULL, *w;

	if (strlen(arg) >= sizeof(buf) || !*arg)
		return bench_usage(b->run.bench, "bad --%s '%s'",
				 mech ? "mechanisms" : "impls", arg);
	snprintf(buf, sizeof(buf), "%s", arg);
	memset(want, 0, n * sizeof(*want));
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < n && strcmp(w, names[i]); i++)
			;
		if (i == n)
			return bench_usage(b->run.bench, mech ?
					 "unknown mechanism '%s': cdev, cdev-batch, uio-read, uio-poll, irq, irq-reply" :
					 "unknown implementation '%s': udrv, raw, libgpiod-2.3", w);
		want[i] = true;
	}
	return 0;
}

static int rate_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct rate_bench *b = ctx;
	char why[160];
	int64_t v;
	int n;

	switch (opt) {
	case 'c':
		b->chip_spec = arg;
		return 0;
	case OPT_LINE:
		if (udrv_parse_s64(arg, 1, 63, &v) || !(v & 1))
			return bench_usage(run->bench, "bad --line '%s': an input line of gpio-wire, odd, 1..63", arg);
		b->line = (unsigned int)v;
		return 0;
	case OPT_RATES:
		n = rate_parse_list(arg, b->rates, RATE_MAX_RATES, why, sizeof(why));
		if (n < 0)
			return bench_usage(run->bench, "bad --rates '%s': %s", arg, why);
		b->nrates = (size_t)n;
		return 0;
	case OPT_STEP:
		if (udrv_parse_duration_ns(arg, BENCH_DURATION_MAX_NS, &b->step_ns) || b->step_ns < 1000000ULL ||
		    b->step_ns > 60000000000ULL)
			return bench_usage(run->bench, "bad --step-duration '%s': 1ms..60s, e.g. 50ms", arg);
		return 0;
	case OPT_BATCH:
		if (udrv_parse_s64(arg, 2, 1024, &v))
			return bench_usage(run->bench, "bad --batch '%s': 2..1024 events per read", arg);
		b->batch = (unsigned int)v;
		return 0;
	case OPT_BUFFER:
		if (udrv_parse_s64(arg, 1, 1024, &v))
			return bench_usage(run->bench, "bad --buffer '%s': 1..1024 events (gpiolib-cdev's maximum for one line)", arg);
		b->buffer = (uint32_t)v;
		return 0;
	case OPT_REFINE:
		if (udrv_parse_s64(arg, 0, RATE_MAX_REFINE, &v))
			return bench_usage(run->bench, "bad --refine '%s': 0..%d rates", arg,
					 RATE_MAX_REFINE);
		b->refine = (unsigned int)v;
		return 0;
	case OPT_MECH:
		return rate_list(b, arg, true);
	case OPT_IMPL:
		return rate_list(b, arg, false);
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* ---- the receivers -------------------------------------------------- */

static bool rate_is_uio(enum rate_mech m)
{
	return m == RATE_UIO_READ || m == RATE_UIO_POLL;
}

static const char *rate_wait(enum rate_mech m)
{
	return m == RATE_UIO_POLL ? "poll" : m == RATE_IRQ_REPLY ? "set-wait" : "read";
}

/* The receivers asked for, the reference (raw) first in each mechanism. */
static int rate_plan(struct rate_bench *b)
{
	static const enum rate_impl order[] = { RATE_RAW, RATE_UDRV, RATE_LIBGPIOD };

	b->have_peer = !bench_peer_path(b->peer, sizeof(b->peer));
	for (int m = 0; m < RATE_NMECH; m++) {
		if (!b->want_mech[m])
			continue;
		for (size_t k = 0; k < 3; k++) {
			enum rate_impl i = order[k];
			struct rate_recv *r = &b->recv[b->nrecv];

			if (!b->want_impl[i] || (i == RATE_LIBGPIOD && rate_is_uio(m)) ||
			    (i != RATE_RAW && rate_is_helper(m)))
				continue;
			r->mech = (enum rate_mech)m;
			r->impl = i;
			r->knee = r->best = -1;
			r->present = i != RATE_LIBGPIOD || b->have_peer;
			if (!r->present)
				snprintf(r->note, sizeof(r->note), "left out: %s",
					 BENCH_PEER_ABSENT);
			b->nrecv++;
		}
	}
	if (!b->nrecv)
		return bench_usage(b->run.bench, "no receiver left: libgpiod-2.3 has only the cdev mechanisms, irq and irq-reply only raw");
	return 0;
}

static int rate_open(struct rate_bench *b)
{
	bool cdev = b->want_mech[RATE_CDEV] || b->want_mech[RATE_CDEV_BATCH] ||
		    b->want_mech[RATE_IRQ] || b->want_mech[RATE_IRQ_REPLY];
	bool uio = b->want_mech[RATE_UIO_READ] || b->want_mech[RATE_UIO_POLL];

	if (cdev) {
		b->chip = udrv_chip_new();
		if (!b->chip)
			return bench_error(EXIT_FAIL, "out of memory");
		if (udrv_chip_open(b->chip, b->chip_spec))
			return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
		if (b->line >= udrv_chip_num_lines(b->chip))
			return bench_usage(b->run.bench, "--line %u: %s has %u lines",
					 b->line, udrv_chip_name(b->chip),
					 udrv_chip_num_lines(b->chip));
		if (rate_src_open_wire(&b->wire, b->chip, b->line))
			return EXIT_FAIL;
	}
	if (uio && rate_src_open_ticker(&b->ticker))
		return EXIT_FAIL;
	b->lat = udrv_hist_new();
	return b->lat ? 0 : bench_error(EXIT_FAIL, "out of memory");
}

static void rate_close(struct rate_bench *b)
{
	rate_src_close(&b->wire);
	rate_src_close(&b->ticker);
	udrv_chip_free(b->chip);
	b->chip = NULL;
	udrv_hist_free(b->lat);
	b->lat = NULL;
}

/* The threads the wake-ups go through: recorded, and raised by --irq-prio. */
static int rate_wake(struct rate_bench *b, const struct rate_recv *r)
{
	char prefix[24];
	unsigned int irq;

	if (rate_is_uio(r->mech))
		return bench_wake_threads(&b->run, "uio-ticker");
	if (rate_is_helper(r->mech))
		return 0;	/* udrv-irq's handler wakes it: no thread */
	if (udrv_rt_find_irq("udrv-bench-rate", b->line, &irq))
		return 0;
	snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
	return bench_wake_threads(&b->run, prefix);
}

/*
 * The peer's line has its own irq thread, made by each step's request:
 * recorded, and raised by --irq-prio, as soon as the peer is ready (before
 * the source starts).
 */
static int rate_peer_ready(void *ctx)
{
	struct rate_bench *b = ctx;
	char prefix[24];
	unsigned int irq;

	if (udrv_rt_find_irq(BENCH_PEER_NAME, b->line, &irq))
		return 0;
	snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
	if (bench_wake_threads_for(&b->run, prefix, BENCH_PEER_IMPL) ||
	    !b->run.o.irq_prio)
		return bench_interrupted() ? EXIT_FAIL : 0;
	/*
	 * A fresh irq thread has not run yet: raised above the bench it runs
	 * at once, and its first run sets it to SCHED_FIFO 50 (what the
	 * warm-up step does for the in-process receivers). Raise it again.
	 */
	for (size_t i = 0; i < b->run.num_threads; i++) {
		struct bench_thread *t = &b->run.threads[i];

		if (!strncmp(t->now.name, prefix, strlen(prefix)) &&
		    t->now.priority != b->run.o.irq_prio)
			t->raised = false;
	}
	return bench_wake_threads_for(&b->run, prefix, BENCH_PEER_IMPL);
}

/* irq, irq-reply: C, an output of gpio-wire wired to neither the input nor
 * its output (line + 3, else line - 3) */
static unsigned int rate_reply_line(const struct rate_bench *b)
{
	unsigned int n = b->chip ? udrv_chip_num_lines(b->chip) : 0;

	return b->line + 3 < n ? b->line + 3 : b->line - 3;
}

static void rate_rx_setup(struct rate_bench *b, const struct rate_recv *r,
			  struct rate_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
	rx->mech = r->mech;
	rx->impl = r->impl;
	rx->batch = r->mech == RATE_CDEV_BATCH ? b->batch : 1;
	rx->buffer = r->mech == RATE_CDEV_BATCH ? b->buffer : 0;
	rx->chip = b->chip;
	rx->chip_path = b->chip ? udrv_chip_path(b->chip) : NULL;
	rx->line = b->line;
	rx->chip_label = b->chip ? udrv_chip_label(b->chip) : NULL;
	rx->reply_line = rate_reply_line(b);
	rx->max_samples = RATE_PEER_SAMPLES;
	rx->mlock = b->run.o.mlock;	/* the peer locks as the bench does */
	rx->peer = b->peer;
	rx->peer_ready = rate_peer_ready;
	rx->ctx = b;
	rx->fd = -1;
}


/* Keep the step's figures; the knee's latency goes into the row. */
static void rate_keep(struct rate_bench *b, struct rate_recv *r,
		      struct rate_step *st)
{
	int i = (int)r->nsteps++;

	st->samples = udrv_hist_count(b->lat);
	st->p50 = udrv_hist_percentile(b->lat, 50);
	st->p99 = udrv_hist_percentile(b->lat, 99);
	st->max = udrv_hist_max(b->lat);
	r->steps[i] = *st;
	if (r->best < 0 || rate_received_per_s(st) >
			   rate_received_per_s(&r->steps[r->best]))
		r->best = i;
	if (rate_kept_up(st)) {
		r->knee = i;
		udrv_hist_reset(r->row->hist);
		udrv_hist_merge(r->row->hist, b->lat);
	}
}

static int rate_step(struct rate_bench *b, struct rate_rx *rx,
		     uint64_t rate, struct rate_step *st)
{
	struct rate_src *src = rate_is_uio(rx->mech) ? &b->ticker : &b->wire;
	uint64_t period = 1000000000ULL / rate;
	int ret;

	if (rx->impl == RATE_LIBGPIOD)
		ret = rate_peer_step(rx, src, period, b->step_ns, b->lat, st);
	else
		ret = rate_rx_step(rx, src, period, b->step_ns, b->lat, st);
	st->target_per_s = rate;
	return ret;
}

/*
 * The second pass: --refine rates evenly between the knee and the rate
 * after it (where the receiver lost or fell behind), so that the knee is
 * not only one of a coarse grid's rates.
 */
static int rate_refine(struct rate_bench *b, struct rate_recv *r,
		       struct rate_rx *rx)
{
	struct rate_step st;
	uint64_t lo, hi, prev;
	int ret = 0;

	if (r->knee < 0 || (size_t)r->knee + 1 >= r->nsteps || !b->refine)
		return 0;
	lo = r->steps[r->knee].target_per_s;
	hi = r->steps[r->knee + 1].target_per_s;
	prev = lo;
	for (unsigned int i = 1; !ret && i <= b->refine && !bench_interrupted(); i++) {
		uint64_t rate = lo + (hi - lo) * i / (b->refine + 1);

		if (rate <= prev || rate >= hi)
			continue;
		prev = rate;
		ret = rate_step(b, rx, rate, &st);
		if (ret || bench_interrupted())
			break;
		st.refined = true;
		rate_keep(b, r, &st);
	}
	return ret;
}

static int rate_sweep(struct rate_bench *b, struct rate_recv *r)
{
	struct rate_step st;
	struct rate_rx rx;
	int ret;

	rate_rx_setup(b, r, &rx);
	ret = rx.impl == RATE_LIBGPIOD ? 0 :
	      rate_rx_open(&rx, rate_is_uio(r->mech) ? &b->ticker : &b->wire);
	/* warm-up: the irq thread sets itself FIFO 50 when it first runs */
	if (!ret && rx.impl != RATE_LIBGPIOD) {
		ret = rate_rx_step(&rx, rate_is_uio(r->mech) ? &b->ticker : &b->wire,
				   1000000000ULL / b->rates[0], RATE_WARMUP_NS,
				   b->lat, &st);
		if (!ret)
			ret = rate_wake(b, r);
	}
	for (size_t i = 0; !ret && i < b->nrates && !bench_interrupted(); i++) {
		bench_progress(&b->run, r->row, i, b->nrates);
		ret = rate_step(b, &rx, b->rates[i], &st);
		if (ret || bench_interrupted())
			break;
		rate_keep(b, r, &st);
		if (rate_lost(&st) * 2 > st.c.made && i + 1 < b->nrates) {
			bench_note_add(r->note, sizeof(r->note),
				       "sweep stopped after %llu/s: more than half lost",
				       (unsigned long long)b->rates[i]);
			break;
		}
	}
	if (!ret && !bench_interrupted())
		ret = rate_refine(b, r, &rx);
	if (rx.impl != RATE_LIBGPIOD)
		rate_rx_close(&rx);
	return ret;
}


static int rate_rows(struct rate_bench *b)
{
	for (size_t i = 0; i < b->nrecv; i++) {
		struct rate_recv *r = &b->recv[i];

		if (!r->present)
			continue;	/* the capacity table says why */
		r->row = bench_row(&b->run, rate_mech_names[r->mech],
				   rate_impl_names[r->impl], rate_wait(r->mech),
				   "event_to_wake");
		if (!r->row)
			return bench_error(EXIT_FAIL, "out of memory");
	}
	return 0;
}

static int rate_measure(struct rate_bench *b)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < b->nrecv && !bench_interrupted(); i++)
		if (b->recv[i].present)
			ret = rate_sweep(b, &b->recv[i]);
	rate_finish(b);
	return ret;
}

BENCH_COMMAND(rate,
		"interrupts per second a receiver takes: sweep, loss at the\n"
		"source, knee, CPU, throughput (cdev, cdev-batch, uio, udrv-irq)");

int cmd_bench_rate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "line", required_argument, NULL, OPT_LINE },
		{ "rates", required_argument, NULL, OPT_RATES },
		{ "step-duration", required_argument, NULL, OPT_STEP },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "mechanisms", required_argument, NULL, OPT_MECH },
		{ "impls", required_argument, NULL, OPT_IMPL },
		{ "refine", required_argument, NULL, OPT_REFINE },
		{ NULL, 0, NULL, 0 },
	};
	static struct rate_bench b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.chip_spec = "gpio-wire";
	b.line = RATE_LINE;
	b.step_ns = RATE_STEP_NS;
	b.batch = RATE_BATCH;
	b.buffer = RATE_BATCH_BUFFER;
	b.refine = RATE_REFINE;
	b.nrates = sizeof(rate_default) / sizeof(rate_default[0]);
	memcpy(b.rates, rate_default, sizeof(rate_default));
	for (int i = 0; i < RATE_NMECH; i++)	/* the helper's if it is there */
		b.want_mech[i] = !rate_is_helper(i) || !access(UDRV_IRQ_DEVICE, F_OK);
	for (int i = 0; i < RATE_NIMPL; i++)
		b.want_impl[i] = true;
	ret = bench_parse(&b.run, "rate", argc, argv, rate_help, "c:",
			  longopts, rate_opt, &b);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return bench_usage("rate", "unexpected argument '%s'", argv[optind]);
	if (b.run.o.samples || b.run.o.duration_ns)
		return bench_usage("rate", "-n/--samples and -D/--duration do not apply: use --rates and --step-duration");
	if (b.buffer < b.batch)
		return bench_usage("rate", "--buffer %u is below --batch %u: a read could never fill its batch",
				 b.buffer, b.batch);
	rate_json_attach(&b);
	ret = rate_plan(&b);
	if (!ret)
		ret = rate_rows(&b);
	if (!ret)
		ret = rate_open(&b);
	if (!ret)
		ret = bench_begin(&b.run);
	if (!ret)
		ret = rate_measure(&b);
	rate_close(&b);
	if (!ret)
		rate_print(&b);
	return bench_end(&b.run, ret);
}
