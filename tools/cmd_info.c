// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv info: everything udrv can see on this machine: GPIO chips and lines,
 * UIO devices, and real-time readiness. When something is absent, it says so
 * and why.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char info_help[] =
"Usage: udrv info [--json] [--verbose]\n"
"\n"
"Show the GPIO chips with their lines, the UIO devices with their maps, and\n"
"the real-time readiness of the system (preemption model, RT throttling,\n"
"CPU frequency governor, clocksource, isolated CPUs, irq threads). Where a\n"
"section is empty it says why (no kernel support, no driver, no hardware).\n"
"A chip whose registers the mmio backend knows (a Raspberry Pi's, RP1's on a\n"
"Pi 5, a BeagleBone's) also shows them and the file they are mapped from.\n"
"\n"
"  -j, --json      one JSON document: {\"gpio\":{...},\"uio\":{...},\"rt\":{...}}\n"
"  -v, --verbose   also list the real-time findings that are fine (OK)\n";

static void info_gpio(struct udrv_json *j, int *ret)
{
	char **names = NULL, reason[256] = "";
	int n = udrv_chip_list(&names);

	if (n <= 0)
		udrv_gpio_absent_reason(reason, sizeof(reason));
	if (j) {
		udrv_json_key(j, "gpio");
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "num_chips", n > 0 ? (uint64_t)n : 0);
		if (n <= 0)
			udrv_json_kstr(j, "reason", reason);
		udrv_json_key(j, "chips");
		udrv_json_arr_begin(j);
	} else {
		printf("GPIO chips:\n");
		if (n <= 0)
			printf("  %s\n", reason);
	}
	if (n > 0 && gpio_show_chips(names, n, j))
		*ret = EXIT_FAIL;
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
	udrv_strv_free(names);
}

static void info_uio(struct udrv_json *j, int *ret)
{
	char **names = NULL, reason[256] = "";
	int n = udrv_uio_list(&names);

	if (n <= 0)
		udrv_uio_absent_reason(reason, sizeof(reason));
	if (j) {
		udrv_json_key(j, "uio");
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "num_devices", n > 0 ? (uint64_t)n : 0);
		if (n <= 0)
			udrv_json_kstr(j, "reason", reason);
		udrv_json_key(j, "devices");
		udrv_json_arr_begin(j);
	} else {
		printf("\nUIO devices:\n");
		if (n <= 0)
			printf("  %s\n", reason);
	}
	if (n > 0 && uio_show_devices(names, n, j))
		*ret = EXIT_FAIL;
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
	udrv_strv_free(names);
}

int cmd_info(int argc, char **argv)
{
	struct udrv_rt_report report;
	bool json, verbose;
	struct udrv_json *j;
	int ret;

	ret = cli_report_opts(argc, argv, "info", info_help, &json, &verbose);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	j = cli_json_begin(json);
	if (j) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "udrv_version", udrv_version());
	}
	info_gpio(j, &ret);
	info_uio(j, &ret);
	udrv_rt_check(&report);
	if (j)
		udrv_json_key(j, "rt");
	else
		printf("\nReal-time readiness:\n");
	rt_show_report(&report, j, verbose);
	if (j)
		udrv_json_obj_end(j);
	cli_json_end(j);
	return ret;
}
