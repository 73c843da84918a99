// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv gpio watch: line-info changes (requested, released, reconfigured by
 * any process), as libgpiod's gpionotify prints them. Nothing is requested:
 * the lines stay free for the process being watched.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char watch_help[] =
"Usage: udrv gpio watch [OPTIONS] LINE...\n"
"\n"
"Watch the lines' info and print each change as the kernel reports it: a\n"
"process (any) requested a line, released it, or changed its settings;\n"
"what libgpiod's gpionotify prints. The lines are not requested: whoever\n"
"is watched can take them. LINE is a line name (on whichever chip has it,\n"
"as gpionotify finds it) or, with -c, an offset.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP       chip: gpiochip0, 0, /dev/gpiochip0 or a label\n"
"                        (optional when lines are given by name)\n"
"  -s, --strict          refuse a line name that names more than one line\n"
"  -e, --event EVENT     requested, released or reconfigured; repeat for\n"
"                        more than one (default: all three)\n"
"  -n, --num-events N    exit after N events\n"
"  -t, --timeout D       exit when no event came for D (e.g. 5s)\n"
"  -j, --json            one JSON object per event (JSON Lines)\n"
"\n"
"Output: one line per event: kernel timestamp (CLOCK_MONOTONIC), event,\n"
"line, offset, consumer (- when free) and the line's settings after it.\n"
"SIGINT (Ctrl-C) or SIGTERM ends it. Exit status: 0, also when ended by a\n"
"signal; 1 when -n events did not come before --timeout, or on an error\n"
"(a kernel without the watch: Linux 5.10 or later is needed).\n"
"\n"
"Examples:\n"
"  udrv gpio watch GPIO17\n"
"  udrv gpio watch -c gpiochip0 -e requested -n 1 4 17\n";

struct watch_opts {
	struct gpio_opts g;
	unsigned int events;	/* bit per enum udrv_info_change; 0: all */
	uint64_t max_events;
	int timeout_ms;		/* -1: wait forever */
};

static int parse_event(struct watch_opts *w, const char *arg)
{
	for (int e = UDRV_INFO_REQUESTED; e <= UDRV_INFO_RECONFIGURED; e++)
		if (!strcmp(arg, udrv_info_change_str((enum udrv_info_change)e))) {
			w->events |= 1U << e;
			return 0;
		}
	return cli_usage("gpio watch", "bad --event '%s': requested, released or reconfigured",
			 arg);
}

static int parse_watch(int argc, char **argv, struct watch_opts *w)
{
	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "strict", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "event", required_argument, NULL, 'e' },
		{ "num-events", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	w->timeout_ms = -1;
	while ((opt = getopt_long(argc, argv, "c:sje:n:t:", opts, NULL)) != -1) {
		if (opt == 'e') {
			if (parse_event(w, optarg))
				return EXIT_USAGE;
		} else if (opt == 'n') {
			if (cli_parse_u64(optarg, &w->max_events) || !w->max_events)
				return cli_usage("gpio watch", "bad --num-events '%s': a number of events, 1 or more",
						 optarg);
		} else if (opt == 't') {
			if (cli_parse_timeout_ms(optarg, &w->timeout_ms))
				return cli_usage("gpio watch", "bad --timeout '%s': e.g. 5s or 200ms",
						 optarg);
		} else if (opt == '?' || gpio_opt_parse(&w->g, opt, optarg, "gpio watch") <= 0) {
			return cli_usage("gpio watch", "bad option");
		}
	}
	return EXIT_OK;
}

/*
 * The watched lines: each LINE resolved on its own (a name on whichever
 * chip has it, as gpionotify does), the chips they are on opened once.
 */
struct watch_set {
	int n, nchips;
	char **lines;
	struct udrv_chip *chips[UDRV_LINES_MAX];
	int chip[UDRV_LINES_MAX];		/* line i is on chips[chip[i]] */
	unsigned int offset[UDRV_LINES_MAX];
};

static void set_free(struct watch_set *ws)
{
	for (int k = 0; k < ws->nchips; k++)
		udrv_chip_free(ws->chips[k]);
}

/* Line @i resolved onto its chip (opened once); 0 or an exit code. */
static int set_add(struct watch_set *ws, const struct watch_opts *w, int i)
{
	struct udrv_chip *chip;
	int k, ret;

	ret = gpio_resolve(&w->g, 1, &ws->lines[i], &chip, &ws->offset[i]);
	if (ret)
		return ret;
	for (k = 0; k < ws->nchips; k++)
		if (!strcmp(udrv_chip_name(ws->chips[k]), udrv_chip_name(chip)))
			break;
	if (k < ws->nchips)
		udrv_chip_free(chip);
	else
		ws->chips[ws->nchips++] = chip;
	ws->chip[i] = k;
	for (int j = 0; j < i; j++)
		if (ws->chip[j] == k && ws->offset[j] == ws->offset[i])
			return cli_usage("gpio watch", "line %u of %s is given twice ('%s' and '%s')",
					 ws->offset[i], udrv_chip_name(ws->chips[k]),
					 ws->lines[j], ws->lines[i]);
	return EXIT_OK;
}

/* Every line resolved (the command line checked), then watched. */
static int set_watch(struct watch_set *ws, const struct watch_opts *w)
{
	struct udrv_chip *chip;
	int ret = EXIT_OK;

	for (int i = 0; i < ws->n && !ret; i++)
		ret = set_add(ws, w, i);
	for (int i = 0; i < ws->n && !ret; i++) {
		chip = ws->chips[ws->chip[i]];
		if (udrv_chip_watch_line_info(chip, ws->offset[i], NULL))
			ret = cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
	}
	return ret;
}

/* The name the command line gave line @offset of chip @k, or NULL. */
static const char *line_arg(const struct watch_set *ws, int k,
			    unsigned int offset)
{
	for (int i = 0; i < ws->n; i++)
		if (ws->chip[i] == k && ws->offset[i] == offset)
			return ws->lines[i];
	return NULL;
}

static void print_info_event(const struct udrv_info_event *ev,
			     const struct udrv_line_info *li, const char *line,
			     const char *chip, bool json)
{
	const char *change = udrv_info_change_str(ev->change);
	struct udrv_json *j;

	if (!json) {
		printf("%llu.%09llu %s %s offset=%u consumer=%s %s%s%s%s\n",
		       (unsigned long long)(ev->timestamp_ns / 1000000000ULL),
		       (unsigned long long)(ev->timestamp_ns % 1000000000ULL),
		       change, line ? line : li->name[0] ? li->name : "-",
		       ev->offset, li->used && li->consumer[0] ? li->consumer :
		       li->used ? "(used)" : "-",
		       udrv_direction_str(li->direction),
		       li->active_low ? " active-low" : "",
		       li->edge != UDRV_EDGE_NONE ? " edge=" : "",
		       li->edge != UDRV_EDGE_NONE ? udrv_edge_str(li->edge) : "");
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "timestamp_ns", ev->timestamp_ns);
	udrv_json_kstr(j, "event", change);
	udrv_json_kstr(j, "line", line ? line : li->name);
	udrv_json_kstr(j, "chip", chip);
	gpio_json_line_fields(j, li);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

/*
 * 1 an event is pending (on the chips whose @pfd has POLLIN), 0 a stop
 * signal, 2 the timeout, or -exit code.
 */
static int watch_wait(const struct watch_set *ws, struct pollfd *pfd,
		      const struct watch_opts *w, const sigset_t *mask)
{
	struct timespec ts, *tsp = NULL;
	int ret;

	if (cli_stop)
		return 0;
	if (w->timeout_ms >= 0) {
		ts.tv_sec = w->timeout_ms / 1000;
		ts.tv_nsec = (long)(w->timeout_ms % 1000) * 1000000L;
		tsp = &ts;
	}
	for (int k = 0; k < ws->nchips; k++)
		pfd[k] = (struct pollfd){ .fd = udrv_chip_fd(ws->chips[k]), .events = POLLIN };
	ret = ppoll(pfd, (nfds_t)ws->nchips, tsp, mask);
	if (ret < 0 && errno == EINTR && cli_stop)
		return 0;
	if (ret < 0)
		return -cli_error(EXIT_FAIL, "waiting for line-info changes: %s",
				  strerror(errno));
	for (int k = 0; k < ws->nchips; k++)
		if (pfd[k].revents & ~POLLIN)
			return -cli_error(EXIT_FAIL, "%s [%s] is gone (poll reports 0x%x)",
					  udrv_chip_name(ws->chips[k]),
					  udrv_chip_label(ws->chips[k]),
					  (unsigned int)pfd[k].revents);
	return ret ? 1 : 2;
}

/* One change of chip @k: 1 printed, 0 none or filtered out, or -exit code. */
static int watch_read(const struct watch_set *ws, int k,
		      const struct watch_opts *w)
{
	struct udrv_chip *chip = ws->chips[k];
	struct udrv_info_event ev;
	struct udrv_line_info li;
	int ret;

	ret = udrv_chip_read_info_event(chip, &ev, &li);
	if (ret == -EAGAIN)
		return 0;
	if (ret)
		return -cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
	if (w->events && !(w->events & (1U << ev.change)))
		return 0;
	print_info_event(&ev, &li, line_arg(ws, k, ev.offset),
			 udrv_chip_name(chip), w->g.json);
	fflush(stdout);
	return 1;
}

static int watch_loop(const struct watch_set *ws, const struct watch_opts *w)
{
	struct pollfd pfd[UDRV_LINES_MAX];
	uint64_t seen = 0;
	sigset_t old;
	int ret;

	cli_catch_stop_signals();
	cli_block_stop_signals(&old);
	while (!w->max_events || seen < w->max_events) {
		ret = watch_wait(ws, pfd, w, &old);
		if (ret <= 0)
			return -ret;
		if (ret == 2)
			return w->max_events ? cli_error(EXIT_FAIL, "no line-info change for %d ms (%llu of %llu events)",
							 w->timeout_ms, (unsigned long long)seen,
							 (unsigned long long)w->max_events) :
			       EXIT_OK;
		for (int k = 0; k < ws->nchips; k++) {
			if (!(pfd[k].revents & POLLIN) ||
			    (w->max_events && seen >= w->max_events))
				continue;
			ret = watch_read(ws, k, w);
			if (ret < 0)
				return -ret;
			seen += (uint64_t)ret;
		}
	}
	return EXIT_OK;
}

int cmd_gpio_watch(int argc, char **argv)
{
	struct watch_opts w = { 0 };
	struct watch_set ws = { 0 };
	int ret = EXIT_OK;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_print_help(watch_help);
			return EXIT_OK;
		}
	if (parse_watch(argc, argv, &w))
		return EXIT_USAGE;
	ws.n = argc - optind;
	ws.lines = argv + optind;
	if (ws.n < 1)
		return cli_usage("gpio watch", "which lines? give at least one LINE");
	if (ws.n > UDRV_LINES_MAX)
		return cli_usage("gpio watch", "at most %d lines", UDRV_LINES_MAX);
	ret = set_watch(&ws, &w);
	if (!ret)
		ret = watch_loop(&ws, &w);
	set_free(&ws);
	return ret;
}
