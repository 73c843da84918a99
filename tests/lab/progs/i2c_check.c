// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-i2c-check: one libudrv I2C call the udrv CLI has no command for, on
 * a real adapter in the lab, and what it did as one JSON object:
 * {"op": OP, "ret": 0 or -errno, "errmsg": the library's message, ...}
 * (tests/lab/test_i2c.py). Exit 0 when the call was made (whatever it
 * returned), 2 for bad usage.
 *
 * Usage: udrv-i2c-check [--pec] BUS ADDRESS OP [ARG...]
 *   quick r|w               SMBus quick read / write
 *   send BYTE               SMBus send byte       recv          receive byte
 *   rbd REG, wbd REG BYTE   read / write byte data (as udrv i2c get/set, with --pec)
 *   pcall REG WORD          process call           -> "reply": WORD
 *   rblock REG              SMBus block read       -> "block": [...]
 *   wblock REG BYTE...      SMBus block write
 *   bpcall REG BYTE...      block process call     -> "reply": [...]
 *   ri2c REG LEN            I2C block read         -> "block": [...]
 *   wi2c REG BYTE...        I2C block write
 *   ten                     udrv_i2c_set_address(ADDRESS, UDRV_I2C_TEN)
 *   tenxfer                 a one-byte read at ADDRESS with UDRV_I2C_M_TEN
 *   rawten                  the same through I2C_RDWR directly (no libudrv
 *                           check): what the adapter's driver answers
 * --pec turns PEC on (udrv_i2c_set_pec) first. The address is set with
 * udrv_i2c_set_address() except for ten, tenxfer and rawten. (Plain
 * multi-message transfers: udrv i2c transfer.)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#include <udrv/udrv.h>

static int usage(void)
{
	fprintf(stderr, "usage: udrv-i2c-check [--pec] BUS ADDRESS OP [ARG...] (see the source)\n");
	return 2;
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "udrv-i2c-check: %s is not a number\n", s);
		exit(2);
	}
	return v;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_bytes(const uint8_t *b, size_t n)
{
	putchar('[');
	for (size_t i = 0; i < n; i++)
		printf("%s%u", i ? ", " : "", b[i]);
	putchar(']');
}

static size_t bytes(int argc, char **argv, uint8_t *out, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < argc && n < max; i++)
		out[n++] = (uint8_t)num(argv[i]);
	return n;
}

/* I2C_RDWR with I2C_M_TEN, around libudrv: the adapter's driver decides */
static int op_rawten(struct udrv_i2c *i2c, unsigned int addr)
{
	uint8_t b = 0;
	struct i2c_msg m = { .addr = (uint16_t)addr, .flags = I2C_M_RD | I2C_M_TEN,
			     .len = 1, .buf = &b };
	struct i2c_rdwr_ioctl_data d = { .msgs = &m, .nmsgs = 1 };
	int ret = ioctl(udrv_i2c_fd(i2c), I2C_RDWR, &d) < 0 ? -errno : 0;

	printf("\"ret\": %d, \"errmsg\": ", ret);
	json_str(ret ? strerror(-ret) : "");
	return 0;
}

static void result(struct udrv_i2c *i2c, int ret)
{
	printf("\"ret\": %d, \"errmsg\": ", ret);
	json_str(ret ? udrv_i2c_errmsg(i2c) : "");
}

static int run_op(struct udrv_i2c *i2c, unsigned int addr, const char *op, int argc,
		  char **argv)
{
	uint8_t buf[UDRV_I2C_BLOCK_MAX], reply[UDRV_I2C_BLOCK_MAX];
	uint16_t word = 0;
	size_t n;
	int ret;

	if (!strcmp(op, "quick") && argc == 1) {
		result(i2c, udrv_i2c_smbus_quick(i2c, argv[0][0] == 'r'));
	} else if (!strcmp(op, "send") && argc == 1) {
		result(i2c, udrv_i2c_smbus_write_byte(i2c, (uint8_t)num(argv[0])));
	} else if (!strcmp(op, "recv") && argc == 0) {
		ret = udrv_i2c_smbus_read_byte(i2c, buf);
		result(i2c, ret);
		printf(", \"value\": %d", ret ? -1 : buf[0]);
	} else if (!strcmp(op, "rbd") && argc == 1) {
		ret = udrv_i2c_smbus_read_byte_data(i2c, (uint8_t)num(argv[0]), buf);
		result(i2c, ret);
		printf(", \"value\": %d", ret ? -1 : buf[0]);
	} else if (!strcmp(op, "wbd") && argc == 2) {
		result(i2c, udrv_i2c_smbus_write_byte_data(i2c, (uint8_t)num(argv[0]),
							   (uint8_t)num(argv[1])));
	} else if (!strcmp(op, "pcall") && argc == 2) {
		ret = udrv_i2c_smbus_process_call(i2c, (uint8_t)num(argv[0]),
						  (uint16_t)num(argv[1]), &word);
		result(i2c, ret);
		printf(", \"reply\": %d", ret ? -1 : word);
	} else if (!strcmp(op, "rblock") && argc == 1) {
		ret = udrv_i2c_smbus_read_block_data(i2c, (uint8_t)num(argv[0]), buf);
		result(i2c, ret < 0 ? ret : 0);
		printf(", \"block\": ");
		json_bytes(buf, ret < 0 ? 0 : (size_t)ret);
	} else if (!strcmp(op, "wblock") && argc >= 1) {
		n = bytes(argc - 1, argv + 1, buf, sizeof(buf));
		result(i2c, udrv_i2c_smbus_write_block_data(i2c, (uint8_t)num(argv[0]), buf, n));
	} else if (!strcmp(op, "bpcall") && argc >= 1) {
		n = bytes(argc - 1, argv + 1, buf, sizeof(buf));
		ret = udrv_i2c_smbus_block_process_call(i2c, (uint8_t)num(argv[0]), buf, n,
							reply);
		result(i2c, ret < 0 ? ret : 0);
		printf(", \"reply\": ");
		json_bytes(reply, ret < 0 ? 0 : (size_t)ret);
	} else if (!strcmp(op, "ri2c") && argc == 2) {
		n = (size_t)num(argv[1]);
		if (n > sizeof(buf))
			return usage();
		ret = udrv_i2c_smbus_read_i2c_block_data(i2c, (uint8_t)num(argv[0]), buf, n);
		result(i2c, ret < 0 ? ret : 0);
		printf(", \"block\": ");
		json_bytes(buf, ret < 0 ? 0 : (size_t)ret);
	} else if (!strcmp(op, "wi2c") && argc >= 1) {
		n = bytes(argc - 1, argv + 1, buf, sizeof(buf));
		result(i2c, udrv_i2c_smbus_write_i2c_block_data(i2c, (uint8_t)num(argv[0]),
								 buf, n));
	} else {
		return usage();
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct udrv_i2c *i2c;
	bool pec = false;
	unsigned int addr;
	const char *op;
	int ret = 0, rc = 0;

	if (argc > 1 && !strcmp(argv[1], "--pec")) {
		pec = true;
		argv++;
		argc--;
	}
	if (argc < 4)
		return usage();
	addr = (unsigned int)num(argv[2]);
	op = argv[3];
	i2c = udrv_i2c_new();
	if (!i2c)
		return 1;
	printf("{\"op\": ");
	json_str(op);
	printf(", ");
	ret = udrv_i2c_open(i2c, argv[1]);
	if (!ret && !strcmp(op, "ten")) {
		ret = udrv_i2c_set_address(i2c, addr, UDRV_I2C_TEN);
		result(i2c, ret);
		goto out;
	}
	if (!ret && !strcmp(op, "tenxfer")) {
		uint8_t b;
		struct udrv_i2c_msg m = { .addr = (uint16_t)addr,
					  .flags = UDRV_I2C_M_RD | UDRV_I2C_M_TEN,
					  .len = 1, .buf = &b };

		ret = udrv_i2c_transfer(i2c, &m, 1);
		result(i2c, ret < 0 ? ret : 0);
		goto out;
	}
	if (!ret && !strcmp(op, "rawten")) {
		rc = op_rawten(i2c, addr);
		goto out;
	}
	if (!ret)
		ret = udrv_i2c_set_address(i2c, addr, 0);
	if (!ret && pec)
		ret = udrv_i2c_set_pec(i2c, true);
	if (ret) {
		result(i2c, ret);
		goto out;
	}
	rc = run_op(i2c, addr, op, argc - 4, argv + 4);
out:
	printf("}\n");
	udrv_i2c_free(i2c);
	return rc;
}
