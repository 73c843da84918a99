// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel threads an application waits for: irq threads (irq/N-name,
 * the threaded handlers, every handler on PREEMPT_RT) and named kernel
 * threads, with the scheduling they run at; and the Linux interrupt number
 * behind a requested GPIO line. Everything is read under the sysroot
 * (/proc, /sys/kernel/irq), so the unit tests can fake a system.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/parse.h>
#include <udrv/rt.h>

#include "abi.h"
#include "internal.h"

#define STAT_FLAGS		9	/* fields of /proc/PID/stat, from 1 */
#define STAT_STARTTIME		22
#define STAT_RT_PRIORITY	40
#define STAT_POLICY		41
#define PF_KTHREAD		0x00200000	/* a kernel thread (linux/sched.h) */

bool udrv_proc_stat_field(const char *stat, int n, long *value)
{
	const char *p = strrchr(stat, ')');
	char num[24];
	int64_t v;
	size_t len;
	int field = 2;

	if (!p)
		return false;
	p++;
	while (field < n) {
		while (*p == ' ')
			p++;
		if (!*p)
			return false;
		if (++field < n)
			p += strcspn(p, " ");
	}
	len = strcspn(p, " \n");
	if (!len || len >= sizeof(num))
		return false;
	memcpy(num, p, len);
	num[len] = '\0';
	if (udrv_parse_s64(num, LONG_MIN, LONG_MAX, &v))
		return false;
	*value = (long)v;
	return true;
}

/* Sysroot + /proc/@pid/@file into @buf; length or -errno. */
static int proc_read(const char *pid, const char *file, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];
	int ret;

	buf[0] = '\0';
	ret = udrv_path(path, sizeof(path), "/proc/%s/%s", pid, file);
	return ret < 0 ? ret : udrv_read_str(path, buf, len);
}

/* @pid's name, policy and priority (-1 when its stat is unreadable);
 * false if it is gone, or not a kernel thread when @kernel_only. */
static bool thread_info(const char *pid, struct udrv_rt_thread *t,
			bool kernel_only)
{
	char stat[1024];
	long policy, prio, flags;
	unsigned int id;
	bool have_stat;

	if (udrv_parse_uint(pid, INT_MAX, &id) ||
	    proc_read(pid, "comm", t->name, sizeof(t->name)) <= 0)
		return false;
	t->pid = (pid_t)id;
	t->policy = -1;
	t->priority = -1;
	have_stat = proc_read(pid, "stat", stat, sizeof(stat)) > 0;
	/* a process may call itself irq/N-name: only the kernel's count (a
	 * thread whose stat is unreadable stays: its priority is unknown) */
	if (kernel_only && have_stat &&
	    udrv_proc_stat_field(stat, STAT_FLAGS, &flags) && !(flags & PF_KTHREAD))
		return false;
	if (!have_stat ||
	    !udrv_proc_stat_field(stat, STAT_POLICY, &policy) ||
	    !udrv_proc_stat_field(stat, STAT_RT_PRIORITY, &prio) ||
	    policy < 0 || policy > INT_MAX || prio < 0 || prio > 99)
		return true;
	t->policy = (int)policy;
	t->priority = (int)prio;
	return true;
}

static int scan_threads(const char *prefix, struct udrv_rt_thread *threads,
			size_t max, size_t thread_size, bool kernel_only)
{
	char path[UDRV_PATH_LEN];
	struct udrv_rt_thread t;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (!prefix || !*prefix || (max && !threads) ||
	    udrv_abi_size(NULL, &udrv_abi_rt_thread, thread_size))
		return -EINVAL;
	if (udrv_path(path, sizeof(path), "/proc") < 0)
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]) ||
		    !thread_info(de->d_name, &t, kernel_only) ||
		    strncmp(t.name, prefix, strlen(prefix)))
			continue;
		if (n < max)
			udrv_abi_out(&udrv_abi_rt_thread,
				     (char *)threads + n * thread_size, &t,
				     thread_size);
		if (n < INT_MAX)
			n++;
	}
	closedir(d);
	return (int)n;
}

int udrv_rt_threads_sz(const char *prefix, struct udrv_rt_thread *threads,
		       size_t max, size_t thread_size)
{
	return scan_threads(prefix, threads, max, thread_size, false);
}

int udrv_rt_kthreads(const char *prefix, struct udrv_rt_thread *threads,
		     size_t max)
{
	return scan_threads(prefix, threads, max, sizeof(*threads), true);
}

int udrv_rt_irq_threads(struct udrv_rt_thread *threads, size_t max)
{
	return udrv_rt_kthreads("irq/", threads, max);
}

bool udrv_rt_thread_read(pid_t pid, struct udrv_rt_thread *t,
			 unsigned long long *start)
{
	char id[16], stat[1024];
	long v;

	snprintf(id, sizeof(id), "%d", (int)pid);
	if (!thread_info(id, t, false))
		return false;
	*start = 0;
	if (proc_read(id, "stat", stat, sizeof(stat)) > 0 &&
	    udrv_proc_stat_field(stat, STAT_STARTTIME, &v) && v > 0)
		*start = (unsigned long long)v;
	return true;
}

/* Does the comma-separated action list @actions hold @name? */
static bool has_action(const char *actions, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = actions; *p; p += strcspn(p, ",")) {
		if (*p == ',')
			p++;
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

/* Does interrupt @irq (a /sys/kernel/irq entry) match? */
static bool irq_matches(const char *irq, const char *action,
			unsigned long hwirq)
{
	char path[UDRV_PATH_LEN], buf[256];
	uint64_t hw;

	if (udrv_path(path, sizeof(path), "/sys/kernel/irq/%s/hwirq", irq) < 0 ||
	    udrv_read_u64(path, &hw) || hw != hwirq)
		return false;
	if (udrv_path(path, sizeof(path), "/sys/kernel/irq/%s/actions", irq) < 0 ||
	    udrv_read_str(path, buf, sizeof(buf)) <= 0)
		return false;
	return has_action(buf, action);
}

int udrv_rt_find_irq(const char *action, unsigned long hwirq,
		     unsigned int *irq)
{
	char path[UDRV_PATH_LEN];
	struct dirent *de;
	unsigned int n;
	int found = 0;
	DIR *d;

	if (!action || !*action || !irq)
		return -EINVAL;
	if (udrv_path(path, sizeof(path), "/sys/kernel/irq") < 0)
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (udrv_parse_uint(de->d_name, UINT_MAX, &n) ||
		    !irq_matches(de->d_name, action, hwirq))
			continue;
		if (found++)
			break;
		*irq = n;
	}
	closedir(d);
	if (!found)
		return -ENOENT;
	return found > 1 ? -ENOTUNIQ : 0;
}
