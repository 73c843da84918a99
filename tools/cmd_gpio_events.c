// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv gpio mon|toggle: watch edge events (with loss accounting), and toggle
 * a line in a tight loop or at a fixed period.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * SIGINT and SIGTERM set 'stop'. No SA_RESTART: a blocked wait or read
 * returns -EINTR at once instead of being restarted by the kernel.
 */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static const char mon_help[] =
"Usage: udrv gpio mon [OPTIONS] LINE...\n"
"\n"
"Request the lines as inputs with edge detection and print each edge as it\n"
"arrives: kernel timestamp, line, edge, request-wide and per-line sequence\n"
"numbers. Events the kernel dropped (its buffer overflowed because we read\n"
"too slowly) show up as gaps in the sequence numbers and are reported as\n"
"LOST, never silently skipped. With --backend sysfs, timestamps are taken\n"
"when udrv wakes up and a loss is only detectable with --edge both.\n"
"\n"
"Options:\n"
GPIO_OPTS_HELP
"  -e, --edge EDGE        rising, falling or both (default both)\n"
"  -D, --debounce-us US   debounce period in microseconds\n"
"  -E, --event-clock C    monotonic (default), realtime or hte\n"
"  -S, --event-buffer N   kernel event buffer size (default: 16 per line)\n"
"  -n, --num-events N     exit after N events\n"
"  -t, --timeout D        exit when no event arrived for D (e.g. 5s)\n"
GPIO_VIA_HELP
"\n"
"Through udrvd (udrvd(8)): udrvd requests the lines with edge detection for\n"
"you and sends you their edges (the policy's read and watch), and releases\n"
"them when mon ends; lines one request of udrvd's already holds with edge\n"
"detection are watched as they are (watch is enough). Lost events show as\n"
"gaps in each line's sequence numbers.\n"
"\n"
"Output: one line per event; with --json one JSON object per line (JSON\n"
"Lines) and a final summary object {\"events\":N,\"lost\":M}.\n"
"SIGINT (Ctrl-C) or SIGTERM ends it cleanly, with the summary.\n"
"Exit status: 0, also when ended by SIGINT or SIGTERM; 1 when -n events did\n"
"not arrive before --timeout, or on an error (e.g. the device is gone: its\n"
"driver was unloaded or unbound).\n"
"\n"
"Example:\n"
"  udrv gpio mon -c gpiochip0 -e rising -n 5 4\n";

struct mon_opts {
	struct gpio_opts g;
	uint64_t max_events;
	int timeout_ms;		/* -1: wait forever */
};

static int parse_edge_opt(struct mon_opts *m, int opt, const char *arg)
{
	static const char *const edges[] = { "none", "rising", "falling", "both" };
	static const char *const clocks[] = { "monotonic", "realtime", "hte" };
	long v;

	switch (opt) {
	case 'e':
		for (int i = 1; i < 4; i++)
			if (!strcmp(arg, edges[i])) {
				m->g.settings.edge = (enum udrv_edge)i;
				return 0;
			}
		return cli_usage("gpio mon", "bad --edge '%s': rising, falling or both", arg);
	case 'E':
		for (int i = 0; i < 3; i++)
			if (!strcmp(arg, clocks[i])) {
				m->g.settings.event_clock = (enum udrv_clock)i;
				return 0;
			}
		return cli_usage("gpio mon", "bad --event-clock '%s'", arg);
	case 'D':
		if (cli_parse_int(arg, 0, 100000000, &v))
			return cli_usage("gpio mon", "bad --debounce-us '%s'", arg);
		m->g.settings.debounce_us = (uint32_t)v;
		return 0;
	case 'S':
		if (cli_parse_int(arg, 0, 1 << 20, &v))
			return cli_usage("gpio mon", "bad --event-buffer '%s'", arg);
		m->g.config.event_buffer_size = (uint32_t)v;
		return 0;
	case 'n':
		if (cli_parse_u64(arg, &m->max_events))
			return cli_usage("gpio mon", "bad --num-events '%s'", arg);
		return 0;
	case 't':
		if (cli_parse_timeout_ms(arg, &m->timeout_ms))
			return cli_usage("gpio mon", "bad --timeout '%s': e.g. 5s or 200ms", arg);
		return 0;
	default:
		return cli_usage("gpio mon", "bad option");
	}
}

static int parse_mon(int argc, char **argv, struct mon_opts *m)
{
	static const struct option mine[] = {
		{ "edge", required_argument, NULL, 'e' },
		{ "debounce-us", required_argument, NULL, 'D' },
		{ "event-clock", required_argument, NULL, 'E' },
		{ "event-buffer", required_argument, NULL, 'S' },
		{ "num-events", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "via", required_argument, NULL, OPT_VIA },
	};
	struct option longopts[20];
	char optstr[48];
	int opt, k = 0, ret;

	for (const struct option *p = gpio_long_opts; p->name; p++)
		longopts[k++] = *p;
	for (size_t i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		longopts[k++] = mine[i];
	memset(&longopts[k], 0, sizeof(longopts[k]));
	snprintf(optstr, sizeof(optstr), "%se:D:E:S:n:t:", gpio_opts_short);
	m->g.settings.edge = UDRV_EDGE_BOTH;
	m->timeout_ms = -1;
	while ((opt = getopt_long(argc, argv, optstr, longopts, NULL)) != -1) {
		if (opt == OPT_VIA) {
			if (gpio_via_parse(&m->g, optarg, "gpio mon"))
				return EXIT_USAGE;
			continue;
		}
		ret = gpio_opt_parse(&m->g, opt, optarg, "gpio mon");
		if (ret < 0)
			return EXIT_USAGE;
		if (ret == 0 && parse_edge_opt(m, opt, optarg))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void print_event(const struct udrv_edge_event *ev, char **names,
			bool json)
{
	struct udrv_json *j;

	if (!json) {
		if (ev->lost)
			printf("LOST %u event%s before seqno %u\n", ev->lost,
			       ev->lost == 1 ? "" : "s", ev->seqno);
		printf("%llu.%09llu %s %s seqno=%u line_seqno=%u\n",
		       (unsigned long long)(ev->timestamp_ns / 1000000000ULL),
		       (unsigned long long)(ev->timestamp_ns % 1000000000ULL),
		       names[ev->index], udrv_edge_str(ev->edge), ev->seqno,
		       ev->line_seqno);
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "timestamp_ns", ev->timestamp_ns);
	udrv_json_kstr(j, "line", names[ev->index]);
	udrv_json_kuint(j, "offset", ev->offset);
	udrv_json_kstr(j, "edge", udrv_edge_str(ev->edge));
	udrv_json_kuint(j, "seqno", ev->seqno);
	udrv_json_kuint(j, "line_seqno", ev->line_seqno);
	udrv_json_kuint(j, "lost", ev->lost);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

/* 1 events pending, 0 stopped by a signal, 2 timeout, or an exit code < 0 */
static int mon_wait(const struct gpio_events *src, const struct mon_opts *m)
{
	int ret;

	ret = src->wait(src->src, m->timeout_ms);
	if (ret == -EINTR && stop)
		return 0;
	if (ret < 0)
		return -cli_error(EXIT_FAIL, "%s", src->errmsg(src->src));
	return ret ? 1 : 2;
}

static int mon_loop(const struct gpio_events *src, const struct mon_opts *m,
		    char **names, uint64_t *seen)
{
	struct udrv_edge_event evs[64];
	size_t want;
	int n;

	while (!stop && (!m->max_events || *seen < m->max_events)) {
		n = mon_wait(src, m);
		if (n != 1)
			return n < 0 ? -n : n;
		want = m->max_events && m->max_events - *seen < 64 ?
		       (size_t)(m->max_events - *seen) : 64;
		n = src->read(src->src, evs, want);
		if (n == -EINTR && stop)
			break;
		if (n < 0)
			return cli_error(EXIT_FAIL, "%s", src->errmsg(src->src));
		for (int i = 0; i < n; i++)
			print_event(&evs[i], names, m->g.json);
		*seen += (uint64_t)n;
		fflush(stdout);
	}
	return EXIT_OK;
}

/* The request's side of struct gpio_events. */
static int req_wait(void *src, int timeout_ms)
{
	return udrv_request_wait_events(src, timeout_ms);
}

static int req_read(void *src, struct udrv_edge_event *ev, size_t max)
{
	return udrv_request_read_events(src, ev, max);
}

static const char *req_errmsg(void *src)
{
	return udrv_request_errmsg(src);
}

static uint64_t req_lost(void *src)
{
	return udrv_request_lost_events(src);
}

/* The lines @names requested with edge detection, on the chip. */
static int mon_chip(struct mon_opts *m, int n, char **names,
		    const struct udrv_line_settings *s, struct udrv_chip **chip,
		    struct gpio_events *ev)
{
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_request *req;
	int ret = gpio_resolve(&m->g, n, names, chip, offsets);

	if (ret)
		return ret;
	ret = udrv_chip_request(*chip, &m->g.config, (size_t)n, offsets, s, &req);
	if (ret) {
		ret = cli_request_error(*chip, &m->g.config, ret);
		udrv_chip_free(*chip);
		*chip = NULL;
		return ret;
	}
	*ev = (struct gpio_events){
		.wait = req_wait, .read = req_read, .errmsg = req_errmsg,
		.lost = req_lost, .src = req,
	};
	return EXIT_OK;
}

static void mon_summary(const struct mon_opts *m, uint64_t seen, uint64_t lost)
{
	struct udrv_json *j;

	if (!m->g.json) {
		fprintf(stderr, "%llu event%s, %llu lost\n",
			(unsigned long long)seen, seen == 1 ? "" : "s",
			(unsigned long long)lost);
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "events", seen);
	udrv_json_kuint(j, "lost", lost);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

int cmd_gpio_mon(int argc, char **argv)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	struct mon_opts m = { 0 };
	struct udrv_chip *chip = NULL;
	struct gpio_events ev;
	uint64_t seen = 0;
	bool daemon;
	int n, ret;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_print_help(mon_help);
			return EXIT_OK;
		}
	if (parse_mon(argc, argv, &m))
		return EXIT_USAGE;
	n = argc - optind;
	if (n < 1)
		return cli_usage("gpio mon", "which lines? give at least one LINE");
	ret = gpio_via_check(&m.g, "gpio mon");
	if (ret)
		return ret;
	for (int i = 0; i < n && i < UDRV_LINES_MAX; i++)
		s[i] = m.g.settings;
	daemon = gpio_through_daemon(&m.g, "gpio mon");
	ret = daemon ? gpio_mon_daemon(&m.g, n, argv + optind, s,
				       m.g.config.event_buffer_size, &ev) :
		       mon_chip(&m, n, argv + optind, s, &chip, &ev);
	if (ret)
		return ret;
	catch_stop_signals();
	ret = mon_loop(&ev, &m, argv + optind, &seen);
	if (ret == 2) {
		if (!stop)
			fprintf(stderr, "udrv: no event for %d ms\n",
				m.timeout_ms);
		ret = m.max_events && seen < m.max_events && !stop ?
		      EXIT_FAIL : EXIT_OK;
	}
	mon_summary(&m, seen, ev.lost(ev.src));
	if (daemon)
		gpio_mon_daemon_end(&ev);
	else
		udrv_request_release(ev.src);
	udrv_chip_free(chip);
	return ret;
}

static const char toggle_help[] =
"Usage: udrv gpio toggle [OPTIONS] LINE\n"
"\n"
"Request one line as an output and toggle it -n times, as fast as the\n"
"backend allows or every --period, then print the achieved rate. A quick\n"
"check: it sets no real-time priority and has no raw-loop reference (see\n"
"'udrv-bench toggle'). The line starts low: an odd -n leaves it high.\n"
"With -b mmio each toggle is one store to the SoC's set or clear register.\n"
"\n"
"Options:\n"
GPIO_OPTS_HELP
"      --layout SPEC     mmio backend on a SoC udrv does not know: see\n"
"                        'udrv gpio set --help'\n"
"  -n, --count N         number of toggles (default 100000; with -t: no\n"
"                        limit)\n"
"  -p, --period D        one toggle every D (e.g. 1ms); default: no wait\n"
"  -t, --toggle D[,D]... a sequence, as libgpiod's gpioset -t: wait the\n"
"                        first D, toggle, wait the next, toggle, ...; the\n"
"                        sequence repeats, unless its last D is 0: then it\n"
"                        ends with the toggle before (up to 64 periods)\n"
"\n"
"Examples:\n"
"  udrv gpio toggle -c gpiochip0 -n 1000000 17\n"
"  udrv gpio toggle -b mmio -c pinctrl-bcm2835 -n 1000000 17\n"
"  udrv gpio toggle -t 100ms,900ms GPIO17      # a 1 s blink until Ctrl-C\n"
"  udrv gpio toggle -t 200ms,200ms,200ms,0 GPIO17   # three toggles\n";

#define SEQ_MAX	64

/* The waits of a toggle: one --period, or a --toggle sequence. */
struct toggle_seq {
	uint64_t ns[SEQ_MAX];
	unsigned int n;		/* 0: --period (or none) */
	bool ends;		/* the last wait is 0: stop before it */
};

static int parse_seq(const char *arg, struct toggle_seq *seq)
{
	const char *p = arg;
	char item[64];
	size_t len;

	seq->n = 0;
	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(item) || seq->n == SEQ_MAX)
			return -1;
		memcpy(item, p, len);
		item[len] = '\0';
		if (cli_parse_duration_ns(item, &seq->ns[seq->n++]))
			return -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	seq->ends = !seq->ns[seq->n - 1];
	for (unsigned int i = 0; i + 1 < seq->n; i++)
		if (!seq->ns[i])
			return -1;	/* only the last may be 0 */
	return 0;
}

/* A --toggle sequence: wait, toggle, wait, toggle ... (gpioset -t). */
static int toggle_seq_loop(struct udrv_request *req, uint64_t *count,
			   const struct toggle_seq *seq)
{
	unsigned int len = seq->ends ? seq->n - 1 : seq->n;
	struct timespec next;
	uint64_t i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < *count && !stop; i++) {
		if (seq->ends && i == len)
			break;
		cli_timespec_add_ns(&next, seq->ns[i % len]);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
						&next, NULL) == EINTR)
			;
		if (stop)
			break;
		if (udrv_request_set_value(req, 0, !(i & 1)))
			return cli_error(EXIT_FAIL, "%s", udrv_request_errmsg(req));
	}
	*count = i;	/* fewer when interrupted or at the sequence's end */
	return EXIT_OK;
}

static int toggle_loop(struct udrv_request *req, uint64_t *count,
		       uint64_t period_ns, const struct toggle_seq *seq)
{
	struct timespec next;
	uint64_t i;

	if (seq->n)
		return toggle_seq_loop(req, count, seq);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < *count && !stop; i++) {
		if (udrv_request_set_value(req, 0, !(i & 1)))
			return cli_error(EXIT_FAIL, "%s", udrv_request_errmsg(req));
		if (!period_ns)
			continue;
		cli_timespec_add_ns(&next, period_ns);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	*count = i;	/* fewer when interrupted */
	return EXIT_OK;
}

/* With -b mmio, also which registers were driven and how they are mapped. */
static void toggle_report(const struct gpio_opts *o, struct udrv_chip *chip,
			  unsigned int offset, const char *line,
			  uint64_t count, uint64_t ns)
{
	double rate = ns ? (double)count * 1e9 / (double)ns : 0;
	struct udrv_json *j = cli_json_begin(o->json);
	bool mmio = o->config.backend == UDRV_BACKEND_MMIO;

	if (!j) {
		printf("%s: %llu toggles in %.3f ms: %.0f toggles/s (%.1f ns each, square wave %.2f kHz)\n",
		       line, (unsigned long long)count, (double)ns / 1e6, rate,
		       count ? (double)ns / (double)count : 0, rate / 2000);
		if (mmio)
			gpio_show_registers(chip, o->config.layout, offset, true, NULL);
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "line", line);
	udrv_json_kstr(j, "backend", udrv_backend_str(o->config.backend));
	if (mmio)
		gpio_show_registers(chip, o->config.layout, offset, true, j);
	udrv_json_kuint(j, "toggles", count);
	udrv_json_kuint(j, "elapsed_ns", ns);
	udrv_json_kdouble(j, "toggles_per_s", rate);
	udrv_json_kdouble(j, "ns_per_toggle", count ? (double)ns / (double)count : 0);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int parse_toggle(int argc, char **argv, struct gpio_opts *o,
			uint64_t *count, uint64_t *period,
			struct toggle_seq *seq)
{
	bool counted = false;
	struct option longopts[16];
	char optstr[40];
	int opt, k = 0, ret;

	for (const struct option *p = gpio_long_opts; p->name; p++)
		longopts[k++] = *p;
	longopts[k++] = (struct option){ "count", required_argument, NULL, 'n' };
	longopts[k++] = (struct option){ "period", required_argument, NULL, 'p' };
	longopts[k++] = (struct option){ "toggle", required_argument, NULL, 't' };
	longopts[k++] = (struct option){ "layout", required_argument, NULL,
					 OPT_LAYOUT };
	memset(&longopts[k], 0, sizeof(longopts[k]));
	snprintf(optstr, sizeof(optstr), "%sn:p:t:", gpio_opts_short);
	while ((opt = getopt_long(argc, argv, optstr, longopts, NULL)) != -1) {
		if (opt == OPT_LAYOUT) {
			if (gpio_layout_opt(o, optarg, "gpio toggle"))
				return EXIT_USAGE;
			continue;
		}
		ret = gpio_opt_parse(o, opt, optarg, "gpio toggle");
		if (ret < 0)
			return EXIT_USAGE;
		if (ret)
			continue;
		if (opt == 'n') {
			if (cli_parse_u64(optarg, count))
				return cli_usage("gpio toggle", "bad --count '%s': a number of toggles (0 or more)",
						 optarg);
			counted = true;
			continue;
		}
		if (opt == 't') {
			if (parse_seq(optarg, seq))
				return cli_usage("gpio toggle", "bad --toggle '%s': periods such as 100ms,200ms (at most %d, each at most 7 days; only the last may be 0)",
						 optarg, SEQ_MAX);
			continue;
		}
		if (opt == 'p') {
			if (cli_parse_duration_ns(optarg, period))
				return cli_usage("gpio toggle", "bad --period '%s': a duration such as 1ms, 250us or 2s (at most 7 days)",
						 optarg);
			continue;
		}
		return cli_usage("gpio toggle", "bad option");
	}
	if (seq->n && *period)
		return cli_usage("gpio toggle", "--period and --toggle: give one (--toggle D repeats D)");
	if (seq->n && !counted)
		*count = UINT64_MAX;
	return EXIT_OK;
}

int cmd_gpio_toggle(int argc, char **argv)
{
	struct gpio_opts o = { 0 };
	struct udrv_line_settings s;
	struct udrv_request *req;
	struct udrv_chip *chip;
	uint64_t count = 100000, period = 0, t0;
	struct toggle_seq seq = { .n = 0 };
	unsigned int offset;
	int ret;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_print_help(toggle_help);
			return EXIT_OK;
		}
	if (parse_toggle(argc, argv, &o, &count, &period, &seq))
		return EXIT_USAGE;
	if (argc - optind != 1)
		return cli_usage("gpio toggle", "give exactly one LINE");
	ret = gpio_resolve(&o, 1, argv + optind, &chip, &offset);
	if (ret)
		return ret;
	s = o.settings;
	s.direction = UDRV_DIR_OUTPUT;
	ret = udrv_chip_request(chip, &o.config, 1, &offset, &s, &req);
	if (ret) {
		ret = cli_request_error(chip, &o.config, ret);
		udrv_chip_free(chip);
		return ret;
	}
	catch_stop_signals();
	t0 = cli_now_ns();
	ret = toggle_loop(req, &count, period, &seq);
	if (!ret)
		toggle_report(&o, chip, offset, argv[optind], count,
			      cli_now_ns() - t0);
	udrv_request_release(req);
	udrv_chip_free(chip);
	return ret;
}
