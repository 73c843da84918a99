/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A responder: wait for an edge on an input line of a request, answer in a
 * callback (write an output line, or anything). udrv_responder_run() sets
 * up the scheduling the way round that does not invert priorities: the
 * threads the wake-up goes through (the line's irq thread, "irq/N-consumer")
 * are raised above the calling thread before the calling thread goes to its
 * own SCHED_FIFO priority, and every setting is put back when it returns.
 * Since libudrv 1.5.
 */
#ifndef UDRV_RESPONDER_H
#define UDRV_RESPONDER_H

#include <stddef.h>
#include <stdint.h>
#include <udrv/line.h>
#include <udrv/rt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_responder;

enum udrv_respond_wait {
	/* a blocking read() of the line's edge events (character device
	 * backend, the line requested with edge detection) */
	UDRV_RESPOND_READ = 0,
	/* read the line's level in a loop (any backend): see busy_spin_us */
	UDRV_RESPOND_BUSY,
	/*
	 * libudrv 1.5's wait through udrv-irq, whose helper watched a line
	 * the request held without holding it itself: refused since the
	 * helper's interface 2 (-EINVAL, the message says to use
	 * UDRV_RESPOND_IRQ_LINE), so that a 1.5 program fails clearly
	 * rather than watching the line its index names as an offset.
	 */
	UDRV_RESPOND_IRQ,
	/*
	 * a blocking read() of the toolkit's kernel helper udrv-irq
	 * (/dev/udrv-irq, package udrv-irq-dkms): its handler takes the
	 * line's interrupt in hard irq context, also on PREEMPT_RT, and wakes
	 * the responder directly, with no interrupt thread on the way (none
	 * to raise). The input line is the helper's, not the request's: the
	 * config's @in is its offset on the request's chip, and the request
	 * must not hold it (it holds the lines the callback drives). For
	 * each run the helper requests the line as an input with both edges
	 * (consumer "udrv-irq[PID]") and gives it back when the run ends; a
	 * line someone else holds (another process, udrvd, a kernel driver)
	 * is refused, -EBUSY naming the holder. Each event's edge is the
	 * raw level the helper read (no active-low); its index is
	 * 0xffffffff (the line is in no request). A helper of another
	 * version: -EPROTONOSUPPORT saying which udrv-irq-dkms to install.
	 * The chip going away while it waits: -ENODEV. New after
	 * libudrv 1.6.0, with the helper's interface 2.
	 */
	UDRV_RESPOND_IRQ_LINE,
};

/* the reply lines of a responder through udrv-irq, at most (since 1.10) */
#define UDRV_RESPOND_REPLIES_MAX	8

/* udrv_responder_config.flags */
#define UDRV_RESPOND_LOCK_MEMORY	(1u << 0)	/* mlockall(), stack prefaulted */
#define UDRV_RESPOND_PIN_CPU		(1u << 1)	/* pin the calling thread to .cpu */
#define UDRV_RESPOND_DMA_LATENCY	(1u << 2)	/* hold .dma_latency_us */

/*
 * Zeroed memory is a plain responder: a blocking read of line 0's edges at
 * SCHED_OTHER, nothing else touched. Every field is 32 bits, no padding.
 */
struct udrv_responder_config {
	/* index of the input line in the request; UDRV_RESPOND_IRQ_LINE: the
	 * input line's offset on the request's chip (the helper's line) */
	unsigned int in;
	enum udrv_respond_wait wait;
	/* the calling thread's SCHED_FIFO priority while it responds, 1..99;
	 * 0: SCHED_OTHER */
	int priority;
	/* the wake threads' SCHED_FIFO priority, above @priority; 0: priority
	 * + 1 on PREEMPT_RT, elsewhere (or with priority 0) the threads are
	 * left as they are. A thread already at or above it is left as it
	 * is: never lowered. */
	int irq_priority;
	unsigned int flags;		/* UDRV_RESPOND_* */
	int cpu;			/* with UDRV_RESPOND_PIN_CPU */
	int32_t dma_latency_us;		/* with UDRV_RESPOND_DMA_LATENCY, >= 0 */
	/* with UDRV_RESPOND_LOCK_MEMORY: bytes of stack to prefault, at most
	 * 512 KiB; 0: 512 KiB */
	uint32_t prefault_stack;
	/*
	 * UDRV_RESPOND_BUSY only. The loop reads the level for @busy_spin_us
	 * (0: 1000 us) with the thread's signals blocked, then pauses for
	 * @busy_pause_us in ppoll() with them unblocked (0: no sleep, only
	 * the signals taken): a signal ends the loop within one spin. With
	 * no pause a SCHED_FIFO thread holds its CPU for as long as the
	 * kernel's RT throttling lets it: pin it to a CPU of its own.
	 */
	uint32_t busy_spin_us;
	uint32_t busy_pause_us;
	/*
	 * Since 1.10, UDRV_RESPOND_IRQ_LINE only: output lines the helper
	 * holds for the callback's reply, @replies[0..@num_replies) their
	 * offsets on the request's chip (as @in; the request must not hold
	 * them), reply line i first at the raw level of bit i of
	 * @reply_high. The callback sets their levels with
	 * udrv_responder_reply(), and the helper writes them when the
	 * callback returns, in the system call that then waits for the next
	 * edge: written as a kernel driver writes a line, and one call an
	 * edge instead of two. 0 (a config of 1.5): none, the callback
	 * writes through its request. A helper from before replies
	 * (udrv-irq-dkms older than this libudrv): -EOPNOTSUPP saying so.
	 */
	uint32_t num_replies;
	uint32_t reply_high;
	uint32_t replies[UDRV_RESPOND_REPLIES_MAX];
};

/*
 * What the responder calls for each edge of the input line (events of the
 * request's other lines are read and dropped). UDRV_RESPOND_BUSY: @ev has
 * the new level as its edge (RISING: now 1, FALLING: now 0, logical), the
 * CLOCK_MONOTONIC time it was seen, the line's offset and index, and
 * seqno/line_seqno counting the edges seen; and after each spin without an
 * edge @fn is called with @ev NULL, a chance to stop (a flag a signal
 * handler set: a signal that went to another thread ends no pause).
 * Return 0 to go on, > 0 to stop (run returns 0), < 0 to stop with that
 * error (run returns it).
 */
typedef int (*udrv_respond_fn)(struct udrv_request *req,
			       const struct udrv_edge_event *ev, void *data);

/*
 * Check @cfg against @req and make a responder of it (nothing is changed
 * yet): -EINVAL for a bad index or setting, and for an @irq_priority not
 * above @priority (an inversion); -EOPNOTSUPP for UDRV_RESPOND_READ on a
 * request without a character device. On an error
 * udrv_request_errmsg(@req) says what and how to fix it. The responder
 * uses @req, which must outlive it.
 */
int udrv_responder_new_sz(struct udrv_request *req,
			  const struct udrv_responder_config *cfg,
			  size_t cfg_size, struct udrv_responder **out);
#define udrv_responder_new(req, cfg, out)				\
	udrv_responder_new_sz(req, cfg,					\
			      sizeof(struct udrv_responder_config), out)
/*
 * A responder whose lines are all the kernel helper's (since 1.10): the
 * input and the reply lines of a UDRV_RESPOND_IRQ_LINE config on @chip,
 * no request (the kernel has none of no line). Any other wait: -EINVAL.
 * The callback gets a NULL request: it answers with
 * udrv_responder_reply(). On an error udrv_chip_errmsg(@chip) says what.
 * The responder keeps the chip's name, not @chip.
 */
int udrv_responder_new_chip_sz(struct udrv_chip *chip,
			       const struct udrv_responder_config *cfg,
			       size_t cfg_size, struct udrv_responder **out);
#define udrv_responder_new_chip(chip, cfg, out)				\
	udrv_responder_new_chip_sz(chip, cfg,				\
				   sizeof(struct udrv_responder_config), out)
/* Puts back what a run left set (a run left by longjmp, a thread
 * cancelled in the callback); NULL is allowed. */
void udrv_responder_free(struct udrv_responder *r);
const char *udrv_responder_errmsg(const struct udrv_responder *r);

/*
 * Respond until @fn stops it: raise the wake threads, set the calling
 * thread's scheduling, CPU, memory lock and DMA latency, then wait and
 * call @fn for each edge. Every setting is put back before it returns: 0
 * (@fn returned > 0), @fn's negative value, -EINTR (a signal: for READ one
 * whose handler was installed without SA_RESTART and came during the
 * wait), or another negative errno with udrv_responder_errmsg() saying
 * what failed.
 */
int udrv_responder_run(struct udrv_responder *r, udrv_respond_fn fn,
		       void *data);

/*
 * From the callback of a run with reply lines (num_replies): reply line i
 * (bit i of @mask) goes to the raw level of bit i of @values when the
 * callback returns, in the call that waits for the next edge (or, when the
 * callback stops the run, before the run returns). Calls add up; a later
 * level of a line wins. 0, or -EINVAL (a bit past num_replies, or a
 * responder without reply lines) with udrv_responder_errmsg() saying so.
 * Since 1.10.
 */
int udrv_responder_reply(struct udrv_responder *r, uint32_t mask, uint32_t values);

/*
 * The wake threads found by the last run, up to @max into @t, with their
 * scheduling as read back from /proc: raised while it runs (from @fn),
 * put back after. Returns how many there are; 0 for UDRV_RESPOND_BUSY or
 * a line whose wake-up goes through no thread.
 */
int udrv_responder_threads_sz(const struct udrv_responder *r,
			      struct udrv_rt_thread *t, size_t max,
			      size_t thread_size);
#define udrv_responder_threads(r, t, max)				\
	udrv_responder_threads_sz(r, t, max, sizeof(struct udrv_rt_thread))

#ifdef __cplusplus
}
#endif

#endif /* UDRV_RESPONDER_H */
