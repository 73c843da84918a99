// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is calling: the credentials udrvd checks a call against.
 *
 * The user comes from the bus, which had it from the kernel (SO_PEERCRED)
 * when the caller connected. The bus daemon of Debian 12 (dbus 1.14) does
 * not report groups, so the primary and supplementary groups are those the
 * sender's process holds when the call arrives (/proc/PID/status, as sd-bus
 * reads them): what `SupplementaryGroups=` or `newgrp` gave it, not only
 * /etc/group's view of the user.
 */
#include <errno.h>
#include <string.h>

#include "udrvd.h"

#define WANT	(SD_BUS_CREDS_UID | SD_BUS_CREDS_EUID | SD_BUS_CREDS_EGID |	\
		 SD_BUS_CREDS_SUPPLEMENTARY_GIDS | SD_BUS_CREDS_PID |		\
		 SD_BUS_CREDS_AUGMENT)

int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error)
{
	const gid_t *gids = NULL;
	uid_t uid;
	gid_t gid;
	int n, err;

	c->creds = NULL;
	err = sd_bus_query_sender_creds(m, WANT, &c->creds);
	if (err < 0)
		return sd_bus_error_set_errnof(error, -err,
					       "udrvd cannot tell who the caller is: %s",
					       strerror(-err));
	err = sd_bus_creds_get_euid(c->creds, &uid);
	if (err < 0)
		err = sd_bus_creds_get_uid(c->creds, &uid);
	if (err >= 0)
		err = sd_bus_creds_get_egid(c->creds, &gid);
	n = err < 0 ? err : sd_bus_creds_get_supplementary_gids(c->creds, &gids);
	if (n < 0) {
		udrvd_caller_done(c);
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "udrvd cannot read the caller's user and groups (%s): refused",
					 strerror(-n));
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
