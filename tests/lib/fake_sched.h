/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake scheduler for the threads of the fake /proc (link with
 * -Wl,--wrap=sched_setscheduler,--wrap=sched_getscheduler,
 * --wrap=sched_getparam): a thread made by fake_sched_thread() has its
 * policy and priority in its fake /proc/PID/stat (fields 41 and 40, as the
 * kernel shows them), where libudrv reads them back; a change of them goes
 * there. The calling process itself is scheduled for real. Any other pid
 * is refused (ESRCH): a test never touches a real thread.
 *
 * Every change is checked against the rule the responder keeps: while the
 * calling thread runs at SCHED_FIFO/RR, each thread fake_sched_watch()ed is
 * at SCHED_FIFO/RR above it. A break is counted (fake_sched_inversions) and
 * described (fake_sched_inversion) at the moment it happens.
 */
#ifndef UDRV_TEST_FAKE_SCHED_H
#define UDRV_TEST_FAKE_SCHED_H

#include <stdbool.h>
#include <sys/types.h>

/* A kernel thread @comm with @pid in the fake /proc, started at @start
 * (stat field 22), at @policy/@prio. */
void fake_sched_thread(int pid, const char *comm, int policy, int prio,
		       unsigned long start);
/* What the kernel would do to it: a new policy/priority or start time,
 * written to its stat without a sched_setscheduler(). */
void fake_sched_kernel_sets(int pid, int policy, int prio);
void fake_sched_restart(int pid, unsigned long start);
/* The fake thread's policy and priority, read from its stat. */
bool fake_sched_get(int pid, int *policy, int *prio);
/* Check the rule for @pid from now on. */
void fake_sched_watch(int pid);
/* The next change of @pid fails with @err (0: none). */
void fake_sched_fail(int pid, int err);
extern int fake_sched_inversions;
extern char fake_sched_inversion[256];
/* Can this process use SCHED_FIFO (root, CAP_SYS_NICE, RLIMIT_RTPRIO)? */
bool fake_sched_can_fifo(void);
/* The calling thread's policy and priority, from the kernel. */
void fake_sched_self(int *policy, int *prio);

#endif /* UDRV_TEST_FAKE_SCHED_H */
