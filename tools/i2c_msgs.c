// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv i2c transfer's command line as messages: DESC [BYTE...] ...,
 * DESC = {r|w}LENGTH[@ADDRESS] as i2c-tools' i2ctransfer writes it
 * ("w1@0x50 0x10 r8": write register pointer 0x10, read 8 bytes back,
 * one transaction). Strict: every number range-checked, a write's bytes
 * exactly LENGTH, nothing after the last message's bytes but a DESC.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/parse.h>

#include "cli.h"
#include "cmd_i2c.h"

static int why_fail(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -err;
}

/* DESC: 0 with its direction, length and address (-1 when none given). */
static int parse_desc(const char *s, bool force, bool *read, long *n, long *addr,
		      char *why, size_t len)
{
	char num[32];
	const char *at = strchr(s, '@');
	size_t nlen = at ? (size_t)(at - s) : strlen(s);
	uint64_t v = 0;
	int err;

	if ((s[0] != 'r' && s[0] != 'w') || nlen < 2 || nlen > sizeof(num))
		return why_fail(why, len, EINVAL,
				"'%s' is not a message: r or w, its length, @ADDRESS (w2@0x50, r8)",
				s);
	*read = s[0] == 'r';
	memcpy(num, s + 1, nlen - 1);
	num[nlen - 1] = '\0';
	err = udrv_parse_u64(num, UDRV_I2C_MSG_LEN_MAX, &v);
	*n = (long)v;
	if (err)
		return why_fail(why, len, -err, "message '%s': bad length '%s': 0..%d", s, num,
				UDRV_I2C_MSG_LEN_MAX);
	*addr = -1;
	if (!at)
		return 0;
	err = udrv_parse_u64(at + 1, force ? 0x7f : 0x77, &v);
	if (!err && !force && v < 0x03)
		err = -ERANGE;
	*addr = (long)v;
	if (err)
		return why_fail(why, len, -err, "message '%s': bad address '%s': 0x%02x..0x%02x%s",
				s, at + 1, force ? 0 : 3, force ? 0x7f : 0x77,
				force ? "" : " (0x00..0x7f when forced)");
	return 0;
}

/* The @n bytes of a write, from @argv. */
static int parse_data(char *const *argv, int left, long n, uint8_t *buf, const char *desc,
		      char *why, size_t len)
{
	long v;

	for (long i = 0; i < n; i++) {
		if (i >= left)
			return why_fail(why, len, EINVAL,
					"message '%s': %ld bytes to write, %ld given", desc, n, i);
		if (!cli_parse_int(argv[i], 0, 0xff, &v)) {
			buf[i] = (uint8_t)v;
			continue;
		}
		if (argv[i][0] == 'r' || argv[i][0] == 'w')
			return why_fail(why, len, EINVAL,
					"message '%s': %ld bytes to write, %ld given before '%s'",
					desc, n, i, argv[i]);
		return why_fail(why, len, EINVAL, "message '%s': bad byte '%s': 0x00..0xff",
				desc, argv[i]);
	}
	return 0;
}

static int parse_one(char *const *argv, int left, bool force, long *addr,
		     struct udrv_i2c_msg *m, char *why, size_t len)
{
	long n = 0, a = -1;
	bool read = false;
	int err = parse_desc(argv[0], force, &read, &n, &a, why, len);

	if (err)
		return err;
	if (a < 0 && *addr < 0)
		return why_fail(why, len, EINVAL, "message '%s': no address: the first "
				"message names it (%s@0x50)", argv[0], argv[0]);
	if (a >= 0)
		*addr = a;
	*m = (struct udrv_i2c_msg){ .addr = (uint16_t)*addr, .len = (uint16_t)n,
				    .flags = read ? UDRV_I2C_M_RD : 0 };
	m->buf = calloc(1, n ? (size_t)n : 1);
	if (!m->buf)
		return why_fail(why, len, ENOMEM, "out of memory");
	return read ? 0 : parse_data(argv + 1, left - 1, n, m->buf, argv[0], why, len);
}

static int i2c_msgs_fail(struct i2c_msgs *m, int err)
{
	i2c_msgs_free(m);
	return err;
}

int i2c_msgs_parse(int argc, char *const *argv, bool force, struct i2c_msgs *m,
		   char *why, size_t len)
{
	long addr = -1;
	int i = 0, err = 0;

	m->n = 0;
	if (argc < 1)
		return why_fail(why, len, EINVAL, "no message: r or w, its length, @ADDRESS");
	while (!err && i < argc) {
		struct udrv_i2c_msg *msg;

		if (m->n == UDRV_I2C_MSGS_MAX)
			return i2c_msgs_fail(m, why_fail(why, len, EINVAL, "more than %d "
				"messages (the kernel's limit of one transaction) at '%s'",
				UDRV_I2C_MSGS_MAX, argv[i]));
		msg = &m->msg[m->n];
		*msg = (struct udrv_i2c_msg){ 0 };
		err = parse_one(argv + i, argc - i, force, &addr, msg, why, len);
		if (msg->buf)
			m->n++;
		i += 1 + (msg->flags & UDRV_I2C_M_RD ? 0 : msg->len);
	}
	return err ? i2c_msgs_fail(m, err) : 0;
}

void i2c_msgs_free(struct i2c_msgs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->msg[i].buf);
	m->n = 0;
}
