/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake PCI device on a fake vfio-pci, for tests/lib/test_vfio.c: the
 * device in the fake sysfs (IDs, class, driver and iommu_group links), the
 * nodes /dev/vfio/vfio and /dev/vfio/N as regular files, and VFIO's ioctls
 * on them answered from struct fake_vfio (the test links with
 * -Wl,--wrap=ioctl). The device fd is a sparse regular file: region i at
 * offset i * FAKE_VFIO_REGION_STRIDE, so BAR maps and config space reads
 * and writes are real file I/O the test can look at.
 */
#ifndef UDRV_TEST_FAKE_VFIO_H
#define UDRV_TEST_FAKE_VFIO_H

#include <stdbool.h>
#include <stdint.h>

#define FAKE_VFIO_REGION_STRIDE	0x100000ULL
#define FAKE_VFIO_REGIONS	9

struct fake_vfio_map {
	uint64_t vaddr, iova, size;
};

struct fake_vfio {
	/* what the fake answers */
	bool viable;			/* VFIO_GROUP_GET_STATUS */
	int set_container_errno;
	int set_iommu_errno;		/* EPERM: no interrupt remapping */
	bool type1v2;			/* VFIO_CHECK_EXTENSION */
	uint32_t device_flags;		/* VFIO_DEVICE_FLAGS_* */
	uint32_t num_regions;
	uint64_t region_size[FAKE_VFIO_REGIONS];
	uint32_t region_flags[FAKE_VFIO_REGIONS];
	bool region_info_einval[FAKE_VFIO_REGIONS];	/* as vfio-pci's VGA */
	uint32_t irq_count[5];		/* INTx, MSI, MSI-X, ERR, REQ */
	uint32_t num_iova;		/* IOVA ranges in VFIO_IOMMU_GET_INFO */
	uint64_t iova_start[4], iova_end[4];
	int map_errno;			/* VFIO_IOMMU_MAP_DMA fails with it */
	/* -Wl,--wrap=malloc,--wrap=calloc (test_vfio): each malloc() fills
	 * its memory with the fd number malloc_fill (> 0), as if it were
	 * reused memory; the next calloc() fails when fail_calloc is set */
	int malloc_fill;
	bool fail_calloc;
	/* what the library did */
	int set_iommu_type;
	bool container_set;		/* VFIO_GROUP_SET_CONTAINER succeeded */
	int irq_index;			/* the last VFIO_DEVICE_SET_IRQS */
	uint32_t irq_flags;
	uint32_t irq_set_count;
	unsigned int polls;		/* poll() calls (-Wl,--wrap=poll) */
	int irq_fds[8];
	int req_fd;			/* the eventfd on the REQ index */
	unsigned int unmasks;
	unsigned int resets;
	unsigned int num_maps;
	struct fake_vfio_map maps[16];
	unsigned int unmaps;
};

extern struct fake_vfio fake_vfio;

/*
 * A PCI device @bdf (vendor:device 1234:11e8, class 0x00ff00) in the fake
 * sysfs, bound to @driver ("" none) in IOMMU group @group (-1: no IOMMU).
 */
void fake_pci_device(const char *bdf, const char *driver, int group);
/* The fake VFIO for @bdf in @group: nodes, device file, defaults (a viable
 * group, type1v2, BAR 0 of 4 KiB mmap-able, config space, 1 INTx, 1 MSI,
 * 1 REQ vector, the x86 IOVA windows). */
void fake_vfio_setup(const char *bdf, int group);
/* fake_vfio_setup() for 0000:00:01.0 on vfio-pci in group 1, on a new
 * fake root. */
void fake_vfio_device(void);
/* udrv_vfio_open(@spec), checked to return @expect; the handle. */
struct udrv_vfio *fake_vfio_open(const char *spec, int expect);
/* fake_vfio_device() and an open handle of it. */
struct udrv_vfio *fake_vfio_open_device(void);
/* Write @len bytes into the device file's region @index at @offset. */
void fake_vfio_region_write(unsigned int index, uint64_t offset, const void *buf,
			    size_t len);
/* The device file's bytes of region @index at @offset. */
void fake_vfio_region_read(unsigned int index, uint64_t offset, void *buf,
			   size_t len);

#endif /* UDRV_TEST_FAKE_VFIO_H */
