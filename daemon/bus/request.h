/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1.Request and io.udrv1.Request objects (request.c): the line
 * requests udrvd holds for clients.
 */
#ifndef UDRVD_REQUEST_H
#define UDRVD_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-bus.h>
#include <udrv/line.h>

#include "chip.h"
#include "linecfg.h"

struct udrvd_req {
	struct udrvd *d;
	struct udrvd_req *next;
	struct udrvd_chip *chip;
	struct udrv_request *req;
	unsigned int id;
	uid_t owner;
	char consumer[32];
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot, *udrv1_slot;
	struct udrvd_io *events;	/* its fd, when a line has edge detection */
	/* the owner's groups it was granted with (the caller's at RequestLines,
	 * the user database's at a restore): checked again by each policy */
	gid_t owner_gid;
	size_t owner_ngroups;
	gid_t *owner_groups;
	bool fd_given;			/* GetFd handed its fd out */
	size_t n;
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
};

/* A new request for @chip as @cfg says, held for @owner (its credentials
 * are kept, for udrvd_reqs_revoke()). */
int udrvd_req_new(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out, sd_bus_error *error);
void udrvd_reqs_free(struct udrvd *d);
/* The policy changed: release each request whose owner it no longer grants
 * what the request's settings need on each of its lines (said in the log,
 * which line and why); their number. */
size_t udrvd_reqs_revoke(struct udrvd *d);
/* Drop udrvd's requests on @chip, which went away; their number. */
size_t udrvd_reqs_drop(struct udrvd_chip *chip);
/* Is @r shown to @who: its owner, root, a caller with a rule for one of its
 * lines? */
bool udrvd_req_shown(const struct udrvd_req *r, const struct udrvd_caller *who);
int udrvd_req_interfaces(struct udrvd_req *r, sd_bus_message *reply);

#endif /* UDRVD_REQUEST_H */
