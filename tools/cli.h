/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared pieces of the udrv command line tool: exit codes, messages, number
 * parsing, and the options and line lookup common to the gpio commands.
 */
#ifndef UDRV_CLI_H
#define UDRV_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <udrv/udrv.h>

#define EXIT_OK		0
#define EXIT_FAIL	1	/* the operation failed */
#define EXIT_USAGE	2	/* bad command line */

struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Print "udrv: <msg>" to stderr; returns @code. */
int cli_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The command being run, "gpio get" (cli_dispatch() sets it). */
extern const char *cli_command;
/* Usage error pointing at "<cmd> --help". */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Dispatch argv[0] among @cmds (NULL-terminated); prints help for --help. */
int cli_dispatch(const char *prefix, const struct cli_cmd *cmds, int argc,
		 char **argv, const char *help);
void cli_print_help(const char *text);
/* Typos: the distance of two words (@fold: ignoring case), and whether
 * @typed is near enough to @known to suggest it. */
int cli_edit_distance(const char *a, const char *b, bool fold);
bool cli_near(const char *typed, const char *known);
/*
 * A failed udrv_chip_request() (@err, negative errno): the library's message,
 * then, when the character device is what failed, the option that avoids it.
 */
int cli_request_error(struct udrv_chip *chip,
		      const struct udrv_request_config *config, int err);

/*
 * Numbers: decimal or 0x hex, the whole string (udrv/parse.h); 0, -EINVAL
 * (not a number) or -ERANGE (outside the range).
 */
int cli_parse_u64(const char *s, uint64_t *v);
int cli_parse_int(const char *s, long min, long max, long *v);
/* The longest duration any option takes: 7 days ("forever" where offered). */
#define CLI_DURATION_MAX_NS	(7ULL * 24 * 3600 * 1000000000ULL)
/* "1ms", "10s", "500us", "1.5ms", bare = seconds; finite, at most 7 days */
int cli_parse_duration_ns(const char *s, uint64_t *ns);
uint64_t cli_now_ns(void);
/*
 * Sleep @ns (UINT64_MAX: until stopped) with SIGINT and SIGTERM let in
 * (@old, the mask cli_block_stop_signals() saved); ends early once cli_stop
 * is set, and at once when it already is.
 */
void cli_sleep_ns(uint64_t ns, const sigset_t *old);
/* --timeout: a duration rounded up to whole ms (at most INT32_MAX ms, about
 * 24.8 days); "0" means do not wait. */
int cli_parse_timeout_ms(const char *s, int *ms);
/* @ts += @ns without a loop or an overflow of tv_nsec (32-bit long). */
void cli_timespec_add_ns(struct timespec *ts, uint64_t ns);

/*
 * Options of the report commands (info, rt check): -j/--json, -v/--verbose,
 * -h/--help and no arguments. Returns -1 after printing the help, an exit
 * code on a usage error, 0 otherwise.
 */
int cli_report_opts(int argc, char **argv, const char *cmd, const char *help,
		    bool *json, bool *verbose);

/*
 * SIGINT and SIGTERM set cli_stop (no SA_RESTART: a blocked wait returns
 * -EINTR), for the commands that wait until told to stop.
 */
extern volatile sig_atomic_t cli_stop;
void cli_catch_stop_signals(void);
/*
 * Block SIGINT and SIGTERM, the mask before into @old: a wait that sleeps
 * under @old (ppoll) after a check of cli_stop cannot lose a stop signal
 * that came between them.
 */
void cli_block_stop_signals(sigset_t *old);

/* A --json writer on stdout, or NULL for human output. */
struct udrv_json *cli_json_begin(bool json);
int cli_json_end(struct udrv_json *j);
/*
 * The listing of 'uio info' and 'pci info': @n devices, @names (then freed)
 * or else the command line's @given, each shown by @show, in a JSON array
 * with @json; when there are none (@n <= 0), @absent's reason why (on
 * stderr under --json, so that stdout stays the array). @show's result.
 */
int cli_show_list(bool json, char **names, char **given, int n,
		  void (*absent)(char *buf, size_t len),
		  int (*show)(char **specs, int n, struct udrv_json *j));

/* Options shared by the gpio commands. */
struct gpio_opts {
	const char *chip;
	const char *consumer;
	struct udrv_request_config config;
	struct udrv_line_settings settings;
	bool json;
	bool strict;		/* a line name on two lines is an error */
	int via;		/* enum gpio_via (--via) */
};

/* --layout SPEC (mmio backend): 0, or the usage error's exit code. */
#define OPT_LAYOUT	0x100
int gpio_layout_opt(struct gpio_opts *o, const char *arg, const char *cmd);
/*
 * The library's backends, "cdev, sysfs or mmio": udrv_backend_str() over the
 * enum from 0 to its first "unknown" (the registry, lib/gpio/backends.c, is
 * indexed by the enum and has no empty slot). Cut short to fit @len.
 */
void cli_backend_names(char *buf, size_t len);
/* Recognise a shared gpio option (returns 1), else 0; -1 on a bad value. */
int gpio_opt_parse(struct gpio_opts *o, int opt, const char *arg,
		   const char *cmd);
extern const char gpio_opts_short[];
extern const struct option gpio_long_opts[];
#define GPIO_OPTS_HELP \
"  -c, --chip CHIP       chip: gpiochip0, 0, /dev/gpiochip0 or a label\n" \
"                        (optional when lines are given by name)\n" \
"  -b, --backend B       cdev (default, GPIO uAPI v2), sysfs (legacy) or\n" \
"                        mmio (SoC registers, lines claimed through cdev)\n" \
"  -l, --active-low      treat the lines as active-low\n" \
"  -B, --bias B          as-is, disabled, pull-up, pull-down\n" \
"  -d, --drive D         push-pull, open-drain, open-source\n" \
"  -C, --consumer NAME   consumer label shown to others (default udrv)\n" \
"  -j, --json            machine-readable output\n" \
"  -s, --strict          refuse a line name that names more than one line\n" \
"                        (default: the first, lowest chip and offset, with a\n" \
"                        note naming the others)\n"

/* A VALUE of 'gpio set' LINE=VALUE: 1 or 0, -1 when it is none of these. */
int gpio_parse_value(const char *s);
#define GPIO_VALUES	"0, 1, on, off, active, inactive"

/* The chips a name is looked up on, the places of one name reported. */
#define CLI_CHIPS_MAX	64
#define CLI_PLACES_MAX	16

/*
 * Open the chip and resolve line arguments (offsets or names; with no chip
 * given, names are searched on every chip). Returns an exit code.
 */
int gpio_resolve(const struct gpio_opts *o, int n, char *const *lines,
		 struct udrv_chip **chipp, unsigned int *offsets);

/*
 * 'gpio set --hold daemon' (cmd_gpio_daemon.c): udrvd holds the lines
 * @names (resolved through udrvd, not the chip) with settings @s; an exit
 * code.
 */
int gpio_set_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s);

/* A line of one's request (udrv pwm run): the request, the line's index
 * in it, its chip's name and its offset. */
struct gpio_taken {
	struct udrv_request *req;
	size_t idx;
	char chip[32];
	unsigned int offset;
};
/*
 * 'pwm run --hold daemon' (cmd_gpio_daemon.c): udrvd holds the line @name
 * as an output with settings @s (its value: what the line stays at), and
 * the request of udrvd's that holds it is adopted into @t (releasing it
 * leaves the line with udrvd); an exit code.
 */
int gpio_take_daemon(const struct gpio_opts *o, char *name,
		     const struct udrv_line_settings *s, struct gpio_taken *t);

/*
 * --via (cmd_gpio_daemon.c): where get, mon and info reach the lines. auto
 * (the default): the chip, unless a chip the command needs (-c's, or with
 * none every chip) refuses the user (EACCES, EPERM) and udrvd runs; then
 * udrvd, said on stderr ("udrv: through udrvd: ...").
 */
enum gpio_via { GPIO_VIA_AUTO, GPIO_VIA_CHIP, GPIO_VIA_DAEMON };
#define OPT_VIA		0x101
#define GPIO_VIA_HELP \
"      --via V           auto (default): the chip, or udrvd when the chip\n" \
"                        refuses you and udrvd runs (said on stderr); chip:\n" \
"                        /dev/gpiochipN only; daemon: udrvd only (udrvd(8))\n"
/* --via's argument into @o; 0 or -1 after a usage message. */
int gpio_via_parse(struct gpio_opts *o, const char *arg, const char *cmd);
/* The options that cannot go through udrvd (--backend): 0 or an exit code. */
int gpio_via_check(const struct gpio_opts *o, const char *cmd);
/* After set was refused by the chip: where udrvd runs, say that set --hold
 * daemon goes through its policy. */
void gpio_set_daemon_hint(const struct gpio_opts *o);
/* Does @cmd go through udrvd (see enum gpio_via)? */
bool gpio_through_daemon(const struct gpio_opts *o, const char *cmd);
/* get, info and mon through udrvd; exit codes. info: the lines @names (none:
 * every line) of the chips udrvd exports (-c: of that chip). */
int gpio_get_daemon(const struct gpio_opts *o, int n, char **names);
int gpio_info_daemon(const struct gpio_opts *o, int n, char **names);

/*
 * Edges from where mon reads them: a request of one's own, or udrvd.
 * wait: 1 events pending, 0 none before @timeout_ms, a negative errno
 * (-EINTR: a signal); read: the events, or a negative errno.
 */
struct gpio_events {
	int (*wait)(void *src, int timeout_ms);
	int (*read)(void *src, struct udrv_edge_event *ev, size_t max);
	const char *(*errmsg)(void *src);
	uint64_t (*lost)(void *src);
	void *src;
};
/* mon through udrvd: the lines @names watched with @s (one per line) and
 * @buffer_size, into @ev; an exit code. gpio_mon_daemon_end() releases. */
int gpio_mon_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s, unsigned int buffer_size,
		    struct gpio_events *ev);
void gpio_mon_daemon_end(struct gpio_events *ev);

/* get's output: @values (bit i: line i) of @lines on @chip. */
void gpio_print_values(const char *chip, const struct gpio_opts *o, int n, char **lines,
		       const unsigned int *offsets, uint64_t values);

/* info's output, a chip at a time: its head, then its lines. */
struct gpio_chip_view {
	const char *name, *label, *path;
	unsigned int num_lines;
	bool cdev;
	int sysfs_base;		/* -1: none */
};
void gpio_chip_head(const struct gpio_chip_view *v, struct udrv_json *j);
void gpio_lines_begin(struct udrv_json *j);
void gpio_line_show(const struct udrv_line_info *li, struct udrv_json *j);
void gpio_chip_tail(struct udrv_json *j);
/* The mmio backend's registers of line @offset and their mapping (a
 * "registers:" line, or an "mmio" key; with @line_regs, the line's
 * registers and mask in it too). */
void gpio_show_registers(struct udrv_chip *chip,
			 const struct udrv_gpio_layout *layout,
			 unsigned int offset, bool line_regs,
			 struct udrv_json *j);

#endif /* UDRV_CLI_H */
