// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake i2c-dev (fake_i2c.h): i2c-dev's ioctls on the fake tree's
 * /dev/i2c-N files, answered by one register-file device. What it checks
 * of the arguments is what drivers/i2c/i2c-dev.c checks before the bus.
 */
#include <errno.h>
#include <limits.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_i2c.h"
#include "harness.h"

struct fake_i2c fake_i2c;

#define ALL_BUT (I2C_FUNC_10BIT_ADDR | I2C_FUNC_NOSTART | \
		 I2C_FUNC_PROTOCOL_MANGLING | I2C_FUNC_SMBUS_PEC)

void fake_i2c_adapter(unsigned int bus, const char *name, bool node)
{
	char path[96], text[96];

	snprintf(path, sizeof(path), "sys/bus/i2c/devices/i2c-%u/name", bus);
	snprintf(text, sizeof(text), "%s\n", name);
	fake_file(path, text);
	if (node) {
		snprintf(path, sizeof(path), "dev/i2c-%u", bus);
		fake_file(path, "");
	}
}

void fake_i2c_setup(unsigned int bus, const char *name)
{
	fake_root();
	memset(&fake_i2c, 0, sizeof(fake_i2c));
	fake_i2c.funcs = I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | I2C_FUNC_SMBUS_READ_BLOCK_DATA |
			 I2C_FUNC_SMBUS_BLOCK_PROC_CALL;
	fake_i2c.funcs &= ~(unsigned long)ALL_BUT;
	fake_i2c.dev_addr = 0x50;
	fake_i2c.block_len = 4;
	for (unsigned int i = 0; i < sizeof(fake_i2c.regs); i++)
		fake_i2c.regs[i] = (uint8_t)(i ^ 0xa5);
	fake_i2c_adapter(bus, name, true);
}

void fake_i2c_client(unsigned int bus, unsigned int addr, const char *driver)
{
	char path[96], target[96];

	snprintf(path, sizeof(path), "sys/bus/i2c/devices/%u-%04x/name", bus, addr);
	fake_file(path, "chip\n");
	snprintf(path, sizeof(path), "sys/bus/i2c/devices/%u-%04x/driver", bus, addr);
	snprintf(target, sizeof(target), "../../../bus/i2c/drivers/%s", driver);
	fake_symlink(target, path);
}

/* Is @fd a node of the fake tree's /dev/i2c-N? */
static bool is_node(int fd)
{
	char link[64], path[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return strstr(path, "/dev/i2c-") != NULL;
}

/* Does the device answer at @addr (@ten: 10-bit)? A failure asked for
 * ends this transfer: -1 with errno. */
static int answers(unsigned int addr, bool ten)
{
	fake_i2c.transfers++;
	if (fake_i2c.fail_errno) {
		errno = fake_i2c.fail_errno;
		fake_i2c.fail_errno = 0;
		return -1;
	}
	if (addr != fake_i2c.dev_addr || ten != fake_i2c.dev_ten) {
		errno = ENXIO;
		return -1;
	}
	return 0;
}

static uint8_t next(void)
{
	return fake_i2c.regs[fake_i2c.ptr++];
}

static void put(const uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fake_i2c.regs[fake_i2c.ptr++] = buf[i];
}

static int smbus_block(struct i2c_smbus_ioctl_data *a)
{
	union i2c_smbus_data *d = a->data;
	uint8_t in[I2C_SMBUS_BLOCK_MAX + 2];

	switch (a->size) {
	case I2C_SMBUS_BLOCK_DATA:
		if (a->read_write == I2C_SMBUS_WRITE) {
			put(&d->block[1], d->block[0]);
			return 0;
		}
		d->block[0] = (uint8_t)fake_i2c.block_len;
		for (unsigned int i = 0; i < fake_i2c.block_len && i < I2C_SMBUS_BLOCK_MAX; i++)
			d->block[i + 1] = next();
		return 0;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		if (a->read_write == I2C_SMBUS_WRITE)
			put(&d->block[1], d->block[0]);
		else
			for (unsigned int i = 0; i < d->block[0]; i++)
				d->block[i + 1] = next();
		return 0;
	default:	/* block process call: the bytes back, reversed */
		memcpy(in, d->block, (size_t)d->block[0] + 1);
		for (unsigned int i = 0; i < in[0]; i++)
			d->block[i + 1] = in[in[0] - i];
		return 0;
	}
}

static int smbus(struct i2c_smbus_ioctl_data *a)
{
	union i2c_smbus_data *d = a->data;

	fake_i2c.size = (int)a->size;
	/* i2c-dev: data needed, but by a quick and a byte write */
	if (a->size != I2C_SMBUS_QUICK &&
	    !(a->size == I2C_SMBUS_BYTE && a->read_write == I2C_SMBUS_WRITE) && !d) {
		errno = EINVAL;
		return -1;
	}
	if ((a->size == I2C_SMBUS_BLOCK_DATA || a->size == I2C_SMBUS_I2C_BLOCK_DATA ||
	     a->size == I2C_SMBUS_BLOCK_PROC_CALL) && a->read_write == I2C_SMBUS_WRITE &&
	    d->block[0] > I2C_SMBUS_BLOCK_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (answers(fake_i2c.addr, fake_i2c.ten))
		return -1;
	if (a->size != I2C_SMBUS_QUICK && a->size != I2C_SMBUS_BYTE)
		fake_i2c.ptr = a->command;
	switch (a->size) {
	case I2C_SMBUS_QUICK:
		return 0;
	case I2C_SMBUS_BYTE:
		if (a->read_write == I2C_SMBUS_WRITE)
			fake_i2c.ptr = a->command;
		else
			d->byte = next();
		return 0;
	case I2C_SMBUS_BYTE_DATA:
		if (a->read_write == I2C_SMBUS_WRITE)
			put(&d->byte, 1);
		else
			d->byte = next();
		return 0;
	case I2C_SMBUS_WORD_DATA:
		if (a->read_write == I2C_SMBUS_WRITE) {
			fake_i2c.regs[a->command] = (uint8_t)(d->word & 0xff);
			fake_i2c.regs[(uint8_t)(a->command + 1)] = (uint8_t)(d->word >> 8);
		} else {
			uint8_t lo = next();	/* low byte first on the wire */

			d->word = (uint16_t)(lo | next() << 8);
		}
		return 0;
	case I2C_SMBUS_PROC_CALL:	/* the word back, inverted */
		d->word = (uint16_t)~d->word;
		return 0;
	default:
		return smbus_block(a);
	}
}

static int rdwr(struct i2c_rdwr_ioctl_data *a)
{
	fake_i2c.nmsgs = a->nmsgs;
	if (a->nmsgs > I2C_RDWR_IOCTL_MAX_MSGS) {
		errno = EINVAL;
		return -1;
	}
	for (unsigned int i = 0; i < a->nmsgs; i++) {
		struct i2c_msg *m = &a->msgs[i];

		if (m->len > 8192) {
			errno = EINVAL;
			return -1;
		}
		if (answers(m->addr, m->flags & I2C_M_TEN))
			return -1;
		fake_i2c.transfers--;	/* one transfer, however many messages */
		if (m->flags & I2C_M_RD) {
			for (unsigned int k = 0; k < m->len; k++)
				m->buf[k] = next();
		} else if (m->len) {
			fake_i2c.ptr = m->buf[0];
			put(m->buf + 1, (size_t)m->len - 1);
		}
	}
	fake_i2c.transfers++;
	return (int)a->nmsgs;
}

static int node_ioctl(unsigned long req, unsigned long arg)
{
	switch (req) {
	case I2C_FUNCS:
		*(unsigned long *)arg = fake_i2c.funcs;
		return 0;
	case I2C_SLAVE:
	case I2C_SLAVE_FORCE:
		if (arg > (fake_i2c.ten ? 0x3ffUL : 0x7fUL) ||
		    (req == I2C_SLAVE && fake_i2c.slave_busy)) {
			errno = arg > 0x3ff ? EINVAL : EBUSY;
			return -1;
		}
		fake_i2c.addr = (unsigned int)arg;
		fake_i2c.forced = req == I2C_SLAVE_FORCE;
		return 0;
	case I2C_TENBIT:
		fake_i2c.ten = arg != 0;
		return 0;
	case I2C_PEC:
		fake_i2c.pec = arg != 0;
		return 0;
	case I2C_RETRIES:
		fake_i2c.retries = arg;
		return 0;
	case I2C_TIMEOUT:
		fake_i2c.timeout = arg;
		return 0;
	case I2C_SMBUS:
		return smbus((struct i2c_smbus_ioctl_data *)arg);
	case I2C_RDWR:
		return rdwr((struct i2c_rdwr_ioctl_data *)arg);
	default:
		errno = ENOTTY;
		return -1;
	}
}

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!is_node(fd))
		return __real_ioctl(fd, req, arg);
	return node_ioctl(req, arg);
}
