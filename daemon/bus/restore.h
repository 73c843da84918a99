/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The held requests and the state file (restore.c; the file's format is
 * model/state.h's). The state file keeps the held lines the policy's
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
#include <stdint.h>

#include "daemon.h"

#define UDRVD_STATE_DELAY_US		100000
#define UDRVD_STATE_INTERVAL_US		1000000
void udrvd_state_sync(struct udrvd *d, bool refresh);
void udrvd_state_dirty(struct udrvd *d, uint64_t delay_us);
/* Request again what the state file and the restore rules say, for owners
 * the policy still grants it. */
int udrvd_state_restore(struct udrvd *d);

#endif /* UDRVD_RESTORE_H */
