// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench's messages (msg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

static void say(const char *fmt, va_list ap)
{
	fputs(BENCH_PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int bench_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	return code;
}

int bench_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '" BENCH_PROG " %s%s--help'.\n", cmd, *cmd ? " " : "");
	return EXIT_USAGE;
}
