/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The VFIO handle, shared by vfio.c (open, regions, config), vfio_irq.c and
 * vfio_dma.c. */
#ifndef UDRV_VFIO_PRIV_H
#define UDRV_VFIO_PRIV_H

#include <poll.h>
#include <signal.h>

#include <udrv/vfio.h>

#include "internal.h"
#include "vfio/pci.h"

#define VFIO_PCI_COMMAND	0x04
#define VFIO_PCI_CMD_MEMORY	0x0002
#define VFIO_PCI_CMD_MASTER	0x0004
#define VFIO_DEFAULT_DMA_BITS	32

struct udrv_dma {
	struct udrv_dma *next;		/* the handle's list, by IOVA */
	void *addr;
	size_t size;
	uint64_t iova;
	bool owned;			/* dma_alloc's memory: munmap it */
};

/* An IOVA range the IOMMU can translate (VFIO_IOMMU_GET_INFO's caps). */
struct vfio_iova_window {
	uint64_t start;
	uint64_t end;			/* inclusive */
};

#define VFIO_MAX_IOVA_WINDOWS	8

struct udrv_vfio {
	int container_fd;
	int group_fd;
	int device_fd;
	char bdf[UDRV_PCI_BDF_LEN];
	char group_path[32];		/* /dev/vfio/N, for messages */
	struct udrv_vfio_info info;
	uint64_t config_offset;		/* of the config region in device_fd */
	/* interrupts: one eventfd per vector of one type */
	int irq_type;			/* -1: none enabled */
	unsigned int irq_count;
	int *irq_fds;
	struct pollfd *irq_pfds;	/* the vectors', then the request's */
	int req_fd;			/* vfio-pci's request to release it */
	unsigned int irq_next;		/* where the next wait starts looking */
	unsigned int irq_misses;	/* read-firsts in a row that found nothing */
	bool irq_fast;			/* one vector, irq_misses < IRQ_MISSES: the
					 * next wait reads first, udrv_vfio_wait()'s
					 * fast path */
	unsigned int irq_probe;		/* waits since it last tried */
	uint64_t missed;
	bool have_wait_mask;		/* udrv_vfio_set_wait_sigmask() */
	sigset_t wait_mask;
	/* DMA */
	uint64_t dma_limit;		/* the highest IOVA the mask allows */
	struct udrv_dma *dma;
	struct vfio_iova_window windows[VFIO_MAX_IOVA_WINDOWS];
	unsigned int num_windows;
	char errmsg[UDRV_ERRMSG_LEN];
};

/* vfio_irq.c: drop the eventfds (VFIO tears the irqs down on close). */
void udrv_vfio_irq_release(struct udrv_vfio *v);
/* vfio_irq.c: an eventfd on vfio-pci's request irq, when it has one. */
void udrv_vfio_req_enable(struct udrv_vfio *v);
/* vfio_dma.c: unmap and free every buffer. */
void udrv_vfio_dma_release(struct udrv_vfio *v);
/* vfio_dma.c: the IOVA windows of the container (after VFIO_SET_IOMMU). */
void udrv_vfio_dma_windows(struct udrv_vfio *v);
/*
 * The IOVA ranges in VFIO_IOMMU_GET_INFO's answer @info (@len bytes, its
 * argsz): at most @max into @win. The count (0: no such capability), or
 * -EINVAL for a capability chain that leaves @info or a range whose start
 * is above its end.
 */
int udrv_vfio_parse_iova_caps(const void *info, size_t len,
			      struct vfio_iova_window *win, unsigned int max);

/* vfio_open.c: the messages of the ways an open fails (for the tests). */
void udrv_vfio_group_devices(const char *bdf, unsigned int group,
			     char *buf, size_t len);
void udrv_vfio_node_hint(const char *path, char *buf, size_t len);

#endif /* UDRV_VFIO_PRIV_H */
