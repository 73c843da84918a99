// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench i2c's command rows: one register read as a process, what a
 * shell script does, i2c-tools' `i2cget -y BUS ADDRESS REGISTER` against
 * `udrv i2c get BUS ADDRESS REGISTER`, in turns (core/pair.h); a sample is
 * one process from spawn to exit, and each process's output ("0x5a") is
 * checked against the register.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i2c/i2c.h"
#include "msg.h"
#include "pair.h"
#include "tool.h"

extern char **environ;

struct i2c_cmds {
	char i2cget[PATH_MAX], udrv[PATH_MAX];
	char bus[16], addr[8], reg[8];
	char want[8];			/* the output: "0x5a\n" */
};

/* @argv as a process, its output into @out: 0, or an errno / -1 (exit status). */
static int spawn_out(char *const *argv, char *out, size_t len)
{
	posix_spawn_file_actions_t fa;
	int pfd[2], status, err;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (!err && (n = read(pfd[0], out + got, len - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(pfd[0]);
	if (err)
		return err;
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int run(const struct i2c_cmds *c, char *const *argv, const char *impl, uint64_t n)
{
	char out[64];

	for (uint64_t i = 0; i < n; i++) {
		int err = spawn_out(argv, out, sizeof(out));

		if (err || strcmp(out, c->want))
			return bench_error(EXIT_FAIL, "i2c %s: %s %s %s %s: %s%s%s", impl, argv[0],
					   c->bus, c->addr, c->reg, err > 0 ? strerror(err) :
					   err ? "it failed" : "printed ", err ? "" : out,
					   err ? "" : " (a wrong value)");
	}
	return 0;
}

static int i2cget_batch(void *ctx, uint64_t n)
{
	struct i2c_cmds *c = ctx;
	char *argv[] = { c->i2cget, "-y", c->bus, c->addr, c->reg, NULL };

	return run(c, argv, "i2cget", n);
}

static int udrv_batch(void *ctx, uint64_t n)
{
	struct i2c_cmds *c = ctx;
	char *argv[] = { c->udrv, "i2c", "get", c->bus, c->addr, c->reg, NULL };

	return run(c, argv, "udrv", n);
}

int i2c_bench_commands(struct bench_run *run, unsigned int bus, unsigned int addr,
		       uint8_t value, uint64_t samples)
{
	struct i2c_cmds *c = calloc(1, sizeof(*c));
	struct bench_pair p = {
		.mechanism = "command", .what = "process", .n = 2,
		.impl = { { "i2cget", i2cget_batch }, { "udrv", udrv_batch } },
		.batch = 1, .samples = samples,
	};
	int err;

	if (!c)
		return bench_error(EXIT_FAIL, "out of memory");
	if (bench_which("i2cget", c->i2cget, sizeof(c->i2cget)) ||
	    bench_which("udrv", c->udrv, sizeof(c->udrv))) {
		fprintf(stderr, "udrv-bench i2c: no command rows: %s not on PATH (%s)\n",
			c->i2cget[0] ? "udrv" : "i2cget",
			c->i2cget[0] ? "the udrv package" : "apt install i2c-tools");
		free(c);
		return 0;
	}
	snprintf(c->bus, sizeof(c->bus), "%u", bus);
	snprintf(c->addr, sizeof(c->addr), "0x%02x", addr);
	snprintf(c->reg, sizeof(c->reg), "0x%02x", I2C_CMD_REG);
	snprintf(c->want, sizeof(c->want), "0x%02x\n", value);
	err = bench_pair_run(run, &p, c);
	free(c);
	return err;
}
