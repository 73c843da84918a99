// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's harness (fuzz_udrvd.c): the bus end. The harness is the bus on
 * one end of a socket pair, udrvd on the other: it answers udrvd's Hello,
 * RequestName and AddMatch, and the credentials of a caller the way
 * dbus-daemon does; it sends udrvd the callers' calls with their unique
 * names as senders, and NameOwnerChanged when a caller leaves.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <systemd/sd-id128.h>

#include "fuzz_udrvd.h"

#define GUARD_S		20	/* an answer takes microseconds; a guard only */
#define DBUS_NAME	"org.freedesktop.DBus"
#define DBUS_PATH	"/org/freedesktop/DBus"

/* never given twice in the process, as a bus never gives one twice:
 * caller.c keeps credentials by name */
void bus_new_name(struct bus *b, size_t caller)
{
	static unsigned long next = 2;

	snprintf(b->names[caller], sizeof(b->names[caller]), ":1.%lu", next++);
}

const struct caller UDRVD_ITSELF = { 0, { 0 }, 1, false };

const struct caller *bus_caller(const struct bus *b, const char *name)
{
	if (name && !strcmp(name, UDRVD_UNIQUE))
		return &UDRVD_ITSELF;
	for (size_t i = 0; name && i < NCALLERS; i++)
		if (!strcmp(b->names[i], name))
			return CALLERS[i].unknown ? NULL : &CALLERS[i];
	return NULL;
}

/* the bus daemon's side (org.freedesktop.DBus), answering udrvd */

static int reply_from_bus(sd_bus_message *call, sd_bus_message **reply)
{
	int r = sd_bus_message_new_method_return(call, reply);

	return r < 0 ? r : sd_bus_message_set_sender(*reply, DBUS_NAME);
}

static int send_reply(sd_bus_message *reply, int r)
{
	if (r >= 0)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r < 0 ? r : 1;
}

static int bus_hello(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	int r = reply_from_bus(m, &reply);

	return send_reply(reply, r < 0 ? r : sd_bus_message_append(reply, "s", UDRVD_UNIQUE));
}

static int bus_request_name(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct bus *b = data;
	sd_bus_message *reply = NULL;
	int r = reply_from_bus(m, &reply);

	b->named = true;
	/* 1: DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, 1: RELEASED */
	return send_reply(reply, r < 0 ? r : sd_bus_message_append(reply, "u", 1));
}

static int bus_nothing(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	int r = reply_from_bus(m, &reply);

	return send_reply(reply, r);
}

static const struct caller *named(struct bus *b, sd_bus_message *m, const char **name,
				  sd_bus_error *error)
{
	const struct caller *c;

	if (sd_bus_message_read(m, "s", name) < 0)
		return NULL;
	c = bus_caller(b, *name);
	if (!c)
		sd_bus_error_setf(error, "org.freedesktop.DBus.Error.NameHasNoOwner",
				  "Could not get UID of name '%s': no such name", *name);
	return c;
}

static int bus_unix_user(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	const char *name;
	const struct caller *c = named(data, m, &name, error);
	int r;

	if (!c)
		return -ESRCH;
	r = reply_from_bus(m, &reply);
	return send_reply(reply, r < 0 ? r : sd_bus_message_append(reply, "u", (uint32_t)c->uid));
}

/* The harness's own pid: caller.c, which reads a caller's groups from its
 * process, reads the harness's; udrvd that takes them from the bus
 * (UnixGroupIDs) does not. */
static int bus_unix_pid(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	const char *name;
	int r;

	if (!named(data, m, &name, error))
		return -ESRCH;
	r = reply_from_bus(m, &reply);
	return send_reply(reply, r < 0 ? r : sd_bus_message_append(reply, "u", (uint32_t)getpid()));
}

static int bus_credentials(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct bus *b = data;
	sd_bus_message *reply = NULL;
	const char *name;
	const struct caller *c = named(b, m, &name, error);
	uint32_t gids[3];
	int r;

	if (!c)
		return -ESRCH;
	r = reply_from_bus(m, &reply);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'a', "{sv}");
	if (r >= 0)
		r = sd_bus_message_append(reply, "{sv}", "UnixUserID", "u", (uint32_t)c->uid);
	if (r >= 0 && b->groups) {
		for (size_t i = 0; i < c->ngroups; i++)
			gids[i] = c->groups[i];
		r = sd_bus_message_open_container(reply, 'e', "sv");
		if (r >= 0)
			r = sd_bus_message_append(reply, "s", "UnixGroupIDs");
		if (r >= 0)
			r = sd_bus_message_open_container(reply, 'v', "au");
		if (r >= 0)
			r = sd_bus_message_append_array(reply, 'u', gids, c->ngroups * sizeof(gids[0]));
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
	}
	if (r >= 0)
		r = sd_bus_message_append(reply, "{sv}", "ProcessID", "u", (uint32_t)getpid());
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	return send_reply(reply, r);
}

static int bus_name_owner(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	const char *name;
	int r;

	if (sd_bus_message_read(m, "s", &name) < 0)
		return -EINVAL;
	if (strcmp(name, DBUS_NAME) && strcmp(name, UDRVD_BUS_NAME) &&
	    strcmp(name, UDRVD_UNIQUE) && !bus_caller(data, name))
		return sd_bus_error_setf(error, "org.freedesktop.DBus.Error.NameHasNoOwner",
					 "Could not get owner of name '%s': no such name", name);
	r = reply_from_bus(m, &reply);
	if (r >= 0)
		r = sd_bus_message_append(reply, "s", !strcmp(name, UDRVD_BUS_NAME) ? UDRVD_UNIQUE :
					  name);
	return send_reply(reply, r);
}

static const sd_bus_vtable bus_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Hello", "", "s", bus_hello, 0),
	SD_BUS_METHOD("RequestName", "su", "u", bus_request_name, 0),
	SD_BUS_METHOD("ReleaseName", "s", "u", bus_request_name, 0),
	SD_BUS_METHOD("AddMatch", "s", "", bus_nothing, 0),
	SD_BUS_METHOD("RemoveMatch", "s", "", bus_nothing, 0),
	SD_BUS_METHOD("GetNameOwner", "s", "s", bus_name_owner, 0),
	SD_BUS_METHOD("GetConnectionUnixUser", "s", "u", bus_unix_user, 0),
	SD_BUS_METHOD("GetConnectionUnixProcessID", "s", "u", bus_unix_pid, 0),
	SD_BUS_METHOD("GetConnectionCredentials", "s", "a{sv}", bus_credentials, 0),
	SD_BUS_VTABLE_END
};

/* udrvd, in its own thread */

static void *serve(void *data)
{
	struct udrvd *d = data;
	intptr_t r = udrvd_serve(d);

	if (r >= 0)
		r = sd_event_loop(d->event);
	udrvd_teardown(d);
	return (void *)r;
}

static char path_buf[PATH_MAX];

void bus_start(struct bus *b, const struct udrvd_policy *policy)
{
	sd_id128_t id;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
		abort();
	if (sd_id128_randomize(&id) < 0 || sd_bus_new(&b->bus) < 0 ||
	    sd_bus_set_fd(b->bus, sv[1], sv[1]) < 0 || sd_bus_set_server(b->bus, 1, id) < 0 ||
	    sd_bus_negotiate_fds(b->bus, 1) < 0 ||
	    sd_bus_add_object_vtable(b->bus, NULL, DBUS_PATH, DBUS_NAME, bus_vtable, b) < 0 ||
	    sd_bus_add_filter(b->bus, NULL, check_edges, b) < 0 ||
	    sd_bus_start(b->bus) < 0)
		abort();
	/* udrvd's connection, as sd_bus_open_system() makes it */
	if (sd_event_new(&b->d.event) < 0 || sd_bus_new(&b->d.bus) < 0 ||
	    sd_bus_set_fd(b->d.bus, sv[0], sv[0]) < 0 || sd_bus_set_bus_client(b->d.bus, 1) < 0 ||
	    sd_bus_negotiate_fds(b->d.bus, 1) < 0 ||
	    sd_bus_set_exit_on_disconnect(b->d.bus, 1) < 0 || sd_bus_start(b->d.bus) < 0 ||
	    sd_bus_add_object_vtable(b->d.bus, NULL, HOTPLUG_PATH, HOTPLUG_IFACE,
				     hotplug_vtable, &b->d) < 0 ||
	    sd_bus_add_object_vtable(b->d.bus, NULL, KERNEL_PATH, KERNEL_IFACE,
				     kernel_vtable, &b->d) < 0)
		abort();
	b->d.held.policy = (struct udrvd_policy *)policy;
	b->d.policy_path = "udrvd.conf";
	fuzz_path(path_buf, sizeof(path_buf), "var/lib/udrvd/state");
	b->d.held.state_path = path_buf;
	if (pthread_create(&b->thread, NULL, serve, &b->d))
		abort();
}

/* a call and its answer */

static uint64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

/* Be the bus until *@done; false when udrvd's connection ended. How often
 * its loop turns is the threads' timing: not coverage (make check's inputs
 * are the same on every run when the features are). */
__attribute__((no_sanitize("coverage")))
static bool pump(struct bus *b, const bool *done, const char *what)
{
	uint64_t deadline = now_s() + GUARD_S;

	while (!*done) {
		int r = sd_bus_process(b->bus, NULL);

		if (r < 0)
			return false;
		if (r > 0)
			continue;
		FUZZ_CHECK(fuzz_skip("udrvd-answers") || now_s() < deadline,
			   "no answer to %s in %d s", what, GUARD_S);
		sd_bus_wait(b->bus, 100000);
	}
	return true;
}

struct answer {
	bool done;
	sd_bus_message *reply;
};

static int on_answer(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct answer *a = data;

	a->reply = sd_bus_message_ref(m);
	a->done = true;
	return 1;
}

sd_bus_message *bus_call(struct bus *b, sd_bus_message *m, const char *what)
{
	struct answer a = { 0 };
	sd_bus_slot *slot = NULL;
	int r = sd_bus_call_async(b->bus, &slot, m, on_answer, &a, 0);

	if (r < 0) {
		fprintf(stderr, "fuzz_udrvd: cannot send %s: %s\n", what, strerror(-r));
		abort();
	}
	if (!pump(b, &a.done, what) || sd_bus_is_open(b->bus) <= 0)
		FUZZ_CHECK(fuzz_skip("udrvd-answers"), "udrvd's connection ended at %s", what);
	sd_bus_slot_unref(slot);
	check_error(a.reply, what);
	return a.reply;
}

/* udrvd serves: it took its name, and answers a Ping (from a connection of
 * no caller's). Nothing is sent to udrvd before: a bus sends a client
 * nothing before its Hello's answer. */
void bus_wait_serving(struct bus *b)
{
	sd_bus_message *m = NULL, *reply;

	if (!pump(b, &b->named, "udrvd's RequestName"))
		FUZZ_CHECK(fuzz_skip("udrvd-serves"), "udrvd's connection ended before it took "
			   "its name");

	if (sd_bus_message_new_method_call(b->bus, &m, UDRVD_BUS_NAME, "/",
					   "org.freedesktop.DBus.Peer", "Ping") < 0 ||
	    sd_bus_message_set_sender(m, ":1.0") < 0)
		abort();
	reply = bus_call(b, m, "the first call (Ping)");
	sd_bus_message_unref(reply);
	sd_bus_message_unref(m);
}

/* NameOwnerChanged from the bus */
void bus_leave(struct bus *b, size_t who)
{
	sd_bus_message *s = NULL;

	if (sd_bus_message_new_signal(b->bus, &s, DBUS_PATH, DBUS_NAME, "NameOwnerChanged") < 0 ||
	    sd_bus_message_set_sender(s, DBUS_NAME) < 0 ||
	    sd_bus_message_set_destination(s, UDRVD_UNIQUE) < 0 ||
	    sd_bus_message_append(s, "sss", b->names[who], b->names[who], "") < 0 ||
	    sd_bus_send(b->bus, s, NULL) < 0)
		abort();
	sd_bus_message_unref(s);
	bus_new_name(b, who);
}
