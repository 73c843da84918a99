/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench toggle, shared between toggle.c (options, rows, the edge
 * check, the udrv loops) and toggle_peers.c (the loops it is compared
 * with: bare system calls, libgpiod, a shell, bare register stores; and the
 * check of each row's effect in the level register).
 */
#ifndef UDRV_BENCH_TOGGLE_H
#define UDRV_BENCH_TOGGLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/udrv.h>

#include "bench.h"
#include "peer.h"

#define TOGGLE_PATH_LEN	256
#define TOGGLE_NOTE_LEN	512

struct toggle {
	struct bench_run run;
	/* options */
	const char *chip_spec;
	unsigned int line;
	uint64_t batch;			/* toggles per timed batch, even */
	bool edges;			/* verify edges on the wired partner */
	const char *udrvd_bus;		/* D-Bus address of udrvd's io.gpiod1 */
	const char *manager_bus;	/* ... of libgpiod's gpio-manager */
	const char *gpiocli;		/* libgpiod's gpiocli: its rows */
	/* the line, whichever row holds it */
	struct udrv_chip *chip;
	struct udrv_request *req;	/* udrv rows */
	int fd;				/* raw rows: value file or line fd */
	struct bench_peer peer;		/* libgpiod-2.3 and broker rows */
	const struct toggle_impl *impl;	/* the row being run */
	char value_path[TOGGLE_PATH_LEN];	/* sysfs value file */
	char export_num[16];		/* unexport this when done, or "" */
	pid_t shell_pid;
	int shell_cmd, shell_ack;	/* pipes to / from the shell */
	/* the edge check: events on the partner line */
	struct udrv_request *watch;
	unsigned int partner;
	uint64_t received, lost0;
	/* the source's counts (gpio-wire's edges attribute), at settle */
	char wire_edges[160];		/* its path; "" = not available */
	struct bench_wire wire0;
	/* registers, where the mmio backend knows the chip's SoC */
	struct udrv_mmio_line_info mmio;
	bool has_mmio;
	void *map;			/* bare mapping of the block */
	size_t map_len;
	volatile uint32_t *set, *clr;	/* mmio/raw row */
	const volatile uint32_t *level;	/* each row's check */
	struct udrv_mmio_pin pin;	/* mmio/udrv-pin row */
	/* for the table: what is missing and why */
	char notes[TOGGLE_NOTE_LEN];
	char mmio_note[TOGGLE_NOTE_LEN];
};

/* One implementation: claim the line, toggle it @n times (n even, ends
 * low), set it to one value (the level check), let it go. Errors are
 * printed; return 0 or -1. */
struct toggle_impl {
	const char *mechanism;
	const char *implementation;
	int (*open)(struct toggle *t);
	int (*batch)(struct toggle *t, uint64_t n);
	/* instead of batch: a loop that times itself (the peer's) */
	int (*timed)(struct toggle *t, uint64_t n, uint64_t *ns);
	int (*set)(struct toggle *t, int value);
	void (*close)(struct toggle *t);
	const char *note;
	unsigned int share;	/* the row toggles 1/share of --samples (0: all) */
	uint64_t max_batch;	/* its batches at most this long (0: --batch) */
	const char *peer_via;	/* io.gpiod1 rows: udrv-bench-dbus --via */
	bool udrvd;		/* io.gpiod1 rows: udrvd's bus, else gpio-manager's */
};

/* toggle_peers.c */
extern const struct toggle_impl toggle_sysfs_shell, toggle_sysfs_raw,
	toggle_cdev_raw, toggle_cdev_libgpiod, toggle_mmio_raw;
/* the io.gpiod1 rows (toggle_dbus.c): udrv-bench-dbus at the bench's prio */
extern const struct toggle_impl toggle_udrvd_fd, toggle_dbus_manager, toggle_dbus_udrvd,
	toggle_gpiocli_manager, toggle_gpiocli_udrvd;
/* whether the io.gpiod1 row @impl runs: NULL; "" when it was not asked
 * for (no note); else why not, for the notes */
const char *toggle_dbus_absent(const struct toggle *t, const struct toggle_impl *impl);
/* the peer rows' loop (toggle_peers.c): "batch N", "set V", end */
int toggle_peer_timed(struct toggle *t, uint64_t n, uint64_t *ns);
int toggle_peer_set(struct toggle *t, int value);
void toggle_peer_close(struct toggle *t);
/* Export the line through sysfs (unless exported already) as a low output
 * and find its value file; toggle_sysfs_unexport() undoes it. */
int toggle_sysfs_export(struct toggle *t);
void toggle_sysfs_unexport(struct toggle *t);
/* "" when udrv-bench-peer is there (bench_peer_path()), else why not. */
const char *toggle_libgpiod_absent(void);
/*
 * The line's registers (udrv_chip_mmio_line_info), mapped bare for the
 * mmio/raw row and the level check; without them t->mmio_note says why.
 */
void toggle_mmio_setup(struct toggle *t);
void toggle_mmio_teardown(struct toggle *t);
/* Set the line to 1, then 0, through @impl and read each back in the
 * level register; a mismatch fails the row. Notes the check in @row. */
int toggle_verify(struct toggle *t, const struct toggle_impl *impl,
		  struct bench_row *row);

#endif /* UDRV_BENCH_TOGGLE_H */
