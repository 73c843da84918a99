/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SPI through the kernel's spidev (/dev/spidevB.C): a device by bus and
 * chip select, node or name; its mode (0-3, LSB first, 3-wire, CS high),
 * word size and maximum clock; full-duplex transfers, and messages of
 * several transfers (chip select kept or dropped between them, delays) in
 * one SPI_IOC_MESSAGE.
 *
 * spidev keeps what was asked: the maximum clock it reports is the one
 * requested, not the rate the controller runs at (a controller rounds
 * down to the rate its divider makes). It keeps the mode and word size for
 * the next program, the clock only while the device is open (at the last
 * close spidev puts it back to the device's maximum). A mode or word size
 * the controller lacks is refused when set, with a message that says so.
 *
 * Calls return 0 (or a count) or a negative errno and leave a message on
 * the handle (udrv_spi_errmsg()).
 */
#ifndef UDRV_SPI_H
#define UDRV_SPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_spi;

/* udrv_spi_set_mode(): the kernel's SPI mode bits (<linux/spi/spi.h>) */
#define UDRV_SPI_CPHA		0x01
#define UDRV_SPI_CPOL		0x02
#define UDRV_SPI_MODE_0		0x00
#define UDRV_SPI_MODE_1		UDRV_SPI_CPHA
#define UDRV_SPI_MODE_2		UDRV_SPI_CPOL
#define UDRV_SPI_MODE_3		(UDRV_SPI_CPOL | UDRV_SPI_CPHA)
#define UDRV_SPI_CS_HIGH	0x04	/* chip select active high */
#define UDRV_SPI_LSB_FIRST	0x08
#define UDRV_SPI_3WIRE		0x10	/* MOSI and MISO on one wire */
#define UDRV_SPI_LOOP		0x20	/* the controller's loopback */
#define UDRV_SPI_NO_CS		0x40
#define UDRV_SPI_MODE_MASK	0x7f

/* A message of at most this many transfers (SPI_IOC_MESSAGE's size field) */
#define UDRV_SPI_XFERS_MAX	511

/* One transfer of a message: the kernel's struct spi_ioc_transfer. */
struct udrv_spi_xfer {
	uint64_t tx_buf;	/* (uintptr_t) bytes sent; 0: zeros */
	uint64_t rx_buf;	/* (uintptr_t) bytes received; 0: dropped */
	uint32_t len;
	uint32_t speed_hz;	/* 0: the device's maximum */
	uint16_t delay_usecs;	/* after it, before the chip select changes */
	uint8_t bits_per_word;	/* 0: the device's */
	uint8_t cs_change;	/* 1: chip select off after it (before the next) */
	uint8_t tx_nbits;	/* 0 or 1: single wire */
	uint8_t rx_nbits;
	uint8_t word_delay_usecs;
	uint8_t pad;
};

struct udrv_spi *udrv_spi_new(void);
/*
 * @spec: "B.C" (bus B, chip select C: "0.1"), the node's name ("spidev0.1",
 * "/dev/spidev0.1") or the device's name as the kernel knows it (its
 * modalias without "spi:": "mcp3008", one device only). Reads its mode,
 * word size and maximum clock.
 */
int udrv_spi_open(struct udrv_spi *spi, const char *spec);
/*
 * The same for a node someone else opened: a broker such as udrvd
 * (io.udrv1.Devices.OpenSpi), or a parent that passed it on. Checks that
 * @fd is the node of the device @spec names and reads its settings. On
 * success the handle owns @fd (udrv_spi_close() closes it); on an error it
 * stays the caller's: -EBADF @fd is not open, -EINVAL it is another file,
 * and udrv_spi_open()'s errors for @spec. Since 1.8.
 */
int udrv_spi_open_fd(struct udrv_spi *spi, const char *spec, int fd);
void udrv_spi_close(struct udrv_spi *spi);
void udrv_spi_free(struct udrv_spi *spi);
const char *udrv_spi_errmsg(const struct udrv_spi *spi);

unsigned int udrv_spi_bus(const struct udrv_spi *spi);
unsigned int udrv_spi_cs(const struct udrv_spi *spi);
int udrv_spi_fd(const struct udrv_spi *spi);

/* UDRV_SPI_MODE_0..3 with UDRV_SPI_CS_HIGH, _LSB_FIRST, _3WIRE, _LOOP,
 * _NO_CS. -EINVAL: a bit udrv does not know; -EOPNOTSUPP: the controller
 * refused it (the message names the bits). */
int udrv_spi_set_mode(struct udrv_spi *spi, uint32_t mode);
uint32_t udrv_spi_mode(const struct udrv_spi *spi);
/* 1..32 bits per word (8: bytes); -EOPNOTSUPP: the controller lacks it. */
int udrv_spi_set_bits_per_word(struct udrv_spi *spi, unsigned int bits);
unsigned int udrv_spi_bits_per_word(const struct udrv_spi *spi);
/* The clock's maximum, 1 Hz..1 GHz: what spidev keeps (see above). */
int udrv_spi_set_max_speed_hz(struct udrv_spi *spi, uint32_t hz);
uint32_t udrv_spi_max_speed_hz(const struct udrv_spi *spi);

/* One full-duplex transfer of @len bytes (1..spidev's buffer, 4096 by
 * default): @tx sent (NULL: zeros), @rx filled (NULL: dropped). Returns
 * @len, or a negative errno. */
int udrv_spi_transfer(struct udrv_spi *spi, const void *tx, void *rx, size_t len);
/* @n transfers (1..UDRV_SPI_XFERS_MAX) in one message, the chip select held
 * between them unless a transfer's cs_change says otherwise; their bytes
 * each way at most spidev's buffer, each transfer rounded up to the
 * kernel's allocation alignment (8 bytes on x86, 64 or 128 on arm); a
 * transfer of 0 bytes only waits its delay or changes the chip select.
 * spidev and the SPI core check the whole message before anything is
 * sent, and the message of a refusal says what they refused. Returns the
 * bytes transferred. */
int udrv_spi_message(struct udrv_spi *spi, const struct udrv_spi_xfer *xfers, size_t n);

/* The spidev devices there are ("spidev0.0", ...), sorted by bus, then
 * chip select; see udrv_chip_list(). */
int udrv_spi_list(char ***names);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_SPI_H */
