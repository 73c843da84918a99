/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The line requests udrvd holds for clients (requests.c), plain C: made,
 * checked against the policy, driven, reconfigured, released; refusals as
 * error.h's (bus/errors.h names them on the bus). broker.h's operations
 * mark the state file after each change.
 */
#ifndef UDRVD_REQUESTS_H
#define UDRVD_REQUESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/line.h>

#include "chips.h"
#include "error.h"
#include "line_config.h"

struct udrvd_req {
	struct udrvd_held *h;
	struct udrvd_req *next;
	struct udrvd_chip *chip;
	struct udrv_request *req;
	unsigned int id;
	uid_t owner;
	char consumer[32];
	char path[UDRVD_PATH_LEN];
	struct udrvd_export *exp;
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

/* Every line of @cfg is on @chip and granted to @who (the policy for the
 * settings @cfg gives each, the lines as the kernel reports them now): 0 or
 * a refusal. */
int udrvd_req_check_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			  const struct udrvd_caller *who, struct udrvd_err *e);
/* A new request for @chip as @cfg says, held for @owner (its credentials
 * are kept, for udrvd_reqs_revoke()), the server told; 0 or a refusal. */
int udrvd_req_new(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out,
		  struct udrvd_err *e);
/* @r taken away: the server told, its lines back to the kernel. */
void udrvd_req_release(struct udrvd_req *r);
void udrvd_reqs_free(struct udrvd_held *h);
/* The policy changed: release each request whose owner it no longer grants
 * what the request's settings need on each of its lines (said in the log,
 * which line and why); their number. */
size_t udrvd_reqs_revoke(struct udrvd_held *h);
/* Drop the requests on @chip, which went away; their number. */
size_t udrvd_reqs_drop(struct udrvd_chip *chip);

/* Is @r shown to @who (NULL: anyone): its owner, root, a caller with a
 * rule for one of its lines? */
bool udrvd_req_shown(const struct udrvd_req *r, const struct udrvd_caller *who);
/* An administrator of @r: root, or a caller granted admin on every line. */
bool udrvd_req_is_admin(const struct udrvd_req *r, const struct udrvd_caller *who);
/* @who owns @r, and the policy still grants @want (0: nothing more) on
 * each of its lines; 0 or a refusal. */
int udrvd_req_check(const struct udrvd_req *r, const struct udrvd_caller *who,
		    unsigned int want, struct udrvd_err *e);
/* The index in @r of chip offset @off, or -1. */
int udrvd_req_index(const struct udrvd_req *r, uint32_t off);

/* The values of @r's lines in @mask (bit i: line i of @r); 0 or a refusal. */
int udrvd_req_get_values(struct udrvd_req *r, uint64_t mask, uint64_t *values,
			 struct udrvd_err *e);
/* Set @values of the outputs in @mask; 0 or a refusal. */
int udrvd_req_set_values(struct udrvd_req *r, uint64_t mask, uint64_t values,
			 struct udrvd_err *e);
/* New settings @cfg for every line of @r (@r's owner checked by the
 * caller); 0 or a refusal. */
int udrvd_req_reconfigure(struct udrvd_req *r, const struct udrvd_linecfg *cfg,
			  struct udrvd_err *e);

#endif /* UDRVD_REQUESTS_H */
