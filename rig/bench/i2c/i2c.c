// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench i2c: the time of one I2C transaction through libudrv against
 * the raw i2c-dev ioctl that i2c-tools' libi2c makes (I2C_SMBUS, I2C_RDWR),
 * on the same device in the same run, in turns (core/pair.h).
 *
 * Transactions, each where the adapter has it: SMBus read byte data, read
 * word data, I2C block read of 32 bytes, and a plain I2C register read
 * (I2C_RDWR: the register pointer written, 32 bytes read after a repeated
 * start). Every read is checked: before a row, each register is read
 * once the row's way through the raw ioctl (what it answers is the
 * reference: i2c-stub keeps bytes and words apart, so a word is not two
 * bytes there), and each read's buffer is poisoned (the complement of what
 * it should hold) before the call, so a call that does nothing fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#ifdef UDRV_BENCH_LIBI2C
#include <i2c/smbus.h>
#endif

#include "bench.h"
#include "benches.h"
#include "i2c/i2c.h"
#include "msg.h"
#include "pair.h"

#define DEFAULT_SAMPLES	2000
#define CMD_SAMPLES_MIN	20	/* the command rows: a tenth of the samples, at least */
#define DEFAULT_BATCH	16
#define DEFAULT_ADDRESS	0x50
#define STUB_NAME	"SMBus stub driver"	/* i2c-stub's adapter */
#define BLOCK		32
#define REGS		64			/* registers read and checked */

struct i2c_bench {
	struct bench_run run;
	const char *bus;
	unsigned int addr;
	uint64_t batch;
	bool commands;			/* the command rows (i2c_cmd.c) */
	struct udrv_i2c *i2c;
	int fd;				/* the raw side's own open of the node */
	uint8_t expect[REGS];		/* the registers' bytes as read at the start */
	uint8_t want[REGS][BLOCK];	/* what the row's read gives, as learned */
	unsigned int reg;		/* the next register read */
};

static const char help[] =
"Usage: udrv-bench i2c [OPTIONS]\n"
"\n"
"Time per I2C transaction through libudrv against the raw i2c-dev ioctl\n"
"(what i2c-tools' libi2c does: I2C_SMBUS, I2C_RDWR), on one device, in\n"
"turns in the same run. Rows, each where the adapter has the transaction:\n"
"byte-data (SMBus read byte data), word-data (read word data), i2c-block\n"
"(I2C block read of 32 bytes), rdwr (plain I2C: pointer write, 32 bytes\n"
"read after a repeated start). A third row of the SMBus ones, libi2c: the\n"
"same call through i2c-tools' library (udrv-bench built with libi2c-dev),\n"
"the C library an i2c-tools user links. A sample is the mean of a batch. Every read\n"
"is checked against what the raw ioctl read there before the row (the\n"
"device must keep its registers: a memory such as i2c-stub or an EEPROM,\n"
"not a sensor). Then the command rows: one register read as a process,\n"
"i2c-tools' i2cget against udrv i2c get (both found on PATH), a tenth of\n"
"the samples (at least 20), each process's output checked.\n"
"\n"
"Options:\n"
"  -b, --bus BUS       the bus: number, node or adapter name (default: the\n"
"                      adapter named \"" STUB_NAME "\", i2c-stub's)\n"
"      --address A     the device's 7-bit address (default 0x50)\n"
"      --batch N       transactions a sample (default 16)\n"
"      --no-commands   no command rows\n"
"  -n, --samples N     samples a row (default 2000)\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Example:\n"
"  modprobe i2c-dev; modprobe i2c-stub chip_addr=0x50\n"
"  udrv-bench i2c --samples 5000\n";

enum { OPT_ADDRESS = 0x80, OPT_BATCH, OPT_NO_COMMANDS };

static const struct option long_opts[] = {
	{ "bus", required_argument, NULL, 'b' },
	{ "address", required_argument, NULL, OPT_ADDRESS },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "no-commands", no_argument, NULL, OPT_NO_COMMANDS },
	{ NULL, 0, NULL, 0 },
};

static int i2c_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct i2c_bench *b = ctx;
	uint64_t v;

	switch (opt) {
	case 'b':
		if (!*arg)
			return bench_usage(run->bench, "bad --bus '': a number, node or name");
		b->bus = arg;
		return 0;
	case OPT_ADDRESS:
		if (udrv_parse_u64(arg, 0x77, &v) || v < 0x03)
			return bench_usage(run->bench, "bad --address '%s': 0x03..0x77", arg);
		b->addr = (unsigned int)v;
		return 0;
	case OPT_BATCH:
		return bench_pair_batch_opt(run, arg, &b->batch);
	case OPT_NO_COMMANDS:
		b->commands = false;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* ---- the raw side: i2c-dev's ioctls as libi2c makes them ---- */

/* 0 or the errno */
static int raw_smbus(int fd, uint8_t reg, int size, union i2c_smbus_data *d)
{
	struct i2c_smbus_ioctl_data a = { .read_write = I2C_SMBUS_READ, .command = reg,
					  .size = (uint32_t)size, .data = d };

	return ioctl(fd, I2C_SMBUS, &a) < 0 ? errno : 0;
}

static int bad_read(const struct i2c_bench *b, const char *impl, const char *what,
		    unsigned int reg, int err)
{
	return bench_error(EXIT_FAIL, "i2c %s: %s of register 0x%02x at 0x%02x: %s", impl, what,
			   reg, b->addr, err ? strerror(err) : "read a wrong value");
}

static unsigned int next_reg(struct i2c_bench *b)
{
	unsigned int reg = b->reg;

	b->reg = (b->reg + 1) % REGS;
	return reg;
}

static int raw_byte(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	int err;
	union i2c_smbus_data d;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		d.byte = (uint8_t)~b->expect[reg];
		err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_BYTE_DATA, &d);
		if (err || d.byte != b->expect[reg])
			return bad_read(b, "raw", "read byte data", reg, err);
	}
	return 0;
}

static int udrv_byte(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	uint8_t v;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		v = (uint8_t)~b->expect[reg];
		err = udrv_i2c_smbus_read_byte_data(b->i2c, (uint8_t)reg, &v);
		if (err || v != b->expect[reg])
			return bad_read(b, "udrv", "read byte data", reg, -err);
	}
	return 0;
}

static uint16_t word_at(const struct i2c_bench *b, unsigned int reg)
{
	return (uint16_t)(b->want[reg][0] | b->want[reg][1] << 8);
}

static int raw_word(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	int err;
	union i2c_smbus_data d;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		d.word = (uint16_t)~word_at(b, reg);
		err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_WORD_DATA, &d);
		if (err || d.word != word_at(b, reg))
			return bad_read(b, "raw", "read word data", reg, err);
	}
	return 0;
}

static int udrv_word(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	uint16_t v;
	int err;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		v = (uint16_t)~word_at(b, reg);
		err = udrv_i2c_smbus_read_word_data(b->i2c, (uint8_t)reg, &v);
		if (err || v != word_at(b, reg))
			return bad_read(b, "udrv", "read word data", reg, -err);
	}
	return 0;
}

static void poison(uint8_t *buf, const uint8_t *expect)
{
	for (int i = 0; i < BLOCK; i++)
		buf[i] = (uint8_t)~expect[i];
}

static int raw_block(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	int err;
	union i2c_smbus_data d;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		d.block[0] = BLOCK;
		poison(&d.block[1], b->want[reg]);
		err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_I2C_BLOCK_DATA, &d);
		if (err || d.block[0] != BLOCK || memcmp(&d.block[1], b->want[reg], BLOCK))
			return bad_read(b, "raw", "I2C block read", reg, err);
	}
	return 0;
}

static int udrv_block(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	uint8_t buf[BLOCK];
	int got;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		poison(buf, b->want[reg]);
		got = udrv_i2c_smbus_read_i2c_block_data(b->i2c, (uint8_t)reg, buf, BLOCK);
		if (got != BLOCK || memcmp(buf, b->want[reg], BLOCK))
			return bad_read(b, "udrv", "I2C block read", reg, got < 0 ? -got : 0);
	}
	return 0;
}

#ifdef UDRV_BENCH_LIBI2C
/* ---- i2c-tools' libi2c (Debian's libi2c-dev): what a C user of i2c-tools
 * calls, a function of a library as udrv's is ---- */

static int libi2c_byte(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);
		int32_t v = i2c_smbus_read_byte_data(b->fd, (uint8_t)reg);

		if (v != b->expect[reg])
			return bad_read(b, "libi2c", "read byte data", reg, v < 0 ? (int)-v : 0);
	}
	return 0;
}

static int libi2c_word(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);
		int32_t v = i2c_smbus_read_word_data(b->fd, (uint8_t)reg);

		if (v != word_at(b, reg))
			return bad_read(b, "libi2c", "read word data", reg, v < 0 ? (int)-v : 0);
	}
	return 0;
}

static int libi2c_block(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	uint8_t buf[BLOCK];

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);
		int32_t got;

		poison(buf, b->want[reg]);
		got = i2c_smbus_read_i2c_block_data(b->fd, (uint8_t)reg, BLOCK, buf);
		if (got != BLOCK || memcmp(buf, b->want[reg], BLOCK))
			return bad_read(b, "libi2c", "I2C block read", reg, got < 0 ? (int)-got : 0);
	}
	return 0;
}
#else
#define libi2c_byte	NULL
#define libi2c_word	NULL
#define libi2c_block	NULL
#endif

static int raw_rdwr(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	int err;
	uint8_t ptr, buf[BLOCK];
	struct i2c_msg m[2] = {
		{ .addr = (uint16_t)b->addr, .len = 1, .buf = &ptr },
		{ .addr = (uint16_t)b->addr, .flags = I2C_M_RD, .len = BLOCK, .buf = buf },
	};
	struct i2c_rdwr_ioctl_data data = { .msgs = m, .nmsgs = 2 };

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		ptr = (uint8_t)reg;
		poison(buf, b->want[reg]);
		err = ioctl(b->fd, I2C_RDWR, &data) == 2 ? 0 : errno;
		if (err || memcmp(buf, b->want[reg], BLOCK))
			return bad_read(b, "raw", "plain I2C read", reg, err);
	}
	return 0;
}

static int udrv_rdwr(void *ctx, uint64_t n)
{
	struct i2c_bench *b = ctx;
	uint8_t ptr, buf[BLOCK];
	struct udrv_i2c_msg m[2] = {
		{ .addr = (uint16_t)b->addr, .len = 1, .buf = &ptr },
		{ .addr = (uint16_t)b->addr, .flags = UDRV_I2C_M_RD, .len = BLOCK, .buf = buf },
	};
	int got;

	for (uint64_t i = 0; i < n; i++) {
		unsigned int reg = next_reg(b);

		ptr = (uint8_t)reg;
		poison(buf, b->want[reg]);
		got = udrv_i2c_transfer(b->i2c, m, 2);
		if (got != 2 || memcmp(buf, b->want[reg], BLOCK))
			return bad_read(b, "udrv", "plain I2C read", reg, got < 0 ? -got : 0);
	}
	return 0;
}

/* ---- what each row's read answers: learned through the raw ioctl ---- */

static int learn_byte(struct i2c_bench *b)
{
	for (unsigned int reg = 0; reg < REGS; reg++)
		b->want[reg][0] = b->expect[reg];
	return 0;
}

static int learn_word(struct i2c_bench *b)
{
	union i2c_smbus_data d;

	for (unsigned int reg = 0; reg < REGS; reg++) {
		int err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_WORD_DATA, &d);

		if (err)
			return bad_read(b, "raw", "read word data", reg, err);
		b->want[reg][0] = (uint8_t)d.word;
		b->want[reg][1] = (uint8_t)(d.word >> 8);
	}
	return 0;
}

static int learn_block(struct i2c_bench *b)
{
	union i2c_smbus_data d;

	for (unsigned int reg = 0; reg < REGS; reg++) {
		int err;

		d.block[0] = BLOCK;
		err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_I2C_BLOCK_DATA, &d);
		if (err || d.block[0] != BLOCK)
			return bad_read(b, "raw", "I2C block read", reg, err);
		memcpy(b->want[reg], &d.block[1], BLOCK);
	}
	return 0;
}

static int learn_rdwr(struct i2c_bench *b)
{
	uint8_t ptr;
	struct i2c_msg m[2] = {
		{ .addr = (uint16_t)b->addr, .len = 1, .buf = &ptr },
		{ .addr = (uint16_t)b->addr, .flags = I2C_M_RD, .len = BLOCK },
	};
	struct i2c_rdwr_ioctl_data data = { .msgs = m, .nmsgs = 2 };

	for (unsigned int reg = 0; reg < REGS; reg++) {
		ptr = (uint8_t)reg;
		m[1].buf = b->want[reg];
		if (ioctl(b->fd, I2C_RDWR, &data) != 2)
			return bad_read(b, "raw", "plain I2C read", reg, errno);
	}
	return 0;
}

/* ---- setup ---- */

static const struct {
	const char *mechanism;
	unsigned long funcs;		/* what the adapter must have */
	int (*learn)(struct i2c_bench *b);
	bench_batch_fn raw, udrv, libi2c;	/* libi2c: NULL, no row */
} transactions[] = {
	{ "byte-data", I2C_FUNC_SMBUS_READ_BYTE_DATA, learn_byte, raw_byte, udrv_byte,
	  libi2c_byte },
	{ "word-data", I2C_FUNC_SMBUS_READ_WORD_DATA, learn_word, raw_word, udrv_word,
	  libi2c_word },
	{ "i2c-block", I2C_FUNC_SMBUS_READ_I2C_BLOCK, learn_block, raw_block, udrv_block,
	  libi2c_block },
	{ "rdwr", I2C_FUNC_I2C, learn_rdwr, raw_rdwr, udrv_rdwr, NULL },
};

static int open_device(struct i2c_bench *b)
{
	char node[PATH_MAX];

	b->i2c = udrv_i2c_new();
	if (!b->i2c)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_i2c_open(b->i2c, b->bus) ||
	    udrv_i2c_set_address(b->i2c, b->addr, 0))
		return bench_error(EXIT_FAIL, "%s%s", udrv_i2c_errmsg(b->i2c),
				   strcmp(b->bus, STUB_NAME) ? "" :
				   " (modprobe i2c-stub chip_addr=0x50, or give the bus: --bus)");
	snprintf(node, sizeof(node), "%s/dev/i2c-%u", bench_sysroot(), udrv_i2c_bus(b->i2c));
	b->fd = open(node, O_RDWR | O_CLOEXEC);
	if (b->fd < 0 || ioctl(b->fd, I2C_SLAVE, (unsigned long)b->addr) < 0)
		return bench_error(EXIT_FAIL, "%s: %s", node, strerror(errno));
	return 0;
}

/* The registers as they are: what every read must give back. */
static int read_expected(struct i2c_bench *b)
{
	union i2c_smbus_data d;

	for (unsigned int reg = 0; reg < REGS; reg++) {
		int err = raw_smbus(b->fd, (uint8_t)reg, I2C_SMBUS_BYTE_DATA, &d);

		if (err)
			return bench_error(EXIT_FAIL, "i2c-%u: register 0x%02x at 0x%02x: %s "
					   "(is a device there? udrv i2c detect %u)",
					   udrv_i2c_bus(b->i2c), reg, b->addr, strerror(err),
					   udrv_i2c_bus(b->i2c));
		b->expect[reg] = d.byte;
	}
	return 0;
}

static uint64_t command_samples(const struct i2c_bench *b)
{
	uint64_t n = bench_samples(&b->run, DEFAULT_SAMPLES) / 10;

	return n < CMD_SAMPLES_MIN ? CMD_SAMPLES_MIN : n;
}

static int run_all(struct i2c_bench *b)
{
	uint64_t funcs = udrv_i2c_funcs(b->i2c);
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(transactions) / sizeof(transactions[0]); i++) {
		struct bench_pair p = {
			.mechanism = transactions[i].mechanism, .what = "transaction",
			.n = transactions[i].libi2c ? 3 : 2,
			.impl = { { "raw", transactions[i].raw }, { "udrv", transactions[i].udrv },
				  { "libi2c", transactions[i].libi2c } },
			.batch = b->batch, .samples = bench_samples(&b->run, DEFAULT_SAMPLES),
		};

		if ((funcs & transactions[i].funcs) != transactions[i].funcs)
			continue;
		err = transactions[i].learn(b);
		if (!err)
			err = bench_pair_run(&b->run, &p, b);
	}
	if (!err && b->commands)
		err = i2c_bench_commands(&b->run, udrv_i2c_bus(b->i2c), b->addr,
					 b->expect[I2C_CMD_REG], command_samples(b));
	return err;
}

static void json_extra(const struct bench_run *run, struct udrv_json *j)
{
	const struct i2c_bench *b = (const struct i2c_bench *)run;

	udrv_json_key(j, "i2c");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "adapter", udrv_i2c_name(b->i2c));
	udrv_json_kuint(j, "bus", udrv_i2c_bus(b->i2c));
	udrv_json_kuint(j, "address", b->addr);
	udrv_json_kuint(j, "functionality", udrv_i2c_funcs(b->i2c));
	udrv_json_kuint(j, "batch", b->batch);
	udrv_json_obj_end(j);
}

BENCH_COMMAND(i2c,
		"time per I2C transaction: libudrv against the raw i2c-dev ioctl");

int cmd_bench_i2c(int argc, char **argv)
{
	struct i2c_bench *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return bench_error(EXIT_FAIL, "out of memory");
	*b = (struct i2c_bench){ .bus = STUB_NAME, .addr = DEFAULT_ADDRESS,
				 .batch = DEFAULT_BATCH, .commands = true, .fd = -1 };
	ret = bench_parse(&b->run, "i2c", argc, argv, help, "b:", long_opts, i2c_opt, b);
	if (!ret && optind < argc)
		ret = bench_usage("i2c", "unexpected argument '%s'", argv[optind]);
	if (!ret)
		ret = open_device(b);
	if (!ret)
		ret = read_expected(b);
	if (!ret) {
		b->run.json_extra = json_extra;
		ret = bench_begin(&b->run);
		if (!ret)
			ret = run_all(b);
		ret = bench_end(&b->run, ret);
	}
	if (b->fd >= 0)
		close(b->fd);
	udrv_i2c_free(b->i2c);
	free(b);
	return ret < 0 ? EXIT_OK : ret;
}
