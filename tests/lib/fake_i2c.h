/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake i2c-dev for tests/lib/test_i2c.c: the buses' nodes /dev/i2c-N as
 * regular files in the fake tree, their adapters and clients in its
 * /sys/bus/i2c/devices, and i2c-dev's ioctls on the nodes answered as Linux
 * 6.1 answers them (the test links with -Wl,--wrap=ioctl), by one device:
 * a register file at one address that keeps a register pointer, as an
 * EEPROM or a sensor does.
 */
#ifndef UDRV_TEST_FAKE_I2C_H
#define UDRV_TEST_FAKE_I2C_H

#include <stdbool.h>
#include <stdint.h>

struct fake_i2c {
	/* what the fake answers */
	unsigned long funcs;		/* I2C_FUNCS */
	unsigned int dev_addr;		/* the device's address; others: no ACK */
	bool dev_ten;			/* ... a 10-bit one */
	uint8_t regs[256];		/* its registers */
	uint8_t ptr;			/* its register pointer */
	unsigned int block_len;		/* what an SMBus block read says it sends */
	int fail_errno;			/* the next transfer fails with it (then 0) */
	bool slave_busy;		/* I2C_SLAVE: EBUSY (a driver bound meanwhile) */
	/* what the library did */
	unsigned int addr;		/* I2C_SLAVE, I2C_SLAVE_FORCE */
	bool forced, ten, pec;
	unsigned long retries, timeout;
	unsigned int transfers;		/* I2C_SMBUS and I2C_RDWR calls */
	unsigned int nmsgs;		/* of the last I2C_RDWR */
	int size;			/* of the last I2C_SMBUS */
};

extern struct fake_i2c fake_i2c;

/* A fresh fake root with bus @bus (its node, its adapter named @name) and
 * the device answering at 0x50 with every function but 10-bit, NOSTART,
 * protocol mangling and PEC. */
void fake_i2c_setup(unsigned int bus, const char *name);
/* Another adapter @bus named @name, with (@node) or without its node. */
void fake_i2c_adapter(unsigned int bus, const char *name, bool node);
/* A client of bus @bus at @addr (7-bit) bound to @driver. */
void fake_i2c_client(unsigned int bus, unsigned int addr, const char *driver);

#endif /* UDRV_TEST_FAKE_I2C_H */
