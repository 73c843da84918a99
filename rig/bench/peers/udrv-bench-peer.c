// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench-peer: the libgpiod 2.3 side of 'udrv-bench toggle/irq' (and
 * the rx side of 'udrv-bench rate'), a separate program so that udrv itself
 * links no libgpiod. Not installed; the lab ships it as
 * /usr/libexec/udrv/udrv-bench-peer. The bench finds it with
 * bench_peer_path() (rig/bench/core/peer.c) and reads everything it prints with one
 * strict reader (rig/bench/core/peer_parse.c), which also reads the commands here.
 *
 *   toggle  the toggle row: "batch N" on stdin toggles the line N times with
 *           gpiod_line_request_set_value() and answers "ns T" (the batch's
 *           CLOCK_MONOTONIC time); "set V" sets it (the level check) and
 *           answers "ok"; EOF releases it.
 *   irq     the irq rows: the loop of rig/bench/irq/irq.c's rows through libgpiod
 *           (set the output, blocking gpiod_line_request_read_edge_events()
 *           of one event), one "edge T_WRITE T_IRQ T_WAKE RISING" per edge
 *   rx      events from a source the bench drives (the contract in
 *           docs/rig/results.md, 'udrv-bench rate')
 *
 * toggle and irq first print "sched POLICY PRIO", "affinity MASK" and
 * "mlocked 0|1" (and "libgpiod MAJOR MINOR" first): the bench checks that
 * its child runs as it does.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <gpiod.h>
#include <udrv/parse.h>
#include <udrv/rt.h>

#include "peer_parse.h"

#define CONSUMER	"udrv-bench-peer"
#define EXIT_USAGE	2
#define EDGE_WATCHDOG_S	5
#define RX_MAX_SAMPLES	2000000

static const char usage[] =
"Usage: udrv-bench-peer COMMAND [OPTIONS]\n"
"\n"
"The libgpiod 2.3 side of udrv's benches (udrv-bench toggle, irq, rate):\n"
"started by the bench, not by hand (but it can be, to test it).\n"
"\n"
"  toggle --chip PATH --line N [--mlock] [--break]\n"
"      request line N as a low output; stdin 'batch N' toggles it N times\n"
"      (N even) and prints 'ns T'; 'set 0|1' sets it and prints 'ok'\n"
"  irq --chip PATH --out-line N --level 0|1 --samples N [--warmup N] [--mlock]\n"
"      [--ready]\n"
"      line N (output, at --level) drives line N+1 (input, both edges):\n"
"      per edge 'edge T_WRITE T_IRQ T_WAKE RISING', then 'received',\n"
"      'lost' (gaps in the sequence numbers) and 'end'. --ready: after the\n"
"      warm-up print 'ready' and wait for 'go' on stdin (the bench sets the\n"
"      line's irq thread, which has run by then, as it sets its own)\n"
"  rx --chip PATH --line N --batch K [--buffer B] [--max-samples M] [--mlock]\n"
"      line N as an input, both edges; 'ready', then read events K at a\n"
"      time until SIGTERM; then received, reads, seqno_first, seqno_last,\n"
"      cpu_user_ns, cpu_sys_ns, samples, one 'lat NS' per sample, 'end'\n"
"  version\n"
"      print 'libgpiod VERSION'\n"
"\n"
"--mlock: mlockall() first. --break (a test switch): 'set V' drives the\n"
"other value, so the bench's level check must fail.\n"
"Exit status: 0 done, 1 a request or read failed, 2 bad arguments.\n";

struct opts {
	const char *chip;
	unsigned int line;
	bool has_line;
	unsigned int level;
	bool has_level;
	uint64_t samples, warmup, batch, buffer, max_samples;
	bool has_samples, has_batch, has_max;
	bool mlock, brk, ready;
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "udrv-bench-peer: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (udrv-bench-peer --help)\n");
	return EXIT_USAGE;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- options --------------------------------------------------------- */

enum { O_CHIP = 0x100, O_LINE, O_OUT_LINE, O_LEVEL, O_SAMPLES, O_WARMUP,
       O_BATCH, O_BUFFER, O_MAX, O_MLOCK, O_BREAK, O_READY };

static int parse_num(const char *name, const char *arg, uint64_t max,
		     uint64_t *v)
{
	if (udrv_parse_u64(arg, max, v)) {
		fprintf(stderr, "udrv-bench-peer: bad %s '%s': a number up to %llu\n",
			name, arg, (unsigned long long)max);
		return EXIT_USAGE;
	}
	return 0;
}

static int take_opt(struct opts *o, int opt, const char *arg)
{
	uint64_t v;
	int ret = 0;

	switch (opt) {
	case O_CHIP:
		o->chip = arg;
		return 0;
	case O_LINE:
	case O_OUT_LINE:
		ret = parse_num(opt == O_LINE ? "--line" : "--out-line", arg, 65534, &v);
		o->line = (unsigned int)v;
		o->has_line = !ret;
		return ret;
	case O_LEVEL:
		ret = parse_num("--level", arg, 1, &v);
		o->level = (unsigned int)v;
		o->has_level = !ret;
		return ret;
	case O_SAMPLES:
		o->has_samples = true;
		return parse_num("--samples", arg, 100000000, &o->samples);
	case O_WARMUP:
		return parse_num("--warmup", arg, 1000000, &o->warmup);
	case O_BATCH:
		o->has_batch = true;
		ret = parse_num("--batch", arg, 1024, &o->batch);
		return ret ? ret : o->batch ? 0 :
		       usage_error("bad --batch '%s': at least 1", arg);
	case O_BUFFER:
		return parse_num("--buffer", arg, 1024, &o->buffer);
	case O_MAX:
		o->has_max = true;
		return parse_num("--max-samples", arg, 100000000, &o->max_samples);
	case O_MLOCK:
		o->mlock = true;
		return 0;
	case O_BREAK:
		o->brk = true;
		return 0;
	case O_READY:
		o->ready = true;
		return 0;
	default:
		return EXIT_USAGE;
	}
}

static int parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "chip", required_argument, NULL, O_CHIP },
		{ "line", required_argument, NULL, O_LINE },
		{ "out-line", required_argument, NULL, O_OUT_LINE },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "samples", required_argument, NULL, O_SAMPLES },
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "batch", required_argument, NULL, O_BATCH },
		{ "buffer", required_argument, NULL, O_BUFFER },
		{ "max-samples", required_argument, NULL, O_MAX },
		{ "mlock", no_argument, NULL, O_MLOCK },
		{ "break", no_argument, NULL, O_BREAK },
		{ "ready", no_argument, NULL, O_READY },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	opterr = 0;
	optind = 2;	/* after the command */
	while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		if (opt == '?')
			return usage_error("unknown option or missing value: '%s'",
					   argv[optind - 1]);
		ret = take_opt(o, opt, optarg);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->chip)
		return usage_error("%s needs --chip PATH", argv[1]);
	if (!o->has_line)
		return usage_error("%s needs the line (--line or --out-line)", argv[1]);
	return 0;
}

/* Only the options a command takes. */
static int only(const struct opts *o, const char *cmd, bool level,
		bool samples, bool batch)
{
	if (!level && o->has_level)
		return usage_error("%s takes no --level", cmd);
	if (!samples && (o->has_samples || o->warmup))
		return usage_error("%s takes no --samples or --warmup", cmd);
	if (!batch && (o->has_batch || o->buffer || o->has_max))
		return usage_error("%s takes no --batch, --buffer or --max-samples", cmd);
	if (o->ready && strcmp(cmd, "irq"))
		return usage_error("%s takes no --ready", cmd);
	return 0;
}

/* ---- the request ----------------------------------------------------- */

/*
 * Request @n lines: the first an output at @value (when @out), the others
 * inputs with both edges. NULL after a message.
 */
static struct gpiod_line_request *request(const char *path,
					  const unsigned int *offsets, size_t n,
					  bool out, int value, size_t buffer)
{
	struct gpiod_chip *chip = gpiod_chip_open(path);
	struct gpiod_line_settings *so = gpiod_line_settings_new();
	struct gpiod_line_settings *si = gpiod_line_settings_new();
	struct gpiod_line_config *lc = gpiod_line_config_new();
	struct gpiod_request_config *rc = gpiod_request_config_new();
	struct gpiod_line_request *req = NULL;
	size_t first_in = out ? 1 : 0;

	if (!chip) {
		fprintf(stderr, "udrv-bench-peer: libgpiod: gpiod_chip_open(%s): %s\n",
			path, strerror(errno));
		goto out;
	}
	if (!so || !si || !lc || !rc)
		goto fail;
	gpiod_line_settings_set_direction(so, GPIOD_LINE_DIRECTION_OUTPUT);
	gpiod_line_settings_set_output_value(so, value ? GPIOD_LINE_VALUE_ACTIVE :
					     GPIOD_LINE_VALUE_INACTIVE);
	gpiod_line_settings_set_direction(si, GPIOD_LINE_DIRECTION_INPUT);
	gpiod_line_settings_set_edge_detection(si, GPIOD_LINE_EDGE_BOTH);
	gpiod_line_settings_set_event_clock(si, GPIOD_LINE_CLOCK_MONOTONIC);
	if ((out && gpiod_line_config_add_line_settings(lc, offsets, 1, so)) ||
	    (n > first_in &&
	     gpiod_line_config_add_line_settings(lc, offsets + first_in,
						 n - first_in, si)))
		goto fail;
	gpiod_request_config_set_consumer(rc, CONSUMER);
	gpiod_request_config_set_event_buffer_size(rc, buffer);
	req = gpiod_chip_request_lines(chip, rc, lc);
fail:
	if (!req)
		fprintf(stderr, "udrv-bench-peer: libgpiod: requesting %s line %u: %s\n",
			path, offsets[0], strerror(errno));
out:
	gpiod_request_config_free(rc);
	gpiod_line_config_free(lc);
	gpiod_line_settings_free(si);
	gpiod_line_settings_free(so);
	if (chip)
		gpiod_chip_close(chip);
	return req;
}

/* ---- how it runs: the bench checks that it runs as the bench does ---- */

/* As the bench locks its own (bench_begin()): mlockall, stack prefaulted. */
static int lock_memory(const struct opts *o, int *locked)
{
	static struct udrv_rt *rt;	/* held to the end: it is the lock */

	*locked = 0;
	if (!o->mlock)
		return 0;
	rt = udrv_rt_new();
	if (!rt || udrv_rt_lock_memory(rt, 0)) {
		fprintf(stderr, "udrv-bench-peer: locking memory: %s\n",
			rt ? udrv_rt_errmsg(rt) : "out of memory");
		return 1;
	}
	*locked = 1;
	return 0;
}

/* "libgpiod MAJOR MINOR" from gpiod_api_version() ("2.3") */
static void print_version(void)
{
	const char *v = gpiod_api_version(), *dot = strchr(v, '.');
	unsigned int major = 0, minor = 0;
	char buf[16];

	if (dot && (size_t)(dot - v) < sizeof(buf)) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(dot - v), v);
		if (udrv_parse_uint(buf, 1000, &major) ||
		    udrv_parse_uint(dot + 1, 1000, &minor))
			major = minor = 0;
	}
	printf("libgpiod %u %u\n", major, minor);
}

static void print_sched(int locked)
{
	print_version();
	bench_peer_print_sched(locked);
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * SIGTERM and SIGINT set the flag; no SA_RESTART: a read returns EINTR.
 * Once stopped, the output is printed with them ignored: the bench repeats
 * SIGTERM until it sees the output, and a write must not be cut short.
 */
static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* ---- toggle ---------------------------------------------------------- */

static int toggle_batch(struct gpiod_line_request *req, unsigned int line,
			uint64_t n)
{
	uint64_t t0 = now_ns();

	for (uint64_t i = 0; i < n; i += 2)
		if (gpiod_line_request_set_value(req, line, GPIOD_LINE_VALUE_ACTIVE) ||
		    gpiod_line_request_set_value(req, line, GPIOD_LINE_VALUE_INACTIVE)) {
			fprintf(stderr, "udrv-bench-peer: gpiod_line_request_set_value: %s\n",
				strerror(errno));
			return 1;
		}
	printf("ns %llu\n", (unsigned long long)(now_ns() - t0));
	return 0;
}

static int toggle_set(struct gpiod_line_request *req, unsigned int line,
		      uint64_t v, bool brk)
{
	if (brk)	/* the test switch: the level check must see this */
		v = !v;
	if (gpiod_line_request_set_value(req, line, v ? GPIOD_LINE_VALUE_ACTIVE :
					 GPIOD_LINE_VALUE_INACTIVE)) {
		fprintf(stderr, "udrv-bench-peer: gpiod_line_request_set_value: %s\n",
			strerror(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

/* One command from the bench: "batch N" (N even, >= 2) or "set 0|1". */
static int toggle_command(struct gpiod_line_request *req, const struct opts *o,
			  const char *line, size_t len)
{
	char key[BENCH_PEER_KEY_LEN];
	uint64_t v[BENCH_PEER_MAX_VALS];
	unsigned int n;

	if (!bench_peer_line(line, len, key, sizeof(key), v, 1, &n) && n == 1) {
		if (!strcmp(key, "batch") && v[0] >= 2 && !(v[0] & 1))
			return toggle_batch(req, o->line, v[0]);
		if (!strcmp(key, "set") && v[0] <= 1)
			return toggle_set(req, o->line, v[0], o->brk);
	}
	fprintf(stderr, "udrv-bench-peer: bad command '%.*s': 'batch N' (N even) or 'set 0|1'\n",
		(int)len, line);
	return EXIT_USAGE;
}

static int cmd_toggle(const struct opts *o)
{
	struct gpiod_line_request *req;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret, locked;

	ret = only(o, "toggle", false, false, false);
	if (ret)
		return ret;
	catch_stop();
	if (lock_memory(o, &locked))
		return 1;
	req = request(o->chip, &o->line, 1, true, 0, 0);
	if (!req)
		return 1;
	print_sched(locked);
	printf("ready\n");
	fflush(stdout);
	while (!ret && !stop && (len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		ret = toggle_command(req, o, line, (size_t)len);
		fflush(stdout);
	}
	free(line);
	gpiod_line_request_release(req);
	return ret;
}

/* ---- irq ------------------------------------------------------------- */

struct edge {
	uint64_t t_write, t_irq, t_wake;
	bool rising;
};

/* One edge: write, wait for its event (blocking read of one), t_wake. */
static int irq_edge(struct gpiod_line_request *req,
		    struct gpiod_edge_event_buffer *buf, const struct opts *o,
		    int level, struct edge *e, uint64_t *gseq)
{
	struct gpiod_edge_event *ev;
	int n;

	alarm(EDGE_WATCHDOG_S);	/* no event: SIGALRM ends the peer */
	e->t_write = now_ns();
	if (gpiod_line_request_set_value(req, o->line, level ?
					 GPIOD_LINE_VALUE_ACTIVE :
					 GPIOD_LINE_VALUE_INACTIVE)) {
		fprintf(stderr, "udrv-bench-peer: gpiod_line_request_set_value: %s\n",
			strerror(errno));
		return 1;
	}
	n = gpiod_line_request_read_edge_events(req, buf, 1);
	e->t_wake = now_ns();
	if (n != 1)
		return n < 0 && errno == EINTR && stop ? 3 :
		       (fprintf(stderr, "udrv-bench-peer: gpiod_line_request_read_edge_events: %s\n",
				n < 0 ? strerror(errno) : "no event"), 1);
	ev = gpiod_edge_event_buffer_get_event(buf, 0);
	e->t_irq = gpiod_edge_event_get_timestamp_ns(ev);
	e->rising = gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE;
	*gseq = gpiod_edge_event_get_global_seqno(ev);
	return 0;
}

/*
 * --ready: the warm-up has run the line's irq thread (its first run sets it
 * to SCHED_FIFO 50); "ready", and the bench sets it as it sets its own rows'
 * thread before it answers "go". 0, or 1 (EOF or another answer).
 */
static int irq_ready(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret;

	printf("ready\n");
	fflush(stdout);
	len = getline(&line, &cap, stdin);
	ret = len == 3 && !strcmp(line, "go\n") ? 0 : 1;
	if (ret && !stop)
		fprintf(stderr, "udrv-bench-peer: after 'ready', expected 'go' on stdin, got %s\n",
			len > 0 ? "another line" : "end of file");
	free(line);
	return ret;
}

static int irq_loop(struct gpiod_line_request *req, const struct opts *o,
		    struct edge *edges, uint64_t *received, uint64_t *lost)
{
	struct gpiod_edge_event_buffer *buf = gpiod_edge_event_buffer_new(1);
	uint64_t total = o->warmup + o->samples, seq, last = 0;
	int level = (int)o->level, ret = 0;
	struct edge scratch;

	if (!buf)
		return 1;
	for (uint64_t i = 0; i < total && !ret && !stop; i++) {
		if (i == o->warmup && o->ready) {
			alarm(0);	/* the bench's answer has its own watchdog */
			ret = irq_ready();
			if (ret)
				break;
		}
		level = !level;
		ret = irq_edge(req, buf, o, level,
			       i < o->warmup ? &scratch : &edges[i - o->warmup], &seq);
		if (ret)
			break;
		(*received)++;
		if (last && seq != last + 1)
			*lost += seq - last - 1;
		last = seq;
	}
	alarm(0);
	gpiod_edge_event_buffer_free(buf);
	return ret == 3 ? 0 : ret;	/* stopped: print what there is */
}

static int cmd_irq(const struct opts *o)
{
	unsigned int offsets[2] = { o->line, o->line + 1 };
	struct gpiod_line_request *req;
	uint64_t received = 0, lost = 0, n;
	struct edge *edges;
	int ret, locked;

	ret = only(o, "irq", true, true, false);
	if (ret)
		return ret;
	if (!o->has_samples || !o->has_level)
		return usage_error("%s needs --samples and --level", "irq");
	edges = calloc(o->samples ? o->samples : 1, sizeof(*edges));
	if (!edges)
		return 1;
	catch_stop();
	ret = lock_memory(o, &locked);
	req = ret ? NULL : request(o->chip, offsets, 2, true, (int)o->level, 0);
	if (!req) {
		free(edges);
		return 1;
	}
	print_sched(locked);
	ret = irq_loop(req, o, edges, &received, &lost);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	gpiod_line_request_release(req);
	n = received > o->warmup ? received - o->warmup : 0;
	for (uint64_t i = 0; !ret && i < n; i++)
		printf("edge %llu %llu %llu %d\n", (unsigned long long)edges[i].t_write,
		       (unsigned long long)edges[i].t_irq,
		       (unsigned long long)edges[i].t_wake, edges[i].rising);
	if (!ret)
		printf("received %llu\nlost %llu\nend\n", (unsigned long long)received,
		       (unsigned long long)lost);
	free(edges);
	return ret;
}

/* ---- rx -------------------------------------------------------------- */

struct rx {
	uint64_t *lat, max, stored;
	uint64_t received, reads, seq_first, seq_last;
};

static uint64_t cpu_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

static int rx_loop(struct gpiod_line_request *req, struct gpiod_edge_event_buffer *buf,
		   size_t k, struct rx *r)
{
	struct gpiod_edge_event *ev;
	uint64_t now;
	int n;

	while (!stop) {
		n = gpiod_line_request_read_edge_events(req, buf, k);
		now = now_ns();
		if (n < 0 && errno == EINTR)
			continue;	/* the loop checks the flag */
		if (n < 0) {
			fprintf(stderr, "udrv-bench-peer: gpiod_line_request_read_edge_events: %s\n",
				strerror(errno));
			return 1;
		}
		if (n > 0)
			r->reads++;
		for (int i = 0; i < n; i++) {
			ev = gpiod_edge_event_buffer_get_event(buf, (unsigned long)i);
			if (!r->received)
				r->seq_first = gpiod_edge_event_get_line_seqno(ev);
			r->seq_last = gpiod_edge_event_get_line_seqno(ev);
			r->received++;
			if (r->stored < r->max)
				r->lat[r->stored++] = now - gpiod_edge_event_get_timestamp_ns(ev);
		}
	}
	return 0;
}

static void rx_print(const struct rx *r, const struct rusage *u0,
		     const struct rusage *u1)
{
	printf("received %llu\nreads %llu\nseqno_first %llu\nseqno_last %llu\n",
	       (unsigned long long)r->received, (unsigned long long)r->reads,
	       (unsigned long long)r->seq_first, (unsigned long long)r->seq_last);
	printf("cpu_user_ns %llu\ncpu_sys_ns %llu\nsamples %llu\n",
	       (unsigned long long)(cpu_ns(&u1->ru_utime) - cpu_ns(&u0->ru_utime)),
	       (unsigned long long)(cpu_ns(&u1->ru_stime) - cpu_ns(&u0->ru_stime)),
	       (unsigned long long)r->stored);
	for (uint64_t i = 0; i < r->stored; i++)
		printf("lat %llu\n", (unsigned long long)r->lat[i]);
	printf("end\n");
}

static int cmd_rx(const struct opts *o)
{
	struct rx r = { .max = o->has_max ? o->max_samples : RX_MAX_SAMPLES };
	struct gpiod_edge_event_buffer *buf;
	struct gpiod_line_request *req;
	struct rusage u0, u1;
	int ret = only(o, "rx", false, false, true), locked;

	if (ret)
		return ret;
	if (!o->has_batch)
		return usage_error("%s needs --batch K", "rx");
	/* before the samples' array: locked, its pages are there before
	 * "ready", not faulted in one by one while events come */
	if (lock_memory(o, &locked))
		return 1;
	r.lat = calloc(r.max ? r.max : 1, sizeof(*r.lat));
	buf = gpiod_edge_event_buffer_new(o->batch);
	if (!r.lat || !buf) {
		fprintf(stderr, "udrv-bench-peer: out of memory\n");
		free(r.lat);
		gpiod_edge_event_buffer_free(buf);
		return 1;
	}
	catch_stop();
	req = request(o->chip, &o->line, 1, false, 0, o->buffer);
	if (req) {
		printf("ready\n");
		fflush(stdout);
		getrusage(RUSAGE_SELF, &u0);
		ret = rx_loop(req, buf, o->batch, &r);
		getrusage(RUSAGE_SELF, &u1);
		signal(SIGTERM, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		gpiod_line_request_release(req);
		if (!ret)
			rx_print(&r, &u0, &u1);
	}
	gpiod_edge_event_buffer_free(buf);
	free(r.lat);
	return req ? ret : 1;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *cmd = argc > 1 ? argv[1] : "";
	int ret;

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") && argc == 2) {
		printf("libgpiod %s\n", gpiod_api_version());
		return 0;
	}
	if (strcmp(cmd, "toggle") && strcmp(cmd, "irq") && strcmp(cmd, "rx"))
		return usage_error("unknown command '%s': toggle, irq, rx or version",
				   cmd);
	ret = parse_opts(&o, argc, argv);
	if (ret)
		return ret;
	if (!strcmp(cmd, "toggle"))
		ret = cmd_toggle(&o);
	else if (!strcmp(cmd, "irq"))
		ret = cmd_irq(&o);
	else
		ret = cmd_rx(&o);
	fflush(stdout);
	return ret;
}
