/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The held requests and the state file (restore.c, plain C; the file's
 * format is state.h's). The state file keeps the held lines the policy's
 * restore rules cover. udrvd_state_sync() writes it now (@refresh: the
 * outputs' values read from the kernel first), unless it holds that
 * already; udrvd_state_dirty() after a change: written @delay_us later (0:
 * a request made or released; UDRVD_STATE_DELAY_US: a value, one write for
 * a burst of them), and never sooner than UDRVD_STATE_INTERVAL_US after
 * the last write (each is an fsync: an SD card wears).
 */
#ifndef UDRVD_RESTORE_H
#define UDRVD_RESTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "held.h"

#define UDRVD_STATE_DELAY_US		100000
#define UDRVD_STATE_INTERVAL_US		1000000
void udrvd_state_sync(struct udrvd_held *h, bool refresh);
void udrvd_state_dirty(struct udrvd_held *h, uint64_t delay_us);
/* The groups of user @uid, its primary group first, malloc'd: 0 or a
 * negative errno (bus/creds.h's udrvd_user_groups(): the user database). */
typedef int udrvd_groups_fn(uid_t uid, gid_t **groups, size_t *n);
/* Request again what the state file and the restore rules say, for owners
 * the policy still grants it (their groups from @groups_of: the state file
 * keeps the uid alone). */
int udrvd_state_restore(struct udrvd_held *h, udrvd_groups_fn *groups_of);

#endif /* UDRVD_RESTORE_H */
