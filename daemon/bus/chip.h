/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1.Chip objects (chip.c): the chips of model/chips.h on the bus,
 * each the object manager of its lines (line.h), and RequestLines.
 */
#ifndef UDRVD_CHIP_H
#define UDRVD_CHIP_H

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "chips.h"

/* @c and its lines on the bus (@announce: InterfacesAdded); 0 or a
 * negative errno (nothing left exported). Off it again (@announce:
 * InterfacesRemoved). */
int udrvd_chip_export(struct udrvd_chip *c, bool announce);
void udrvd_chip_unexport(struct udrvd_chip *c, bool announce);
/* Its interfaces for GetManagedObjects (objects.h). */
int udrvd_chip_interfaces(struct udrvd_chip *c, sd_bus_message *reply);

#endif /* UDRVD_CHIP_H */
