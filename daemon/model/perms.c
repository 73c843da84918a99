// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the policy must grant for a line's settings (udrvd.conf(5)): read or
 * drive by direction, watch with an edge, configure with bias, drive other
 * than push-pull, active-low or debounce; and on a line as the kernel
 * reports it now.
 */
#include "perms.h"
#include "policy.h"

unsigned int udrvd_settings_perms(const struct udrv_line_settings *s)
{
	unsigned int p = s->direction == UDRV_DIR_OUTPUT ? UDRVD_DRIVE : UDRVD_READ;

	if (s->edge != UDRV_EDGE_NONE)
		p |= UDRVD_WATCH;
	if (s->bias != UDRV_BIAS_AS_IS || s->drive != UDRV_DRIVE_PUSH_PULL ||
	    s->active_low || s->debounce_us)
		p |= UDRVD_CONFIGURE;
	return p;
}

/*
 * An input request of a line that is an output now turns it into an input:
 * whoever drove it stops driving it, and the line floats or follows its
 * bias. That is the driver's to decide: it needs drive, not read alone.
 * Bias "as-is" and no debounce leave the rest of the line as it is.
 */
unsigned int udrvd_settings_perms_on(const struct udrv_line_settings *s,
				     const struct udrv_line_info *now)
{
	unsigned int p = udrvd_settings_perms(s);

	if (s->direction != UDRV_DIR_OUTPUT && (!now || now->direction != UDRV_DIR_INPUT))
		p |= UDRVD_DRIVE;
	return p;
}
