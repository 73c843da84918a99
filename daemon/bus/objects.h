/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What udrvd's object managers say of their objects (objects.c):
 * GetManagedObjects with udrvd's interfaces alone (a filter), and
 * InterfacesAdded. Each kind of object appends its interfaces with
 * udrvd_append_interface() (the InterfacesAdded and InterfacesRemoved it
 * emits name the same).
 */
#ifndef UDRVD_OBJECTS_H
#define UDRVD_OBJECTS_H

#include <systemd/sd-bus.h>

#include "caller.h"
#include "daemon.h"

int udrvd_objects_start(struct udrvd *d);
void udrvd_objects_stop(struct udrvd *d);
/* "{iface: {property: value}}" of @vtable's properties into @reply. */
int udrvd_append_interface(sd_bus_message *reply, const char *path, const char *iface,
			   const sd_bus_vtable *vtable, void *userdata);
/*
 * Whom the properties being read are for: the caller a GetManagedObjects
 * is answered for, or the sender of the Properties.Get or GetAll that
 * sd-bus answers (@c holds its credentials: udrvd_caller_done() after);
 * NULL for anyone (a signal every listener gets, a caller udrvd cannot
 * tell): a line's state and a request are shown only to those the policy
 * names (udrvd_line_shown(), udrvd_req_shown()).
 */
const struct udrvd_caller *udrvd_viewer(struct udrvd *d, struct udrvd_creds *c);
/* InterfacesAdded for @path's @ifaces (NULL-terminated), their properties
 * left out: listeners Get what the policy shows them. */
int udrvd_emit_added(struct udrvd *d, const char *path, const char *const *ifaces);

#endif /* UDRVD_OBJECTS_H */
