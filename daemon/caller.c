// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is calling: the credentials udrvd checks a call against.
 *
 * The user comes from the bus, which had it from the kernel (SO_PEERCRED)
 * when the caller connected; so does the pid of the process that
 * connected. Both stay the connection's for its life, and a unique name
 * (":1.42") is never given to another connection: they are asked of the
 * bus once per connection and kept (a small cache: one bus round trip
 * fewer per call). The bus daemon of Debian 12 (dbus 1.14) does not report
 * groups, so the primary and supplementary groups are read, at every call,
 * from that process (/proc/PID/status, as sd-bus reads them): what
 * `SupplementaryGroups=` or `newgrp` gave it, not only /etc/group's view of
 * the user, and never more than it holds when it calls.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "udrvd.h"

#define CACHED	64

struct known {
	char name[32];		/* the connection's unique name */
	uid_t uid;
	pid_t pid;
};

static struct known known[CACHED];
static unsigned int next_known;

/* The uid and pid of @m's sender: cached, or asked of the bus. */
static int sender(sd_bus_message *m, uid_t *uid, pid_t *pid, sd_bus_error *error)
{
	const char *name = sd_bus_message_get_sender(m);
	sd_bus_creds *c = NULL;
	struct known *k;
	int r;

	for (unsigned int i = 0; name && i < CACHED; i++) {
		if (!strcmp(known[i].name, name)) {
			*uid = known[i].uid;
			*pid = known[i].pid;
			return 0;
		}
	}
	r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_EUID | SD_BUS_CREDS_PID, &c);
	if (r >= 0)
		r = sd_bus_creds_get_euid(c, uid);
	if (r >= 0)
		r = sd_bus_creds_get_pid(c, pid);
	sd_bus_creds_unref(c);
	if (r < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "udrvd cannot tell who the caller is (%s): refused",
					 strerror(-r));
	if (name && strlen(name) < sizeof(known[0].name)) {
		k = &known[next_known++ % CACHED];
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->uid = *uid;
		k->pid = *pid;
	}
	return 0;
}

int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error)
{
	const gid_t *gids = NULL;
	uid_t uid;
	pid_t pid;
	gid_t gid;
	int n, err;

	c->creds = NULL;
	err = sender(m, &uid, &pid, error);
	if (err < 0)
		return err;
	err = sd_bus_creds_new_from_pid(&c->creds, pid, SD_BUS_CREDS_EGID |
					SD_BUS_CREDS_SUPPLEMENTARY_GIDS);
	if (err >= 0)
		err = sd_bus_creds_get_egid(c->creds, &gid);
	n = err < 0 ? err : sd_bus_creds_get_supplementary_gids(c->creds, &gids);
	if (n < 0) {
		udrvd_caller_done(c);
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "udrvd cannot read the groups of the caller's process %d (%s): refused",
					 (int)pid, strerror(-n));
	}
	c->caller.uid = uid;
	c->caller.gid = gid;
	c->caller.groups = gids;
	c->caller.ngroups = (size_t)n;
	return 0;
}

void udrvd_caller_done(struct udrvd_creds *c)
{
	c->creds = sd_bus_creds_unref(c->creds);
}
