/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.udrv1.I2c (i2c.c): I2C transfers udrvd makes for clients, at the
 * addresses the policy grants them.
 */
#ifndef UDRVD_I2C_H
#define UDRVD_I2C_H

#include "daemon.h"
#include "i2c_serve.h"

int udrvd_i2c_export(struct udrvd *d);
/* Read a Transfer call's messages (a(qqqay)) from @m into @msgs (room for
 * @max; their data point into @m): the count, or a negative errno with
 * @error set (InvalidArgs: more than @max). */
int udrvd_i2c_read_msgs(sd_bus_message *m, struct udrvd_i2c_msg *msgs, size_t max,
			sd_bus_error *error);

#endif /* UDRVD_I2C_H */
