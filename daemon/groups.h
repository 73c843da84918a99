/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A caller's groups from its /proc/PID/status ("Gid:" and "Groups:"), read
 * with one read(2): what udrvd checks a connection's calls against
 * (caller.c). sd-bus's own reader of the file costs a TCGETS per line.
 */
#ifndef UDRVD_GROUPS_H
#define UDRVD_GROUPS_H

#include <stddef.h>
#include <sys/types.h>

#define UDRVD_GROUPS_MAX	256	/* more: the caller's groups are read by sd-bus */
#define UDRVD_STATUS_MAX	16384	/* bytes of status read; a longer file: -E2BIG */

/*
 * The effective gid (the second number of the "Gid:" line) and the
 * supplementary groups ("Groups:", at most @max) of status text @text
 * (@len bytes): 0; -EINVAL when a line is missing, repeated or not
 * numbers (each at most 4294967294, decimal); -E2BIG for more than @max
 * groups.
 */
int udrvd_groups_parse(const char *text, size_t len, gid_t *egid, gid_t *groups,
		       size_t max, size_t *n);
/* The same from /proc/@pid/status: 0 or a negative errno. */
int udrvd_groups_read(pid_t pid, gid_t *egid, gid_t *groups, size_t max, size_t *n);

#endif /* UDRVD_GROUPS_H */
