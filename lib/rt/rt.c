// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Real-time setup of the calling thread: scheduling policy and priority,
 * locked and prefaulted memory, CPU affinity, and a PM QoS request on
 * /dev/cpu_dma_latency.
 *
 * On Linux sched_setscheduler(0, ...) and sched_setaffinity(0, ...) act on
 * the calling thread only; mlockall() acts on the whole process.
 *
 * udrv_rt_free() drops the /dev/cpu_dma_latency request (closing the file
 * is what ends it). It does not restore the scheduler, the affinity or the
 * memory lock: the thread keeps running with them, and mlockall() is
 * process-wide, so undoing it could pull the rug from other threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <udrv/rt.h>

#include "abi.h"
#include "internal.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE		6
#endif

/*
 * The largest stack prefault: one fixed local array (no VLA, no alloca), so
 * the calling thread needs this much stack plus a margin (thread stacks are
 * 8 MiB by default; set a smaller pthread stack size at your own risk).
 */
#define STACK_PREFAULT_MAX	(512 * 1024)
#define PREFAULT_STEP		4096

struct udrv_rt {
	char errmsg[UDRV_ERRMSG_LEN];
	bool sched_set;		/* what this handle set */
	int policy;
	int priority;
	bool memory_locked;
	int cpu;		/* -1: not set */
	int dma_fd;		/* /dev/cpu_dma_latency, -1 when not held */
	int32_t dma_us;
};

struct udrv_rt *udrv_rt_new(void)
{
	struct udrv_rt *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->cpu = -1;
	rt->dma_fd = -1;
	rt->dma_us = -1;
	return rt;
}

void udrv_rt_free(struct udrv_rt *rt)
{
	if (!rt)
		return;
	if (rt->dma_fd >= 0)
		close(rt->dma_fd);
	free(rt);
}

const char *udrv_rt_errmsg(const struct udrv_rt *rt)
{
	return rt ? rt->errmsg : "no udrv_rt handle";
}

const char *udrv_rt_policy_str(int policy)
{
	switch (policy & ~SCHED_RESET_ON_FORK) {
	case SCHED_OTHER:
		return "SCHED_OTHER";
	case SCHED_FIFO:
		return "SCHED_FIFO";
	case SCHED_RR:
		return "SCHED_RR";
#ifdef SCHED_BATCH
	case SCHED_BATCH:
		return "SCHED_BATCH";
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE:
		return "SCHED_IDLE";
#endif
	case SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	default:
		return "unknown";
	}
}

static bool policy_supported(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_FIFO ||
	       policy == SCHED_RR;
}

static int sched_eperm(struct udrv_rt *rt, int policy, int priority)
{
	struct rlimit rl = { 0, 0 };
	char lim[32] = "unknown";

	if (getrlimit(RLIMIT_RTPRIO, &rl) == 0) {
		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%llu",
				 (unsigned long long)rl.rlim_cur);
	}
	return udrv_err(rt->errmsg, EPERM,
			"sched_setscheduler(%s, %d): permission denied: needs root, CAP_SYS_NICE (setcap cap_sys_nice+ep on the program) or an RLIMIT_RTPRIO >= %d (now %s; raise it with ulimit -r or an 'rtprio' line in /etc/security/limits.conf); as root, the cgroup may have no RT runtime (cpu.rt_runtime_us)",
			udrv_rt_policy_str(policy), priority, priority, lim);
}

static int sched_einval(struct udrv_rt *rt, int policy, int priority)
{
	if (!policy_supported(policy))
		return udrv_err(rt->errmsg, EINVAL,
				"sched_setscheduler: policy %d is not supported: use SCHED_FIFO, SCHED_RR or SCHED_OTHER",
				policy);
	return udrv_err(rt->errmsg, EINVAL,
			"sched_setscheduler(%s, %d): priority out of range: %s takes %d..%d",
			udrv_rt_policy_str(policy), priority,
			udrv_rt_policy_str(policy),
			sched_get_priority_min(policy),
			sched_get_priority_max(policy));
}

int udrv_rt_set_scheduler(struct udrv_rt *rt, int policy, int priority)
{
	struct sched_param sp = { .sched_priority = priority };
	int err;

	if (!policy_supported(policy) ||
	    priority < sched_get_priority_min(policy) ||
	    priority > sched_get_priority_max(policy))
		return sched_einval(rt, policy, priority);
	if (sched_setscheduler(0, policy, &sp) < 0) {
		err = errno;
		if (err == EPERM)
			return sched_eperm(rt, policy, priority);
		if (err == EINVAL)
			return sched_einval(rt, policy, priority);
		return udrv_err(rt->errmsg, err,
				"sched_setscheduler(%s, %d): %s",
				udrv_rt_policy_str(policy), priority,
				strerror(err));
	}
	rt->sched_set = true;
	rt->policy = policy;
	rt->priority = priority;
	return 0;
}

/* Touch @bytes of fresh stack below the caller so that it is faulted in
 * (and, after mlockall(MCL_FUTURE), locked) before the real-time loop. */
__attribute__((noinline))
static void prefault_stack(size_t bytes)
{
	volatile unsigned char buf[STACK_PREFAULT_MAX];
	size_t i;

	/* from the top (next to the caller's frame) down */
	for (i = 0; i < bytes; i += PREFAULT_STEP)
		buf[STACK_PREFAULT_MAX - 1 - i] = 0;
	(void)buf[STACK_PREFAULT_MAX - 1];	/* a volatile read: a use */
}

static void memlock_limit(char *buf, size_t len)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0)
		snprintf(buf, len, "unknown");
	else if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
}

static int mlock_error(struct udrv_rt *rt, int err)
{
	char lim[32];

	memlock_limit(lim, sizeof(lim));
	if (err == ENOMEM || err == EPERM || err == EAGAIN)
		return udrv_err(rt->errmsg, err,
				"mlockall(MCL_CURRENT|MCL_FUTURE): %s: the process is larger than RLIMIT_MEMLOCK (%s): raise it with ulimit -l unlimited or a 'memlock' line in /etc/security/limits.conf, or run as root / with CAP_IPC_LOCK",
				strerror(err), lim);
	return udrv_err(rt->errmsg, err, "mlockall(MCL_CURRENT|MCL_FUTURE): %s",
			strerror(err));
}

int udrv_rt_lock_memory(struct udrv_rt *rt, size_t stack_bytes)
{
	if (!stack_bytes)
		stack_bytes = STACK_PREFAULT_MAX;
	if (stack_bytes > STACK_PREFAULT_MAX)
		return udrv_err(rt->errmsg, EINVAL,
				"stack prefault of %zu bytes: at most %d KiB is supported; pass 0 for %d KiB (deeper stack pages are still locked as they are first used)",
				stack_bytes, STACK_PREFAULT_MAX / 1024,
				STACK_PREFAULT_MAX / 1024);
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		return mlock_error(rt, errno);
	rt->memory_locked = true;
	prefault_stack(stack_bytes);
	return 0;
}

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int memory_holders;	/* udrv_rt_hold_memory() without release */
static bool memory_ours;		/* locked by a hold: unlocked by the last */

int udrv_rt_hold_memory(struct udrv_rt *rt, size_t stack_bytes)
{
	struct udrv_rt_state st;
	int ret = 0;

	pthread_mutex_lock(&memory_lock);
	if (!memory_holders &&
	    !(udrv_rt_get_state(NULL, &st) == 0 && st.memory_locked)) {
		ret = udrv_rt_lock_memory(rt, stack_bytes);
		memory_ours = !ret;
	}
	if (!ret)
		memory_holders++;
	pthread_mutex_unlock(&memory_lock);
	return ret;
}

void udrv_rt_release_memory(void)
{
	pthread_mutex_lock(&memory_lock);
	if (memory_holders && !--memory_holders && memory_ours) {
		munlockall();
		memory_ours = false;
	}
	pthread_mutex_unlock(&memory_lock);
}

/* "0-3,6,8-9" */
static void format_cpus(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu, last;

	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		for (last = cpu; last + 1 < CPU_SETSIZE &&
		     CPU_ISSET(last + 1, set); last++)
			;
		if (last == cpu)
			used += snprintf(buf + used, len - used, "%s%d",
					 used ? "," : "", cpu);
		else
			used += snprintf(buf + used, len - used, "%s%d-%d",
					 used ? "," : "", cpu, last);
		cpu = last;
	}
}

static int cpu_einval(struct udrv_rt *rt, int cpu)
{
	char cpus[128] = "unknown";
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		format_cpus(&set, cpus, sizeof(cpus));
	return udrv_err(rt->errmsg, EINVAL,
			"sched_setaffinity(CPU %d): that CPU is not available: this thread may run on CPUs %s (others are offline, absent, or outside this cgroup's cpuset)",
			cpu, cpus);
}

int udrv_rt_set_cpu(struct udrv_rt *rt, int cpu)
{
	cpu_set_t set;
	int err;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return cpu_einval(rt, cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		err = errno;
		if (err == EINVAL)
			return cpu_einval(rt, cpu);
		return udrv_err(rt->errmsg, err,
				"sched_setaffinity(CPU %d): %s%s", cpu,
				strerror(err), err == EPERM ?
				": needs CAP_SYS_NICE to change another thread" :
				"");
	}
	rt->cpu = cpu;
	return 0;
}

static int dma_open_error(struct udrv_rt *rt, int err, const char *path)
{
	char hint[256];

	if (err == ENOENT)
		return udrv_err(rt->errmsg, err,
				"%s does not exist: the kernel has no PM QoS (CONFIG_CPU_IDLE / CONFIG_PM); harmless on many boards, which have no deep idle states to keep out of",
				path);
	udrv_access_hint(hint, sizeof(hint), err, path);
	return udrv_err(rt->errmsg, err, "open %s: %s: %s", path,
			strerror(err), hint);
}

int udrv_rt_hold_dma_latency(struct udrv_rt *rt, int32_t us)
{
	char path[UDRV_PATH_LEN];
	ssize_t n;
	int fd = rt->dma_fd;

	if (us < 0)
		return udrv_err(rt->errmsg, EINVAL,
				"cpu_dma_latency: %d us is negative: use 0 (stay out of every idle state with an exit latency) or more",
				(int)us);
	if (udrv_path(path, sizeof(path), "/dev/cpu_dma_latency") < 0)
		return udrv_err(rt->errmsg, ENAMETOOLONG,
				"/dev/cpu_dma_latency: UDRV_SYSROOT is too long");
	if (fd < 0)
		fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return dma_open_error(rt, errno, path);
	/* a new value on the open file updates the same request */
	n = write(fd, &us, sizeof(us));
	if (n != (ssize_t)sizeof(us)) {
		int err = n < 0 ? errno : EIO;

		if (fd != rt->dma_fd)
			close(fd);
		return udrv_err(rt->errmsg, err, "write %d to %s: %s",
				(int)us, path, strerror(err));
	}
	rt->dma_fd = fd;
	rt->dma_us = us;
	return 0;
}

/* "\t   1234 kB\n" (a /proc/self/status value) -> 1234; 0 if malformed */
static uint64_t status_kb(const char *s)
{
	char digits[24];
	uint64_t kb;
	size_t n;

	s += strspn(s, " \t");
	n = strspn(s, "0123456789");
	if (!n || n >= sizeof(digits) || strcmp(s + n, " kB\n"))
		return 0;
	memcpy(digits, s, n);
	digits[n] = '\0';
	return udrv_parse_u64(digits, UINT64_MAX, &kb) ? 0 : kb;
}

/* VmLck in /proc/self/status: some memory of the process is locked. */
static bool vmlck_nonzero(void)
{
	char path[UDRV_PATH_LEN], line[256];
	uint64_t kb = 0;
	FILE *f;

	if (udrv_path(path, sizeof(path), "/proc/self/status") < 0)
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmLck:", 6)) {
			kb = status_kb(line + 6);
			break;
		}
	fclose(f);
	return kb > 0;
}

static int single_cpu(void)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0 ||
	    CPU_COUNT(&set) != 1)
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

int udrv_rt_get_state_sz(const struct udrv_rt *rt, struct udrv_rt_state *out,
			 size_t st_size)
{
	struct sched_param sp = { 0 };
	struct udrv_rt_state state, *st = &state;
	int policy, ret = udrv_abi_size(NULL, &udrv_abi_rt_state, st_size);

	if (ret)
		return ret;
	policy = sched_getscheduler(0);
	st->policy = policy < 0 ? -1 : policy & ~SCHED_RESET_ON_FORK;
	st->priority = sched_getparam(0, &sp) == 0 ? sp.sched_priority : 0;
	st->memory_locked = (rt && rt->memory_locked) || vmlck_nonzero();
	st->cpu = single_cpu();
	st->dma_latency_us = rt && rt->dma_fd >= 0 ? rt->dma_us : -1;
	udrv_abi_out(&udrv_abi_rt_state, out, st, st_size);
	return 0;
}

int udrv_rt_state_write_json_sz(const struct udrv_rt_state *in,
				size_t st_size, struct udrv_json *j)
{
	struct udrv_rt_state state, *st = &state;
	int ret = udrv_abi_in(NULL, &udrv_abi_rt_state, st, in, st_size);

	if (ret)
		return ret;
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "policy", udrv_rt_policy_str(st->policy));
	udrv_json_kint(j, "priority", st->priority);
	udrv_json_kbool(j, "memory_locked", st->memory_locked);
	udrv_json_key(j, "cpu");
	if (st->cpu < 0)
		udrv_json_null(j);
	else
		udrv_json_int(j, st->cpu);
	udrv_json_key(j, "dma_latency_us");
	if (st->dma_latency_us < 0)
		udrv_json_null(j);
	else
		udrv_json_int(j, st->dma_latency_us);
	udrv_json_obj_end(j);
	return 0;
}
