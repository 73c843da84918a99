// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the real-time helpers (lib/rt/rt.c). They change the
 * scheduling, affinity and memory locking of the forked test child only.
 * The readiness report has its own file, test_rt_check.c.
 */
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <udrv/rt.h>

#include "harness.h"
#include "rt_common.h"

/* The sanitizers intercept mlockall() as a no-op that always succeeds. */
#ifdef __SANITIZE_ADDRESS__
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

/* Drop a capability from the effective set of this (test child) process. */
static void drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	CHECK(syscall(SYS_capget, &hdr, data) == 0);
	data[cap / 32].effective &= ~(1u << (cap % 32));
	CHECK(syscall(SYS_capset, &hdr, data) == 0);
}

static void write_state(const void *st, struct udrv_json *j)
{
	udrv_rt_state_write_json(st, j);
}

/* ---- rt.c ---- */

static void test_policy_str(void)
{
	CHECK_STR(udrv_rt_policy_str(SCHED_OTHER), "SCHED_OTHER");
	CHECK_STR(udrv_rt_policy_str(SCHED_FIFO), "SCHED_FIFO");
	CHECK_STR(udrv_rt_policy_str(SCHED_RR), "SCHED_RR");
	CHECK_STR(udrv_rt_policy_str(SCHED_BATCH), "SCHED_BATCH");
	CHECK_STR(udrv_rt_policy_str(SCHED_IDLE), "SCHED_IDLE");
	CHECK_STR(udrv_rt_policy_str(6), "SCHED_DEADLINE");
	CHECK_STR(udrv_rt_policy_str(SCHED_FIFO | SCHED_RESET_ON_FORK),
		  "SCHED_FIFO");
	CHECK_STR(udrv_rt_policy_str(42), "unknown");
	CHECK_STR(udrv_rt_policy_str(-1), "unknown");
}

static void test_new_state(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;

	fake_root();
	fake_file("proc/self/status", "Name:\ttest\nVmLck:\t       0 kB\n");
	CHECK(rt != NULL);
	CHECK_STR(udrv_rt_errmsg(rt), "");
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.policy, sched_getscheduler(0) & ~SCHED_RESET_ON_FORK);
	CHECK(!st.memory_locked);
	CHECK_INT(st.dma_latency_us, -1);
	udrv_rt_free(rt);
	udrv_rt_free(NULL);
}

static void test_state_vmlck(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;

	fake_root();
	fake_file("proc/self/status", "Name:\ttest\nVmLck:\t    1024 kB\n");
	udrv_rt_get_state(rt, &st);
	CHECK(st.memory_locked);
	udrv_rt_get_state(NULL, &st);
	CHECK(st.memory_locked);
	CHECK_INT(st.dma_latency_us, -1);
	udrv_rt_free(rt);
}

static void test_scheduler_einval(void)
{
	struct udrv_rt *rt = udrv_rt_new();

	CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_FIFO, 0), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "SCHED_FIFO takes 1..99");
	CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_RR, 100), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "SCHED_RR takes 1..99");
	CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_OTHER, 5), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "SCHED_OTHER takes 0..0");
	CHECK_INT(udrv_rt_set_scheduler(rt, 42, 1), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "policy 42 is not supported");
	udrv_rt_free(rt);
}

static void test_scheduler_eperm(void)
{
	struct udrv_rt *rt = udrv_rt_new();

	CHECK(set_limit(RLIMIT_RTPRIO, 0));
	drop_cap(CAP_SYS_NICE);
	CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_FIFO, 80), -EPERM);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "sched_setscheduler(SCHED_FIFO, 80)");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "CAP_SYS_NICE");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "RLIMIT_RTPRIO >= 80 (now 0");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "ulimit -r");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "limits.conf");
	udrv_rt_free(rt);
}

/* FIFO if this system lets us (root in most containers), else EPERM. */
static void test_scheduler_fifo(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;
	int ret;

	CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_OTHER, 0), 0);
	ret = udrv_rt_set_scheduler(rt, SCHED_FIFO, 10);
	if (ret == 0) {
		udrv_rt_get_state(rt, &st);
		CHECK_INT(st.policy, SCHED_FIFO);
		CHECK_INT(st.priority, 10);
		CHECK_INT(udrv_rt_set_scheduler(rt, SCHED_OTHER, 0), 0);
	} else {
		CHECK_INT(ret, -EPERM);
		CHECK_CONTAINS(udrv_rt_errmsg(rt), "CAP_SYS_NICE");
	}
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.policy, SCHED_OTHER);
	CHECK_INT(st.priority, 0);
	udrv_rt_free(rt);
}

static void test_lock_memory_too_big(void)
{
	struct udrv_rt *rt = udrv_rt_new();

	CHECK_INT(udrv_rt_lock_memory(rt, 1024 * 1024), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "512 KiB");
	udrv_rt_free(rt);
}

static void test_lock_memory_eperm(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	int ret;

	if (UNDER_ASAN) {
		printf("# skipped: mlockall() cannot fail under ASan\n");
		udrv_rt_free(rt);
		return;
	}
	CHECK(set_limit(RLIMIT_MEMLOCK, 0));
	drop_cap(CAP_IPC_LOCK);
	ret = udrv_rt_lock_memory(rt, 0);
	CHECK(ret == -EPERM || ret == -ENOMEM);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "mlockall(MCL_CURRENT|MCL_FUTURE)");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "RLIMIT_MEMLOCK (0 KiB)");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "ulimit -l");
	udrv_rt_free(rt);
}

static void test_lock_memory(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;
	int ret;

	ret = udrv_rt_lock_memory(rt, 64 * 1024);
	if (ret == 0) {
		udrv_rt_get_state(rt, &st);
		CHECK(st.memory_locked);
		CHECK_INT(udrv_rt_lock_memory(rt, 0), 0);
	} else {
		CHECK(ret == -ENOMEM || ret == -EPERM);
		CHECK_CONTAINS(udrv_rt_errmsg(rt), "RLIMIT_MEMLOCK");
	}
	udrv_rt_free(rt);
}

static void test_set_cpu(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;
	cpu_set_t set;
	int cpu;

	CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
		;
	CHECK_INT(udrv_rt_set_cpu(rt, -1), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "may run on CPUs ");
	CHECK_INT(udrv_rt_set_cpu(rt, CPU_SETSIZE - 1), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "CPU 1023");
	CHECK_INT(udrv_rt_set_cpu(rt, CPU_SETSIZE), -EINVAL);
	CHECK_INT(udrv_rt_set_cpu(rt, cpu), 0);
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.cpu, cpu);
	/* the message now names the one CPU left */
	CHECK_INT(udrv_rt_set_cpu(rt, CPU_SETSIZE - 1), -EINVAL);
	{
		char want[32];

		snprintf(want, sizeof(want), "may run on CPUs %d (", cpu);
		CHECK_CONTAINS(udrv_rt_errmsg(rt), want);
	}
	udrv_rt_free(rt);
}

static void test_cpu_list_format(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	cpu_set_t set;
	int n = 0, cpu;

	/* the allowed set as a list: "0-1", "0-3,6"; at least well-formed */
	CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		n += CPU_ISSET(cpu, &set) ? 1 : 0;
	CHECK_INT(udrv_rt_set_cpu(rt, CPU_SETSIZE - 1), -EINVAL);
	if (n > 1 && CPU_ISSET(0, &set) && CPU_ISSET(1, &set))
		CHECK_CONTAINS(udrv_rt_errmsg(rt), "may run on CPUs 0-");
	udrv_rt_free(rt);
}

static long file_size(const char *rel)
{
	char path[512];
	struct stat st;

	fake_path(path, sizeof(path), rel);
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void test_dma_latency(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;
	int32_t v[2] = { -1, -1 };
	char path[512];
	FILE *f;

	fake_root();
	fake_file("dev/cpu_dma_latency", "");
	CHECK_INT(udrv_rt_hold_dma_latency(rt, -5), -EINVAL);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "negative");
	CHECK_INT(udrv_rt_hold_dma_latency(rt, 0), 0);
	CHECK_INT(file_size("dev/cpu_dma_latency"), 4);
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.dma_latency_us, 0);
	/* a new value goes to the same open file */
	CHECK_INT(udrv_rt_hold_dma_latency(rt, 20), 0);
	CHECK_INT(file_size("dev/cpu_dma_latency"), 8);
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.dma_latency_us, 20);
	fake_path(path, sizeof(path), "dev/cpu_dma_latency");
	f = fopen(path, "r");
	CHECK(f && fread(v, sizeof(v[0]), 2, f) == 2);
	if (f)
		fclose(f);
	CHECK_INT(v[0], 0);
	CHECK_INT(v[1], 20);
	udrv_rt_free(rt);
}

static void test_dma_latency_missing(void)
{
	struct udrv_rt *rt = udrv_rt_new();
	struct udrv_rt_state st;

	fake_root();
	CHECK_INT(udrv_rt_hold_dma_latency(rt, 0), -ENOENT);
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "/dev/cpu_dma_latency does not exist");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "CONFIG_CPU_IDLE");
	CHECK_CONTAINS(udrv_rt_errmsg(rt), "harmless");
	udrv_rt_get_state(rt, &st);
	CHECK_INT(st.dma_latency_us, -1);
	udrv_rt_free(rt);
}

static void test_state_json(void)
{
	struct udrv_rt_state st = {
		.policy = SCHED_FIFO, .priority = 80, .memory_locked = true,
		.cpu = 1, .dma_latency_us = 0,
	};
	char *s;

	s = to_json(write_state, &st, false);
	CHECK_STR(s, "{\"policy\":\"SCHED_FIFO\",\"priority\":80,"
		     "\"memory_locked\":true,\"cpu\":1,\"dma_latency_us\":0}\n");
	free(s);
	st = (struct udrv_rt_state){ SCHED_OTHER, 0, false, -1, -1 };
	s = to_json(write_state, &st, false);
	CHECK_STR(s, "{\"policy\":\"SCHED_OTHER\",\"priority\":0,"
		     "\"memory_locked\":false,\"cpu\":null,"
		     "\"dma_latency_us\":null}\n");
	free(s);
}

/* ---- rt_check.c ---- */

/* Fields 3..52 of /proc/PID/stat, with rt_priority (40) and policy (41). */
UDRV_TESTS(
	UDRV_T(test_policy_str),
	UDRV_T(test_new_state),
	UDRV_T(test_state_vmlck),
	UDRV_T(test_scheduler_einval),
	UDRV_T(test_scheduler_eperm),
	UDRV_T(test_scheduler_fifo),
	UDRV_T(test_lock_memory_too_big),
	UDRV_T(test_lock_memory_eperm),
	UDRV_T(test_lock_memory),
	UDRV_T(test_set_cpu),
	UDRV_T(test_cpu_list_format),
	UDRV_T(test_dma_latency),
	UDRV_T(test_dma_latency_missing),
	UDRV_T(test_state_json)
)
