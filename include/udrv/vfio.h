/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PCI devices through VFIO: a userspace PCI driver with registers, INTx,
 * MSI and MSI-X interrupts as pollable eventfds, and DMA into memory that
 * the IOMMU maps at an I/O virtual address (IOVA) the device may use.
 *
 * The device must be bound to vfio-pci and sit in an IOMMU group
 * (intel_iommu=on / amd_iommu=on, or an SoC's SMMU). udrv opens the group,
 * checks that it is viable, attaches it to a type1 container and gets the
 * device; each step that can fail says why and how to fix it (which kernel
 * parameter, which devices share the group, the commands that bind the
 * device to vfio-pci, who may open /dev/vfio/N).
 *
 * When to use this and when UIO: docs/vfio.md.
 */
#ifndef UDRV_VFIO_H
#define UDRV_VFIO_H

#include <sys/select.h>	/* sigset_t, also under -std=c11 (POSIX puts it there too) */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <udrv/mmio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_vfio;	/* one PCI device on vfio-pci */
struct udrv_dma;	/* one DMA buffer, mapped for the device */

/* Interrupt types: the values are VFIO's irq indexes (linux/vfio.h). */
enum udrv_vfio_irq_type {
	UDRV_VFIO_INTX = 0,
	UDRV_VFIO_MSI = 1,
	UDRV_VFIO_MSIX = 2,
};

/* Region indexes 0-5 are BARs; VFIO's fixed ones beyond. */
#define UDRV_VFIO_ROM_REGION	6
#define UDRV_VFIO_CONFIG_REGION	7

#define UDRV_VFIO_REGION_READ	(1u << 0)
#define UDRV_VFIO_REGION_WRITE	(1u << 1)
#define UDRV_VFIO_REGION_MMAP	(1u << 2)

struct udrv_vfio_info {
	char bdf[16];			/* "0000:00:01.0" */
	uint16_t vendor;
	uint16_t device;
	uint16_t subsystem_vendor;
	uint16_t subsystem_device;
	uint32_t class_code;		/* 24 bits: class, subclass, prog-if */
	unsigned int iommu_group;
	unsigned int num_regions;	/* VFIO's count, BARs included */
	uint32_t irq_count[3];		/* vectors per enum udrv_vfio_irq_type */
	bool can_reset;			/* VFIO_DEVICE_RESET is supported */
	unsigned int dma_mask_bits;	/* what udrv_vfio_set_dma_mask() set */
};

struct udrv_vfio_region_info {
	unsigned int index;
	uint32_t flags;			/* UDRV_VFIO_REGION_* */
	uint64_t size;			/* 0: the BAR is not implemented */
	uint64_t offset;		/* of the region in the device fd */
};

/* The outcome of one wait. */
struct udrv_vfio_irq {
	unsigned int type;		/* enum udrv_vfio_irq_type */
	unsigned int vector;		/* 0 for INTx and single-vector MSI */
	uint64_t count;			/* interrupts since the previous wait
					 * on this vector (the eventfd's counter) */
	uint64_t missed;		/* count - 1: interrupts nobody saw */
};

struct udrv_vfio *udrv_vfio_new(void);
/*
 * @spec: a PCI address "0000:00:01.0" or "00:01.0" (domain 0), or
 * "vendor:device" in hex ("1234:11e8"), which must match exactly one device
 * (-ENOTUNIQ naming them all, otherwise). Opens the group and the device,
 * and turns on memory decoding and bus mastering in the command register:
 * without bus mastering neither MSI nor DMA reach the host.
 * Errors, each with a message that says what to do (libudrv(3), VFIO):
 * -EINVAL spec of neither form; -ENODEV no such device, or bound to no
 * driver; -ENXIO no IOMMU group (no IOMMU); -ENOENT vfio-pci not loaded;
 * -EBUSY bound to another driver, group not viable, or group open
 * elsewhere; -EACCES /dev/vfio/N; -EPERM no interrupt remapping.
 */
int udrv_vfio_open(struct udrv_vfio *v, const char *spec);
/*
 * The same for a device someone else opened: a broker such as udrvd
 * (io.udrv1.Devices.OpenVfio) hands over the container (/dev/vfio/vfio,
 * its IOMMU set), the group (/dev/vfio/N, in that container) and the device
 * (VFIO_GROUP_GET_DEVICE_FD), the way libvirt hands QEMU an opened device.
 * Checks that each is what it should be for @spec's device, then does what
 * udrv_vfio_open() does after opening. On success the handle owns the three
 * (udrv_vfio_close() closes them); on an error they stay the caller's:
 * -EBADF one is not open, -EINVAL one is another file or device, or the
 * group is not in a container with an IOMMU; udrv_vfio_open()'s errors for
 * @spec. Since 1.3.
 */
int udrv_vfio_open_fds(struct udrv_vfio *v, const char *spec, int container,
		       int group, int device);
void udrv_vfio_close(struct udrv_vfio *v);	/* frees DMA, disables irqs */
void udrv_vfio_free(struct udrv_vfio *v);
const char *udrv_vfio_errmsg(const struct udrv_vfio *v);

const char *udrv_vfio_bdf(const struct udrv_vfio *v);
int udrv_vfio_device_fd(const struct udrv_vfio *v);
/* The container's and the group's fds: what a broker hands over with the
 * device's (udrv_vfio_open_fds()); -1 when not open. Since 1.3. */
int udrv_vfio_container_fd(const struct udrv_vfio *v);
int udrv_vfio_group_fd(const struct udrv_vfio *v);
int udrv_vfio_info_sz(struct udrv_vfio *v, struct udrv_vfio_info *info,
		      size_t info_size);
#define udrv_vfio_info(v, info)						\
	udrv_vfio_info_sz(v, info, sizeof(struct udrv_vfio_info))
int udrv_vfio_region_info_sz(struct udrv_vfio *v, unsigned int index,
			     struct udrv_vfio_region_info *info,
			     size_t info_size);
#define udrv_vfio_region_info(v, index, info)				\
	udrv_vfio_region_info_sz(v, index, info,			\
				 sizeof(struct udrv_vfio_region_info))

/*
 * Map BAR @bar (0-5) with the same checked accessors as a UIO map
 * (mmio.h). -EINVAL for an index out of range, -ENODEV for a BAR the device
 * does not implement, -EOPNOTSUPP for one VFIO cannot mmap (I/O ports).
 */
int udrv_vfio_map_bar(struct udrv_vfio *v, unsigned int bar,
		      struct udrv_region **regionp);

/* Config space, through VFIO (which virtualises parts of it). */
int udrv_vfio_config_read(struct udrv_vfio *v, unsigned int offset,
			  void *buf, size_t len);
int udrv_vfio_config_write(struct udrv_vfio *v, unsigned int offset,
			   const void *buf, size_t len);
/* Bus mastering (PCI command bit 2); udrv_vfio_open() turns it on. */
int udrv_vfio_bus_master(struct udrv_vfio *v, bool on);

/*
 * Interrupts: one eventfd per vector, vectors 0..@count-1 of @type. Only
 * one type is active at a time (the PCI rule): enabling one disables the
 * one enabled before. -ENOTSUP when the device has fewer vectors of @type.
 */
int udrv_vfio_irq_enable(struct udrv_vfio *v, enum udrv_vfio_irq_type type,
			 unsigned int count);
int udrv_vfio_irq_disable(struct udrv_vfio *v);
/* The eventfd of @vector (poll it for POLLIN), or -EINVAL. */
int udrv_vfio_irq_fd(const struct udrv_vfio *v, unsigned int vector);
/*
 * Wait for an interrupt on any enabled vector: 1 and @irq filled, 0 on
 * timeout (@timeout_ms < 0 waits forever), -EINTR when a signal handler
 * ran, -ENODEV when the device went away (vfio-pci's request to release
 * it). INTx is masked by the kernel when it fires: udrv_vfio_intx_unmask()
 * after the device's interrupt has been acknowledged.
 */
int udrv_vfio_wait_sz(struct udrv_vfio *v, int timeout_ms,
		      struct udrv_vfio_irq *irq, size_t irq_size);
#define udrv_vfio_wait(v, timeout_ms, irq)				\
	udrv_vfio_wait_sz(v, timeout_ms, irq, sizeof(struct udrv_vfio_irq))
int udrv_vfio_intx_unmask(struct udrv_vfio *v);
uint64_t udrv_vfio_missed(const struct udrv_vfio *v);
/*
 * The signal mask that udrv_vfio_wait() sleeps under (ppoll()); NULL: the
 * thread's own, as before. A program that stops on a signal blocks it,
 * checks its flag, then waits with a mask that unblocks it: a signal that
 * came after the check interrupts the wait at once (-EINTR) instead of
 * being lost until the next interrupt. Since 1.2. Returns 0.
 */
int udrv_vfio_set_wait_sigmask(struct udrv_vfio *v, const sigset_t *mask);

/* Function-level (or bus) reset: VFIO_DEVICE_RESET. -ENOTSUP without one. */
int udrv_vfio_reset(struct udrv_vfio *v);

/*
 * DMA. The device sees a buffer at its IOVA, never at a physical address.
 * The device's DMA mask (default 32 bits, the PCI default; 1-64) bounds
 * every IOVA + size: the IOMMU does not know it, so udrv checks it and
 * refuses a mapping beyond it with -ERANGE.
 */
int udrv_vfio_set_dma_mask(struct udrv_vfio *v, unsigned int bits);
/* Anonymous page-aligned memory of @size, at an IOVA udrv picks. */
int udrv_vfio_dma_alloc(struct udrv_vfio *v, size_t size,
			struct udrv_dma **bufp);
/*
 * The caller's page-aligned memory @addr/@size at IOVA @iova (page-aligned;
 * 0: udrv picks). The memory must stay mapped until udrv_vfio_dma_free().
 */
int udrv_vfio_dma_map(struct udrv_vfio *v, void *addr, size_t size,
		      uint64_t iova, struct udrv_dma **bufp);
/* Unmaps from the IOMMU (and frees what dma_alloc allocated). */
int udrv_vfio_dma_free(struct udrv_vfio *v, struct udrv_dma *buf);
void *udrv_dma_addr(const struct udrv_dma *buf);
uint64_t udrv_dma_iova(const struct udrv_dma *buf);
size_t udrv_dma_size(const struct udrv_dma *buf);

/*
 * Bind the PCI device @spec (as for udrv_vfio_open()) to @driver
 * ("vfio-pci", "uio_pci_generic", or "" to leave it unbound): unbind from
 * its driver, set driver_override, probe, and check the result. What
 * driverctl does; needs root. Messages go to @errbuf.
 */
int udrv_pci_bind(const char *spec, const char *driver, char *errbuf,
		  size_t errlen);
/* The driver @spec is bound to ("" for none) into @buf. */
int udrv_pci_driver(const char *spec, char *buf, size_t len, char *errbuf,
		    size_t errlen);

/* PCI devices bound to vfio-pci ("0000:00:01.0", ...); see udrv_chip_list(). */
int udrv_vfio_list(char ***bdfs);
void udrv_vfio_absent_reason(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_VFIO_H */
