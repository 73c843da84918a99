// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrvd's client: whether udrvd runs, the chips and lines it lists, and the
 * edges of lines through its EdgeEvent signals. udrvd sends each signal to
 * the watchers of the line alone (a destination, not a broadcast): a
 * connection becomes one by reading the line's properties, when the policy
 * lets it watch the line (daemon/bus/watch.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <udrv/parse.h>

#include "client_priv.h"

int udrvd_client_running(struct udrvd_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int yes = 0;
	int r = sd_bus_call_method(c->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
				   "org.freedesktop.DBus", "NameHasOwner", &e, &reply, "s",
				   UDRVD_CLIENT_BUS);

	if (r < 0)
		r = udrvd_client_err(c, -r, "cannot ask the system bus whether udrvd runs: %s",
				     e.message ? e.message : strerror(-r));
	else if (sd_bus_message_read(reply, "b", &yes) < 0)
		r = udrvd_client_err(c, EBADMSG, "the bus's NameHasOwner answered no boolean");
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r < 0 ? r : !!yes;
}

/* The index in the watched lines of Line object @path, or -1. */
static int watched_index(const struct udrvd_client *c, const char *path)
{
	const struct udrvd_lines *w = &c->watched;
	size_t len = strlen(w->chip_path);
	unsigned int off;

	if (!path || strncmp(path, w->chip_path, len) || strncmp(path + len, "/line", 5) ||
	    udrv_parse_uint(path + len + 5, UINT32_MAX, &off))
		return -1;
	for (size_t i = 0; i < w->n; i++)
		if (w->offsets[i] == off)
			return (int)i;
	return -1;
}

/* EdgeEvent (ittt): rising 1 or falling 0, timestamp, the request's and the
 * line's sequence numbers. Queued; the caller reads them. */
static int on_edge(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_client *c = data;
	int idx = watched_index(c, sd_bus_message_get_path(m));
	struct udrv_edge_event *ev;
	uint64_t ts, seq, lseq;
	int32_t rising;

	if (idx < 0 || c->queued == UDRVD_CLIENT_EVENTS ||
	    sd_bus_message_read(m, "(ittt)", &rising, &ts, &seq, &lseq) < 0)
		return 0;
	ev = &c->queue[(c->head + c->queued++) % UDRVD_CLIENT_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->timestamp_ns = ts;
	ev->edge = rising ? UDRV_EDGE_RISING : UDRV_EDGE_FALLING;
	ev->offset = c->watched.offsets[idx];
	ev->index = (unsigned int)idx;
	ev->seqno = (uint32_t)seq;
	ev->line_seqno = (uint32_t)lseq;
	/* a request of one's own counts from 1; another's from what came */
	if ((c->watch_req[0] || c->line_seqno[idx]) && ev->line_seqno > c->line_seqno[idx] + 1)
		ev->lost = ev->line_seqno - c->line_seqno[idx] - 1;
	c->line_seqno[idx] = ev->line_seqno;
	c->lost += ev->lost;
	return 0;
}

/* Read every property of Line @i of @lines: udrvd makes the caller its
 * watcher (if the policy lets it watch the line). */
static int become_watcher(struct udrvd_client *c, const struct udrvd_lines *lines, size_t i)
{
	char path[UDRVD_CLIENT_PATH_LEN + 16];
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	snprintf(path, sizeof(path), "%s/line%u", lines->chip_path, lines->offsets[i]);
	r = sd_bus_call_method(c->bus, UDRVD_CLIENT_BUS, path, "org.freedesktop.DBus.Properties",
			       "GetAll", &e, NULL, "s", "io.gpiod1.Line");
	if (r < 0)
		r = udrvd_client_bus_err(c, "to watch the line", &e, r);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

/* The edge detection of line @i as udrvd's Line object says it. */
static int held_edges(struct udrvd_client *c, const struct udrvd_lines *lines, size_t i,
		      bool *edges)
{
	char path[UDRVD_CLIENT_PATH_LEN + 16], *edge = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	snprintf(path, sizeof(path), "%s/line%u", lines->chip_path, lines->offsets[i]);
	r = sd_bus_get_property_string(c->bus, UDRVD_CLIENT_BUS, path, "io.gpiod1.Line",
				       "EdgeDetection", &e, &edge);
	if (r < 0)
		r = udrvd_client_bus_err(c, "the line's edge detection", &e, r);
	*edges = edge && strcmp(edge, "none");
	free(edge);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

/* The request that holds @lines: watched as it is when it detects edges. */
static int watch_held(struct udrvd_client *c, const struct udrvd_lines *lines)
{
	bool edges;
	int r;

	for (size_t i = 0; i < lines->n; i++) {
		if (strcmp(lines->requests[i], lines->requests[0]))
			return udrvd_client_err(c, EBUSY,
						"offsets %u and %u of %s are held by different requests of udrvd's (%s, %s)",
						lines->offsets[0], lines->offsets[i], lines->chip,
						*lines->requests[0] ? lines->requests[0] : "none",
						*lines->requests[i] ? lines->requests[i] : "none");
		r = held_edges(c, lines, i, &edges);
		if (r)
			return r;
		if (!edges)
			return udrvd_client_err(c, EBUSY,
						"offset %u of %s is held by udrvd's %s without edge detection: its owner requests it with edges (gpiocli request --both-edges), or releases it",
						lines->offsets[i], lines->chip, lines->requests[i]);
	}
	return 0;
}

int udrvd_client_watch(struct udrvd_client *c, const struct udrvd_lines *lines,
		       const struct udrv_line_settings *s, const char *consumer,
		       unsigned int buffer_size)
{
	bool held = false;
	int r;

	udrvd_client_unwatch(c);
	c->watched = *lines;
	for (size_t i = 0; i < lines->n; i++)
		held |= *lines->requests[i] != '\0';
	r = sd_bus_match_signal(c->bus, &c->edges, NULL, NULL, "io.gpiod1.Line", "EdgeEvent",
				on_edge, c);
	if (r < 0)
		return udrvd_client_err(c, -r, "cannot listen to udrvd's edge events: %s",
					strerror(-r));
	/* a watcher first: udrvd sends the edges of a request to the
	 * watchers it has when they come */
	for (size_t i = 0; i < lines->n; i++) {
		r = become_watcher(c, lines, i);
		if (r)
			return r;
	}
	if (held)
		return watch_held(c, lines);
	return udrvd_client_request_lines(c, lines, s, consumer, buffer_size, c->watch_req,
					  sizeof(c->watch_req));
}

int udrvd_client_unwatch(struct udrvd_client *c)
{
	int r = 0;

	c->edges = sd_bus_slot_unref(c->edges);
	if (c->watch_req[0])
		r = udrvd_client_release_request(c, c->watch_req);
	c->watch_req[0] = '\0';
	c->head = c->queued = 0;
	memset(c->line_seqno, 0, sizeof(c->line_seqno));
	return r;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleep on the bus's socket until it has something, @ms at most (-1: no
 * limit), the bus's own timeout too. */
static int bus_poll(struct udrvd_client *c, int64_t ms, const sigset_t *mask)
{
	struct pollfd p = { .fd = sd_bus_get_fd(c->bus) };
	struct timespec ts, *tp = NULL;
	uint64_t until = UINT64_MAX;
	int r = sd_bus_get_events(c->bus);

	if (p.fd < 0 || r < 0)
		return p.fd < 0 ? p.fd : r;
	p.events = (short)r;
	if (sd_bus_get_timeout(c->bus, &until) >= 0 && until != UINT64_MAX) {
		struct timespec mono;
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &mono);
		now = (uint64_t)mono.tv_sec * 1000000 + (uint64_t)mono.tv_nsec / 1000;
		if (ms < 0 || (until > now ? (until - now) / 1000 : 0) < (uint64_t)ms)
			ms = until > now ? (int64_t)((until - now + 999) / 1000) : 0;
	}
	if (ms >= 0) {
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (ms % 1000) * 1000000;
		tp = &ts;
	}
	r = ppoll(&p, 1, tp, mask);
	return r < 0 ? -errno : 0;
}

int udrvd_client_wait_events(struct udrvd_client *c, int timeout_ms, const sigset_t *mask)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int r;

	while (!c->queued) {
		r = sd_bus_process(c->bus, NULL);
		if (r < 0)
			return udrvd_client_err(c, -r, "the bus connection to udrvd failed: %s",
						strerror(-r));
		if (r > 0)
			continue;
		if (deadline >= 0 && now_ms() >= deadline)
			return 0;
		r = bus_poll(c, deadline < 0 ? -1 : deadline - now_ms(), mask);
		if (r == -EINTR)
			return udrvd_client_err(c, EINTR, "interrupted");
		if (r < 0)
			return udrvd_client_err(c, -r, "waiting for udrvd: %s", strerror(-r));
	}
	return 1;
}

int udrvd_client_read_events(struct udrvd_client *c, struct udrv_edge_event *ev, size_t max)
{
	size_t n = 0;

	for (; n < max && c->queued; n++, c->queued--) {
		ev[n] = c->queue[c->head];
		c->head = (c->head + 1) % UDRVD_CLIENT_EVENTS;
	}
	return (int)n;
}

uint64_t udrvd_client_lost_events(const struct udrvd_client *c)
{
	return c->lost;
}

static int word(const char *w, const char *(*str)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(w, str(i)))
			return i;
	return 0;	/* what udrvd shows a line it does not show: as-is, input */
}

static const char *dir_word(int v)
{
	return udrv_direction_str((enum udrv_direction)v);
}

static const char *bias_word(int v)
{
	return udrv_bias_str((enum udrv_bias)v);
}

static const char *drive_word(int v)
{
	return udrv_drive_str((enum udrv_drive)v);
}

static const char *edge_word(int v)
{
	return udrv_edge_str((enum udrv_edge)v);
}

static const char *clock_word(int v)
{
	return udrv_clock_str((enum udrv_clock)v);
}

/* A Line object as struct udrv_line_info (udrvd's "unknown" bias: as-is). */
static void line_info(const struct udrvd_obj *o, struct udrv_line_info *li)
{
	memset(li, 0, sizeof(*li));
	li->offset = o->offset;
	snprintf(li->name, sizeof(li->name), "%s", o->name);
	snprintf(li->consumer, sizeof(li->consumer), "%s", o->consumer);
	li->used = o->used;
	li->active_low = o->active_low;
	li->direction = (enum udrv_direction)word(o->direction, dir_word, UDRV_DIR_OUTPUT + 1);
	li->bias = (enum udrv_bias)word(o->bias, bias_word, UDRV_BIAS_PULL_DOWN + 1);
	li->drive = (enum udrv_drive)word(o->drive, drive_word, UDRV_DRIVE_OPEN_SOURCE + 1);
	li->edge = (enum udrv_edge)word(o->edge, edge_word, UDRV_EDGE_BOTH + 1);
	li->event_clock = (enum udrv_clock)word(o->clock, clock_word, UDRV_CLOCK_HTE + 1);
	li->debounce_us = o->debounce_us > UINT32_MAX ? UINT32_MAX : (uint32_t)o->debounce_us;
}

/* Chip object @o and its lines into @out. */
static int chip_info(struct udrvd_client *c, const struct udrvd_obj *o,
		     struct udrvd_chip_info *out, struct udrvd_objs *objs)
{
	int r = udrvd_client_objects(c, o->path, objs);

	if (r)
		return r;
	snprintf(out->name, sizeof(out->name), "%s", o->name);
	snprintf(out->label, sizeof(out->label), "%s", o->label);
	snprintf(out->dev, sizeof(out->dev), "%s", o->dev);
	out->num_lines = o->num_lines;
	out->lines = calloc(o->num_lines ? o->num_lines : 1, sizeof(*out->lines));
	if (!out->lines)
		return udrvd_client_err(c, ENOMEM, "out of memory");
	for (unsigned int i = 0; i < o->num_lines; i++)
		out->lines[i].offset = i;
	for (size_t i = 0; i < objs->n; i++)
		if (objs->v[i].is_line && objs->v[i].offset < o->num_lines)
			line_info(&objs->v[i], &out->lines[objs->v[i].offset]);
	return 0;
}

/* gpiochip2 before gpiochip10, as udrv_chip_list() sorts them */
static int by_number(const void *a, const void *b)
{
	const struct udrvd_obj *x = a, *y = b;
	size_t lx = strlen(x->name), ly = strlen(y->name);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);
}

int udrvd_client_chips(struct udrvd_client *c, const char *chip,
		       struct udrvd_chip_info **chips, size_t *n)
{
	struct udrvd_objs objs = { 0 }, lines = { 0 };
	bool found = false;
	int r = udrvd_client_objects(c, UDRVD_CLIENT_CHIPS, &objs);

	*chips = NULL;
	*n = 0;
	if (!r && objs.n)
		qsort(objs.v, objs.n, sizeof(*objs.v), by_number);
	if (!r)
		*chips = calloc(objs.n ? objs.n : 1, sizeof(**chips));
	if (!r && !*chips)
		r = udrvd_client_err(c, ENOMEM, "out of memory");
	for (size_t i = 0; !r && i < objs.n; i++) {
		if (objs.v[i].is_line || (chip && (found || !udrvd_client_chip_is(&objs.v[i], chip))))
			continue;
		found = true;
		r = chip_info(c, &objs.v[i], &(*chips)[*n], &lines);
		(*n)++;
	}
	if (!r && chip && !found)
		r = udrvd_client_no_chip(c, &objs, chip);
	free(objs.v);
	free(lines.v);
	if (r) {
		udrvd_client_chips_free(*chips, *n);
		*chips = NULL;
		*n = 0;
	}
	return r;
}

void udrvd_client_chips_free(struct udrvd_chip_info *chips, size_t n)
{
	for (size_t i = 0; chips && i < n; i++)
		free(chips[i].lines);
	free(chips);
}
