// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the bus keeps of the model's objects, and what every interface
 * needs of the bus: its properties listed (GetManagedObjects, objects.c),
 * whom they are read for, InterfacesAdded (export.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define MANAGER_IFACE	"org.freedesktop.DBus.ObjectManager"

int udrvd_export_new(struct udrvd_export **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

struct udrvd_export *udrvd_export_free(struct udrvd_export *x)
{
	if (!x)
		return NULL;
	sd_bus_slot_unref(x->slot);
	sd_bus_slot_unref(x->manager);
	sd_bus_slot_unref(x->udrv1_slot);
	free(x);
	return NULL;
}

int udrvd_append_interface(sd_bus_message *reply, const char *path, const char *iface,
			   const sd_bus_vtable *vtable, void *userdata)
{
	sd_bus *bus = sd_bus_message_get_bus(reply);
	sd_bus_error error = SD_BUS_ERROR_NULL;
	int r = sd_bus_message_open_container(reply, 'e', "sa{sv}");

	if (r >= 0)
		r = sd_bus_message_append(reply, "s", iface);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'a', "{sv}");
	for (const sd_bus_vtable *v = vtable + 1; r >= 0 && v->type != _SD_BUS_VTABLE_END; v++) {
		if ((v->type != _SD_BUS_VTABLE_PROPERTY &&
		     v->type != _SD_BUS_VTABLE_WRITABLE_PROPERTY) ||
		    (v->flags & (SD_BUS_VTABLE_HIDDEN | SD_BUS_VTABLE_PROPERTY_EXPLICIT)))
			continue;
		r = sd_bus_message_open_container(reply, 'e', "sv");
		if (r >= 0)
			r = sd_bus_message_append(reply, "s", v->x.property.member);
		if (r >= 0)
			r = sd_bus_message_open_container(reply, 'v', v->x.property.signature);
		if (r >= 0)
			r = v->x.property.get(bus, path, iface, v->x.property.member, reply,
					      (char *)userdata + v->x.property.offset, &error);
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
	}
	sd_bus_error_free(&error);
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

const struct udrvd_caller *udrvd_viewer(struct udrvd *d, struct udrvd_creds *c)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *m;
	int r;

	*c = (struct udrvd_creds){ 0 };
	if (d->viewing)
		return d->viewer;
	m = sd_bus_get_current_message(d->bus);
	if (!m || !sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties", NULL))
		return NULL;
	r = udrvd_caller_of(m, c, &error);
	sd_bus_error_free(&error);
	return r < 0 ? NULL : &c->caller;
}

int udrvd_emit_added(struct udrvd *d, const char *path, const char *const *ifaces)
{
	/* the manager of @path: the requests' or the chips' */
	bool req = !strncmp(path, UDRVD_REQUESTS_PATH "/", strlen(UDRVD_REQUESTS_PATH "/"));
	sd_bus_message *s = NULL;
	int r = sd_bus_message_new_signal(d->bus, &s, req ? UDRVD_REQUESTS_PATH : UDRVD_CHIPS_PATH,
					  MANAGER_IFACE, "InterfacesAdded");

	if (r >= 0)
		r = sd_bus_message_append(s, "o", path);
	if (r >= 0)
		r = sd_bus_message_open_container(s, 'a', "{sa{sv}}");
	for (; r >= 0 && *ifaces; ifaces++)
		r = sd_bus_message_append(s, "{sa{sv}}", *ifaces, 0);
	if (r >= 0)
		r = sd_bus_message_close_container(s);
	if (r >= 0)
		r = sd_bus_send(d->bus, s, NULL);
	sd_bus_message_unref(s);
	return r;
}

