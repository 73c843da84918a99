/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A request's line settings, as RequestLines and ReconfigureLines give them
 * (bus/linecfg.c reads them from io.gpiod1's line_config and
 * request_config) and as a restore takes them from the state file; what
 * each line's settings need of the policy is perms.h's.
 */
#ifndef UDRVD_LINE_CONFIG_H
#define UDRVD_LINE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
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

#endif /* UDRVD_LINE_CONFIG_H */
