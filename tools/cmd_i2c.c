// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv i2c list|detect|get|set: I2C buses through i2c-dev, what i2c-tools'
 * i2cdetect, i2cget and i2cset do, with their safety: detect probes by
 * reading (no write unless asked), an address a kernel driver uses is
 * left alone unless forced. dump and transfer: cmd_i2c_dump.c,
 * cmd_i2c_transfer.c.
 */
#include <errno.h>
#include <getopt.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_i2c.h"
#include "commands.h"

static const char i2c_help[] =
"Usage: udrv i2c COMMAND [OPTIONS] BUS ...\n"
"\n"
"I2C buses through i2c-dev (/dev/i2c-N). BUS is the bus number (1), its node\n"
"(i2c-1, /dev/i2c-1) or its adapter's name. ADDRESS is a device's 7-bit\n"
"address, 0x03-0x77 (0x00-0x7f with --force).\n"
"\n"
"Commands:\n"
"  list       the buses, their adapters and what they can do\n"
"  detect     which addresses answer (by reading: no probing writes)\n"
"  get        read a register, or the byte a device sends\n"
"  set        write a register\n"
"  dump       read a device's registers, as a table\n"
"  transfer   plain I2C messages in one transaction (repeated starts)\n"
"\n"
"Examples:\n"
"  udrv i2c list\n"
"  udrv i2c detect 1\n"
"  udrv i2c get 1 0x48 0x00 --word\n"
"  udrv i2c set 1 0x50 0x10 0x5a\n"
"  udrv i2c dump 1 0x50\n"
"  udrv i2c transfer 1 w1@0x50 0x10 r8\n";

static const struct option i2c_long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "force", no_argument, NULL, 'f' },
	{ "word", no_argument, NULL, 'w' },
	{ "quick", no_argument, NULL, 'q' },
	{ "block", no_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int parse_i2c(int argc, char **argv, struct i2c_opts *o, const char *allowed,
	      const char *cmd, const char *help)
{
	int opt;

	*o = (struct i2c_opts){ 0 };
	while ((opt = getopt_long(argc, argv, "jfwqbh", i2c_long_opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(help);
			return -1;
		}
		if (opt == '?' || !strchr(allowed, opt))
			return opt == '?' ? EXIT_USAGE :
			       cli_usage(cmd, "option -%c does not apply to %s", opt, cmd);
		o->json |= opt == 'j';
		o->force |= opt == 'f';
		o->word |= opt == 'w';
		o->quick |= opt == 'q';
		o->block |= opt == 'b';
	}
	return EXIT_OK;
}

int i2c_number(const char *cmd, const char *what, const char *s, long min, long max,
	       long *v)
{
	int err = cli_parse_int(s, min, max, v);

	if (!err)
		return 0;
	return cli_usage(cmd, "bad %s '%s': %s 0x%lx..0x%lx", what, s,
			 err == -ERANGE ? "out of range," : "a number", min, max);
}

int i2c_open_bus(const char *spec, struct udrv_i2c **out)
{
	struct udrv_i2c *i2c = udrv_i2c_new();
	int err;

	if (!i2c)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrv_i2c_open(i2c, spec);
	if (err) {
		err = cli_error(err == -EINVAL || err == -ERANGE ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_i2c_errmsg(i2c));
		udrv_i2c_free(i2c);
		return err;
	}
	*out = i2c;
	return EXIT_OK;
}

int i2c_open_device(const char *spec, long addr, bool force, struct udrv_i2c **out)
{
	int err = i2c_open_bus(spec, out);

	if (err)
		return err;
	err = udrv_i2c_set_address(*out, (unsigned int)addr, force ? UDRV_I2C_FORCE : 0);
	if (!err)
		return EXIT_OK;
	err = cli_error(err == -ERANGE ? EXIT_USAGE : EXIT_FAIL, "%s%s", udrv_i2c_errmsg(*out),
			err == -EBUSY || err == -ERANGE ? " (the option: --force)" : "");
	udrv_i2c_free(*out);
	return err;
}

/* ---- list ---- */

static const char list_help[] =
"Usage: udrv i2c list [--json]\n"
"\n"
"List the I2C buses: the adapter's name, and whether it does plain I2C\n"
"transfers (udrv i2c get and set need SMBus byte or word data; an adapter\n"
"that does plain I2C has them too, emulated by the kernel).\n"
"\n"
"Options:\n"
"  -j, --json         a JSON array of buses\n";

static void show_bus(struct udrv_i2c *i2c, const char *name, struct udrv_json *j)
{
	bool plain = udrv_i2c_funcs(i2c) & I2C_FUNC_I2C;

	if (!j) {
		printf("%-8s %-40s %s\n", name, udrv_i2c_name(i2c), plain ? "I2C, SMBus" : "SMBus");
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "bus", name);
	udrv_json_kstr(j, "name", udrv_i2c_name(i2c));
	udrv_json_kuint(j, "functionality", udrv_i2c_funcs(i2c));
	udrv_json_kbool(j, "i2c", plain);
	udrv_json_obj_end(j);
}

static int i2c_list(int argc, char **argv)
{
	struct udrv_json *j;
	struct i2c_opts o;
	char **names = NULL;
	int n, ret = parse_i2c(argc, argv, &o, "j", "i2c list", list_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return cli_usage("i2c list", "unexpected argument '%s'", argv[optind]);
	n = udrv_i2c_list(&names);
	if (n < 0)
		return cli_error(EXIT_FAIL, "cannot list the I2C buses: %s", strerror(-n));
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	if (!n && !j)
		printf("no I2C bus (an adapter's driver loaded? i2c-dev for the nodes)\n");
	for (int i = 0; i < n; i++) {
		struct udrv_i2c *i2c = NULL;

		if (i2c_open_bus(names[i], &i2c) == EXIT_OK) {
			show_bus(i2c, names[i], j);
			udrv_i2c_free(i2c);
		} else {
			ret = EXIT_FAIL;
		}
	}
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
}

/* ---- detect ---- */

static const char detect_help[] =
"Usage: udrv i2c detect [OPTIONS] BUS [FIRST LAST]\n"
"\n"
"Which addresses of BUS answer, FIRST to LAST (default 0x03 to 0x77), as a\n"
"table like i2cdetect's: the address where a device answered, UU where a\n"
"kernel driver uses it (not probed), -- where none answered.\n"
"Each address is probed by reading a byte (SMBus receive byte), which no\n"
"device takes as a command; --quick probes with an SMBus quick write\n"
"instead, which some devices take as one (a write-protect bit, a power-down):\n"
"use it only where reading is not possible.\n"
"\n"
"Options:\n"
"  -q, --quick        probe with SMBus quick writes\n"
"  -j, --json         {\"bus\", \"found\": [addresses], \"in_use\": [...]}\n";

enum probe { ABSENT, PRESENT, IN_USE };

static enum probe probe(struct udrv_i2c *i2c, unsigned int addr, bool quick)
{
	uint8_t byte;
	int err = udrv_i2c_set_address(i2c, addr, 0);

	if (err == -EBUSY)
		return IN_USE;
	if (err)
		return ABSENT;
	err = quick ? udrv_i2c_smbus_quick(i2c, false) : udrv_i2c_smbus_read_byte(i2c, &byte);
	return err ? ABSENT : PRESENT;
}

static void detect_text(const enum probe *seen, long first, long last)
{
	printf("     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n");
	for (long row = 0; row < 0x80; row += 16) {
		printf("%02lx:", row);
		for (long a = row; a < row + 16; a++)
			printf(a < first || a > last ? "   " : seen[a] == PRESENT ? " %02lx" :
			       seen[a] == IN_USE ? " UU" : " --", a);
		printf("\n");
	}
}

static void detect_json(const char *bus, const enum probe *seen, long first, long last)
{
	struct udrv_json *j = cli_json_begin(true);

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "bus", bus);
	for (int want = PRESENT; want <= IN_USE; want++) {
		udrv_json_key(j, want == PRESENT ? "found" : "in_use");
		udrv_json_arr_begin(j);
		for (long a = first; a <= last; a++)
			if (seen[a] == (enum probe)want)
				udrv_json_uint(j, (uint64_t)a);
		udrv_json_arr_end(j);
	}
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int detect_range(int argc, char **argv, long *first, long *last)
{
	*first = 0x03;
	*last = 0x77;
	if (argc - optind == 1)
		return EXIT_OK;
	if (argc - optind != 3)
		return cli_usage("i2c detect", "give BUS, or BUS FIRST LAST");
	if (i2c_number("i2c detect", "first address", argv[optind + 1], 0x03, 0x77, first) ||
	    i2c_number("i2c detect", "last address", argv[optind + 2], *first, 0x77, last))
		return EXIT_USAGE;
	return EXIT_OK;
}

static int i2c_detect(int argc, char **argv)
{
	enum probe seen[0x80] = { ABSENT };
	struct udrv_i2c *i2c = NULL;
	struct i2c_opts o;
	long first, last;
	int ret = parse_i2c(argc, argv, &o, "jq", "i2c detect", detect_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind >= argc)
		return cli_usage("i2c detect", "no BUS given");
	ret = detect_range(argc, argv, &first, &last);
	if (!ret)
		ret = i2c_open_bus(argv[optind], &i2c);
	if (ret)
		return ret;
	for (long a = first; a <= last; a++)
		seen[a] = probe(i2c, (unsigned int)a, o.quick);
	if (o.json)
		detect_json(argv[optind], seen, first, last);
	else
		detect_text(seen, first, last);
	udrv_i2c_free(i2c);
	return EXIT_OK;
}

/* ---- get, set ---- */

static const char get_help[] =
"Usage: udrv i2c get [OPTIONS] BUS ADDRESS [REGISTER]\n"
"\n"
"Read register REGISTER (0x00-0xff) of the device at ADDRESS: a byte (SMBus\n"
"read byte data) or, with --word, a 16-bit word (SMBus read word data, low\n"
"byte first on the wire). Without REGISTER, the byte the device sends\n"
"(SMBus receive byte). Printed in hex.\n"
"\n"
"Options:\n"
"  -w, --word         a 16-bit word\n"
"  -f, --force        also an address a kernel driver uses, or a reserved one\n"
"  -j, --json         {\"bus\", \"address\", \"register\", \"value\"}\n";

static const char set_help[] =
"Usage: udrv i2c set [OPTIONS] BUS ADDRESS REGISTER VALUE\n"
"\n"
"Write VALUE to register REGISTER (0x00-0xff) of the device at ADDRESS: a\n"
"byte (SMBus write byte data, 0x00-0xff) or, with --word, a 16-bit word\n"
"(SMBus write word data, 0x0000-0xffff).\n"
"\n"
"Options:\n"
"  -w, --word         a 16-bit word\n"
"  -f, --force        also an address a kernel driver uses, or a reserved one\n"
"  -j, --json         {\"bus\", \"address\", \"register\", \"value\"}\n";

static void show_value(const char *bus, long addr, long reg, long value, bool word, bool json)
{
	struct udrv_json *j = cli_json_begin(json);

	if (!j) {
		printf(word ? "0x%04lx\n" : "0x%02lx\n", value);
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "bus", bus);
	udrv_json_kuint(j, "address", (uint64_t)addr);
	udrv_json_key(j, "register");
	if (reg < 0)
		udrv_json_null(j);
	else
		udrv_json_uint(j, (uint64_t)reg);
	udrv_json_kuint(j, "value", (uint64_t)value);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int read_value(struct udrv_i2c *i2c, long reg, bool word, long *value)
{
	uint16_t w = 0;
	uint8_t b = 0;
	int err;

	if (reg < 0)
		err = udrv_i2c_smbus_read_byte(i2c, &b);
	else if (word)
		err = udrv_i2c_smbus_read_word_data(i2c, (uint8_t)reg, &w);
	else
		err = udrv_i2c_smbus_read_byte_data(i2c, (uint8_t)reg, &b);
	*value = reg >= 0 && word ? w : b;
	return err ? cli_error(EXIT_FAIL, "%s", udrv_i2c_errmsg(i2c)) : EXIT_OK;
}

static int i2c_get(int argc, char **argv)
{
	struct udrv_i2c *i2c = NULL;
	long reg = -1, value = 0, addr = 0;
	struct i2c_opts o;
	int n, ret = parse_i2c(argc, argv, &o, "jfw", "i2c get", get_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	n = argc - optind;
	if (n < 2 || n > 3)
		return cli_usage("i2c get", "give BUS ADDRESS [REGISTER]");
	if (n == 2 && o.word)
		return cli_usage("i2c get", "--word reads a register: give REGISTER");
	if ((n == 3 && i2c_number("i2c get", "register", argv[optind + 2], 0, 0xff, &reg)) ||
	    i2c_number("i2c get", "address", argv[optind + 1], 0, 0x7f, &addr))
		return EXIT_USAGE;
	ret = i2c_open_device(argv[optind], addr, o.force, &i2c);
	if (ret)
		return ret;
	ret = read_value(i2c, reg, o.word, &value);
	if (!ret)
		show_value(argv[optind], addr, reg, value, o.word, o.json);
	udrv_i2c_free(i2c);
	return ret;
}

static int i2c_set(int argc, char **argv)
{
	struct udrv_i2c *i2c = NULL;
	long reg, value, addr;
	struct i2c_opts o;
	int ret = parse_i2c(argc, argv, &o, "jfw", "i2c set", set_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (argc - optind != 4)
		return cli_usage("i2c set", "give BUS ADDRESS REGISTER VALUE");
	if (i2c_number("i2c set", "address", argv[optind + 1], 0, 0x7f, &addr) ||
	    i2c_number("i2c set", "register", argv[optind + 2], 0, 0xff, &reg) ||
	    i2c_number("i2c set", "value", argv[optind + 3], 0, o.word ? 0xffff : 0xff, &value))
		return EXIT_USAGE;
	ret = i2c_open_device(argv[optind], addr, o.force, &i2c);
	if (ret)
		return ret;
	ret = o.word ? udrv_i2c_smbus_write_word_data(i2c, (uint8_t)reg, (uint16_t)value) :
		       udrv_i2c_smbus_write_byte_data(i2c, (uint8_t)reg, (uint8_t)value);
	if (ret)
		ret = cli_error(EXIT_FAIL, "%s", udrv_i2c_errmsg(i2c));
	else if (o.json)
		show_value(argv[optind], addr, reg, value, o.word, true);
	udrv_i2c_free(i2c);
	return ret;
}

int cmd_i2c(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "list", i2c_list, "list buses" },
		{ "detect", i2c_detect, "find devices" },
		{ "get", i2c_get, "read a register" },
		{ "set", i2c_set, "write a register" },
		{ "dump", i2c_dump, "read registers" },
		{ "transfer", i2c_transfer, "plain I2C messages" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("i2c", cmds, argc - 1, argv + 1, i2c_help);
}
