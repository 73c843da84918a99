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
 * Each part has its header: chip.h, line.h, request.h, linecfg.h,
 * objects.h, watch.h, devices.h, restore.h, caller.h;
 * errors.h maps the model's refusals to D-Bus errors, bus_loop.h runs the
 * model's loop (model/loop.h) on sd-event. The model reports chips that
 * come and go (model/hotplug.h) and others' line changes
 * (model/line_watch.h) through callbacks chip.c and serve.c fill in.
 */
#ifndef UDRVD_DAEMON_H
#define UDRVD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "bus_loop.h"
#include "hotplug.h"
#include "policy.h"

#define UDRVD_BUS_NAME		"io.gpiod1"
#define UDRVD_CHIPS_PATH	"/io/gpiod1/chips"
#define UDRVD_REQUESTS_PATH	"/io/gpiod1/requests"
#define UDRVD_DEVICES_PATH	"/io/udrv1"
#define UDRVD_PATH_LEN		96
#define UDRVD_CONSUMER		"udrvd"
#define UDRVD_BUS_NAME_LEN	64	/* a client's unique name (":1.42") */
#define UDRVD_WATCHERS_MAX	64	/* watchers of one line's edge events */
/* Per-user quotas (udrvd(8), LIMITS): the requests udrvd holds for one uid,
 * and the watchers (a line watched by a connection) one uid's connections
 * make together. Over them a call gets LimitsExceeded naming the quota. */
#define UDRVD_USER_REQUESTS	256
#define UDRVD_USER_WATCHERS	256

struct udrvd_chip;
struct udrvd_req;
struct udrvd_watching;
struct udrvd_caller;

struct udrvd {
	sd_event *event;
	sd_bus *bus;
	struct udrvd_policy *policy;
	const char *policy_path;
	const char *state_path;		/* NULL: no state file */
	bool restoring;			/* no state writes until restored */
	struct udrvd_timer *state_timer; /* a state write that is due */
	char *state_text;		/* what the state file holds (as written) */
	uint64_t state_written_us;	/* when udrvd wrote it last (CLOCK_MONOTONIC) */
	unsigned long state_writes;	/* since start, said at stop */
	bool serving;
	struct udrvd_chip **chips;
	size_t nchips;
	struct udrvd_req *reqs;		/* list of held requests */
	unsigned int next_req;
	sd_bus_slot *managers[2];	/* chips, requests */
	sd_bus_slot *devices;		/* io.udrv1.Devices */
	sd_bus_slot *watch_filter;	/* who reads a Line's properties */
	sd_bus_slot *objects_filter;	/* GetManagedObjects, answered by udrvd */
	struct udrvd_watching *watching; /* connections that watch lines */
	bool viewing;			/* GetManagedObjects answered for @viewer */
	const struct udrvd_caller *viewer;
	sd_bus_slot *watchers_gone;	/* their ends heard (while there are any) */
	struct udrvd_hotplug hotplug;	/* chips that come and go */
};

/* The loop @d runs on (model/loop.h's handle of @d->event). */
static inline struct udrvd_loop *udrvd_loop(struct udrvd *d)
{
	return udrvd_loop_of(d->event);
}

/* serve.c: serve @d->policy on @d->bus (connected) from @d->event: the
 * objects exported, the name taken, the state restored, the bus attached to
 * the loop; 0 or a negative errno (said on stderr). udrvd_teardown() releases
 * everything @d holds, the bus, the loop and the policy with it. */
int udrvd_serve(struct udrvd *d);
void udrvd_teardown(struct udrvd *d);

#endif /* UDRVD_DAEMON_H */
