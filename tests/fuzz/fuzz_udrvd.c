// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's method handlers and property readers, called in-process with
 * arbitrary arguments by clients of a bus (issue 40).
 *
 * The bus itself rejects malformed messages before udrvd sees them, and
 * sd-bus checks a call's signature against the vtable's before a handler
 * runs, so what reaches udrvd is type-correct calls with any values: line
 * offsets and counts, line and request settings, strings, object paths,
 * property and interface names, from callers of any identity, in any
 * order. Here udrvd runs as it does on the system bus (daemon/serve.c's
 * udrvd_serve(), its own event loop, in a thread), on one end of a socket
 * pair; the harness is the bus on the other end: it answers udrvd's Hello,
 * RequestName and AddMatch, and the credentials of a caller
 * (GetConnectionCredentials: UnixUserID, UnixGroupIDs, ProcessID; also
 * GetConnectionUnixUser and GetConnectionUnixProcessID) the way
 * dbus-daemon does, and it sends udrvd the callers' method calls with their
 * unique names as senders, and NameOwnerChanged when a caller leaves. So
 * credentials reach udrvd through the same code path as on the system bus
 * (caller.c asks the bus), with no branch for the fuzzer in udrvd.
 *
 * The GPIO chips are files that tests/daemon/fake_cdev.c answers as
 * Linux 6.1's gpiolib-cdev does (linked in: its ioctl(), read(), close()...
 * come first), in a fake tree (UDRV_SYSROOT, emptied for each input):
 * gpiochip0 "fuzz-a" (8 lines L0..L7, L6 unnamed), gpiochip1 "fuzz-b"
 * (B0..B3), gpiochip2 "fuzz-c" (10 unnamed lines); a UIO device uio0
 * "fuzz-uio" with one map; no VFIO device.
 *
 * Input parts (fuzz.h):
 *   0 the policy (udrvd.conf(5); absent or empty: POLICY below). User and
 *     group names are those of the callers below (NAMES).
 *   1 the state file udrvd restores at start (absent: none)
 *   2 to the end (separators and all): the calls, one after another:
 *	byte	the caller (CALLERS[b % 8]): its connection
 *	byte	what (STEPS[b % N]): a method of udrvd's, a property read or
 *		write, an introspection, a call of any member and signature,
 *		the caller leaving the bus (NameOwnerChanged; its next call
 *		comes from a new connection), a chip going away or coming
 *		(on_hotplug(): its values a chip byte and a boolean), or an
 *		edge or a line change from the kernel (on_kernel(): a chip
 *		byte, an offset, a byte for which)
 *	byte	the object (target(): a chip, a line, a request, the devices,
 *		a manager, / or a path from the input), then its argument bytes
 *	...	the body's values (fuzz_sdbus.h's encoding), for the method's
 *		signature; a value that makes no message skips the call
 *   The first byte of part 2 also says whether the bus reports UnixGroupIDs
 *   (bit 3 clear: it does, as Debian 12's dbus-daemon 1.14; set: it does
 *   not, as older ones).
 *
 * Properties:
 *  - udrvd-serves: udrvd starts on the bus with any policy that parses and
 *    any state file;
 *  - udrvd-answers: every call gets an answer, a return or an error, within
 *    GUARD_S (no call is left hanging, udrvd does not end);
 *  - udrvd-error: an error has a D-Bus name and a message;
 *  - udrvd-policy: a RequestLines that udrvd grants is one the policy grants
 *    the caller, as the bus reported the caller (its uid and groups, where
 *    the bus reports UnixGroupIDs): each line what its settings need (read
 *    or drive, watch, configure);
 *  - udrvd-owner: GetFd, SetValues and ReconfigureLines of a request succeed
 *    for the uid that made it alone;
 *  - udrvd-edges: an EdgeEvent goes to one connection (a destination), one
 *    whose caller the policy lets watch the line (where the bus reports
 *    UnixGroupIDs);
 *  - udrvd-fds: once udrvd is taken down, the process has the file
 *    descriptors it had before (udrvd leaks none, whatever the calls).
 * LeakSanitizer finds the memory it would leak.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/gpio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <systemd/sd-id128.h>

#include "fuzz.h"
#include "fuzz_sdbus.h"
#include "udrvd.h"

#define GUARD_S		20	/* an answer takes microseconds; a guard only */
#define DBUS_NAME	"org.freedesktop.DBus"
#define DBUS_PATH	"/org/freedesktop/DBus"
#define PROPS		"org.freedesktop.DBus.Properties"
#define UDRVD_UNIQUE	":1.1"
#define MAX_REQS	64
#define NCALLERS	8
#define HOTPLUG_PATH	"/fuzz/hotplug"
#define HOTPLUG_IFACE	"io.udrv1.FuzzHotplug"
#define KERNEL_PATH	"/fuzz/kernel"
#define KERNEL_IFACE	"io.udrv1.FuzzKernel"

static const char POLICY[] =
	"allow user:alice all gpio fuzz-a *\n"
	"allow group:gpio read,watch gpio gpiochip1 *\n"
	"allow user:bob drive gpio fuzz-a 0-3\n"
	"allow uid:1001 read gpio fuzz-a L5\n"
	"allow group:door read,drive gpio fuzz-b B1\n"
	"allow gid:2003 configure gpio fuzz-b *\n"
	"allow uid:0 all gpio fuzz-c *\n"
	"allow user:alice open uio fuzz-uio\n"
	"allow group:lab open vfio 0000:00:04.0\n"
	"restore gpio fuzz-a 7\n"
	"restore gpio fuzz-c *\n";

/* The callers: a uid and its groups (the primary first), or one the bus
 * does not know (a connection that has left: its credentials are an error). */
struct caller {
	uid_t uid;
	gid_t groups[3];
	size_t ngroups;
	bool unknown;
};

static const struct caller CALLERS[NCALLERS] = {
	{ 0, { 0 }, 1, false },			/* root */
	{ 1000, { 1000, 2001 }, 2, false },	/* alice, in gpio */
	{ 1001, { 1001 }, 1, false },		/* bob */
	{ 1002, { 2002, 2003 }, 2, false },	/* carol: door, lab */
	{ 65534, { 65534 }, 1, false },		/* nobody */
	{ 0, { 0 }, 0, true },			/* gone */
	{ 1000, { 1000, 2001 }, 2, false },	/* alice again, another connection */
	{ 1001, { 1001, 2002 }, 2, false },	/* bob, in door since */
};

static const struct {
	const char *name;
	unsigned int id;
	bool group;
} NAMES[] = {
	{ "root", 0, false }, { "alice", 1000, false }, { "bob", 1001, false },
	{ "carol", 1002, false }, { "nobody", 65534, false }, { "root", 0, true },
	{ "gpio", 2001, true }, { "door", 2002, true }, { "lab", 2003, true },
};

static int name_id(const char *name, bool group, unsigned int *id)
{
	for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
		if (NAMES[i].group == group && !strcmp(NAMES[i].name, name)) {
			*id = NAMES[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

static int user_id(const char *name, uid_t *uid)
{
	unsigned int id;
	int r = name_id(name, false, &id);

	*uid = id;
	return r;
}

static int group_id(const char *name, gid_t *gid)
{
	unsigned int id;
	int r = name_id(name, true, &id);

	*gid = id;
	return r;
}

static const struct udrvd_names names = { user_id, group_id };

struct chip {
	const char *label;
	unsigned int nlines;
	const char *const *lines;	/* NULL: all unnamed */
};

static const char *const LINES_A[] = { "L0", "L1", "L2", "L3", "L4", "L5", "", "L7" };
static const char *const LINES_B[] = { "B0", "B1", "B2", "B3" };
static const struct chip CHIPS[] = {
	{ "fuzz-a", 8, LINES_A },
	{ "fuzz-b", 4, LINES_B },
	{ "fuzz-c", 10, NULL },
};
#define NCHIPS	(sizeof(CHIPS) / sizeof(CHIPS[0]))

/* The bus end: what the harness knows of this input's run. */
struct bus {
	sd_bus *bus;
	struct udrvd d;
	pthread_t thread;
	bool groups;			/* UnixGroupIDs reported */
	bool named;			/* udrvd asked for its name */
	char names[NCALLERS][32];	/* each caller's connection now */
	struct {
		char path[UDRVD_PATH_LEN];
		uid_t owner;
	} reqs[MAX_REQS];
	size_t nreqs;
};

/* A connection's unique name, never given twice in the process (as a bus
 * never gives one twice: caller.c keeps credentials by name). */
static void new_name(struct bus *b, size_t caller)
{
	static unsigned long next = 2;

	snprintf(b->names[caller], sizeof(b->names[caller]), ":1.%lu", next++);
}

/* udrvd's own connection, as the bus reports it (root, as in the tests). */
static const struct caller UDRVD_ITSELF = { 0, { 0 }, 1, false };

static const struct caller *caller_of(const struct bus *b, const char *name)
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
	c = caller_of(b, *name);
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
	    strcmp(name, UDRVD_UNIQUE) && !caller_of(data, name))
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

/*
 * udrvd-edges: an EdgeEvent udrvd sends goes to one connection (a signal with
 * a destination, never to every client of the bus), and to a caller the
 * policy lets watch that line, as the bus reports the caller (where it
 * reports UnixGroupIDs).
 */
static int on_signal(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct bus *b = data;
	const char *dest = sd_bus_message_get_destination(m), *path = sd_bus_message_get_path(m);
	const struct caller *who;
	struct udrvd_caller c;
	struct udrvd_gpio_line id;
	unsigned int chip, offset;
	char name[16], msg[UDRVD_MSG_LEN];

	if (!sd_bus_message_is_signal(m, "io.gpiod1.Line", "EdgeEvent") || fuzz_skip("udrvd-edges"))
		return 0;
	if (getenv("UDRV_FUZZ_TRACE"))
		fprintf(stderr, "fuzz_udrvd: EdgeEvent on %s to %s\n", path ? path : "(none)",
			dest ? dest : "everyone");
	FUZZ_CHECK(dest && dest[0], "an EdgeEvent on %s to every client of the bus",
		   path ? path : "(no path)");
	who = caller_of(b, dest);
	if (!who || who == &UDRVD_ITSELF || !b->groups)
		return 0;	/* a connection gone since, or groups from elsewhere */
	FUZZ_CHECK(path && sscanf(path, UDRVD_CHIPS_PATH "/gpiochip%u/line%u", &chip, &offset) == 2 &&
		   chip < NCHIPS && offset < CHIPS[chip].nlines, "an EdgeEvent on %s",
		   path ? path : "(no path)");
	snprintf(name, sizeof(name), "gpiochip%u", chip);
	c = (struct udrvd_caller){
		.uid = who->uid, .gid = who->groups[0], .groups = who->groups,
		.ngroups = who->ngroups,
	};
	id = (struct udrvd_gpio_line){
		.chip = name, .label = CHIPS[chip].label, .offset = offset,
		.name = CHIPS[chip].lines ? CHIPS[chip].lines[offset] : "",
	};
	FUZZ_CHECK(!udrvd_policy_gpio(b->d.policy, &c, &id, UDRVD_WATCH, msg),
		   "an EdgeEvent on %s to %s (uid %u), whom the policy does not let watch it: %s",
		   path, dest, (unsigned int)who->uid, msg);
	return 0;
}

/* the tree, udrvd and the bus, for one input */

static void make_tree(const struct fuzz_parts *parts)
{
	char rel[64], text[1024];

	fuzz_reset();
	for (size_t c = 0; c < NCHIPS; c++) {
		int n = snprintf(text, sizeof(text), "%s\n%u\n", CHIPS[c].label, CHIPS[c].nlines);

		for (unsigned int i = 0; i < CHIPS[c].nlines; i++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%s\n",
				      CHIPS[c].lines ? CHIPS[c].lines[i] : "");
		/* the file in chips/, where the fake keeps its state files
		 * (gpiochipN.state), whose writes in dev/ would reach udrvd's
		 * hotplug watch at moments of the threads' timing */
		snprintf(rel, sizeof(rel), "chips/gpiochip%zu", c);
		fuzz_write_str(rel, text);
		snprintf(text, sizeof(text), "../chips/gpiochip%zu", c);
		snprintf(rel, sizeof(rel), "dev/gpiochip%zu", c);
		fuzz_symlink(text, rel);
	}
	fuzz_write_str("sys/class/uio/uio0/name", "fuzz-uio\n");
	fuzz_write_str("sys/class/uio/uio0/version", "1\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/name", "regs\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/addr", "0x40000000\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/size", "0x1000\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/offset", "0x0\n");
	fuzz_sparse("dev/uio0", 4096);
	/* what the kernel tells udrvd (on_kernel()) */
	for (size_t c = 0; c < NCHIPS; c++) {
		char path[PATH_MAX];

		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof(rel), "chips/gpiochip%zu.%s", c, k ? "info" : "events");
			fuzz_path(path, sizeof(path), rel);
			if (mkfifo(path, 0600) < 0)
				abort();
		}
	}
	if (fuzz_has(parts, 0) && parts->len[0])
		fuzz_write_part(parts, 0, "etc/udrv/udrvd.conf");
	else
		fuzz_write_str("etc/udrv/udrvd.conf", POLICY);
	fuzz_write_part(parts, 1, "var/lib/udrvd/state");
	fuzz_mkdir("var/lib/udrvd");
}

static void *serve(void *data)
{
	struct udrvd *d = data;
	intptr_t r = udrvd_serve(d);

	if (r >= 0)
		r = sd_event_loop(d->event);
	udrvd_teardown(d);
	return (void *)r;
}

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

/*
 * A chip going away or coming (hotplug.c's on_node() does the same for a
 * node removed from or made in /dev): in udrvd's thread, between two calls,
 * as a call of the harness's own object on udrvd's connection (Hotplug(y
 * chip, b came)). The chip's file stays: only udrvd's side changes.
 */
static int on_hotplug(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd *d = data;
	char name[16];
	uint8_t chip;
	int came;
	int r = sd_bus_message_read(m, "yb", &chip, &came);

	if (r < 0)
		return r;
	snprintf(name, sizeof(name), "gpiochip%u", chip % (unsigned int)(NCHIPS + 1));
	if (came)
		udrvd_chip_add(d, name);
	else
		udrvd_chip_remove(d, name);
	return sd_bus_reply_method_return(m, NULL);
}

static const sd_bus_vtable hotplug_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Hotplug", "yb", "", on_hotplug, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

/*
 * What the kernel tells udrvd between two calls: an edge on a line of a chip
 * (its requests with edge detection read it) or a change of a line's info
 * (the chip's watch reads it), written into the chip's FIFO that
 * tests/daemon/fake_cdev.c reads them from (Event(y chip, u offset, y what):
 * what % 4 is a rising edge, a falling edge, or a line requested, released
 * or reconfigured by someone else). Written only where udrvd reads that
 * FIFO; the answer comes from an idle source of udrvd's loop, after udrvd
 * has handled what it read (its sources come first), so the next call
 * finds the edge or the change handled, whatever the threads' timing.
 */
static int kernel_answer(sd_event_source *s, void *data)
{
	sd_bus_message *call = data;

	sd_bus_reply_method_return(call, NULL);
	sd_bus_message_unref(call);
	return 0;
}

static bool chip_reads_edges(struct udrvd *d, unsigned int chip)
{
	char name[16];

	snprintf(name, sizeof(name), "gpiochip%u", chip);
	for (struct udrvd_req *r = d->reqs; r; r = r->next)
		if (r->events && !strcmp(udrv_chip_name(r->chip->chip), name))
			return true;
	return false;
}

static bool chip_reads_changes(struct udrvd *d, unsigned int chip)
{
	char name[16];

	snprintf(name, sizeof(name), "gpiochip%u", chip);
	for (size_t i = 0; i < d->nchips; i++)
		if (d->chips[i]->info && !strcmp(udrv_chip_name(d->chips[i]->chip), name))
			return true;
	return false;
}

static void fifo_write(unsigned int chip, const char *what, const void *rec, size_t len)
{
	char rel[64], path[PATH_MAX];
	int fd;

	snprintf(rel, sizeof(rel), "chips/gpiochip%u.%s", chip, what);
	fuzz_path(path, sizeof(path), rel);
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || write(fd, rec, len) != (ssize_t)len)
		abort();
	close(fd);
}

static int on_kernel(sd_bus_message *m, void *data, sd_bus_error *error)
{
	static uint32_t seqno;
	struct udrvd *d = data;
	sd_event_source *answer;
	unsigned int chip;
	uint32_t offset;
	uint8_t c, what;
	int r = sd_bus_message_read(m, "yuy", &c, &offset, &what);

	if (r < 0)
		return r;
	chip = c % (unsigned int)NCHIPS;
	seqno++;
	if (what % 4 < 2 && chip_reads_edges(d, chip)) {
		struct gpio_v2_line_event ev = {
			.timestamp_ns = 1000000ULL * seqno, .offset = offset, .seqno = seqno,
			.line_seqno = seqno,
			.id = what % 4 ? GPIO_V2_LINE_EVENT_FALLING_EDGE : GPIO_V2_LINE_EVENT_RISING_EDGE,
		};

		fifo_write(chip, "events", &ev, sizeof(ev));
	} else if (what % 4 >= 2 && chip_reads_changes(d, chip)) {
		struct gpio_v2_line_info_changed ch = {
			.info = { .offset = offset, .flags = GPIO_V2_LINE_FLAG_USED },
			.event_type = what % 4 == 2 ? GPIO_V2_LINE_CHANGED_REQUESTED :
				      GPIO_V2_LINE_CHANGED_RELEASED,
		};

		fifo_write(chip, "info", &ch, sizeof(ch));
	}
	r = sd_event_add_defer(d->event, &answer, kernel_answer, sd_bus_message_ref(m));
	if (r < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	if (sd_event_source_set_priority(answer, SD_EVENT_PRIORITY_IDLE) < 0 ||
	    sd_event_source_set_floating(answer, 1) < 0)
		abort();
	sd_event_source_unref(answer);
	return 1;
}

static const sd_bus_vtable kernel_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Event", "yuy", "", on_kernel, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

static char path_buf[PATH_MAX];

static int bus_start(struct bus *b, const struct udrvd_policy *policy)
{
	sd_id128_t id;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
		abort();
	if (sd_id128_randomize(&id) < 0 || sd_bus_new(&b->bus) < 0 ||
	    sd_bus_set_fd(b->bus, sv[1], sv[1]) < 0 || sd_bus_set_server(b->bus, 1, id) < 0 ||
	    sd_bus_negotiate_fds(b->bus, 1) < 0 ||
	    sd_bus_add_object_vtable(b->bus, NULL, DBUS_PATH, DBUS_NAME, bus_vtable, b) < 0 ||
	    sd_bus_add_filter(b->bus, NULL, on_signal, b) < 0 ||
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
	b->d.policy = (struct udrvd_policy *)policy;
	b->d.policy_path = "udrvd.conf";
	fuzz_path(path_buf, sizeof(path_buf), "var/lib/udrvd/state");
	b->d.state_path = path_buf;
	if (pthread_create(&b->thread, NULL, serve, &b->d))
		abort();
	return 0;
}

static sd_bus_message *call(struct bus *b, sd_bus_message *m, const char *what);

/* udrvd serves: it took its name, and answers a Ping (from a connection of
 * no caller's). Nothing is sent to udrvd before: a bus sends a client
 * nothing before its Hello's answer. */
static void wait_serving(struct bus *b)
{
	sd_bus_message *m = NULL, *reply;

	if (!pump(b, &b->named, "udrvd's RequestName"))
		FUZZ_CHECK(fuzz_skip("udrvd-serves"), "udrvd's connection ended before it took "
			   "its name");

	if (sd_bus_message_new_method_call(b->bus, &m, UDRVD_BUS_NAME, "/",
					   "org.freedesktop.DBus.Peer", "Ping") < 0 ||
	    sd_bus_message_set_sender(m, ":1.0") < 0)
		abort();
	reply = call(b, m, "the first call (Ping)");
	sd_bus_message_unref(reply);
	sd_bus_message_unref(m);
}

/* a call and its answer */

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

/* Send @m from caller @who and wait for udrvd's answer (NULL: none, udrvd
 * ended). */
static sd_bus_message *call(struct bus *b, sd_bus_message *m, const char *what)
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
	if (a.reply && sd_bus_message_is_method_error(a.reply, NULL) &&
	    !fuzz_skip("udrvd-error")) {
		const sd_bus_error *e = sd_bus_message_get_error(a.reply);

		FUZZ_CHECK(e && e->name && e->name[0] && e->message && e->message[0],
			   "%s: an error without a name or message (%s)", what,
			   e && e->name ? e->name : "no name");
	}
	return a.reply;
}

/* the steps */

enum step {
	REQUEST_LINES, RELEASE, RECONFIGURE, GET_VALUES, SET_VALUES, GET_FD, OPEN_UIO,
	OPEN_VFIO, PROP_GET, PROP_GET_ALL, PROP_SET, MANAGED_OBJECTS, INTROSPECT, PING, ANY,
	LEAVE, HOTPLUG, KERNEL, NSTEPS
};

static const struct {
	const char *iface, *member, *sig;
} STEPS[NSTEPS] = {
	[REQUEST_LINES] = { "io.gpiod1.Chip", "RequestLines", "(a(aua{sv})ai)a{sv}" },
	[RELEASE] = { "io.gpiod1.Request", "Release", "" },
	[RECONFIGURE] = { "io.gpiod1.Request", "ReconfigureLines", "(a(aua{sv})ai)" },
	[GET_VALUES] = { "io.gpiod1.Request", "GetValues", "au" },
	[SET_VALUES] = { "io.gpiod1.Request", "SetValues", "a{ui}" },
	[GET_FD] = { "io.udrv1.Request", "GetFd", "" },
	[OPEN_UIO] = { "io.udrv1.Devices", "OpenUio", "s" },
	[OPEN_VFIO] = { "io.udrv1.Devices", "OpenVfio", "s" },
	[PROP_GET] = { PROPS, "Get", NULL },
	[PROP_GET_ALL] = { PROPS, "GetAll", NULL },
	[PROP_SET] = { PROPS, "Set", NULL },
	[MANAGED_OBJECTS] = { "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", "" },
	[INTROSPECT] = { "org.freedesktop.DBus.Introspectable", "Introspect", "" },
	[PING] = { "org.freedesktop.DBus.Peer", "Ping", "" },
	[ANY] = { NULL, NULL, NULL },
	[LEAVE] = { NULL, NULL, NULL },
	[HOTPLUG] = { HOTPLUG_IFACE, "Hotplug", "yb" },
	[KERNEL] = { KERNEL_IFACE, "Event", "yuy" },
};

static const char *const IFACES[] = {
	"io.gpiod1.Chip", "io.gpiod1.Line", "io.gpiod1.Request", "io.udrv1.Request",
	"io.udrv1.Devices", PROPS, "org.freedesktop.DBus.ObjectManager", "",
};

static const char *const PROPERTIES[] = {
	"Name", "Label", "NumLines", "Path", "Offset", "Used", "Consumer", "Direction",
	"EdgeDetection", "Bias", "Drive", "ActiveLow", "Debounced", "DebouncePeriodUs",
	"EventClock", "Managed", "RequestPath", "ChipPath", "LinePaths", "Owner",
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* A string from @s (a length byte, that many bytes) into @buf; "" when the
 * stream ends. */
static const char *take_str(struct fuzz_stream *s, char *buf, size_t len)
{
	size_t n = (size_t)fuzz_take(s, 1);

	n = n < s->left ? n : s->left;
	n = n < len - 1 ? n : len - 1;
	memcpy(buf, s->p, n);
	buf[n] = '\0';
	s->p += n;
	s->left -= n;
	return buf;
}

/* A name from @table by a byte of @s; its last choice a string of @s. */
static const char *take_name(struct fuzz_stream *s, const char *const *table, size_t n,
			     char *buf, size_t len)
{
	size_t i = (size_t)fuzz_take(s, 1) % (n + 1);

	return i < n ? table[i] : take_str(s, buf, len);
}

/* The object a call goes to, from @s. */
static void target(struct fuzz_stream *s, char *path, size_t len)
{
	unsigned int kind = (unsigned int)fuzz_take(s, 1) % 8;
	unsigned int arg = kind < 6 ? (unsigned int)fuzz_take(s, 1) : 0;
	char buf[128];

	switch (kind) {
	case 0:
		snprintf(path, len, UDRVD_CHIPS_PATH "/gpiochip%u", arg % (unsigned int)(NCHIPS + 1));
		break;
	case 1:
		snprintf(path, len, UDRVD_CHIPS_PATH "/gpiochip%u/line%u",
			 arg % (unsigned int)NCHIPS, (unsigned int)fuzz_take(s, 1) % 70);
		break;
	case 2:
		snprintf(path, len, UDRVD_REQUESTS_PATH "/request%u", arg % 16);
		break;
	case 3:
		snprintf(path, len, "%s", UDRVD_DEVICES_PATH);
		break;
	case 4:
		snprintf(path, len, "%s", arg & 1 ? UDRVD_REQUESTS_PATH : UDRVD_CHIPS_PATH);
		break;
	case 5:
		snprintf(path, len, "%s", arg & 1 ? "/" : "/io/gpiod1");
		break;
	default:
		take_str(s, buf, sizeof(buf));
		snprintf(path, len, "%s", sd_bus_object_path_is_valid(buf) ? buf : "/io");
		break;
	}
}

/* The body of a Properties call from @s into @m. */
static int props_body(sd_bus_message *m, enum step step, struct fuzz_stream *s)
{
	char ibuf[64], pbuf[64];
	const char *iface = take_name(s, IFACES, N(IFACES), ibuf, sizeof(ibuf));
	int r;

	if (step == PROP_GET_ALL)
		return sd_bus_message_append(m, "s", iface);
	r = sd_bus_message_append(m, "ss", iface,
				  take_name(s, PROPERTIES, N(PROPERTIES), pbuf, sizeof(pbuf)));
	if (r >= 0 && step == PROP_SET)
		r = fuzz_append(m, "v", s);
	return r;
}

static uid_t owner_of(const struct bus *b, const char *path, bool *known)
{
	for (size_t i = 0; i < b->nreqs; i++) {
		if (!strcmp(b->reqs[i].path, path)) {
			*known = true;
			return b->reqs[i].owner;
		}
	}
	*known = false;
	return 0;
}

/* udrvd-policy: the request @m asked for is one the policy grants @who. */
static void check_granted(const struct udrvd_policy *policy, const char *path,
			  sd_bus_message *m, const struct caller *who)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct udrvd_caller c = {
		.uid = who->uid, .gid = who->groups[0], .groups = who->groups,
		.ngroups = who->ngroups,
	};
	struct udrvd_linecfg cfg;
	unsigned int num;
	char msg[UDRVD_MSG_LEN], chip[16];

	if (sscanf(path, UDRVD_CHIPS_PATH "/gpiochip%u", &num) != 1 || num >= NCHIPS ||
	    sd_bus_message_rewind(m, 1) < 0 || udrvd_linecfg_read(m, &cfg, &error) < 0) {
		FUZZ_CHECK(0, "RequestLines on %s granted, but it names no chip or no lines (%s)",
			   path, error.message ? error.message : "");
	}
	snprintf(chip, sizeof(chip), "gpiochip%u", num);
	for (size_t i = 0; i < cfg.n; i++) {
		struct udrvd_gpio_line id = {
			.chip = chip, .label = CHIPS[num].label, .offset = cfg.offsets[i],
			.name = cfg.offsets[i] < CHIPS[num].nlines && CHIPS[num].lines ?
				CHIPS[num].lines[cfg.offsets[i]] : "",
		};

		FUZZ_CHECK(cfg.offsets[i] < CHIPS[num].nlines &&
			   !udrvd_policy_gpio(policy, &c, &id, cfg.perms[i], msg),
			   "uid %u was granted line %u of %s, which the policy does not grant it "
			   "(as the bus reported it): %s", (unsigned int)who->uid, cfg.offsets[i],
			   chip, msg);
	}
	sd_bus_error_free(&error);
}

/* What a call's answer says, checked. */
static void answered(struct bus *b, enum step step, const char *path, sd_bus_message *m,
		     sd_bus_message *reply, const struct caller *who)
{
	const char *req;
	uid_t owner;
	bool known;

	if (!reply || sd_bus_message_is_method_error(reply, NULL))
		return;
	if (step == REQUEST_LINES && who && sd_bus_message_read(reply, "o", &req) > 0) {
		/* without UnixGroupIDs udrvd has the groups from elsewhere (the
		 * user's, from NSS): not the harness's to know */
		if (b->groups && !fuzz_skip("udrvd-policy"))
			check_granted(b->d.policy, path, m, who);
		if (b->nreqs < MAX_REQS) {
			snprintf(b->reqs[b->nreqs].path, sizeof(b->reqs[0].path), "%s", req);
			b->reqs[b->nreqs++].owner = who->uid;
		}
	}
	if (step != GET_FD && step != SET_VALUES && step != RECONFIGURE)
		return;
	owner = owner_of(b, path, &known);
	if (known && !fuzz_skip("udrvd-owner"))
		FUZZ_CHECK(who && who->uid == owner, "%s.%s of %s (uid %u's) granted to %s%u",
			   STEPS[step].iface, STEPS[step].member, path, (unsigned int)owner,
			   who ? "uid " : "a caller the bus does not know, ",
			   who ? (unsigned int)who->uid : 0);
}

/* The caller leaves: NameOwnerChanged from the bus; its next call comes
 * from a new connection. */
static void leave(struct bus *b, size_t who)
{
	sd_bus_message *s = NULL;

	if (sd_bus_message_new_signal(b->bus, &s, DBUS_PATH, DBUS_NAME, "NameOwnerChanged") < 0 ||
	    sd_bus_message_set_sender(s, DBUS_NAME) < 0 ||
	    sd_bus_message_set_destination(s, UDRVD_UNIQUE) < 0 ||
	    sd_bus_message_append(s, "sss", b->names[who], b->names[who], "") < 0 ||
	    sd_bus_send(b->bus, s, NULL) < 0)
		abort();
	sd_bus_message_unref(s);
	new_name(b, who);
}

/* One step of the script; false at its end. */
static bool step(struct bus *b, struct fuzz_stream *s)
{
	size_t who;
	enum step st;
	sd_bus_message *m = NULL, *reply;
	char path[UDRVD_PATH_LEN * 2], ibuf[64], mbuf[64], sbuf[64], what[256];
	const char *iface, *member, *sig;
	int r;

	if (!s->left)
		return false;
	who = (size_t)fuzz_take(s, 1) % NCALLERS;
	st = (enum step)(fuzz_take(s, 1) % NSTEPS);
	if (st == LEAVE) {
		leave(b, who);
		return true;
	}
	if (st == HOTPLUG || st == KERNEL)
		snprintf(path, sizeof(path), "%s", st == HOTPLUG ? HOTPLUG_PATH : KERNEL_PATH);
	else
		target(s, path, sizeof(path));
	iface = STEPS[st].iface;
	member = STEPS[st].member;
	sig = STEPS[st].sig;
	if (st == ANY) {
		iface = take_name(s, IFACES, N(IFACES), ibuf, sizeof(ibuf));
		member = take_str(s, mbuf, sizeof(mbuf));
		sig = take_str(s, sbuf, sizeof(sbuf));
		if (!sd_bus_interface_name_is_valid(iface))
			iface = NULL;
		if (!sd_bus_member_name_is_valid(member))
			return true;
	}
	if (sd_bus_message_new_method_call(b->bus, &m, UDRVD_BUS_NAME, path, iface, member) < 0)
		abort();
	r = sd_bus_message_set_sender(m, b->names[who]);
	if (r >= 0)
		r = sig ? fuzz_append(m, sig, s) : props_body(m, st, s);
	if (r < 0) {		/* values that make no message: no call */
		sd_bus_message_unref(m);
		return true;
	}
	snprintf(what, sizeof(what), "%s.%s on %s from %s", iface ? iface : "(none)", member,
		 path, b->names[who]);
	reply = call(b, m, what);
	if (getenv("UDRV_FUZZ_TRACE")) {	/* what each call got, for writing seeds */
		const sd_bus_error *e = reply ? sd_bus_message_get_error(reply) : NULL;

		fprintf(stderr, "fuzz_udrvd: %s (%s): %s%s%s\n", what, sig ? sig : "props",
			e ? e->name : "ok", e ? ": " : "", e && e->message ? e->message : "");
	}
	answered(b, st, path, m, reply, CALLERS[who].unknown ? NULL : &CALLERS[who]);
	sd_bus_message_unref(reply);
	sd_bus_message_unref(m);
	return true;
}

static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	if (!d)
		abort();
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrvd_policy *policy = NULL;
	struct fuzz_parts parts;
	struct bus b = { 0 };
	struct fuzz_stream s = { 0 };
	char conf[PATH_MAX], msg[UDRVD_MSG_LEN];
	size_t fds = open_fds();
	void *ret;

	fuzz_split(data, size, &parts);
	make_tree(&parts);
	fuzz_path(conf, sizeof(conf), "etc/udrv/udrvd.conf");
	if (udrvd_policy_load(conf, &names, &policy, msg) < 0)
		return 0;
	if (parts.n > 2) {
		s.p = parts.p[2];
		s.left = (size_t)(data + size - parts.p[2]);
	}
	b.groups = !(s.left && (s.p[0] & 0x08));
	for (size_t i = 0; i < NCALLERS; i++)
		new_name(&b, i);
	bus_start(&b, policy);
	wait_serving(&b);
	while (step(&b, &s))
		;
	/* udrvd ends when its connection does */
	sd_bus_flush_close_unref(b.bus);
	if (pthread_join(b.thread, &ret))
		abort();
	FUZZ_CHECK(fuzz_skip("udrvd-serves") || (intptr_t)ret >= 0,
		   "udrvd did not serve: %s", strerror(-(int)(intptr_t)ret));
	FUZZ_CHECK(fuzz_skip("udrvd-fds") || open_fds() == fds,
		   "%zu file descriptors open after udrvd stopped, %zu before", open_fds(), fds);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_root();
	return 0;
}
