/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who a connection is, as the bus says: the reply of
 * org.freedesktop.DBus.GetConnectionCredentials (an a{sv}), its uid
 * (UnixUserID) and its groups (UnixGroupIDs), which the bus read from the
 * socket (SO_PEERCRED, SO_PEERGROUPS) when the client connected: the
 * groups its process held then, the primary one included. sd-bus 252's
 * creds API does not parse UnixGroupIDs, so udrvd reads the reply itself.
 *
 * A bus that does not report groups (no UnixGroupIDs): the uid's groups in
 * the user database (getpwuid_r(), getgrouplist()), which no client can
 * steer. Nothing comes from /proc: a pid outlives the process it named.
 */
#ifndef UDRVD_CREDS_H
#define UDRVD_CREDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>

struct udrvd_ids {
	uid_t uid;
	gid_t *groups;		/* malloc'd: ngroups of them, none (gid_t)-1 */
	size_t ngroups;
	bool bus_groups;	/* the bus's; false: the user database's */
};

/*
 * The uid and groups of GetConnectionCredentials' @reply (at the start of
 * its body) into @ids: 0; -EBADMSG when the body is not one a{sv}, a key
 * we read has the wrong type or comes twice, or a group is 4294967295;
 * -ENODATA without UnixUserID; without UnixGroupIDs, the groups of
 * udrvd_user_groups() (its errors).
 */
int udrvd_ids_read(sd_bus_message *reply, struct udrvd_ids *ids);
void udrvd_ids_free(struct udrvd_ids *ids);

/* The groups of user @uid in the user database (its passwd entry's gid
 * and getgrouplist()), malloc'd: 0; -ENOENT without a passwd entry. */
int udrvd_user_groups(uid_t uid, gid_t **groups, size_t *n);

#endif /* UDRVD_CREDS_H */
