// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'udrv gpio set --interactive': its reader of standard input and its
 * parser of commands (tools/cli_interactive.c), linked in.
 *
 * Input parts (fuzz.h): 0 the commands, bytes as standard input gives
 * them; 1.. the lines as the command line gave them (none: GPIO17, 4 and
 * GPIO27). The commands go through a pipe to the reader as they are (and
 * are parsed), then written again and again up to three times the reader's
 * buffer (read only), so that its reads end anywhere in a line and lines
 * too long come from inputs of libFuzzer's -max_len.
 *
 * Properties:
 *  - the reader gives the pipe's lines in order, each exactly (without its
 *    newline, NUL bytes and all; the last one without a newline too), and
 *    each line longer than GPIO_COMMAND_MAX as one refusal, none of it
 *    given; then the end of the input;
 *  - the parser accepts a line exactly when a model of the documented
 *    grammar does (words separated by spaces and tabs: get [LINE...],
 *    set LINE=VALUE..., toggle [LINE...], sleep DURATION, help, exit, quit;
 *    LINE one of the lines, each once; VALUE as 'gpio set' takes it; the
 *    DURATION of udrv_parse_duration_ns() up to 7 days), with the model's
 *    lines, values and duration; a refusal says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_interactive.h"
#include "fuzz.h"

#define SCRIPT_MIN	(3 * (GPIO_COMMAND_MAX + 1))
#define WORDS_MAX	(GPIO_COMMAND_MAX / 2 + 1)

static const char *const lines_default[] = { "GPIO17", "4", "GPIO27" };

/* The words of @s (cut in place), as the documentation says: spaces and tabs. */
static int model_words(char *s, char **w)
{
	int n = 0;

	for (char *p = s; *p;) {
		while (*p && strchr(" \t\r\n\v\f", *p))
			*p++ = '\0';
		if (!*p)
			break;
		w[n++] = p;
		while (*p && !strchr(" \t\r\n\v\f", *p))
			p++;
	}
	return n;
}

/* Line @name into @m once (the first line of that spelling): false if not. */
static bool model_line(struct gpio_command *m, const char *name, int n,
		       char *const *lines)
{
	int i;

	for (i = 0; i < n && strcmp(lines[i], name); i++)
		;
	if (i == n)
		return false;
	for (int k = 0; k < m->n; k++)
		if (m->idx[k] == i)
			return false;
	m->idx[m->n++] = i;
	return true;
}

/* What the parser should make of words @w (@nw of them): true and @m, or false. */
static bool model(char **w, int nw, int n, char *const *lines,
		  struct gpio_command *m)
{
	const char *cmd = w[0];
	char *eq;
	int v;

	if (!strcmp(cmd, "help") || !strcmp(cmd, "exit") || !strcmp(cmd, "quit")) {
		m->kind = cmd[0] == 'h' ? GPIO_CMD_HELP : GPIO_CMD_EXIT;
		return nw == 1;
	}
	if (!strcmp(cmd, "sleep")) {
		m->kind = GPIO_CMD_SLEEP;
		return nw == 2 &&
		       !udrv_parse_duration_ns(w[1], CLI_DURATION_MAX_NS, &m->ns);
	}
	if (!strcmp(cmd, "get") || !strcmp(cmd, "toggle")) {
		m->kind = cmd[0] == 'g' ? GPIO_CMD_GET : GPIO_CMD_TOGGLE;
		for (int k = 1; k < nw; k++)
			if (!model_line(m, w[k], n, lines))
				return false;
		for (int i = 0; nw == 1 && i < n; i++)
			m->idx[m->n++] = i;
		return true;
	}
	if (strcmp(cmd, "set"))
		return false;
	m->kind = GPIO_CMD_SET;
	for (int k = 1; k < nw; k++) {
		eq = strchr(w[k], '=');
		v = eq && eq != w[k] ? fuzz_model_value(eq + 1) : -1;
		if (v < 0)
			return false;
		*eq = '\0';
		if (!model_line(m, w[k], n, lines))
			return false;
		m->values |= (uint64_t)v << m->idx[m->n - 1];
	}
	return nw > 1;
}

static void check_parse(const char *text, int n, char *const *lines)
{
	static char line[GPIO_COMMAND_MAX + 1], copy[GPIO_COMMAND_MAX + 1];
	static char *w[WORDS_MAX];
	struct gpio_command c, m = { 0 };
	char err[2048];
	bool ok;
	int ret, nw;

	snprintf(line, sizeof(line), "%s", text);
	snprintf(copy, sizeof(copy), "%s", text);
	ret = gpio_command_parse(line, n, lines, &c, err, sizeof(err));
	nw = model_words(copy, w);
	ok = !nw || model(w, nw, n, lines, &m);
	FUZZ_CHECK(ret == (ok ? 0 : -1), "\"%s\": parsed %d, the grammar says %s (%s)",
		   text, ret, ok ? "yes" : "no", ret ? err : "");
	if (ret) {
		FUZZ_CHECK(err[0], "\"%s\" refused without a reason", text);
		return;
	}
	FUZZ_CHECK(c.kind == m.kind && c.n == m.n && c.values == m.values && c.ns == m.ns,
		   "\"%s\": kind %d, %d lines, values %#llx, %llu ns; the grammar says kind %d, %d lines, values %#llx, %llu ns",
		   text, (int)c.kind, c.n, (unsigned long long)c.values,
		   (unsigned long long)c.ns, (int)m.kind, m.n, (unsigned long long)m.values, (unsigned long long)m.ns);
	for (int k = 0; k < c.n; k++)
		FUZZ_CHECK(c.idx[k] == m.idx[k], "\"%s\": line %d is %d, the grammar says %d",
			   text, k, c.idx[k], m.idx[k]);
}

/* The next line of @script from @pos as the reader should give it. */
static enum gpio_read model_line_of(const char *script, size_t len, size_t *pos,
				    size_t *start, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return GPIO_READ_EOF;
	nl = memchr(script + *pos, '\n', len - *pos);
	*start = *pos;
	*n = nl ? (size_t)(nl - script) - *pos : len - *pos;
	*pos = nl ? (size_t)(nl - script) + 1 : len;
	return *n > GPIO_COMMAND_MAX ? GPIO_READ_LONG : GPIO_READ_LINE;
}

/* Read @script back through a pipe, each line checked, and parsed with @parse. */
static void check_reader(const char *script, size_t len, bool parse, int n,
			 char *const *lines)
{
	static struct gpio_reader r;
	static char line[GPIO_COMMAND_MAX + 1];
	size_t pos = 0, start = 0, want = 0, got;
	enum gpio_read res, exp;
	int p[2];

	if (pipe2(p, O_CLOEXEC) || write(p[1], script, len) != (ssize_t)len)
		abort();	/* the script fits in a pipe's 64 KiB */
	close(p[1]);
	gpio_reader_init(&r, p[0]);
	do {
		res = gpio_read_line(&r, line, &got, NULL);
		exp = model_line_of(script, len, &pos, &start, &want);
		if (!fuzz_skip("interactive-reader"))
			FUZZ_CHECK(res == exp, "line at byte %zu: the reader says %d, the input %d",
				   start, (int)res, (int)exp);
		if (res != GPIO_READ_LINE)
			continue;
		if (!fuzz_skip("interactive-reader"))
			FUZZ_CHECK(got == want && !memcmp(line, script + start, got) && !line[got],
				   "line at byte %zu: %zu bytes read, %zu there", start, got, want);
		if (parse && strlen(line) == got && !fuzz_skip("interactive-parse"))
			check_parse(line, n, lines);
	} while (res == GPIO_READ_LINE || res == GPIO_READ_LONG);
	close(p[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *parts_str[FUZZ_MAX_PARTS], *lines[FUZZ_MAX_PARTS], *script;
	struct fuzz_parts parts;
	size_t len = 0;
	int n = 0;

	fuzz_split(data, size, &parts);
	for (size_t i = 1; i < parts.n; i++)
		lines[n++] = parts_str[i] = fuzz_str(&parts, i);
	for (; parts.n == 1 && n < 3; n++)
		lines[n] = (char *)lines_default[n];
	/* the input as it is (a last line up to its end), then again and again */
	check_reader((const char *)parts.p[0], parts.len[0], true, n, lines);
	script = malloc(SCRIPT_MIN + parts.len[0] + 1);
	if (!script)
		abort();
	do {
		memcpy(script + len, parts.p[0], parts.len[0]);
		len += parts.len[0];
	} while (parts.len[0] && len < SCRIPT_MIN);
	check_reader(script, len, false, n, lines);
	free(script);
	for (size_t i = 1; i < parts.n; i++)
		free(parts_str[i]);
	return 0;
}
