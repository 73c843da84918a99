// SPDX-License-Identifier: GPL-2.0-only
/*
 * What udrvd's object managers say of their objects: GetManagedObjects, and
 * InterfacesAdded and InterfacesRemoved (emitted where objects come and go),
 * with udrvd's own interfaces alone, as libgpiod's gpio-manager says them.
 *
 * sd-bus's own GetManagedObjects lists org.freedesktop.DBus.Peer,
 * Introspectable, Properties and ObjectManager on every object too (each
 * object has them; the specification lets a manager leave them out). A
 * GDBus client such as gpiocli makes a proxy for every interface it is told
 * of: traced in the lab, that cost each `gpiocli set` 2.2 ms of its own CPU
 * time on the rt board (23.2 ms against 21.0 ms through gpio-manager), more
 * than udrvd saves it. So a filter answers GetManagedObjects on udrvd's
 * three kinds of manager (the chips, a chip's lines, the requests) before
 * sd-bus does, from the objects' own vtables; sd-bus still introspects them.
 *
 * The answer is the caller's: the property readers show a line's state and
 * a request to whom the policy names (udrvd_viewer()), and a request that is
 * not shown to the caller is left out of the list. InterfacesAdded carries
 * no properties: every listener gets it.
 */
#include <errno.h>
#include <string.h>

#include "chip.h"
#include "export.h"
#include "line.h"
#include "objects.h"
#include "request.h"

#define MANAGER_IFACE	"org.freedesktop.DBus.ObjectManager"

/* An object of GetManagedObjects' answer: {@path: {its interfaces}}, the
 * interfaces appended between object_open() and object_close(). */
static int object_open(sd_bus_message *reply, const char *path)
{
	int r = sd_bus_message_open_container(reply, 'e', "oa{sa{sv}}");

	if (r >= 0)
		r = sd_bus_message_append(reply, "o", path);
	return r < 0 ? r : sd_bus_message_open_container(reply, 'a', "{sa{sv}}");
}

static int object_close(sd_bus_message *reply)
{
	int r = sd_bus_message_close_container(reply);

	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/* The objects below @path, one of udrvd's managers: 1 answered, 0 not one. */
static int append_objects(struct udrvd *d, const char *path, sd_bus_message *reply)
{
	int r = 0;

	if (!strcmp(path, UDRVD_CHIPS_PATH)) {
		for (size_t i = 0; r >= 0 && i < d->held.nchips; i++) {
			r = object_open(reply, d->held.chips[i]->path);
			r = r < 0 ? r : udrvd_chip_interfaces(d->held.chips[i], reply);
			r = r < 0 ? r : object_close(reply);
		}
		return r < 0 ? r : 1;
	}
	if (!strcmp(path, UDRVD_REQUESTS_PATH)) {
		for (struct udrvd_req *q = d->held.reqs; r >= 0 && q; q = q->next) {
			if (!udrvd_req_shown(q, d->viewer))
				continue;
			r = object_open(reply, q->path);
			r = r < 0 ? r : udrvd_req_interfaces(q, reply);
			r = r < 0 ? r : object_close(reply);
		}
		return r < 0 ? r : 1;
	}
	for (size_t i = 0; i < d->held.nchips; i++) {
		struct udrvd_chip *c = d->held.chips[i];

		if (strcmp(path, c->path))
			continue;
		for (unsigned int j = 0; r >= 0 && j < c->nlines; j++) {
			r = object_open(reply, c->lines[j].path);
			r = r < 0 ? r : udrvd_line_interfaces(&c->lines[j], reply);
			r = r < 0 ? r : object_close(reply);
		}
		return r < 0 ? r : 1;
	}
	return 0;
}

/* GetManagedObjects on one of udrvd's managers: answered here (1). */
static int on_message(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd *d = data;
	sd_bus_message *reply = NULL;
	const char *path = sd_bus_message_get_path(m);
	sd_bus_error refused = SD_BUS_ERROR_NULL;
	struct udrvd_creds who;
	int r, ours = 0;

	if (!sd_bus_message_is_method_call(m, MANAGER_IFACE, "GetManagedObjects") || !path ||
	    !sd_bus_message_has_signature(m, ""))
		return 0;
	r = udrvd_caller_of(m, &who, &refused);
	if (r < 0) {
		sd_bus_reply_method_error(m, &refused);
		sd_bus_error_free(&refused);
		return 1;
	}
	d->viewing = true;
	d->viewer = &who.caller;
	r = sd_bus_message_new_method_return(m, &reply);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'a', "{oa{sa{sv}}}");
	if (r >= 0)
		r = ours = append_objects(d, path, reply);
	if (r > 0)
		r = sd_bus_message_close_container(reply);
	d->viewing = false;
	d->viewer = NULL;
	udrvd_caller_done(&who);
	if (r >= 0 && ours)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	if (r >= 0)
		return ours;
	sd_bus_reply_method_errorf(m, SD_BUS_ERROR_FAILED, "udrvd cannot list the objects of %s: %s",
				   path, strerror(-r));
	return 1;
}

int udrvd_objects_start(struct udrvd *d)
{
	return sd_bus_add_filter(d->bus, &d->objects_filter, on_message, d);
}

void udrvd_objects_stop(struct udrvd *d)
{
	d->objects_filter = sd_bus_slot_unref(d->objects_filter);
}
