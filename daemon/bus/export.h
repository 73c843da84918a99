/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the bus keeps of the model's objects (export.c): each chip, line and
 * request has a struct udrvd_export (model/chips.h and model/requests.h
 * know it by name alone), with its sd-bus slots. And what every interface
 * needs: its properties listed for GetManagedObjects
 * (udrvd_append_interface(): the InterfacesAdded and InterfacesRemoved
 * udrvd emits name the same), whom they are read for (udrvd_viewer()),
 * InterfacesAdded.
 */
#ifndef UDRVD_EXPORT_H
#define UDRVD_EXPORT_H

#include <systemd/sd-bus.h>

#include "caller.h"
#include "daemon.h"

struct udrvd_watcher;

struct udrvd_export {
	sd_bus_slot *slot;		/* its interface */
	sd_bus_slot *manager;		/* a chip: the object manager of its lines */
	sd_bus_slot *udrv1_slot;	/* a request: io.udrv1.Request */
	struct udrvd_watcher *watchers;	/* a line: who gets its EdgeEvent signals */
	struct udrvd_io *events;	/* a request: its fd, when a line has edge detection */
};

/* A new record (zeroed) into @out: 0 or -ENOMEM; freed with its slots
 * (NULL: none), NULL. */
int udrvd_export_new(struct udrvd_export **out);
struct udrvd_export *udrvd_export_free(struct udrvd_export *x);

/* "{iface: {property: value}}" of @vtable's properties into @reply. */
int udrvd_append_interface(sd_bus_message *reply, const char *path, const char *iface,
			   const sd_bus_vtable *vtable, void *userdata);
/*
 * Whom the properties being read are for: the caller a GetManagedObjects
 * is answered for, or the sender of the Properties.Get or GetAll that
 * sd-bus answers (@c holds its credentials: udrvd_caller_done() after);
 * NULL for anyone (a signal every listener gets, a caller udrvd cannot
 * tell): a line's state and a request are shown only to those the policy
 * names (model's udrvd_line_shown(), udrvd_req_shown()).
 */
const struct udrvd_caller *udrvd_viewer(struct udrvd *d, struct udrvd_creds *c);
/* InterfacesAdded for @path's @ifaces (NULL-terminated), their properties
 * left out: listeners Get what the policy shows them. */
int udrvd_emit_added(struct udrvd *d, const char *path, const char *const *ifaces);

#endif /* UDRVD_EXPORT_H */
