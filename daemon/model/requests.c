// SPDX-License-Identifier: GPL-2.0-only
/*
 * The line requests udrvd holds, named UDRVD_REQUESTS_PATH/requestN. A
 * request belongs to the user that made it and outlives the client's
 * connection: its lines keep their direction, value, bias and drive until
 * that user releases it (or udrvd stops). Every call checks the owner, then
 * the policy in force for the lines it touches; an administrator (root, or a
 * caller the policy grants admin on each of its lines) may release anyone's.
 * A new policy (SIGHUP) releases the requests it no longer grants their
 * owner (udrvd_reqs_revoke()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perms.h"
#include "requests.h"

/* What line @i of @cfg needs, the line being as the kernel reports it now
 * (read: an input request of an output line needs drive too). */
static unsigned int line_perms(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			       size_t i)
{
	struct udrv_line_info now;
	bool known = !udrv_chip_line_info(chip->chip, cfg->offsets[i], &now);

	return cfg->perms[i] | udrvd_settings_perms_on(&cfg->settings[i], known ? &now : NULL);
}

int udrvd_req_check_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			  const struct udrvd_caller *who, struct udrvd_err *e)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;

	for (size_t i = 0; i < cfg->n; i++) {
		if (cfg->offsets[i] >= udrv_chip_num_lines(chip->chip))
			return udrvd_fail(e, -EINVAL, "%s has no line %u (it has %u)",
					  udrv_chip_name(chip->chip), cfg->offsets[i],
					  udrv_chip_num_lines(chip->chip));
		udrvd_chip_line_id(chip, cfg->offsets[i], &id);
		if (udrvd_policy_gpio(chip->h->policy, who, &id, line_perms(chip, cfg, i), msg))
			return udrvd_fail(e, -EACCES, "%s", msg);
	}
	return 0;
}

static void lines_changed(struct udrvd_req *r)
{
	for (size_t i = 0; i < r->n; i++)
		r->h->events->line_changed(r->h->data, &r->chip->lines[r->offsets[i]]);
}

static void lines_held(struct udrvd_req *r, struct udrvd_req *by)
{
	for (size_t i = 0; i < r->n; i++)
		r->chip->lines[r->offsets[i]].req = by;
}

static void req_free(struct udrvd_req *r)
{
	udrv_request_release(r->req);
	free(r->owner_groups);
	free(r);
}

/* @r leaves the list and the server (@announce: InterfacesRemoved), its
 * lines free again. */
static void req_remove(struct udrvd_req *r, bool announce)
{
	for (struct udrvd_req **p = &r->h->reqs; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			break;
		}
	}
	r->h->events->req_removed(r->h->data, r, announce);
	lines_held(r, NULL);
}

void udrvd_req_release(struct udrvd_req *r)
{
	req_remove(r, true);
	/* its lines back to the kernel first, so that their change says so */
	udrv_request_release(r->req);
	r->req = NULL;
	lines_changed(r);
	req_free(r);
}

bool udrvd_req_is_admin(const struct udrvd_req *r, const struct udrvd_caller *who)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;

	if (who->uid == 0)
		return true;
	for (size_t i = 0; i < r->n; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (udrvd_policy_gpio(r->h->policy, who, &id, UDRVD_ADMIN, msg))
			return false;
	}
	return true;
}

static int check_owner(const struct udrvd_req *r, const struct udrvd_caller *who,
		       struct udrvd_err *e)
{
	if (who->uid == r->owner)
		return 0;
	return udrvd_fail(e, -EACCES, "%s belongs to uid %u, not to the caller (uid %u)",
			  r->path, (unsigned int)r->owner, (unsigned int)who->uid);
}

int udrvd_req_check(const struct udrvd_req *r, const struct udrvd_caller *who,
		    unsigned int want, struct udrvd_err *e)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;
	int err = check_owner(r, who, e);

	for (size_t i = 0; i < r->n && want && err >= 0; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (udrvd_policy_gpio(r->h->policy, who, &id, want, msg))
			err = udrvd_fail(e, -EACCES, "%s", msg);
	}
	return err;
}

int udrvd_req_index(const struct udrvd_req *r, uint32_t off)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->offsets[i] == off)
			return (int)i;
	return -1;
}

int udrvd_req_get_values(struct udrvd_req *r, uint64_t mask, uint64_t *values,
			 struct udrvd_err *e)
{
	if (udrv_request_get_values(r->req, mask, values) < 0)
		return udrvd_fail(e, -EIO, "%s", udrv_request_errmsg(r->req));
	return 0;
}

int udrvd_req_set_values(struct udrvd_req *r, uint64_t mask, uint64_t values,
			 struct udrvd_err *e)
{
	if (udrv_request_set_values(r->req, mask, values) < 0)
		return udrvd_fail(e, -EIO, "%s", udrv_request_errmsg(r->req));
	for (size_t i = 0; i < r->n; i++)
		if (mask >> i & 1)
			r->settings[i].value = (int)(values >> i & 1);
	return 0;
}

/* @cfg's settings in the request's order into @s: every line of the
 * request, no other; an output without a value in @cfg keeps its own. */
static int reconfig_order(const struct udrvd_req *r, const struct udrvd_linecfg *cfg,
			  struct udrv_line_settings *s, struct udrvd_err *e)
{
	if (cfg->n != r->n)
		return udrvd_fail(e, -EINVAL,
				  "%s holds %zu lines and line_config names %zu: give settings for each line of the request",
				  r->path, r->n, cfg->n);
	for (size_t j = 0; j < cfg->n; j++) {
		int i = udrvd_req_index(r, cfg->offsets[j]);

		if (i < 0)
			return udrvd_fail(e, -EINVAL, "line %u is not in %s", cfg->offsets[j],
					  r->path);
		s[i] = cfg->settings[j];
		if (j >= cfg->nvalues)
			s[i].value = r->settings[i].direction == UDRV_DIR_OUTPUT ?
				     r->settings[i].value : 0;
	}
	return 0;
}

int udrvd_req_reconfigure(struct udrvd_req *r, const struct udrvd_linecfg *cfg,
			  struct udrvd_err *e)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	int err = reconfig_order(r, cfg, s, e);

	if (err < 0)
		return err;
	if (udrv_request_reconfigure(r->req, s) < 0)
		return udrvd_fail(e, -EIO, "%s", udrv_request_errmsg(r->req));
	memcpy(r->settings, s, r->n * sizeof(s[0]));
	r->h->events->req_changed(r->h->data, r);
	lines_changed(r);
	return 0;
}

bool udrvd_req_shown(const struct udrvd_req *r, const struct udrvd_caller *who)
{
	if (!who)
		return false;
	if (who->uid == 0 || who->uid == r->owner)
		return true;
	for (size_t i = 0; i < r->n; i++)
		if (udrvd_line_shown(&r->chip->lines[r->offsets[i]], who))
			return true;
	return false;
}

static int request_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			 struct udrvd_req *r, struct udrvd_err *e)
{
	struct udrv_request_config rc = {
		.consumer = r->consumer,
		.event_buffer_size = cfg->event_buffer_size,
		.backend = UDRV_BACKEND_CDEV,
	};
	int err = udrv_chip_request(chip->chip, &rc, cfg->n, cfg->offsets, cfg->settings, &r->req);

	if (err < 0)
		return udrvd_fail(e, err == -EBUSY ? -EBUSY : -EIO, "%s",
				  udrv_chip_errmsg(chip->chip));
	return 0;
}

/* The requests udrvd holds for @owner. */
static unsigned int user_requests(const struct udrvd_held *h, uid_t owner)
{
	unsigned int n = 0;

	for (const struct udrvd_req *r = h->reqs; r; r = r->next)
		n += r->owner == owner;
	return n;
}

/* A request of @owner's, named, its lines not yet asked for. */
static struct udrvd_req *req_alloc(struct udrvd_chip *chip, const struct udrvd_caller *owner)
{
	struct udrvd_req *r = calloc(1, sizeof(*r));

	if (r && owner->ngroups) {
		r->owner_groups = calloc(owner->ngroups, sizeof(gid_t));
		if (!r->owner_groups) {
			free(r);
			return NULL;
		}
		memcpy(r->owner_groups, owner->groups, owner->ngroups * sizeof(gid_t));
	}
	if (!r)
		return NULL;
	r->h = chip->h;
	r->chip = chip;
	r->owner = owner->uid;
	r->owner_gid = owner->gid;
	r->owner_ngroups = owner->ngroups;
	r->id = chip->h->next_req++;
	snprintf(r->path, sizeof(r->path), UDRVD_REQUESTS_PATH "/request%u", r->id);
	return r;
}

int udrvd_req_new(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out,
		  struct udrvd_err *e)
{
	struct udrvd_held *h = chip->h;
	unsigned int held = user_requests(h, owner->uid);
	struct udrvd_req *r;
	int err;

	if (held >= UDRVD_USER_REQUESTS)
		return udrvd_fail(e, -EBUSY,
				  "uid %u holds %u requests, the per-user request quota (%u): "
				  "release one first", (unsigned int)owner->uid, held,
				  UDRVD_USER_REQUESTS);
	r = req_alloc(chip, owner);
	if (!r)
		return udrvd_fail(e, -ENOMEM, "out of memory");
	snprintf(r->consumer, sizeof(r->consumer), "%s",
		 cfg->consumer[0] ? cfg->consumer : UDRVD_CONSUMER);
	err = request_lines(chip, cfg, r, e);
	if (err < 0) {
		req_free(r);
		return err;
	}
	r->n = cfg->n;
	memcpy(r->offsets, cfg->offsets, sizeof(r->offsets));
	memcpy(r->settings, cfg->settings, sizeof(r->settings));
	err = h->events->req_added(h->data, r);
	if (err < 0) {
		req_free(r);
		return udrvd_fail(e, err, "%s cannot be exported on the bus: %s", r->path,
				  strerror(-err));
	}
	lines_held(r, r);
	r->next = h->reqs;
	h->reqs = r;
	lines_changed(r);
	*out = r;
	return 0;
}

void udrvd_reqs_free(struct udrvd_held *h)
{
	while (h->reqs) {
		struct udrvd_req *r = h->reqs;

		req_remove(r, false);
		req_free(r);
	}
}

/* The first line of @r the policy in force no longer grants its owner what
 * its settings need: its index (the refusal in @msg), or -1. */
static int revoked_line(const struct udrvd_req *r, char msg[UDRVD_MSG_LEN])
{
	const struct udrvd_caller owner = {
		.uid = r->owner, .gid = r->owner_gid,
		.groups = r->owner_groups, .ngroups = r->owner_ngroups,
	};
	struct udrvd_gpio_line id;

	for (size_t i = 0; i < r->n; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (udrvd_policy_gpio(r->h->policy, &owner, &id,
				      udrvd_settings_perms(&r->settings[i]), msg))
			return (int)i;
	}
	return -1;
}

size_t udrvd_reqs_revoke(struct udrvd_held *h)
{
	char msg[UDRVD_MSG_LEN], said[UDRVD_MSG_LEN + 512];
	size_t n = 0;

	for (struct udrvd_req *r = h->reqs, *next; r; r = next) {
		int i = revoked_line(r, msg);

		next = r->next;
		if (i < 0)
			continue;
		snprintf(said, sizeof(said), "released %s of uid %u: the policy in force no longer grants its owner line %u of %s: %s%s",
			 r->path, (unsigned int)r->owner, r->offsets[i], udrv_chip_name(r->chip->chip),
			 msg, r->fd_given ? " (the file descriptor GetFd handed out stays valid in the process that holds it until it closes it: the kernel cannot take it back)" : "");
		udrvd_req_release(r);	/* said once done */
		fprintf(stderr, "udrvd: %s\n", said);
		n++;
	}
	return n;
}

size_t udrvd_reqs_drop(struct udrvd_chip *chip)
{
	size_t n = 0;

	for (struct udrvd_req *r = chip->h->reqs, *next; r; r = next) {
		next = r->next;
		if (r->chip != chip)
			continue;
		req_remove(r, true);
		req_free(r);
		n++;
	}
	return n;
}
