/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What udrvd's object managers say of their objects (objects.c):
 * GetManagedObjects with udrvd's interfaces alone (a filter), each object's
 * from its interface's file (chip.h, line.h, request.h).
 */
#ifndef UDRVD_OBJECTS_H
#define UDRVD_OBJECTS_H

#include "daemon.h"

int udrvd_objects_start(struct udrvd *d);
void udrvd_objects_stop(struct udrvd *d);

#endif /* UDRVD_OBJECTS_H */
