/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The I2C handle (i2c.c: the bus, its address, plain transfers; smbus.c:
 * the SMBus transactions).
 */
#ifndef UDRV_I2C_PRIV_H
#define UDRV_I2C_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <udrv/i2c.h>

#include "internal.h"

struct udrv_i2c {
	int fd;
	unsigned int bus;
	char dev[UDRV_PATH_LEN];	/* "/dev/i2c-1" (under the sysroot) */
	char name[64];			/* the adapter's ("" when sysfs has none) */
	uint64_t funcs;			/* I2C_FUNCS */
	/* funcs while the bus is open and an address set, else 0: the one
	 * check of a transaction's way (smbus.c) */
	uint64_t ready;
	bool has_addr;
	unsigned int addr;
	unsigned int addr_flags;	/* UDRV_I2C_TEN, UDRV_I2C_FORCE */
	char errmsg[UDRV_ERRMSG_LEN];
};

/* "i2c-1 (SMBus I801 adapter at f040)": the bus as messages name it. */
const char *udrv_i2c_label(const struct udrv_i2c *i2c, char *buf, size_t len);
/* 0, or -EOPNOTSUPP with the message: the adapter lacks @func (@what it
 * is for, @flag the kernel's name of the bit). */
int udrv_i2c_need(struct udrv_i2c *i2c, uint64_t func, const char *what, const char *flag);
/* The message for an ioctl's -@err talking to @addr: no answer, a busy
 * or timed out bus, a transfer the adapter refused. */
int udrv_i2c_io_err(struct udrv_i2c *i2c, int err, unsigned int addr, const char *what);

#endif /* UDRV_I2C_PRIV_H */
