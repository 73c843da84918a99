// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's reader of the bus's GetConnectionCredentials reply
 * (daemon/bus/creds.c): who a caller is. The bus is trusted, but the reader
 * must take any body without harm and grant nothing from a malformed one.
 *
 * The input is a message body (fuzz_sdbus.h: part 0 its signature, part 1
 * its values), read as the reply's a{sv}.
 *
 * Properties:
 *  - creds-result: 0, -EBADMSG, -ENODATA (no UnixUserID), or without
 *    UnixGroupIDs the user database's answer (0, -ENOENT for a uid it does
 *    not know); the same twice;
 *  - creds-valid: what is accepted has no group 4294967295; the bus's
 *    groups are the UnixGroupIDs given, in order; without them, the
 *    groups are the user database's for the uid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "creds.h"
#include "fuzz.h"
#include "fuzz_sdbus.h"

/* The UnixGroupIDs of @m's a{sv}, if any, as sd-bus reads them: 1 and
 * *@v, *@n; 0 when there is no such key of type au. */
static int given_groups(sd_bus_message *m, const uint32_t **v, size_t *n)
{
	const char *key;
	size_t size;
	int found = 0;

	if (sd_bus_message_rewind(m, 1) < 0 || sd_bus_message_enter_container(m, 'a', "{sv}") <= 0)
		return 0;
	while (!found && sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		if (sd_bus_message_read(m, "s", &key) < 0)
			return 0;
		if (!strcmp(key, "UnixGroupIDs") &&
		    sd_bus_message_enter_container(m, 'v', "au") > 0 &&
		    sd_bus_message_read_array(m, 'u', (const void **)v, &size) >= 0) {
			*n = size / sizeof(**v);
			found = 1;
		}
		if (!found && (sd_bus_message_skip(m, "v") < 0 ||
			       sd_bus_message_exit_container(m) < 0))
			return 0;
	}
	return found;
}

static void check_valid(sd_bus_message *m, const struct udrvd_ids *ids)
{
	const uint32_t *v = NULL;
	gid_t *db = NULL;
	size_t n = 0;

	for (size_t i = 0; i < ids->ngroups; i++)
		FUZZ_CHECK(ids->groups[i] != (gid_t)-1, "group %zu is 4294967295", i);
	if (ids->bus_groups) {
		FUZZ_CHECK(given_groups(m, &v, &n), "the bus's groups without UnixGroupIDs");
		FUZZ_CHECK(n == ids->ngroups && (!n || !memcmp(v, ids->groups, n * sizeof(*v))),
			   "%zu groups read of %zu given", ids->ngroups, n);
		return;
	}
	FUZZ_CHECK(!udrvd_user_groups(ids->uid, &db, &n), "uid %u: no user database answer",
		   (unsigned int)ids->uid);
	FUZZ_CHECK(n == ids->ngroups && !memcmp(db, ids->groups, n * sizeof(*db)),
		   "uid %u: %zu groups, the user database %zu", (unsigned int)ids->uid,
		   ids->ngroups, n);
	free(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrvd_ids ids, again;
	struct fuzz_parts parts;
	sd_bus_message *m;
	int r, r2;

	fuzz_split(data, size, &parts);
	m = fuzz_msg(&parts, "/org/freedesktop/DBus", "org.freedesktop.DBus",
		     "GetConnectionCredentials");
	if (!m)
		return 0;
	r = udrvd_ids_read(m, &ids);
	FUZZ_CHECK(sd_bus_message_rewind(m, 1) >= 0, "rewind");
	r2 = udrvd_ids_read(m, &again);
	if (!fuzz_skip("creds-result")) {
		FUZZ_CHECK(!r || r == -EBADMSG || r == -ENODATA || r == -ENOENT, "result %d", r);
		FUZZ_CHECK(r == r2, "%d, then %d", r, r2);
	}
	if (!r && !fuzz_skip("creds-valid"))
		check_valid(m, &ids);
	if (!r)
		udrvd_ids_free(&ids);
	if (!r2)
		udrvd_ids_free(&again);
	sd_bus_message_unref(m);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_bus();
	return 0;
}
