// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv gpio get|set: reading and driving lines. (info lives in
 * cmd_gpio_info.c, mon and toggle in cmd_gpio_events.c, watch in
 * cmd_gpio_watch.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cli_interactive.h"
#include "commands.h"

static const char gpio_help[] =
"Usage: udrv gpio COMMAND [OPTIONS] ...\n"
"\n"
"Read, drive and watch GPIO lines through the GPIO character device (cdev,\n"
"the default), legacy sysfs, or the SoC's registers (mmio: claimed through\n"
"the character device, driven by register stores). Lines are given by name\n"
"(as the board's device tree names them) or by offset on a chip (-c).\n"
"\n"
"Commands:\n"
"  info     list chips and their lines (name, consumer, direction, flags)\n"
"  get      read lines (requests them as inputs)\n"
"  set      drive lines (requests them as outputs)\n"
"  release  let go of lines udrvd holds for you (set --hold daemon)\n"
"  mon      wait for edges and print them with kernel timestamps\n"
"  toggle   toggle one line as fast as possible (or at a period), report rate\n"
"  watch    print line-info changes: requested, released, reconfigured\n"
"\n"
"Examples:\n"
"  udrv gpio info\n"
"  udrv gpio get -c gpiochip0 17 27\n"
"  udrv gpio set -c pinctrl-bcm2835 17=1 27=0\n"
"  udrv gpio mon -c gpiochip0 --edge both -n 10 4\n"
"  udrv gpio toggle -c gpiochip0 -n 100000 17\n"
"  udrv gpio toggle -b mmio -c pinctrl-bcm2835 -n 100000 17\n"
"\n"
"Run 'udrv gpio COMMAND --help' for the options of each.\n";

/* --layout, for the mmio backend on a SoC udrv does not know */
#define LAYOUT_HELP \
"      --layout SPEC     mmio backend, registers of an unknown SoC or FPGA\n" \
"                        block: base=ADDR,data=OFF,set=OFF,clear=OFF,dir=OFF,\n" \
"                        dir-input=0|1,width=8|16|32,stride=N,map=FILE\n"

/* The shared gpio options, --layout and @extra (NULL-terminated). */
static void long_opts(struct option *out, const struct option *extra)
{
	int k = 0;

	for (const struct option *p = gpio_long_opts; p->name; p++)
		out[k++] = *p;
	out[k++] = (struct option){ "layout", required_argument, NULL, OPT_LAYOUT };
	for (; extra && extra->name; extra++)
		out[k++] = *extra;
	memset(&out[k], 0, sizeof(out[k]));
}

static const char get_help[] =
"Usage: udrv gpio get [OPTIONS] LINE...\n"
"\n"
"Request the lines as inputs and print their logical values (1 = active).\n"
"LINE is a line name or, with -c, an offset.\n"
"\n"
"Options:\n"
GPIO_OPTS_HELP
LAYOUT_HELP
GPIO_VIA_HELP
"\n"
"With -b mmio the lines are claimed as inputs through the character device\n"
"and read from the SoC's level registers.\n"
"\n"
"Examples:\n"
"  udrv gpio get -c 0 4 17          # offsets 4 and 17 of gpiochip0\n"
"  udrv gpio get --bias pull-up BUTTON\n"
"  udrv gpio get -b sysfs -c 0 4    # through /sys/class/gpio\n";

static int request_lines(struct udrv_chip *chip, const struct gpio_opts *o,
			 size_t n, const unsigned int *offsets,
			 const struct udrv_line_settings *s,
			 struct udrv_request **reqp)
{
	int err = udrv_chip_request(chip, &o->config, n, offsets, s, reqp);

	return err ? cli_request_error(chip, &o->config, err) : EXIT_OK;
}

void gpio_print_values(const char *chip, const struct gpio_opts *o, int n, char **lines,
		       const unsigned int *offsets, uint64_t values)
{
	struct udrv_json *j = cli_json_begin(o->json);

	if (!j) {
		for (int i = 0; i < n; i++)
			printf("%s%s=%d", i ? " " : "", lines[i],
			       (int)((values >> i) & 1));
		printf("\n");
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "chip", chip);
	udrv_json_kstr(j, "backend", udrv_backend_str(o->config.backend));
	udrv_json_key(j, "lines");
	udrv_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "line", lines[i]);
		udrv_json_kuint(j, "offset", offsets[i]);
		udrv_json_kint(j, "value", (int)((values >> i) & 1));
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int parse_gpio_args(int argc, char **argv, struct gpio_opts *o,
			   const char *cmd, const char *help)
{
	static const struct option extra[] = {
		{ "via", required_argument, NULL, OPT_VIA }, { NULL, 0, NULL, 0 }
	};
	struct option longopts[16];
	int opt;

	long_opts(longopts, extra);
	while ((opt = getopt_long(argc, argv, gpio_opts_short, longopts,
				  NULL)) != -1) {
		if (opt == '?')
			return cli_usage(cmd, "bad option");
		if (opt == OPT_VIA ? gpio_via_parse(o, optarg, cmd) :
		    opt == OPT_LAYOUT ? gpio_layout_opt(o, optarg, cmd) :
		    gpio_opt_parse(o, opt, optarg, cmd) < 0)
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int cmd_get(int argc, char **argv)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	unsigned int offsets[UDRV_LINES_MAX];
	struct gpio_opts o = { 0 };
	struct udrv_request *req;
	struct udrv_chip *chip;
	uint64_t values = 0;
	int n, ret;

	if (wants_help(argc, argv)) {
		cli_print_help(get_help);
		return EXIT_OK;
	}
	ret = parse_gpio_args(argc, argv, &o, "gpio get", get_help);
	if (ret)
		return ret;
	n = argc - optind;
	if (n < 1)
		return cli_usage("gpio get", "which lines? give at least one LINE");
	ret = gpio_via_check(&o, "gpio get");
	if (ret)
		return ret;
	if (gpio_through_daemon(&o, "gpio get"))
		return gpio_get_daemon(&o, n, argv + optind);
	ret = gpio_resolve(&o, n, argv + optind, &chip, offsets);
	if (ret)
		return ret;
	for (int i = 0; i < n; i++)
		s[i] = o.settings;
	ret = request_lines(chip, &o, (size_t)n, offsets, s, &req);
	if (!ret) {
		if (udrv_request_get_values(req, UINT64_MAX >> (64 - n), &values))
			ret = cli_error(EXIT_FAIL, "%s", udrv_request_errmsg(req));
		else
			gpio_print_values(udrv_chip_name(chip), &o, n, argv + optind, offsets,
					  values);
		udrv_request_release(req);
	}
	udrv_chip_free(chip);
	return ret;
}

static const char set_help[] =
"Usage: udrv gpio set [OPTIONS] LINE=VALUE...\n"
"\n"
"Request the lines as outputs driving the given logical values (0/1,\n"
"off/on, inactive/active), then release them. With the character device,\n"
"the kernel may return a released line to its default state: use --hold to\n"
"keep driving it (sysfs keeps the value after release), or --hold daemon to\n"
"have udrvd hold it after udrv exits (udrvd(8): no access to the chip is\n"
"needed, only a rule in /etc/udrv/udrvd.conf; 'udrv gpio release' lets go).\n"
"libgpiod 2's gpioset holds until killed: here that is --hold forever;\n"
"gpioset -z is --daemonize, gpioset -i --interactive.\n"
"\n"
"Options:\n"
GPIO_OPTS_HELP
LAYOUT_HELP
"  -H, --hold DURATION   keep the lines for DURATION (1s, 500ms); 'forever'\n"
"                        holds until interrupted (Ctrl-C); 'daemon': udrvd\n"
"                        holds them (set again: its request takes the values\n"
"                        and settings)\n"
"  -z, --daemonize       hold in the background (--hold forever unless a\n"
"                        duration is given): udrv exits 0 once the values\n"
"                        are on the lines, or with the error that kept\n"
"                        them off; SIGTERM or SIGINT to the holder releases\n"
"  -i, --interactive     once the values are set, run commands from standard\n"
"                        input until 'exit' or its end (or SIGINT, SIGTERM):\n"
"                        get [LINE...], set LINE=VALUE..., toggle [LINE...],\n"
"                        sleep DURATION, help (LINE: as given here); a bad\n"
"                        command is said on stderr, the session goes on\n"
"\n"
"With -b mmio the kernel sets the values when it hands over the lines, and\n"
"udrv then writes them again through the SoC's set/clear registers.\n"
"\n"
"Examples:\n"
"  udrv gpio set -c 0 17=1\n"
"  udrv gpio set --drive open-drain -c 0 5=0 --hold 2s\n"
"  udrv gpio set --hold daemon GPIO17=1\n"
"  udrv gpio set --daemonize GPIO17=1  # as gpioset -z\n"
"  printf 'set GPIO17=1\\nsleep 100ms\\nget\\n' | udrv gpio set -i GPIO17=0\n";

/*
 * --hold: until SIGINT or SIGTERM (cli_stop), or for the duration. They are
 * blocked from before the values are set, and let in only while it sleeps
 * (@old, the mask before): one that comes as udrv prints the values, or
 * between a check and the sleep, ends the hold (exit 0, lines released)
 * instead of killing udrv or being missed.
 */
static void hold(const char *how, const sigset_t *old)
{
	uint64_t ns = UINT64_MAX;

	fflush(stdout);		/* --json's values, before the wait */
	if (strcmp(how, "forever") && cli_parse_duration_ns(how, &ns))
		return;		/* checked when the option was read */
	cli_sleep_ns(ns, old);
}

static int split_assignments(int n, char **args, char **names,
			     struct udrv_line_settings *s,
			     const struct udrv_line_settings *base)
{
	char *eq;
	int v;

	for (int i = 0; i < n; i++) {
		eq = strchr(args[i], '=');
		v = eq ? gpio_parse_value(eq + 1) : -1;
		if (v < 0)
			return cli_usage("gpio set", "'%s' is not LINE=VALUE (VALUE: " GPIO_VALUES ")",
					 args[i]);
		*eq = '\0';
		names[i] = args[i];
		s[i] = *base;
		s[i].direction = UDRV_DIR_OUTPUT;
		s[i].value = v;
	}
	return EXIT_OK;
}

/*
 * --daemonize: the holder is a child in a session of its own; the parent
 * waits for its word that the values are on the lines (a byte on a pipe)
 * and exits 0, or, when the child ends without it, with the child's exit
 * status (its error on the terminal's stderr). Returns -1 in the child,
 * with the pipe's end in @notify, else the parent's exit code.
 */
static int daemonize(int *notify)
{
	int p[2], status;
	ssize_t got;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return cli_error(EXIT_FAIL, "--daemonize: pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return cli_error(EXIT_FAIL, "--daemonize: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		setsid();
		*notify = p[1];
		return -1;
	}
	close(p[1]);
	do
		got = read(p[0], &c, 1);
	while (got < 0 && errno == EINTR);
	close(p[0]);
	if (got == 1)
		return EXIT_OK;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return cli_error(EXIT_FAIL, "--daemonize: the holder: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

/* The child of daemonize(), its values set: off the terminal, then the
 * parent told. */
static void detach(int notify)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	bool done;

	fflush(NULL);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	/* nothing keeps the folder busy; a parent gone has no status to give */
	done = chdir("/") == 0;
	done = write(notify, "1", 1) == 1 && done;
	(void)done;
	close(notify);
}

static int cmd_set(int argc, char **argv)
{
	static const struct option extra[] = {
		{ "hold", required_argument, NULL, 'H' },
		{ "daemonize", no_argument, NULL, 'z' },
		{ "interactive", no_argument, NULL, 'i' }, { NULL, 0, NULL, 0 }
	};
	struct option longopts[16];
	struct udrv_line_settings s[UDRV_LINES_MAX];
	unsigned int offsets[UDRV_LINES_MAX];
	char *names[UDRV_LINES_MAX], optstr[32];
	struct gpio_opts o = { 0 };
	struct udrv_request *req = NULL;
	struct udrv_chip *chip;
	const char *hold_for = NULL;
	bool background = false, interactive = false;
	sigset_t unblocked;
	uint64_t ns, v = 0;
	int n, ret, opt, notify = -1;

	if (wants_help(argc, argv)) {
		cli_print_help(set_help);
		return EXIT_OK;
	}
	long_opts(longopts, extra);
	snprintf(optstr, sizeof(optstr), "%sH:zi", gpio_opts_short);
	while ((opt = getopt_long(argc, argv, optstr, longopts, NULL)) != -1) {
		if (opt == OPT_LAYOUT) {
			if (gpio_layout_opt(&o, optarg, "gpio set"))
				return EXIT_USAGE;
		} else if (opt == 'H') {
			hold_for = optarg;
			if (strcmp(optarg, "forever") && strcmp(optarg, "daemon") &&
			    cli_parse_duration_ns(optarg, &ns))
				return cli_usage("gpio set", "bad --hold '%s': e.g. 2s, 500ms (at most 7 days), forever or daemon", optarg);
		} else if (opt == 'z') {
			background = true;
		} else if (opt == 'i') {
			interactive = true;
		} else if (opt == '?') {
			return cli_usage("gpio set", "bad option");
		} else if (gpio_opt_parse(&o, opt, optarg, "gpio set") < 0) {
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n < 1 || n > UDRV_LINES_MAX)
		return cli_usage("gpio set", "give 1 to %d LINE=VALUE pairs", UDRV_LINES_MAX);
	ret = split_assignments(n, argv + optind, names, s, &o.settings);
	if (ret)
		return ret;
	if (interactive && (ret = gpio_interactive_check(hold_for, background)))
		return ret;
	if (background && hold_for && !strcmp(hold_for, "daemon"))
		return cli_usage("gpio set", "--daemonize goes with --hold forever or a duration; with --hold daemon udrvd holds the lines and udrv exits anyway");
	if (background && !hold_for)
		hold_for = "forever";
	if (hold_for && !strcmp(hold_for, "daemon")) {
		if (o.config.backend != UDRV_BACKEND_CDEV)
			return cli_usage("gpio set", "--hold daemon: udrvd holds lines through the character device; leave out --backend");
		return gpio_set_daemon(&o, n, names, s);
	}
	if (background && (ret = daemonize(&notify)) >= 0)
		return ret;	/* the parent */
	if (hold_for || interactive) {
		cli_catch_stop_signals();
		cli_block_stop_signals(&unblocked);
	}
	ret = gpio_resolve(&o, n, names, &chip, offsets);
	if (ret == EXIT_FAIL)
		gpio_set_daemon_hint(&o);
	if (ret)
		return ret;
	ret = request_lines(chip, &o, (size_t)n, offsets, s, &req);
	for (int i = 0; !ret && i < n; i++)
		v |= (uint64_t)s[i].value << i;
	/* mmio: the claim set them; now through the registers */
	if (!ret && o.config.backend == UDRV_BACKEND_MMIO &&
	    udrv_request_set_values(req, UINT64_MAX >> (64 - n), v))
		ret = cli_error(EXIT_FAIL, "%s", udrv_request_errmsg(req));
	if (!ret) {
		if (o.json)
			gpio_print_values(udrv_chip_name(chip), &o, n, names, offsets, v);
		if (notify >= 0)
			detach(notify);
		if (interactive) {
			struct gpio_session gs = {
				.req = req, .o = &o, .chip = udrv_chip_name(chip),
				.n = n, .names = names, .offsets = offsets, .values = v,
			};

			ret = gpio_interactive(&gs, STDIN_FILENO, &unblocked);
		} else if (hold_for) {
			hold(hold_for, &unblocked);
		}
	}
	udrv_request_release(req);
	udrv_chip_free(chip);
	return ret;
}

int cmd_gpio(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "info", cmd_gpio_info, "list chips and lines" },
		{ "get", cmd_get, "read lines" },
		{ "set", cmd_set, "drive lines" },
		{ "release", cmd_gpio_release, "let go of lines udrvd holds" },
		{ "mon", cmd_gpio_mon, "watch edges" },
		{ "toggle", cmd_gpio_toggle, "toggle a line, report rate" },
		{ "watch", cmd_gpio_watch, "watch line-info changes" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("gpio", cmds, argc - 1, argv + 1, gpio_help);
}
