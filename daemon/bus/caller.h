/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who is calling (caller.c): the credentials of a call's sender, as the bus
 * vouches for them (creds.h reads its answer).
 */
#ifndef UDRVD_CALLER_H
#define UDRVD_CALLER_H

#include <systemd/sd-bus.h>

#include "policy.h"

struct udrvd_ids;

/* The credentials of @m's sender, its uid and groups as the bus read them
 * from its socket when it connected; 0 or a negative errno with @error set.
 * They are valid until udrvd_caller_done(), and at most until the next
 * udrvd_caller_of() (they live in caller.c's cache). */
struct udrvd_creds {
	struct udrvd_caller caller;
};
int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error);
void udrvd_caller_done(struct udrvd_creds *c);
/* @ids (creds.h: the bus's, or the user database's) as the policy takes a
 * caller; @c points into @ids. */
void udrvd_caller_from_ids(const struct udrvd_ids *ids, struct udrvd_caller *c);

#endif /* UDRVD_CALLER_H */
