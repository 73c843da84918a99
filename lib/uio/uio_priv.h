/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The UIO handle, shared by uio.c (discovery, maps) and uio_irq.c. */
#ifndef UDRV_UIO_PRIV_H
#define UDRV_UIO_PRIV_H

#include <udrv/uio.h>

#include "internal.h"

#define UIO_MAX_MAPS	5	/* MAX_UIO_MAPS in the kernel */
#define UIO_MAX_PORTS	5	/* MAX_UIO_PORT_REGIONS */

struct udrv_uio {
	int fd;
	int config_fd;			/* PCI config space, opened lazily */
	int num;
	uint32_t last_count;
	uint64_t missed;
	bool have_wait_mask;		/* udrv_uio_set_wait_sigmask() */
	sigset_t wait_mask;
	int num_maps;
	int num_ports;
	char devname[16];
	char name[64];
	char version[64];
	char path[UDRV_PATH_LEN];	/* /dev/uioN */
	char sysdir[UDRV_PATH_LEN];	/* /sys/class/uio/uioN */
	struct udrv_uio_map_info maps[UIO_MAX_MAPS];
	struct udrv_uio_port_info ports[UIO_MAX_PORTS];
	char errmsg[UDRV_ERRMSG_LEN];
};

#endif /* UDRV_UIO_PRIV_H */
