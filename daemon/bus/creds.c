// SPDX-License-Identifier: GPL-2.0-only
/*
 * A connection's uid and groups from the bus's GetConnectionCredentials
 * reply, or from the user database where the bus reports no groups
 * (creds.h).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "creds.h"

_Static_assert(sizeof(gid_t) == sizeof(uint32_t), "UnixGroupIDs is an array of uint32");

#define NO_GID		((gid_t)-1)
#define PW_BUF		16384		/* getpwuid_r's buffer at first */
#define PW_BUF_MAX	(1 << 20)

/* UnixGroupIDs' value (the variant entered): a copy into @ids. */
static int read_groups(sd_bus_message *reply, struct udrvd_ids *ids)
{
	const uint32_t *v;
	size_t size, n;
	int r = sd_bus_message_read_array(reply, 'u', (const void **)&v, &size);

	if (r < 0)
		return -EBADMSG;
	n = size / sizeof(*v);
	ids->groups = malloc((n ? n : 1) * sizeof(gid_t));
	if (!ids->groups)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == NO_GID)
			return -EBADMSG;
		ids->groups[i] = v[i];
	}
	ids->ngroups = n;
	ids->bus_groups = true;
	return 0;
}

/* One entry of the a{sv} (entered): UnixUserID and UnixGroupIDs read, the
 * rest skipped. */
static int read_entry(sd_bus_message *reply, struct udrvd_ids *ids, bool *has_uid)
{
	const char *key;
	uint32_t uid;
	int r = sd_bus_message_read(reply, "s", &key);

	if (r < 0)
		return -EBADMSG;
	if (!strcmp(key, "UnixUserID")) {
		if (*has_uid || sd_bus_message_read(reply, "v", "u", &uid) < 0)
			return -EBADMSG;
		*has_uid = true;
		ids->uid = uid;
		return 0;
	}
	if (strcmp(key, "UnixGroupIDs"))
		return sd_bus_message_skip(reply, "v") < 0 ? -EBADMSG : 0;
	if (ids->bus_groups || sd_bus_message_enter_container(reply, 'v', "au") <= 0)
		return -EBADMSG;
	r = read_groups(reply, ids);
	if (r >= 0 && sd_bus_message_exit_container(reply) < 0)
		r = -EBADMSG;
	return r;
}

int udrvd_ids_read(sd_bus_message *reply, struct udrvd_ids *ids)
{
	bool has_uid = false;
	int r;

	*ids = (struct udrvd_ids){ 0 };
	r = sd_bus_message_enter_container(reply, 'a', "{sv}");
	while (r > 0) {
		r = sd_bus_message_enter_container(reply, 'e', "sv");
		if (r <= 0)
			break;
		r = read_entry(reply, ids, &has_uid);
		if (r >= 0)
			r = sd_bus_message_exit_container(reply) < 0 ? -EBADMSG : 1;
	}
	if (!r)
		r = sd_bus_message_exit_container(reply) < 0 || !sd_bus_message_at_end(reply, 1) ?
		    -EBADMSG : 0;
	else if (r != -ENOMEM)
		r = -EBADMSG;
	if (!r && !has_uid)
		r = -ENODATA;
	if (!r && !ids->bus_groups)
		r = udrvd_user_groups(ids->uid, &ids->groups, &ids->ngroups);
	if (r < 0)
		udrvd_ids_free(ids);
	return r;
}

void udrvd_ids_free(struct udrvd_ids *ids)
{
	free(ids->groups);
	ids->groups = NULL;
	ids->ngroups = 0;
}

/* The passwd entry of @uid: its primary gid. */
static int primary_gid(uid_t uid, gid_t *gid, char **name)
{
	size_t len = PW_BUF;
	struct passwd pw, *found = NULL;
	char *buf = NULL;
	int r;

	do {
		char *more = realloc(buf, len);

		if (!more) {
			free(buf);
			return -ENOMEM;
		}
		buf = more;
		r = getpwuid_r(uid, &pw, buf, len, &found);
		len *= 2;
	} while (r == ERANGE && len <= PW_BUF_MAX);
	if (!r && !found)
		r = ENOENT;
	if (!r) {
		*gid = pw.pw_gid;
		*name = strdup(pw.pw_name);
		r = *name ? 0 : ENOMEM;
	}
	free(buf);
	return -r;
}

int udrvd_user_groups(uid_t uid, gid_t **groups, size_t *n)
{
	gid_t gid, *g = NULL;
	char *name = NULL;
	int count = 16, want, r = primary_gid(uid, &gid, &name);

	while (!r) {
		gid_t *more = realloc(g, (size_t)count * sizeof(gid_t));

		if (!more) {
			r = -ENOMEM;
			break;
		}
		g = more;
		want = count;
		if (getgrouplist(name, gid, g, &want) >= 0) {
			*groups = g;
			*n = (size_t)want;
			free(name);
			return 0;
		}
		/* too small: want says how many there are (glibc) */
		if (want <= count || want > 65536)
			r = -E2BIG;
		count = want;
	}
	free(g);
	free(name);
	return r;
}
