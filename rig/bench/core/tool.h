/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Third-party tools that measure a reference row in the same run as udrv
 * (cyclictest, rtla): find one on PATH, run it to the end with its output in
 * a private temporary directory, and stop it cleanly when the bench is
 * interrupted (SIGINT/SIGTERM: the tool gets its own stop signal, so it puts
 * back what it changed, and is killed only if it does not stop).
 */
#ifndef UDRV_BENCH_TOOL_H
#define UDRV_BENCH_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BENCH_TOOL_DIR_LEN	72	/* short: the paths go into arguments */
#define BENCH_TOOL_STOP_S	10	/* after its stop signal, then SIGKILL */

struct bench_tool {
	const char *name;		/* for messages: "cyclictest" */
	int stop_signal;		/* what stops it cleanly: SIGINT */
	bool keep_sched;		/* runs as the bench does (the peer):
					 * its policy, priority and CPUs */
	int fifo_prio;			/* else 0: SCHED_OTHER; N: SCHED_FIFO N */
	char dir[BENCH_TOOL_DIR_LEN];	/* DIR/out, DIR/err and its files */
};

/* @name's path on PATH into @path; 0, or -ENOENT when it is not there. */
int bench_which(const char *name, char *path, size_t len);

/* Read a whole file (a tool's output, a sysfs file); NUL-terminated (the
 * length without it in *@lenp), free() it. NULL with errno set. */
char *bench_slurp(const char *path, size_t *lenp);
/* The same of an open @fd (a pipe: until its writers closed it), left open. */
char *bench_slurp_fd(int fd, size_t *lenp);

/* Make the tool's temporary directory ($TMPDIR or /tmp); 0, or -1 with
 * @why set. */
int bench_tool_mkdir(struct bench_tool *tool, char *why, size_t len);
/* @path <- DIR/@file. */
void bench_tool_file(const struct bench_tool *tool, const char *file,
		     char *path, size_t len);
/*
 * Run @argv (argv[0] a path) at SCHED_OTHER, like a start from a shell (or
 * as the bench runs with keep_sched, or at SCHED_FIFO tool->fifo_prio when
 * that is not 0: where that fails, at SCHED_OTHER with a line on its
 * stderr), stdout into DIR/out and stderr into DIR/err, and wait for it.
 * Returns 0
 * when it exited with 0. Otherwise -1 and @why says what happened: "it
 * failed (exit 1): <first line of its stderr>", or "interrupted" when the
 * bench was and the tool did not end well (it gets its stop signal once
 * /proc/PID/status shows it catches it, and SIGKILL if it has not ended
 * BENCH_TOOL_STOP_S seconds after the interruption). A tool that ends well
 * after its stop signal returns 0: its output has the samples so far.
 */
int bench_tool_run(struct bench_tool *tool, char **argv, char *why, size_t len);
/*
 * bench_tool_run() in two steps: start @argv and return its pid (-1 with
 * @why). With @to and @from, its stdin and stdout are pipes: the bench
 * writes to *@to and reads *@from (close both when done); without, its
 * stdout goes into DIR/out. stderr always goes into DIR/err.
 */
pid_t bench_tool_start(struct bench_tool *tool, char **argv, int *to,
		       int *from, char *why, size_t len);
/* Wait for it to end, stopping it when the bench is interrupted; 0 when it
 * exited with 0, else -1 with @why (as bench_tool_run()). */
int bench_tool_wait(struct bench_tool *tool, pid_t pid, char *why, size_t len);
/* Remove the directory and everything in it. */
void bench_tool_rmdir(struct bench_tool *tool);

#endif /* UDRV_BENCH_TOOL_H */
