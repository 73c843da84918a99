// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SPI transfers (SPI_IOC_MESSAGE), checked against what spidev takes
 * before anything is sent: at most UDRV_SPI_XFERS_MAX transfers, their
 * bytes together within spidev's buffer (its bufsiz parameter), word
 * sizes 0 or 1..32; and the list of spidev devices.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/spi/spidev.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "spi/spi_priv.h"

_Static_assert(sizeof(struct udrv_spi_xfer) == sizeof(struct spi_ioc_transfer),
	       "struct udrv_spi_xfer is the kernel's struct spi_ioc_transfer");
_Static_assert(UDRV_SPI_XFERS_MAX * sizeof(struct spi_ioc_transfer) < (1u << _IOC_SIZEBITS),
	       "a message of UDRV_SPI_XFERS_MAX transfers fits SPI_IOC_MESSAGE's size field");

/* Why a message cannot go: the first thing wrong with it. Out of line, as
 * the failures below: the path of a message that goes is the checks of
 * xfers_ok() and the ioctl (udrv-bench spi measures it against the bare
 * ioctl). */
__attribute__((noinline, cold))
static int xfers_refused(struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t n)
{
	uint64_t total = 0;

	if (spi->fd < 0)
		return udrv_err(spi->errmsg, EBADF, "no SPI device open: udrv_spi_open() first");
	if (!x || !n || n > UDRV_SPI_XFERS_MAX)
		return udrv_err(spi->errmsg, EINVAL, "%s: %zu transfers: 1..%d in one message",
				spi->dev, n, UDRV_SPI_XFERS_MAX);
	for (size_t i = 0; i < n; i++) {
		if (!x[i].len || x[i].bits_per_word > 32 || x[i].pad ||
		    x[i].tx_nbits > 1 || x[i].rx_nbits > 1)
			return udrv_err(spi->errmsg, EINVAL,
					"%s: transfer %zu: %u bytes, %u bits per word, %u/%u wires: 1 byte or more, 0 or 1..32 bits, one wire",
					spi->dev, i, x[i].len, x[i].bits_per_word,
					x[i].tx_nbits, x[i].rx_nbits);
		total += x[i].len;
	}
	return udrv_err(spi->errmsg, EMSGSIZE,
			"%s: %llu bytes in one message, spidev takes %u (its bufsiz parameter: /sys/module/spidev/parameters/bufsiz, set with spidev.bufsiz=N)",
			spi->dev, (unsigned long long)total, spi->bufsiz);
}

/* What xfers_refused() refuses, without a word. */
static inline bool xfers_ok(const struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t n)
{
	uint64_t total = 0;

	if (spi->fd < 0 || !x || !n || n > UDRV_SPI_XFERS_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!x[i].len || x[i].bits_per_word > 32 || x[i].pad ||
		    x[i].tx_nbits > 1 || x[i].rx_nbits > 1)
			return false;
		total += x[i].len;
	}
	return total <= spi->bufsiz;
}

__attribute__((noinline, cold))
static int message_failed(struct udrv_spi *spi, size_t n, int err)
{
	return udrv_err(spi->errmsg, err, "%s: a message of %zu transfers: %s%s", spi->dev, n,
			strerror(err),
			err == EINVAL ? " (a speed, word size or wire count the controller lacks)" : "");
}

static inline int send(struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t n)
{
	/* SPI_IOC_MESSAGE(n), its size computed here (the macro's type is a VLA) */
	int ret = ioctl(spi->fd, _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, n * sizeof(*x)), x);

	return ret < 0 ? message_failed(spi, n, errno) : ret;
}

int udrv_spi_message(struct udrv_spi *spi, const struct udrv_spi_xfer *xfers, size_t n)
{
	if (!xfers_ok(spi, xfers, n))
		return xfers_refused(spi, xfers, n);
	return send(spi, xfers, n);
}

__attribute__((noinline, cold))
static int transfer_refused(struct udrv_spi *spi, const struct udrv_spi_xfer *x, size_t len)
{
	if (len > UINT32_MAX)
		return udrv_err(spi->errmsg, EMSGSIZE, "%s: %zu bytes in one transfer", spi->dev, len);
	return xfers_refused(spi, x, 1);
}

int udrv_spi_transfer(struct udrv_spi *spi, const void *tx, void *rx, size_t len)
{
	struct udrv_spi_xfer x = {
		.tx_buf = (uint64_t)(uintptr_t)tx, .rx_buf = (uint64_t)(uintptr_t)rx,
		.len = (uint32_t)len,
	};

	if (spi->fd < 0 || !len || len > spi->bufsiz)
		return transfer_refused(spi, &x, len);
	return send(spi, &x, 1);
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
