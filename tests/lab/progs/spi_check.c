// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-spi-check: one SPI message of several transfers through libudrv
 * (udrv_spi_message(): what `udrv spi transfer` does not do: per-transfer
 * clocks and word sizes, cs_change) on a spidev device in the lab, and what
 * came back as one JSON object (tests/lab/test_spi.py):
 * {"ret": 0 or -errno, "errmsg": ..., "mode": N, "bits": N, "speed_hz": N,
 *  "rx": [[bytes of transfer 0], ...]}
 * Exit 0 when the message was tried (whatever it returned), 2 for bad usage.
 *
 * Usage: udrv-spi-check DEVICE [-m MODE] [-b BITS] [-s HZ] XFER...
 *   XFER is BYTE,BYTE...[/OPTION...], OPTION one of speed=HZ, bits=N,
 *   delay=US (after it), cs (cs_change: chip select off after it),
 *   len=N (N bytes: those given, then zeros; 0 only waits or toggles),
 *   out (nothing received), in (nothing sent)
 *   -m, -b, -s set the device's mode, bits per word and clock first.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#define MAX_XFERS	16
#define MAX_LEN		8192

static int usage(void)
{
	fprintf(stderr,
		"usage: udrv-spi-check DEVICE [-m MODE] [-b BITS] [-s HZ] XFER... (see the source)\n");
	return 2;
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "udrv-spi-check: %s is not a number\n", s);
		exit(2);
	}
	return v;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static int parse_xfer(const char *spec, struct udrv_spi_xfer *x, uint8_t *tx, uint8_t *rx)
{
	char copy[1024], *opts, *tok, *save = NULL;
	long len;

	if (strlen(spec) >= sizeof(copy))
		return -1;
	strcpy(copy, spec);
	opts = strchr(copy, '/');
	if (opts)
		*opts++ = '\0';
	memset(x, 0, sizeof(*x));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (x->len == MAX_LEN)
			return -1;
		tx[x->len++] = (uint8_t)num(tok);
	}
	x->tx_buf = (uintptr_t)tx;
	x->rx_buf = (uintptr_t)rx;
	save = NULL;
	for (tok = opts ? strtok_r(opts, "/", &save) : NULL; tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strncmp(tok, "speed=", 6))
			x->speed_hz = (uint32_t)num(tok + 6);
		else if (!strncmp(tok, "bits=", 5))
			x->bits_per_word = (uint8_t)num(tok + 5);
		else if (!strncmp(tok, "delay=", 6))
			x->delay_usecs = (uint16_t)num(tok + 6);
		else if (!strcmp(tok, "cs"))
			x->cs_change = 1;
		else if (!strncmp(tok, "len=", 4) && (len = num(tok + 4)) >= 0 && len <= MAX_LEN)
			x->len = (uint32_t)len;
		else if (!strcmp(tok, "out"))
			x->rx_buf = 0;
		else if (!strcmp(tok, "in"))
			x->tx_buf = 0;
		else
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t tx[MAX_XFERS][MAX_LEN], rx[MAX_XFERS][MAX_LEN];
	struct udrv_spi_xfer x[MAX_XFERS];
	long mode = -1, bits = -1, speed = -1;
	struct udrv_spi *spi;
	int i = 2, n = 0, ret;

	if (argc < 3)
		return usage();
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-m"))
			mode = num(argv[i + 1]);
		else if (!strcmp(argv[i], "-b"))
			bits = num(argv[i + 1]);
		else if (!strcmp(argv[i], "-s"))
			speed = num(argv[i + 1]);
		else
			return usage();
	}
	for (; i < argc; i++, n++)
		if (n == MAX_XFERS || parse_xfer(argv[i], &x[n], tx[n], rx[n]))
			return usage();
	if (!n)
		return usage();
	spi = udrv_spi_new();
	if (!spi)
		return 1;
	ret = udrv_spi_open(spi, argv[1]);
	if (!ret && mode >= 0)
		ret = udrv_spi_set_mode(spi, (udrv_spi_mode(spi) & ~(uint32_t)UDRV_SPI_MODE_3) |
					     (uint32_t)mode);
	if (!ret && bits >= 0)
		ret = udrv_spi_set_bits_per_word(spi, (unsigned int)bits);
	if (!ret && speed >= 0)
		ret = udrv_spi_set_max_speed_hz(spi, (uint32_t)speed);
	if (!ret)
		ret = udrv_spi_message(spi, x, (size_t)n);
	ret = ret < 0 ? ret : 0;
	printf("{\"ret\": %d, \"errmsg\": ", ret);
	json_str(ret ? udrv_spi_errmsg(spi) : "");
	printf(", \"mode\": %u, \"bits\": %u, \"speed_hz\": %u, \"rx\": [",
	       udrv_spi_mode(spi), udrv_spi_bits_per_word(spi), udrv_spi_max_speed_hz(spi));
	for (int k = 0; k < n; k++) {
		printf("%s[", k ? ", " : "");
		for (uint32_t b = 0; !ret && b < x[k].len; b++)
			printf("%s%u", b ? ", " : "", rx[k][b]);
		printf("]");
	}
	printf("]}\n");
	udrv_spi_free(spi);
	return 0;
}
