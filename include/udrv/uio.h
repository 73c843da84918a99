/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * UIO devices: find by name, map memory regions, wait for and re-arm
 * interrupts, count the ones that were missed.
 */
#ifndef UDRV_UIO_H
#define UDRV_UIO_H

#include <sys/select.h>	/* sigset_t, also under -std=c11 (POSIX puts it there too) */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <udrv/mmio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_uio;

struct udrv_uio_map_info {
	unsigned int index;
	char name[64];		/* "" when the driver gave none */
	uint64_t addr;		/* physical (or logical) address */
	uint64_t size;		/* bytes */
	uint64_t offset;	/* of the region inside its first page */
};

struct udrv_uio_port_info {
	unsigned int index;
	char name[64];
	uint64_t start;
	uint64_t size;
	char porttype[16];	/* "port_x86", "port_gpio", "port_other" */
};

/* The outcome of one wait. */
struct udrv_uio_irq {
	uint32_t count;		/* kernel's total interrupt count */
	uint32_t delta;		/* interrupts since the previous wait */
	uint32_t missed;	/* delta - 1: interrupts nobody saw */
};

struct udrv_uio *udrv_uio_new(void);
/* @spec: the driver's name ("uio_pci_generic"), "uio0" or "/dev/uio0". */
int udrv_uio_open(struct udrv_uio *uio, const char *spec);
/*
 * The same for a device node someone else opened: a broker such as udrvd
 * (io.udrv1.Devices.OpenUio), or a parent that passed it on. Reads the
 * device's maps as udrv_uio_open() does and checks that @fd is the node of
 * the device @spec names. On success the handle owns @fd (udrv_uio_close()
 * closes it); on an error it stays the caller's: -EBADF @fd is not open,
 * -EINVAL it is another file, and udrv_uio_open()'s errors for @spec.
 * Since 1.3.
 */
int udrv_uio_open_fd(struct udrv_uio *uio, const char *spec, int fd);
void udrv_uio_close(struct udrv_uio *uio);
void udrv_uio_free(struct udrv_uio *uio);
const char *udrv_uio_errmsg(const struct udrv_uio *uio);

const char *udrv_uio_devname(const struct udrv_uio *uio);	/* uio0 */
const char *udrv_uio_name(const struct udrv_uio *uio);	/* driver's name */
const char *udrv_uio_version(const struct udrv_uio *uio);
int udrv_uio_fd(const struct udrv_uio *uio);

int udrv_uio_num_maps(const struct udrv_uio *uio);
/* (_sz and the macros: how structs grow, docs/abi.md) */
int udrv_uio_map_info_sz(struct udrv_uio *uio, unsigned int index,
			 struct udrv_uio_map_info *info, size_t info_size);
#define udrv_uio_map_info(uio, index, info)				\
	udrv_uio_map_info_sz(uio, index, info, sizeof(struct udrv_uio_map_info))
int udrv_uio_num_ports(const struct udrv_uio *uio);
int udrv_uio_port_info_sz(struct udrv_uio *uio, unsigned int index,
			  struct udrv_uio_port_info *info, size_t info_size);
#define udrv_uio_port_info(uio, index, info)				\
	udrv_uio_port_info_sz(uio, index, info,				\
			      sizeof(struct udrv_uio_port_info))

/*
 * Map region @index (mmap offset index * pagesize, sub-page offset applied).
 * The region stays valid until udrv_region_unmap(); it does not depend on
 * the uio handle staying open.
 */
int udrv_uio_map(struct udrv_uio *uio, unsigned int index,
		 struct udrv_region **regionp);

/*
 * Wait for an interrupt: returns 1 and fills @irq, 0 on timeout
 * (@timeout_ms < 0 waits forever), -ENODEV when the device went away
 * (driver unloaded or unbound: the kernel wakes the wait with EIO, or
 * POLLERR/POLLHUP; the message names the device and its driver), -EINTR
 * when a signal handler ran (so that a program can stop on Ctrl-C; with
 * SA_RESTART a wait of @timeout_ms < 0 is restarted by the kernel).
 * Missed interrupts (delta > 1) are counted, also in udrv_uio_missed().
 */
int udrv_uio_wait_sz(struct udrv_uio *uio, int timeout_ms,
		     struct udrv_uio_irq *irq, size_t irq_size);
#define udrv_uio_wait(uio, timeout_ms, irq)				\
	udrv_uio_wait_sz(uio, timeout_ms, irq, sizeof(struct udrv_uio_irq))
uint64_t udrv_uio_missed(const struct udrv_uio *uio);
/*
 * The signal mask that udrv_uio_wait() sleeps under (ppoll()); NULL: the
 * thread's own, as before. A program that stops on a signal blocks it,
 * checks its flag, then waits with a mask that unblocks it: a signal that
 * came after the check interrupts the wait at once (-EINTR) instead of
 * being lost until the next interrupt. Since 1.2. Returns 0.
 */
int udrv_uio_set_wait_sigmask(struct udrv_uio *uio, const sigset_t *mask);

/* irqcontrol: enable (1) or disable (0) the interrupt in the driver. */
int udrv_uio_irq_enable(struct udrv_uio *uio, bool enable);

/*
 * uio_pci_generic masks INTx in the PCI command register (config space
 * offset 4, bit 10: INTx disable) on every interrupt: clear it so the next
 * one can arrive. The register is read and written as one 16-bit word (an
 * INTx asserted while masked is then delivered on QEMU too, which ignores a
 * 1-byte write to its high byte for the line).
 */
int udrv_uio_pci_intx_unmask(struct udrv_uio *uio);

/*
 * Map a PCI device's BAR @bar through /sys/class/uio/uioN/device/resource@bar.
 * uio_pci_generic exports memory BARs as UIO maps on recent kernels (6.1
 * does), not on older ones: this works on both.
 */
int udrv_uio_pci_map_bar(struct udrv_uio *uio, unsigned int bar,
			 struct udrv_region **regionp);

/* Enumerate UIO devices ("uio0", ...); see udrv_chip_list(). */
int udrv_uio_list(char ***names);
void udrv_uio_absent_reason(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_UIO_H */
