/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * UIO and VFIO devices as sysfs names them (sysfs_devices.c), checked
 * against the policy, for io.udrv1.Devices (bus/devices.c): plain C.
 */
#ifndef UDRVD_SYSFS_DEVICES_H
#define UDRVD_SYSFS_DEVICES_H

#include <stddef.h>

#include "error.h"
#include "policy.h"

/* A UIO device as the sysfs of its node's dev_t names it. */
struct udrvd_uio_id {
	unsigned int num;
	char node[16];			/* uioN */
	char name[64];			/* the driver's name for it */
	char device[64];		/* its parent device, "" without one */
	unsigned int same_name;		/* UIO devices with that name now */
};

/* The UIO devices whose name is @name now: their number; the first's
 * number into *@num, and "uio0 at 0000:00:04.0, ..." into @list. */
unsigned int udrvd_uio_named(const char *name, unsigned int *num, char *list, size_t len);
/* The number of the UIO device @spec asks for into *@num: 0; 1 when no
 * device has that name (udrv_uio_open() says what there is); -EINVAL and
 * @e for a number out of range or a name several devices have. */
int udrvd_uio_wanted(const char *spec, unsigned int *num, struct udrvd_err *e);
/* Which UIO device the node open on @fd is: 0, or -errno and @why. */
int udrvd_uio_identify(int fd, struct udrvd_uio_id *id, char *why, size_t len);
/* Does @policy grant @c every device of @bdf's IOMMU group (its bridges
 * need no rule)? 0, or -EACCES and @e naming those it does not. */
int udrvd_vfio_group_check(const struct udrvd_policy *policy, const struct udrvd_caller *c,
			   const char *bdf, struct udrvd_err *e);

#endif /* UDRVD_SYSFS_DEVICES_H */
