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
"Usage: udrv rt check [--json] [--verbose]\n"
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

static int rt_check_cmd(int argc, char **argv)
{
	struct udrv_rt_report r;
	bool json, verbose;
	struct udrv_json *j;
	int ret;

	ret = cli_report_opts(argc, argv, "rt check", rt_help, &json, &verbose);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = udrv_rt_check(&r);
	if (ret)
		return cli_error(EXIT_FAIL, "rt check failed: %s", strerror(-ret));
	j = cli_json_begin(json);
	rt_show_report(&r, j, verbose);
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
