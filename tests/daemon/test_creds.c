// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of udrvd's reader of the bus's GetConnectionCredentials reply
 * (daemon/bus/creds.c), with replies built by sd-bus as a bus sends them: with
 * UnixGroupIDs (dbus-daemon >= 1.14, dbus-broker) the groups are the bus's;
 * without it (older buses), the user's groups in the user database, which
 * are checked against id(1)'s for every user of /etc/passwd.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <systemd/sd-bus.h>

#include "creds.h"
#include "harness.h"

static sd_bus *bus;

/* A bus to build messages with: the server end of a socket pair. */
static void bus_up(void)
{
	sd_id128_t id;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || sd_bus_new(&bus) < 0 ||
	    sd_bus_set_fd(bus, sv[0], sv[0]) < 0 || sd_id128_randomize(&id) < 0 ||
	    sd_bus_set_server(bus, 1, id) < 0 || sd_bus_set_anonymous(bus, 1) < 0 ||
	    sd_bus_start(bus) < 0)
		abort();
}

static sd_bus_message *new_msg(void)
{
	sd_bus_message *m = NULL;

	if (!bus)
		bus_up();
	if (sd_bus_message_new_method_call(bus, &m, "org.freedesktop.DBus", "/", "x.y", "z") < 0)
		abort();
	return m;
}

static sd_bus_message *sealed(sd_bus_message *m)
{
	if (sd_bus_message_seal(m, 1, 0) < 0 || sd_bus_message_rewind(m, 1) < 0)
		abort();
	return m;
}

/* An a{sv} reply: UnixUserID @uid (unless -1), ProcessID 42, a security
 * label, and UnixGroupIDs @groups (@n of them; n < 0: no such key). */
static sd_bus_message *reply(long long uid, const uint32_t *groups, int n)
{
	sd_bus_message *m = new_msg();
	int r = sd_bus_message_open_container(m, 'a', "{sv}");

	if (r >= 0 && uid >= 0)
		r = sd_bus_message_append(m, "{sv}", "UnixUserID", "u", (uint32_t)uid);
	if (r >= 0)
		r = sd_bus_message_append(m, "{sv}", "ProcessID", "u", (uint32_t)42);
	if (r >= 0 && n >= 0) {
		r = sd_bus_message_open_container(m, 'e', "sv");
		if (r >= 0)
			r = sd_bus_message_append(m, "s", "UnixGroupIDs");
		if (r >= 0)
			r = sd_bus_message_open_container(m, 'v', "au");
		if (r >= 0)
			r = sd_bus_message_append_array(m, 'u', groups, (size_t)n * sizeof(*groups));
		if (r >= 0)
			r = sd_bus_message_close_container(m);
		if (r >= 0)
			r = sd_bus_message_close_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_append(m, "{sv}", "LinuxSecurityLabel", "ay", 2, 'x', 0);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r < 0)
		abort();
	return sealed(m);
}

static int read_ids(sd_bus_message *m, struct udrvd_ids *ids)
{
	int r = udrvd_ids_read(m, ids);

	sd_bus_message_unref(m);
	return r;
}

static void test_the_bus_groups(void)
{
	const uint32_t g[] = { 5, 2001, 3000 };
	struct udrvd_ids ids;

	CHECK_INT(read_ids(reply(3, g, 3), &ids), 0);
	CHECK_INT(ids.uid, 3);
	CHECK(ids.bus_groups);
	CHECK_INT(ids.ngroups, 3);
	CHECK_INT(ids.groups[0], 5);
	CHECK_INT(ids.groups[1], 2001);
	CHECK_INT(ids.groups[2], 3000);
	udrvd_ids_free(&ids);
	/* a uid the user database does not know: the bus's answer is enough */
	CHECK_INT(read_ids(reply(4000000, g, 1), &ids), 0);
	CHECK_INT(ids.uid, 4000000);
	CHECK_INT(ids.ngroups, 1);
	udrvd_ids_free(&ids);
	/* no groups at all */
	CHECK_INT(read_ids(reply(3, g, 0), &ids), 0);
	CHECK(ids.bus_groups);
	CHECK_INT(ids.ngroups, 0);
	udrvd_ids_free(&ids);
}

/* id -G NAME's groups, sorted by the caller's compare: 0 or -1. */
static int id_groups(const char *name, gid_t *out, size_t max, size_t *n)
{
	char cmd[300], word[16];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "id -G -- '%s'", name);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	*n = 0;
	while (*n < max && fscanf(f, "%15s", word) == 1)
		out[(*n)++] = (gid_t)strtoul(word, NULL, 10);
	return pclose(f) == 0 ? 0 : -1;
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return x < y ? -1 : x > y;
}

static bool same_set(gid_t *a, size_t na, gid_t *b, size_t nb)
{
	qsort(a, na, sizeof(*a), cmp_gid);
	qsort(b, nb, sizeof(*b), cmp_gid);
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

/* Without UnixGroupIDs: the user database's groups of the uid, as id(1)
 * lists them, for every user there is. */
static void test_without_the_key_the_user_database(void)
{
	struct passwd *pw;
	size_t users = 0;

	setpwent();
	while ((pw = getpwent()) && users < 100) {
		char name[256];
		uid_t uid = pw->pw_uid;
		gid_t want[64];
		struct udrvd_ids ids;
		size_t n;

		snprintf(name, sizeof(name), "%s", pw->pw_name);
		if (id_groups(name, want, 64, &n))
			continue;
		CHECK_INT(read_ids(reply(uid, NULL, -1), &ids), 0);
		CHECK_INT(ids.uid, uid);
		CHECK(!ids.bus_groups);
		if (!same_set(ids.groups, ids.ngroups, want, n))
			harness_fail(__FILE__, __LINE__, "uid %u (%s): %zu groups, id -G lists %zu",
				     (unsigned int)uid, name, ids.ngroups, n);
		udrvd_ids_free(&ids);
		users++;
	}
	endpwent();
	CHECK(users >= 1);	/* root at least */
	/* the bus does not say, and the user database does not know the uid */
	{
		struct udrvd_ids ids;

		CHECK_INT(read_ids(reply(4000000, NULL, -1), &ids), -ENOENT);
	}
}

static void test_refusals(void)
{
	const uint32_t g[] = { 5, 4294967295u };
	struct udrvd_ids ids;
	sd_bus_message *m;

	CHECK_INT(read_ids(reply(-1, g, 1), &ids), -ENODATA);		/* no UnixUserID */
	CHECK_INT(read_ids(reply(3, g, 2), &ids), -EBADMSG);		/* (gid_t)-1 */
	/* UnixUserID of the wrong type, given twice; UnixGroupIDs of the wrong type */
	m = new_msg();
	CHECK(sd_bus_message_append(m, "a{sv}", 1, "UnixUserID", "i", 3) >= 0);
	CHECK_INT(read_ids(sealed(m), &ids), -EBADMSG);
	m = new_msg();
	CHECK(sd_bus_message_append(m, "a{sv}", 2, "UnixUserID", "u", 3,
				    "UnixUserID", "u", 0) >= 0);
	CHECK_INT(read_ids(sealed(m), &ids), -EBADMSG);
	m = new_msg();
	CHECK(sd_bus_message_append(m, "a{sv}", 2, "UnixUserID", "u", 3,
				    "UnixGroupIDs", "ai", 1, 2001) >= 0);
	CHECK_INT(read_ids(sealed(m), &ids), -EBADMSG);
	/* not an a{sv}, nothing, or more after it */
	m = new_msg();
	CHECK(sd_bus_message_append(m, "s", "UnixUserID") >= 0);
	CHECK_INT(read_ids(sealed(m), &ids), -EBADMSG);
	CHECK_INT(read_ids(sealed(new_msg()), &ids), -EBADMSG);
	m = new_msg();
	CHECK(sd_bus_message_append(m, "a{sv}u", 1, "UnixUserID", "u", 3, 7) >= 0);
	CHECK_INT(read_ids(sealed(m), &ids), -EBADMSG);
}

UDRV_TESTS(UDRV_T(test_the_bus_groups), UDRV_T(test_without_the_key_the_user_database),
	   UDRV_T(test_refusals))
