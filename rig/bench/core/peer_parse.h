/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one reader of what the bench's peer (udrv-bench-peer, rig/bench/peers/)
 * prints, and of the commands the peer reads: lines "key N N ...", a key of
 * [a-z_] and up to BENCH_PEER_MAX_VALS unsigned decimal numbers, each after
 * one space, read by bench_read_u64s() (fields.h: digits only, through
 * udrv_parse_u64()); no other spaces, no empty line.
 * A whole output is a sequence of such lines from a table of known keys,
 * ended by a terminator line ("end", "ready"); an unknown key, a number
 * missing or extra, a key given twice that may appear only once, a required
 * key absent, no terminator, or anything after it, is an error.
 */
#ifndef UDRV_BENCH_PEER_PARSE_H
#define UDRV_BENCH_PEER_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_PEER_MAX_VALS	4
#define BENCH_PEER_KEY_LEN	24

enum {
	BENCH_PEER_REQUIRED = 1,	/* must appear */
	BENCH_PEER_MANY = 2,		/* may appear any number of times */
};

struct bench_peer_key {
	const char *name;
	unsigned int nvals;		/* exactly this many numbers */
	unsigned int flags;
};

/*
 * One line of @len bytes (no newline): its key into @key, its numbers into
 * @vals (at most @max), their count into *@n. 0, or -EINVAL.
 */
int bench_peer_line(const char *line, size_t len, char *key, size_t keylen,
		    uint64_t *vals, unsigned int max, unsigned int *n);

/*
 * A whole text (@len bytes, every line ended by '\n'): each line's key must
 * be one of @keys, with its number of values; @fn gets the key's index and
 * the values, in order (a non-zero return stops the reading and is
 * returned). The line @end ends the text; nothing may follow it. 0, the
 * callback's error, or -EINVAL with @why saying which line and what.
 */
int bench_peer_text(const char *text, size_t len,
		    const struct bench_peer_key *keys, size_t nkeys,
		    const char *end,
		    int (*fn)(void *ctx, size_t key, const uint64_t *vals),
		    void *ctx, char *why, size_t whylen);

/*
 * The peers' side (udrv-bench-peer, udrv-bench-dbus): print how this process
 * runs, "sched POLICY PRIO", "affinity MASK" (the first 64 CPUs) and
 * "mlocked @locked", for the bench to compare with its own.
 */
void bench_peer_print_sched(int locked);

/*
 * Run this thread as a generator of 'udrv-bench pwm' is told to, whatever
 * it inherited from the bench (SCHED_FIFO 80, one CPU, locked memory):
 * SCHED_FIFO @prio, or SCHED_OTHER (nice 0) when @prio is 0; on CPU @cpu,
 * or on every CPU when @cpu is negative; memory locked (mlockall() now and
 * future) or not (munlockall()). A thread it creates after this inherits
 * the policy and the CPUs (pthread_create()'s default). 0, or -1 with @why.
 */
int bench_peer_set_sched(int prio, int cpu, bool mlock, char *why, size_t len);

#endif /* UDRV_BENCH_PEER_PARSE_H */
