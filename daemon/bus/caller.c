// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is calling: the credentials udrvd checks a call against.
 *
 * All of them come from the bus (org.freedesktop.DBus.
 * GetConnectionCredentials, read by creds.c): the uid (UnixUserID) and the
 * groups (UnixGroupIDs), which the bus took from the socket when the client
 * connected (SO_PEERCRED, SO_PEERGROUPS): the groups the process held when
 * it connected, the primary one among them. Nothing is read from the
 * caller's process: its pid may name another process by the time a call
 * comes (the client hands its connection on and exits, a process of the
 * wanted group takes the pid), and the groups would be that process's.
 * Where the bus does not report groups (no UnixGroupIDs: older dbus-daemon),
 * the caller's groups are its uid's in the user database (getgrouplist()),
 * which no client can steer, but which are not what `newgrp` or
 * `SupplementaryGroups=` gave its process; udrvd says once which source is
 * in force.
 *
 * What the bus said is kept per connection (a small cache of unique names:
 * ":1.42" is never given to another connection, and the bus's answer for a
 * connection does not change, so asking again after an eviction gives the
 * same): asking the bus at every call, or reading /proc/PID/status as
 * udrvd once did (a trace on Linux 6.1: 3 opens, 7 reads and 56 TCGETS
 * from sd-bus's line reader), made udrvd's bus path slower than
 * gpio-manager's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "caller.h"
#include "creds.h"
#include "daemon.h"

#define CACHED		64

struct known {
	char name[UDRVD_BUS_NAME_LEN];	/* the connection's unique name */
	struct udrvd_ids ids;
};

static struct known known[CACHED];
static unsigned int next_known;

static struct known *find(const char *name)
{
	for (unsigned int i = 0; i < CACHED; i++)
		if (known[i].name[0] && !strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

/* Said once for each source of groups that udrvd uses. */
static void say_source(bool bus)
{
	static bool said[2];

	if (said[bus])
		return;
	said[bus] = true;
	if (bus)
		fprintf(stderr, "udrvd: callers' groups from the bus (UnixGroupIDs): what each "
			"client's process held when it connected\n");
	else
		fprintf(stderr, "udrvd: the bus does not report callers' groups (no UnixGroupIDs "
			"in GetConnectionCredentials): each caller's groups are its user's in the "
			"user database (getgrouplist), not what its process holds\n");
}

static int refuse(sd_bus_error *error, const char *name, const char *why, int err)
{
	sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			  "udrvd cannot tell who the caller %s is (%s: %s): refused",
			  name ? name : "(no sender)", why, strerror(-err));
	return err;
}

/* What the bus says of connection @name, into a cache entry. */
static struct known *ask_bus(sd_bus *bus, const char *name, sd_bus_error *error)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	struct udrvd_ids ids;
	struct known *k;
	int r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
				   "org.freedesktop.DBus", "GetConnectionCredentials", &e, &reply,
				   "s", name);

	if (r < 0) {
		refuse(error, name, e.message ? e.message : "GetConnectionCredentials", r);
		sd_bus_error_free(&e);
		return NULL;
	}
	r = udrvd_ids_read(reply, &ids);
	sd_bus_message_unref(reply);
	if (r < 0) {
		refuse(error, name, r == -ENOENT ? "its uid has no passwd entry" :
		       "the bus's GetConnectionCredentials reply", r);
		return NULL;
	}
	say_source(ids.bus_groups);
	k = &known[next_known++ % CACHED];
	udrvd_ids_free(&k->ids);
	k->ids = ids;
	snprintf(k->name, sizeof(k->name), "%s", name);
	return k;
}

int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error)
{
	const char *name = sd_bus_message_get_sender(m);
	struct known *k;

	*c = (struct udrvd_creds){ 0 };
	if (!name || strlen(name) >= sizeof(known[0].name))
		return refuse(error, name, "not a unique name udrvd keeps", -EINVAL);
	k = find(name);
	if (!k)
		k = ask_bus(sd_bus_message_get_bus(m), name, error);
	if (!k)
		return -EACCES;
	udrvd_caller_from_ids(&k->ids, &c->caller);
	return 0;
}

void udrvd_caller_from_ids(const struct udrvd_ids *ids, struct udrvd_caller *c)
{
	/* the groups are a set (the bus's sorted) */
	udrvd_caller_set(c, ids->uid, ids->groups, ids->ngroups);
}

void udrvd_caller_done(struct udrvd_creds *c)
{
	*c = (struct udrvd_creds){ 0 };
}
