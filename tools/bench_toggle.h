/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv bench toggle, shared between bench_toggle.c (options, rows, the edge
 * check, the udrv loops) and bench_toggle_peers.c (the loops it is compared
 * with: bare system calls, libgpiod, a shell).
 */
#ifndef UDRV_BENCH_TOGGLE_H
#define UDRV_BENCH_TOGGLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/udrv.h>

#include "bench.h"

#define TOGGLE_PATH_LEN	256
#define TOGGLE_NOTE_LEN	512

struct toggle {
	struct bench_run run;
	/* options */
	const char *chip_spec;
	unsigned int line;
	uint64_t batch;			/* toggles per timed batch, even */
	bool edges;			/* verify edges on the wired partner */
	/* the line, whichever row holds it */
	struct udrv_chip *chip;
	struct udrv_request *req;	/* udrv rows */
	int fd;				/* raw rows: value file or line fd */
	void *gpiod_chip, *gpiod_line;	/* libgpiod row */
	char value_path[TOGGLE_PATH_LEN];	/* sysfs value file */
	char export_num[16];		/* unexport this when done, or "" */
	pid_t shell_pid;
	int shell_cmd, shell_ack;	/* pipes to / from the shell */
	/* the edge check: events on the partner line */
	struct udrv_request *watch;
	unsigned int partner;
	uint64_t received, lost0;
	/* for the table: what is missing and why */
	char notes[TOGGLE_NOTE_LEN];
};

/* One implementation: claim the line, toggle it @n times (n even, ends
 * low), let it go. Errors are printed; return 0 or -1. */
struct toggle_impl {
	const char *mechanism;
	const char *implementation;
	int (*open)(struct toggle *t);
	int (*batch)(struct toggle *t, uint64_t n);
	void (*close)(struct toggle *t);
	const char *note;
};

/* bench_toggle_peers.c */
extern const struct toggle_impl toggle_sysfs_shell, toggle_sysfs_raw,
	toggle_cdev_raw, toggle_cdev_libgpiod;
/* Export the line through sysfs (unless exported already) as a low output
 * and find its value file; toggle_sysfs_unexport() undoes it. */
int toggle_sysfs_export(struct toggle *t);
void toggle_sysfs_unexport(struct toggle *t);
/* "" when libgpiod is built in, else why not. */
const char *toggle_libgpiod_absent(void);
const char *toggle_libgpiod_version(void);

#endif /* UDRV_BENCH_TOGGLE_H */
