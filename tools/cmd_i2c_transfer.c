// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv i2c transfer: plain I2C messages in one transaction (I2C_RDWR), as
 * i2c-tools' i2ctransfer writes them; the bytes each read brings printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_i2c.h"

static const char transfer_help[] =
"Usage: udrv i2c transfer [OPTIONS] BUS DESC [BYTE...] [DESC [BYTE...]]...\n"
"\n"
"Send plain I2C messages in one transaction: a repeated start between\n"
"them, one stop at the end (what a register read of many devices needs:\n"
"the register pointer written, then read back without a stop between).\n"
"DESC is r or w, the length in bytes (0-8192) and @ADDRESS (0x03-0x77):\n"
"w2@0x50 writes the 2 BYTEs that follow it, r8@0x50 reads 8 bytes. The\n"
"first DESC names the address, a later one without keeps it. At most 42\n"
"messages (the kernel's limit). Each read's bytes are printed, a line a\n"
"read, in hex. The adapter must do plain I2C (udrv i2c list says so).\n"
"\n"
"Examples:\n"
"  udrv i2c transfer 1 w1@0x50 0x10 r8          # 8 bytes from 0x10 on\n"
"  udrv i2c transfer 1 w3@0x50 0x00 0x10 0xaa   # pointer 0x0010, one byte\n"
"\n"
"Options:\n"
"  -f, --force        also the address of the first message when a kernel\n"
"                     driver uses it, and the reserved ones (0x00-0x7f)\n"
"  -j, --json         {\"bus\", \"messages\": [{\"address\", \"read\", \"data\"}]}\n";

static void show_msgs(const char *bus, const struct i2c_msgs *m, bool json)
{
	struct udrv_json *j = cli_json_begin(json);

	if (j) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "bus", bus);
		udrv_json_key(j, "messages");
		udrv_json_arr_begin(j);
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct udrv_i2c_msg *msg = &m->msg[i];
		bool read = msg->flags & UDRV_I2C_M_RD;

		if (j) {
			udrv_json_obj_begin(j);
			udrv_json_kuint(j, "address", msg->addr);
			udrv_json_kbool(j, "read", read);
			udrv_json_key(j, "data");
			udrv_json_arr_begin(j);
		}
		for (unsigned int b = 0; b < msg->len && (read || j); b++) {
			if (j)
				udrv_json_uint(j, msg->buf[b]);
			else
				printf(b ? " 0x%02x" : "0x%02x", msg->buf[b]);
		}
		if (j) {
			udrv_json_arr_end(j);
			udrv_json_obj_end(j);
		} else if (read) {
			printf("\n");
		}
	}
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
	cli_json_end(j);
}

static int sent(struct udrv_i2c *i2c, struct i2c_msgs *m)
{
	int err = udrv_i2c_transfer(i2c, m->msg, m->n);

	if (err >= 0)
		return EXIT_OK;
	return cli_error(EXIT_FAIL, "%s%s", udrv_i2c_errmsg(i2c),
			 err == -EBUSY ? " (the option: --force)" : "");
}

int i2c_transfer(int argc, char **argv)
{
	struct udrv_i2c *i2c = NULL;
	struct i2c_msgs m = { 0 };
	struct i2c_opts o;
	char why[256];
	int ret = parse_i2c(argc, argv, &o, "jf", "i2c transfer", transfer_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (argc - optind < 2)
		return cli_usage("i2c transfer", "give BUS and the messages (w1@0x50 0x10 r8)");
	if (i2c_msgs_parse(argc - optind - 1, argv + optind + 1, o.force, &m, why, sizeof(why)))
		return cli_usage("i2c transfer", "%s", why);
	ret = o.force ? i2c_open_device(argv[optind], m.msg[0].addr, true, &i2c) :
			i2c_open_bus(argv[optind], &i2c);
	if (!ret)
		ret = sent(i2c, &m);
	if (!ret)
		show_msgs(argv[optind], &m, o.json);
	udrv_i2c_free(i2c);
	i2c_msgs_free(&m);
	return ret;
}
