/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the policy must grant for line settings (perms.c), plain C: the
 * checks of RequestLines, ReconfigureLines, a revocation and a restore.
 */
#ifndef UDRVD_PERMS_H
#define UDRVD_PERMS_H

#include <udrv/line.h>

/* What the policy must grant for settings @s (udrvd.conf(5)): read or
 * drive by direction, watch with an edge, configure with bias, drive other
 * than push-pull, active-low or debounce (enum udrvd_perm). */
unsigned int udrvd_settings_perms(const struct udrv_line_settings *s);
/* ... on a line the kernel reports as @now: an input or as-is request of a
 * line that is an output (or whose state cannot be read) needs drive too. */
unsigned int udrvd_settings_perms_on(const struct udrv_line_settings *s,
				     const struct udrv_line_info *now);

#endif /* UDRVD_PERMS_H */
