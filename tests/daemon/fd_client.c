// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client of udrvd's fast path, for the tests: takes a request's file
 * descriptor (io.udrv1.Request.GetFd) and sets its first line through the
 * kernel (GPIO_V2_LINE_SET_VALUES_IOCTL) COUNT times, alternating from
 * VALUE, then exits, leaving the line to udrvd.
 *
 *	fd_client REQUEST_PATH VALUE [COUNT]
 *
 * The bus is DBUS_SYSTEM_BUS_ADDRESS's. Exit 0 done, 1 refused or failed
 * (the error's name and message on stderr), 2 bad arguments.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <systemd/sd-bus.h>

#include <udrv/parse.h>

static int set_values(int fd, unsigned int value, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		struct gpio_v2_line_values lv = { .bits = (value ^ (i & 1)) & 1, .mask = 1 };

		if (ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0) {
			fprintf(stderr, "fd_client: set values: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	unsigned int value, count = 1;
	sd_bus *bus = NULL;
	int fd, r;

	if (argc < 3 || argc > 4 || udrv_parse_uint(argv[2], 1, &value) ||
	    (argc == 4 && udrv_parse_uint(argv[3], 100000000, &count))) {
		fprintf(stderr, "usage: fd_client REQUEST_PATH VALUE(0|1) [COUNT]\n");
		return 2;
	}
	r = sd_bus_open_system(&bus);
	if (r >= 0)
		r = sd_bus_call_method(bus, "io.gpiod1", argv[1], "io.udrv1.Request", "GetFd",
				       &error, &reply, "");
	if (r >= 0)
		r = sd_bus_message_read(reply, "h", &fd);
	if (r < 0) {
		fprintf(stderr, "fd_client: %s: %s\n", error.name ? error.name : "error",
			error.message ? error.message : strerror(-r));
		return 1;
	}
	r = set_values(fd, value, count);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	sd_bus_flush_close_unref(bus);
	if (!r)
		printf("set %u times\n", count);
	return r;
}
