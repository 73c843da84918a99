// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lines through udrvd: which chip and lines the caller named (by udrvd's
 * Chip and Line objects, so the caller needs no access to the chip), then
 * RequestLines, SetValues on the request that already holds them, Release.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/chip.h>
#include <udrv/parse.h>

#include "client_priv.h"

/* Does chip object @o go by @spec: its name, number, /dev path or label? */
bool udrvd_client_chip_is(const struct udrvd_obj *o, const char *spec)
{
	unsigned int num;
	char name[32];

	if (!udrv_parse_devnum(spec, "gpiochip", &num)) {
		snprintf(name, sizeof(name), "gpiochip%u", num);
		return !strcmp(o->name, name);
	}
	return !strcmp(o->name, spec) || !strcmp(o->label, spec);
}

/* "gpiochip0 (fake-a), gpiochip1 (fake-b)" */
static void list_chips(const struct udrvd_objs *chips, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < chips->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)", i ? ", " : "",
					 chips->v[i].name, chips->v[i].label);
}

/* The Line object @name names on a chip whose lines are @objs. */
static const struct udrvd_obj *line_of(const struct udrvd_objs *objs, const char *name,
				       bool offsets)
{
	unsigned int off;
	bool num = offsets && !udrv_parse_uint(name, UDRV_LINES_MAX * 1024, &off);

	for (size_t i = 0; i < objs->n; i++) {
		const struct udrvd_obj *o = &objs->v[i];

		if (o->is_line && (num ? o->offset == off : !strcmp(o->name, name)))
			return o;
	}
	return NULL;
}

static void take_line(struct udrvd_lines *lines, size_t i, const struct udrvd_obj *o)
{
	struct udrvd_held *h = &lines->held[i];

	lines->offsets[i] = o->offset;
	snprintf(lines->requests[i], sizeof(lines->requests[i]), "%s",
		 strcmp(o->request, "/") ? o->request : "");
	snprintf(h->direction, sizeof(h->direction), "%s", o->direction);
	snprintf(h->bias, sizeof(h->bias), "%s", o->bias);
	snprintf(h->drive, sizeof(h->drive), "%s", o->drive);
	h->active_low = o->active_low;
}

/* Every name on chip @chip: 0, or the index + 1 of the first missing one. */
static size_t on_chip(struct udrvd_client *c, const struct udrvd_obj *chip, size_t n,
		      char *const *names, bool offsets, struct udrvd_lines *lines,
		      struct udrvd_objs *objs, int *err)
{
	*err = udrvd_client_objects(c, chip->path, objs);
	if (*err)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct udrvd_obj *o = line_of(objs, names[i], offsets);

		if (!o)
			return i + 1;
		take_line(lines, i, o);
		for (size_t j = 0; j < i; j++)
			if (lines->offsets[j] == o->offset) {
				*err = udrvd_client_err(c, EINVAL,
							"line %s is given twice (offset %u of %s)",
							names[i], o->offset, chip->name);
				return 0;
			}
	}
	snprintf(lines->chip, sizeof(lines->chip), "%s", chip->name);
	snprintf(lines->label, sizeof(lines->label), "%s", chip->label);
	snprintf(lines->chip_path, sizeof(lines->chip_path), "%s", chip->path);
	lines->n = n;
	return 0;
}

/* -c CHIP: that chip's lines, by name or offset. */
static int find_on(struct udrvd_client *c, const struct udrvd_objs *chips, const char *chip,
		   size_t n, char *const *names, struct udrvd_lines *lines,
		   struct udrvd_objs *objs)
{
	size_t missing;
	int err;

	for (size_t i = 0; i < chips->n; i++) {
		if (chips->v[i].is_line || !udrvd_client_chip_is(&chips->v[i], chip))
			continue;
		missing = on_chip(c, &chips->v[i], n, names, true, lines, objs, &err);
		if (missing)
			return udrvd_client_err(c, ENOENT, "%s (%s) has no line %s",
						chips->v[i].name, chips->v[i].label,
						names[missing - 1]);
		return err;
	}
	return udrvd_client_no_chip(c, chips, chip);
}

int udrvd_client_no_chip(struct udrvd_client *c, const struct udrvd_objs *chips,
			 const char *chip)
{
	char avail[256];

	list_chips(chips, avail, sizeof(avail));
	return udrvd_client_err(c, ENOENT, "udrvd has no chip %s (it has %s)", chip,
				avail[0] ? avail : "none");
}

/* No chip: the first one with every name. */
static int find_any(struct udrvd_client *c, const struct udrvd_objs *chips, size_t n,
		    char *const *names, struct udrvd_lines *lines, struct udrvd_objs *objs)
{
	unsigned int off;
	int err;

	for (size_t i = 0; i < n; i++)
		if (!udrv_parse_uint(names[i], UINT32_MAX, &off))
			return udrvd_client_err(c, EINVAL,
						"line %s is an offset: say which chip it is on",
						names[i]);
	for (size_t i = 0; i < chips->n; i++) {
		if (!on_chip(c, &chips->v[i], n, names, false, lines, objs, &err) || err)
			return err;
	}
	return udrvd_client_err(c, ENOENT,
				"no chip of udrvd's has all of the lines given (%zu chips; their Line objects have the names)",
				chips->n);
}

int udrvd_client_find(struct udrvd_client *c, const char *chip, size_t n,
		      char *const *names, struct udrvd_lines *lines)
{
	struct udrvd_objs chips = { 0 }, objs = { 0 };
	int err;

	memset(lines, 0, sizeof(*lines));
	if (n < 1 || n > UDRV_LINES_MAX)
		return udrvd_client_err(c, EINVAL, "give 1 to %d lines", UDRV_LINES_MAX);
	err = udrvd_client_objects(c, UDRVD_CLIENT_CHIPS, &chips);
	if (!err)
		err = chip ? find_on(c, &chips, chip, n, names, lines, &objs) :
			     find_any(c, &chips, n, names, lines, &objs);
	free(chips.v);
	free(objs.v);
	return err;
}

/* Is line @i held as @s asks: an output, and the settings it names? */
static bool held_as(const struct udrvd_lines *lines, size_t i, const struct udrv_line_settings *s)
{
	const struct udrvd_held *h = &lines->held[i];

	return !strcmp(h->direction, udrv_direction_str(UDRV_DIR_OUTPUT)) &&
	       h->active_low == s->active_low && !strcmp(h->drive, udrv_drive_str(s->drive)) &&
	       (s->bias == UDRV_BIAS_AS_IS || !strcmp(h->bias, udrv_bias_str(s->bias)));
}

/* The one request that holds all of @lines, else NULL (and -EBUSY in *@err
 * when they are held, but not by one request); *@same: held as @s asks. */
static const char *holding(struct udrvd_client *c, const struct udrvd_lines *lines,
			   const struct udrv_line_settings *s, bool *same, int *err)
{
	const char *req = lines->requests[0];

	*err = 0;
	*same = true;
	for (size_t i = 0; i < lines->n; i++) {
		if (strcmp(lines->requests[i], req)) {
			*err = udrvd_client_err(c, EBUSY,
						"offsets %u and %u of %s are held by different requests of udrvd's (%s, %s): release them first",
						lines->offsets[0], lines->offsets[i], lines->chip,
						*req ? req : "none", *lines->requests[i] ? lines->requests[i] : "none");
			return NULL;
		}
		*same = *same && held_as(lines, i, &s[i]);
	}
	return *req ? req : NULL;
}

static int append_settings(sd_bus_message *m, const struct udrv_line_settings *s)
{
	bool out = s->direction == UDRV_DIR_OUTPUT;
	int r = sd_bus_message_open_container(m, 'a', "{sv}");

	if (r >= 0)
		r = sd_bus_message_append(m, "{sv}{sv}", "direction", "s",
					  udrv_direction_str(s->direction),
					  "active-low", "b", (int)s->active_low);
	if (r >= 0 && out)
		r = sd_bus_message_append(m, "{sv}", "drive", "s", udrv_drive_str(s->drive));
	if (r >= 0 && s->bias != UDRV_BIAS_AS_IS)
		r = sd_bus_message_append(m, "{sv}", "bias", "s", udrv_bias_str(s->bias));
	if (r >= 0 && s->edge != UDRV_EDGE_NONE)
		r = sd_bus_message_append(m, "{sv}{sv}", "edge", "s", udrv_edge_str(s->edge),
					  "event-clock", "s", udrv_clock_str(s->event_clock));
	if (r >= 0 && s->debounce_us)
		r = sd_bus_message_append(m, "{sv}", "debounce-period", "x",
					  (int64_t)s->debounce_us);
	return r < 0 ? r : sd_bus_message_close_container(m);
}

/* A line_config: one mapping per line, then their values. */
static int append_linecfg(sd_bus_message *m, const struct udrvd_lines *lines,
			  const struct udrv_line_settings *s)
{
	int r = sd_bus_message_open_container(m, 'r', "a(aua{sv})ai");

	if (r >= 0)
		r = sd_bus_message_open_container(m, 'a', "(aua{sv})");
	for (size_t i = 0; r >= 0 && i < lines->n; i++) {
		r = sd_bus_message_open_container(m, 'r', "aua{sv}");
		if (r >= 0)
			r = sd_bus_message_append(m, "au", 1, lines->offsets[i]);
		if (r >= 0)
			r = append_settings(m, &s[i]);
		if (r >= 0)
			r = sd_bus_message_close_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'a', "i");
	/* values for outputs only (a request's lines are all one or the other) */
	for (size_t i = 0; r >= 0 && s[0].direction == UDRV_DIR_OUTPUT && i < lines->n; i++)
		r = sd_bus_message_append(m, "i", (int32_t)s[i].value);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	return r < 0 ? r : sd_bus_message_close_container(m);
}

int udrvd_client_request_lines(struct udrvd_client *c, const struct udrvd_lines *lines,
		   const struct udrv_line_settings *s, const char *consumer,
		   unsigned int buffer_size, char *path, size_t len)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	const char *req;
	int r = sd_bus_message_new_method_call(c->bus, &m, UDRVD_CLIENT_BUS, lines->chip_path,
					       "io.gpiod1.Chip", "RequestLines");

	if (r >= 0)
		r = append_linecfg(m, lines, s);
	if (r >= 0 && buffer_size)
		r = sd_bus_message_append(m, "a{sv}", 2, "consumer", "s", consumer,
					  "event-buffer-size", "u", (uint32_t)buffer_size);
	else if (r >= 0)
		r = sd_bus_message_append(m, "a{sv}", 1, "consumer", "s", consumer);
	if (r < 0) {
		r = udrvd_client_err(c, -r, "cannot build the RequestLines call: %s", strerror(-r));
	} else if ((r = sd_bus_call(c->bus, m, 0, &e, &reply)) < 0 ||
		   (r = sd_bus_message_read(reply, "o", &req)) < 0) {
		r = udrvd_client_bus_err(c, "the request", &e, r);
	} else {
		snprintf(path, len, "%s", req);
		r = 0;
	}
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r;
}

/* SetValues' argument: each line's value. */
static int append_values(sd_bus_message *m, const struct udrvd_lines *lines,
			 const struct udrv_line_settings *s)
{
	int r = sd_bus_message_open_container(m, 'a', "{ui}");

	for (size_t i = 0; r >= 0 && i < lines->n; i++)
		r = sd_bus_message_append(m, "{ui}", lines->offsets[i], (int32_t)s[i].value);
	return r < 0 ? r : sd_bus_message_close_container(m);
}

/* io.gpiod1.Request.@member on @req, its argument built by @append:
 * SetValues (the values) or ReconfigureLines (settings and values, the
 * lines kept held); @what names it in a refusal. */
static int call_request(struct udrvd_client *c, const char *req, const char *member,
			const char *what, int (*append)(sd_bus_message *, const struct udrvd_lines *,
				      const struct udrv_line_settings *),
			const struct udrvd_lines *lines, const struct udrv_line_settings *s)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	int r = sd_bus_message_new_method_call(c->bus, &m, UDRVD_CLIENT_BUS, req,
					       "io.gpiod1.Request", member);

	if (r >= 0)
		r = append(m, lines, s);
	if (r < 0)
		r = udrvd_client_err(c, -r, "cannot build the %s call: %s", member, strerror(-r));
	else if ((r = sd_bus_call(c->bus, m, 0, &e, NULL)) < 0)
		r = udrvd_client_bus_err(c, what, &e, r);
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

int udrvd_client_set(struct udrvd_client *c, const struct udrvd_lines *lines,
		     const struct udrv_line_settings *s, const char *consumer,
		     char *path, size_t len)
{
	bool same;
	int err;
	const char *req = holding(c, lines, s, &same, &err);

	if (err)
		return err;
	if (!req)
		return udrvd_client_request_lines(c, lines, s, consumer, 0, path, len);
	snprintf(path, len, "%s", req);
	return same ? call_request(c, req, "SetValues", "the values", append_values, lines, s) :
		      call_request(c, req, "ReconfigureLines", "the new settings", append_linecfg,
				   lines, s);
}

/* The logical value of line @i of @lines, from the request that holds it. */
static int get_value(struct udrvd_client *c, const struct udrvd_lines *lines, size_t i,
		     int *value)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int32_t v = 0;
	int r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, lines->requests[i],
				   "io.gpiod1.Request", "GetValues", &e, &reply, "au", 1,
				   lines->offsets[i]);

	if (r < 0)
		r = udrvd_client_bus_err(c, "the values", &e, r);
	else if (sd_bus_message_enter_container(reply, 'a', "i") <= 0 ||
		 sd_bus_message_read(reply, "i", &v) <= 0 || (v != 0 && v != 1))
		r = udrvd_client_err(c, EBADMSG, "udrvd's GetValues on %s answered no value 0 or 1",
				     lines->requests[i]);
	*value = v;
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

int udrvd_client_release_request(struct udrvd_client *c, const char *req)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, req, "io.gpiod1.Request", "Release",
				   &e, NULL, "");

	if (r < 0)
		r = udrvd_client_bus_err(c, "the release", &e, r);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

/* The one request that holds all of @lines, "" none; NULL (and -EBUSY)
 * when some are held, not all by one. */
static const char *one_holder(struct udrvd_client *c, const struct udrvd_lines *lines, int *err)
{
	*err = 0;
	for (size_t i = 1; i < lines->n; i++)
		if (strcmp(lines->requests[i], lines->requests[0])) {
			*err = udrvd_client_err(c, EBUSY,
						"offsets %u and %u of %s are held by different requests of udrvd's (%s, %s)",
						lines->offsets[0], lines->offsets[i], lines->chip,
						*lines->requests[0] ? lines->requests[0] : "none",
						*lines->requests[i] ? lines->requests[i] : "none");
			return NULL;
		}
	return lines->requests[0];
}

int udrvd_client_get(struct udrvd_client *c, const struct udrvd_lines *lines,
		     const struct udrv_line_settings *s, const char *consumer, int *values)
{
	struct udrvd_lines mine = *lines;
	int err, r = 0;
	const char *req = one_holder(c, lines, &err);

	if (!req)
		return err;
	if (!*req) {
		err = udrvd_client_request_lines(c, lines, s, consumer, 0, mine.requests[0],
			      sizeof(mine.requests[0]));
		if (err)
			return err;
		for (size_t i = 1; i < mine.n; i++)
			memcpy(mine.requests[i], mine.requests[0], sizeof(mine.requests[0]));
	}
	for (size_t i = 0; r >= 0 && i < mine.n; i++)
		r = get_value(c, &mine, i, &values[i]);
	if (!*req) {
		char said[sizeof(c->errmsg)];

		memcpy(said, c->errmsg, sizeof(said));
		err = udrvd_client_release_request(c, mine.requests[0]);
		if (r < 0)	/* the reading's failure is the news */
			memcpy(c->errmsg, said, sizeof(said));
		else
			r = err;
	}
	return r < 0 ? r : 0;
}

int udrvd_client_release(struct udrvd_client *c, const struct udrvd_lines *lines, int *values)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r = 0;

	for (size_t i = 0; i < lines->n; i++)
		if (!*lines->requests[i])
			return udrvd_client_err(c, ENOENT, "udrvd holds no request on offset %u of %s",
						lines->offsets[i], lines->chip);
	for (size_t i = 0; values && r >= 0 && i < lines->n; i++)
		r = get_value(c, lines, i, &values[i]);
	for (size_t i = 0; r >= 0 && i < lines->n; i++) {
		bool done = false;

		for (size_t j = 0; j < i; j++)	/* one call per request */
			done |= !strcmp(lines->requests[j], lines->requests[i]);
		if (!done && (r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, lines->requests[i],
						     "io.gpiod1.Request", "Release", &e, NULL,
						     "")) < 0)
			r = udrvd_client_bus_err(c, "the release", &e, r);
	}
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

/* The offsets of the lines of udrvd's request @req, in its order. */
static int request_offsets(struct udrvd_client *c, const char *req, unsigned int *offsets,
			   size_t *n)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char **paths = NULL;
	size_t count = 0;
	int r = sd_bus_get_property_strv(c->bus, UDRVD_CLIENT_BUS, req, "io.gpiod1.Request",
					 "LinePaths", &e, &paths);

	if (r < 0)
		r = udrvd_client_bus_err(c, "the request's lines", &e, r);
	for (; r >= 0 && paths && paths[count]; count++) {
		uint32_t off = 0;

		if (count == UDRV_LINES_MAX) {
			r = udrvd_client_err(c, EBADMSG, "udrvd's request %s has more than %d lines",
					     req, UDRV_LINES_MAX);
			break;
		}
		sd_bus_error_free(&e);
		r = sd_bus_get_property_trivial(c->bus, UDRVD_CLIENT_BUS, paths[count],
						"io.gpiod1.Line", "Offset", &e, 'u', &off);
		if (r < 0)
			r = udrvd_client_bus_err(c, "a line's offset", &e, r);
		offsets[count] = off;
	}
	if (r >= 0 && !count)
		r = udrvd_client_err(c, EBADMSG, "udrvd's request %s has no lines", req);
	*n = count;
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

static bool named(const struct udrvd_lines *lines, unsigned int off)
{
	for (size_t i = 0; i < lines->n; i++)
		if (lines->offsets[i] == off)
			return true;
	return false;
}

int udrvd_client_whole(struct udrvd_client *c, const struct udrvd_lines *lines)
{
	unsigned int offsets[UDRV_LINES_MAX];
	char all[UDRV_LINES_MAX * 7];
	bool whole;
	size_t n, used;
	int r;

	for (size_t i = 0; i < lines->n; i++) {
		if (!*lines->requests[i])
			return udrvd_client_err(c, ENOENT, "udrvd holds no request on offset %u of %s",
						lines->offsets[i], lines->chip);
		r = request_offsets(c, lines->requests[i], offsets, &n);
		if (r < 0)
			return r;
		whole = true;
		used = 0;
		all[0] = '\0';
		for (size_t j = 0; j < n; j++) {
			whole = whole && named(lines, offsets[j]);
			used += (size_t)snprintf(all + used, sizeof(all) - used, " %u", offsets[j]);
		}
		if (!whole)
			return udrvd_client_err(c, EBUSY,
						"offset %u of %s is held in %s with other lines (offsets%s): udrvd releases a request whole, as the kernel does, so nothing is released; to release them all: udrv gpio release -c %s%s",
						lines->offsets[i], lines->chip, lines->requests[i], all,
						lines->chip, all);
	}
	return 0;
}

int udrvd_client_get_fd(struct udrvd_client *c, const struct udrvd_lines *lines, int *fd,
			unsigned int *offsets, size_t *n)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *req = lines->requests[0];
	int r, passed = -1;

	*fd = -1;
	for (size_t i = 0; i < lines->n; i++) {
		if (!*lines->requests[i])
			return udrvd_client_err(c, ENOENT,
						"udrvd holds no request on offset %u of %s: have it hold the line first",
						lines->offsets[i], lines->chip);
		if (strcmp(lines->requests[i], req))
			return udrvd_client_err(c, EBUSY,
						"offsets %u and %u of %s are held by different requests of udrvd's (%s, %s): name the lines of one",
						lines->offsets[0], lines->offsets[i], lines->chip,
						req, lines->requests[i]);
	}
	r = request_offsets(c, req, offsets, n);
	if (r < 0)
		return r;
	r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, req, "io.udrv1.Request", "GetFd", &e,
			       &reply, "");
	if (r < 0)
		r = udrvd_client_bus_err(c, "the request's file descriptor", &e, r);
	else if (sd_bus_message_read(reply, "h", &passed) <= 0)
		r = udrvd_client_err(c, EBADMSG, "udrvd's GetFd on %s answered no descriptor", req);
	else if ((*fd = fcntl(passed, F_DUPFD_CLOEXEC, 3)) < 0)
		r = udrvd_client_err(c, errno, "cannot keep the descriptor udrvd handed over: %s",
				     strerror(errno));
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}
