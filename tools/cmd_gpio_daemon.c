// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lines held by udrvd: 'udrv gpio set --hold daemon' and 'udrv gpio
 * release'. The lines are found through udrvd's objects, so the user needs
 * no access to the chip, only a rule in udrvd's policy. Through udrvd's
 * client (client/, sd-bus); a udrv built without libsystemd says so.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#ifdef UDRV_HAVE_UDRVD_CLIENT
#include "udrvd_client.h"

/* The lines @names, through a client connected to udrvd; an exit code. */
static int daemon_lines(const char *chip, int n, char **names, struct udrvd_client **cp,
			struct udrvd_lines *lines)
{
	struct udrvd_client *c = udrvd_client_new();
	int err;

	*cp = c;
	if (!c)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrvd_client_open(c);
	if (!err)
		err = udrvd_client_find(c, chip, (size_t)n, names, lines);
	if (err == -EINVAL)
		return cli_usage(cli_command, "%s", udrvd_client_errmsg(c));
	if (err)
		return cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	return EXIT_OK;
}

static void print_held(const struct gpio_opts *o, const struct udrvd_lines *lines, int n,
		       char **names, const struct udrv_line_settings *s, const char *path)
{
	struct udrv_json *j = cli_json_begin(o->json);

	if (!j)
		return;
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "chip", lines->chip);
	udrv_json_kstr(j, "backend", "udrvd");
	udrv_json_kstr(j, "request", path);
	udrv_json_key(j, "lines");
	udrv_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "line", names[i]);
		udrv_json_kuint(j, "offset", lines->offsets[i]);
		udrv_json_kint(j, "value", s[i].value);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

int gpio_set_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s)
{
	char path[UDRVD_CLIENT_PATH_LEN];
	struct udrvd_lines lines;
	struct udrvd_client *c;
	int ret = daemon_lines(o->chip, n, names, &c, &lines);

	if (!ret && udrvd_client_set(c, &lines, s, o->config.consumer ? o->config.consumer : "udrv",
				     path, sizeof(path)))
		ret = cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	if (!ret)
		print_held(o, &lines, n, names, s, path);
	udrvd_client_free(c);
	return ret;
}

static int release_lines(const char *chip, int n, char **names)
{
	struct udrvd_lines lines;
	struct udrvd_client *c;
	int ret = daemon_lines(chip, n, names, &c, &lines);

	/* only the lines named: a request that holds others too stays */
	if (!ret && (udrvd_client_whole(c, &lines) || udrvd_client_release(c, &lines, NULL)))
		ret = cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	udrvd_client_free(c);
	return ret;
}
#else
static int no_client(void)
{
	return cli_error(EXIT_FAIL,
			 "this udrv is built without udrvd's client (no libsystemd at build time): use gpiocli, or a udrv built with libsystemd-dev");
}

int gpio_set_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s)
{
	return no_client();
}

static int release_lines(const char *chip, int n, char **names)
{
	return no_client();
}
#endif

static const char release_help[] =
"Usage: udrv gpio release [-c CHIP] LINE...\n"
"\n"
"Have udrvd release the lines it holds for you ('udrv gpio set --hold\n"
"daemon', gpiocli request). udrvd releases a request whole, as the kernel\n"
"does: when a request holds other lines too, nothing is released and the\n"
"message names them (give them all). The kernel then keeps or resets the\n"
"lines' values, as for any released line. Root, or a user the policy grants\n"
"admin on the lines, releases another user's request.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP       chip: gpiochip0, 0, /dev/gpiochip0 or a label\n"
"                        (optional when lines are given by name)\n"
"\n"
"Examples:\n"
"  udrv gpio release -c gpiochip0 17\n"
"  udrv gpio release GPIO17\n";

int cmd_gpio_release(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *chip = NULL;
	int opt;

	while ((opt = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(release_help);
			return EXIT_OK;
		}
		if (opt != 'c')
			return cli_usage("gpio release", "bad option");
		if (!*optarg)
			return cli_usage("gpio release", "empty chip name: give a chip (see 'udrv gpio info')");
		chip = optarg;
	}
	if (argc - optind < 1 || argc - optind > UDRV_LINES_MAX)
		return cli_usage("gpio release", "give 1 to %d lines", UDRV_LINES_MAX);
	for (int i = optind; i < argc; i++)
		if (!argv[i][0])
			return cli_usage("gpio release", "empty line name (an unset shell variable?)");
	return release_lines(chip, argc - optind, argv + optind);
}
