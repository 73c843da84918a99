// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An I2C bus through i2c-dev: found by number, node or adapter name, its
 * functionality read once; the device address (refused where a kernel
 * driver uses it, unless forced); plain transfers (I2C_RDWR); retries and
 * timeout. The SMBus transactions are smbus.c's.
 *
 * The adapters are /sys/bus/i2c/devices/i2c-N (their name file), their
 * clients N-00AA (10-bit: N-a0AA), a client's driver its driver link: what
 * i2c-core registers whether or not i2c-dev is loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <udrv/chip.h>

#include "i2c/i2c_priv.h"

#define I2C_DEVICES	"/sys/bus/i2c/devices"
#define RETRIES_MAX	1000
#define TIMEOUT_MS_MIN	10
#define TIMEOUT_MS_MAX	600000
/* the flags a message may carry (and what the adapter needs for each) */
#define MSG_FLAGS	(UDRV_I2C_M_RD | UDRV_I2C_M_TEN | UDRV_I2C_M_NOSTART | \
			 UDRV_I2C_M_IGNORE_NAK | UDRV_I2C_M_STOP)

struct udrv_i2c *udrv_i2c_new(void)
{
	struct udrv_i2c *i2c = calloc(1, sizeof(*i2c));

	if (i2c)
		i2c->fd = -1;
	return i2c;
}

void udrv_i2c_close(struct udrv_i2c *i2c)
{
	if (!i2c)
		return;
	if (i2c->fd >= 0)
		close(i2c->fd);
	i2c->fd = -1;
	i2c->has_addr = false;
	i2c->ready = 0;
}

void udrv_i2c_free(struct udrv_i2c *i2c)
{
	udrv_i2c_close(i2c);
	free(i2c);
}

const char *udrv_i2c_errmsg(const struct udrv_i2c *i2c)
{
	return i2c->errmsg;
}

unsigned int udrv_i2c_bus(const struct udrv_i2c *i2c)
{
	return i2c->bus;
}

const char *udrv_i2c_name(const struct udrv_i2c *i2c)
{
	return i2c->name;
}

int udrv_i2c_fd(const struct udrv_i2c *i2c)
{
	return i2c->fd;
}

uint64_t udrv_i2c_funcs(const struct udrv_i2c *i2c)
{
	return i2c->funcs;
}

const char *udrv_i2c_label(const struct udrv_i2c *i2c, char *buf, size_t len)
{
	if (i2c->name[0])
		snprintf(buf, len, "i2c-%u (%s)", i2c->bus, i2c->name);
	else
		snprintf(buf, len, "i2c-%u", i2c->bus);
	return buf;
}

int udrv_i2c_need(struct udrv_i2c *i2c, uint64_t func, const char *what, const char *flag)
{
	char label[128];

	if ((i2c->funcs & func) == func)
		return 0;
	return udrv_err(i2c->errmsg, EOPNOTSUPP,
			"%s cannot do %s: its functionality lacks %s (its driver or controller does not offer it)",
			udrv_i2c_label(i2c, label, sizeof(label)), what, flag);
}

int udrv_i2c_io_err(struct udrv_i2c *i2c, int err, unsigned int addr, const char *what)
{
	char label[128];

	udrv_i2c_label(i2c, label, sizeof(label));
	switch (err) {
	case ENXIO:
	case EREMOTEIO:
		return udrv_err(i2c->errmsg, ENXIO,
				"%s: %s: no device answered at 0x%02x (no ACK): check the address and the wiring, and that the device is powered",
				label, what, addr);
	case ENODEV:
		return udrv_err(i2c->errmsg, ENODEV,
				"%s: %s at 0x%02x: no such device (what an adapter such as i2c-stub says where no device answers; or the adapter is gone): check the address",
				label, what, addr);
	case ETIMEDOUT:
		return udrv_err(i2c->errmsg, ETIMEDOUT,
				"%s: %s at 0x%02x: the bus timed out (a device holding SDA or SCL low, or a missing pull-up)",
				label, what, addr);
	case EAGAIN:
		return udrv_err(i2c->errmsg, EAGAIN,
				"%s: %s at 0x%02x: lost arbitration or the bus was busy: try again",
				label, what, addr);
	case EBADMSG:
		return udrv_err(i2c->errmsg, EBADMSG,
				"%s: %s at 0x%02x: the PEC byte did not match (noise on the bus, or a device without PEC)",
				label, what, addr);
	case EOPNOTSUPP:
	case EINVAL:
		return udrv_err(i2c->errmsg, err,
				"%s: %s at 0x%02x: the adapter's driver refused it (%s)",
				label, what, addr, strerror(err));
	default:
		return udrv_err(i2c->errmsg, err, "%s: %s at 0x%02x: %s",
				label, what, addr, strerror(err));
	}
}

/* The bus the adapter name @spec names: 0, -ENOENT (none), -EINVAL (two). */
static int bus_by_name(struct udrv_i2c *i2c, const char *spec, unsigned int *bus)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN], name[sizeof(i2c->name)];
	char **names = NULL;
	int n, found = 0;

	if (udrv_path(dir, sizeof(dir), I2C_DEVICES))
		return udrv_path_err(i2c->errmsg, I2C_DEVICES);
	n = udrv_list_numbered(dir, "i2c-", &names);
	for (int i = 0; i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/%s/name", dir, names[i]) >= (int)sizeof(path) ||
		    udrv_read_text(path, name, sizeof(name)) < 0 || strcmp(name, spec))
			continue;
		if (found++) {
			udrv_strv_free(names);
			return udrv_err(i2c->errmsg, EINVAL,
					"two I2C adapters are named '%s' (i2c-%u and another): give the bus by number",
					spec, *bus);
		}
		if (udrv_parse_devnum(names[i], "i2c-", bus))
			found = 0;
	}
	udrv_strv_free(names);
	if (found)
		return 0;
	return udrv_err(i2c->errmsg, ENOENT,
			"no I2C bus '%s': give its number (1), node (i2c-1, /dev/i2c-1) or its adapter's name as %s/i2c-N/name says it",
			spec, I2C_DEVICES);
}

static int bus_of(struct udrv_i2c *i2c, const char *spec, unsigned int *bus)
{
	int err;

	if (!spec || !*spec)
		return udrv_err(i2c->errmsg, EINVAL,
				"no I2C bus given: a number (1), a node (i2c-1, /dev/i2c-1) or an adapter's name");
	err = udrv_parse_devnum(spec, "i2c-", bus);
	if (err == -ERANGE)
		return udrv_err(i2c->errmsg, ERANGE, "I2C bus '%s': number out of range", spec);
	return err ? bus_by_name(i2c, spec, bus) : 0;
}

/* Why /dev/i2c-N could not be opened, and the fix. */
static int open_err(struct udrv_i2c *i2c, int err)
{
	char hint[UDRV_ERRMSG_LEN], adapter[UDRV_PATH_LEN];

	if (err == ENOENT && !udrv_path(adapter, sizeof(adapter), I2C_DEVICES "/i2c-%u", i2c->bus) &&
	    udrv_path_exists(adapter))
		return udrv_err(i2c->errmsg, ENOENT,
				"%s does not exist, but the adapter i2c-%u does: load i2c-dev (modprobe i2c-dev; on a Raspberry Pi enable I2C: dtparam=i2c_arm=on)",
				i2c->dev, i2c->bus);
	if (err == ENOENT)
		return udrv_err(i2c->errmsg, ENOENT,
				"no I2C bus %u: %s and %s/i2c-%u do not exist (udrv_i2c_list() gives the buses there are)",
				i2c->bus, i2c->dev, I2C_DEVICES, i2c->bus);
	udrv_access_hint(hint, sizeof(hint), err, i2c->dev);
	return udrv_err(i2c->errmsg, err, "cannot open %s: %s (%s)", i2c->dev, strerror(err),
			hint);
}

static void read_name(struct udrv_i2c *i2c)
{
	char path[UDRV_PATH_LEN];

	i2c->name[0] = '\0';
	if (udrv_path(path, sizeof(path), I2C_DEVICES "/i2c-%u/name", i2c->bus) ||
	    udrv_read_text(path, i2c->name, sizeof(i2c->name)) < 0)
		i2c->name[0] = '\0';
}

/* udrv_i2c_open(), or udrv_i2c_open_fd() when @fd >= 0 (the handle owns
 * it on success only). */
static int open_spec(struct udrv_i2c *i2c, const char *spec, int fd)
{
	unsigned long funcs = 0;
	unsigned int bus;
	int err;

	udrv_i2c_close(i2c);
	err = bus_of(i2c, spec, &bus);
	if (err)
		return err;
	i2c->bus = bus;
	if (udrv_path(i2c->dev, sizeof(i2c->dev), "/dev/i2c-%u", bus))
		return udrv_path_err(i2c->errmsg, "/dev/i2c-N");
	if (fd >= 0) {
		err = udrv_fd_is(fd, i2c->dev);
		if (err == -ENOENT)
			return open_err(i2c, ENOENT);
		if (err)
			return udrv_err(i2c->errmsg, -err, "the file descriptor %d is not %s: %s",
					fd, i2c->dev, strerror(-err));
		i2c->fd = fd;
	} else {
		i2c->fd = open(i2c->dev, O_RDWR | O_CLOEXEC);
		if (i2c->fd < 0)
			return open_err(i2c, errno);
	}
	read_name(i2c);
	if (ioctl(i2c->fd, I2C_FUNCS, &funcs) < 0) {
		err = errno;
		if (fd < 0)
			close(i2c->fd);
		i2c->fd = -1;
		return udrv_err(i2c->errmsg, err,
				"%s: reading the adapter's functionality (I2C_FUNCS) failed: %s: is it an i2c-dev node?",
				i2c->dev, strerror(err));
	}
	i2c->funcs = funcs;
	i2c->errmsg[0] = '\0';
	return 0;
}

int udrv_i2c_open(struct udrv_i2c *i2c, const char *spec)
{
	return open_spec(i2c, spec, -1);
}

int udrv_i2c_open_fd(struct udrv_i2c *i2c, const char *spec, int fd)
{
	if (fd < 0) {
		udrv_i2c_close(i2c);
		return udrv_err(i2c->errmsg, EBADF,
				"no file descriptor given for I2C bus '%s' (%d)", spec ? spec : "", fd);
	}
	return open_spec(i2c, spec, fd);
}

/* The driver of the client at @addr on the bus into @drv ("" none). */
static void client_driver(const struct udrv_i2c *i2c, unsigned int addr, bool ten,
			  char *client, size_t clen, char *drv, size_t dlen)
{
	char path[UDRV_PATH_LEN];

	snprintf(client, clen, "%u-%04x", i2c->bus, ten ? addr | 0xa000 : addr);
	drv[0] = '\0';
	if (udrv_path(path, sizeof(path), I2C_DEVICES "/%s/driver", client) ||
	    udrv_link_name(path, drv, dlen) < 0)
		drv[0] = '\0';
}

/* -EBUSY when a kernel driver uses @addr (and the message), else 0. */
static int check_unused(struct udrv_i2c *i2c, unsigned int addr, bool ten)
{
	char client[32], drv[64], label[128];

	client_driver(i2c, addr, ten, client, sizeof(client), drv, sizeof(drv));
	if (!drv[0])
		return 0;
	return udrv_err(i2c->errmsg, EBUSY,
			"%s: address 0x%02x is used by the kernel's driver %s (client %s): unbind it first (echo %s > /sys/bus/i2c/drivers/%s/unbind), or force the address (UDRV_I2C_FORCE) knowing that the driver talks to the device too",
			udrv_i2c_label(i2c, label, sizeof(label)), addr, drv, client, client, drv);
}

static int check_address(struct udrv_i2c *i2c, unsigned int addr, unsigned int flags)
{
	char label[128];

	if (flags & ~(unsigned int)(UDRV_I2C_TEN | UDRV_I2C_FORCE))
		return udrv_err(i2c->errmsg, EINVAL, "%s: unknown address flags 0x%x",
				udrv_i2c_label(i2c, label, sizeof(label)), flags);
	if (flags & UDRV_I2C_TEN) {
		if (addr > 0x3ff)
			return udrv_err(i2c->errmsg, ERANGE,
					"%s: 0x%x is not a 10-bit address (0x000-0x3ff)",
					udrv_i2c_label(i2c, label, sizeof(label)), addr);
		return udrv_i2c_need(i2c, I2C_FUNC_10BIT_ADDR, "10-bit addresses",
				     "I2C_FUNC_10BIT_ADDR");
	}
	if (addr > 0x7f)
		return udrv_err(i2c->errmsg, ERANGE,
				"%s: 0x%x is not a 7-bit address (0x03-0x77; a 10-bit one: UDRV_I2C_TEN)",
				udrv_i2c_label(i2c, label, sizeof(label)), addr);
	if ((addr < 0x03 || addr > 0x77) && !(flags & UDRV_I2C_FORCE))
		return udrv_err(i2c->errmsg, ERANGE,
				"%s: 0x%02x is a reserved address (0x00-0x02: general call, CBUS, other buses; 0x78-0x7f: 10-bit and future use): devices use 0x03-0x77; force it with UDRV_I2C_FORCE",
				udrv_i2c_label(i2c, label, sizeof(label)), addr);
	return 0;
}

int udrv_i2c_set_address(struct udrv_i2c *i2c, unsigned int addr, unsigned int flags)
{
	bool ten = flags & UDRV_I2C_TEN;
	int err;

	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	err = check_address(i2c, addr, flags);
	if (!err && !(flags & UDRV_I2C_FORCE))
		err = check_unused(i2c, addr, ten);
	if (err)
		return err;
	if (ioctl(i2c->fd, I2C_TENBIT, (unsigned long)ten) < 0)
		return udrv_i2c_io_err(i2c, errno, addr, ten ? "10-bit addressing" : "7-bit addressing");
	if (ioctl(i2c->fd, (flags & UDRV_I2C_FORCE) ? I2C_SLAVE_FORCE : I2C_SLAVE,
		  (unsigned long)addr) < 0) {
		err = errno;
		if (err == EBUSY && check_unused(i2c, addr, ten))
			return -EBUSY;
		if (err == EBUSY)
			return udrv_err(i2c->errmsg, EBUSY,
					"%s: address 0x%02x is in use by a kernel driver: unbind it, or force the address (UDRV_I2C_FORCE)",
					i2c->dev, addr);
		return udrv_i2c_io_err(i2c, err, addr, "setting the address");
	}
	i2c->has_addr = true;
	i2c->addr = addr;
	i2c->addr_flags = flags;
	i2c->ready = i2c->funcs;
	return 0;
}

int udrv_i2c_set_retries(struct udrv_i2c *i2c, unsigned int retries)
{
	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	if (retries > RETRIES_MAX)
		return udrv_err(i2c->errmsg, ERANGE, "%s: %u retries: at most %u", i2c->dev,
				retries, RETRIES_MAX);
	if (ioctl(i2c->fd, I2C_RETRIES, (unsigned long)retries) < 0)
		return udrv_err(i2c->errmsg, errno, "%s: setting the retries (I2C_RETRIES): %s",
				i2c->dev, strerror(errno));
	return 0;
}

int udrv_i2c_set_timeout_ms(struct udrv_i2c *i2c, unsigned int ms)
{
	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	if (ms < TIMEOUT_MS_MIN || ms > TIMEOUT_MS_MAX)
		return udrv_err(i2c->errmsg, ERANGE, "%s: timeout %u ms: %u..%u ms (in steps of 10 ms)",
				i2c->dev, ms, TIMEOUT_MS_MIN, TIMEOUT_MS_MAX);
	if (ioctl(i2c->fd, I2C_TIMEOUT, (unsigned long)((ms + 9) / 10)) < 0)
		return udrv_err(i2c->errmsg, errno, "%s: setting the timeout (I2C_TIMEOUT): %s",
				i2c->dev, strerror(errno));
	return 0;
}

/* Message @i of a transfer as the adapter and the kernel take it: 0 or
 * the error (nothing is sent). */
static int check_msg(struct udrv_i2c *i2c, const struct udrv_i2c_msg *m, size_t i)
{
	bool ten = m->flags & UDRV_I2C_M_TEN;
	char label[128];
	int err;

	if (m->flags & ~(unsigned int)MSG_FLAGS)
		return udrv_err(i2c->errmsg, EINVAL, "%s: message %zu: unknown flags 0x%x",
				udrv_i2c_label(i2c, label, sizeof(label)), i,
				m->flags & ~(unsigned int)MSG_FLAGS);
	if (m->len > UDRV_I2C_MSG_LEN_MAX || (m->len && !m->buf))
		return udrv_err(i2c->errmsg, EINVAL,
				"%s: message %zu: %u bytes%s: at most %u, with a buffer",
				udrv_i2c_label(i2c, label, sizeof(label)), i, m->len,
				m->buf ? "" : " without a buffer", UDRV_I2C_MSG_LEN_MAX);
	if (m->addr > (ten ? 0x3ffu : 0x7fu))
		return udrv_err(i2c->errmsg, ERANGE, "%s: message %zu: 0x%x is not a %s address",
				udrv_i2c_label(i2c, label, sizeof(label)), i, m->addr,
				ten ? "10-bit" : "7-bit");
	err = ten ? udrv_i2c_need(i2c, I2C_FUNC_10BIT_ADDR, "10-bit addresses",
				  "I2C_FUNC_10BIT_ADDR") : 0;
	if (!err && (m->flags & UDRV_I2C_M_NOSTART))
		err = udrv_i2c_need(i2c, I2C_FUNC_NOSTART, "a message without a start",
				    "I2C_FUNC_NOSTART");
	if (!err && (m->flags & UDRV_I2C_M_IGNORE_NAK))
		err = udrv_i2c_need(i2c, I2C_FUNC_PROTOCOL_MANGLING, "ignoring a NAK",
				    "I2C_FUNC_PROTOCOL_MANGLING");
	/* a device the kernel drives: refused, but at the handle's address,
	 * which udrv_i2c_set_address() checked (or was told to force) as it
	 * does for the SMBus calls; any other address is looked up each time */
	if (!err && !(i2c->has_addr && i2c->addr == m->addr &&
		      !(i2c->addr_flags & UDRV_I2C_TEN) == !ten))
		err = check_unused(i2c, m->addr, ten);
	return err;
}

int udrv_i2c_transfer(struct udrv_i2c *i2c, struct udrv_i2c_msg *msgs, size_t n)
{
	struct i2c_msg km[UDRV_I2C_MSGS_MAX];
	struct i2c_rdwr_ioctl_data data = { .msgs = km, .nmsgs = (__u32)n };
	char label[128];
	int err, ret;

	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	if (!n || n > UDRV_I2C_MSGS_MAX || !msgs)
		return udrv_err(i2c->errmsg, EINVAL, "%s: %zu messages: 1..%d in one transfer",
				udrv_i2c_label(i2c, label, sizeof(label)), n, UDRV_I2C_MSGS_MAX);
	err = udrv_i2c_need(i2c, I2C_FUNC_I2C, "plain I2C transfers", "I2C_FUNC_I2C");
	for (size_t i = 0; !err && i < n; i++) {
		err = check_msg(i2c, &msgs[i], i);
		km[i] = (struct i2c_msg){ .addr = msgs[i].addr, .flags = msgs[i].flags,
					  .len = msgs[i].len, .buf = msgs[i].buf };
	}
	if (err)
		return err;
	ret = ioctl(i2c->fd, I2C_RDWR, &data);
	if (ret < 0)
		return udrv_i2c_io_err(i2c, errno, msgs[0].addr, "transfer");
	return ret;
}

int udrv_i2c_list(char ***names)
{
	char dir[UDRV_PATH_LEN];
	int n;

	*names = NULL;
	if (udrv_path(dir, sizeof(dir), I2C_DEVICES))
		return -ENAMETOOLONG;
	n = udrv_list_numbered(dir, "i2c-", names);
	return n == -ENOENT ? 0 : n;
}
