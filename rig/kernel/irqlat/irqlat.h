/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irqlat - what irqlat_main.c (the measurement) and irqlat_sysfs.c (its
 * /sys/kernel/irqlat/ interface) share. Internal to the module.
 */
#ifndef _IRQLAT_H
#define _IRQLAT_H

#include <linux/mutex.h>
#include <linux/types.h>

#define IRQLAT_NAME		"irqlat"
#define IRQLAT_CHIP_LEN		64

/*
 * Histogram buckets (log-linear): 1 us wide below 100 us, 10 us wide below
 * 1 ms, 100 us wide below 10 ms, and one open-ended bucket above.
 */
#define IRQLAT_B1	100	/* [0, 100) us, 1 us each */
#define IRQLAT_B2	90	/* [100, 1000) us, 10 us each */
#define IRQLAT_B3	90	/* [1, 10) ms, 100 us each */
#define IRQLAT_BUCKETS	(IRQLAT_B1 + IRQLAT_B2 + IRQLAT_B3 + 1)

enum irqlat_edge { IRQLAT_RISING, IRQLAT_FALLING, IRQLAT_BOTH };

extern const char *const irqlat_edge_names[];

struct irqlat_cfg {
	char chip[IRQLAT_CHIP_LEN];
	unsigned int out, in, passes, timeout_ms, delay_us;
	enum irqlat_edge edge;
	bool threaded;
};

struct irqlat_result {
	struct irqlat_cfg cfg;
	unsigned int passes, missed, spurious;
	u64 min, max, avg, stddev;
	u64 run;			/* number of this run since load, 1.. */
	unsigned int hist[IRQLAT_BUCKETS];
};

/* The last run: irqlat_res and its samples, under irqlat_res_lock. */
extern struct mutex irqlat_res_lock;
extern struct irqlat_result irqlat_res;
extern u64 *irqlat_samples;		/* irqlat_nsamples of them */
extern unsigned int irqlat_nsamples;
extern bool irqlat_running;		/* READ_ONCE: a run is in progress */

/* irqlat_main.c */
int irqlat_run(unsigned int npasses);
u64 irqlat_bucket_lo(unsigned int b);

/* irqlat_sysfs.c */
int irqlat_sysfs_init(void);
void irqlat_sysfs_exit(void);

#endif /* _IRQLAT_H */
