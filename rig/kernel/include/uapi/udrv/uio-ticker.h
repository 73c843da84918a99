/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Layout of the page that uio-ticker exports as UIO map 0
 *
 * This header is shared by the kernel module and userspace; it only needs
 * <linux/types.h>.
 *
 * The page is written by the kernel on every timer tick (and when the period
 * or the irqcontrol state changes) and is read-only for userspace. Writers
 * follow the seqcount protocol on @seq:
 *
 *	seq++ (becomes odd); write barrier; update fields;
 *	write barrier; seq++ (becomes even)
 *
 * so a reader gets a consistent snapshot like this:
 *
 *	do {
 *		s = load(seq);            // retry while odd
 *		read barrier;
 *		copy the fields;
 *		read barrier;
 *	} while ((s & 1) || load(seq) != s);
 *
 * uio_ticker_snapshot() below does exactly that with GCC/Clang builtins.
 *
 * All times are CLOCK_MONOTONIC nanoseconds (ktime_get_ns() in the kernel,
 * clock_gettime(CLOCK_MONOTONIC) in userspace).
 */
#ifndef _UAPI_UDRV_UIO_TICKER_H
#define _UAPI_UDRV_UIO_TICKER_H

#include <linux/types.h>

#define UIO_TICKER_MAGIC	0x314b5455U	/* "UTK1" in memory order (LE) */
#define UIO_TICKER_VERSION	1U
#define UIO_TICKER_MAP		0		/* UIO map index, named "ticker" */

struct uio_ticker_page {
	__u32 magic;		/* UIO_TICKER_MAGIC */
	__u32 version;		/* UIO_TICKER_VERSION */
	__u32 seq;		/* odd while the kernel writes the page */
	__u32 enabled;		/* irqcontrol: 1 signalled, 0 suppressed */
	/*
	 * Events signalled so far. After the notification of the last tick
	 * it equals the UIO event count that read() on /dev/uioN returns.
	 */
	__u64 event;
	__u64 expires_ns;	/* programmed expiry of the last tick */
	__u64 handler_ns;	/* when the hrtimer callback ran for it */
	/*
	 * Right before uio_event_notify() for the last signalled tick. Equal
	 * to handler_ns except on PREEMPT_RT, where the notification is made
	 * by a SCHED_FIFO thread woken by the hrtimer callback.
	 */
	__u64 notify_ns;
	__u64 period_ns;	/* current period, 0 = stopped */
	/* ticks missed by the timer itself: sum of hrtimer_forward() - 1 */
	__u64 overruns;
	__u64 suppressed;	/* ticks not signalled (irqcontrol 0) */
	__u64 ticks;		/* timer expiries handled */
};

#ifndef __KERNEL__
/*
 * Copy a consistent snapshot of @page into @out. Returns 0, or -1 if the
 * page does not carry the expected magic/version.
 */
static inline int
uio_ticker_snapshot(const volatile struct uio_ticker_page *page,
		    struct uio_ticker_page *out)
{
	__u32 s;

	for (;;) {
		s = __atomic_load_n(&page->seq, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		out->magic = page->magic;
		out->version = page->version;
		out->enabled = page->enabled;
		out->event = page->event;
		out->expires_ns = page->expires_ns;
		out->handler_ns = page->handler_ns;
		out->notify_ns = page->notify_ns;
		out->period_ns = page->period_ns;
		out->overruns = page->overruns;
		out->suppressed = page->suppressed;
		out->ticks = page->ticks;
		/* order the copy before the re-read of seq */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&page->seq, __ATOMIC_RELAXED) == s)
			break;
	}
	out->seq = s;

	return (out->magic == UIO_TICKER_MAGIC &&
		out->version == UIO_TICKER_VERSION) ? 0 : -1;
}
#endif /* !__KERNEL__ */

#endif /* _UAPI_UDRV_UIO_TICKER_H */
