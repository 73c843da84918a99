// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake spidev (fake_spi.h): spidev's ioctls on the fake tree's
 * /dev/spidevB.C files, a loopback device behind them. What it checks is
 * what drivers/spi/spidev.c and the SPI core check: the mode bits and word
 * sizes the controller has, and a message as fake_spi_rules.c checks it.
 */
#include <errno.h>
#include <limits.h>
#include <linux/spi/spidev.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_spi.h"
#include "fake_spi_rules.h"
#include "harness.h"

struct fake_spi fake_spi;

void fake_spi_device(unsigned int bus, unsigned int cs, const char *name, bool node)
{
	char path[96], text[96];

	snprintf(path, sizeof(path), "sys/bus/spi/devices/spi%u.%u/modalias", bus, cs);
	snprintf(text, sizeof(text), "spi:%s\n", name);
	fake_file(path, text);
	if (node) {
		snprintf(path, sizeof(path), "dev/spidev%u.%u", bus, cs);
		fake_file(path, "");
		snprintf(path, sizeof(path), "sys/class/spidev/spidev%u.%u/dev", bus, cs);
		fake_file(path, "153:0\n");
	}
}

void fake_spi_setup(unsigned int bus, unsigned int cs, const char *name)
{
	fake_root();
	memset(&fake_spi, 0, sizeof(fake_spi));
	fake_spi.bits_mask = 0xffffffff;
	fake_spi.speed_hz = 500000;
	fake_spi_device(bus, cs, name, true);
}

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
	return strstr(path, "/dev/spidev") != NULL;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/* The loopback: each transfer's rx is its tx (zeros without one), once the
 * kernel's checks pass (nothing is sent otherwise). */
static int message(const struct spi_ioc_transfer *x, unsigned int n)
{
	const char *root = fake_root_dir();
	struct fake_spi_device d = { fake_spi.mode, fake_spi.bits, fake_spi.bits_mask,
				     fake_spi_bufsiz(root, strlen(root)) };
	int total = 0, err = fake_spi_refusal(x, n, &d);

	if (err)
		return fail(err);
	fake_spi.messages++;
	fake_spi.nxfers = n;
	fake_spi.cs_changes = 0;
	for (unsigned int i = 0; i < n; i++) {
		if (x[i].cs_change)
			fake_spi.cs_changes |= (uint8_t)(1u << (i & 7));
		if (x[i].rx_buf && x[i].tx_buf)
			memcpy((void *)(uintptr_t)x[i].rx_buf, (const void *)(uintptr_t)x[i].tx_buf,
			       x[i].len);
		else if (x[i].rx_buf)
			memset((void *)(uintptr_t)x[i].rx_buf, 0, x[i].len);
		total += (int)x[i].len;
	}
	return total;
}

static int node_ioctl(unsigned long req, unsigned long arg)
{
	void *p = (void *)arg;

	if (_IOC_TYPE(req) == SPI_IOC_MAGIC && _IOC_NR(req) == 0 && _IOC_DIR(req) == _IOC_WRITE)
		return message(p, _IOC_SIZE(req) / sizeof(struct spi_ioc_transfer));
	switch (req) {
	case SPI_IOC_RD_MODE32:
		*(uint32_t *)p = fake_spi.mode;
		return 0;
	case SPI_IOC_WR_MODE32:
		if (*(uint32_t *)p & fake_spi.refuse_mode)
			return fail(EINVAL);
		fake_spi.mode = *(uint32_t *)p;
		return 0;
	case SPI_IOC_RD_BITS_PER_WORD:
		*(uint8_t *)p = fake_spi.bits;
		return 0;
	case SPI_IOC_WR_BITS_PER_WORD: {
		uint8_t bits = *(uint8_t *)p;

		if (bits && !(fake_spi.bits_mask & (1u << (bits - 1))))
			return fail(EINVAL);
		fake_spi.bits = bits;
		return 0;
	}
	case SPI_IOC_RD_MAX_SPEED_HZ:
		*(uint32_t *)p = fake_spi.speed_hz;
		return 0;
	case SPI_IOC_WR_MAX_SPEED_HZ:
		fake_spi.speed_hz = *(uint32_t *)p;
		return 0;
	default:
		return fail(ENOTTY);
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
