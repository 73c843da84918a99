// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'udrv gpio set --interactive' (libgpiod 2's gpioset -i): once the values
 * are set, the commands of standard input on the lines set holds, until
 * exit, quit, the end of the input, SIGINT or SIGTERM. A command that fails
 * (a typo, a line not requested, the kernel refusing) is said on stderr and
 * the session goes on, as gpioset's does; udrv exits 0 at its end. Reading
 * and parsing the commands: cli_interactive.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_interactive.h"

#define PROMPT	"udrv gpio> "

static const char commands_help[] =
"Commands (LINE: a line as given on the command line, name or offset):\n"
"  get [LINE...]       print the lines' values (all lines without LINE)\n"
"  set LINE=VALUE...   drive the lines (VALUE: " GPIO_VALUES ")\n"
"  toggle [LINE...]    invert the lines' values (all lines without LINE)\n"
"  sleep DURATION      wait (500ms, 1s; at most 7 days)\n"
"  help                this list\n"
"  exit                release the lines and exit (also quit, end of input)\n";

/* "udrv gpio set: interactive: 'set GPIO99=1': ..." on stderr (@text
 * NULL: no command to quote) */
static void complain(const char *text, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void complain(const char *text, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "udrv %s: interactive: ", cli_command);
	if (text)
		fprintf(stderr, "'%s': ", text);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t mask_of(const struct gpio_command *c)
{
	uint64_t mask = 0;

	for (int k = 0; k < c->n; k++)
		mask |= 1ULL << c->idx[k];
	return mask;
}

/* get: the lines' values in the order named, as 'gpio get' prints them. */
static void get(struct gpio_session *s, const struct gpio_command *c,
		const char *text)
{
	char *names[UDRV_LINES_MAX];
	unsigned int offsets[UDRV_LINES_MAX];
	uint64_t values, shown = 0;

	if (udrv_request_get_values(s->req, mask_of(c), &values)) {
		complain(text, "%s", udrv_request_errmsg(s->req));
		return;
	}
	for (int k = 0; k < c->n; k++) {
		names[k] = s->names[c->idx[k]];
		offsets[k] = s->offsets[c->idx[k]];
		shown |= ((values >> c->idx[k]) & 1) << k;
	}
	gpio_print_values(s->chip, s->o, c->n, names, offsets, shown);
}

/* set and toggle: @values on the lines of @c, kept as the lines' values. */
static void drive(struct gpio_session *s, const struct gpio_command *c,
		  uint64_t values, const char *text)
{
	uint64_t mask = mask_of(c);

	if (udrv_request_set_values(s->req, mask, values)) {
		complain(text, "%s", udrv_request_errmsg(s->req));
		return;
	}
	s->values = (s->values & ~mask) | (values & mask);
}

/* One command line: true when it ends the session. */
static bool run(struct gpio_session *s, const char *text,
		const sigset_t *unblocked)
{
	char line[GPIO_COMMAND_MAX + 1], err[2048];
	struct gpio_command c;

	snprintf(line, sizeof(line), "%s", text);
	if (gpio_command_parse(line, s->n, s->names, &c, err, sizeof(err))) {
		complain(text, "%s", err);
		return false;
	}
	switch (c.kind) {
	case GPIO_CMD_GET:
		get(s, &c, text);
		break;
	case GPIO_CMD_SET:
		drive(s, &c, c.values, text);
		break;
	case GPIO_CMD_TOGGLE:
		drive(s, &c, ~s->values, text);
		break;
	case GPIO_CMD_SLEEP:
		cli_sleep_ns(c.ns, unblocked);
		break;
	case GPIO_CMD_HELP:
		fputs(commands_help, stdout);
		break;
	case GPIO_CMD_EXIT:
		return true;
	case GPIO_CMD_NONE:
		break;
	}
	return false;
}

int gpio_interactive_check(const char *hold_for, bool background)
{
	if (background)
		return cli_usage("gpio set", "--interactive reads commands from the terminal (standard input), which --daemonize leaves for /dev/null");
	if (hold_for && !strcmp(hold_for, "daemon"))
		return cli_usage("gpio set", "--interactive drives the lines from udrv itself; with --hold daemon udrvd holds them and udrv exits");
	if (hold_for)
		return cli_usage("gpio set", "--interactive holds the lines until 'exit' or the end of the input: leave out --hold");
	return EXIT_OK;
}

int gpio_interactive(struct gpio_session *s, int fd, const sigset_t *unblocked)
{
	static struct gpio_reader r;
	char line[GPIO_COMMAND_MAX + 1];
	bool tty = isatty(fd), done = false;
	enum gpio_read got = GPIO_READ_LINE;
	size_t len;

	gpio_reader_init(&r, fd);
	while (!done && !cli_stop) {
		if (tty)
			fputs(PROMPT, stdout);
		fflush(stdout);
		got = gpio_read_line(&r, line, &len, unblocked);
		if (got == GPIO_READ_LINE && strlen(line) != len)
			complain(NULL, "a command with a NUL byte: ignored");
		else if (got == GPIO_READ_LINE)
			done = run(s, line, unblocked);
		else if (got == GPIO_READ_LONG)
			complain(NULL, "a command longer than %d bytes: ignored",
				 GPIO_COMMAND_MAX);
		else
			done = true;
	}
	if (tty && !(got == GPIO_READ_LINE && done))
		fputc('\n', stdout);	/* the shell's prompt on a line of its own */
	fflush(stdout);
	if (got != GPIO_READ_ERROR)
		return EXIT_OK;
	complain(NULL, "reading the commands: %s", strerror(r.err));
	return EXIT_FAIL;
}
