/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1's line_config and request_config arguments (linecfg.c), as
 * RequestLines and ReconfigureLines take them, into model/line_config.h's
 * struct; what each line's settings need of the policy is model/perms.h's.
 */
#ifndef UDRVD_LINECFG_H
#define UDRVD_LINECFG_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <udrv/line.h>

#include "line_config.h"

int udrvd_linecfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);
int udrvd_reqcfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);

#endif /* UDRVD_LINECFG_H */
