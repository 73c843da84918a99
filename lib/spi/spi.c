// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An SPI device through spidev: found by bus and chip select, node or the
 * device's name; its mode, word size and maximum clock set and read back.
 * The transfers are spi_xfer.c's.
 *
 * spidev's nodes are /sys/class/spidev/spidevB.C, their SPI device
 * /sys/bus/spi/devices/spiB.C (its modalias "spi:NAME").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "spi/spi_priv.h"

#define SPIDEV_CLASS	"/sys/class/spidev"
#define SPI_DEVICES	"/sys/bus/spi/devices"
#define SPIDEV_BUFSIZ	"/sys/module/spidev/parameters/bufsiz"
#define SPEED_HZ_MAX	1000000000u

struct udrv_spi *udrv_spi_new(void)
{
	struct udrv_spi *spi = calloc(1, sizeof(*spi));

	if (spi)
		spi->fd = -1;
	return spi;
}

void udrv_spi_close(struct udrv_spi *spi)
{
	if (spi && spi->fd >= 0)
		close(spi->fd);
	if (spi)
		spi->fd = -1;
}

void udrv_spi_free(struct udrv_spi *spi)
{
	udrv_spi_close(spi);
	free(spi);
}

const char *udrv_spi_errmsg(const struct udrv_spi *spi)
{
	return spi->errmsg;
}

unsigned int udrv_spi_bus(const struct udrv_spi *spi)
{
	return spi->bus;
}

unsigned int udrv_spi_cs(const struct udrv_spi *spi)
{
	return spi->cs;
}

int udrv_spi_fd(const struct udrv_spi *spi)
{
	return spi->fd;
}

uint32_t udrv_spi_mode(const struct udrv_spi *spi)
{
	return spi->mode;
}

unsigned int udrv_spi_bits_per_word(const struct udrv_spi *spi)
{
	return spi->bits;
}

uint32_t udrv_spi_max_speed_hz(const struct udrv_spi *spi)
{
	return spi->speed_hz;
}

/* A decimal number of @len characters at @s, no leading zero. */
static int number(const char *s, size_t len, unsigned int *v)
{
	char buf[16];

	if (!len || (len > 1 && s[0] == '0'))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
	if (len >= sizeof(buf))
		return -ERANGE;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return udrv_parse_uint(buf, 0x7fffffff, v);
}

int udrv_spi_parse_devspec(const char *s, unsigned int *bus, unsigned int *cs)
{
	unsigned int b, c;
	const char *dot;
	int err, err2;

	if (!strncmp(s, "/dev/", 5)) {
		s += 5;
		if (strncmp(s, "spidev", 6))
			return -EINVAL;
	}
	if (!strncmp(s, "spidev", 6))
		s += 6;
	dot = strchr(s, '.');
	if (!dot)
		return -EINVAL;
	err = number(s, (size_t)(dot - s), &b);
	err2 = number(dot + 1, strlen(dot + 1), &c);
	/* not the form (either part) before out of range */
	if (err == -EINVAL || err2 == -EINVAL)
		return -EINVAL;
	if (err || err2)
		return err ? err : err2;
	*bus = b;
	*cs = c;
	return 0;
}

/* The device whose modalias is "spi:@name": 0, -ENOENT, -EINVAL (two). */
static int device_by_name(struct udrv_spi *spi, const char *name, unsigned int *bus,
			  unsigned int *cs)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN], alias[128];
	int found = 0;
	struct dirent *de;
	DIR *d;

	if (udrv_path(dir, sizeof(dir), SPI_DEVICES))
		return udrv_path_err(spi->errmsg, SPI_DEVICES);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "spi", 3) ||
		    snprintf(path, sizeof(path), "%s/%s/modalias", dir, de->d_name) >= (int)sizeof(path) ||
		    udrv_read_text(path, alias, sizeof(alias)) < 0 || strncmp(alias, "spi:", 4) ||
		    strcmp(alias + 4, name) || udrv_spi_parse_devspec(de->d_name + 3, bus, cs))
			continue;
		found++;
	}
	if (d)
		closedir(d);
	if (found == 1)
		return 0;
	if (found > 1)
		return udrv_err(spi->errmsg, EINVAL,
				"%d SPI devices are named '%s': give one by bus and chip select (0.1)",
				found, name);
	return udrv_err(spi->errmsg, ENOENT,
			"no SPI device '%s': give it by bus and chip select (0.1), node (spidev0.1, /dev/spidev0.1) or its name as its modalias says it (spi:NAME)",
			name);
}

static int open_err(struct udrv_spi *spi, int err)
{
	char hint[UDRV_ERRMSG_LEN], dev[UDRV_PATH_LEN];

	if (err == ENOENT && !udrv_path(dev, sizeof(dev), SPI_DEVICES "/spi%u.%u", spi->bus, spi->cs) &&
	    udrv_path_exists(dev))
		return udrv_err(spi->errmsg, ENOENT,
				"%s does not exist, but the SPI device spi%u.%u does: bind it to spidev (echo spidev > %s/spi%u.%u/driver_override, then to /sys/bus/spi/drivers/spidev/bind; on a Raspberry Pi: dtparam=spi=on)",
				spi->dev, spi->bus, spi->cs, SPI_DEVICES, spi->bus, spi->cs);
	if (err == ENOENT)
		return udrv_err(spi->errmsg, ENOENT,
				"no SPI device %u.%u: %s does not exist (udrv_spi_list() gives the ones there are)",
				spi->bus, spi->cs, spi->dev);
	udrv_access_hint(hint, sizeof(hint), err, spi->dev);
	return udrv_err(spi->errmsg, err, "cannot open %s: %s (%s)", spi->dev, strerror(err),
			hint);
}

static int read_settings(struct udrv_spi *spi)
{
	char path[UDRV_PATH_LEN];
	uint8_t bits = 0;
	long bufsiz = 0;

	if (ioctl(spi->fd, SPI_IOC_RD_MODE32, &spi->mode) < 0 ||
	    ioctl(spi->fd, SPI_IOC_RD_BITS_PER_WORD, &bits) < 0 ||
	    ioctl(spi->fd, SPI_IOC_RD_MAX_SPEED_HZ, &spi->speed_hz) < 0)
		return udrv_err(spi->errmsg, errno,
				"%s: reading its settings failed: %s: is it a spidev node?",
				spi->dev, strerror(errno));
	spi->bits = bits ? bits : 8;
	spi->bufsiz = UDRV_SPI_BUFSIZ_DEFAULT;
	if (!udrv_path(path, sizeof(path), SPIDEV_BUFSIZ) && !udrv_read_long(path, &bufsiz) &&
	    bufsiz > 0 && bufsiz <= 0x7fffffff)
		spi->bufsiz = (uint32_t)bufsiz;
	return 0;
}

/* udrv_spi_open(), or udrv_spi_open_fd() when @fd >= 0 (the handle owns
 * it on success only). */
static int open_spec(struct udrv_spi *spi, const char *spec, int fd)
{
	unsigned int bus, cs;
	int err;

	udrv_spi_close(spi);
	if (!spec || !*spec)
		return udrv_err(spi->errmsg, EINVAL,
				"no SPI device given: bus and chip select (0.1), a node (spidev0.1, /dev/spidev0.1) or a device's name");
	err = udrv_spi_parse_devspec(spec, &bus, &cs);
	if (err == -ERANGE)
		return udrv_err(spi->errmsg, ERANGE, "SPI device '%s': number out of range", spec);
	if (err) {
		err = device_by_name(spi, spec, &bus, &cs);
		if (err)
			return err;
	}
	spi->bus = bus;
	spi->cs = cs;
	if (udrv_path(spi->dev, sizeof(spi->dev), "/dev/spidev%u.%u", bus, cs))
		return udrv_path_err(spi->errmsg, "/dev/spidevB.C");
	if (fd >= 0) {
		err = udrv_fd_is(fd, spi->dev);
		if (err == -ENOENT)
			return open_err(spi, ENOENT);
		if (err)
			return udrv_err(spi->errmsg, -err, "the file descriptor %d is not %s: %s",
					fd, spi->dev, strerror(-err));
		spi->fd = fd;
	} else {
		spi->fd = open(spi->dev, O_RDWR | O_CLOEXEC);
		if (spi->fd < 0)
			return open_err(spi, errno);
	}
	err = read_settings(spi);
	if (err) {
		if (fd >= 0)
			spi->fd = -1;	/* still the caller's */
		udrv_spi_close(spi);
		return err;
	}
	spi->errmsg[0] = '\0';
	return 0;
}

int udrv_spi_open(struct udrv_spi *spi, const char *spec)
{
	return open_spec(spi, spec, -1);
}

int udrv_spi_open_fd(struct udrv_spi *spi, const char *spec, int fd)
{
	if (fd < 0) {
		udrv_spi_close(spi);
		return udrv_err(spi->errmsg, EBADF,
				"no file descriptor given for SPI device '%s' (%d)",
				spec ? spec : "", fd);
	}
	return open_spec(spi, spec, fd);
}

int udrv_spi_need_open(struct udrv_spi *spi)
{
	if (spi->fd >= 0)
		return 0;
	return udrv_err(spi->errmsg, EBADF, "no SPI device open: udrv_spi_open() first");
}

int udrv_spi_set_mode(struct udrv_spi *spi, uint32_t mode)
{
	uint32_t now = 0;
	int err = udrv_spi_need_open(spi);

	if (err)
		return err;
	if (mode & ~(uint32_t)UDRV_SPI_MODE_MASK)
		return udrv_err(spi->errmsg, EINVAL, "%s: unknown mode bits 0x%x", spi->dev,
				mode & ~(uint32_t)UDRV_SPI_MODE_MASK);
	if (ioctl(spi->fd, SPI_IOC_WR_MODE32, &mode) < 0) {
		err = errno;
		return udrv_err(spi->errmsg, err == EINVAL ? EOPNOTSUPP : err,
				"%s: the controller refused mode %u%s%s%s%s%s (%s): it lacks one of them",
				spi->dev, mode & UDRV_SPI_MODE_3,
				mode & UDRV_SPI_CS_HIGH ? ", CS high" : "",
				mode & UDRV_SPI_LSB_FIRST ? ", LSB first" : "",
				mode & UDRV_SPI_3WIRE ? ", 3-wire" : "",
				mode & UDRV_SPI_LOOP ? ", loopback" : "",
				mode & UDRV_SPI_NO_CS ? ", no chip select" : "", strerror(err));
	}
	if (ioctl(spi->fd, SPI_IOC_RD_MODE32, &now) < 0)
		return udrv_err(spi->errmsg, errno, "%s: reading the mode back: %s", spi->dev,
				strerror(errno));
	spi->mode = now;
	return 0;
}

int udrv_spi_set_bits_per_word(struct udrv_spi *spi, unsigned int bits)
{
	uint8_t b = (uint8_t)bits;
	int err = udrv_spi_need_open(spi);

	if (err)
		return err;
	if (bits < 1 || bits > 32)
		return udrv_err(spi->errmsg, ERANGE, "%s: %u bits per word: 1..32", spi->dev, bits);
	if (ioctl(spi->fd, SPI_IOC_WR_BITS_PER_WORD, &b) < 0) {
		err = errno;
		return udrv_err(spi->errmsg, err == EINVAL ? EOPNOTSUPP : err,
				"%s: the controller cannot do %u-bit words (%s)", spi->dev, bits,
				strerror(err));
	}
	spi->bits = bits;
	return 0;
}

int udrv_spi_set_max_speed_hz(struct udrv_spi *spi, uint32_t hz)
{
	int err = udrv_spi_need_open(spi);

	if (err)
		return err;
	if (hz < 1 || hz > SPEED_HZ_MAX)
		return udrv_err(spi->errmsg, ERANGE, "%s: %u Hz: 1 Hz..1 GHz", spi->dev, hz);
	if (ioctl(spi->fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz) < 0)
		return udrv_err(spi->errmsg, errno, "%s: the controller refused %u Hz (%s)",
				spi->dev, hz, strerror(errno));
	spi->speed_hz = hz;
	return 0;
}
