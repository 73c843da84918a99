/* SPDX-License-Identifier: GPL-2.0-only */
/* What the udrv i2c commands share (cmd_i2c.c, cmd_i2c_dump.c,
 * cmd_i2c_transfer.c) and the parser of udrv i2c transfer's messages
 * (i2c_msgs.c, fuzzed: tests/fuzz/fuzz_i2c_msgs.c). */
#ifndef UDRV_CMD_I2C_H
#define UDRV_CMD_I2C_H

#include <stdbool.h>
#include <stddef.h>
#include <udrv/i2c.h>

struct i2c_opts {
	bool json, force, word, quick, block;
};

/* The options of @cmd (@allowed: its short ones): 0, an exit code, or -1
 * after printing @help. */
int parse_i2c(int argc, char **argv, struct i2c_opts *o, const char *allowed,
	      const char *cmd, const char *help);
/* A number of the command line in [@min, @max]: 0 or EXIT_USAGE. */
int i2c_number(const char *cmd, const char *what, const char *s, long min, long max,
	       long *v);
/* The bus @spec, opened: 0 or an exit code (2 when @spec is no bus). */
int i2c_open_bus(const char *spec, struct udrv_i2c **out);
/* The device at @addr (already checked) of the bus @spec: 0 or an exit code. */
int i2c_open_device(const char *spec, long addr, bool force, struct udrv_i2c **out);

int i2c_dump(int argc, char **argv);
int i2c_transfer(int argc, char **argv);

/*
 * udrv i2c transfer's messages: DESC [BYTE...] ..., DESC being
 * {r|w}LENGTH[@ADDRESS] (i2ctransfer's), a write followed by its LENGTH
 * bytes; the first DESC names the address, a later one without keeps it.
 * LENGTH 0..UDRV_I2C_MSG_LEN_MAX, at most UDRV_I2C_MSGS_MAX messages,
 * addresses 0x03..0x77 (0x00..0x7f when @force).
 */
struct i2c_msgs {
	size_t n;
	struct udrv_i2c_msg msg[UDRV_I2C_MSGS_MAX];
};

/* 0, or -EINVAL/-ERANGE with the reason in @why (nothing left allocated). */
int i2c_msgs_parse(int argc, char *const *argv, bool force, struct i2c_msgs *m,
		   char *why, size_t len);
void i2c_msgs_free(struct i2c_msgs *m);

#endif /* UDRV_CMD_I2C_H */
