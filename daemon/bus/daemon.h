/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd (internal): the daemon, its bus and loop, the names it serves, its
 * quotas; its start on a bus (serve.c) and its end.
 *
 * The bus side speaks libgpiod's io.gpiod1 interface (its object paths:
 * /io/gpiod1/chips/gpiochipN, .../gpiochipN/lineM, /io/gpiod1/requests/
 * requestN, each level an org.freedesktop.DBus.ObjectManager), written
 * from the interface's description. Every call is checked against the
 * policy (model/policy.h) with the caller's credentials (caller.h).
 *
 * What udrvd holds is model/'s, plain C (model/held.h: the chips and their
 * lines, the requests, the policy, the state file; model/broker.h changes
 * them). Here, one file an interface, each with its handlers and its
 * vtable: chip.c (io.gpiod1.Chip), line.c (io.gpiod1.Line), request.c
 * (io.gpiod1.Request and io.udrv1.Request), devices.c (io.udrv1.Devices),
 * i2c.c (io.udrv1.I2c);
 * beside them export.h (what the bus keeps of an object, the interfaces
 * listed, whom properties are read for), watch.h (EdgeEvent), objects.h
 * (GetManagedObjects), linecfg.h, caller.h, errors.h (the model's refusals
 * as D-Bus errors), bus_loop.h (model/loop.h on sd-event). serve.c fills in
 * the model's events (model/held.h: objects that come, go and change) and
 * its hotplug callbacks (model/hotplug.h). No file here includes a header
 * of a file that includes its own (scripts/check-boundary's verdict
 * daemon-layers): an interface's file includes the model and export.h,
 * never another interface's.
 */
#ifndef UDRVD_DAEMON_H
#define UDRVD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "bus_loop.h"
#include "held.h"
#include "hotplug.h"

#define UDRVD_BUS_NAME		"io.gpiod1"
#define UDRVD_DEVICES_PATH	"/io/udrv1"
#define UDRVD_BUS_NAME_LEN	64	/* a client's unique name (":1.42") */
#define UDRVD_WATCHERS_MAX	64	/* watchers of one line's edge events */
/* Per-user quota (udrvd(8), LIMITS): the watchers (a line watched by a
 * connection) one uid's connections make together; over it a property read
 * gets LimitsExceeded naming the quota (the request quota is
 * model/held.h's). */
#define UDRVD_USER_WATCHERS	256

struct udrvd_watching;
struct udrvd_caller;

struct udrvd {
	sd_event *event;
	sd_bus *bus;
	struct udrvd_held held;		/* what it holds (model/held.h) */
	const char *policy_path;
	bool serving;
	sd_bus_slot *managers[2];	/* chips, requests */
	sd_bus_slot *devices;		/* io.udrv1.Devices */
	sd_bus_slot *i2c;		/* io.udrv1.I2c */
	sd_bus_slot *watch_filter;	/* who reads a Line's properties */
	sd_bus_slot *objects_filter;	/* GetManagedObjects, answered by udrvd */
	struct udrvd_watching *watching; /* connections that watch lines */
	bool viewing;			/* GetManagedObjects answered for @viewer */
	const struct udrvd_caller *viewer;
	sd_bus_slot *watchers_gone;	/* their ends heard (while there are any) */
	struct udrvd_hotplug hotplug;	/* chips that come and go */
};

/* The daemon that serves @h (the model's events are given it). */
static inline struct udrvd *udrvd_of(const struct udrvd_held *h)
{
	return h->data;
}

/* The loop @d runs on (model/loop.h's handle of @d->event). */
static inline struct udrvd_loop *udrvd_loop(struct udrvd *d)
{
	return udrvd_loop_of(d->event);
}

/* serve.c: serve @d->held.policy on @d->bus (connected) from @d->event: the
 * objects exported, the name taken, the state restored, the bus attached to
 * the loop; 0 or a negative errno (said on stderr). udrvd_teardown() releases
 * everything @d holds, the bus, the loop and the policy with it. */
int udrvd_serve(struct udrvd *d);
void udrvd_teardown(struct udrvd *d);

#endif /* UDRVD_DAEMON_H */
