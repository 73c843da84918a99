// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq-check: exercise the toolkit's kernel helper udrv-irq
 * (kernel/udrv-irq, /dev/udrv-irq) in the lab through its uapi, and print
 * what happened as lines for tests/lab/test_udrv_irq.py:
 *
 *   edge K seqno S level L late_ns D     after each of COUNT toggles of OUT
 *                                        (D: the handler's timestamp minus
 *                                        the time just before the write)
 *   check NAME ERRNO                     a misuse and the errno it got
 *                                        (0: it worked)
 *
 * OUT is wired to IN (gpio-wire's lines 2k -> 2k+1). The process requests
 * OUT as an output and IN as a plain input through libudrv (the helper
 * takes IN's interrupt while the process holds the line), and a second
 * request of IN+2 with edge detection (its interrupt is taken: EBUSY).
 *
 * Usage: udrv-irq-check CHIP OUT IN COUNT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include <udrv/udrv-irq.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int bind_line(int fd, const char *chip, unsigned int off, unsigned int flags)
{
	struct udrv_irq_bind b = { .offset = off, .flags = flags };

	snprintf(b.chip, sizeof(b.chip), "%s", chip);
	return ioctl(fd, UDRV_IRQ_BIND, &b) ? errno : 0;
}

static void check(const char *name, int err)
{
	printf("check %s %d\n", name, err);
}

static int open_dev(void)
{
	int fd = open(UDRV_IRQ_DEVICE, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("udrv-irq-check: " UDRV_IRQ_DEVICE);
		exit(1);
	}
	return fd;
}

/* COUNT toggles of OUT, one event read after each. */
static int edges(int fd, struct udrv_request *req, unsigned int count)
{
	struct udrv_irq_event ev;

	for (unsigned int k = 1; k <= count; k++) {
		uint64_t t = now_ns();

		if (udrv_request_set_value(req, 0, (int)(k & 1)) ||
		    read(fd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev)) {
			fprintf(stderr, "udrv-irq-check: edge %u: %s\n", k,
				strerror(errno));
			return 1;
		}
		printf("edge %u seqno %u level %d late_ns %lld\n", k, ev.seqno,
		       ev.level, (long long)(ev.timestamp_ns - t));
	}
	return 0;
}

/* What the helper refuses, each with its errno. */
static void misuses(int fd, const char *chip, unsigned int in)
{
	struct udrv_irq_event ev;
	int other = open_dev();
	char small[4];

	fcntl(fd, F_SETFL, O_NONBLOCK);
	check("nonblock-nothing-new", read(fd, &ev, sizeof(ev)) < 0 ? errno : 0);
	fcntl(fd, F_SETFL, 0);
	check("short-buffer", read(fd, small, sizeof(small)) < 0 ? errno : 0);
	check("bind-twice", bind_line(fd, chip, in, UDRV_IRQ_RISING));
	check("read-unbound", read(other, &ev, sizeof(ev)) < 0 ? errno : 0);
	check("line-taken", bind_line(other, chip, in, UDRV_IRQ_RISING));
	check("no-such-chip", bind_line(other, "no-such-chip", in, UDRV_IRQ_RISING));
	check("no-such-line", bind_line(other, chip, 9999, UDRV_IRQ_RISING));
	check("no-edge", bind_line(other, chip, in, 0));
	check("unknown-flag", bind_line(other, chip, in, 4));
	check("edge-detection-holds-it", bind_line(other, chip, in + 2,
						   UDRV_IRQ_RISING));
	check("unknown-ioctl", ioctl(other, _IO(UDRV_IRQ_IOC_MAGIC, 0x7f)) ? errno : 0);
	close(fd);	/* gives IN's interrupt back */
	check("bind-after-close", bind_line(other, chip, in, UDRV_IRQ_FALLING));
	close(other);
}

static struct udrv_request *request(struct udrv_chip *chip, unsigned int off,
				    enum udrv_direction dir, enum udrv_edge edge)
{
	struct udrv_request_config cfg = { .consumer = "udrv-irq-check" };
	struct udrv_line_settings s = { .direction = dir, .edge = edge };
	struct udrv_request *req = NULL;

	if (udrv_chip_request(chip, &cfg, 1, &off, &s, &req)) {
		fprintf(stderr, "udrv-irq-check: line %u: %s\n", off,
			udrv_chip_errmsg(chip));
		exit(1);
	}
	return req;
}

int main(int argc, char **argv)
{
	struct udrv_request *out, *in, *edged;
	struct udrv_chip *chip;
	unsigned int o, i, n;
	int fd, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: udrv-irq-check CHIP OUT IN COUNT\n");
		return 2;
	}
	o = (unsigned int)atoi(argv[2]);
	i = (unsigned int)atoi(argv[3]);
	n = (unsigned int)atoi(argv[4]);
	chip = udrv_chip_new();
	if (!chip || udrv_chip_open(chip, argv[1])) {
		fprintf(stderr, "udrv-irq-check: %s: %s\n", argv[1],
			chip ? udrv_chip_errmsg(chip) : "out of memory");
		return 1;
	}
	out = request(chip, o, UDRV_DIR_OUTPUT, UDRV_EDGE_NONE);
	in = request(chip, i, UDRV_DIR_INPUT, UDRV_EDGE_NONE);
	edged = request(chip, i + 2, UDRV_DIR_INPUT, UDRV_EDGE_BOTH);
	fd = open_dev();
	check("bind", bind_line(fd, udrv_chip_label(chip), i,
				UDRV_IRQ_RISING | UDRV_IRQ_FALLING));
	ret = edges(fd, out, n);
	if (!ret)
		misuses(fd, udrv_chip_label(chip), i);
	udrv_request_release(edged);
	udrv_request_release(in);
	udrv_request_release(out);
	udrv_chip_free(chip);
	return ret;
}
