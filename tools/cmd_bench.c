// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv bench, udrv load: the benches moved to a program of their own,
 * udrv-bench (rig/bench/). For a while these commands forward to it, so that
 * existing command lines keep working: 'udrv bench NAME ARGS' runs
 * 'udrv-bench NAME ARGS', 'udrv load ARGS' runs 'udrv-bench load ARGS'.
 * udrv-bench is looked for next to udrv's own executable (installed side by
 * side), then in the build tree (tools/../rig/bench/), then on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

#define BENCH_EXE	"udrv-bench"

/* Run udrv-bench at @dir/@rel with @argv if it is there; returns if not. */
static void try_exec(const char *dir, const char *rel, char **argv)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, rel);

	if (n > 0 && (size_t)n < sizeof(path) && !access(path, X_OK))
		execv(path, argv);
}

static int forward(char *cmd, int argc, char **argv)
{
	char exe[PATH_MAX], *slash, **args;
	ssize_t n;

	/* udrv-bench, @cmd, @argv, NULL */
	args = calloc((size_t)argc + 3, sizeof(*args));
	if (!args)
		return cli_error(EXIT_FAIL, "out of memory");
	args[0] = BENCH_EXE;
	if (cmd)
		args[1] = cmd;
	memcpy(args + (cmd ? 2 : 1), argv, (size_t)argc * sizeof(*args));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			try_exec(exe, BENCH_EXE, args);
			try_exec(exe, "../rig/bench/" BENCH_EXE, args);
		}
	}
	execvp(BENCH_EXE, args);
	free(args);
	return cli_error(EXIT_FAIL,
			 "the benches moved to " BENCH_EXE ", which was not found next to udrv, in its build tree (rig/bench/) or on PATH: %s; install it (Debian package: apt install udrv-bench; from the source tree: make install, which installs rig/bench/" BENCH_EXE " with udrv) or put it on PATH, then run '" BENCH_EXE " %s...'",
			 strerror(errno), cmd ? "load " : "");
}

/* udrv bench NAME ARGS: udrv-bench NAME ARGS */
int cmd_forward_bench(int argc, char **argv)
{
	return forward(NULL, argc - 1, argv + 1);
}

/* udrv load ARGS: udrv-bench load ARGS */
int cmd_forward_load(int argc, char **argv)
{
	return forward("load", argc - 1, argv + 1);
}
