// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is calling: the credentials udrvd checks a call against.
 *
 * The user comes from the bus, which had it from the kernel (SO_PEERCRED)
 * when the caller connected; so does the pid of the process that
 * connected. Both stay the connection's for its life, and a unique name
 * (":1.42") is never given to another connection. The bus daemon of
 * Debian 12 (dbus 1.14) does not report groups, so the primary and
 * supplementary groups are read from that process (/proc/PID/status, as
 * one read(2), groups.c) at the connection's first call: what
 * `SupplementaryGroups=` or `newgrp` gave it, not only /etc/group's view
 * of the user. All of it is kept per connection (a small cache), as the
 * buses that report groups do (dbus-broker, dbus >= 1.15: the groups the
 * process held when it connected): reading /proc/PID/status at every call
 * was the largest part of a SetValues call (a trace on Linux 6.1: 3 opens,
 * 7 reads and 56 TCGETS, one per line of status, from sd-bus's line
 * reader), which made udrvd's bus path slower than gpio-manager's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "groups.h"
#include "udrvd.h"

#define CACHED		64

struct known {
	char name[32];		/* the connection's unique name */
	uid_t uid;
	pid_t pid;
	gid_t gid;
	gid_t groups[UDRVD_GROUPS_MAX];
	size_t ngroups;
	bool has_groups;
};

static struct known known[CACHED];
static unsigned int next_known;

static struct known *find(const char *name)
{
	for (unsigned int i = 0; name && i < CACHED; i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

/* The uid and pid of @m's sender, asked of the bus, into a new cache entry
 * (or @tmp when the name does not fit one). */
static struct known *sender(sd_bus_message *m, struct known *tmp, sd_bus_error *error)
{
	const char *name = sd_bus_message_get_sender(m);
	sd_bus_creds *c = NULL;
	struct known *k = tmp;
	uid_t uid;
	pid_t pid;
	int r;

	r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_EUID | SD_BUS_CREDS_PID, &c);
	if (r >= 0)
		r = sd_bus_creds_get_euid(c, &uid);
	if (r >= 0)
		r = sd_bus_creds_get_pid(c, &pid);
	sd_bus_creds_unref(c);
	if (r < 0) {
		sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
				  "udrvd cannot tell who the caller is (%s): refused", strerror(-r));
		return NULL;
	}
	if (name && strlen(name) < sizeof(known[0].name))
		k = &known[next_known++ % CACHED];
	*k = (struct known){ .uid = uid, .pid = pid };
	if (k != tmp)
		snprintf(k->name, sizeof(k->name), "%s", name);
	return k;
}

static int no_groups(sd_bus_error *error, pid_t pid, int err)
{
	return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
				 "udrvd cannot read the groups of the caller's process %d (%s): refused",
				 (int)pid, strerror(-err));
}

/*
 * The groups of @k's process, from /proc/PID/status: kept in @k. A process
 * with more than UDRVD_GROUPS_MAX groups (or a status too long to read at
 * once) has them read by sd-bus, into @c, at every call.
 */
static int groups_of(struct known *k, struct udrvd_creds *c, sd_bus_error *error)
{
	const gid_t *gids = NULL;
	int n = udrvd_groups_read(k->pid, &k->gid, k->groups, UDRVD_GROUPS_MAX, &k->ngroups);

	if (!n) {
		k->has_groups = true;
		c->caller.groups = k->groups;
		c->caller.ngroups = k->ngroups;
		return 0;
	}
	if (n != -E2BIG)
		return no_groups(error, k->pid, n);
	n = sd_bus_creds_new_from_pid(&c->creds, k->pid, SD_BUS_CREDS_EGID |
				      SD_BUS_CREDS_SUPPLEMENTARY_GIDS);
	if (n >= 0)
		n = sd_bus_creds_get_egid(c->creds, &k->gid);
	if (n >= 0)
		n = sd_bus_creds_get_supplementary_gids(c->creds, &gids);
	if (n < 0)
		return no_groups(error, k->pid, n);
	c->caller.groups = gids;
	c->caller.ngroups = (size_t)n;
	return 0;
}

int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error)
{
	struct known tmp, *k = find(sd_bus_message_get_sender(m));
	int err = 0;

	c->creds = NULL;
	if (!k)
		k = sender(m, &tmp, error);
	if (!k)
		return -EACCES;
	if (k->has_groups) {
		c->caller.groups = k->groups;
		c->caller.ngroups = k->ngroups;
	} else {
		err = groups_of(k, c, error);
	}
	if (err < 0) {
		udrvd_caller_done(c);
		return err;
	}
	c->caller.uid = k->uid;
	c->caller.gid = k->gid;
	return 0;
}

void udrvd_caller_done(struct udrvd_creds *c)
{
	c->creds = sd_bus_creds_unref(c->creds);
}
