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

#include "chip.h"
#include "daemon.h"
#include "devices.h"
#include "objects.h"
#include "request.h"
#include "restore.h"
#include "watch.h"

/* A gpiochipN node came or went (model/hotplug.h). */
static void chip_came(void *data, const char *name)
{
	udrvd_chip_add(data, name);
}

static void chip_went(void *data, const char *name)
{
	udrvd_chip_remove(data, name);
}

int udrvd_serve(struct udrvd *d)
{
	int r = sd_bus_add_object_manager(d->bus, &d->managers[0], UDRVD_CHIPS_PATH);

	if (r >= 0)
		r = sd_bus_add_object_manager(d->bus, &d->managers[1], UDRVD_REQUESTS_PATH);
	if (r >= 0)
		r = udrvd_objects_start(d);
	d->hotplug = (struct udrvd_hotplug){ .came = chip_came, .went = chip_went, .data = d };
	/* first: no chip missed; without it (said), none later */
	if (r >= 0)
		udrvd_hotplug_start(&d->hotplug, udrvd_loop(d));
	if (r >= 0)
		r = udrvd_chips_export(d);
	if (r >= 0)
		r = udrvd_devices_export(d);
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
	d->restoring = true;
	udrvd_state_restore(d);
	d->restoring = false;
	d->serving = true;
	return sd_bus_attach_event(d->bus, d->event, SD_EVENT_PRIORITY_NORMAL);
}

void udrvd_teardown(struct udrvd *d)
{
	/* what it held, with the values the kernel has now, for the next start */
	if (d->serving) {
		udrvd_state_sync(d, true);
		fprintf(stderr, "udrvd: stopped: %lu writes of the state file since start\n",
			d->state_writes);
	}
	d->state_timer = udrvd_timer_free(d->state_timer);
	free(d->state_text);
	udrvd_hotplug_stop(&d->hotplug);
	udrvd_reqs_free(d);
	udrvd_watch_stop(d);
	udrvd_objects_stop(d);
	udrvd_chips_free(d);
	sd_bus_slot_unref(d->managers[0]);
	sd_bus_slot_unref(d->managers[1]);
	sd_bus_slot_unref(d->devices);
	sd_bus_flush_close_unref(d->bus);
	sd_event_unref(d->event);
	udrvd_policy_free(d->policy);
}
