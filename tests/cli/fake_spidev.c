// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake spidev for the CLI tests (test_cli_spi.py), preloaded (LD_PRELOAD)
 * into udrv: spidev's ioctls on the regular files dev/spidevB.C of the fake
 * tree, as Linux 6.1's spidev answers them, and a loopback device behind
 * them (MISO wired to MOSI: the bytes sent come back).
 *
 * The node:	its settings, one line "MODE BITS SPEED", kept for the next
 *		opener; empty: 0 8 500000. (6.1's spidev keeps the mode and
 *		word size so, but puts the clock back to the device's
 *		max_speed_hz at the last close: the lab's tests/lab/test_spi.py
 *		sees that on the real driver; a CLI test of one program
 *		does not depend on it.)
 * Its log:	dev/spidevB.C.log, one line per transfer of a message: its
 *		length and what the message asked of it ("xfer 3", "xfer 2
 *		cs_change delay 10 speed 1000 bits 16 word_delay 2": the
 *		fields that are not 0)
 * An ADC:	dev/spidevB.C.adc next to it, "BITS V0 V1 ... V7": instead of
 *		the loopback, an MCP3004/3008 (BITS 10) or MCP3204/3208 (12)
 *		answering each transfer as its data sheet says (after the
 *		start bit, single-ended/differential and the channel; a null
 *		bit, then the value MSB first), with the channels' values
 * Unwired:	with dev/spidevB.C.stuck there, MISO reads high (0xff: no
 *		device answers; what udrv-bench spi's check must see)
 * Refused:	a message Linux 6.1 refuses (tests/lib/fake_spi_rules.c:
 *		the buffer, sys/module/spidev/parameters/bufsiz in the tree or
 *		4096; word sizes, whole words, wires), not logged
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/spi/spidev.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fake_spi_rules.h"

struct settings {
	uint32_t mode, bits, speed;
};

static int (*real_ioctl)(int, unsigned long, ...);

/* fstatat(): the file as it is, also where udrvd's tests preload a fake
 * that makes fstat() report it as a character device */
static bool node_of(int fd, char *path, size_t len)
{
	char link[64];
	struct stat st;
	ssize_t n;

	if (fstatat(fd, "", &st, AT_EMPTY_PATH) < 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return strstr(path, "/dev/spidev") != NULL;
}

static struct settings load(int fd)
{
	struct settings s = { 0, 8, 500000 };
	char buf[64] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "%u %u %u", &s.mode, &s.bits, &s.speed) != 3)
			s = (struct settings){ 0, 8, 500000 };
	}
	return s;
}

static void save(int fd, struct settings s)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%u %u %u\n", s.mode, s.bits, s.speed);

	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		_exit(99);
}

static int bit_of(const uint8_t *b, unsigned int i)
{
	return b[i / 8] >> (7 - i % 8) & 1;
}

/* An MCP3xxx's answer to @tx (@len bytes) in @rx; false without an ADC */
static bool adc(const char *node, const uint8_t *tx, uint8_t *rx, unsigned int len)
{
	char path[PATH_MAX + 8];
	unsigned int bits, start = 0, nbits = len * 8, ch;
	long v[8] = { 0 }, value;
	FILE *f;

	snprintf(path, sizeof(path), "%s.adc", node);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%u %ld %ld %ld %ld %ld %ld %ld %ld", &bits, &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 9)
		_exit(98);
	fclose(f);
	memset(rx, 0xff, len);	/* what it drives before the null bit: don't care */
	while (tx && start < nbits && !bit_of(tx, start))
		start++;
	if (!tx || start + 6 >= nbits)
		return true;
	ch = (unsigned int)(bit_of(tx, start + 2) << 2 | bit_of(tx, start + 3) << 1 |
			    bit_of(tx, start + 4));
	value = bit_of(tx, start + 1) ? v[ch] : v[ch] - v[ch ^ 1];
	if (value < 0)
		value = 0;
	for (unsigned int k = 0; k <= bits; k++) {
		unsigned int pos = start + 6 + k;	/* the null bit, then MSB first */
		int b = k ? (int)(value >> (bits - k) & 1) : 0;

		if (pos < nbits && !b)
			rx[pos / 8] &= (uint8_t)~(0x80 >> pos % 8);
	}
	return true;
}

static void log_xfer(FILE *f, const struct spi_ioc_transfer *x)
{
	fprintf(f, "xfer %u", x->len);
	if (x->cs_change)
		fprintf(f, " cs_change");
	if (x->delay_usecs)
		fprintf(f, " delay %u", x->delay_usecs);
	if (x->speed_hz)
		fprintf(f, " speed %u", x->speed_hz);
	if (x->bits_per_word)
		fprintf(f, " bits %u", x->bits_per_word);
	if (x->word_delay_usecs)
		fprintf(f, " word_delay %u", x->word_delay_usecs);
	fprintf(f, "\n");
}

static int message(const char *node, struct settings s, const struct spi_ioc_transfer *x,
		   unsigned int n)
{
	size_t rootlen = (size_t)(strstr(node, "/dev/spidev") - node);	/* node_of() */
	struct fake_spi_device d = { s.mode, (uint8_t)s.bits, 0xffffffff,
				     fake_spi_bufsiz(node, rootlen) };
	char path[PATH_MAX + 8];
	int total = 0, err = fake_spi_refusal(x, n, &d);
	bool stuck;
	FILE *f;

	if (err) {		/* refused before anything is sent: no log */
		errno = err;
		return -1;
	}
	snprintf(path, sizeof(path), "%s.stuck", node);
	stuck = access(path, F_OK) == 0;
	snprintf(path, sizeof(path), "%s.log", node);
	f = fopen(path, "a");
	for (unsigned int i = 0; i < n; i++) {
		uint8_t *rx = (uint8_t *)(uintptr_t)x[i].rx_buf;
		const uint8_t *tx = (const uint8_t *)(uintptr_t)x[i].tx_buf;

		if (rx && stuck) {
			memset(rx, 0xff, x[i].len);
		} else if (rx && !adc(node, tx, rx, x[i].len)) {
			if (tx)
				memcpy(rx, tx, x[i].len);
			else
				memset(rx, 0, x[i].len);
		}
		if (f)
			log_xfer(f, &x[i]);
		total += (int)x[i].len;
	}
	if (f)
		fclose(f);
	return total;
}

static int node_ioctl(int fd, const char *node, unsigned long req, void *p)
{
	struct settings s = load(fd);

	if (_IOC_TYPE(req) == SPI_IOC_MAGIC && _IOC_NR(req) == 0 && _IOC_DIR(req) == _IOC_WRITE)
		return message(node, s, p, _IOC_SIZE(req) / sizeof(struct spi_ioc_transfer));
	switch (req) {
	case SPI_IOC_RD_MODE32:
		*(uint32_t *)p = s.mode;
		return 0;
	case SPI_IOC_RD_BITS_PER_WORD:
		*(uint8_t *)p = (uint8_t)s.bits;
		return 0;
	case SPI_IOC_RD_MAX_SPEED_HZ:
		*(uint32_t *)p = s.speed;
		return 0;
	case SPI_IOC_WR_MODE32:
		s.mode = *(uint32_t *)p;
		break;
	case SPI_IOC_WR_BITS_PER_WORD:
		s.bits = *(uint8_t *)p;
		break;
	case SPI_IOC_WR_MAX_SPEED_HZ:
		s.speed = *(uint32_t *)p;
		break;
	default:
		errno = ENOTTY;
		return -1;
	}
	save(fd, s);
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	char node[PATH_MAX];
	unsigned long arg;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!real_ioctl)
		*(void **)&real_ioctl = dlsym(RTLD_NEXT, "ioctl");	/* POSIX's way */
	if (!node_of(fd, node, sizeof(node)))
		return real_ioctl(fd, req, arg);
	return node_ioctl(fd, node, req, (void *)arg);
}
