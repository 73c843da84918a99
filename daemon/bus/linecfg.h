/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1's line_config and request_config arguments (linecfg.c), as
 * RequestLines and ReconfigureLines take them; what each line's settings
 * need of the policy is model/perms.h's.
 */
#ifndef UDRVD_LINECFG_H
#define UDRVD_LINECFG_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <udrv/line.h>

struct udrvd_linecfg {
	size_t n;
	size_t nvalues;				/* output values given */
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
	unsigned int perms[UDRV_LINES_MAX];	/* what each line's settings need */
	char consumer[32];
	uint32_t event_buffer_size;
};
int udrvd_linecfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);
int udrvd_reqcfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);

#endif /* UDRVD_LINECFG_H */
