// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrvd's client: the connection, and the chips and lines udrvd exports
 * (io.gpiod1's ObjectManagers: /io/gpiod1/chips for the chips, each chip's
 * path for its lines), matched against what the caller named.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"

struct udrvd_client *udrvd_client_new(void)
{
	return calloc(1, sizeof(struct udrvd_client));
}

void udrvd_client_free(struct udrvd_client *c)
{
	if (!c)
		return;
	sd_bus_flush_close_unref(c->bus);
	free(c);
}

const char *udrvd_client_errmsg(const struct udrvd_client *c)
{
	return c->errmsg;
}

int udrvd_client_err(struct udrvd_client *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->errmsg, sizeof(c->errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

int udrvd_client_bus_err(struct udrvd_client *c, const char *what, const sd_bus_error *e, int r)
{
	int err = sd_bus_error_get_errno(e);

	if (!err)
		err = r < 0 ? -r : EIO;
	if (e->name && !strcmp(e->name, SD_BUS_ERROR_SERVICE_UNKNOWN))
		return udrvd_client_err(c, ENOENT,
					"udrvd does not run on the system bus (nothing owns io.gpiod1): start it (systemctl start udrvd)");
	return udrvd_client_err(c, err, "udrvd refused %s: %s", what,
				e->message ? e->message : strerror(err));
}

int udrvd_client_open(struct udrvd_client *c)
{
	int r;

	sd_bus_flush_close_unref(c->bus);
	c->bus = NULL;
	c->errmsg[0] = '\0';
	r = sd_bus_open_system(&c->bus);
	if (r < 0)
		return udrvd_client_err(c, -r, "cannot connect to the system bus: %s (is dbus running?)",
					strerror(-r));
	return 0;
}

static int read_str(sd_bus_message *m, const char *type, char *dst, size_t len)
{
	const char *v;

	if (sd_bus_message_read(m, "v", type, &v) < 0)
		return -EBADMSG;
	snprintf(dst, len, "%s", v);
	return 0;
}

/* A chip's Path: a NUL-terminated byte array (ay), as gpio-manager's. */
static int read_path(sd_bus_message *m, char *dst, size_t len)
{
	const void *p;
	size_t n = 0;

	if (sd_bus_message_enter_container(m, 'v', "ay") < 0 ||
	    sd_bus_message_read_array(m, 'y', &p, &n) < 0 ||
	    sd_bus_message_exit_container(m) < 0)
		return -EBADMSG;
	if (n && ((const char *)p)[n - 1] == '\0')
		n--;
	snprintf(dst, len, "%.*s", (int)(n < len ? n : len - 1), (const char *)p);
	return 0;
}

/* One property of an interface's a{sv}: those we use, the rest skipped. */
static int read_prop(sd_bus_message *m, const char *key, struct udrvd_obj *o)
{
	uint32_t u;
	int b;

	if (!strcmp(key, "Name"))
		return read_str(m, "s", o->name, sizeof(o->name));
	if (!strcmp(key, "Label"))
		return read_str(m, "s", o->label, sizeof(o->label));
	if (!strcmp(key, "Direction"))
		return read_str(m, "s", o->direction, sizeof(o->direction));
	if (!strcmp(key, "Bias"))
		return read_str(m, "s", o->bias, sizeof(o->bias));
	if (!strcmp(key, "Drive"))
		return read_str(m, "s", o->drive, sizeof(o->drive));
	if (!strcmp(key, "EdgeDetection"))
		return read_str(m, "s", o->edge, sizeof(o->edge));
	if (!strcmp(key, "EventClock"))
		return read_str(m, "s", o->clock, sizeof(o->clock));
	if (!strcmp(key, "Consumer"))
		return read_str(m, "s", o->consumer, sizeof(o->consumer));
	if (!strcmp(key, "Used"))
		return sd_bus_message_read(m, "v", "b", &b) < 0 ? -EBADMSG : (o->used = b, 0);
	if (!strcmp(key, "NumLines"))
		return sd_bus_message_read(m, "v", "u", &u) < 0 ? -EBADMSG : (o->num_lines = u, 0);
	if (!strcmp(key, "DebouncePeriodUs"))
		return sd_bus_message_read(m, "v", "t", &o->debounce_us) < 0 ? -EBADMSG : 0;
	if (!strcmp(key, "Path"))
		return read_path(m, o->dev, sizeof(o->dev));
	if (!strcmp(key, "RequestPath"))
		return read_str(m, "o", o->request, sizeof(o->request));
	if (!strcmp(key, "Offset"))
		return sd_bus_message_read(m, "v", "u", &u) < 0 ? -EBADMSG : (o->offset = u, 0);
	if (!strcmp(key, "ActiveLow"))
		return sd_bus_message_read(m, "v", "b", &b) < 0 ? -EBADMSG : (o->active_low = b, 0);
	return sd_bus_message_skip(m, "v") < 0 ? -EBADMSG : 0;
}

/* {sa{sv}}: the properties of io.gpiod1.Chip or .Line, the rest skipped. */
static int read_ifaces(sd_bus_message *m, struct udrvd_obj *o)
{
	const char *iface, *key;
	int r = sd_bus_message_enter_container(m, 'a', "{sa{sv}}");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sa{sv}")) > 0) {
		r = sd_bus_message_read(m, "s", &iface);
		if (r >= 0 && strncmp(iface, "io.gpiod1.", 10)) {
			r = sd_bus_message_skip(m, "a{sv}");
		} else if (r >= 0) {
			o->is_line = !strcmp(iface, "io.gpiod1.Line");
			r = sd_bus_message_enter_container(m, 'a', "{sv}");
			while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
				r = sd_bus_message_read(m, "s", &key);
				if (r >= 0)
					r = read_prop(m, key, o);
				if (r >= 0)
					r = sd_bus_message_exit_container(m);
			}
			if (r >= 0)
				r = sd_bus_message_exit_container(m);
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

int udrvd_client_read_objects(sd_bus_message *m, struct udrvd_objs *out)
{
	const char *path;
	int r = sd_bus_message_enter_container(m, 'a', "{oa{sa{sv}}}");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "oa{sa{sv}}")) > 0) {
		struct udrvd_obj *o;

		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 16;
			void *p = realloc(out->v, cap * sizeof(*out->v));

			if (!p)
				return -ENOMEM;
			out->v = p;
			out->cap = cap;
		}
		o = memset(&out->v[out->n++], 0, sizeof(*o));
		r = sd_bus_message_read(m, "o", &path);
		if (r >= 0) {
			snprintf(o->path, sizeof(o->path), "%s", path);
			r = read_ifaces(m, o);
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	return r < 0 ? r : 0;
}

int udrvd_client_objects(struct udrvd_client *c, const char *path, struct udrvd_objs *out)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r;

	out->n = 0;
	r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, path, "org.freedesktop.DBus.ObjectManager",
			       "GetManagedObjects", &e, &reply, "");
	if (r < 0)
		r = udrvd_client_bus_err(c, "the list of its objects", &e, r);
	else if ((r = udrvd_client_read_objects(reply, out)) < 0)
		r = udrvd_client_err(c, EBADMSG, "udrvd's list of %s is not io.gpiod1's: %s",
				     path, strerror(-r));
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}
