/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What Linux 6.1 refuses in an SPI_IOC_MESSAGE before a bit is clocked,
 * for the two fake spidevs (tests/lib/fake_spi.c, linked into test_spi;
 * tests/cli/fake_spidev.c, preloaded into the CLI and Python): spidev's
 * spidev_message() (the bytes each way against its buffer, each transfer
 * rounded up to ARCH_KMALLOC_MINALIGN, 8 on x86) and the SPI core's
 * __spi_validate() (word sizes the controller has, whole words, the wires
 * the mode allows). libudrv leaves these checks to the kernel
 * (lib/spi/spi_xfer.c), so its tests need a fake that makes them.
 */
#ifndef UDRV_TEST_FAKE_SPI_RULES_H
#define UDRV_TEST_FAKE_SPI_RULES_H

#include <linux/spi/spidev.h>
#include <stddef.h>
#include <stdint.h>

struct fake_spi_device {
	uint32_t mode;			/* SPI_TX_DUAL etc. allow wires */
	uint8_t bits;			/* the device's word size; 0: 8 */
	uint32_t bits_mask;		/* the controller's (bit N-1: N bits) */
	unsigned int bufsiz;		/* spidev's bufsiz parameter */
};

/* spidev's bufsiz parameter in the fake tree at @root
 * (sys/module/spidev/parameters/bufsiz there), 4096 without it. */
unsigned int fake_spi_bufsiz(const char *root, size_t rootlen);

/* 0, or the errno Linux 6.1 returns for @x (@n transfers) on @d. */
int fake_spi_refusal(const struct spi_ioc_transfer *x, unsigned int n,
		     const struct fake_spi_device *d);

#endif /* UDRV_TEST_FAKE_SPI_RULES_H */
