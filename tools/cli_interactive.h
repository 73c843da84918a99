/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 'udrv gpio set --interactive' (libgpiod 2's gpioset -i): after the values
 * are set, commands on the lines set holds, one a line from standard input.
 * Reading and parsing a command: cli_interactive.c (the fuzzers' too);
 * running them: cmd_gpio_interactive.c.
 */
#ifndef UDRV_CLI_INTERACTIVE_H
#define UDRV_CLI_INTERACTIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* The longest command, in bytes without its newline; longer ones are refused. */
#define GPIO_COMMAND_MAX	4096

enum gpio_command_kind {
	GPIO_CMD_NONE,		/* an empty line */
	GPIO_CMD_GET,
	GPIO_CMD_SET,
	GPIO_CMD_TOGGLE,
	GPIO_CMD_SLEEP,
	GPIO_CMD_HELP,
	GPIO_CMD_EXIT,		/* exit, quit */
};

/* One command, its lines as indexes of the session's lines. */
struct gpio_command {
	enum gpio_command_kind kind;
	int n;				/* get, set, toggle: lines, as named */
	int idx[UDRV_LINES_MAX];	/* get, toggle without LINE: every line */
	uint64_t values;		/* set: bit idx[k], line idx[k]'s value */
	uint64_t ns;			/* sleep */
};

/*
 * Parse @line (its words cut in place) against the session's @n lines as
 * given on the command line (@names): 0, or -1 with the reason in @err
 * ("GPIO99 is not one of the requested lines (GPIO17 GPIO27)").
 */
int gpio_command_parse(char *line, int n, char *const *names,
		       struct gpio_command *c, char *err, size_t errlen);

/* The lines of @fd, one at a time, with no more read than is there. */
struct gpio_reader {
	int fd;
	int err;		/* GPIO_READ_ERROR: the errno */
	size_t start, len;	/* the bytes read and not taken: buf[start..] */
	bool skip;		/* dropping a line too long, up to its newline */
	bool eof;
	char buf[GPIO_COMMAND_MAX + 1];	/* a command and its newline */
};

enum gpio_read {
	GPIO_READ_LINE,		/* a line in @line, without its newline */
	GPIO_READ_LONG,		/* a line longer than GPIO_COMMAND_MAX: dropped */
	GPIO_READ_EOF,
	GPIO_READ_STOP,		/* cli_stop: SIGINT or SIGTERM */
	GPIO_READ_ERROR,	/* r->err */
};

void gpio_reader_init(struct gpio_reader *r, int fd);
/*
 * The next line of @r into @line (GPIO_COMMAND_MAX + 1 bytes, NUL-terminated;
 * its length in @len: a NUL byte read stays in it). Waits in ppoll() with
 * SIGINT and SIGTERM let in (@unblocked; NULL: the mask as it is).
 */
enum gpio_read gpio_read_line(struct gpio_reader *r, char *line, size_t *len,
			      const sigset_t *unblocked);

/* The lines 'gpio set' requested: @req, its @n lines as given (@names),
 * driven to @values (bit i: line i, as last set). */
struct gpio_session {
	struct udrv_request *req;
	const struct gpio_opts *o;
	const char *chip;
	int n;
	char **names;
	const unsigned int *offsets;
	uint64_t values;
};

/*
 * --interactive with set's other options (@hold_for: --hold's argument or
 * NULL, @background: --daemonize): EXIT_OK, or the usage error's code.
 * The session holds the lines itself, in the foreground, until it ends.
 */
int gpio_interactive_check(const char *hold_for, bool background);

/*
 * Run the commands of @fd until exit, quit, the end of the input, or
 * SIGINT or SIGTERM (cli_stop; blocked, let in under @unblocked while udrv
 * waits). A command that fails is said on stderr and the session goes on.
 * EXIT_OK, or EXIT_FAIL when @fd could not be read.
 */
int gpio_interactive(struct gpio_session *s, int fd, const sigset_t *unblocked);

#endif /* UDRV_CLI_INTERACTIVE_H */
