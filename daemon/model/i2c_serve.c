// SPDX-License-Identifier: GPL-2.0-only
/*
 * I2C transfers udrvd makes for its callers (i2c_serve.h): the messages
 * checked for what one I2C_RDWR may be, the bus opened and identified by
 * its node's dev_t (sysfs_buses.h), every address checked against the
 * rules in force at the call, then the transfer through libudrv, which
 * refuses an address a kernel driver uses. Nothing is sent unless every
 * message passes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/i2c.h>

#include "i2c_serve.h"
#include "sysfs_buses.h"

int udrvd_i2c_msgs_check(const struct udrvd_i2c_msg *msgs, size_t n, size_t *read_total,
			 struct udrvd_err *e)
{
	size_t total = 0, reads = 0;

	if (!n || n > UDRVD_I2C_MSGS_MAX)
		return udrvd_fail(e, -EINVAL, "%zu messages: a transfer has 1 to %d", n,
				  UDRVD_I2C_MSGS_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct udrvd_i2c_msg *m = &msgs[i];
		bool rd = m->flags & UDRVD_I2C_RD;
		bool ten = m->flags & UDRVD_I2C_TEN;

		if (m->flags & ~(unsigned int)UDRVD_I2C_FLAGS)
			return udrvd_fail(e, -EINVAL,
					  "message %zu: flags 0x%x: a message takes 0x1 (read), 0x10 (a 10-bit address) and 0x8000 (a stop after it) only",
					  i, m->flags);
		if (m->addr > (ten ? 0x3ffu : 0x7fu))
			return udrvd_fail(e, -EINVAL, "message %zu: 0x%x is not a %s address",
					  i, m->addr, ten ? "10-bit" : "7-bit (flag 0x10 for 10-bit)");
		if (m->len > UDRVD_I2C_MSG_LEN_MAX)
			return udrvd_fail(e, -EINVAL, "message %zu: %u bytes: at most %d",
					  i, m->len, UDRVD_I2C_MSG_LEN_MAX);
		if (rd && m->data_len)
			return udrvd_fail(e, -EINVAL,
					  "message %zu: a read (flag 0x1) with %zu bytes to write: a read gives its length, no bytes",
					  i, m->data_len);
		if (!rd && m->len != m->data_len)
			return udrvd_fail(e, -EINVAL,
					  "message %zu: a write of %zu bytes whose length says %u: give the bytes' count",
					  i, m->data_len, m->len);
		total += m->len;
		reads += rd ? m->len : 0;
	}
	if (total > UDRVD_I2C_TOTAL_MAX)
		return udrvd_fail(e, -EINVAL, "%zu bytes in the messages together: at most %d",
				  total, UDRVD_I2C_TOTAL_MAX);
	*read_total = reads;
	return 0;
}

/* @bus opened into @i2c, identified into @id: 0, or -errno and @e. */
static int open_bus(struct udrv_i2c *i2c, const char *bus, struct udrvd_bus_id *id,
		    struct udrvd_err *e)
{
	char why[256];
	int err;

	if (!*bus || strlen(bus) >= UDRVD_NAME_MAX)
		return udrvd_fail(e, -EINVAL,
				  "'%.64s' is no I2C bus: its number, i2c-N or its adapter's name, shorter than %d bytes",
				  bus, UDRVD_NAME_MAX);
	err = udrv_i2c_open(i2c, bus);
	if (err < 0)
		return udrvd_fail(e, err, "%s", udrv_i2c_errmsg(i2c));
	err = udrvd_i2c_identify(udrv_i2c_fd(i2c), id, why, sizeof(why));
	if (err)
		return udrvd_fail(e, -ENOENT, "/dev/i2c-%u %s", udrv_i2c_bus(i2c), why);
	if (id->bus != udrv_i2c_bus(i2c))	/* a stale node, or another bus's since */
		return udrvd_fail(e, -ENOENT, "/dev/i2c-%u is now the node of %s: ask again",
				  udrv_i2c_bus(i2c), id->node);
	return 0;
}

/* May @caller reach @addr of @id? 0 or -EACCES and @e. */
static int check_addr(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		      const struct udrvd_bus_id *id, unsigned int addr, bool ten,
		      struct udrvd_err *e)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_bus_dev dev = udrvd_bus_dev_of(id);

	if (udrvd_policy_i2c(policy, caller, &dev, addr, ten, msg))
		return udrvd_fail(e, -EACCES, "%s", msg);
	return 0;
}

/* libudrv's refusal or failure on @i2c: an address a kernel driver uses
 * (-EBUSY) is refused as the policy's refusals are. */
static int lib_err(struct udrv_i2c *i2c, int err, struct udrvd_err *e)
{
	return udrvd_fail(e, err == -EBUSY ? -EACCES : err, "%s", udrv_i2c_errmsg(i2c));
}

int udrvd_i2c_transfer(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		       const char *bus, const struct udrvd_i2c_msg *msgs, size_t n,
		       uint8_t **reads, size_t *reads_len, struct udrvd_err *e)
{
	struct udrv_i2c_msg km[UDRVD_I2C_MSGS_MAX];
	struct udrvd_bus_id id;
	struct udrv_i2c *i2c;
	size_t rtotal = 0, total = 0, at = 0;
	uint8_t *buf = NULL;
	int err = udrvd_i2c_msgs_check(msgs, n, &rtotal, e);

	*reads = NULL;
	*reads_len = 0;
	if (err)
		return err;
	i2c = udrv_i2c_new();
	if (!i2c)
		return udrvd_fail(e, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		total += msgs[i].len;
	err = open_bus(i2c, bus, &id, e);
	/* every message's address, before anything is sent */
	for (size_t i = 0; !err && i < n; i++)
		err = check_addr(policy, caller, &id, msgs[i].addr,
				 msgs[i].flags & UDRVD_I2C_TEN, e);
	if (!err) {
		buf = malloc(total ? total : 1);
		if (!buf)
			err = udrvd_fail(e, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; !err && i < n; i++) {
		km[i] = (struct udrv_i2c_msg){ .addr = (uint16_t)msgs[i].addr,
					       .flags = (uint16_t)msgs[i].flags,
					       .len = (uint16_t)msgs[i].len,
					       .buf = msgs[i].len ? buf + at : NULL };
		if (!(msgs[i].flags & UDRVD_I2C_RD) && msgs[i].len)
			memcpy(buf + at, msgs[i].data, msgs[i].len);
		at += msgs[i].len;
	}
	if (!err) {
		err = udrv_i2c_transfer(i2c, km, n);
		err = err < 0 ? lib_err(i2c, err, e) : 0;
	}
	if (!err && rtotal) {
		*reads = malloc(rtotal);
		if (!*reads)
			err = udrvd_fail(e, -ENOMEM, "out of memory");
		for (size_t i = 0, r = 0; !err && i < n; i++) {
			if (!(msgs[i].flags & UDRVD_I2C_RD) || !km[i].len)
				continue;
			memcpy(*reads + r, km[i].buf, km[i].len);
			r += km[i].len;
		}
		*reads_len = err ? 0 : rtotal;
	}
	free(buf);
	udrv_i2c_free(i2c);
	return err;
}

static int smbus_op(struct udrv_i2c *i2c, enum udrvd_smbus_op op, uint8_t reg, uint16_t value,
		    uint16_t *out)
{
	uint8_t b = 0;
	int err;

	switch (op) {
	case UDRVD_SMBUS_READ_BYTE_DATA:
		err = udrv_i2c_smbus_read_byte_data(i2c, reg, &b);
		*out = b;
		return err;
	case UDRVD_SMBUS_WRITE_BYTE_DATA:
		return udrv_i2c_smbus_write_byte_data(i2c, reg, (uint8_t)value);
	case UDRVD_SMBUS_READ_WORD_DATA:
		return udrv_i2c_smbus_read_word_data(i2c, reg, out);
	case UDRVD_SMBUS_WRITE_WORD_DATA:
		return udrv_i2c_smbus_write_word_data(i2c, reg, value);
	}
	return -EINVAL;
}

int udrvd_i2c_smbus(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		    const char *bus, unsigned int addr, enum udrvd_smbus_op op, uint8_t reg,
		    uint16_t value, uint16_t *out, struct udrvd_err *e)
{
	struct udrvd_bus_id id;
	struct udrv_i2c *i2c;
	int err;

	*out = 0;
	if (addr < 0x03 || addr > 0x77)
		return udrvd_fail(e, -EINVAL,
				  "0x%x: an SMBus call takes a device's 7-bit address, 0x03-0x77 (others: Transfer)",
				  addr);
	i2c = udrv_i2c_new();
	if (!i2c)
		return udrvd_fail(e, -ENOMEM, "out of memory");
	err = open_bus(i2c, bus, &id, e);
	if (!err)
		err = check_addr(policy, caller, &id, addr, false, e);
	if (!err) {
		err = udrv_i2c_set_address(i2c, addr, 0);
		if (!err)
			err = smbus_op(i2c, op, reg, value, out);
		err = err < 0 ? lib_err(i2c, err, e) : 0;
	}
	udrv_i2c_free(i2c);
	return err;
}
