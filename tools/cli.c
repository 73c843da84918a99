// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared helpers of the udrv tool: messages, parsing, dispatch, and the
 * options and line lookup common to the gpio commands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("udrv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("udrv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'udrv %s%s--help'.\n", cmd, *cmd ? " " : "");
	return EXIT_USAGE;
}

void cli_print_help(const char *text)
{
	fputs(text, stdout);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "help");
}

int cli_dispatch(const char *prefix, const struct cli_cmd *cmds, int argc,
		 char **argv, const char *help)
{
	if (argc < 1 || is_help(argv[0])) {
		cli_print_help(help);
		return argc < 1 ? EXIT_USAGE : EXIT_OK;
	}
	for (const struct cli_cmd *c = cmds; c->name; c++)
		if (!strcmp(argv[0], c->name))
			return c->run(argc, argv);
	return cli_usage(prefix, "unknown command '%s%s%s'", prefix,
			 *prefix ? " " : "", argv[0]);
}

/* Decimal, or hex with 0x: a leading 0 is not octal (010 is ten). */
static int number_base(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}

int cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, number_base(s));
	return errno || *end || end == s ? -EINVAL : 0;
}

int cli_parse_int(const char *s, long min, long max, long *v)
{
	const char *digits = s && (*s == '-' || *s == '+') ? s + 1 : s;
	char *end;

	if (!s || !*s || !*digits)
		return -EINVAL;
	errno = 0;
	*v = strtol(s, &end, number_base(digits));
	if (errno || *end || end == s || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

int cli_parse_duration_ns(const char *s, uint64_t *ns)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "", 1e9 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].sfx)) {
			*ns = (uint64_t)(v * units[i].mul);
			return 0;
		}
	}
	return -EINVAL;
}

int cli_parse_timeout_ms(const char *s, int *ms)
{
	uint64_t ns;

	if (cli_parse_duration_ns(s, &ns) || ns > (uint64_t)INT32_MAX * 1000000)
		return -EINVAL;
	*ms = (int)((ns + 999999) / 1000000);
	return 0;
}

uint64_t cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int cli_report_opts(int argc, char **argv, const char *cmd, const char *help,
		    bool *json, bool *verbose)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	*json = *verbose = false;
	while ((opt = getopt_long(argc, argv, "jvh", opts, NULL)) != -1) {
		if (opt == 'j') {
			*json = true;
		} else if (opt == 'v') {
			*verbose = true;
		} else if (opt == 'h') {
			cli_print_help(help);
			return -1;
		} else {
			return cli_usage(cmd, "bad option");
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

struct udrv_json *cli_json_begin(bool json)
{
	return json ? udrv_json_new(stdout, true) : NULL;
}

int cli_json_end(struct udrv_json *j)
{
	return j ? udrv_json_free(j) : 0;
}

const char gpio_opts_short[] = "c:b:lB:d:C:j";
const struct option gpio_long_opts[] = {
	{ "chip", required_argument, NULL, 'c' },
	{ "backend", required_argument, NULL, 'b' },
	{ "active-low", no_argument, NULL, 'l' },
	{ "bias", required_argument, NULL, 'B' },
	{ "drive", required_argument, NULL, 'd' },
	{ "consumer", required_argument, NULL, 'C' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int parse_enum(const char *arg, const char *(*str)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(arg, str(i)))
			return i;
	return -1;
}

static const char *bias_name(int v)
{
	return udrv_bias_str((enum udrv_bias)v);
}

static const char *drive_name(int v)
{
	return udrv_drive_str((enum udrv_drive)v);
}

int gpio_opt_parse(struct gpio_opts *o, int opt, const char *arg,
		   const char *cmd)
{
	int v;

	switch (opt) {
	case 'c':
		o->chip = arg;
		return 1;
	case 'b':
		if (udrv_backend_parse(arg, &o->config.backend) == 0)
			return 1;
		cli_usage(cmd, "unknown backend '%s': cdev, sysfs or mmio", arg);
		return -1;
	case 'l':
		o->settings.active_low = true;
		return 1;
	case 'B':
		v = parse_enum(arg, bias_name, 4);
		if (v < 0) {
			cli_usage(cmd, "unknown bias '%s': as-is, disabled, pull-up, pull-down", arg);
			return -1;
		}
		o->settings.bias = (enum udrv_bias)v;
		return 1;
	case 'd':
		v = parse_enum(arg, drive_name, 3);
		if (v < 0) {
			cli_usage(cmd, "unknown drive '%s': push-pull, open-drain, open-source", arg);
			return -1;
		}
		o->settings.drive = (enum udrv_drive)v;
		return 1;
	case 'C':
		o->config.consumer = arg;
		return 1;
	case 'j':
		o->json = true;
		return 1;
	default:
		return 0;
	}
}

static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int open_chip(const char *spec, struct udrv_chip **chipp)
{
	struct udrv_chip *chip = udrv_chip_new();

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(chip, spec)) {
		cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		udrv_chip_free(chip);
		return EXIT_FAIL;
	}
	*chipp = chip;
	return EXIT_OK;
}

static int resolve_on_chip(struct udrv_chip *chip, int n, char *const *lines,
			   unsigned int *offsets, bool quiet)
{
	uint64_t num;
	int off;

	for (int i = 0; i < n; i++) {
		if (is_number(lines[i])) {
			if (cli_parse_u64(lines[i], &num) || num > UINT32_MAX)
				return cli_error(EXIT_USAGE,
						 "line offset %s is out of range", lines[i]);
			offsets[i] = (unsigned int)num;
			continue;
		}
		off = udrv_chip_find_line(chip, lines[i]);
		if (off < 0) {
			if (!quiet)
				cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
			return EXIT_FAIL;
		}
		offsets[i] = (unsigned int)off;
	}
	return EXIT_OK;
}

/* No chip given: the first chip that has every named line. */
static int search_chips(int n, char *const *lines, struct udrv_chip **chipp,
			unsigned int *offsets)
{
	char **names = NULL, reason[256];
	int count;

	count = udrv_chip_list(&names);
	for (int i = 0; i < count; i++) {
		if (open_chip(names[i], chipp))
			continue;
		if (!resolve_on_chip(*chipp, n, lines, offsets, true)) {
			udrv_strv_free(names);
			return EXIT_OK;
		}
		udrv_chip_free(*chipp);
		*chipp = NULL;
	}
	udrv_strv_free(names);
	if (count <= 0) {
		udrv_gpio_absent_reason(reason, sizeof(reason));
		return cli_error(EXIT_FAIL, "%s", reason);
	}
	return cli_error(EXIT_FAIL,
			 "no chip has all of the lines given; check the names with 'udrv gpio info'");
}

int gpio_resolve(const struct gpio_opts *o, int n, char *const *lines,
		 struct udrv_chip **chipp, unsigned int *offsets)
{
	int ret;

	*chipp = NULL;
	if (n > UDRV_LINES_MAX)
		return cli_error(EXIT_USAGE, "at most %d lines per command",
				 UDRV_LINES_MAX);
	if (!o->chip) {
		for (int i = 0; i < n; i++)
			if (is_number(lines[i]))
				return cli_usage("gpio",
						 "line %s is an offset: say which chip with -c CHIP (see 'udrv gpio info')",
						 lines[i]);
		return search_chips(n, lines, chipp, offsets);
	}
	ret = open_chip(o->chip, chipp);
	if (ret)
		return ret;
	ret = resolve_on_chip(*chipp, n, lines, offsets, false);
	if (ret) {
		udrv_chip_free(*chipp);
		*chipp = NULL;
	}
	return ret;
}
