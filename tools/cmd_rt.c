// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv rt check: is this system ready for real-time work, and what to fix.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char rt_help[] =
"Usage: udrv rt check [--json] [--verbose] [--prio N [--wait-for THREAD]...]\n"
"\n"
"Report what decides real-time latency on this system, and what to do about\n"
"each problem found:\n"
"  preemption model   PREEMPT_RT (/sys/kernel/realtime, uname -v) or not\n"
"  RT throttling      sched_rt_runtime_us: by default RT tasks are stopped\n"
"                     for 50 ms of every second\n"
"  cpufreq governor   anything but 'performance' adds wake-up latency\n"
"  clocksource        tsc / arch_sys_counter are cheap; jiffies is coarse\n"
"  isolcpus, nohz_full, irq thread priorities, SCHED_FIFO permission\n"
"\n"
"  -j, --json      machine-readable report (always every finding)\n"
"  -v, --verbose   also list what is fine (OK), not only info and warnings\n"
"  -P, --prio N    also check an application at SCHED_FIFO N (1..99) against\n"
"                  the irq threads it waits for: on PREEMPT_RT one above them\n"
"                  is woken in the middle of its waker's wake-up and blocks\n"
"                  on its lock (a warning, with what to change)\n"
"  -w, --wait-for THREAD\n"
"                  the threads it waits for, by name prefix (repeatable, up\n"
"                  to 8): 'irq/24-' (interrupt 24, as in /proc/interrupts),\n"
"                  'uio-ticker'; default: every irq thread\n"
"\n"
"Example: udrv rt check --prio 80 --wait-for irq/24-\n"
"\n"
"Exit status: 0 when nothing needs attention, 1 when a warning was found.\n";

static const char *level_str(enum udrv_rt_level l)
{
	return l == UDRV_RT_WARN ? "WARN" : l == UDRV_RT_INFO ? "info" : "ok";
}

void rt_show_report(const struct udrv_rt_report *r, struct udrv_json *j,
		    bool verbose)
{
	if (j) {
		udrv_rt_report_write_json(r, j);
		return;
	}
	printf("  kernel %s, preemption %s%s\n", r->release, r->preempt_model,
	       r->realtime ? " (real-time)" : "");
	for (size_t i = 0; i < r->num_findings; i++) {
		const struct udrv_rt_finding *f = &r->findings[i];

		if (!verbose && f->level == UDRV_RT_OK)
			continue;
		printf("  %-4s %-11s %s\n", level_str(f->level), f->topic,
		       f->text);
	}
}

#define RT_MAX_WAIT	8

struct rt_check_opts {
	bool json, verbose;
	int prio;			/* 0: no --prio */
	const char *wait[RT_MAX_WAIT];
	size_t nwait;
};

static int rt_check_opt(struct rt_check_opts *o, int opt, const char *arg)
{
	long v;

	switch (opt) {
	case 'j':
		o->json = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case 'P':
		if (cli_parse_int(arg, 1, 99, &v))
			return cli_usage("rt check", "bad --prio '%s': a SCHED_FIFO priority, 1..99", arg);
		o->prio = (int)v;
		return 0;
	case 'w':
		if (!*arg)
			return cli_usage("rt check", "empty --wait-for: give a thread name prefix, e.g. irq/24-");
		if (o->nwait == RT_MAX_WAIT)
			return cli_usage("rt check", "more than %d --wait-for", RT_MAX_WAIT);
		o->wait[o->nwait++] = arg;
		return 0;
	default:
		return cli_usage("rt check", "bad option");
	}
}

static int rt_check_parse(int argc, char **argv, struct rt_check_opts *o)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "prio", required_argument, NULL, 'P' },
		{ "wait-for", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, "jvP:w:h", opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(rt_help);
			return -1;
		}
		ret = rt_check_opt(o, opt, optarg);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return cli_usage("rt check", "unexpected argument '%s'", argv[optind]);
	if (o->nwait && !o->prio)
		return cli_usage("rt check", "--wait-for needs --prio N: the application's priority");
	return 0;
}

static int rt_check_cmd(int argc, char **argv)
{
	struct udrv_rt_report r;
	struct rt_check_opts o;
	struct udrv_json *j;
	int ret;

	ret = rt_check_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = udrv_rt_check(&r);
	if (!ret && o.prio)
		ret = udrv_rt_check_priority(&r, o.prio, o.wait, o.nwait);
	if (ret)
		return cli_error(EXIT_FAIL, "rt check failed: %s", strerror(-ret));
	j = cli_json_begin(o.json);
	rt_show_report(&r, j, o.verbose);
	cli_json_end(j);
	for (size_t i = 0; i < r.num_findings; i++)
		if (r.findings[i].level == UDRV_RT_WARN)
			return EXIT_FAIL;
	return EXIT_OK;
}

int cmd_rt(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "check", rt_check_cmd, "real-time readiness" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("rt", cmds, argc - 1, argv + 1, rt_help);
}
