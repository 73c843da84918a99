// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd on a bus: its objects exported, the name taken, the held lines
 * restored, served from its event loop; and taken down again. udrvd.c's
 * main() does this on the system bus; the fuzzer of its handlers
 * (tests/fuzz/fuzz_udrvd.c) on a bus of its own, in-process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "chip.h"
#include "creds.h"
#include "daemon.h"
#include "devices.h"
#include "i2c.h"
#include "line.h"
#include "objects.h"
#include "request.h"
#include "watch.h"

/* What the model tells the bus (model/held.h): each @data is the struct
 * udrvd. */
static int chip_added(void *data, struct udrvd_chip *c, bool announce)
{
	return udrvd_chip_export(c, announce);
}

static void chip_removed(void *data, struct udrvd_chip *c, bool announce)
{
	udrvd_chip_unexport(c, announce);
}

static int req_added(void *data, struct udrvd_req *r)
{
	return udrvd_req_export(r);
}

static void req_removed(void *data, struct udrvd_req *r, bool announce)
{
	udrvd_req_unexport(r, announce);
}

static void req_changed(void *data, struct udrvd_req *r)
{
	udrvd_req_changed(r);
}

static void line_changed(void *data, struct udrvd_line *l)
{
	udrvd_line_changed(l);
}

static const struct udrvd_events events = {
	.chip_added = chip_added,
	.chip_removed = chip_removed,
	.req_added = req_added,
	.req_removed = req_removed,
	.req_changed = req_changed,
	.line_changed = line_changed,
};

/* A gpiochipN node came or went (model/hotplug.h). */
static void chip_came(void *data, const char *name)
{
	struct udrvd *d = data;

	udrvd_chip_came(&d->held, name);
}

static void chip_went(void *data, const char *name)
{
	struct udrvd *d = data;

	udrvd_chip_went(&d->held, name);
}

int udrvd_serve(struct udrvd *d)
{
	int r = sd_bus_add_object_manager(d->bus, &d->managers[0], UDRVD_CHIPS_PATH);

	d->held.loop = udrvd_loop(d);
	d->held.events = &events;
	d->held.data = d;

	if (r >= 0)
		r = sd_bus_add_object_manager(d->bus, &d->managers[1], UDRVD_REQUESTS_PATH);
	if (r >= 0)
		r = udrvd_objects_start(d);
	d->hotplug = (struct udrvd_hotplug){ .came = chip_came, .went = chip_went, .data = d };
	/* first: no chip missed; without it (said), none later */
	if (r >= 0)
		udrvd_hotplug_start(&d->hotplug, udrvd_loop(d));
	if (r >= 0)
		r = udrvd_chips_open(&d->held);
	if (r >= 0)
		r = udrvd_devices_export(d);
	if (r >= 0)
		r = udrvd_i2c_export(d);
	if (r >= 0)
		r = udrvd_watch_start(d);
	if (r < 0) {
		fprintf(stderr, "udrvd: cannot export the GPIO chips and devices: %s\n", strerror(-r));
		return r;
	}

	r = sd_bus_request_name(d->bus, UDRVD_BUS_NAME, 0);
	if (r < 0) {
		fprintf(stderr, "udrvd: cannot own the bus name " UDRVD_BUS_NAME ": %s%s\n",
			strerror(-r), r == -EEXIST ?
			" (another daemon has it: gpio-manager, or udrvd already runs)" :
			r == -EACCES ? " (the bus policy does not let this user own it: "
			"install io.gpiod1.conf into /usr/share/dbus-1/system.d)" : "");
		return r;
	}
	/* with the name: a second udrvd takes no line; calls wait in the
	 * socket until the loop runs */
	d->held.restoring = true;
	udrvd_state_restore(&d->held, udrvd_user_groups);
	d->held.restoring = false;
	d->serving = true;
	return sd_bus_attach_event(d->bus, d->event, SD_EVENT_PRIORITY_NORMAL);
}

void udrvd_teardown(struct udrvd *d)
{
	/* what it held, with the values the kernel has now, for the next start */
	if (d->serving) {
		udrvd_state_sync(&d->held, true);
		fprintf(stderr, "udrvd: stopped: %lu writes of the state file since start\n",
			d->held.state_writes);
	}
	udrvd_hotplug_stop(&d->hotplug);
	udrvd_watch_stop(d);
	udrvd_objects_stop(d);
	udrvd_held_free(&d->held);
	sd_bus_slot_unref(d->managers[0]);
	sd_bus_slot_unref(d->managers[1]);
	sd_bus_slot_unref(d->devices);
	sd_bus_slot_unref(d->i2c);
	sd_bus_flush_close_unref(d->bus);
	sd_event_unref(d->event);
}
