// SPDX-License-Identifier: GPL-2.0-only
/*
 * A caller's groups from /proc/PID/status (groups.h). The lines read:
 *
 *	Gid:	1000	1000	1000	1000	(real, effective, saved, fs)
 *	Groups:	4 24 27 1000 		(each followed by a space; may be none)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "groups.h"

#define GID_MAX_VALID	4294967294u	/* (gid_t)-1 is no group */

/* The next number of @s..@end, separated by blanks: *@v; NULL when none. */
static const char *number(const char *s, const char *end, gid_t *v, int *err)
{
	char buf[16];
	uint64_t u;
	size_t k = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end)
		return NULL;
	while (s < end && *s >= '0' && *s <= '9' && k < sizeof(buf) - 1)
		buf[k++] = *s++;
	buf[k] = '\0';
	/* decimal digits only, as the kernel writes them */
	if ((s < end && *s != ' ' && *s != '\t') || udrv_parse_u64(buf, GID_MAX_VALID, &u)) {
		*err = -EINVAL;
		return NULL;
	}
	*v = (gid_t)u;
	return s;
}

/* The line of @text starting with @key ("Gid:"): its rest in *@rest..*@end. */
static int line_of(const char *text, size_t len, const char *key, const char **rest,
		   const char **end)
{
	const char *p = text, *stop = text + len, *nl;
	size_t klen = strlen(key);
	bool found = false;

	for (; p < stop; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(stop - p));
		if (!nl)
			nl = stop;
		if ((size_t)(nl - p) >= klen && !memcmp(p, key, klen)) {
			if (found)
				return -EINVAL;
			found = true;
			*rest = p + klen;
			*end = nl;
		}
		if (nl == stop)
			break;
	}
	return found ? 0 : -EINVAL;
}

int udrvd_groups_parse(const char *text, size_t len, gid_t *egid, gid_t *groups,
		       size_t max, size_t *n)
{
	const char *s, *end;
	gid_t ids[4], g;
	int err = line_of(text, len, "Gid:", &s, &end);

	for (int i = 0; !err && i < 4; i++) {
		s = number(s, end, &ids[i], &err);
		if (!s && !err)
			err = -EINVAL;
	}
	if (!err && number(s, end, &g, &err))
		err = -EINVAL;	/* a fifth number */
	if (!err)
		err = line_of(text, len, "Groups:", &s, &end);
	if (err)
		return err;
	*n = 0;
	while ((s = number(s, end, &g, &err))) {
		if (*n == max)
			return -E2BIG;
		groups[(*n)++] = g;
	}
	if (err)
		return err;
	*egid = ids[1];
	return 0;
}

int udrvd_groups_read(pid_t pid, gid_t *egid, gid_t *groups, size_t max, size_t *n)
{
	static char buf[UDRVD_STATUS_MAX];
	char path[32];
	ssize_t got;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf));
	err = got < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	if ((size_t)got == sizeof(buf))
		return -E2BIG;
	return udrvd_groups_parse(buf, (size_t)got, egid, groups, max, n);
}
