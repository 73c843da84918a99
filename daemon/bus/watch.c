// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Line.EdgeEvent: the edges of the lines udrvd holds with edge
 * detection, sent to the clients that may watch them.
 *
 * libgpiod's gpio-manager broadcasts each EdgeEvent: every client the bus
 * policy lets talk to the manager can receive the edges of every line. udrvd
 * sends each one to its watchers alone (a signal with a destination), and a
 * watcher is a client that
 *   - has read the line's properties (Properties.Get or GetAll on the Line
 *     object: what every proxy of the line does when it is made, gpiocli
 *     monitor's GDBus proxy and sd-bus clients alike), and
 *   - may watch the line: the policy grants it "watch" on the line when it
 *     reads them and again at each edge (a SIGHUP that takes the rule away
 *     stops its events).
 * A watcher stays one until its connection ends, and a connection that is
 * already gone when udrvd reads its call never becomes one (watching()).
 * Each user's connections together make at most UDRVD_USER_WATCHERS
 * watchers, a line takes at most UDRVD_WATCHERS_MAX: a property read over
 * either gets LimitsExceeded, which names the limit.
 *
 * The events are read from the request's file descriptor when the kernel
 * says it is readable, in udrvd's loop. A client that took that fd (GetFd)
 * and reads events itself takes them from udrvd: the kernel gives each event
 * to one reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caller.h"
#include "export.h"
#include "watch.h"

#define LINE_IFACE	"io.gpiod1.Line"
#define EVENTS_READ	16	/* events read at a time */

/*
 * A connection that watches lines. udrvd hears when one ends from a single
 * match on the bus (NameOwnerChanged to no owner: GONE_MATCH), in place
 * while some connection watches lines and removed when none does: the bus
 * sends udrvd nothing when nobody watches (every plain gpiocli call), and
 * the number of watchers costs udrvd no match rules on the bus (a
 * connection has a bounded number of them: dbus-daemon's is 512).
 *
 * A connection is a watcher from its property read, which the bus handed
 * udrvd before any NameOwnerChanged of its end: a match already in place
 * brings that signal after the read. For the connection that came first
 * (its read may be older than the match) udrvd asks the bus whether it is
 * still there (GetNameOwner, sent after AddMatch: the bus takes udrvd's
 * messages in order), and an error drops it, so a connection that hung up
 * before the match was in place leaves too.
 */
#define GONE_MATCH	"type='signal',sender='org.freedesktop.DBus'," \
			"path='/org/freedesktop/DBus',interface='org.freedesktop.DBus'," \
			"member='NameOwnerChanged',arg2=''"

struct udrvd_watching {
	struct udrvd_watching *next;
	struct udrvd *d;
	sd_bus_slot *check;		/* GetNameOwner, until its answer */
	uid_t uid;
	unsigned int watchers;		/* of every line */
	char name[UDRVD_BUS_NAME_LEN];
};

struct udrvd_watcher {
	struct udrvd_watcher *next;
	struct udrvd_watching *conn;	/* its connection: its unique name */
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t groups[];
};

/* The Line object at @path, or NULL. */
static struct udrvd_line *line_at(struct udrvd *d, const char *path)
{
	for (size_t c = 0; path && c < d->held.nchips; c++) {
		struct udrvd_chip *chip = d->held.chips[c];
		size_t len = strlen(chip->path);

		if (strncmp(path, chip->path, len) || strncmp(path + len, "/line", 5))
			continue;
		for (unsigned int i = 0; i < chip->nlines; i++)
			if (!strcmp(path, chip->lines[i].path))
				return &chip->lines[i];
		return NULL;
	}
	return NULL;
}

static bool may_watch(struct udrvd_line *l, const struct udrvd_caller *who)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;

	udrvd_chip_line_id(l->chip, l->offset, &id);
	return !udrvd_policy_gpio(l->chip->h->policy, who, &id, UDRVD_WATCH, msg);
}

static struct udrvd_watcher *watcher_new(struct udrvd_watching *conn,
					 const struct udrvd_caller *who)
{
	struct udrvd_watcher *w = calloc(1, sizeof(*w) + who->ngroups * sizeof(gid_t));

	if (!w)
		return NULL;
	w->conn = conn;
	conn->watchers++;
	w->uid = who->uid;
	w->gid = who->gid;
	w->ngroups = who->ngroups;
	memcpy(w->groups, who->groups, who->ngroups * sizeof(gid_t));
	return w;
}

static void watchers_drop(struct udrvd_line *l, const char *name);

/* Connection @name watches nothing any more (NULL: no connection does). */
static void conn_drop(struct udrvd *d, const char *name)
{
	char gone[UDRVD_BUS_NAME_LEN];

	/* the last watcher dropped frees its connection, the name with it */
	if (name)
		snprintf(gone, sizeof(gone), "%s", name);
	for (size_t i = 0; i < d->held.nchips; i++)
		for (unsigned int j = 0; j < d->held.chips[i]->nlines; j++)
			watchers_drop(&d->held.chips[i]->lines[j], name ? gone : NULL);
}

/* A connection ended (NameOwnerChanged, no new owner): if it watched
 * lines, it watches nothing any more. */
static int on_gone(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd *d = data;
	const char *name, *old, *new;

	if (sd_bus_message_read(m, "sss", &name, &old, &new) < 0 || new[0])
		return 0;
	for (struct udrvd_watching *c = d->watching; c; c = c->next) {
		if (!strcmp(c->name, name)) {
			conn_drop(d, name);
			break;
		}
	}
	return 0;
}

static int on_match_added(sd_bus_message *m, void *data, sd_bus_error *error)
{
	const sd_bus_error *e = sd_bus_message_get_error(m);

	if (!e)
		return 0;
	fprintf(stderr, "udrvd: udrvd cannot hear when the clients watching lines end (%s): "
		"their watches end now\n", e->message ? e->message : e->name);
	conn_drop(data, NULL);
	return 0;
}

/* The bus's answer whether @c is still connected: an error (no owner) drops
 * it. */
static int on_checked(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_watching *c = data;

	c->check = sd_bus_slot_unref(c->check);
	if (sd_bus_message_is_method_error(m, NULL))
		conn_drop(c->d, c->name);
	return 0;
}

static void watching_free(struct udrvd_watching *c)
{
	struct udrvd *d = c->d;

	for (struct udrvd_watching **p = &d->watching; *p; p = &(*p)->next) {
		if (*p == c) {
			*p = c->next;
			break;
		}
	}
	sd_bus_slot_unref(c->check);
	free(c);
	if (!d->watching)
		d->watchers_gone = sd_bus_slot_unref(d->watchers_gone);
}

/* The connection @name (of @uid), watching lines; NULL when the bus cannot
 * be asked. */
static struct udrvd_watching *watching(struct udrvd *d, const char *name, uid_t uid)
{
	struct udrvd_watching *c;
	int r = 0;

	for (c = d->watching; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	if (strlen(name) >= sizeof(c->name))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->d = d;
	c->uid = uid;
	snprintf(c->name, sizeof(c->name), "%s", name);
	if (!d->watchers_gone)
		r = sd_bus_add_match_async(d->bus, &d->watchers_gone, GONE_MATCH, on_gone,
					   on_match_added, d);
	if (r >= 0)
		r = sd_bus_call_method_async(d->bus, &c->check, "org.freedesktop.DBus",
					     "/org/freedesktop/DBus", "org.freedesktop.DBus",
					     "GetNameOwner", on_checked, c, "s", name);
	c->next = d->watching;
	d->watching = c;
	if (r < 0) {
		watching_free(c);
		return NULL;
	}
	return c;
}

/* The watchers of @uid's connections, on every line. */
static unsigned int user_watchers(const struct udrvd *d, uid_t uid)
{
	unsigned int n = 0;

	for (const struct udrvd_watching *c = d->watching; c; c = c->next)
		if (c->uid == uid)
			n += c->watchers;
	return n;
}

/* Room for another watcher of @l (which has @n) from @uid: 0 or
 * LimitsExceeded naming the limit. */
static int room(struct udrvd_line *l, unsigned int n, uid_t uid, sd_bus_error *error)
{
	unsigned int mine = user_watchers(udrvd_of(l->chip->h), uid);

	if (mine >= UDRVD_USER_WATCHERS)
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					 "uid %u watches %u lines' edges already (a line read by a "
					 "connection with a watch rule for it), the per-user watcher "
					 "quota (%u): close a connection that watches lines first",
					 (unsigned int)uid, mine, UDRVD_USER_WATCHERS);
	if (n >= UDRVD_WATCHERS_MAX)
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					 "%s has %u watchers, the most a line takes: its edge "
					 "events go to them alone", l->path, n);
	return 0;
}

/* @m's sender read @l's properties: a watcher of @l from now on, if the
 * policy lets it watch @l and there is room; 0 or LimitsExceeded. */
static int watch_add(struct udrvd_line *l, sd_bus_message *m, sd_bus_error *error)
{
	const char *name = sd_bus_message_get_sender(m);
	sd_bus_error ignored = SD_BUS_ERROR_NULL;
	struct udrvd_watching *conn = NULL;
	struct udrvd_watcher *w;
	struct udrvd_creds who;
	unsigned int n = 0;
	int err;

	for (w = l->exp->watchers; w; w = w->next, n++)
		if (name && !strcmp(w->conn->name, name))
			return 0;
	/* the call itself says why it cannot be told, if it must */
	err = name ? udrvd_caller_of(m, &who, &ignored) : -EINVAL;
	sd_bus_error_free(&ignored);
	if (err < 0)
		return 0;
	if (!may_watch(l, &who.caller)) {
		udrvd_caller_done(&who);
		return 0;
	}
	err = room(l, n, who.caller.uid, error);
	if (!err)
		conn = watching(udrvd_of(l->chip->h), name, who.caller.uid);
	w = conn ? watcher_new(conn, &who.caller) : NULL;
	if (w) {
		w->next = l->exp->watchers;
		l->exp->watchers = w;
	} else if (!err) {
		if (conn && !conn->watchers)
			watching_free(conn);
		fprintf(stderr, "udrvd: %s: %s (uid %u) gets no edge events: out of memory or "
			"the bus not answering\n", l->path, name, (unsigned int)who.caller.uid);
	}
	udrvd_caller_done(&who);
	return err;
}

/* Every message udrvd receives passes here first: Properties.Get and GetAll
 * on a Line make their sender its watcher; the call goes on as usual, or
 * gets LimitsExceeded. */
static int on_message(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_error full = SD_BUS_ERROR_NULL;
	struct udrvd *d = data;
	const char *member = sd_bus_message_get_member(m);
	struct udrvd_line *l;
	int r;

	if (!sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties", NULL) ||
	    !member || (strcmp(member, "Get") && strcmp(member, "GetAll")))
		return 0;
	l = line_at(d, sd_bus_message_get_path(m));
	if (!l || watch_add(l, m, &full) >= 0)
		return 0;
	r = sd_bus_reply_method_error(m, &full);
	sd_bus_error_free(&full);
	return r < 0 ? r : 1;
}

static void watchers_drop(struct udrvd_line *l, const char *name)
{
	for (struct udrvd_watcher **p = &l->exp->watchers; *p;) {
		struct udrvd_watcher *w = *p;

		if (!name || !strcmp(w->conn->name, name)) {
			*p = w->next;
			if (!--w->conn->watchers)
				watching_free(w->conn);
			free(w);
		} else {
			p = &w->next;
		}
	}
}

int udrvd_watch_start(struct udrvd *d)
{
	return sd_bus_add_filter(d->bus, &d->watch_filter, on_message, d);
}

void udrvd_watch_stop(struct udrvd *d)
{
	d->watch_filter = sd_bus_slot_unref(d->watch_filter);
	d->watchers_gone = sd_bus_slot_unref(d->watchers_gone);
}

void udrvd_watchers_free(struct udrvd_line *l)
{
	watchers_drop(l, NULL);
}

/* One event to each of @l's watchers that may still watch it. */
static void send_event(struct udrvd_line *l, const struct udrv_edge_event *ev)
{
	sd_bus *bus = udrvd_of(l->chip->h)->bus;

	for (struct udrvd_watcher *w = l->exp->watchers; w; w = w->next) {
		struct udrvd_caller who = {
			.uid = w->uid, .gid = w->gid, .groups = w->groups, .ngroups = w->ngroups,
		};
		sd_bus_message *s = NULL;
		int r;

		if (!may_watch(l, &who))
			continue;
		r = sd_bus_message_new_signal(bus, &s, l->path, LINE_IFACE, "EdgeEvent");
		if (r >= 0)
			r = sd_bus_message_set_destination(s, w->conn->name);
		if (r >= 0)
			r = sd_bus_message_append(s, "(ittt)", ev->edge == UDRV_EDGE_RISING ? 1 : 0,
						  ev->timestamp_ns, (uint64_t)ev->seqno,
						  (uint64_t)ev->line_seqno);
		if (r >= 0)
			r = sd_bus_send(bus, s, NULL);
		sd_bus_message_unref(s);
		if (r < 0)
			fprintf(stderr, "udrvd: %s: EdgeEvent to %s not sent: %s\n", l->path,
				w->conn->name, strerror(-r));
	}
}

static void on_events(struct udrvd_io *io, int fd, void *data)
{
	struct udrv_edge_event ev[EVENTS_READ];
	struct udrvd_req *r = data;
	int n = udrv_request_read_events(r->req, ev, EVENTS_READ);

	if (n < 0) {
		if (n == -EAGAIN || n == -EINTR)
			return;
		fprintf(stderr, "udrvd: %s: no more edge events: %s\n", r->path,
			udrv_request_errmsg(r->req));
		udrvd_io_stop(io);
		return;
	}
	for (int i = 0; i < n; i++)
		if (ev[i].offset < r->chip->nlines)
			send_event(&r->chip->lines[ev[i].offset], &ev[i]);
}

int udrvd_req_events(struct udrvd_req *r)
{
	bool edges = false;
	int err;

	for (size_t i = 0; i < r->n; i++)
		edges |= r->settings[i].edge != UDRV_EDGE_NONE;
	r->exp->events = udrvd_io_free(r->exp->events);
	if (!edges)
		return 0;
	err = udrvd_io_add(r->h->loop, &r->exp->events, udrv_request_fd(r->req), false,
			   on_events, r);
	if (err < 0)
		fprintf(stderr, "udrvd: %s: its edge events cannot be watched (%s): "
			"no EdgeEvent signals for its lines\n", r->path, strerror(-err));
	return err;
}

void udrvd_req_events_stop(struct udrvd_req *r)
{
	r->exp->events = udrvd_io_free(r->exp->events);
}
