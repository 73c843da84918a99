// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * UIO interrupts: wait (poll + a 4-byte read of the kernel's s32 event
 * counter), missed-interrupt accounting from the counter's wrap-safe delta,
 * irqcontrol writes, and re-enabling INTx for uio_pci_generic.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "abi.h"
#include "uio/uio_priv.h"

#define PCI_COMMAND		4	/* the 16-bit command register */
#define PCI_INTX_DISABLE	0x0400	/* its bit 10: INTx disable */

/*
 * The one message for a device that went away (driver unloaded or unbound,
 * or unplugged). Measured on Debian 12's 6.1 kernels (std and PREEMPT_RT):
 * unbinding uio-ticker or uio_pci_generic wakes a blocked read() at once
 * with EIO, and poll() with POLLIN | POLLPRI | POLLERR | POLLHUP, after
 * which the read fails with EIO; irqcontrol writes fail with EIO too.
 * ENODEV and an end of file are taken the same way.
 */
__attribute__((cold))
static int uio_gone(struct udrv_uio *uio, const char *what)
{
	return udrv_err(uio->errmsg, ENODEV,
			"%s (%s): the device is gone (driver unloaded or unbound): %s; close it and open it again once the driver is back",
			uio->path, uio->name, what);
}

__attribute__((cold))
static int uio_gone_errno(struct udrv_uio *uio, const char *op, int err)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%s: %s", op, strerror(err));
	return uio_gone(uio, buf);
}

int udrv_uio_set_wait_sigmask(struct udrv_uio *uio, const sigset_t *mask)
{
	uio->have_wait_mask = mask != NULL;
	if (mask)
		uio->wait_mask = *mask;
	return 0;
}

static int uio_poll(struct udrv_uio *uio, int timeout_ms)
{
	struct pollfd pfd = { .fd = uio->fd, .events = POLLIN };
	int ret;

	ret = udrv_poll_masked(&pfd, 1, timeout_ms,
			       uio->have_wait_mask ? &uio->wait_mask : NULL);
	if (ret < 0 && errno == EINTR)
		return udrv_err(uio->errmsg, EINTR,
				"waiting for an interrupt of %s: interrupted by a signal",
				uio->devname);
	if (ret < 0)
		return udrv_err(uio->errmsg, errno, "poll on %s: %s", uio->path,
				strerror(errno));
	if (!ret || (pfd.revents & POLLIN))
		return ret;
	if (pfd.revents & POLLNVAL)
		return udrv_err(uio->errmsg, EBADF,
				"%s: the file descriptor is not open (closed behind udrv's back?)",
				uio->path);
	return uio_gone(uio, pfd.revents & POLLHUP ? "poll reports POLLHUP" :
			"poll reports POLLERR");
}

/* Why a read of the count (@n bytes, errno) failed: 0 never. */
static int uio_read_failed(struct udrv_uio *uio, ssize_t n)
{
	if (uio->fd < 0)
		return udrv_err(uio->errmsg, EBADF, "the UIO device is not open");
	if (n < 0 && errno == EINTR)
		return udrv_err(uio->errmsg, EINTR,
				"waiting for an interrupt of %s: interrupted by a signal",
				uio->devname);
	if (n == 0)
		return uio_gone(uio, "read returned end of file");
	if (n < 0 && (errno == EIO || errno == ENODEV))
		return uio_gone_errno(uio, "read", errno);
	if (n < 0)
		return udrv_err(uio->errmsg, errno, "read of %s: %s", uio->path,
				strerror(errno));
	return udrv_err(uio->errmsg, EIO, "short read of %s (%zd bytes)",
			uio->path, n);
}

static int uio_read_count(struct udrv_uio *uio, uint32_t *count)
{
	ssize_t n = read(uio->fd, count, sizeof(*count));

	return n == (ssize_t)sizeof(*count) ? 0 : uio_read_failed(uio, n);
}

/* The interrupts since the previous wait, from the kernel's @count. */
static void uio_account(struct udrv_uio *uio, struct udrv_uio_irq *irq,
			uint32_t count)
{
	irq->count = count;
	irq->delta = count - uio->last_count;	/* modulo 2^32 */
	/*
	 * The baseline is read from sysfs just after open(): an interrupt in
	 * between is already in it, yet wakes the first wait. That wait saw
	 * one interrupt, not zero.
	 */
	if (irq->delta == 0)
		irq->delta = 1;
	irq->missed = irq->delta - 1;
	uio->missed += irq->missed;
	uio->last_count = count;
}

static int uio_wait(struct udrv_uio *uio, int timeout_ms,
		    struct udrv_uio_irq *irq)
{
	uint32_t count = 0;
	int ret;

	if (uio->fd < 0)
		return udrv_err(uio->errmsg, EBADF, "the UIO device is not open");
	/* a blocking read is one system call less, but a blocked signal cannot end it */
	if (timeout_ms >= 0 || uio->have_wait_mask) {
		ret = uio_poll(uio, timeout_ms);
		if (ret <= 0)
			return ret;
	}
	ret = uio_read_count(uio, &count);
	if (ret)
		return ret;
	uio_account(uio, irq, count);
	return 1;
}

/* A wait with a timeout or a signal mask, or another size of struct: out
 * of line, so that the blocking wait below stays a few instructions. */
static __attribute__((noinline)) int
uio_wait_any(struct udrv_uio *uio, int timeout_ms, struct udrv_uio_irq *irq,
	     size_t irq_size)
{
	struct udrv_uio_irq ours;
	int ret = udrv_abi_size(uio->errmsg, &udrv_abi_uio_irq, irq_size);

	if (ret)
		return ret;
	ret = uio_wait(uio, timeout_ms, &ours);
	if (ret == 1)
		udrv_abi_out(&udrv_abi_uio_irq, irq, &ours, irq_size);
	return ret;
}

/*
 * The blocking wait, the common case, in a few instructions over a bare
 * read() of /dev/uioN (udrv-bench uio's raw row): the count read straight
 * into the caller's struct.
 */
int udrv_uio_wait_sz(struct udrv_uio *uio, int timeout_ms,
		     struct udrv_uio_irq *irq, size_t irq_size)
{
	ssize_t n;

	if (irq_size != sizeof(*irq) || timeout_ms >= 0 || uio->have_wait_mask)
		return uio_wait_any(uio, timeout_ms, irq, irq_size);
	n = read(uio->fd, &irq->count, sizeof(irq->count));
	if (n != (ssize_t)sizeof(irq->count))
		return uio_read_failed(uio, n);
	uio_account(uio, irq, irq->count);
	return 1;
}

uint64_t udrv_uio_missed(const struct udrv_uio *uio)
{
	return uio->missed;
}

int udrv_uio_irq_enable(struct udrv_uio *uio, bool enable)
{
	int32_t v = enable;
	ssize_t n;

	n = write(uio->fd, &v, sizeof(v));
	if (n == (ssize_t)sizeof(v))
		return 0;
	if (n < 0 && errno == ENOSYS)
		return udrv_err(uio->errmsg, ENOSYS,
				"%s (%s) cannot %s its interrupt: the driver has no irqcontrol",
				uio->devname, uio->name,
				enable ? "enable" : "disable");
	if (n < 0 && (errno == EIO || errno == ENODEV))
		return uio_gone_errno(uio, "irqcontrol write", errno);
	return udrv_err(uio->errmsg, n < 0 ? errno : EIO,
			"irqcontrol write to %s: %s", uio->path,
			n < 0 ? strerror(errno) : "short write");
}

static int pci_config_open(struct udrv_uio *uio)
{
	char path[UDRV_PATH_LEN + 16];
	int err;

	snprintf(path, sizeof(path), "%s/device/config", uio->sysdir);
	uio->config_fd = open(path, O_RDWR | O_CLOEXEC);
	if (uio->config_fd >= 0)
		return 0;
	err = errno;
	if (err == ENOENT)
		return udrv_err(uio->errmsg, ENOTSUP,
				"%s (%s) is not a PCI device (%s missing)",
				uio->devname, uio->name, path);
	return udrv_err(uio->errmsg, err, "cannot open %s: %s%s", path,
			strerror(err),
			err == EACCES ? " (PCI config space writes need root)" : "");
}

/*
 * The command register is read and written whole (16 bits at offset 4, as
 * the kernel's pci_intx() and uio_pci_generic's handler do), never as its
 * high byte alone: QEMU (7.2, pci_default_write_config()) re-evaluates a
 * device's INTx line only on a config write that covers byte 4. A 1-byte
 * write to byte 5 clears the bit, yet an INTx the device asserted while it
 * was masked is never delivered: the line stays low, every later raise of
 * the same level is no change, and the wait gets nothing (seen in the lab:
 * edu's status pending, INTx unmasked, no interrupt; tests/lab/
 * test_uio_edu.py). The read-modify-write keeps the low byte as read.
 */
int udrv_uio_pci_intx_unmask(struct udrv_uio *uio)
{
	uint8_t b[2];
	uint16_t cmd;
	int ret;

	if (uio->config_fd < 0) {
		ret = pci_config_open(uio);
		if (ret)
			return ret;
	}
	errno = 0;
	if (pread(uio->config_fd, b, 2, PCI_COMMAND) != 2)
		return udrv_err(uio->errmsg, errno ? errno : EIO,
				"reading the PCI command register of %s: %s",
				uio->devname, errno ? strerror(errno) : "short read");
	cmd = (uint16_t)(b[0] | b[1] << 8);	/* config space is little-endian */
	if (!(cmd & PCI_INTX_DISABLE))
		return 0;
	cmd &= (uint16_t)~PCI_INTX_DISABLE;
	b[0] = (uint8_t)cmd;
	b[1] = (uint8_t)(cmd >> 8);
	errno = 0;
	if (pwrite(uio->config_fd, b, 2, PCI_COMMAND) != 2)
		return udrv_err(uio->errmsg, errno ? errno : EIO,
				"writing the PCI command register of %s: %s",
				uio->devname, errno ? strerror(errno) : "short write");
	return 0;
}
