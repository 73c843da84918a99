// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared helpers of the udrv tool: messages, parsing, dispatch, and the
 * options common to the gpio commands (their line lookup: cli_lines.c).
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

	fprintf(stderr, "udrv%s%s: ", *cmd ? " " : "", cmd);
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

/*
 * The optimal string alignment distance of @a and @b (insertions,
 * deletions, substitutions and swaps of neighbours: "gpoi" is 1 from
 * "gpio"), folding case when @fold; a large number for long strings.
 */
int cli_edit_distance(const char *a, const char *b, bool fold)
{
	enum { MAXLEN = 64 };
	int d[MAXLEN + 1][MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > MAXLEN || lb > MAXLEN)
		return MAXLEN * 2;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			char x = fold ? (char)tolower((unsigned char)a[i - 1]) : a[i - 1];
			char y = fold ? (char)tolower((unsigned char)b[j - 1]) : b[j - 1];
			int v = d[i - 1][j - 1] + (x != y);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* Is @typed a likely typo of @known: a third of its length or less away. */
bool cli_near(const char *typed, const char *known)
{
	size_t len = strlen(known);
	int max = len < 6 ? 1 : len < 12 ? 2 : 3;

	return cli_edit_distance(typed, known, true) <= max;
}

const char *cli_command = "";

/*
 * argv[0] of a command: "udrv gpio get", as getopt's messages name it; the
 * same without "udrv " in cli_command, for the messages of shared code.
 */
static char *full_name(const char *prefix, const char *name)
{
	static char bufs[2][64];
	static int k;
	char *buf = bufs[k++ & 1];

	snprintf(buf, sizeof(bufs[0]), "udrv%s%s %s", *prefix ? " " : "",
		 prefix, name);
	cli_command = buf + strlen("udrv ");
	return buf;
}

int cli_dispatch(const char *prefix, const struct cli_cmd *cmds, int argc,
		 char **argv, const char *help)
{
	const char *near = NULL;

	if (argc < 1 || is_help(argv[0])) {
		cli_print_help(help);
		return argc < 1 ? EXIT_USAGE : EXIT_OK;
	}
	for (const struct cli_cmd *c = cmds; c->name; c++) {
		if (!strcmp(argv[0], c->name)) {
			argv[0] = full_name(prefix, c->name);
			return c->run(argc, argv);
		}
		if (!near && cli_near(argv[0], c->name))
			near = c->name;
	}
	if (near)
		return cli_usage(prefix, "unknown command '%s': did you mean '%s%s%s'?",
				 argv[0], prefix, *prefix ? " " : "", near);
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

void cli_sleep_ns(uint64_t ns, const sigset_t *old)
{
	struct timespec ts, *tp = NULL;
	uint64_t end = ns == UINT64_MAX ? 0 : cli_now_ns() + ns, now;

	while (!cli_stop) {
		if (ns != UINT64_MAX) {
			now = cli_now_ns();
			if (now >= end)
				return;
			ts.tv_sec = (time_t)((end - now) / 1000000000ULL);
			ts.tv_nsec = (long)((end - now) % 1000000000ULL);
			tp = &ts;
		}
		ppoll(NULL, 0, tp, old);
	}
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

const char gpio_opts_short[] = "c:b:lB:d:C:js";
const struct option gpio_long_opts[] = {
	{ "chip", required_argument, NULL, 'c' },
	{ "backend", required_argument, NULL, 'b' },
	{ "active-low", no_argument, NULL, 'l' },
	{ "bias", required_argument, NULL, 'B' },
	{ "drive", required_argument, NULL, 'd' },
	{ "consumer", required_argument, NULL, 'C' },
	{ "json", no_argument, NULL, 'j' },
	{ "strict", no_argument, NULL, 's' },
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
	char names[128];
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
		cli_backend_names(names, sizeof(names));
		cli_usage(cmd, "unknown backend '%s': %s", arg, names);
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
	case 's':
		o->strict = true;
		return 1;
	default:
		return 0;
	}
}

int gpio_parse_value(const char *s)
{
	static const char *const on[] = { "1", "on", "active", "high" };
	static const char *const off[] = { "0", "off", "inactive", "low" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(s, on[i]))
			return 1;
		if (!strcmp(s, off[i]))
			return 0;
	}
	return -1;
}

/* --layout SPEC of the mmio backend: the one layout a command uses. */
int gpio_layout_opt(struct gpio_opts *o, const char *arg, const char *cmd)
{
	static struct udrv_gpio_layout layout;
	char err[256];

	if (udrv_gpio_layout_parse(arg, &layout, err, sizeof(err)))
		return cli_usage(cmd, "--layout: %s", err);
	o->config.layout = &layout;
	o->config.layout_size = sizeof(layout);
	return 0;
}
