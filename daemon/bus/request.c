// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Request objects: the line requests udrvd holds, at
 * /io/gpiod1/requests/requestN. A request belongs to the user that made it
 * and outlives the client's connection: its lines keep their direction,
 * value, bias and drive until that user releases it (or udrvd stops).
 * Every call checks the owner, then the policy in force for the lines it
 * touches; an administrator (root, or a caller the policy grants admin on
 * each of its lines) may release anyone's. A new policy (SIGHUP) releases
 * the requests it no longer grants their owner (udrvd_reqs_revoke()).
 * io.udrv1.Request, on the same objects, says whose a request is and hands
 * its file descriptor to its owner (GetFd).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caller.h"
#include "line.h"
#include "objects.h"
#include "perms.h"
#include "request.h"
#include "restore.h"
#include "watch.h"

/* a request's interfaces, as InterfacesAdded and InterfacesRemoved list them */
#define REQ_IFACES	"io.gpiod1.Request", "io.udrv1.Request"

static void lines_changed(struct udrvd_req *r)
{
	for (size_t i = 0; i < r->n; i++)
		udrvd_line_changed(&r->chip->lines[r->offsets[i]]);
}

static void req_free(struct udrvd_req *r)
{
	for (size_t i = 0; i < r->n; i++)
		r->chip->lines[r->offsets[i]].req = NULL;
	udrvd_req_events_stop(r);
	udrv_request_release(r->req);
	sd_bus_slot_unref(r->slot);
	sd_bus_slot_unref(r->udrv1_slot);
	free(r->owner_groups);
	free(r);
}

static void req_unlink(struct udrvd_req *r)
{
	for (struct udrvd_req **p = &r->d->reqs; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			return;
		}
	}
}

/* The caller owns @r, and the policy still grants @want (0: the settings'
 * own needs) on each of its lines. */
static int check_owner(const struct udrvd_req *r, const struct udrvd_creds *who,
		       sd_bus_error *error)
{
	if (who->caller.uid == r->owner)
		return 0;
	return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
				 "%s belongs to uid %u, not to the caller (uid %u)", r->path,
				 (unsigned int)r->owner, (unsigned int)who->caller.uid);
}

static int check_caller(struct udrvd_req *r, sd_bus_message *m, unsigned int want,
			sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	err = check_owner(r, &who, error);
	for (size_t i = 0; i < r->n && want && err >= 0; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (udrvd_policy_gpio(r->d->policy, &who.caller, &id, want, msg))
			err = sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);
	}
	udrvd_caller_done(&who);
	return err;
}

/* Take @r away: InterfacesRemoved, its lines back to the kernel (so that
 * their change says so), then the state. */
static void req_release(struct udrvd_req *r)
{
	struct udrvd *d = r->d;

	req_unlink(r);
	/* InterfacesRemoved, before the object goes */
	sd_bus_emit_interfaces_removed(d->bus, r->path, REQ_IFACES, NULL);
	udrvd_req_events_stop(r);
	udrv_request_release(r->req);
	r->req = NULL;
	for (size_t i = 0; i < r->n; i++)
		r->chip->lines[r->offsets[i]].req = NULL;
	lines_changed(r);
	req_free(r);
	udrvd_state_dirty(d, 0);
}

/* An administrator: root, or a caller granted admin on every line of @r. */
static bool is_admin(const struct udrvd_req *r, const struct udrvd_caller *who)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;

	if (who->uid == 0)
		return true;
	for (size_t i = 0; i < r->n; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (udrvd_policy_gpio(r->d->policy, who, &id, UDRVD_ADMIN, msg))
			return false;
	}
	return true;
}

/* io.gpiod1.Request.Release: by its owner, or by an administrator. */
static int method_release(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	if (who.caller.uid != r->owner && is_admin(r, &who.caller))
		fprintf(stderr, "udrvd: uid %u (an administrator) released %s of uid %u\n",
			(unsigned int)who.caller.uid, r->path, (unsigned int)r->owner);
	else if (who.caller.uid != r->owner)
		err = sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					"%s belongs to uid %u, not to the caller (uid %u); an administrator (root, or a rule granting admin on each of its lines) may release it",
					r->path, (unsigned int)r->owner,
					(unsigned int)who.caller.uid);
	udrvd_caller_done(&who);
	if (err < 0)
		return err;
	req_release(r);
	return sd_bus_reply_method_return(m, NULL);
}

/* The index in @r of chip offset @off, or -1. */
static int index_of(const struct udrvd_req *r, uint32_t off)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->offsets[i] == off)
			return (int)i;
	return -1;
}

static int method_get_values(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	sd_bus_message *reply = NULL;
	uint64_t mask = 0, values = 0;
	int idx[UDRV_LINES_MAX];
	size_t n = 0;
	uint32_t off;
	int err = check_caller(r, m, UDRVD_READ, error);

	if (err < 0)
		return err;
	err = sd_bus_message_enter_container(m, 'a', "u");
	while (err >= 0 && (err = sd_bus_message_read(m, "u", &off)) > 0) {
		int i = index_of(r, off);

		if (i < 0 || n == UDRV_LINES_MAX)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "line %u is not in %s", off, r->path);
		idx[n++] = i;
		mask |= 1ULL << i;
	}
	if (err < 0)
		return err;
	if (!n)		/* no offsets: every line of the request */
		for (; n < r->n; n++) {
			idx[n] = (int)n;
			mask |= 1ULL << n;
		}
	err = udrv_request_get_values(r->req, mask, &values);
	if (err < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_IO_ERROR, "%s",
					 udrv_request_errmsg(r->req));
	err = sd_bus_message_new_method_return(m, &reply);
	if (err >= 0)
		err = sd_bus_message_open_container(reply, 'a', "i");
	for (size_t i = 0; i < n && err >= 0; i++)
		err = sd_bus_message_append(reply, "i", (int32_t)((values >> idx[i]) & 1));
	if (err >= 0)
		err = sd_bus_message_close_container(reply);
	if (err >= 0)
		err = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return err;
}

static int method_set_values(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	uint64_t mask = 0, values = 0;
	uint32_t off;
	int32_t v;
	int err = check_caller(r, m, UDRVD_DRIVE, error);

	if (err < 0)
		return err;
	err = sd_bus_message_enter_container(m, 'a', "{ui}");
	while (err >= 0 && (err = sd_bus_message_read(m, "{ui}", &off, &v)) > 0) {
		int i = index_of(r, off);

		if (i < 0)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "line %u is not in %s", off, r->path);
		if (v != 0 && v != 1)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "value %d for line %u: 0 (inactive) or 1 (active)",
						 v, off);
		if (r->settings[i].direction != UDRV_DIR_OUTPUT)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "line %u of %s is an input", off, r->path);
		mask |= 1ULL << i;
		values |= (uint64_t)v << i;
	}
	if (err < 0)
		return err;
	err = udrv_request_set_values(r->req, mask, values);
	if (err < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_IO_ERROR, "%s",
					 udrv_request_errmsg(r->req));
	for (size_t i = 0; i < r->n; i++)
		if (mask >> i & 1)
			r->settings[i].value = (int)(values >> i & 1);
	udrvd_state_dirty(r->d, UDRVD_STATE_DELAY_US);
	return sd_bus_reply_method_return(m, NULL);
}

/* @cfg's settings in the request's order into @s: every line of the
 * request, no other; an output without a value in @cfg keeps its own. */
static int reconfig_order(const struct udrvd_req *r, const struct udrvd_linecfg *cfg,
			  struct udrv_line_settings *s, sd_bus_error *error)
{
	if (cfg->n != r->n)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "%s holds %zu lines and line_config names %zu: give settings for each line of the request",
					 r->path, r->n, cfg->n);
	for (size_t j = 0; j < cfg->n; j++) {
		int i = index_of(r, cfg->offsets[j]);

		if (i < 0)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "line %u is not in %s", cfg->offsets[j], r->path);
		s[i] = cfg->settings[j];
		if (j >= cfg->nvalues)
			s[i].value = r->settings[i].direction == UDRV_DIR_OUTPUT ?
				     r->settings[i].value : 0;
	}
	return 0;
}

/*
 * io.gpiod1.Request.ReconfigureLines: new settings for every line of the
 * request, which stays held (GPIO_V2_LINE_SET_CONFIG_IOCTL). The owner's
 * only, and the policy must grant what the new settings need, as for a new
 * request.
 */
static int method_reconfigure(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	struct udrvd_req *r = data;
	struct udrvd_linecfg cfg;
	struct udrvd_creds who;
	int err = udrvd_linecfg_read(m, &cfg, error);

	if (err < 0)
		return err;
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	err = check_owner(r, &who, error);
	if (err >= 0)
		err = udrvd_chip_check_lines(r->chip, &cfg, &who.caller, error);
	udrvd_caller_done(&who);
	if (err >= 0)
		err = reconfig_order(r, &cfg, s, error);
	if (err < 0)
		return err;
	if (udrv_request_reconfigure(r->req, s) < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_IO_ERROR, "%s",
					 udrv_request_errmsg(r->req));
	memcpy(r->settings, s, r->n * sizeof(s[0]));
	udrvd_req_events(r);
	lines_changed(r);
	udrvd_state_dirty(r->d, 0);
	return sd_bus_reply_method_return(m, NULL);
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

/* Is @r shown to whom its properties are being read for? 0 or a refusal. */
static int shown(const struct udrvd_req *r, sd_bus_error *error)
{
	struct udrvd_creds c;
	bool yes = udrvd_req_shown(r, udrvd_viewer(r->d, &c));

	udrvd_caller_done(&c);
	return yes ? 0 : sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					   "udrvd shows %s only to its owner, root and the callers the policy names for one of its lines (udrvd.conf(5))",
					   r->path);
}

static int prop_chip(sd_bus *bus, const char *path, const char *iface, const char *prop,
		     sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_req *r = data;
	int err = shown(r, error);

	return err < 0 ? err : sd_bus_message_append(reply, "o", r->chip->path);
}

static int prop_lines(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_req *r = data;
	int err = shown(r, error);

	if (err >= 0)
		err = sd_bus_message_open_container(reply, 'a', "o");
	for (size_t i = 0; i < r->n && err >= 0; i++)
		err = sd_bus_message_append(reply, "o", r->chip->lines[r->offsets[i]].path);
	return err < 0 ? err : sd_bus_message_close_container(reply);
}

/*
 * io.udrv1.Request.GetFd: the request's own file descriptor (a duplicate),
 * the fast path: the caller drives the lines through the kernel at the
 * character device's speed, and udrvd keeps holding them after it exits.
 * The kernel lets whoever holds the fd set values, read events and change
 * every setting (GPIO_V2_LINE_SET_CONFIG_IOCTL), so udrvd hands it only to
 * the owner, and only when the policy grants all four permissions on each
 * line.
 */
static int method_get_fd(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	int err = check_caller(r, m, UDRVD_GPIO_PERMS, error);

	if (err < 0)
		return err;
	r->fd_given = true;
	return sd_bus_reply_method_return(m, "h", udrv_request_fd(r->req));
}

static int prop_owner(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_req *r = data;
	int err = shown(r, error);

	return err < 0 ? err : sd_bus_message_append(reply, "u", (uint32_t)r->owner);
}

static const sd_bus_vtable udrv1_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Owner", "u", prop_owner, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_METHOD_WITH_NAMES("GetFd", NULL, , "h", SD_BUS_PARAM(fd), method_get_fd,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

static const sd_bus_vtable req_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("ChipPath", "o", prop_chip, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("LinePaths", "ao", prop_lines, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_METHOD("Release", NULL, NULL, method_release, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("ReconfigureLines", "(a(aua{sv})ai)", SD_BUS_PARAM(line_config),
				 NULL, , method_reconfigure, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("GetValues", "au", SD_BUS_PARAM(offsets), "ai",
				 SD_BUS_PARAM(values), method_get_values,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("SetValues", "a{ui}", SD_BUS_PARAM(values), NULL, ,
				 method_set_values, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int udrvd_req_interfaces(struct udrvd_req *r, sd_bus_message *reply)
{
	int err = udrvd_append_interface(reply, r->path, "io.gpiod1.Request", req_vtable, r);

	return err < 0 ? err : udrvd_append_interface(reply, r->path, "io.udrv1.Request",
						      udrv1_vtable, r);
}

static int request_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			 struct udrvd_req *r, sd_bus_error *error)
{
	struct udrv_request_config rc = {
		.consumer = r->consumer,
		.event_buffer_size = cfg->event_buffer_size,
		.backend = UDRV_BACKEND_CDEV,
	};
	int err = udrv_chip_request(chip->chip, &rc, cfg->n, cfg->offsets, cfg->settings, &r->req);

	if (err < 0)
		return sd_bus_error_setf(error, err == -EBUSY ? SD_BUS_ERROR_LIMITS_EXCEEDED :
					 SD_BUS_ERROR_IO_ERROR, "%s", udrv_chip_errmsg(chip->chip));
	return 0;
}

/* The requests udrvd holds for @owner. */
static unsigned int user_requests(const struct udrvd *d, uid_t owner)
{
	unsigned int n = 0;

	for (const struct udrvd_req *r = d->reqs; r; r = r->next)
		n += r->owner == owner;
	return n;
}

int udrvd_req_new(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out,
		  sd_bus_error *error)
{
	struct udrvd *d = chip->d;
	unsigned int held = user_requests(d, owner->uid);
	struct udrvd_req *r;
	int err;

	if (held >= UDRVD_USER_REQUESTS)
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					 "uid %u holds %u requests, the per-user request quota (%u): "
					 "release one first", (unsigned int)owner->uid, held,
					 UDRVD_USER_REQUESTS);
	r = calloc(1, sizeof(*r));
	if (r && owner->ngroups) {
		r->owner_groups = calloc(owner->ngroups, sizeof(gid_t));
		if (!r->owner_groups) {
			free(r);
			r = NULL;
		}
	}
	if (!r)
		return -ENOMEM;
	r->d = d;
	r->chip = chip;
	r->owner = owner->uid;
	r->owner_gid = owner->gid;
	r->owner_ngroups = owner->ngroups;
	if (owner->ngroups)
		memcpy(r->owner_groups, owner->groups, owner->ngroups * sizeof(gid_t));
	r->id = d->next_req++;
	snprintf(r->path, sizeof(r->path), UDRVD_REQUESTS_PATH "/request%u", r->id);
	snprintf(r->consumer, sizeof(r->consumer), "%s",
		 cfg->consumer[0] ? cfg->consumer : UDRVD_CONSUMER);
	err = request_lines(chip, cfg, r, error);
	if (err < 0) {
		free(r->owner_groups);
		free(r);
		return err;
	}
	r->n = cfg->n;
	memcpy(r->offsets, cfg->offsets, sizeof(r->offsets));
	memcpy(r->settings, cfg->settings, sizeof(r->settings));
	err = sd_bus_add_object_vtable(d->bus, &r->slot, r->path, "io.gpiod1.Request",
				       req_vtable, r);
	if (err >= 0)
		err = sd_bus_add_object_vtable(d->bus, &r->udrv1_slot, r->path,
					       "io.udrv1.Request", udrv1_vtable, r);
	if (err < 0) {
		req_free(r);
		return err;
	}
	for (size_t i = 0; i < r->n; i++)
		chip->lines[r->offsets[i]].req = r;
	r->next = d->reqs;
	d->reqs = r;
	udrvd_req_events(r);
	udrvd_emit_added(d, r->path, (const char *const[]){ REQ_IFACES, NULL });
	lines_changed(r);
	udrvd_state_dirty(d, 0);	/* not while restoring */
	*out = r;
	return 0;
}

void udrvd_reqs_free(struct udrvd *d)
{
	while (d->reqs) {
		struct udrvd_req *r = d->reqs;

		d->reqs = r->next;
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
		if (udrvd_policy_gpio(r->d->policy, &owner, &id,
				      udrvd_settings_perms(&r->settings[i]), msg))
			return (int)i;
	}
	return -1;
}

size_t udrvd_reqs_revoke(struct udrvd *d)
{
	char msg[UDRVD_MSG_LEN], said[UDRVD_MSG_LEN + 512];
	size_t n = 0;

	for (struct udrvd_req *r = d->reqs, *next; r; r = next) {
		int i = revoked_line(r, msg);

		next = r->next;
		if (i < 0)
			continue;
		snprintf(said, sizeof(said), "released %s of uid %u: the policy in force no longer grants its owner line %u of %s: %s%s",
			 r->path, (unsigned int)r->owner, r->offsets[i], udrv_chip_name(r->chip->chip),
			 msg, r->fd_given ? " (the file descriptor GetFd handed out stays valid in the process that holds it until it closes it: the kernel cannot take it back)" : "");
		req_release(r);	/* said once done */
		fprintf(stderr, "udrvd: %s\n", said);
		n++;
	}
	return n;
}

size_t udrvd_reqs_drop(struct udrvd_chip *chip)
{
	struct udrvd *d = chip->d;
	size_t n = 0;

	for (struct udrvd_req **p = &d->reqs; *p;) {
		struct udrvd_req *r = *p;

		if (r->chip != chip) {
			p = &r->next;
			continue;
		}
		*p = r->next;
		sd_bus_emit_interfaces_removed(d->bus, r->path, REQ_IFACES, NULL);
		req_free(r);
		n++;
	}
	return n;
}
