// SPDX-License-Identifier: GPL-2.0-only
/* A fake scheduler for the fake /proc's threads: see fake_sched.h. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fake_sched.h"
#include "harness.h"

#define PF_KTHREAD	0x00200000
#define MAX_THREADS	16

int __real_sched_setscheduler(pid_t pid, int policy,
			      const struct sched_param *sp);
int __real_sched_getscheduler(pid_t pid);
int __real_sched_getparam(pid_t pid, struct sched_param *sp);
int __wrap_sched_setscheduler(pid_t pid, int policy,
			      const struct sched_param *sp);
int __wrap_sched_getscheduler(pid_t pid);
int __wrap_sched_getparam(pid_t pid, struct sched_param *sp);

struct fake_thread {
	int pid;
	char comm[64];
	int policy, prio;
	unsigned long start;
	bool watched;
	int fail;
};

static struct fake_thread threads[MAX_THREADS];
static size_t nthreads;
int fake_sched_inversions;
char fake_sched_inversion[256];

static struct fake_thread *find(int pid)
{
	for (size_t i = 0; i < nthreads; i++)
		if (threads[i].pid == pid)
			return &threads[i];
	return NULL;
}

/* Fields 3..52 of /proc/PID/stat: flags (9), starttime (22),
 * rt_priority (40), policy (41). */
static void write_stat(const struct fake_thread *t)
{
	char rel[64], line[640];
	int n, f;

	n = snprintf(line, sizeof(line), "%d (%s) S", t->pid, t->comm);
	for (f = 4; f <= 52; f++)
		n += snprintf(line + n, sizeof(line) - n, " %ld",
			      f == 9 ? (long)PF_KTHREAD : f == 22 ? (long)t->start :
			      f == 40 ? (long)t->prio : f == 41 ? (long)t->policy : 0L);
	snprintf(line + n, sizeof(line) - n, "\n");
	snprintf(rel, sizeof(rel), "proc/%d/stat", t->pid);
	fake_file(rel, line);
}

void fake_sched_thread(int pid, const char *comm, int policy, int prio,
		       unsigned long start)
{
	struct fake_thread *t = find(pid);
	char rel[64], line[80];

	if (!t && nthreads < MAX_THREADS)
		t = &threads[nthreads++];
	CHECK(t != NULL);
	if (!t)
		return;
	*t = (struct fake_thread){ .pid = pid, .policy = policy, .prio = prio,
				   .start = start };
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(line, sizeof(line), "%s\n", comm);
	fake_file(rel, line);
	write_stat(t);
}

static bool is_self(pid_t pid)
{
	return pid == 0 || pid == getpid() || pid == gettid();
}

void fake_sched_self(int *policy, int *prio)
{
	struct sched_param sp = { 0 };

	*policy = __real_sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
	*prio = __real_sched_getparam(0, &sp) == 0 ? sp.sched_priority : -1;
}

static bool rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* The rule, after a change by @who. */
static void check_rule(const char *who)
{
	int policy, prio;

	fake_sched_self(&policy, &prio);
	if (!rt(policy))
		return;
	for (size_t i = 0; i < nthreads; i++) {
		const struct fake_thread *t = &threads[i];

		if (!t->watched || (rt(t->policy) && t->prio > prio))
			continue;
		if (!fake_sched_inversions++)
			snprintf(fake_sched_inversion, sizeof(fake_sched_inversion),
				 "after a change of %s: the caller at FIFO %d, %s (pid %d) at policy %d priority %d",
				 who, prio, t->comm, t->pid, t->policy, t->prio);
	}
}

void fake_sched_kernel_sets(int pid, int policy, int prio)
{
	struct fake_thread *t = find(pid);

	CHECK(t != NULL);
	if (!t)
		return;
	t->policy = policy;
	t->prio = prio;
	write_stat(t);
}

void fake_sched_restart(int pid, unsigned long start)
{
	struct fake_thread *t = find(pid);

	CHECK(t != NULL);
	if (!t)
		return;
	t->start = start;
	write_stat(t);
}

bool fake_sched_get(int pid, int *policy, int *prio)
{
	const struct fake_thread *t = find(pid);

	if (!t)
		return false;
	*policy = t->policy;
	*prio = t->prio;
	return true;
}

void fake_sched_watch(int pid)
{
	struct fake_thread *t = find(pid);

	CHECK(t != NULL);
	if (t)
		t->watched = true;
}

void fake_sched_fail(int pid, int err)
{
	struct fake_thread *t = find(pid);

	CHECK(t != NULL);
	if (t)
		t->fail = err;
}

bool fake_sched_can_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 }, zero = { 0 };
	int old = __real_sched_getscheduler(0);

	if (__real_sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		return false;
	__real_sched_setscheduler(0, old, &zero);
	return true;
}

int __wrap_sched_setscheduler(pid_t pid, int policy,
			      const struct sched_param *sp)
{
	struct fake_thread *t;
	int ret;

	if (is_self(pid)) {
		ret = __real_sched_setscheduler(pid, policy, sp);
		if (!ret)
			check_rule("the caller");
		return ret;
	}
	t = find(pid);
	if (!t) {
		errno = ESRCH;
		return -1;
	}
	if (t->fail) {
		errno = t->fail;
		t->fail = 0;
		return -1;
	}
	t->policy = policy & ~SCHED_RESET_ON_FORK;
	t->prio = sp->sched_priority;
	write_stat(t);
	check_rule(t->comm);
	return 0;
}

int __wrap_sched_getscheduler(pid_t pid)
{
	const struct fake_thread *t;

	if (is_self(pid))
		return __real_sched_getscheduler(pid);
	t = find(pid);
	if (!t) {
		errno = ESRCH;
		return -1;
	}
	return t->policy;
}

int __wrap_sched_getparam(pid_t pid, struct sched_param *sp)
{
	const struct fake_thread *t;

	if (is_self(pid))
		return __real_sched_getparam(pid, sp);
	t = find(pid);
	if (!t) {
		errno = ESRCH;
		return -1;
	}
	sp->sched_priority = t->prio;
	return 0;
}
