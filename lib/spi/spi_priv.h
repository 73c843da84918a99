/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SPI handle (spi.c: the device, its settings; spi_xfer.c: transfers). */
#ifndef UDRV_SPI_PRIV_H
#define UDRV_SPI_PRIV_H

#include <stdint.h>
#include <udrv/spi.h>

#include "internal.h"

#define UDRV_SPI_BUFSIZ_DEFAULT	4096	/* spidev's bufsiz parameter */

struct udrv_spi {
	int fd;
	unsigned int bus, cs;
	char dev[UDRV_PATH_LEN];	/* "/dev/spidev0.1" (under the sysroot) */
	uint32_t mode;
	unsigned int bits;
	uint32_t speed_hz;
	uint32_t bufsiz;		/* the most bytes of one message */
	char errmsg[UDRV_ERRMSG_LEN];
};

/* "B.C" or "spidevB.C", optionally under /dev/: 0, -EINVAL (not that
 * form), -ERANGE (a number past INT32_MAX). Decimal, no leading zeros. */
int udrv_spi_parse_devspec(const char *s, unsigned int *bus, unsigned int *cs);
/* 0 when a device is open, else -EBADF and the handle's message says so. */
int udrv_spi_need_open(struct udrv_spi *spi);

#endif /* UDRV_SPI_PRIV_H */
