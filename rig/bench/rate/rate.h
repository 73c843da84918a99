/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench rate: how many interrupts per second a userspace driver takes.
 * A source that counts what it raises (gpio-wire's generator, uio-ticker)
 * is swept over offered rates; per rate and receiver: received, lost at the
 * source, dropped as the kernel reports it, CPU, latency; the knee (highest
 * offered rate with zero loss) and the event throughput of each receiver.
 *
 * This header: what rate.c, rate_rx.c and rate_peer.c share, and the two
 * parsers that the unit tests and the fuzz harness reach (rate_parse.c).
 */
#ifndef UDRV_BENCH_RATE_H
#define UDRV_BENCH_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

struct udrv_hist;

#define RATE_MAX_RATES		24
#define RATE_MAX_REFINE		8	/* --refine: rates between knee and loss */
#define RATE_MAX_PER_S		1000000ULL	/* the sources' 1 us period */

/*
 * --rates LIST: comma-separated rates per second, each DIGITS with an
 * optional k (x1000) or M (x1000000) suffix, through udrv_parse_u64, 1 ..
 * RATE_MAX_PER_S, strictly increasing, at most RATE_MAX_RATES. Returns the
 * number of rates, or -EINVAL / -ERANGE with @why set.
 */
int rate_parse_list(const char *s, uint64_t *rates, size_t max, char *why,
		    size_t whylen);

/* What `udrv-bench-peer rx` prints after it stops (docs: rate.md contract). */
struct rate_peer_out {
	uint64_t received;
	uint64_t reads;
	uint64_t seqno_first, seqno_last;
	uint64_t cpu_user_ns, cpu_sys_ns;
	uint64_t samples;
};

/*
 * Read the peer's stdout after its "ready" line (@text, @len bytes) through
 * bench_peer_text() (peer_parse.h: BENCH_PEER_RX_TABLE, every key once, in
 * any order, numbers through udrv_parse_u64), `samples` before its `lat`
 * lines and exactly that many, then `end` and nothing after it. Consistent
 * counts: samples <= received, seqnos 0 with no event, else 1 <= first <=
 * last and last - first + 1 >= received, 1 <= reads <= received. The first
 * @warmup events (made before the step, one per read) are left out of the
 * counts and of the latencies recorded into @lat (which may hold some on
 * failure). Returns 0, or -EINVAL with @why.
 */
int rate_peer_parse(const char *text, size_t len, uint64_t warmup,
		    struct udrv_hist *lat, struct rate_peer_out *out, char *why,
		    size_t whylen);

/* ---- the bench (rate.c, rate_src.c, rate_rx.c, rate_peer.c) -------- */

/* irq, irq-reply: a responder through the toolkit's helper udrv-irq */
enum rate_mech { RATE_CDEV, RATE_CDEV_BATCH, RATE_UIO_READ, RATE_UIO_POLL,
		 RATE_IRQ, RATE_IRQ_REPLY, RATE_NMECH };
enum rate_impl { RATE_UDRV, RATE_RAW, RATE_LIBGPIOD, RATE_NIMPL };

extern const char *const rate_mech_names[RATE_NMECH];
extern const char *const rate_impl_names[RATE_NIMPL];

/* A source's counters at one moment (differences make a step's counts). */
struct rate_count {
	uint64_t made;		/* gpio-wire gen_edges / uio-ticker ticks */
	uint64_t masked;	/* gpio-wire: made while the irq was masked */
	uint64_t injected;	/* gpio-wire: dropped by drop_every (counted) */
	uint64_t overruns;	/* periods the source's timer missed */
	uint64_t signalled;	/* uio-ticker: events signalled (page) */
};

struct udrv_chip;
struct udrv_uio;
struct udrv_region;
struct uio_ticker_page;

struct rate_src {
	bool uio;
	/* gpio-wire: its platform device's directory, the input line */
	char dir[160];
	unsigned int line;
	unsigned int old_line;
	bool line_set;
	/* uio-ticker */
	struct udrv_uio *ticker;
	struct udrv_region *map;
	const volatile struct uio_ticker_page *page;
	char period_path[160];
	char limit_path[160];
	uint64_t old_period_ns;
	bool running;		/* started by us: stop it on the way out */
};

int rate_src_open_wire(struct rate_src *s, const struct udrv_chip *chip,
		       unsigned int line);
int rate_src_open_ticker(struct rate_src *s);
/*
 * Start the source at @period_ns for at most @limit edges or ticks: it stops
 * by itself after them (gpio-wire gen_limit, uio-ticker tick_limit), so that
 * a rate the CPU cannot take (the timer's and the events' hard interrupts
 * leaving no time to the task that would stop it) ends anyway.
 */
int rate_src_start(struct rate_src *s, uint64_t period_ns, uint64_t limit);
int rate_src_stop(struct rate_src *s);
int rate_src_count(struct rate_src *s, struct rate_count *c);
/* @d = @b - @a, counter by counter: what the source did between two counts. */
void rate_count_sub(struct rate_count *d, const struct rate_count *a,
		    const struct rate_count *b);
/* Stop it, put back what was changed, close. */
void rate_src_close(struct rate_src *s);

/* One step: one offered rate for one receiver. */
struct rate_step {
	uint64_t target_per_s;	/* the rate asked for */
	uint64_t duration_ns;	/* source started .. stopped */
	uint64_t elapsed_ns;	/* source started .. the last event read
				 * (at least duration_ns): the time the
				 * events took to arrive */
	struct rate_count c;	/* the source's counts over the step */
	uint64_t received;	/* events read */
	uint64_t reads;		/* read calls that returned events */
	uint64_t dropped;	/* the kernel says: seqno / count gaps */
	uint64_t cpu_ns;	/* the receiving process's user + sys CPU */
	/*
	 * In-process receivers (getrusage): times it was preempted (ru_nivcsw:
	 * on one CPU, mostly by a higher irq thread) and times it slept
	 * (ru_nvcsw). Debian's kernels have no IRQ_TIME_ACCOUNTING: the hard
	 * interrupts that land while the receiver runs are charged to its
	 * CPU, so cpu_ns follows the schedule's phase, not only the loop.
	 */
	bool has_switches;	/* false: the peer (not reported) */
	uint64_t preempted, slept;
	uint64_t left_out;	/* events with no latency sample */
	uint64_t p50, p99, max, samples;
	bool refined;		/* a rate of the second pass near the knee */
};

/* What a receiver needs to run one step (rate_rx.c, rate_peer.c). */
struct rate_rx {
	enum rate_mech mech;
	enum rate_impl impl;
	unsigned int batch;		/* events per read; 1 for cdev */
	uint32_t buffer;		/* kernel event buffer; 0: default */
	const char *chip_path;		/* /dev/gpiochipN */
	unsigned int line;
	uint64_t max_samples;		/* peer: --max-samples */
	bool mlock;			/* peer: --mlock, as the bench locks */
	const char *peer;		/* the peer's path */
	/* called once the peer is ready (its line requested): 0 or exit code */
	int (*peer_ready)(void *ctx);
	void *ctx;
	/* in-process receivers */
	struct udrv_chip *chip;
	struct udrv_request *req;
	int fd;				/* raw: line request / /dev/uioN */
	struct udrv_uio *uio;
	const volatile struct uio_ticker_page *page;
	void *buf;			/* batch buffer */
	uint64_t seqno;			/* cdev: the last line_seqno read;
					 * irq: the last seqno of udrv-irq */
	/* irq, irq-reply: the chip's label, the reply's line, its level */
	const char *chip_label;
	unsigned int reply_line;
	bool have_reply;		/* irq-reply: a reply to write */
	uint32_t reply;
	uint32_t count;			/* uio: the last event count read */
};

/* irq, irq-reply: the mechanism is the helper's */
static inline bool rate_is_helper(enum rate_mech m)
{
	return m == RATE_IRQ || m == RATE_IRQ_REPLY;
}

int rate_rx_open(struct rate_rx *rx, struct rate_src *src);
void rate_rx_close(struct rate_rx *rx);
/*
 * Run one step: start the source at @period_ns, receive until
 * @duration_ns is over, stop the source, take what is left in the kernel
 * (a quiet 20 ms ends it), fill @st (latencies into @lat). 0 or an exit code.
 */
int rate_rx_step(struct rate_rx *rx, struct rate_src *src, uint64_t period_ns,
		 uint64_t duration_ns, struct udrv_hist *lat,
		 struct rate_step *st);
int rate_peer_step(struct rate_rx *rx, struct rate_src *src,
		   uint64_t period_ns, uint64_t duration_ns,
		   struct udrv_hist *lat, struct rate_step *st);

/* One receiver: its sweep. */
struct rate_recv {
	enum rate_mech mech;
	enum rate_impl impl;
	bool present;		/* measured (else: note says why not) */
	char note[320];
	size_t nsteps;
	struct rate_step steps[RATE_MAX_RATES + RATE_MAX_REFINE];
	int knee;		/* step index, -1: none */
	int best;		/* step with the most events per second */
	struct bench_row *row;	/* latency at the knee */
};

struct rate_bench {
	struct bench_run run;
	const char *chip_spec;
	unsigned int line;
	uint64_t rates[RATE_MAX_RATES];
	size_t nrates;
	uint64_t step_ns;
	unsigned int batch;
	uint32_t buffer;
	unsigned int refine;		/* --refine */
	bool want_mech[RATE_NMECH];
	bool want_impl[RATE_NIMPL];
	char peer[256];
	bool have_peer;
	struct udrv_chip *chip;
	struct rate_src wire, ticker;
	size_t nrecv;
	struct rate_recv recv[RATE_NMECH * RATE_NIMPL];
	struct udrv_hist *lat;		/* the step's */
};


/* rate_out.c: a step's figures */
uint64_t rate_lost(const struct rate_step *st);
double rate_per_s(uint64_t n, uint64_t ns);
double rate_received_per_s(const struct rate_step *s);
bool rate_kept_up(const struct rate_step *st);
/* the rows' references and notes, the tables, the results' "rate" object */
void rate_finish(struct rate_bench *b);
void rate_print(const struct rate_bench *b);
void rate_json_attach(struct rate_bench *b);

#endif /* UDRV_BENCH_RATE_H */
