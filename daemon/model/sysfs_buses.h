/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SPI devices and I2C adapters as sysfs names the node udrvd opened
 * (sysfs_buses.c), for io.udrv1.Devices and io.udrv1.I2c: plain C.
 */
#ifndef UDRVD_SYSFS_BUSES_H
#define UDRVD_SYSFS_BUSES_H

#include <stddef.h>

#include "policy.h"

struct udrvd_bus_id {
	char node[32];		/* "spidev0.1", "i2c-1" */
	unsigned int bus, cs;
	char name[64];		/* SPI: its modalias's name; I2C: the adapter's */
	char device[64];	/* the controller's device, "" without one */
	unsigned int same_name;	/* devices (adapters) with that name now */
};

/* @id as the policy takes it (points into @id). */
struct udrvd_bus_dev udrvd_bus_dev_of(const struct udrvd_bus_id *id);

/*
 * Which spidev device (I2C adapter) the node open on @fd is: its dev_t in
 * /sys/dev/char, a node of class spidev (i2c-dev), the SPI device (adapter)
 * it belongs to, its name and its controller's device. 0, or -errno and
 * @why ("is not a character device...", to follow the node's path).
 */
int udrvd_spi_identify(int fd, struct udrvd_bus_id *id, char *why, size_t len);
int udrvd_i2c_identify(int fd, struct udrvd_bus_id *id, char *why, size_t len);

#endif /* UDRVD_SYSFS_BUSES_H */
