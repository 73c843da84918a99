// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chips that come and go while udrvd runs: a module loaded or a driver
 * bound later (an FPGA's GPIO block, a USB or I2C expander), a driver
 * unbound or reloaded.
 *
 * udrvd watches the device directory (/dev, UDRV_SYSROOT's in the tests)
 * with inotify: the kernel's devtmpfs makes a gpiochipN node when a chip
 * registers and removes it when the chip goes. A new node is exported as
 * the chips found at start are (its Chip and Line objects, InterfacesAdded:
 * the bus side's, told of it through struct udrvd_hotplug's came());
 * one that udrvd may not open yet is tried again when its owner or mode
 * changes (IN_ATTRIB: udev applying the gpio group's rule). A removed node
 * takes its chip's objects with it (InterfacesRemoved), and the requests of
 * udrvd's on it, which the kernel has already ended: they are released and
 * dropped from the state file. The watch is set before the chips are listed,
 * so that none registered in between is missed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "internal.h"
#include "hotplug.h"

#define HOTPLUG_EVENTS	(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE | IN_MOVED_FROM)

static void on_node(struct udrvd_hotplug *h, const struct inotify_event *ev)
{
	unsigned int num;

	if (!ev->len || strncmp(ev->name, "gpiochip", 8) ||
	    udrv_parse_devnum(ev->name, "gpiochip", &num))
		return;
	if (ev->mask & (IN_DELETE | IN_MOVED_FROM))
		h->went(h->data, ev->name);
	else
		h->came(h->data, ev->name);
}

static void on_inotify(struct udrvd_io *io, int fd, void *data)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct udrvd_hotplug *h = data;
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		fprintf(stderr, "udrvd: no more hotplug events: read %s\n",
			n < 0 ? strerror(errno) : "returned nothing");
		udrvd_io_stop(io);
		return;
	}
	for (ssize_t off = 0; off + (ssize_t)sizeof(struct inotify_event) <= n;) {
		const struct inotify_event *ev = (const void *)(buf + off);

		if (ev->mask & IN_Q_OVERFLOW)
			fprintf(stderr, "udrvd: hotplug events were lost (inotify queue full): "
				"restart udrvd to see every chip\n");
		else
			on_node(h, ev);
		off += (ssize_t)(sizeof(*ev) + ev->len);
	}
}

int udrvd_hotplug_start(struct udrvd_hotplug *h, struct udrvd_loop *loop)
{
	char dev[PATH_MAX] = "/dev";
	int fd, err;

	err = udrv_path(dev, sizeof(dev), "/dev");
	fd = err ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd >= 0 && inotify_add_watch(fd, dev, HOTPLUG_EVENTS) < 0)
		err = -errno;
	else if (fd < 0 && !err)
		err = -errno;
	if (!err)
		err = udrvd_io_add(loop, &h->io, fd, true, on_inotify, h);
	if (err < 0) {
		fprintf(stderr, "udrvd: chips that come later are not exported "
			"(watching %s: %s)\n", dev, strerror(-err));
		if (fd >= 0)
			close(fd);
	}
	return err;
}

void udrvd_hotplug_stop(struct udrvd_hotplug *h)
{
	h->io = udrvd_io_free(h->io);
}
