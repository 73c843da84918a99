// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's test client (sd-bus), two jobs:
 *
 *	client fd REQUEST_PATH VALUE [COUNT]
 *		take a request's fd (io.udrv1.Request.GetFd) and set its first
 *		line through the kernel (GPIO_V2_LINE_SET_VALUES_IOCTL) COUNT
 *		times, alternating from VALUE, then exit, leaving the line held
 *	client load CHIP_PATH OFFSET COUNT
 *		request line OFFSET as an output (io.gpiod1.Chip.RequestLines),
 *		set it COUNT times alternating from 1 (Request.SetValues), read
 *		it back (GetValues), print "ok CALLS VALUE": the calls counted
 *		here, at the source, and the last value set
 *
 * The bus is DBUS_SYSTEM_BUS_ADDRESS's. Exit 0 done, 1 refused or failed
 * (the error's name and message on stderr), 2 bad arguments.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <systemd/sd-bus.h>

#include <udrv/parse.h>

#define IFACE	"io.gpiod1"

static int failed(const char *what, const sd_bus_error *error, int r)
{
	fprintf(stderr, "client: %s: %s: %s\n", what, error->name ? error->name : "error",
		error->message ? error->message : strerror(-r));
	return 1;
}

static int set_values(int fd, unsigned int value, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		struct gpio_v2_line_values lv = { .bits = (value ^ (i & 1)) & 1, .mask = 1 };

		if (ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0) {
			fprintf(stderr, "client: set values: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("set %u times\n", count);
	return 0;
}

static int fd_job(sd_bus *bus, const char *path, unsigned int value, unsigned int count)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int fd, r;

	r = sd_bus_call_method(bus, IFACE, path, "io.udrv1.Request", "GetFd", &error, &reply, "");
	if (r >= 0)
		r = sd_bus_message_read(reply, "h", &fd);
	r = r < 0 ? failed("GetFd", &error, r) : set_values(fd, value, count);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	return r;
}

/* RequestLines for one output line at 0; its path into @req. */
static int request_line(sd_bus *bus, const char *chip, unsigned int offset, char **req,
			sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	const char *path;
	int r = sd_bus_call_method(bus, IFACE, chip, IFACE ".Chip", "RequestLines", error, &reply,
				   "(a(aua{sv})ai)a{sv}", 1, 1, offset, 1, "direction", "s",
				   "output", 1, 0, 1, "consumer", "s", "load");

	if (r >= 0)
		r = sd_bus_message_read(reply, "o", &path);
	if (r >= 0)
		*req = strdup(path);
	sd_bus_message_unref(reply);
	return r;
}

static int load_job(sd_bus *bus, const char *chip, unsigned int offset, unsigned int count)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	unsigned int calls = 0;
	int32_t value = 0, got = -1;
	char *req = NULL;
	int r = request_line(bus, chip, offset, &req, &error);

	if (r < 0)
		return failed("RequestLines", &error, r);
	for (; calls < count && r >= 0; calls += r >= 0) {
		value = (int32_t)(~calls & 1);
		r = sd_bus_call_method(bus, IFACE, req, IFACE ".Request", "SetValues", &error, NULL,
				       "a{ui}", 1, offset, value);
	}
	if (r >= 0)
		r = sd_bus_call_method(bus, IFACE, req, IFACE ".Request", "GetValues", &error,
				       &reply, "au", 1, offset);
	if (r >= 0)
		r = sd_bus_message_read(reply, "ai", 1, &got);
	if (r < 0) {
		fprintf(stderr, "client: after %u calls:\n", calls);
		r = failed(reply ? "GetValues" : "SetValues", &error, r);
	} else {
		printf("ok %u %d\n", calls, got);
		r = got != value;
	}
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	free(req);
	return r;
}

int main(int argc, char **argv)
{
	unsigned int a = 0, count = 1;
	sd_bus *bus = NULL;
	bool fd = argc >= 4 && !strcmp(argv[1], "fd");
	bool load = argc == 5 && !strcmp(argv[1], "load");
	int r;

	if ((!fd && !load) || (fd && argc > 5) ||
	    udrv_parse_uint(argv[3], fd ? 1 : 65534, &a) ||
	    (argc == 5 && udrv_parse_uint(argv[4], 100000000, &count))) {
		fprintf(stderr, "usage: client fd REQUEST_PATH VALUE [COUNT]\n"
			"       client load CHIP_PATH OFFSET COUNT\n");
		return 2;
	}
	r = sd_bus_open_system(&bus);
	if (r < 0) {
		fprintf(stderr, "client: no bus: %s\n", strerror(-r));
		return 1;
	}
	r = fd ? fd_job(bus, argv[2], a, count) : load_job(bus, argv[2], a, count);
	sd_bus_flush_close_unref(bus);
	return r;
}
