/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd's state file: the requests it holds, so that they can come back
 * when it starts again (where the policy's restore rules say so). Written
 * whole, atomically (a temporary file, fsync, rename, fsync of the folder):
 * a udrvd killed at any point leaves the old file or the new one, never a
 * mix. The file is 0600 (only udrvd reads it; it names the owners of the
 * requests that come back); the temporary file is made anew (a file or a
 * link planted in its place is removed, never followed); the folder and the
 * file must be udrvd's or root's and writable by their owner alone
 * (StateDirectory=), else neither is read nor written: the file decides
 * whose requests come back, so nobody else may plant it.
 * When it is written is restore.c's business. Text, one request a block:
 *
 *	udrvd-state 1
 *	request OWNER_UID CHIP_NAME CHIP_LABEL CONSUMER
 *	line OFFSET DIRECTION VALUE ACTIVE_LOW BIAS DRIVE EDGE DEBOUNCE_US CLOCK
 *	...
 *	end
 *
 * with libudrv's words for the settings ("output", "pull-up"...) and names
 * written with %XX for every byte that is not printable ASCII, a space or
 * '%'. Read strictly: anything else is an error naming the line.
 */
#ifndef UDRVD_STATE_H
#define UDRVD_STATE_H

#include <stddef.h>
#include <sys/types.h>
#include <udrv/line.h>

#define UDRVD_STATE_MAX_REQS	1024
#define UDRVD_STATE_MSG_LEN	512

struct udrvd_state_req {
	uid_t owner;
	char chip[32];		/* gpiochipN */
	char label[32];
	char consumer[32];
	size_t n;
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
};

struct udrvd_state {
	size_t n;
	struct udrvd_state_req *reqs;	/* malloc'd, n of them */
};

/* Parse @len bytes; 0, or -EINVAL (-ENOMEM) and "PATH:LINE: what" in @msg. */
int udrvd_state_parse(const char *text, size_t len, const char *path,
		      struct udrvd_state *st, char msg[UDRVD_STATE_MSG_LEN]);
/* Read @path; a file that is not there is an empty state. */
int udrvd_state_load(const char *path, struct udrvd_state *st,
		     char msg[UDRVD_STATE_MSG_LEN]);
/* The text of @st (malloc'd, *@len bytes); 0 or -ENOMEM. */
int udrvd_state_format(const struct udrvd_state *st, char **text, size_t *len);
/* Write @st to @path atomically; 0 or -errno and @msg. */
int udrvd_state_save(const char *path, const struct udrvd_state *st,
		     char msg[UDRVD_STATE_MSG_LEN]);
/* The same with @st's text already made (udrvd_state_format()). */
int udrvd_state_write(const char *path, const char *text, size_t len,
		      char msg[UDRVD_STATE_MSG_LEN]);
/* Room for one more request (n not changed); NULL when full or no memory. */
struct udrvd_state_req *udrvd_state_add(struct udrvd_state *st);
void udrvd_state_free(struct udrvd_state *st);

#endif /* UDRVD_STATE_H */
