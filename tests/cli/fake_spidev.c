// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake spidev for the CLI tests (test_cli_spi.py), preloaded (LD_PRELOAD)
 * into udrv: spidev's ioctls on the regular files dev/spidevB.C of the fake
 * tree, as Linux 6.1's spidev answers them, and a loopback device behind
 * them (MISO wired to MOSI: the bytes sent come back).
 *
 * The node:	its settings, one line "MODE BITS SPEED" (spidev keeps them
 *		for the next opener: so does the file); empty: 0 8 500000
 * Its log:	dev/spidevB.C.log, one line per message: its transfers'
 *		lengths ("xfer 3")
 * Unwired:	with dev/spidevB.C.stuck there, MISO reads high (0xff: no
 *		device answers; what udrv-bench spi's check must see)
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

static int message(const char *node, const struct spi_ioc_transfer *x, unsigned int n)
{
	char path[PATH_MAX + 8];
	int total = 0;
	bool stuck;
	FILE *f;

	snprintf(path, sizeof(path), "%s.stuck", node);
	stuck = access(path, F_OK) == 0;
	snprintf(path, sizeof(path), "%s.log", node);
	f = fopen(path, "a");
	for (unsigned int i = 0; i < n; i++) {
		if (x[i].rx_buf && stuck)
			memset((void *)(uintptr_t)x[i].rx_buf, 0xff, x[i].len);
		else if (x[i].rx_buf && x[i].tx_buf)
			memcpy((void *)(uintptr_t)x[i].rx_buf, (const void *)(uintptr_t)x[i].tx_buf,
			       x[i].len);
		else if (x[i].rx_buf)
			memset((void *)(uintptr_t)x[i].rx_buf, 0, x[i].len);
		if (f)
			fprintf(f, "xfer %u\n", x[i].len);
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
		return message(node, p, _IOC_SIZE(req) / sizeof(struct spi_ioc_transfer));
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
