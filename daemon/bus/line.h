/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1.Line objects (line.c): a chip's lines (model/chips.h). A
 * line's state is shown to root and to the callers with a rule for it;
 * others read its name and offset, and the rest as a free input's
 * (udrvd.conf(5)).
 */
#ifndef UDRVD_LINE_H
#define UDRVD_LINE_H

#include <systemd/sd-bus.h>

#include "chips.h"

/* @l on the bus (0 or a negative errno), and off it again (its watchers
 * gone with it). */
int udrvd_line_export(struct udrvd_line *l);
void udrvd_line_unexport(struct udrvd_line *l);
/* PropertiesChanged for @l's properties (their names: their values are not
 * for every listener). */
void udrvd_line_changed(struct udrvd_line *l);
int udrvd_line_interfaces(struct udrvd_line *l, sd_bus_message *reply);

#endif /* UDRVD_LINE_H */
