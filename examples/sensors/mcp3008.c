// SPDX-License-Identifier: GPL-2.0-only
/*
 * An ADC on SPI, driven from userspace: an MCP3008 (8 channels, 10 bits;
 * an MCP3004 has the first four) read through spidev.
 *
 * One conversion is one 3-byte full-duplex transfer (the data sheet's
 * "SPI communication with 8-bit segments"): a start bit, then single-ended
 * (1) and the channel's three bits, then a byte of clocks for the result;
 * the answer's last 10 bits are the value, 0..1023 of the reference voltage.
 * Mode 0, at most 1.35 MHz at 2.7 V (3.6 MHz at 5 V).
 *
 * On the lab's x86 boards the rig's spi-fixture plays the ADC on its chip
 * select 0 (its channels' values set by the test); on a Raspberry Pi with
 * dtparam=spi=on it is spidev0.0:
 *   udrv-mcp3008 0.0 0 7
 *
 * Usage: udrv-mcp3008 DEVICE [FIRST [LAST]]  (channels, default 0 to 7)
 * Build: cc mcp3008.c $(pkg-config --cflags --libs libudrv)
 */
#include <stdio.h>
#include <stdlib.h>

#include <udrv/udrv.h>

#define MCP3008_MAX_HZ	1350000

/* One conversion of single-ended channel @ch: 0 with its value, or an error. */
static int mcp3008_read(struct udrv_spi *spi, unsigned int ch, unsigned int *value)
{
	const uint8_t tx[3] = { 0x01, (uint8_t)(0x80 | ch << 4), 0x00 };
	uint8_t rx[3];
	int err = udrv_spi_transfer(spi, tx, rx, sizeof(tx));	/* the bytes, or -errno */

	if (err < 0)
		return err;
	*value = (rx[1] & 0x03u) << 8 | rx[2];
	return 0;
}

static int setup(struct udrv_spi *spi, const char *device)
{
	if (udrv_spi_open(spi, device) || udrv_spi_set_mode(spi, UDRV_SPI_MODE_0) ||
	    udrv_spi_set_bits_per_word(spi, 8) || udrv_spi_set_max_speed_hz(spi, MCP3008_MAX_HZ)) {
		fprintf(stderr, "udrv-mcp3008: %s\n", udrv_spi_errmsg(spi));
		return -1;
	}
	return 0;
}

static int channel(const char *s, uint64_t min, uint64_t *ch)
{
	if (!udrv_parse_u64(s, 7, ch) && *ch >= min)
		return 0;
	fprintf(stderr, "udrv-mcp3008: bad channel '%s': %llu..7\n", s, (unsigned long long)min);
	return -1;
}

int main(int argc, char **argv)
{
	uint64_t first = 0, last = 7;
	struct udrv_spi *spi;
	unsigned int v;
	int ret = 0;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: udrv-mcp3008 DEVICE [FIRST [LAST]]\n");
		return 2;
	}
	if ((argc > 2 && channel(argv[2], 0, &first)) ||
	    (argc > 3 && channel(argv[3], first, &last)))
		return 2;
	if (argc == 3)
		last = first;
	spi = udrv_spi_new();
	if (!spi || setup(spi, argv[1])) {
		udrv_spi_free(spi);
		return 1;
	}
	for (uint64_t ch = first; ch <= last && !ret; ch++) {
		ret = mcp3008_read(spi, (unsigned int)ch, &v) ? 1 : 0;
		if (ret)
			fprintf(stderr, "udrv-mcp3008: %s\n", udrv_spi_errmsg(spi));
		else
			printf("channel %llu: %u\n", (unsigned long long)ch, v);
	}
	udrv_spi_free(spi);
	return ret;
}
