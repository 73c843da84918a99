/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpio-wire: what its two files share (gpio-wire-core.c: the chip, its
 * interrupts and counts; gpio-wire-gen.c: the generator).
 */
#ifndef GPIO_WIRE_H
#define GPIO_WIRE_H

#include <linux/bitmap.h>
#include <linux/gpio/driver.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#define GPIO_WIRE_MAX_LINES	64

struct gpio_wire {
	struct gpio_chip gc;
	struct irq_work work;
	raw_spinlock_t lock;		/* protects everything below */
	bool dead;			/* no more edges are queued */
	DECLARE_BITMAP(latch, GPIO_WIRE_MAX_LINES);	/* output register */
	DECLARE_BITMAP(wire, GPIO_WIRE_MAX_LINES);	/* level on the wire */
	DECLARE_BITMAP(is_out, GPIO_WIRE_MAX_LINES);
	DECLARE_BITMAP(unmasked, GPIO_WIRE_MAX_LINES);
	unsigned int type[GPIO_WIRE_MAX_LINES];	/* IRQ_TYPE_EDGE_* */
	unsigned int pending[GPIO_WIRE_MAX_LINES];	/* latched edges */
	u64 driven[GPIO_WIRE_MAX_LINES];	/* level changes on the wire */
	u64 dropped[GPIO_WIRE_MAX_LINES];	/* by drop_every, counted */
	unsigned int drop_seq;		/* edges that raised or were dropped */
	unsigned int stuck_seq;		/* level-changing writes, for stuck_every */
	/* the generator (gen_* attributes): toggles input gen_line's wire */
	struct hrtimer gen_timer;
	struct mutex gen_cfg;		/* serialises gen_* writes */
	unsigned int gen_line;
	u64 gen_period_ns;		/* 0: stopped */
	u64 gen_limit;			/* edges per start, then it stops; 0: none */
	u64 gen_run;			/* edges made since the start */
	u64 gen_edges;			/* edges made, drop_every's included */
	u64 gen_masked;			/* made while the irq was masked */
	u64 gen_overruns;		/* periods missed: hrtimer_forward - 1 */
};

static inline bool gpio_wire_is_input_only(unsigned int offset)
{
	return offset & 1;
}

/* Latch an edge for input @in at @level if it raises one; lock held. */
bool gpio_wire_latch_edge(struct gpio_wire *w, unsigned int in, int level);

/* the generator (gpio-wire-gen.c) */
void gpio_wire_gen_init(struct gpio_wire *w);
void gpio_wire_gen_stop(struct gpio_wire *w);
extern const struct attribute_group gpio_wire_gen_group;

#endif /* GPIO_WIRE_H */
