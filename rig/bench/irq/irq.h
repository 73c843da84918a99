/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench irq inside: what irq.c (the command and udrv's and the raw
 * loops) and irq_peer.c (the libgpiod-2.3 loop in udrv-bench-peer) share.
 */
#ifndef UDRV_BENCH_IRQ_H
#define UDRV_BENCH_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"

#define IRQ_SAMPLES	5000	/* edges per wait method */
#define IRQ_WARMUP	16	/* unrecorded edges before each method */
#define IRQ_WATCHDOG_S	5	/* an edge with no event for this long: fail */

enum irq_wait { IRQ_READ, IRQ_POLL, IRQ_EPOLL, IRQ_BUSY, IRQ_RAW, IRQ_PEER,
		IRQ_NWAIT };

/* One wait method: its rows and its counts. */
struct irq_method {
	enum irq_wait wait;
	struct bench_row *w2i, *i2w, *w2w;	/* w2w only for busy */
	/* sent: edges written, or gpio-wire's own count of the edges it put
	 * on the input's wire; received: events read; lost: what the wire
	 * reports it dropped (lockstep: the kernel can drop nothing) */
	uint64_t sent, received, lost;
	uint64_t left_out;	/* t_write <= t_irq <= t_wake or edge failed */
	uint64_t polls;		/* busy: level reads */
};

struct irq_bench {
	struct bench_run run;
	const char *chip_spec;
	unsigned int out;		/* output line; the input is out + 1 */
	struct udrv_chip *chip;
	struct udrv_request *req;	/* udrv rows: index 0 out, 1 in */
	int raw_fd;			/* raw row: line request fd */
	int epfd;
	int level;			/* what the output drives now */
	uint32_t raw_seqno;
	char wire[160];			/* gpio-wire's counts; "" = none */
	bool has_peer;			/* udrv-bench-peer: libgpiod-2.3 rows */
	char peer_note[400];		/* printed after the table */
	struct irq_method m[IRQ_NWAIT];
};

struct irq_event {
	uint64_t ts;
	bool rising;
	uint32_t lost;
};

/* Record one edge's three samples into @m's rows (or count it left out). */
void irq_record(struct irq_method *m, uint64_t t_write,
		const struct irq_event *ev, uint64_t t_wake, int level);

/* irq_peer.c: find the peer (else b->peer_note says why), run its rows,
 * print udrv's read against it */
void irq_peer_find(struct irq_bench *b);
int irq_peer_run(struct irq_bench *b, struct irq_method *m);
/* Record (and with --irq-prio raise) the irq thread of @consumer's request
 * of the input line, for @impl's rows (NULL: udrv's); 0 or an exit code. */
int irq_wake_for(struct irq_bench *b, const char *consumer, const char *impl);
void irq_versus_peer(struct irq_bench *b);

#endif /* UDRV_BENCH_IRQ_H */
