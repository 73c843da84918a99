/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Chips that come and go (hotplug.c), from the device directory (inotify),
 * plain C: a gpiochipN node that came or went is reported to @came or
 * @went (the bus side exports or drops the chip's objects).
 */
#ifndef UDRVD_HOTPLUG_H
#define UDRVD_HOTPLUG_H

#include "loop.h"

struct udrvd_hotplug {
	void (*came)(void *data, const char *name);	/* "gpiochipN" */
	void (*went)(void *data, const char *name);
	void *data;
	struct udrvd_io *io;		/* the watch, while there is one */
};

/* Watch the device directory on @loop; 0, or a negative errno (said: no
 * chip that comes later is reported). */
int udrvd_hotplug_start(struct udrvd_hotplug *h, struct udrvd_loop *loop);
void udrvd_hotplug_stop(struct udrvd_hotplug *h);

#endif /* UDRVD_HOTPLUG_H */
