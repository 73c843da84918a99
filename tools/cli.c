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

int cli_request_error(struct udrv_chip *chip,
		      const struct udrv_request_config *config, int err)
{
	cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
	if (config->backend == UDRV_BACKEND_CDEV &&
	    (err == -ENOTTY || err == -ENODEV))
		fputs("udrv: without the GPIO character device: --backend sysfs\n",
		      stderr);
	if (err == -EBUSY)
		fprintf(stderr, "udrv: every line's holder: udrv gpio info -c %s\n",
			udrv_chip_name(chip));
	if (config->backend == UDRV_BACKEND_MMIO && !config->layout &&
	    err == -EOPNOTSUPP)
		fputs("udrv: for a SoC or FPGA core udrv does not know: --layout SPEC (udrv gpio --help)\n",
		      stderr);
	return EXIT_FAIL;
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

/* Numbers and durations: the library's strict parsers (udrv/parse.h). */
int cli_parse_u64(const char *s, uint64_t *v)
{
	return udrv_parse_u64(s, UINT64_MAX, v);
}

int cli_parse_int(const char *s, long min, long max, long *v)
{
	int64_t x;
	int ret;

	ret = udrv_parse_s64(s, min, max, &x);
	if (!ret)
		*v = (long)x;
	return ret;
}

int cli_parse_duration_ns(const char *s, uint64_t *ns)
{
	return udrv_parse_duration_ns(s, CLI_DURATION_MAX_NS, ns);
}

int cli_parse_timeout_ms(const char *s, int *ms)
{
	uint64_t ns;
	int ret;

	ret = udrv_parse_duration_ns(s, (uint64_t)INT32_MAX * 1000000, &ns);
	if (ret)
		return ret;
	*ms = (int)((ns + 999999) / 1000000);
	return 0;
}

void cli_timespec_add_ns(struct timespec *ts, uint64_t ns)
{
	uint64_t nsec = (uint64_t)ts->tv_nsec + ns % 1000000000ULL;

	ts->tv_sec += (time_t)(ns / 1000000000ULL + nsec / 1000000000ULL);
	ts->tv_nsec = (long)(nsec % 1000000000ULL);
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

volatile sig_atomic_t cli_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	cli_stop = 1;
}

void cli_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void cli_block_stop_signals(sigset_t *old)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, old);
}

struct udrv_json *cli_json_begin(bool json)
{
	return json ? udrv_json_new(stdout, true) : NULL;
}

int cli_json_end(struct udrv_json *j)
{
	return j ? udrv_json_free(j) : 0;
}

int cli_show_list(bool json, char **names, char **given, int n,
		  void (*absent)(char *buf, size_t len),
		  int (*show)(char **specs, int n, struct udrv_json *j))
{
	struct udrv_json *j = cli_json_begin(json);
	char reason[512];
	int ret;

	if (j)
		udrv_json_arr_begin(j);
	if (n <= 0) {
		absent(reason, sizeof(reason));
		fprintf(j ? stderr : stdout, "%s\n", reason);
	}
	ret = show(names ? names : given, n, j);
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
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
		if (!*arg) {
			cli_usage(cmd, "empty --chip: give gpiochipN, N, /dev/gpiochipN or a label (see 'udrv gpio info')");
			return -1;
		}
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
	int ret;

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	ret = udrv_chip_open(chip, spec);
	if (ret) {
		/* -EINVAL: the spec itself is bad (out of range, empty) */
		ret = cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_chip_errmsg(chip));
		udrv_chip_free(chip);
		return ret;
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

/* The same line twice in one request: a usage error, not a busy line. */
static int check_duplicates(const struct udrv_chip *chip, int n,
			    char *const *lines, const unsigned int *offsets)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (offsets[i] == offsets[j])
				return cli_usage("gpio",
						 "line %u of %s is given twice ('%s' and '%s')",
						 offsets[i], udrv_chip_name(chip),
						 lines[j], lines[i]);
	return EXIT_OK;
}

/* No chip given: the first chip that has every named line. */
static int search_chips(int n, char *const *lines, struct udrv_chip **chipp,
			unsigned int *offsets)
{
	char **names = NULL, reason[256];
	int count, ret;

	count = udrv_chip_list(&names);
	for (int i = 0; i < count; i++) {
		if (open_chip(names[i], chipp))
			continue;
		if (!resolve_on_chip(*chipp, n, lines, offsets, true)) {
			udrv_strv_free(names);
			ret = check_duplicates(*chipp, n, lines, offsets);
			if (ret) {
				udrv_chip_free(*chipp);
				*chipp = NULL;
			}
			return ret;
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
	for (int i = 0; i < n; i++)
		if (!lines[i][0])
			return cli_usage("gpio",
					 "empty line name (an unset shell variable?): give a line name or an offset");
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
	if (!ret)
		ret = check_duplicates(*chipp, n, lines, offsets);
	if (ret) {
		udrv_chip_free(*chipp);
		*chipp = NULL;
	}
	return ret;
}
