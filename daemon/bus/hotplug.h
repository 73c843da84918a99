/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Chips that come and go (hotplug.c), from the device directory (inotify).
 */
#ifndef UDRVD_HOTPLUG_H
#define UDRVD_HOTPLUG_H

#include "daemon.h"

int udrvd_hotplug_start(struct udrvd *d);
void udrvd_hotplug_stop(struct udrvd *d);

#endif /* UDRVD_HOTPLUG_H */
