// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv i2c dump: a device's registers read one by one (SMBus read byte or
 * word data) or 32 at a time (I2C block reads), as a table like i2c-tools'
 * i2cdump; a register that could not be read shown XX.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_i2c.h"

#define REGS	256

static const char dump_help[] =
"Usage: udrv i2c dump [OPTIONS] BUS ADDRESS [FIRST LAST]\n"
"\n"
"Read registers FIRST to LAST (default 0x00 to 0xff) of the device at\n"
"ADDRESS and print them as a table, with the bytes as text on the right:\n"
"one SMBus read byte data per register, or with --word one read word data\n"
"per register (low byte first on the wire), or with --block I2C block\n"
"reads of up to 32 registers each (faster; the adapter must have them:\n"
"udrv i2c list). A register that could not be read is shown XX.\n"
"Reading a register has side effects on some devices (a status register\n"
"cleared, a FIFO popped): dump a device you know.\n"
"\n"
"Options:\n"
"  -w, --word         16-bit words (one per register)\n"
"  -b, --block        I2C block reads\n"
"  -f, --force        also an address a kernel driver uses, or a reserved one\n"
"  -j, --json         {\"bus\", \"address\", \"mode\", \"first\", \"last\",\n"
"                     \"values\": [a number, or null for one not read]}\n";

struct dump {
	long first, last;
	long value[REGS];	/* -1: not read */
	int err;		/* the first failure */
	char why[256];
};

static int read_block(struct udrv_i2c *i2c, struct dump *d, long reg)
{
	uint8_t buf[UDRV_I2C_BLOCK_MAX];
	long n = d->last - reg + 1 < UDRV_I2C_BLOCK_MAX ? d->last - reg + 1 : UDRV_I2C_BLOCK_MAX;
	int got = udrv_i2c_smbus_read_i2c_block_data(i2c, (uint8_t)reg, buf, (size_t)n);

	for (long i = 0; i < got && i < n; i++)
		d->value[reg + i] = buf[i];
	return got < 0 ? got : 0;
}

static int read_one(struct udrv_i2c *i2c, struct dump *d, long reg, bool word)
{
	uint16_t w = 0;
	uint8_t b = 0;
	int err = word ? udrv_i2c_smbus_read_word_data(i2c, (uint8_t)reg, &w) :
			 udrv_i2c_smbus_read_byte_data(i2c, (uint8_t)reg, &b);

	if (!err)
		d->value[reg] = word ? w : b;
	return err;
}

/* Every register of @d read: how many were. */
static long read_all(struct udrv_i2c *i2c, struct dump *d, const struct i2c_opts *o)
{
	long done = 0;

	for (long reg = d->first; reg <= d->last;) {
		int err = o->block ? read_block(i2c, d, reg) : read_one(i2c, d, reg, o->word);

		if (err < 0 && !d->err) {
			d->err = err;
			snprintf(d->why, sizeof(d->why), "%s", udrv_i2c_errmsg(i2c));
		}
		if (err == -EOPNOTSUPP || err == -ENXIO)
			break;	/* no register will read: the adapter or the device */
		reg += o->block ? UDRV_I2C_BLOCK_MAX : 1;
	}
	for (long reg = d->first; reg <= d->last; reg++)
		done += d->value[reg] >= 0;
	return done;
}

static void ascii(const struct dump *d, long row)
{
	printf("    ");
	for (long r = row; r < row + 16; r++) {
		long v = d->value[r];

		putchar(r < d->first || r > d->last ? ' ' : v < 0 ? 'X' :
			v >= 0x20 && v < 0x7f ? (int)v : '.');
	}
}

static void text_bytes(const struct dump *d)
{
	printf("     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f    0123456789abcdef\n");
	for (long row = d->first & ~15L; row <= d->last; row += 16) {
		printf("%02lx:", row);
		for (long r = row; r < row + 16; r++) {
			if (r < d->first || r > d->last)
				printf("   ");
			else if (d->value[r] < 0)
				printf(" XX");
			else
				printf(" %02lx", d->value[r]);
		}
		ascii(d, row);
		printf("\n");
	}
}

static void text_words(const struct dump *d)
{
	printf("     0,8  1,9  2,a  3,b  4,c  5,d  6,e  7,f\n");
	for (long row = d->first & ~7L; row <= d->last; row += 8) {
		printf("%02lx:", row);
		for (long r = row; r < row + 8; r++) {
			if (r < d->first || r > d->last)
				printf("     ");
			else if (d->value[r] < 0)
				printf(" XXXX");
			else
				printf(" %04lx", d->value[r]);
		}
		printf("\n");
	}
}

static void json_dump(const char *bus, long addr, const struct dump *d,
		      const struct i2c_opts *o)
{
	struct udrv_json *j = cli_json_begin(true);

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "bus", bus);
	udrv_json_kuint(j, "address", (uint64_t)addr);
	udrv_json_kstr(j, "mode", o->word ? "word" : o->block ? "block" : "byte");
	udrv_json_kuint(j, "first", (uint64_t)d->first);
	udrv_json_kuint(j, "last", (uint64_t)d->last);
	udrv_json_key(j, "values");
	udrv_json_arr_begin(j);
	for (long r = d->first; r <= d->last; r++) {
		if (d->value[r] < 0)
			udrv_json_null(j);
		else
			udrv_json_uint(j, (uint64_t)d->value[r]);
	}
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int dump_args(int argc, char **argv, const struct i2c_opts *o, long *addr,
		     struct dump *d)
{
	int n = argc - optind;

	d->first = 0;
	d->last = REGS - 1;
	if (o->word && o->block)
		return cli_usage("i2c dump", "--word or --block: one mode");
	if (n != 2 && n != 4)
		return cli_usage("i2c dump", "give BUS ADDRESS [FIRST LAST]");
	if (i2c_number("i2c dump", "address", argv[optind + 1], 0, 0x7f, addr))
		return EXIT_USAGE;
	if (n == 4 && (i2c_number("i2c dump", "first register", argv[optind + 2], 0, 0xff,
				  &d->first) ||
		       i2c_number("i2c dump", "last register", argv[optind + 3], d->first, 0xff,
				  &d->last)))
		return EXIT_USAGE;
	for (long r = 0; r < REGS; r++)
		d->value[r] = -1;
	return EXIT_OK;
}

int i2c_dump(int argc, char **argv)
{
	struct udrv_i2c *i2c = NULL;
	struct dump *d = calloc(1, sizeof(*d));
	struct i2c_opts o;
	long addr = 0, done;
	int ret = d ? parse_i2c(argc, argv, &o, "jfwb", "i2c dump", dump_help) :
		      cli_error(EXIT_FAIL, "out of memory");

	if (!ret)
		ret = dump_args(argc, argv, &o, &addr, d);
	if (!ret)
		ret = i2c_open_device(argv[optind], addr, o.force, &i2c);
	if (ret) {
		free(d);
		return ret < 0 ? EXIT_OK : ret;
	}
	done = read_all(i2c, d, &o);
	if (!done)
		ret = cli_error(EXIT_FAIL, "%s", d->why);
	else if (o.json)
		json_dump(argv[optind], addr, d, &o);
	else if (o.word)
		text_words(d);
	else
		text_bytes(d);
	if (done && d->err)
		fprintf(stderr, "udrv: some registers could not be read (XX): %s\n", d->why);
	udrv_i2c_free(i2c);
	free(d);
	return ret;
}
