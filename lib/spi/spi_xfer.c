// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SPI transfers (SPI_IOC_MESSAGE): one transfer checked against spidev's
 * buffer before it goes, a message of several as the kernel checks it
 * (below), with the reason for a refusal; and the list of spidev devices.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/spi/spidev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "spi/spi_priv.h"

_Static_assert(sizeof(struct udrv_spi_xfer) == sizeof(struct spi_ioc_transfer),
	       "struct udrv_spi_xfer is the kernel's struct spi_ioc_transfer");
_Static_assert(UDRV_SPI_XFERS_MAX * sizeof(struct spi_ioc_transfer) < (1u << _IOC_SIZEBITS),
	       "a message of UDRV_SPI_XFERS_MAX transfers fits SPI_IOC_MESSAGE's size field");

/*
 * A message goes to spidev as it is, and spidev and the SPI core check it
 * whole before a bit is clocked: its bytes each way within spidev's buffer
 * (each transfer rounded up to the kernel's allocation alignment), word
 * sizes the controller has, lengths in whole words, the wires the mode
 * allows. Checking the same here would cost every message a pass over its
 * transfers (udrv-bench spi measures the path against the bare ioctl) and
 * still be a guess at the kernel's rules. So the library checks only what
 * the ioctl cannot carry (a count of transfers SPI_IOC_MESSAGE's size
 * field holds), and when the kernel refuses, says why from the message.
 */

/* How to give spidev a bigger buffer, for an EMSGSIZE's message */
#define BUFSIZ_HINT \
	" (its bufsiz parameter: /sys/module/spidev/parameters/bufsiz, set with spidev.bufsiz=N)"

/* Wires for one direction of a transfer that the device's @mode lacks (0
 * and 1: one wire; 2: dual or quad in the mode; 4: quad). */
static bool wires_lacked(uint64_t buf, unsigned int nbits, uint32_t mode, uint32_t dual,
			 uint32_t quad)
{
	if (!buf || nbits <= 1)
		return false;
	return !(nbits == 2 && mode & (dual | quad)) && !(nbits == 4 && mode & quad);
}

/* The first transfer of @x whose own fields the kernel refuses whatever
 * the controller: its index, or @n. */
static size_t bad_xfer(const struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].bits_per_word > 32 ||
		    wires_lacked(x[i].tx_buf, x[i].tx_nbits, spi->mode, SPI_TX_DUAL, SPI_TX_QUAD) ||
		    wires_lacked(x[i].rx_buf, x[i].rx_nbits, spi->mode, SPI_RX_DUAL, SPI_RX_QUAD))
			return i;
	return n;
}

/* The bytes of @x each way, as spidev counts them against its buffer. */
static void xfer_totals(const struct udrv_spi_xfer *x, size_t n, uint64_t *out, uint64_t *in)
{
	*out = *in = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i].tx_buf)
			*out += x[i].len;
		if (x[i].rx_buf)
			*in += x[i].len;
	}
}

/* The kernel's refusal where no field can be named: @what went ("a
 * message of 2 transfers"), the error, what it usually means. */
__attribute__((noinline, cold))
static int kernel_refused(struct udrv_spi *spi, const char *what, int err)
{
	return udrv_err(spi->errmsg, err, "%s: %s: %s%s", spi->dev, what, strerror(err),
			err == EINVAL ? " (a speed, word size or wire count the controller lacks, or a length that is not whole words)" : "");
}

/* Why the kernel refused a message with @err. */
__attribute__((noinline, cold))
static int message_failed(struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t n,
			  int err)
{
	char what[48];
	uint64_t out, in;
	size_t i;

	if (spi->fd < 0)
		return udrv_spi_need_open(spi);
	if (!x)
		return udrv_err(spi->errmsg, EFAULT, "%s: a message of %zu transfers without them",
				spi->dev, n);
	i = err == EINVAL ? bad_xfer(spi, x, n) : n;
	if (i < n)
		return udrv_err(spi->errmsg, EINVAL,
				"%s: transfer %zu: %u bits per word, %u/%u wires (out/in): 0 or 1..32 bits, and more than one wire only where the device's mode has dual or quad",
				spi->dev, i, x[i].bits_per_word, x[i].tx_nbits, x[i].rx_nbits);
	if (err == EMSGSIZE) {
		xfer_totals(x, n, &out, &in);
		return udrv_err(spi->errmsg, EMSGSIZE,
				"%s: a message of %llu bytes out and %llu in, spidev takes %u each way, each transfer rounded up to the kernel's allocation alignment" BUFSIZ_HINT,
				spi->dev, (unsigned long long)out, (unsigned long long)in, spi->bufsiz);
	}
	snprintf(what, sizeof(what), "a message of %zu transfers", n);
	return kernel_refused(spi, what, err);
}

__attribute__((noinline, cold))
static int message_count_refused(struct udrv_spi *spi, size_t n)
{
	return udrv_err(spi->errmsg, EINVAL, "%s: %zu transfers: 1..%d in one message", spi->dev,
			n, UDRV_SPI_XFERS_MAX);
}

/* SPI_IOC_MESSAGE(n), its size computed here (the macro's type is a VLA) */
static inline int message_ioctl(const struct udrv_spi *spi, const struct udrv_spi_xfer *x,
				size_t n)
{
	return ioctl(spi->fd, _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, n * sizeof(*x)), x);
}

int udrv_spi_message(struct udrv_spi *spi, const struct udrv_spi_xfer *xfers, size_t n)
{
	int ret;

	if (n - 1 >= UDRV_SPI_XFERS_MAX)	/* 0, or past the ioctl's size field */
		return message_count_refused(spi, n);
	ret = message_ioctl(spi, xfers, n);
	return ret < 0 ? message_failed(spi, xfers, n, errno) : ret;
}

__attribute__((noinline, cold))
static int transfer_refused(struct udrv_spi *spi, size_t len)
{
	if (spi->fd < 0)
		return udrv_spi_need_open(spi);
	if (!len)
		return udrv_err(spi->errmsg, EINVAL, "%s: a transfer of 0 bytes: 1 byte or more",
				spi->dev);
	return udrv_err(spi->errmsg, EMSGSIZE,
			"%s: %zu bytes in one message, spidev takes %u" BUFSIZ_HINT,
			spi->dev, len, spi->bufsiz);
}

__attribute__((noinline, cold))
static int transfer_failed(struct udrv_spi *spi, const struct udrv_spi_xfer *x, int err)
{
	char what[48];

	snprintf(what, sizeof(what), "a transfer of %u bytes", x->len);
	return kernel_refused(spi, what, err);
}

int udrv_spi_transfer(struct udrv_spi *spi, const void *tx, void *rx, size_t len)
{
	struct udrv_spi_xfer x = {
		.tx_buf = (uint64_t)(uintptr_t)tx, .rx_buf = (uint64_t)(uintptr_t)rx,
		.len = (uint32_t)len,
	};
	int ret;

	if (spi->fd < 0 || !len || len > spi->bufsiz)
		return transfer_refused(spi, len);
	ret = message_ioctl(spi, &x, 1);
	/* the length from x, which is in memory anyway: len needs no register
	 * kept across the call */
	return ret < 0 ? transfer_failed(spi, &x, errno) : ret;
}

struct devname {
	unsigned int bus, cs;
	char *name;
};

static int cmp_dev(const void *a, const void *b)
{
	const struct devname *x = a, *y = b;

	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	return (x->cs > y->cs) - (x->cs < y->cs);
}

static int collect(DIR *d, struct devname **out, size_t *n)
{
	struct devname *items = NULL, *tmp;
	size_t cap = 0;
	struct dirent *de;
	unsigned int b, c;

	*n = 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "spidev", 6) || udrv_spi_parse_devspec(de->d_name, &b, &c))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = realloc(items, cap * sizeof(*items));
			if (!tmp)
				goto nomem;
			items = tmp;
		}
		items[*n] = (struct devname){ b, c, strdup(de->d_name) };
		if (!items[*n].name)
			goto nomem;
		(*n)++;
	}
	*out = items;
	return 0;
nomem:
	for (size_t i = 0; i < *n; i++)
		free(items[i].name);
	free(items);
	return -ENOMEM;
}

int udrv_spi_list(char ***names)
{
	struct devname *items = NULL;
	char dir[UDRV_PATH_LEN], **strv;
	size_t n = 0;
	int err;
	DIR *d;

	*names = NULL;
	if (udrv_path(dir, sizeof(dir), "/sys/class/spidev"))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	err = collect(d, &items, &n);
	closedir(d);
	if (err)
		return err;
	if (n)
		qsort(items, n, sizeof(*items), cmp_dev);
	strv = calloc(n + 1, sizeof(*strv));
	for (size_t i = 0; i < n; i++) {
		if (strv)
			strv[i] = items[i].name;
		else
			free(items[i].name);
	}
	free(items);
	if (!strv)
		return -ENOMEM;
	*names = strv;
	return (int)n;
}
