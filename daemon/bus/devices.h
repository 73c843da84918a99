/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.udrv1.Devices (devices.c): UIO and VFIO devices for clients.
 */
#ifndef UDRVD_DEVICES_H
#define UDRVD_DEVICES_H

#include "daemon.h"

int udrvd_devices_export(struct udrvd *d);

#endif /* UDRVD_DEVICES_H */
