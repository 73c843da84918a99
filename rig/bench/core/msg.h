/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench's command line: exit codes and messages ("udrv-bench: ..." on
 * stderr). Numbers and durations come from libudrv's strict parsers
 * (udrv/parse.h) directly.
 */
#ifndef UDRV_BENCH_MSG_H
#define UDRV_BENCH_MSG_H

#define EXIT_OK		0
#define EXIT_FAIL	1	/* the measurement failed */
#define EXIT_USAGE	2	/* bad command line */

#define BENCH_PROG	"udrv-bench"
/* The longest duration any option takes: 7 days. */
#define BENCH_DURATION_MAX_NS	(7ULL * 24 * 3600 * 1000000000ULL)

/* Print "udrv-bench: <msg>" to stderr; returns @code. */
int bench_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A usage error pointing at "udrv-bench <cmd> --help"; returns EXIT_USAGE. */
int bench_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* UDRV_BENCH_MSG_H */
