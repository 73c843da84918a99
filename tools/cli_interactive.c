// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'udrv gpio set --interactive': reading a command line from standard input
 * (whole lines, however the bytes come, a line too long refused) and
 * parsing it (its words, the lines it names, values as set takes them,
 * durations as --hold takes them). No I/O on the lines here: the fuzzers
 * take these as they are (tests/fuzz/fuzz_interactive.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_interactive.h"

#define SPACE	" \t\r\n\v\f"

static const struct {
	const char *name;
	enum gpio_command_kind kind;
} words[] = {
	{ "get", GPIO_CMD_GET }, { "set", GPIO_CMD_SET },
	{ "toggle", GPIO_CMD_TOGGLE }, { "sleep", GPIO_CMD_SLEEP },
	{ "help", GPIO_CMD_HELP }, { "exit", GPIO_CMD_EXIT },
	{ "quit", GPIO_CMD_EXIT },
};

#define NWORDS	(sizeof(words) / sizeof(words[0]))

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next word of *@p, cut there with a NUL; NULL at the end. */
static char *next_word(char **p)
{
	char *w = *p + strspn(*p, SPACE);

	if (!*w) {
		*p = w;
		return NULL;
	}
	*p = w + strcspn(w, SPACE);
	if (**p)
		*(*p)++ = '\0';
	return w;
}

static int unknown_command(const char *word, char *err, size_t len)
{
	for (size_t k = 0; k < NWORDS; k++)
		if (cli_near(word, words[k].name))
			return fail(err, len, "unknown command '%s': did you mean '%s'? ('help' lists the commands)",
				    word, words[k].name);
	return fail(err, len, "unknown command '%s': try 'help'", word);
}

/* "GPIO99 is not one of the requested lines (GPIO17 GPIO27)" */
static int not_requested(const char *word, int n, char *const *names,
			 char *err, size_t len)
{
	size_t used;

	fail(err, len, "%s is not one of the requested lines (", word);
	for (int i = 0; i < n; i++) {
		used = strlen(err);
		snprintf(err + used, len - used, "%s%s", i ? " " : "", names[i]);
	}
	used = strlen(err);
	snprintf(err + used, len - used, ")");
	return -1;
}

/* Line @word into @c once: its index, or -1 with @err. */
static int add_line(struct gpio_command *c, const char *word, int n,
		    char *const *names, char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i], word))
			continue;
		for (int k = 0; k < c->n; k++)
			if (c->idx[k] == i)
				return fail(err, len, "%s is given twice", word);
		c->idx[c->n++] = i;
		return i;
	}
	return not_requested(word, n, names, err, len);
}

/* set's LINE=VALUE, with VALUE as 'gpio set' reads it. */
static int add_value(struct gpio_command *c, char *word, int n,
		     char *const *names, char *err, size_t len)
{
	char *eq = strchr(word, '=');
	int v = eq && eq != word ? gpio_parse_value(eq + 1) : -1;
	int i;

	if (v < 0)
		return fail(err, len, "'%s' is not LINE=VALUE (VALUE: " GPIO_VALUES ")",
			    word);
	*eq = '\0';
	i = add_line(c, word, n, names, err, len);
	if (i < 0)
		return -1;
	c->values |= (uint64_t)v << i;
	return 0;
}

static int parse_sleep(struct gpio_command *c, const char *arg, char *rest,
		       char *err, size_t len)
{
	if (!arg || next_word(&rest))
		return fail(err, len, "sleep takes one DURATION (500ms, 1s)");
	if (cli_parse_duration_ns(arg, &c->ns))
		return fail(err, len, "bad duration '%s': e.g. 500ms, 1s (at most 7 days)",
			    arg);
	return 0;
}

/* The arguments of get, set and toggle: lines, or LINE=VALUE for set. */
static int parse_lines(struct gpio_command *c, char *p, int n,
		       char *const *names, char *err, size_t len)
{
	char *w;

	while ((w = next_word(&p))) {
		if (c->kind == GPIO_CMD_SET ?
		    add_value(c, w, n, names, err, len) < 0 :
		    add_line(c, w, n, names, err, len) < 0)
			return -1;
	}
	if (c->kind == GPIO_CMD_SET && !c->n)
		return fail(err, len, "set takes LINE=VALUE...");
	for (int i = 0; !c->n && i < n; i++)	/* get, toggle: every line */
		c->idx[i] = i;
	if (!c->n)
		c->n = n;
	return 0;
}

int gpio_command_parse(char *line, int n, char *const *names,
		       struct gpio_command *c, char *err, size_t errlen)
{
	char *p = line, *word = next_word(&p), *arg;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	if (!word)
		return 0;	/* GPIO_CMD_NONE */
	for (size_t k = 0; k < NWORDS && !c->kind; k++)
		if (!strcmp(word, words[k].name))
			c->kind = words[k].kind;
	switch (c->kind) {
	case GPIO_CMD_NONE:
		return unknown_command(word, err, errlen);
	case GPIO_CMD_SLEEP:
		arg = next_word(&p);
		return parse_sleep(c, arg, p, err, errlen);
	case GPIO_CMD_HELP:
	case GPIO_CMD_EXIT:
		if (next_word(&p))
			return fail(err, errlen, "%s takes no arguments", word);
		return 0;
	default:
		return parse_lines(c, p, n, names, err, errlen);
	}
}

void gpio_reader_init(struct gpio_reader *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
}

static void drop(struct gpio_reader *r, size_t k)
{
	r->start += k;
	r->len -= k;
	if (!r->len)
		r->start = 0;
}

/* The first @k bytes the reader holds as a line, @used of them gone. */
static enum gpio_read take(struct gpio_reader *r, char *line, size_t *len,
			   size_t k, size_t used)
{
	memcpy(line, r->buf + r->start, k);
	line[k] = '\0';
	*len = k;
	drop(r, used);
	return GPIO_READ_LINE;
}

/* Wait for bytes and read them: true to go on, else false and @res. */
static bool fill(struct gpio_reader *r, const sigset_t *unblocked,
		 enum gpio_read *res)
{
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	ssize_t got;

	if (cli_stop) {
		*res = GPIO_READ_STOP;
		return false;
	}
	if (ppoll(&pfd, 1, NULL, unblocked) < 0) {
		if (errno == EINTR)
			return true;	/* cli_stop, seen above */
		r->err = errno;
		*res = GPIO_READ_ERROR;
		return false;
	}
	memmove(r->buf, r->buf + r->start, r->len);	/* room after it */
	r->start = 0;
	got = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
	if (got > 0) {
		r->len += (size_t)got;
	} else if (!got) {
		r->eof = true;
	} else if (errno != EINTR && errno != EAGAIN) {
		r->err = errno;
		*res = GPIO_READ_ERROR;
		return false;
	}
	return true;
}

enum gpio_read gpio_read_line(struct gpio_reader *r, char *line, size_t *len,
			      const sigset_t *unblocked)
{
	enum gpio_read res;
	char *nl;
	size_t k;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->len);
		k = nl ? (size_t)(nl - (r->buf + r->start)) : 0;
		if (nl && r->skip) {	/* the end of a line too long */
			drop(r, k + 1);
			r->skip = false;
			continue;
		}
		if (nl)
			return take(r, line, len, k, k + 1);
		if (r->skip) {
			drop(r, r->len);
		} else if (r->len == sizeof(r->buf)) {
			drop(r, r->len);
			r->skip = true;
			return GPIO_READ_LONG;
		} else if (r->eof && r->len) {	/* the last, without newline */
			return take(r, line, len, r->len, r->len);
		}
		if (r->eof)
			return GPIO_READ_EOF;
		if (!fill(r, unblocked, &res))
			return res;
	}
}
