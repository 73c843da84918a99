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
 * order. Here udrvd runs as it does on the system bus (daemon/bus/serve.c's
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
 *
 * The harness's pieces, file by file: fuzz_udrvd.h.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_udrvd.h"

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

const struct caller CALLERS[NCALLERS] = {
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

static const char *const LINES_A[] = { "L0", "L1", "L2", "L3", "L4", "L5", "", "L7" };
static const char *const LINES_B[] = { "B0", "B1", "B2", "B3" };
const struct chip CHIPS[NCHIPS] = {
	{ "fuzz-a", 8, LINES_A },
	{ "fuzz-b", 4, LINES_B },
	{ "fuzz-c", 10, NULL },
};

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
	make_tree(&parts, POLICY);
	fuzz_path(conf, sizeof(conf), "etc/udrv/udrvd.conf");
	if (udrvd_policy_load(conf, &names, &policy, msg) < 0)
		return 0;
	if (parts.n > 2) {
		s.p = parts.p[2];
		s.left = (size_t)(data + size - parts.p[2]);
	}
	b.groups = !(s.left && (s.p[0] & 0x08));
	for (size_t i = 0; i < NCALLERS; i++)
		bus_new_name(&b, i);
	bus_start(&b, policy);
	bus_wait_serving(&b);
	while (next_call(&b, &s))
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
