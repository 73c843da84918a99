// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv gpio info|get|set: chips and lines, reading and driving lines.
 * (mon and toggle live in cmd_gpio_events.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
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
#define OPT_LAYOUT	0x100
#define LAYOUT_HELP \
"      --layout SPEC     mmio backend, registers of an unknown SoC or FPGA\n" \
"                        block: base=ADDR,data=OFF,set=OFF,clear=OFF,dir=OFF,\n" \
"                        dir-input=0|1,width=8|16|32,stride=N,map=FILE\n"

static struct udrv_gpio_layout cli_layout;

static int layout_opt(struct gpio_opts *o, const char *arg, const char *cmd)
{
	char err[256];

	if (udrv_gpio_layout_parse(arg, &cli_layout, err, sizeof(err)))
		return cli_usage(cmd, "--layout: %s", err);
	o->config.layout = &cli_layout;
	o->config.layout_size = sizeof(cli_layout);
	return 0;
}

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

/* Shared with 'udrv gpio watch'. */
void gpio_json_line_fields(struct udrv_json *j, const struct udrv_line_info *li)
{
	udrv_json_kuint(j, "offset", li->offset);
	udrv_json_kstr(j, "name", li->name);
	udrv_json_kbool(j, "used", li->used);
	udrv_json_kstr(j, "consumer", li->consumer);
	udrv_json_kstr(j, "direction", udrv_direction_str(li->direction));
	udrv_json_kbool(j, "active_low", li->active_low);
	udrv_json_kstr(j, "bias", udrv_bias_str(li->bias));
	udrv_json_kstr(j, "drive", udrv_drive_str(li->drive));
	udrv_json_kstr(j, "edge", udrv_edge_str(li->edge));
	udrv_json_kstr(j, "event_clock", udrv_clock_str(li->event_clock));
	udrv_json_kuint(j, "debounce_us", li->debounce_us);
}

static void json_line_info(struct udrv_json *j, const struct udrv_line_info *li)
{
	udrv_json_obj_begin(j);
	gpio_json_line_fields(j, li);
	udrv_json_obj_end(j);
}

static void print_line_info(const struct udrv_line_info *li)
{
	char flags[96] = "";

	if (li->active_low)
		strcat(flags, " active-low");
	if (li->bias != UDRV_BIAS_AS_IS)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " bias=%s", udrv_bias_str(li->bias));
	if (li->drive != UDRV_DRIVE_PUSH_PULL)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " %s", udrv_drive_str(li->drive));
	if (li->edge != UDRV_EDGE_NONE)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " edge=%s", udrv_edge_str(li->edge));
	if (li->debounce_us)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " debounce=%uus", li->debounce_us);
	printf("  %4u  %-20s %-7s %-20s%s\n", li->offset,
	       li->name[0] ? li->name : "-",
	       li->direction == UDRV_DIR_OUTPUT ? "output" : "input",
	       li->used ? li->consumer[0] ? li->consumer : "(used)" : "-",
	       flags);
}

/* Where the mmio backend would find the chip's registers (line 0's). */
static void show_registers(struct udrv_chip *chip,
			   const struct udrv_gpio_layout *layout,
			   struct udrv_json *j)
{
	struct udrv_mmio_line_info m;
	int ret = udrv_chip_mmio_line_info(chip, layout, 0, &m);

	if (!j) {
		if (ret)
			printf("  registers: none: %s\n", udrv_chip_errmsg(chip));
		else
			printf("  registers: %s GPIO block at 0x%llx (%zu bytes, %u-bit), through %s at 0x%llx; line 0: %s/%s, level %s, mask 0x%x\n",
			       m.soc, (unsigned long long)m.phys, m.size, m.width,
			       m.map_path, (unsigned long long)m.map_offset,
			       m.set_name, m.clear_name, m.level_name, m.mask);
		return;
	}
	udrv_json_key(j, "mmio");
	udrv_json_obj_begin(j);
	if (ret) {
		udrv_json_kstr(j, "error", udrv_chip_errmsg(chip));
	} else {
		udrv_json_kstr(j, "soc", m.soc);
		udrv_json_kstr(j, "device", m.device);
		udrv_json_kuint(j, "phys", m.phys);
		udrv_json_kuint(j, "size", m.size);
		udrv_json_kuint(j, "width", m.width);
		udrv_json_kstr(j, "map_path", m.map_path);
		udrv_json_kuint(j, "map_offset", m.map_offset);
	}
	udrv_json_obj_end(j);
}

void gpio_chip_head(const struct gpio_chip_view *v, struct udrv_json *j)
{
	if (j) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "name", v->name);
		udrv_json_kstr(j, "label", v->label);
		udrv_json_kstr(j, "path", v->path);
		udrv_json_kuint(j, "num_lines", v->num_lines);
		udrv_json_kbool(j, "cdev", v->cdev);
		udrv_json_key(j, "sysfs_base");
		if (v->sysfs_base >= 0)
			udrv_json_int(j, v->sysfs_base);
		else
			udrv_json_null(j);
		return;
	}
	printf("%s [%s] %u lines%s", v->name, v->label, v->num_lines,
	       v->cdev ? "" : " (sysfs only)");
	if (v->sysfs_base >= 0)
		printf(", sysfs base %d", v->sysfs_base);
	printf("\n");
}

void gpio_lines_begin(struct udrv_json *j)
{
	if (j) {
		udrv_json_key(j, "lines");
		udrv_json_arr_begin(j);
	}
}

void gpio_line_show(const struct udrv_line_info *li, struct udrv_json *j)
{
	if (j)
		json_line_info(j, li);
	else
		print_line_info(li);
}

void gpio_chip_tail(struct udrv_json *j)
{
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
}

/*
 * One chip and its lines (@only: the @n_only lines of those offsets, else
 * all); with @regs (gpio info -b mmio) its registers.
 */
static int show_lines(struct udrv_chip *chip, struct udrv_json *j,
		      const struct gpio_opts *regs, const unsigned int *only,
		      unsigned int n_only)
{
	const struct gpio_chip_view v = {
		.name = udrv_chip_name(chip), .label = udrv_chip_label(chip),
		.path = udrv_chip_path(chip), .num_lines = udrv_chip_num_lines(chip),
		.cdev = udrv_chip_has_cdev(chip), .sysfs_base = udrv_chip_sysfs_base(chip),
	};
	struct udrv_line_info li;
	int ret = 0;

	gpio_chip_head(&v, j);
	if (regs)
		show_registers(chip, regs->config.layout, j);
	gpio_lines_begin(j);
	for (unsigned int i = 0; i < (only ? n_only : v.num_lines) && !ret; i++) {
		ret = udrv_chip_line_info(chip, only ? only[i] : i, &li);
		if (ret)
			cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		else
			gpio_line_show(&li, j);
	}
	gpio_chip_tail(j);
	return ret ? EXIT_FAIL : EXIT_OK;
}

static int show_chip(struct udrv_chip *chip, struct udrv_json *j,
		     const struct gpio_opts *regs)
{
	return show_lines(chip, j, regs, NULL, 0);
}

/* Shared with 'udrv info'. */
int gpio_show_chip(struct udrv_chip *chip, struct udrv_json *j)
{
	return show_chip(chip, j, NULL);
}

static const char info_help[] =
"Usage: udrv gpio info [-c CHIP] [--json] [--strict] [--via V]\n"
"                      [-b mmio [--layout SPEC]] [LINE...]\n"
"\n"
"List GPIO chips and, for each line: offset, name, direction, consumer (who\n"
"holds it) and flags. Without -c, every chip. With LINEs (names, or with -c\n"
"offsets too), only those lines and their chip: 'udrv gpio info GPIO17'.\n"
"A name found on more than one line is taken where 'udrv gpio get' takes it\n"
"(the first), with a note; --strict refuses it. With -b mmio, also where the\n"
"mmio backend finds each chip's registers (SoC, physical address, the file\n"
"they are mapped from), or why it cannot; nothing is claimed or written.\n"
"\n"
"Options:\n"
GPIO_VIA_HELP
"\n"
"Through udrvd every chip and line is listed; a line's state only when a\n"
"rule in udrvd.conf names the line for you (the others read as free inputs).\n";

/* 'udrv gpio info LINE...': the lines' chip with those lines only. */
static int info_lines(const struct gpio_opts *o, int n, char **lines)
{
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_chip *chip;
	struct udrv_json *j;
	int ret;

	ret = gpio_resolve(o, n, lines, &chip, offsets);
	if (ret)
		return ret;
	j = cli_json_begin(o->json);
	if (j)
		udrv_json_arr_begin(j);
	ret = show_lines(chip, j, o->config.backend == UDRV_BACKEND_MMIO ? o : NULL,
			 offsets, (unsigned int)n);
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_chip_free(chip);
	return ret;
}

static int show_chips(char **names, int n, struct udrv_json *j,
		      const struct gpio_opts *regs)
{
	struct udrv_chip *chip = udrv_chip_new();
	int ret = EXIT_OK;

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		int err = udrv_chip_open(chip, names[i]);

		if (err) {
			/* a bad spec is a usage error even among good ones */
			cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
			if (ret != EXIT_USAGE)
				ret = err == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
			continue;
		}
		if (show_chip(chip, j, regs))
			ret = EXIT_FAIL;
	}
	udrv_chip_free(chip);
	return ret;
}

/* Open each chip of @names in turn and show it. */
int gpio_show_chips(char **names, int n, struct udrv_json *j)
{
	return show_chips(names, n, j, NULL);
}

static int gpio_info(int argc, char **argv)
{
	struct gpio_opts o = { 0 };
	char **names = NULL, reason[256], *one[1];
	struct udrv_json *j;
	int opt, n, ret;

	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "backend", required_argument, NULL, 'b' },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "strict", no_argument, NULL, 's' },
		{ "via", required_argument, NULL, OPT_VIA },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	while ((opt = getopt_long(argc, argv, "c:jb:sh", opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(info_help);
			return EXIT_OK;
		}
		if (opt == '?')
			return cli_usage("gpio info", "bad option");
		if (opt == OPT_VIA ? gpio_via_parse(&o, optarg, "gpio info") :
		    opt == OPT_LAYOUT ? layout_opt(&o, optarg, "gpio info") :
		    gpio_opt_parse(&o, opt, optarg, "gpio info") < 0)
			return EXIT_USAGE;
	}
	if (o.config.layout && o.config.backend != UDRV_BACKEND_MMIO)
		return cli_usage("gpio info", "--layout goes with --backend mmio");
	ret = gpio_via_check(&o, "gpio info");
	if (ret)
		return ret;
	if (gpio_through_daemon(&o, "gpio info")) {
		if (optind < argc)
			return cli_error(EXIT_FAIL, "gpio info %s: through udrvd only whole chips are listed: name the chip (-c CHIP) instead of its lines",
					 argv[optind]);
		return gpio_info_daemon(&o);
	}
	if (optind < argc)
		return info_lines(&o, argc - optind, argv + optind);
	if (o.chip) {
		one[0] = (char *)o.chip;
		n = 1;
	} else {
		n = udrv_chip_list(&names);
	}
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	if (n <= 0) {
		udrv_gpio_absent_reason(reason, sizeof(reason));
		fprintf(j ? stderr : stdout, "%s\n", reason);
	}
	ret = show_chips(o.chip ? one : names, n, j,
			 o.config.backend == UDRV_BACKEND_MMIO ? &o : NULL);
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
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
		    opt == OPT_LAYOUT ? layout_opt(o, optarg, cmd) :
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
"libgpiod 2's gpioset holds until killed: here that is --hold forever, and\n"
"gpioset -z is --daemonize.\n"
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
"\n"
"With -b mmio the kernel sets the values when it hands over the lines, and\n"
"udrv then writes them again through the SoC's set/clear registers.\n"
"\n"
"Examples:\n"
"  udrv gpio set -c 0 17=1\n"
"  udrv gpio set --drive open-drain -c 0 5=0 --hold 2s\n"
"  udrv gpio set --hold daemon GPIO17=1\n"
"  udrv gpio set --daemonize GPIO17=1  # as gpioset -z\n";

static int parse_value(const char *s)
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

/*
 * --hold: until SIGINT or SIGTERM (cli_stop), or for the duration. They are
 * blocked from before the values are set, and let in only while it sleeps
 * (@old, the mask before): one that comes as udrv prints the values, or
 * between a check and the sleep, ends the hold (exit 0, lines released)
 * instead of killing udrv or being missed.
 */
static void hold(const char *how, const sigset_t *old)
{
	struct timespec ts, *tp = NULL;
	bool forever = !strcmp(how, "forever");
	uint64_t ns = 0, end, now;

	fflush(stdout);		/* --json's values, before the wait */
	if (!forever && cli_parse_duration_ns(how, &ns))
		return;		/* checked when the option was read */
	end = cli_now_ns() + ns;
	while (!cli_stop) {
		if (!forever) {
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

static int split_assignments(int n, char **args, char **names,
			     struct udrv_line_settings *s,
			     const struct udrv_line_settings *base)
{
	char *eq;
	int v;

	for (int i = 0; i < n; i++) {
		eq = strchr(args[i], '=');
		v = eq ? parse_value(eq + 1) : -1;
		if (v < 0)
			return cli_usage("gpio set", "'%s' is not LINE=VALUE (VALUE: 0, 1, on, off, active, inactive)",
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
		{ "daemonize", no_argument, NULL, 'z' }, { NULL, 0, NULL, 0 }
	};
	struct option longopts[16];
	struct udrv_line_settings s[UDRV_LINES_MAX];
	unsigned int offsets[UDRV_LINES_MAX];
	char *names[UDRV_LINES_MAX], optstr[32];
	struct gpio_opts o = { 0 };
	struct udrv_request *req = NULL;
	struct udrv_chip *chip;
	const char *hold_for = NULL;
	bool background = false;
	sigset_t unblocked;
	uint64_t ns, v = 0;
	int n, ret, opt, notify = -1;

	if (wants_help(argc, argv)) {
		cli_print_help(set_help);
		return EXIT_OK;
	}
	long_opts(longopts, extra);
	snprintf(optstr, sizeof(optstr), "%sH:z", gpio_opts_short);
	while ((opt = getopt_long(argc, argv, optstr, longopts, NULL)) != -1) {
		if (opt == OPT_LAYOUT) {
			if (layout_opt(&o, optarg, "gpio set"))
				return EXIT_USAGE;
		} else if (opt == 'H') {
			hold_for = optarg;
			if (strcmp(optarg, "forever") && strcmp(optarg, "daemon") &&
			    cli_parse_duration_ns(optarg, &ns))
				return cli_usage("gpio set", "bad --hold '%s': e.g. 2s, 500ms (at most 7 days), forever or daemon", optarg);
		} else if (opt == 'z') {
			background = true;
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
	if (hold_for) {
		cli_catch_stop_signals();
		cli_block_stop_signals(&unblocked);
	}
	ret = gpio_resolve(&o, n, names, &chip, offsets);
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
		if (hold_for)
			hold(hold_for, &unblocked);
	}
	udrv_request_release(req);
	udrv_chip_free(chip);
	return ret;
}

int cmd_gpio(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "info", gpio_info, "list chips and lines" },
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
