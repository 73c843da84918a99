/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench-peer (rig/bench/peers/), the libgpiod 2.3 side of the benches:
 * where it is, and running it as a child of the bench at the bench's own
 * scheduling (tool.c's process helpers), its output read by the one strict
 * reader of peer_parse.h.
 */
#ifndef UDRV_BENCH_PEER_H
#define UDRV_BENCH_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "peer_parse.h"
#include "tool.h"

#define BENCH_PEER_NAME		"udrv-bench-peer"
#define BENCH_PEER_LIBEXEC	"/usr/libexec/udrv/udrv-bench-peer"
#define BENCH_PEER_ENV		"UDRV_BENCH_PEER"
#define BENCH_PEER_IMPL		"libgpiod-2.3"	/* the rows' implementation */
#define BENCH_PEER_MAJOR	2
#define BENCH_PEER_MINOR	3
/* the note when it is absent: why, and how to get the rows */
#define BENCH_PEER_ABSENT \
	"no udrv-bench-peer (libgpiod 2.3): not in $UDRV_BENCH_PEER, peers/ beside udrv-bench's executable or " \
	BENCH_PEER_LIBEXEC "; get it with scripts/fetch-peers and a meson build (it is not installed)"

/* udrv-bench-dbus (rig/bench/peers/): the io.gpiod1 brokers' rows (udrvd, gpio-manager) */
#define BENCH_DBUS_NAME		"udrv-bench-dbus"
#define BENCH_DBUS_LIBEXEC	"/usr/libexec/udrv/udrv-bench-dbus"
#define BENCH_DBUS_ENV		"UDRV_BENCH_DBUS"
#define BENCH_DBUS_ABSENT \
	"no udrv-bench-dbus: not in $UDRV_BENCH_DBUS, peers/ beside udrv-bench's executable or " \
	BENCH_DBUS_LIBEXEC "; a meson build with libsystemd-dev makes it (not the static builds)"

/* udrv-bench-lgpio (rig/bench/peers/): lgpio's software PWM, the lgpio rows of pwm */
#define BENCH_LGPIO_NAME	"udrv-bench-lgpio"
#define BENCH_LGPIO_LIBEXEC	"/usr/libexec/udrv/udrv-bench-lgpio"
#define BENCH_LGPIO_ENV		"UDRV_BENCH_LGPIO"
#define BENCH_LGPIO_ABSENT \
	"no udrv-bench-lgpio (lgpio 0.2.2.0): not in $UDRV_BENCH_LGPIO, peers/ beside udrv-bench's executable or " \
	BENCH_LGPIO_LIBEXEC "; get it with scripts/fetch-peers and a meson build (it is not installed)"

/* A peer program: where to find it, and what it is. */
struct bench_peer_prog {
	const char *name;	/* its file name, in messages too */
	const char *libexec;	/* its installed path */
	const char *env;	/* the variable that names it instead */
	const char *absent;	/* the note when it is not found */
	bool gpiod;		/* it prints "libgpiod MAJOR MINOR" first */
};
extern const struct bench_peer_prog bench_peer_gpiod, bench_peer_dbus, bench_peer_lgpio;

/* bench_peer_path() for @prog: $ENV, peers/, then its libexec path. */
int bench_peer_prog_path(const struct bench_peer_prog *prog, char *path, size_t len);

/*
 * The peer's path, in order: $UDRV_BENCH_PEER (when set, it must be there;
 * ignored in secure-execution mode);
 * udrv-bench-peer in peers/ relative to the directory of /proc/self/exe
 * (udrv-bench in a build tree: rig/bench/udrv-bench, rig/bench/peers/);
 * BENCH_PEER_LIBEXEC. 0, or -ENOENT.
 */
int bench_peer_path(char *path, size_t len);

struct bench_peer {
	struct bench_tool tool;
	pid_t pid;
	int to;			/* its stdin, interactive only; else -1 */
	FILE *from;		/* its stdout, interactive only */
};

/*
 * Start `udrv-bench-peer @args...` (@args NULL-terminated, args[0] the
 * command) as a child that runs as the bench does (policy, priority, CPUs;
 * the peer mlockall()s itself when told --mlock). @interactive: its stdin
 * and stdout are pipes (bench_peer_send(), bench_peer_read()); else its
 * output is read at the end (bench_peer_finish()). 0, or -1 with @why.
 */
int bench_peer_start(struct bench_peer *p, const char *const *args,
		     bool interactive, char *why, size_t len);
/* bench_peer_start() of another peer program */
int bench_peer_prog_start(struct bench_peer *p, const struct bench_peer_prog *prog,
			  const char *const *args, bool interactive, char *why, size_t len);
/* Write a command line to an interactive peer; 0 or -1 with @why. */
int bench_peer_send(struct bench_peer *p, char *why, size_t len,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Read an interactive peer's lines up to the line @end and hand them to
 * bench_peer_text() with @keys and @fn. 0, or an error with @why.
 */
int bench_peer_read(struct bench_peer *p, const struct bench_peer_key *keys,
		    size_t nkeys, const char *end,
		    int (*fn)(void *ctx, size_t key, const uint64_t *vals),
		    void *ctx, char *why, size_t len);
/*
 * Read one line from an interactive peer: the key @key with @nvals numbers
 * into @vals. 0, or -1 with @why.
 */
int bench_peer_reply(struct bench_peer *p, const char *key, unsigned int nvals,
		     uint64_t *vals, char *why, size_t len);
/*
 * End the peer: close its stdin (an interactive peer exits on EOF), wait
 * for it (stopped with SIGTERM if the bench is interrupted). With @out
 * (not interactive): its stdout, NUL-terminated, in *@out (free() it).
 * 0 when it exited 0, else -1 with @why.
 */
int bench_peer_finish(struct bench_peer *p, char **out, size_t *outlen,
		      char *why, size_t len);

/*
 * The rest of an interactive peer's output, however long, until it ends
 * its stdout (it exits), in *@out (NUL-terminated, free() it). Call it when
 * everything the peer printed so far has been read (its last line answered
 * a command). 0, or -1 with @why.
 */
int bench_peer_rest(struct bench_peer *p, char **out, size_t *outlen,
		    char *why, size_t len);

/*
 * Stop an interactive peer that runs until SIGTERM (rx): SIGTERM every
 * 10 ms until it answers, then its whole stdout until it ends, in *@out
 * (NUL-terminated, free() it), and its exit (bench_peer_finish()). Call it
 * when everything the peer printed so far has been read. 0 when it exited
 * with 0, else -1 with @why.
 */
int bench_peer_stop(struct bench_peer *p, char **out, size_t *outlen,
		    char *why, size_t len);

/*
 * How the peer runs, the first lines of its toggle and irq output:
 * "libgpiod MAJOR MINOR", "sched POLICY PRIO", "affinity MASK",
 * "mlocked 0|1". BENCH_PEER_RUN_KEYS of them, first in a key table.
 */
#define BENCH_PEER_RUN_KEYS	4
#define BENCH_PEER_RUN_TABLE \
	{ "libgpiod", 2, BENCH_PEER_REQUIRED }, \
	{ "sched", 2, BENCH_PEER_REQUIRED }, \
	{ "affinity", 1, BENCH_PEER_REQUIRED }, \
	{ "mlocked", 1, BENCH_PEER_REQUIRED }
/*
 * The keys of `udrv-bench-peer rx`'s output (docs/rig/results.md), in its order,
 * for bench_peer_text() with the terminator "end": all required once,
 * "lat" any number of times (BENCH_PEER_RX_LAT is its index).
 */
#define BENCH_PEER_RX_TABLE \
	{ "received", 1, BENCH_PEER_REQUIRED }, \
	{ "reads", 1, BENCH_PEER_REQUIRED }, \
	{ "seqno_first", 1, BENCH_PEER_REQUIRED }, \
	{ "seqno_last", 1, BENCH_PEER_REQUIRED }, \
	{ "cpu_user_ns", 1, BENCH_PEER_REQUIRED }, \
	{ "cpu_sys_ns", 1, BENCH_PEER_REQUIRED }, \
	{ "samples", 1, BENCH_PEER_REQUIRED }, \
	{ "lat", 1, BENCH_PEER_MANY }
#define BENCH_PEER_RX_KEYS	8
#define BENCH_PEER_RX_LAT	7

struct bench_peer_run {
	uint64_t major, minor, policy, prio, affinity, mlocked;
};
/* Store key @key (< BENCH_PEER_RUN_KEYS) of the run lines. */
void bench_peer_run_store(struct bench_peer_run *r, size_t key,
			  const uint64_t *vals);
/*
 * The peer is libgpiod 2.3 and runs as this process does: the same policy,
 * priority and CPUs (the first 64), memory locked when @mlock. 0, or -1
 * with @why naming what differs.
 */
int bench_peer_run_check(const struct bench_peer_run *r, bool mlock,
			 char *why, size_t len);
/* bench_peer_run_check() of @prog (its libgpiod version only when it has one) */
int bench_peer_prog_check(const struct bench_peer_prog *prog, const struct bench_peer_run *r,
			  bool mlock, char *why, size_t len);
/*
 * The first lines of udrv-bench-dbus toggle: "sched", "affinity", "mlocked"
 * (BENCH_DBUS_RUN_KEYS; key k is bench_peer_run_store()'s key k + 1).
 */
#define BENCH_DBUS_RUN_KEYS	3
#define BENCH_DBUS_RUN_TABLE \
	{ "sched", 2, BENCH_PEER_REQUIRED }, \
	{ "affinity", 1, BENCH_PEER_REQUIRED }, \
	{ "mlocked", 1, BENCH_PEER_REQUIRED }

#endif /* UDRV_BENCH_PEER_H */
