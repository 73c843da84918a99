/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake spidev for tests/lib/test_spi.c: the nodes /dev/spidevB.C as
 * regular files in the fake tree, their SPI devices in its
 * /sys/bus/spi/devices, and spidev's ioctls on the nodes answered as Linux
 * 6.1's spidev answers them (the test links with -Wl,--wrap=ioctl), by a
 * loopback device: what is sent comes back (MISO wired to MOSI).
 */
#ifndef UDRV_TEST_FAKE_SPI_H
#define UDRV_TEST_FAKE_SPI_H

#include <stdbool.h>
#include <stdint.h>

struct fake_spi {
	/* what the fake answers */
	uint32_t refuse_mode;		/* mode bits the controller lacks */
	uint32_t bits_mask;		/* word sizes it has (bit N-1: N bits) */
	/* the device's settings, and what the library did */
	uint32_t mode;
	uint8_t bits;			/* 0: 8 */
	uint32_t speed_hz;
	unsigned int messages;		/* SPI_IOC_MESSAGE calls */
	unsigned int nxfers;		/* of the last */
	uint8_t cs_changes;		/* its transfers' cs_change set */
};

extern struct fake_spi fake_spi;

/* A fresh fake root with spidev @bus.@cs (its node, its SPI device named
 * @name: modalias spi:@name), mode 0, 8 bits, 500 kHz, every word size;
 * spidev's buffer is the tree's sys/module/spidev/parameters/bufsiz, 4096
 * without it. */
void fake_spi_setup(unsigned int bus, unsigned int cs, const char *name);
/* Another device, with (@node) or without its spidev node. */
void fake_spi_device(unsigned int bus, unsigned int cs, const char *name, bool node);

#endif /* UDRV_TEST_FAKE_SPI_H */
