// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake i2c-dev for the CLI tests (test_cli_i2c.py), preloaded (LD_PRELOAD)
 * into udrv: i2c-dev's ioctls on the regular files dev/i2c-N of the fake
 * tree UDRV_SYSROOT points at, as Linux 6.1 answers them.
 *
 * The node:		256 bytes, the registers of the bus's one device;
 *			written through, so that the next udrv sees them
 * Its device:		dev/i2c-N.addr next to it: the device's 7-bit
 *			address in hex ("50"); without it no device answers
 * Its adapter:		plain I2C and the SMBus transactions i2c-core
 *			emulates (no SMBus block read or block process call),
 *			no 10-bit addresses, no PEC; dev/i2c-N.funcs next to it
 *			(hex) says otherwise
 * Its log:		dev/i2c-N.log, one line per transaction the bus saw
 *			("quick-write 0x50", "read-byte 0x51"...; "rdwr-read
 *			0x50" per message of an I2C_RDWR), and per setting
 *			("retries 0x03", "timeout 0x0a" in jiffies of 10 ms,
 *			"pec 0x00"): what the test checks of the probes
 * A broken bus:	with dev/i2c-N.lazy there, every read succeeds and
 *			returns nothing (the caller's buffer as it was): what
 *			udrv-bench i2c's check must see
 *
 * The device's registers as the SMBus calls see them: a byte, word or I2C
 * block at the register and on; a process call writes its word and
 * answers the word at register + 2; an SMBus block is read as the count at
 * the register and that many bytes after it, written as its bytes from the
 * register on; a block process call writes its block so and answers the
 * block reversed. A plain I2C write's first byte is the register pointer,
 * its other bytes written from there; a read reads from the pointer on.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define FDS	1024

static unsigned int slave[FDS];		/* the address set on each fd */

static int (*real_ioctl)(int, unsigned long, ...);
static unsigned int pointer;		/* the register pointer of I2C_RDWR */

/* The node behind @fd (its path in @path), if it is one of the fake's. */
/* fstatat(): the file as it is, also where udrvd's tests preload a fake
 * that makes fstat() report it as a character device */
static bool node_of(int fd, char *path, size_t len)
{
	char link[64];
	struct stat st;
	ssize_t n;

	if (fd < 0 || fd >= FDS || fstatat(fd, "", &st, AT_EMPTY_PATH) < 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return strstr(path, "/dev/i2c-") != NULL;
}

static void log_op(const char *node, const char *op, unsigned int addr)
{
	char path[PATH_MAX + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s.log", node);
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s 0x%02x\n", op, addr);
		fclose(f);
	}
}

/* Does the device answer at @addr? */
static bool answers(const char *node, unsigned int addr)
{
	char path[PATH_MAX + 8];
	unsigned int dev;
	FILE *f;
	bool yes;

	snprintf(path, sizeof(path), "%s.addr", node);
	f = fopen(path, "r");
	if (!f)
		return false;
	yes = fscanf(f, "%x", &dev) == 1 && dev == addr;
	fclose(f);
	return yes;
}

/* Is the bus broken (dev/i2c-N.lazy): reads that return nothing? */
static bool lazy(const char *node)
{
	char path[PATH_MAX + 8];

	snprintf(path, sizeof(path), "%s.lazy", node);
	return access(path, F_OK) == 0;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

static uint8_t reg_get(int fd, unsigned int reg)
{
	uint8_t b = 0;

	if (pread(fd, &b, 1, reg & 0xff) != 1)
		b = 0xff;
	return b;
}

static void reg_put(int fd, unsigned int reg, uint8_t b)
{
	if (pwrite(fd, &b, 1, reg & 0xff) != 1)
		abort();
}

static const char *op_name(const struct i2c_smbus_ioctl_data *a)
{
	bool rd = a->read_write == I2C_SMBUS_READ;

	switch (a->size) {
	case I2C_SMBUS_QUICK:
		return rd ? "quick-read" : "quick-write";
	case I2C_SMBUS_BYTE:
		return rd ? "read-byte" : "write-byte";
	case I2C_SMBUS_BYTE_DATA:
		return rd ? "read-byte-data" : "write-byte-data";
	case I2C_SMBUS_WORD_DATA:
		return rd ? "read-word-data" : "write-word-data";
	case I2C_SMBUS_PROC_CALL:
		return "process-call";
	case I2C_SMBUS_BLOCK_DATA:
		return rd ? "read-block-data" : "write-block-data";
	case I2C_SMBUS_BLOCK_PROC_CALL:
		return "block-process-call";
	case I2C_SMBUS_I2C_BLOCK_DATA:
		return rd ? "read-i2c-block-data" : "write-i2c-block-data";
	default:
		return "other";
	}
}

static unsigned long funcs_of(const char *node)
{
	unsigned long funcs = (I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL) &
			      ~(unsigned long)I2C_FUNC_SMBUS_PEC;
	char path[PATH_MAX + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s.funcs", node);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lx", &funcs) != 1)
			abort();
		fclose(f);
	}
	return funcs;
}

static uint16_t word_get(int fd, unsigned int reg)
{
	uint16_t lo = reg_get(fd, reg);	/* in order: a | b is unsequenced */

	return (uint16_t)(lo | reg_get(fd, reg + 1u) << 8);
}

static void block_put(int fd, unsigned int reg, const uint8_t *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		reg_put(fd, reg + i, b[i]);
}

/* The SMBus blocks: a count, then the bytes */
static int block(int fd, struct i2c_smbus_ioctl_data *a, union i2c_smbus_data *d)
{
	unsigned int n = d->block[0];

	if (a->size == I2C_SMBUS_I2C_BLOCK_DATA) {
		if (n > I2C_SMBUS_BLOCK_MAX)
			return fail(EINVAL);
		for (unsigned int i = 0; a->read_write == I2C_SMBUS_READ && i < n; i++)
			d->block[1 + i] = reg_get(fd, a->command + i);
		if (a->read_write == I2C_SMBUS_WRITE)
			block_put(fd, a->command, &d->block[1], n);
		return 0;
	}
	if (a->size == I2C_SMBUS_BLOCK_DATA && a->read_write == I2C_SMBUS_READ) {
		n = reg_get(fd, a->command);
		d->block[0] = (uint8_t)n;	/* as the device says: maybe too many */
		for (unsigned int i = 0; i < n && i < I2C_SMBUS_BLOCK_MAX; i++)
			d->block[1 + i] = reg_get(fd, a->command + 1 + i);
		return 0;
	}
	if (n < 1 || n > I2C_SMBUS_BLOCK_MAX)
		return fail(EINVAL);
	block_put(fd, a->command, &d->block[1], n);
	if (a->size == I2C_SMBUS_BLOCK_PROC_CALL)
		for (unsigned int i = 0; i < n; i++)
			d->block[1 + i] = reg_get(fd, a->command + n - 1 - i);
	return 0;
}

static int rdwr(int fd, const char *node, struct i2c_rdwr_ioctl_data *a)
{
	if (a->nmsgs < 1 || a->nmsgs > I2C_RDWR_IOCTL_MAX_MSGS)
		return fail(EINVAL);
	for (unsigned int m = 0; m < a->nmsgs; m++) {
		struct i2c_msg *msg = &a->msgs[m];
		bool rd = msg->flags & I2C_M_RD;

		log_op(node, rd ? "rdwr-read" : "rdwr-write", msg->addr);
		if (!answers(node, msg->addr))
			return fail(ENXIO);
		for (unsigned int i = 0; i < msg->len && !(rd && lazy(node)); i++) {
			if (rd)
				msg->buf[i] = reg_get(fd, pointer++);
			else if (i == 0)
				pointer = msg->buf[0];
			else
				reg_put(fd, pointer++, msg->buf[i]);
		}
	}
	return (int)a->nmsgs;
}

static int smbus(int fd, const char *node, struct i2c_smbus_ioctl_data *a)
{
	unsigned int addr = slave[fd];
	union i2c_smbus_data *d = a->data;

	log_op(node, op_name(a), addr);
	if (!answers(node, addr))
		return fail(ENXIO);
	if (a->read_write == I2C_SMBUS_READ && a->size != I2C_SMBUS_QUICK && lazy(node))
		return 0;
	switch (a->size) {
	case I2C_SMBUS_QUICK:
		return 0;
	case I2C_SMBUS_BYTE:
		if (a->read_write == I2C_SMBUS_READ)
			d->byte = reg_get(fd, 0);
		return 0;
	case I2C_SMBUS_BYTE_DATA:
		if (a->read_write == I2C_SMBUS_READ)
			d->byte = reg_get(fd, a->command);
		else
			reg_put(fd, a->command, d->byte);
		return 0;
	case I2C_SMBUS_WORD_DATA:
		if (a->read_write == I2C_SMBUS_READ) {
			d->word = word_get(fd, a->command);
		} else {
			reg_put(fd, a->command, (uint8_t)(d->word & 0xff));
			reg_put(fd, a->command + 1u, (uint8_t)(d->word >> 8));
		}
		return 0;
	case I2C_SMBUS_PROC_CALL:
		reg_put(fd, a->command, (uint8_t)(d->word & 0xff));
		reg_put(fd, a->command + 1u, (uint8_t)(d->word >> 8));
		d->word = word_get(fd, a->command + 2u);
		return 0;
	case I2C_SMBUS_BLOCK_DATA:
	case I2C_SMBUS_BLOCK_PROC_CALL:
	case I2C_SMBUS_I2C_BLOCK_DATA:
		return block(fd, a, d);
	default:
		return fail(EOPNOTSUPP);
	}
}

/* i2c-dev's old I2C block size (i2c-tools' libi2c sends it for 32 bytes):
 * an I2C block of 32 bytes, converted as the kernel's i2cdev_ioctl_smbus()
 * does */
static int smbus_compat(int fd, const char *node, struct i2c_smbus_ioctl_data *a)
{
	struct i2c_smbus_ioctl_data conv = *a;

	if (a->size != I2C_SMBUS_I2C_BLOCK_BROKEN)
		return smbus(fd, node, a);
	conv.size = I2C_SMBUS_I2C_BLOCK_DATA;
	if (a->read_write == I2C_SMBUS_READ && a->data)
		a->data->block[0] = I2C_SMBUS_BLOCK_MAX;
	return smbus(fd, node, &conv);
}

static int node_ioctl(int fd, const char *node, unsigned long req, unsigned long arg)
{
	switch (req) {
	case I2C_FUNCS:
		*(unsigned long *)arg = funcs_of(node);
		return 0;
	case I2C_RETRIES:
		log_op(node, "retries", (unsigned int)arg);
		return 0;
	case I2C_TIMEOUT:
		log_op(node, "timeout", (unsigned int)arg);
		return 0;
	case I2C_PEC:
		log_op(node, "pec", (unsigned int)arg);
		return arg && !(funcs_of(node) & I2C_FUNC_SMBUS_PEC) ? fail(EINVAL) : 0;
	case I2C_RDWR:
		return rdwr(fd, node, (struct i2c_rdwr_ioctl_data *)arg);
	case I2C_SLAVE:
	case I2C_SLAVE_FORCE:
		if (arg > 0x7f)
			return fail(EINVAL);
		slave[fd] = (unsigned int)arg;
		return 0;
	case I2C_TENBIT:
		return arg ? fail(EINVAL) : 0;
	case I2C_SMBUS:
		return smbus_compat(fd, node, (struct i2c_smbus_ioctl_data *)arg);
	default:
		return fail(ENOTTY);
	}
}

int ioctl(int fd, unsigned long req, ...)
{
	char node[PATH_MAX];
	unsigned long arg;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!real_ioctl)
		*(void **)&real_ioctl = dlsym(RTLD_NEXT, "ioctl");	/* POSIX's way */
	if (!node_of(fd, node, sizeof(node)))
		return real_ioctl(fd, req, arg);
	return node_ioctl(fd, node, req, arg);
}
