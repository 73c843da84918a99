/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * QEMU's edu device (PCI 1234:11e8) as an interrupt source, shared by
 * 'udrv-bench uio' (edu on uio_pci_generic) and 'udrv-bench pci' (UIO INTx,
 * VFIO INTx, VFIO MSI): the raise-register write -> wake-up measurement,
 * its re-arm, the loss accounting of a loop and the per-wait watchdog.
 *
 * One interrupt: t0, write the raise register (0x60), wait, t1
 * (write_to_wake = t1 - t0); check the interrupt status holds what was
 * raised, then time the re-arm: acknowledge (0x64) and the path's unmask
 * (none for MSI).
 */
#ifndef UDRV_BENCH_EDU_H
#define UDRV_BENCH_EDU_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <udrv/mmio.h>

#include "bench.h"

#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8
#define EDU_IRQ_STATUS		0x24
#define EDU_IRQ_RAISE		0x60
#define EDU_IRQ_ACK		0x64
#define EDU_WATCHDOG_S		2	/* per wait */

/* The loss of one loop: sent = received + lost. */
struct bench_loss {
	uint64_t sent, received, lost;
};

void bench_loss_set(struct bench_row *row, const struct bench_loss *l);
/* EXIT_OK, or the failure said when sent != received + lost. */
int bench_loss_check(const char *what, const struct bench_loss *l);

/*
 * The watchdog: SIGALRM (no SA_RESTART) interrupts a wait that got no
 * interrupt within alarm()'s seconds, so a lost interrupt ends the bench
 * with an error, never a hang.
 */
void bench_watchdog_start(struct sigaction *old);
void bench_watchdog_stop(const struct sigaction *old);
/*
 * The exit code of a wait that returned @ret: -EINTR after SIGINT/SIGTERM
 * (bench_end says so), -EINTR from the watchdog (no interrupt within
 * EDU_WATCHDOG_S), else @errmsg.
 */
int bench_wait_failed(int ret, const char *what, const char *errmsg);

/* How one interrupt path waits and re-arms; @ctx is the path's own. */
struct edu_path {
	const char *what;		/* for messages: "edu", "vfio-msi" */
	struct udrv_mmio regs;		/* BAR 0 */
	int (*wait)(void *ctx);		/* one interrupt: EXIT_OK or said */
	int (*unmask)(void *ctx);	/* after the ack; NULL: none */
	uint64_t (*missed)(void *ctx);	/* the counter's gaps so far */
	void *ctx;
};

/*
 * Undo what a previous user left (a bench killed between raise and re-arm):
 * acknowledge what is raised, or the first status check sees it, and
 * unmask INTx, which uio_pci_generic's handler left masked in the command
 * register (vfio-pci clears that itself when it takes the device): the
 * first wait would get nothing. EXIT_OK or said.
 */
int edu_clear(const struct edu_path *p);
/*
 * One interrupt of @value: raise, wait, check the status, ack + unmask.
 * @wake NULL: nothing recorded (the warm-up); @rearm NULL: the re-arm not
 * recorded (the raw rows of 'bench pci').
 */
int edu_irq(const struct edu_path *p, uint32_t value, struct bench_row *wake,
	    struct bench_row *rearm);
/*
 * The loop after the warm-up: --samples (or @dflt) interrupts, each raise
 * counted as sent, each wait that returned as received, the path's counter
 * gaps as lost; the loss set on @wake and checked.
 */
int edu_loop(struct bench_run *run, const struct edu_path *p,
	     struct bench_row *wake, struct bench_row *rearm, uint64_t dflt);

/* Whether the PCI device at sysfs directory @dir is an edu (1234:11e8). */
bool edu_is_edu(const char *dir);

/* edu on uio_pci_generic */
struct udrv_uio;
struct udrv_region;
struct edu_uio {
	struct udrv_uio *uio;
	struct udrv_region *bar;
	struct edu_path path;
};

/* Open UIO device @dev ("uio0") and map BAR 0: EXIT_OK or said. */
int edu_uio_open(struct edu_uio *e, const char *dev);
void edu_uio_close(struct edu_uio *e);
/* The irq thread of its INTx (PREEMPT_RT; none on a standard kernel). */
int edu_uio_wake_threads(struct bench_run *run, struct edu_uio *e);

#endif /* UDRV_BENCH_EDU_H */
