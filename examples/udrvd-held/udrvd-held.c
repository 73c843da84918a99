// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drive a line that udrvd holds, at the character device's speed: the
 * worked example of udrvd's fast path from C.
 *
 *   1. find the line's request: udrvd exports each line as a D-Bus object,
 *      /io/gpiod1/chips/CHIP/lineOFFSET, whose RequestPath property names
 *      the request of udrvd's that holds it ("/" for none)
 *   2. take the request's file descriptor (io.udrv1.Request.GetFd): udrvd
 *      hands it to the request's owner when its policy grants every
 *      permission on each line
 *   3. adopt it with udrv_request_adopt(), with the offsets of all the
 *      request's lines in its order (its LinePaths, each line's Offset); no
 *      access to the chip's device node is needed
 *   4. set the line COUNT times, one ioctl each and no D-Bus call, and
 *      leave it at its level: releasing the handle closes our descriptor
 *      and udrvd keeps the line held
 *
 * Hold the line first, e.g.  udrv gpio set --hold daemon -c gpiochip0 17=1
 *
 * Usage: udrvd-held CHIP OFFSET [COUNT]    (CHIP: gpiochipN; COUNT: 1000)
 * Build: cc udrvd-held.c $(pkg-config --cflags --libs libudrv libsystemd)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#define BUS	"io.gpiod1"

static int bus_fail(const char *what, const sd_bus_error *e, int r)
{
	fprintf(stderr, "udrvd-held: %s: %s\n", what,
		e && e->message ? e->message : strerror(-r));
	return -1;
}

/* The request that holds @line (an object path), into @req (freed by the
 * caller). */
static int find_request(sd_bus *bus, const char *line, char **req)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *path = NULL;
	int r = sd_bus_get_property(bus, BUS, line, "io.gpiod1.Line", "RequestPath", &e,
				    &reply, "o");

	if (r < 0)
		r = bus_fail(line, &e, r);
	else if (sd_bus_message_read(reply, "o", &path) <= 0 || !strcmp(path, "/"))
		r = -fprintf(stderr, "udrvd-held: udrvd does not hold %s: hold it first "
			     "(udrv gpio set --hold daemon)\n", line);
	else if (!(*req = strdup(path)))
		r = -ENOMEM;
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

/* The offsets of all the lines of request @req, in its order. */
static int request_offsets(sd_bus *bus, const char *req, unsigned int *offsets, size_t *n)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char **lines = NULL;
	int r = sd_bus_get_property_strv(bus, BUS, req, "io.gpiod1.Request", "LinePaths", &e,
					 &lines);

	*n = 0;
	for (size_t i = 0; r >= 0 && lines[i] && *n < UDRV_LINES_MAX; i++) {
		uint32_t off;

		r = sd_bus_get_property_trivial(bus, BUS, lines[i], "io.gpiod1.Line", "Offset",
						&e, 'u', &off);
		offsets[(*n)++] = off;
	}
	if (r < 0)
		bus_fail(req, &e, r);
	for (size_t i = 0; lines && lines[i]; i++)
		free(lines[i]);
	free(lines);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

/* io.udrv1.Request.GetFd: a descriptor of our own (the reply's closes). */
static int request_fd(sd_bus *bus, const char *req)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int fd = -1, r = sd_bus_call_method(bus, BUS, req, "io.udrv1.Request", "GetFd", &e,
					    &reply, "");

	if (r < 0)
		bus_fail("GetFd", &e, r);
	else if (sd_bus_message_read(reply, "h", &fd) > 0)
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return fd;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Toggle line @offset of @req @count times from its level, back to it. */
static int drive(struct udrv_request *req, unsigned int offset, unsigned int count)
{
	size_t idx = 0;
	uint64_t t0;
	int level;

	while (udrv_request_offset(req, idx) != offset)
		idx++;
	level = udrv_request_get_value(req, idx);
	if (level < 0)
		return level;
	t0 = now_ns();
	for (unsigned int i = 1; i <= count; i++)
		if (udrv_request_set_value(req, idx, level ^ (int)(i & 1)) < 0)
			return -1;
	printf("%u sets of offset %u, %.0f ns each; left at %d\n", count, offset,
	       count ? (double)(now_ns() - t0) / (double)count : 0.0,
	       udrv_request_get_value(req, idx));
	return 0;
}

static int run(sd_bus *bus, const char *chip, unsigned int offset, unsigned int count)
{
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_request *req = NULL;
	char line[128], err[256], *path = NULL;
	size_t n;
	int fd = -1, r;

	snprintf(line, sizeof(line), "/io/gpiod1/chips/%s/line%u", chip, offset);
	r = find_request(bus, line, &path);
	if (!r)
		r = request_offsets(bus, path, offsets, &n);
	if (!r && (fd = request_fd(bus, path)) < 0)
		r = -1;
	if (!r && udrv_request_adopt(chip, fd, n, offsets, &req, err, sizeof(err)) < 0) {
		fprintf(stderr, "udrvd-held: %s\n", err);
		close(fd);
		r = -1;
	}
	if (!r && drive(req, offset, count) < 0) {
		fprintf(stderr, "udrvd-held: %s\n", udrv_request_errmsg(req));
		r = -1;
	}
	udrv_request_release(req);	/* closes fd: udrvd still holds the line */
	free(path);
	return r;
}

int main(int argc, char **argv)
{
	unsigned int offset, count = 1000;
	sd_bus *bus = NULL;
	int r;

	if (argc < 3 || argc > 4 || udrv_parse_uint(argv[2], 65535, &offset) ||
	    (argc == 4 && udrv_parse_uint(argv[3], 100000000, &count))) {
		fprintf(stderr, "usage: udrvd-held CHIP OFFSET [COUNT]\n"
			"  set line OFFSET of CHIP (gpiochipN), which udrvd holds for you,\n"
			"  COUNT times (1000) through the request's descriptor\n");
		return 2;
	}
	r = sd_bus_open_system(&bus);
	if (r < 0)
		return bus_fail("the system bus", NULL, r), 1;
	r = run(bus, argv[1], offset, count);
	sd_bus_flush_close_unref(bus);
	return r < 0 ? 1 : 0;
}
