/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * I2C transfers udrvd makes for its callers (i2c_serve.c), for
 * io.udrv1.I2c (bus/i2c.c): plain C.
 *
 * A rule `transfer i2c BUS ADDRESS[-ADDRESS]` grants addresses of a bus, not
 * the bus: an i2c-dev fd would let its holder talk to any address, the
 * kernel's devices included (I2C_SLAVE_FORCE needs no capability), so udrvd
 * keeps the fd and makes the transfers, each message's address checked
 * against the rules in force at the call.
 */
#ifndef UDRVD_I2C_SERVE_H
#define UDRVD_I2C_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "policy.h"

/* the kernel's limits of one I2C_RDWR, and udrvd's of one call */
#define UDRVD_I2C_MSGS_MAX	42
#define UDRVD_I2C_MSG_LEN_MAX	8192
#define UDRVD_I2C_TOTAL_MAX	65536	/* the bytes of a call's messages together */
/* what a message may say: the kernel's I2C_M_RD, I2C_M_TEN, I2C_M_STOP */
#define UDRVD_I2C_RD		0x0001
#define UDRVD_I2C_TEN		0x0010
#define UDRVD_I2C_STOP		0x8000
#define UDRVD_I2C_FLAGS		(UDRVD_I2C_RD | UDRVD_I2C_TEN | UDRVD_I2C_STOP)

/* A message as a caller gives it: a read of @len bytes (no @data), or a
 * write of @data (@len its size). */
struct udrvd_i2c_msg {
	unsigned int addr;
	unsigned int flags;	/* UDRVD_I2C_* */
	unsigned int len;
	const uint8_t *data;
	size_t data_len;
};

/*
 * Are @n messages what one transfer may be: 1..UDRVD_I2C_MSGS_MAX, each
 * with known flags, an address of its width (7 or 10 bits), at most
 * UDRVD_I2C_MSG_LEN_MAX bytes, a read without data and a write whose length
 * is its data's, UDRVD_I2C_TOTAL_MAX bytes together? 0 and the bytes the
 * reads take in *@read_total, or -EINVAL and @e naming the message.
 */
int udrvd_i2c_msgs_check(const struct udrvd_i2c_msg *msgs, size_t n, size_t *read_total,
			 struct udrvd_err *e);

/*
 * The transfer of @msgs on bus @bus (as udrv_i2c_open() takes it) for
 * @caller: the bus opened and identified by its node's dev_t, every
 * message's address checked against @policy, then one I2C_RDWR through
 * libudrv (which refuses an address a kernel driver uses). The reads'
 * bytes, in order, into *@reads (malloc'd, *@reads_len of them). 0, or a
 * negative errno and @e: -EINVAL bad messages, -EACCES an address the
 * policy does not grant or a kernel driver uses, -ENOENT no such bus,
 * libudrv's errno for the rest (-ENXIO: no answer).
 */
int udrvd_i2c_transfer(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		       const char *bus, const struct udrvd_i2c_msg *msgs, size_t n,
		       uint8_t **reads, size_t *reads_len, struct udrvd_err *e);

enum udrvd_smbus_op {
	UDRVD_SMBUS_READ_BYTE_DATA,
	UDRVD_SMBUS_WRITE_BYTE_DATA,
	UDRVD_SMBUS_READ_WORD_DATA,
	UDRVD_SMBUS_WRITE_WORD_DATA,
};

/* One SMBus transaction @op at 7-bit address @addr (0x03-0x77) of @bus,
 * register @reg, writing @value or reading into *@out; checked as
 * udrvd_i2c_transfer()'s messages are. */
int udrvd_i2c_smbus(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		    const char *bus, unsigned int addr, enum udrvd_smbus_op op, uint8_t reg,
		    uint16_t value, uint16_t *out, struct udrvd_err *e);

#endif /* UDRVD_I2C_SERVE_H */
