// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's checks of an SPI message (fake_spi_rules.h), in the order
 * Linux 6.1 makes them: spidev's sizes while it copies the transfers in,
 * then the SPI core's validation of each, all before the first transfer.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "fake_spi_rules.h"

#define KMALLOC_MINALIGN	8u	/* x86's ARCH_KMALLOC_MINALIGN */

static unsigned int aligned(unsigned int len)
{
	return (len + KMALLOC_MINALIGN - 1) / KMALLOC_MINALIGN * KMALLOC_MINALIGN;
}

/* spidev_message(): EMSGSIZE past INT_MAX or past the buffer, each way */
static int sizes(const struct spi_ioc_transfer *x, unsigned int n, unsigned int bufsiz)
{
	unsigned long long total = 0, out = 0, in = 0;

	for (unsigned int i = 0; i < n; i++) {
		total += x[i].len;
		if (total > INT_MAX || x[i].len > INT_MAX)
			return EMSGSIZE;
		if (x[i].rx_buf && (in += aligned(x[i].len)) > bufsiz)
			return EMSGSIZE;
		if (x[i].tx_buf && (out += aligned(x[i].len)) > bufsiz)
			return EMSGSIZE;
	}
	return 0;
}

/* __spi_validate()'s wires for one direction: 0 is single (the kernel's
 * SPI_NBITS_SINGLE 1, _DUAL 2, _QUAD 4; octal, 8, not modelled) */
static int wires(unsigned int nbits, uint32_t mode, uint32_t dual, uint32_t quad)
{
	switch (nbits) {
	case 0:
	case 1:
		return 0;
	case 2:
		return mode & (dual | quad) ? 0 : EINVAL;
	case 4:
		return mode & quad ? 0 : EINVAL;
	default:
		return EINVAL;
	}
}

/* __spi_validate() for one transfer */
static int valid(const struct spi_ioc_transfer *x, const struct fake_spi_device *d)
{
	unsigned int bits = x->bits_per_word ? x->bits_per_word : d->bits ? d->bits : 8;
	unsigned int word = bits <= 8 ? 1 : bits <= 16 ? 2 : 4;

	if (bits > 32 || !(d->bits_mask & (1u << (bits - 1))) || x->len % word)
		return EINVAL;
	if (x->tx_buf && wires(x->tx_nbits, d->mode, SPI_TX_DUAL, SPI_TX_QUAD))
		return EINVAL;
	if (x->rx_buf && wires(x->rx_nbits, d->mode, SPI_RX_DUAL, SPI_RX_QUAD))
		return EINVAL;
	return 0;
}

int fake_spi_refusal(const struct spi_ioc_transfer *x, unsigned int n,
		     const struct fake_spi_device *d)
{
	int err = sizes(x, n, d->bufsiz);

	for (unsigned int i = 0; !err && i < n; i++)
		err = valid(&x[i], d);
	return err;
}

unsigned int fake_spi_bufsiz(const char *root, size_t rootlen)
{
	char path[PATH_MAX + 64];
	unsigned int v = 4096;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s/sys/module/spidev/parameters/bufsiz", (int)rootlen,
		 root);
	f = fopen(path, "r");
	if (!f)
		return v;
	if (fscanf(f, "%u", &v) != 1)
		_exit(97);
	fclose(f);
	return v;
}
