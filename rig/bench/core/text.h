/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a tool's text a line at a time, for the strict readers of the
 * reference rows' output (rtla_hist.c, cyclictest_out.c): every line ends
 * in a newline and holds no NUL byte, and an error names its line.
 */
#ifndef UDRV_BENCH_TEXT_H
#define UDRV_BENCH_TEXT_H

#include <stddef.h>

struct bench_text {
	unsigned int line;	/* the line being read, from 1; 0 after the end */
	char *why;		/* the message of the first error */
	size_t whylen;
};

/* @t->why <- "line N: <fmt>" ("<fmt>" with line 0); returns -EINVAL. */
__attribute__((format(printf, 2, 3)))
int bench_text_fail(struct bench_text *t, const char *fmt, ...);

/*
 * Give each line of @text (@len bytes, without its '\n') to @fn, with
 * @t->line its number; then @t->line is 0. Returns 0, @fn's error, or
 * -EINVAL with "cut short (no newline)" or "a NUL byte".
 */
int bench_text_lines(struct bench_text *t, const char *text, size_t len,
		     int (*fn)(void *ctx, const char *s, size_t len), void *ctx);

#endif /* UDRV_BENCH_TEXT_H */
