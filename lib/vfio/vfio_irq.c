// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * VFIO interrupts: one eventfd per vector (VFIO_DEVICE_SET_IRQS), a wait
 * over all of them and vfio-pci's request eventfd (the kernel asks for the
 * device back), missed interrupts from the eventfd's counter, and INTx's
 * unmask (the kernel masks INTx when it fires).
 */
#include <errno.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "abi.h"
#include "vfio/vfio_priv.h"

static const char *const irq_names[] = { "INTx", "MSI", "MSI-X" };

/*
 * VFIO_DEVICE_SET_IRQS of @count eventfds (NULL: none) at @index. Without
 * eventfds (an unmask, a disable) nothing is allocated: INTx's re-arm is
 * one ioctl.
 */
static int set_irqs(struct udrv_vfio *v, unsigned int index, uint32_t flags,
		    const int *fds, unsigned int count)
{
	size_t data = fds ? count * sizeof(int) : 0;
	struct vfio_irq_set bare, *set = &bare;
	int ret = 0;

	if (data) {
		set = calloc(1, sizeof(*set) + data);
		if (!set)
			return -ENOMEM;
		memcpy(set->data, fds, data);
	}
	set->argsz = (uint32_t)(sizeof(*set) + data);
	set->flags = flags;
	set->index = index;
	set->start = 0;
	set->count = count;
	if (ioctl(v->device_fd, VFIO_DEVICE_SET_IRQS, set))
		ret = -errno;
	if (set != &bare)
		free(set);
	return ret;
}

static void close_fds(int *fds, unsigned int n)
{
	for (unsigned int i = 0; fds && i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Forget the vectors: their eventfds and the poll set. */
static void irq_drop(struct udrv_vfio *v)
{
	close_fds(v->irq_fds, v->irq_count);
	free(v->irq_fds);
	free(v->irq_pfds);
	v->irq_fds = NULL;
	v->irq_pfds = NULL;
	v->irq_count = 0;
	v->irq_type = -1;
	v->irq_fast = false;
}

void udrv_vfio_irq_release(struct udrv_vfio *v)
{
	irq_drop(v);
	if (v->req_fd >= 0)
		close(v->req_fd);
	v->req_fd = -1;
}

void udrv_vfio_req_enable(struct udrv_vfio *v)
{
	struct vfio_irq_info irq = {
		.argsz = sizeof(irq), .index = VFIO_PCI_REQ_IRQ_INDEX,
	};
	int fd;

	v->req_fd = -1;
	if (ioctl(v->device_fd, VFIO_DEVICE_GET_IRQ_INFO, &irq) ||
	    irq.count < 1)
		return;		/* older vfio-pci: no warning before removal */
	fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0)
		return;
	if (set_irqs(v, VFIO_PCI_REQ_IRQ_INDEX, VFIO_IRQ_SET_DATA_EVENTFD |
		     VFIO_IRQ_SET_ACTION_TRIGGER, &fd, 1)) {
		close(fd);
		return;
	}
	v->req_fd = fd;
}

/* Turn off what is on: VFIO frees the vectors. */
static int irq_off(struct udrv_vfio *v)
{
	int ret;

	if (v->irq_type < 0)
		return 0;
	ret = set_irqs(v, (unsigned int)v->irq_type, VFIO_IRQ_SET_DATA_NONE |
		       VFIO_IRQ_SET_ACTION_TRIGGER, NULL, 0);
	if (ret)
		return udrv_err(v->errmsg, -ret,
				"disabling %s of %s (VFIO_DEVICE_SET_IRQS): %s",
				irq_names[v->irq_type], v->bdf, strerror(-ret));
	irq_drop(v);
	return 0;
}

int udrv_vfio_irq_disable(struct udrv_vfio *v)
{
	if (v->device_fd < 0)
		return udrv_err(v->errmsg, EBADF, "the VFIO device is not open");
	return irq_off(v);
}

static int check_irq(struct udrv_vfio *v, unsigned int type,
		     unsigned int count)
{
	if (v->device_fd < 0)
		return udrv_err(v->errmsg, EBADF, "the VFIO device is not open");
	if (type > UDRV_VFIO_MSIX)
		return udrv_err(v->errmsg, EINVAL,
				"interrupt type %u: INTx (0), MSI (1) or MSI-X (2)",
				type);
	if (!count)
		return udrv_err(v->errmsg, EINVAL,
				"enabling 0 vectors of %s: at least one",
				irq_names[type]);
	if (count > v->info.irq_count[type])
		return udrv_err(v->errmsg, ENOTSUP,
				"%s has %u %s vector%s, not %u (lspci -v -s %s shows its capabilities)",
				v->bdf, v->info.irq_count[type], irq_names[type],
				v->info.irq_count[type] == 1 ? "" : "s", count,
				v->bdf);
	return 0;
}

/*
 * The eventfds and the poll set (vectors, then the request fd). The handle
 * takes them, and @count, only once both are allocated and every fd is -1:
 * irq_drop() after a failure closes only the eventfds made here, never a
 * number that was left in uninitialised memory (the application's fd).
 */
static int irq_alloc(struct udrv_vfio *v, unsigned int count)
{
	int *fds = malloc(count * sizeof(int));
	struct pollfd *pfds = calloc(count + 1, sizeof(struct pollfd));

	if (!fds || !pfds) {
		free(fds);
		free(pfds);
		return udrv_err(v->errmsg, ENOMEM, "out of memory for %u eventfds",
				count);
	}
	for (unsigned int i = 0; i < count; i++)
		fds[i] = -1;
	v->irq_fds = fds;
	v->irq_pfds = pfds;
	v->irq_count = count;
	for (unsigned int i = 0; i < count; i++) {
		v->irq_fds[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (v->irq_fds[i] < 0)
			return udrv_err(v->errmsg, errno,
					"eventfd for vector %u of %s: %s", i,
					v->bdf, strerror(errno));
		v->irq_pfds[i].fd = v->irq_fds[i];
		v->irq_pfds[i].events = POLLIN;
	}
	v->irq_pfds[count].fd = v->req_fd;	/* -1: poll ignores it */
	v->irq_pfds[count].events = POLLIN;
	return 0;
}

int udrv_vfio_irq_enable(struct udrv_vfio *v, enum udrv_vfio_irq_type type,
			 unsigned int count)
{
	int ret = check_irq(v, type, count);

	if (!ret)
		ret = irq_off(v);
	if (ret)
		return ret;
	ret = irq_alloc(v, count);
	if (!ret) {
		ret = set_irqs(v, type, VFIO_IRQ_SET_DATA_EVENTFD |
			       VFIO_IRQ_SET_ACTION_TRIGGER, v->irq_fds, count);
		if (ret)
			udrv_err(v->errmsg, -ret,
				 "enabling %u %s vector%s of %s (VFIO_DEVICE_SET_IRQS): %s",
				 count, irq_names[type], count == 1 ? "" : "s",
				 v->bdf, strerror(-ret));
	}
	if (ret) {
		irq_drop(v);
		return ret;
	}
	v->irq_type = (int)type;
	v->irq_next = 0;
	v->irq_misses = 0;
	v->irq_probe = 0;
	v->irq_fast = count == 1;
	return 0;
}

int udrv_vfio_irq_fd(const struct udrv_vfio *v, unsigned int vector)
{
	if (v->irq_type < 0 || vector >= v->irq_count)
		return -EINVAL;
	return v->irq_fds[vector];
}

static int device_gone(struct udrv_vfio *v)
{
	return udrv_err(v->errmsg, ENODEV,
			"the kernel asks for %s back (vfio-pci unbind, driver unload or unplug): close it; it is blocked until you do",
			v->bdf);
}

/* Read the counter of the first vector with one, from irq_next on. */
static int irq_collect(struct udrv_vfio *v, struct udrv_vfio_irq *irq)
{
	for (unsigned int k = 0; k < v->irq_count; k++) {
		unsigned int i = (v->irq_next + k) % v->irq_count;
		uint64_t count;

		if (!(v->irq_pfds[i].revents & POLLIN))
			continue;
		if (read(v->irq_fds[i], &count, sizeof(count)) != sizeof(count))
			continue;	/* EAGAIN: another reader took it */
		irq->type = (unsigned int)v->irq_type;
		irq->vector = i;
		irq->count = count;
		irq->missed = count - 1;
		v->missed += irq->missed;
		v->irq_next = (i + 1) % v->irq_count;
		return 1;
	}
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What is left of a wait that ends at @end (-1: never). */
static int left_ms(int64_t end)
{
	int64_t left;

	if (end < 0)
		return -1;
	left = end - now_ms();
	return left > 0 ? (int)left : 0;
}

#define IRQ_MISSES	4	/* read-firsts that found nothing: poll first */
#define IRQ_PROBE_EVERY	128	/* then try the read again every so many */

/*
 * One vector whose interrupt has come already (a device that interrupts
 * while the driver works, or one the write that raised it delivered
 * synchronously): one read() of its non-blocking eventfd, the cost of a
 * bare read(), instead of poll() + read(). The release request is seen the
 * next time the wait has to sleep (vfio-pci repeats it every 10 s).
 */
static int irq_pending(struct udrv_vfio *v, struct udrv_vfio_irq *irq)
{
	v->irq_pfds[0].revents = POLLIN;
	if (irq_collect(v, irq)) {
		v->irq_misses = 0;
		v->irq_fast = v->irq_count == 1;
		return 1;
	}
	if (v->irq_misses < IRQ_MISSES)
		v->irq_misses++;
	return 0;
}

/*
 * Whether to try irq_pending() first: yes unless it found nothing the last
 * IRQ_MISSES times. Then the driver waits before the device interrupts (an
 * irq thread below the application on PREEMPT_RT, a device that interrupts
 * later), and the read that fails with EAGAIN is a system call on the way
 * to the wake-up: the wait goes straight to poll(), and tries the read
 * again every IRQ_PROBE_EVERY waits (under 1%: p99 does not see it) in case
 * that changed. A miss now and then (a late irq thread) costs one read.
 */
static bool try_pending(struct udrv_vfio *v)
{
	if (v->irq_misses < IRQ_MISSES)
		return true;
	if (++v->irq_probe < IRQ_PROBE_EVERY)
		return false;
	v->irq_probe = 0;
	return true;
}

int udrv_vfio_set_wait_sigmask(struct udrv_vfio *v, const sigset_t *mask)
{
	v->have_wait_mask = mask != NULL;
	if (mask)
		v->wait_mask = *mask;
	return 0;
}

/* Sleep on the vectors and the release request until one fires or @timeout_ms. */
static int irq_sleep(struct udrv_vfio *v, int timeout_ms,
		     struct udrv_vfio_irq *irq)
{
	int64_t end = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int ret;

	for (;;) {
		ret = udrv_poll_masked(v->irq_pfds, v->irq_count + 1, left_ms(end),
				       v->have_wait_mask ? &v->wait_mask : NULL);
		if (ret < 0 && errno == EINTR)
			return udrv_err(v->errmsg, EINTR,
					"waiting for an interrupt of %s: interrupted by a signal",
					v->bdf);
		if (ret < 0)
			return udrv_err(v->errmsg, errno, "poll on the eventfds of %s: %s",
					v->bdf, strerror(errno));
		if (ret == 0)
			return 0;
		if (v->irq_pfds[v->irq_count].revents & POLLIN)
			return device_gone(v);
		/* a counter another reader emptied first: wait on, for
		 * what is left of the timeout */
		if (irq_collect(v, irq))
			return 1;
	}
}

static int irq_wait(struct udrv_vfio *v, int timeout_ms,
		    struct udrv_vfio_irq *irq)
{
	if (v->irq_type < 0)
		return udrv_err(v->errmsg, EINVAL,
				"no interrupt of %s is enabled (udrv_vfio_irq_enable first)",
				v->bdf);
	if (v->irq_count == 1 && try_pending(v) && irq_pending(v, irq))
		return 1;
	return irq_sleep(v, timeout_ms, irq);
}

/* Every other wait: the caller's struct of any size, several vectors,
 * an interrupt not signalled yet. Out of line: the fast path below stays
 * a few instructions with a small stack frame. */
static __attribute__((noinline)) int
irq_wait_any(struct udrv_vfio *v, int timeout_ms, struct udrv_vfio_irq *irq,
	     size_t irq_size)
{
	struct udrv_vfio_irq ours;
	int ret = udrv_abi_size(v->errmsg, &udrv_abi_vfio_irq, irq_size);

	if (ret)
		return ret;
	ret = irq_wait(v, timeout_ms, &ours);
	if (ret == 1)
		udrv_abi_out(&udrv_abi_vfio_irq, irq, &ours, irq_size);
	return ret;
}

/*
 * The common case in a few instructions over a bare read() of the eventfd
 * (udrv-bench pci's raw row): one vector, the caller's struct of this
 * library's size, and the interrupt already signalled (a device that
 * interrupts synchronously, an irq thread above the waiter on PREEMPT_RT).
 * A read that finds nothing counts as a miss (try_pending()) and sleeps.
 */
int udrv_vfio_wait_sz(struct udrv_vfio *v, int timeout_ms,
		      struct udrv_vfio_irq *irq, size_t irq_size)
{
	if (irq_size != sizeof(*irq) || !v->irq_fast)
		return irq_wait_any(v, timeout_ms, irq, irq_size);
	/* straight into the caller's struct: no copy, no frame for it */
	if (read(v->irq_fds[0], &irq->count, sizeof(irq->count)) !=
	    sizeof(irq->count)) {
		if (++v->irq_misses >= IRQ_MISSES)
			v->irq_fast = false;
		return irq_sleep(v, timeout_ms, irq);
	}
	irq->type = (unsigned int)v->irq_type;
	irq->vector = 0;
	irq->missed = irq->count - 1;
	v->missed += irq->missed;
	v->irq_misses = 0;
	return 1;
}

int udrv_vfio_intx_unmask(struct udrv_vfio *v)
{
	int ret;

	if (v->irq_type != UDRV_VFIO_INTX)
		return udrv_err(v->errmsg, EINVAL,
				"INTx of %s is not enabled (udrv_vfio_irq_enable(v, UDRV_VFIO_INTX, 1) first)",
				v->bdf);
	ret = set_irqs(v, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_DATA_NONE |
		       VFIO_IRQ_SET_ACTION_UNMASK, NULL, 1);
	if (ret)
		return udrv_err(v->errmsg, -ret,
				"unmasking INTx of %s (VFIO_DEVICE_SET_IRQS): %s",
				v->bdf, strerror(-ret));
	return 0;
}

uint64_t udrv_vfio_missed(const struct udrv_vfio *v)
{
	return v->missed;
}
