// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Request objects: the line requests udrvd holds
 * (model/requests.h), at /io/gpiod1/requests/requestN. A request belongs
 * to the user that made it and outlives the client's connection: its
 * lines keep their direction, value, bias and drive until that user
 * releases it (or udrvd stops).
 * Every call checks the owner, then the policy in force for the lines it
 * touches; an administrator (root, or a caller the policy grants admin on
 * each of its lines) may release anyone's. A new policy (SIGHUP) releases
 * the requests it no longer grants their owner (model/broker.h).
 * io.udrv1.Request, on the same objects, says whose a request is and hands
 * its file descriptor to its owner (GetFd).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "caller.h"
#include "errors.h"
#include "export.h"
#include "linecfg.h"
#include "request.h"
#include "watch.h"

/* a request's interfaces, as InterfacesAdded and InterfacesRemoved list them */
#define REQ_IFACES	"io.gpiod1.Request", "io.udrv1.Request"

/* The caller owns @r, and the policy still grants @want (0: nothing more)
 * on each of its lines: 0, or a D-Bus error. */
static int check_caller(struct udrvd_req *r, sd_bus_message *m, unsigned int want,
			sd_bus_error *error)
{
	struct udrvd_err e = { 0 };
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	err = udrvd_req_check(r, &who.caller, want, &e);
	udrvd_caller_done(&who);
	return err < 0 ? udrvd_bus_error(error, &e) : 0;
}

/* io.gpiod1.Request.Release: by its owner, or by an administrator. */
static int method_release(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	if (who.caller.uid != r->owner && udrvd_req_is_admin(r, &who.caller))
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
	udrvd_release(r);
	return sd_bus_reply_method_return(m, NULL);
}

static int method_get_values(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	struct udrvd_err e = { 0 };
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
		int i = udrvd_req_index(r, off);

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
	err = udrvd_req_get_values(r, mask, &values, &e);
	if (err < 0)
		return udrvd_bus_error(error, &e);
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
	struct udrvd_err e = { 0 };
	uint64_t mask = 0, values = 0;
	uint32_t off;
	int32_t v;
	int err = check_caller(r, m, UDRVD_DRIVE, error);

	if (err < 0)
		return err;
	err = sd_bus_message_enter_container(m, 'a', "{ui}");
	while (err >= 0 && (err = sd_bus_message_read(m, "{ui}", &off, &v)) > 0) {
		int i = udrvd_req_index(r, off);

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
	err = udrvd_set_values(r, mask, values, &e);
	if (err < 0)
		return udrvd_bus_error(error, &e);
	return sd_bus_reply_method_return(m, NULL);
}

/*
 * io.gpiod1.Request.ReconfigureLines: new settings for every line of the
 * request, which stays held (GPIO_V2_LINE_SET_CONFIG_IOCTL). The owner's
 * only, and the policy must grant what the new settings need, as for a new
 * request.
 */
static int method_reconfigure(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_req *r = data;
	struct udrvd_err e = { 0 };
	struct udrvd_linecfg cfg;
	struct udrvd_creds who;
	int err = udrvd_linecfg_read(m, &cfg, error);

	if (err < 0)
		return err;
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	err = udrvd_req_check(r, &who.caller, 0, &e);
	if (err >= 0)
		err = udrvd_req_check_lines(r->chip, &cfg, &who.caller, &e);
	udrvd_caller_done(&who);
	if (err >= 0)
		err = udrvd_reconfigure(r, &cfg, &e);
	if (err < 0)
		return udrvd_bus_error(error, &e);
	return sd_bus_reply_method_return(m, NULL);
}

/* Is @r shown to whom its properties are being read for? 0 or a refusal. */
static int shown(const struct udrvd_req *r, sd_bus_error *error)
{
	struct udrvd_creds c;
	bool yes = udrvd_req_shown(r, udrvd_viewer(udrvd_of(r->h), &c));

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

int udrvd_req_export(struct udrvd_req *r)
{
	struct udrvd *d = udrvd_of(r->h);
	int err = udrvd_export_new(&r->exp);

	if (err >= 0)
		err = sd_bus_add_object_vtable(d->bus, &r->exp->slot, r->path, "io.gpiod1.Request",
					       req_vtable, r);
	if (err >= 0)
		err = sd_bus_add_object_vtable(d->bus, &r->exp->udrv1_slot, r->path,
					       "io.udrv1.Request", udrv1_vtable, r);
	if (err < 0) {
		r->exp = udrvd_export_free(r->exp);
		return err;
	}
	udrvd_req_events(r);
	udrvd_emit_added(d, r->path, (const char *const[]){ REQ_IFACES, NULL });
	return 0;
}

void udrvd_req_unexport(struct udrvd_req *r, bool announce)
{
	/* InterfacesRemoved, before the object goes */
	if (announce)
		sd_bus_emit_interfaces_removed(udrvd_of(r->h)->bus, r->path, REQ_IFACES, NULL);
	udrvd_req_events_stop(r);
	r->exp = udrvd_export_free(r->exp);
}

void udrvd_req_changed(struct udrvd_req *r)
{
	udrvd_req_events(r);
}
