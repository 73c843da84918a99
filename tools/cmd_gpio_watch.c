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
"is watched can take them. LINE is a line name or, with -c, an offset;\n"
"the lines of one chip (gpionotify's may span chips: run one per chip).\n"
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

/* The name the command line gave offset @offset, or NULL. */
static const char *line_arg(unsigned int offset, int n, char **lines,
			    const unsigned int *offsets)
{
	for (int i = 0; i < n; i++)
		if (offsets[i] == offset)
			return lines[i];
	return NULL;
}

static void print_info_event(const struct udrv_info_event *ev,
			     const struct udrv_line_info *li, const char *line,
			     bool json)
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
	gpio_json_line_fields(j, li);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

/* 1 an event is pending, 0 a stop signal, 2 the timeout, or -exit code. */
static int watch_wait(struct udrv_chip *chip, const struct watch_opts *w,
		      const sigset_t *mask)
{
	struct pollfd pfd = { .fd = udrv_chip_fd(chip), .events = POLLIN };
	struct timespec ts, *tsp = NULL;
	int ret;

	if (cli_stop)
		return 0;
	if (w->timeout_ms >= 0) {
		ts.tv_sec = w->timeout_ms / 1000;
		ts.tv_nsec = (long)(w->timeout_ms % 1000) * 1000000L;
		tsp = &ts;
	}
	ret = ppoll(&pfd, 1, tsp, mask);
	if (ret < 0 && errno == EINTR && cli_stop)
		return 0;
	if (ret < 0)
		return -cli_error(EXIT_FAIL, "waiting for line-info changes on %s: %s",
				  udrv_chip_name(chip), strerror(errno));
	if (ret && !(pfd.revents & POLLIN))
		return -cli_error(EXIT_FAIL, "%s [%s] is gone (poll reports 0x%x)",
				  udrv_chip_name(chip), udrv_chip_label(chip),
				  (unsigned int)pfd.revents);
	return ret ? 1 : 2;
}

static int watch_loop(struct udrv_chip *chip, const struct watch_opts *w,
		      int n, char **lines, const unsigned int *offsets)
{
	struct udrv_info_event ev;
	struct udrv_line_info li;
	uint64_t seen = 0;
	sigset_t old;
	int ret;

	cli_catch_stop_signals();
	cli_block_stop_signals(&old);
	while (!w->max_events || seen < w->max_events) {
		ret = watch_wait(chip, w, &old);
		if (ret <= 0)
			return -ret;
		if (ret == 2)
			return w->max_events ? cli_error(EXIT_FAIL, "no line-info change for %d ms (%llu of %llu events)",
							 w->timeout_ms, (unsigned long long)seen,
							 (unsigned long long)w->max_events) :
			       EXIT_OK;
		ret = udrv_chip_read_info_event(chip, &ev, &li);
		if (ret == -EAGAIN)
			continue;
		if (ret)
			return cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		if (w->events && !(w->events & (1U << ev.change)))
			continue;
		print_info_event(&ev, &li, line_arg(ev.offset, n, lines, offsets),
				 w->g.json);
		fflush(stdout);
		seen++;
	}
	return EXIT_OK;
}

int cmd_gpio_watch(int argc, char **argv)
{
	unsigned int offsets[UDRV_LINES_MAX];
	struct watch_opts w = { 0 };
	struct udrv_chip *chip;
	int n, ret = EXIT_OK;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_print_help(watch_help);
			return EXIT_OK;
		}
	if (parse_watch(argc, argv, &w))
		return EXIT_USAGE;
	n = argc - optind;
	if (n < 1)
		return cli_usage("gpio watch", "which lines? give at least one LINE");
	ret = gpio_resolve(&w.g, n, argv + optind, &chip, offsets);
	if (ret)
		return ret;
	for (int i = 0; i < n && !ret; i++)
		if (udrv_chip_watch_line_info(chip, offsets[i], NULL))
			ret = cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
	if (!ret)
		ret = watch_loop(chip, &w, n, argv + optind, offsets);
	udrv_chip_free(chip);
	return ret;
}
