// SPDX-License-Identifier: GPL-2.0-only
/* A tool's text a line at a time, errors by line (text.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

int bench_text_fail(struct bench_text *t, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->line)
		snprintf(t->why, t->whylen, "line %u: %s", t->line, msg);
	else
		snprintf(t->why, t->whylen, "%s", msg);
	return -EINVAL;
}

int bench_text_lines(struct bench_text *t, const char *text, size_t len,
		     int (*fn)(void *ctx, const char *s, size_t len), void *ctx)
{
	const char *s = text, *end = text + len, *nl;
	int ret;

	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		t->line++;
		if (!nl)
			return bench_text_fail(t, "cut short (no newline)");
		if (memchr(s, '\0', (size_t)(nl - s)))
			return bench_text_fail(t, "a NUL byte");
		ret = fn(ctx, s, (size_t)(nl - s));
		if (ret)
			return ret;
		s = nl + 1;
	}
	t->line = 0;
	return 0;
}
