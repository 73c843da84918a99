// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrv_rt_check(): how ready this system is for real-time work. Everything
 * is read from files under the sysroot (/proc, /sys, /boot), so that the
 * unit tests can fake any kind of system; each topic gives one finding that
 * says what was found and what to do about it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <udrv/rt.h>

#include "abi.h"
#include "internal.h"

#define CAP_IPC_LOCK_BIT	14
#define CAP_SYS_NICE_BIT	23

udrv_printf(4, 5)
static void add_finding(struct udrv_rt_report *r, enum udrv_rt_level level,
			const char *topic, const char *fmt, ...)
{
	struct udrv_rt_finding *f;
	va_list ap;

	if (r->num_findings >= UDRV_RT_MAX_FINDINGS)
		return;
	f = &r->findings[r->num_findings++];
	f->level = level;
	udrv_strlcpy(f->topic, topic, sizeof(f->topic));
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
}

/* Read sysroot + @file into @buf; length or -errno. */
static int read_file(const char *file, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];
	int ret;

	buf[0] = '\0';
	ret = udrv_path(path, sizeof(path), "%s", file);
	if (ret < 0)
		return ret;
	ret = udrv_read_str(path, buf, len);
	if (ret < 0)
		buf[0] = '\0';
	return ret;
}

static int read_long(const char *file, long *value)
{
	char path[UDRV_PATH_LEN];
	int ret;

	ret = udrv_path(path, sizeof(path), "%s", file);
	if (ret < 0)
		return ret;
	return udrv_read_long(path, value);
}

/* The value after "@name:" in /proc/self/status; 0 or -errno. */
static int status_field(const char *name, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN], line[256];
	size_t nlen = strlen(name);
	int ret = -ENOENT;
	char *v;
	FILE *f;

	if (udrv_path(path, sizeof(path), "/proc/self/status") < 0)
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, nlen) || line[nlen] != ':')
			continue;
		for (v = line + nlen + 1; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\n")] = '\0';
		udrv_strlcpy(buf, v, len);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* Whether capability @bit is in CapEff; -errno if that is unknown. */
static int has_cap(int bit)
{
	char buf[64], hex[70];
	uint64_t caps;
	int ret;

	ret = status_field("CapEff", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	/* the kernel prints 16 hex digits without 0x */
	snprintf(hex, sizeof(hex), "0x%s", buf);
	if (udrv_parse_u64(hex, UINT64_MAX, &caps))
		return -EINVAL;
	return (int)((caps >> bit) & 1);
}

static void check_kernel(struct udrv_rt_report *r)
{
	struct utsname u;
	bool have_uts = uname(&u) == 0;

	if (read_file("/proc/sys/kernel/osrelease", r->release,
		      sizeof(r->release)) <= 0 && have_uts)
		udrv_strlcpy(r->release, u.release, sizeof(r->release));
	if (read_file("/proc/sys/kernel/version", r->version,
		      sizeof(r->version)) <= 0 && have_uts)
		udrv_strlcpy(r->version, u.version, sizeof(r->version));
}

/* " PREEMPT" as a word of the version string ("#1 SMP PREEMPT Tue ..."). */
static bool has_word(const char *s, const char *word)
{
	size_t len = strlen(word);
	const char *p = s;

	while ((p = strstr(p, word))) {
		if ((p == s || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return true;
		p += len;
	}
	return false;
}

/* "preempt=full" on the kernel command line -> "full". */
static bool cmdline_preempt(char *mode, size_t len)
{
	char cmdline[4096], *p;

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) <= 0)
		return false;
	for (p = cmdline; (p = strstr(p, "preempt=")); p++) {
		if (p != cmdline && p[-1] != ' ')
			continue;
		p += strlen("preempt=");
		p[strcspn(p, " ")] = '\0';
		udrv_strlcpy(mode, p, len);
		return *mode != '\0';
	}
	return false;
}

/*
 * Active mode of a PREEMPT_DYNAMIC kernel: the entry in parentheses of
 * debugfs sched/preempt ("none voluntary (full)"), else preempt= on the
 * command line.
 */
static bool dynamic_mode(char *mode, size_t len)
{
	char buf[128], *open, *close;

	if (read_file("/sys/kernel/debug/sched/preempt", buf,
		      sizeof(buf)) > 0) {
		open = strchr(buf, '(');
		close = open ? strchr(open, ')') : NULL;
		if (close && close > open + 1) {
			*close = '\0';
			udrv_strlcpy(mode, open + 1, len);
			return true;
		}
	}
	return cmdline_preempt(mode, len);
}

/* NONE or VOLUNTARY from /boot/config-RELEASE; false if unknown. */
static bool config_model(const char *release, char *model, size_t len)
{
	char path[UDRV_PATH_LEN], line[256];
	bool found = false;
	FILE *f;

	if (udrv_path(path, sizeof(path), "/boot/config-%s", release) < 0)
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		found = true;
		if (!strcmp(line, "CONFIG_PREEMPT_NONE=y\n"))
			udrv_strlcpy(model, "NONE", len);
		else if (!strcmp(line, "CONFIG_PREEMPT_VOLUNTARY=y\n"))
			udrv_strlcpy(model, "VOLUNTARY", len);
		else
			found = false;
	}
	fclose(f);
	return found;
}

static void preempt_dynamic(struct udrv_rt_report *r)
{
	char mode[32];

	if (!dynamic_mode(mode, sizeof(mode))) {
		udrv_strlcpy(r->preempt_model, "DYNAMIC",
			     sizeof(r->preempt_model));
		add_finding(r, UDRV_RT_INFO, "preempt",
			    "PREEMPT_DYNAMIC kernel, active mode unknown (read /sys/kernel/debug/sched/preempt as root with debugfs mounted); boot with preempt=full, or use a PREEMPT_RT kernel for tens of µs");
		return;
	}
	snprintf(r->preempt_model, sizeof(r->preempt_model), "DYNAMIC (%.13s)",
		 mode);
	if (!strcmp(mode, "full") || !strcmp(mode, "lazy"))
		add_finding(r, UDRV_RT_INFO, "preempt",
			    "PREEMPT_DYNAMIC kernel in %s mode: fine for latencies around 100 µs; for tens of µs use a PREEMPT_RT kernel (e.g. linux-image-rt-amd64 / -arm64)",
			    mode);
	else
		add_finding(r, UDRV_RT_WARN, "preempt",
			    "PREEMPT_DYNAMIC kernel in %s mode: long kernel paths are not preempted (ms spikes); boot with preempt=full (or echo full > /sys/kernel/debug/sched/preempt), or use a PREEMPT_RT kernel",
			    mode);
}

static void preempt_unmarked(struct udrv_rt_report *r)
{
	char model[16];

	if (config_model(r->release, model, sizeof(model))) {
		udrv_strlcpy(r->preempt_model, model,
			     sizeof(r->preempt_model));
		add_finding(r, UDRV_RT_WARN, "preempt",
			    "%s kernel (no forced preemption): expect ms-scale latency spikes; use a PREEMPT_RT kernel, or at least one built with CONFIG_PREEMPT",
			    model);
		return;
	}
	udrv_strlcpy(r->preempt_model, "unknown", sizeof(r->preempt_model));
	add_finding(r, UDRV_RT_WARN, "preempt",
		    "no preemption marker in uname -v: a NONE or VOLUNTARY kernel (no /boot/config-%.64s to tell which); expect ms-scale latency spikes: use a PREEMPT_RT kernel",
		    r->release);
}

static bool realtime(const char *version)
{
	long rt = 0;

	return (read_long("/sys/kernel/realtime", &rt) == 0 && rt == 1) ||
	       strstr(version, "PREEMPT_RT") || strstr(version, "PREEMPT RT");
}

bool udrv_kernel_realtime(void)
{
	char version[256];

	read_file("/proc/sys/kernel/version", version, sizeof(version));
	return realtime(version);
}

static void check_preempt(struct udrv_rt_report *r)
{
	if (realtime(r->version)) {
		r->realtime = true;
		udrv_strlcpy(r->preempt_model, "PREEMPT_RT",
			     sizeof(r->preempt_model));
		add_finding(r, UDRV_RT_OK, "preempt",
			    "PREEMPT_RT kernel: fully preemptible, threaded interrupts: the right base for bounded latency");
	} else if (strstr(r->version, "PREEMPT_DYNAMIC")) {
		preempt_dynamic(r);
	} else if (has_word(r->version, "PREEMPT")) {
		udrv_strlcpy(r->preempt_model, "PREEMPT",
			     sizeof(r->preempt_model));
		add_finding(r, UDRV_RT_INFO, "preempt",
			    "PREEMPT (low-latency desktop) kernel: fine for latencies around 100 µs; for tens of µs use a PREEMPT_RT kernel");
	} else {
		preempt_unmarked(r);
	}
}

static void check_throttling(struct udrv_rt_report *r)
{
	long runtime, period;

	if (read_long("/proc/sys/kernel/sched_rt_runtime_us", &runtime) ||
	    read_long("/proc/sys/kernel/sched_rt_period_us", &period)) {
		r->rt_runtime_us = 0;
		r->rt_period_us = 0;	/* unknown */
		add_finding(r, UDRV_RT_INFO, "throttling",
			    "could not read /proc/sys/kernel/sched_rt_runtime_us and sched_rt_period_us");
		return;
	}
	r->rt_runtime_us = runtime;
	r->rt_period_us = period;
	if (runtime < 0) {
		add_finding(r, UDRV_RT_OK, "throttling",
			    "RT throttling is off (sched_rt_runtime_us = -1): a busy SCHED_FIFO loop runs uninterrupted, and a runaway one can lock up its CPU");
	} else {
		/* runtime >= 0 here: the difference cannot overflow */
		long gap = period > runtime ? period - runtime : 0;

		add_finding(r, UDRV_RT_INFO, "throttling",
			    "RT tasks are throttled for %ld µs every %ld µs (the gap a busy SCHED_FIFO loop shows each period); echo -1 > /proc/sys/kernel/sched_rt_runtime_us to disable (at the risk of a lockup)",
			    gap, period);
	}
}

static void check_governor(struct udrv_rt_report *r)
{
	if (read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		      r->governor, sizeof(r->governor)) <= 0) {
		add_finding(r, UDRV_RT_INFO, "governor",
			    "no cpufreq: the CPU runs at a fixed frequency, or the firmware / hypervisor controls it (check the BIOS power settings)");
		return;
	}
	if (!strcmp(r->governor, "performance"))
		add_finding(r, UDRV_RT_OK, "governor",
			    "cpufreq governor is performance");
	else
		add_finding(r, UDRV_RT_WARN, "governor",
			    "cpufreq governor is %s: frequency changes add latency; echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor (or cpupower frequency-set -g performance)",
			    r->governor);
}

#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static void check_clocksource(struct udrv_rt_report *r)
{
	const char *cs = r->clocksource;

	if (read_file(CLOCKSOURCE, r->clocksource,
		      sizeof(r->clocksource)) <= 0)
		add_finding(r, UDRV_RT_INFO, "clocksource",
			    "clocksource unknown: /sys/devices/system/clocksource/clocksource0/current_clocksource is not readable");
	else if (!strcmp(cs, "tsc") || !strcmp(cs, "arch_sys_counter"))
		add_finding(r, UDRV_RT_OK, "clocksource",
			    "clocksource %s: clock_gettime() reads it in userspace (vDSO)",
			    cs);
	else if (!strcmp(cs, "jiffies") || !strcmp(cs, "refined-jiffies"))
		add_finding(r, UDRV_RT_WARN, "clocksource",
			    "clocksource %s: time advances in timer ticks (ms); the hardware counter was rejected: check dmesg | grep -i clocksource",
			    cs);
	else
		add_finding(r, UDRV_RT_INFO, "clocksource",
			    "clocksource %s: if available_clocksource lists tsc (x86) or arch_sys_counter (arm64), those are faster to read",
			    cs);
}

static void check_isolation(struct udrv_rt_report *r)
{
	read_file("/sys/devices/system/cpu/isolated", r->isolcpus,
		  sizeof(r->isolcpus));
	read_file("/sys/devices/system/cpu/nohz_full", r->nohz_full,
		  sizeof(r->nohz_full));
	if (!strcmp(r->nohz_full, "(null)"))
		r->nohz_full[0] = '\0';
	if (r->isolcpus[0])
		add_finding(r, UDRV_RT_OK, "isolation",
			    "isolated CPUs %s, nohz_full %s: pin the real-time thread there (udrv_rt_set_cpu)",
			    r->isolcpus,
			    r->nohz_full[0] ? r->nohz_full : "none");
	else
		add_finding(r, UDRV_RT_INFO, "isolation",
			    "no isolated CPUs%s%s: for the least jitter boot with isolcpus=N nohz_full=N rcu_nocbs=N and pin the thread to N (udrv_rt_set_cpu)",
			    r->nohz_full[0] ? ", nohz_full " : "",
			    r->nohz_full);
}

/* Every irq thread's SCHED_FIFO/RR priority into the report's range. */
static void scan_irq_threads(struct udrv_rt_report *r)
{
	struct udrv_rt_thread t[256];
	int n = udrv_rt_irq_threads(t, 256);

	r->irq_threads = n > 0 ? n : 0;
	for (int i = 0; i < n && i < 256; i++) {
		int prio = t[i].priority;

		if (t[i].policy != SCHED_FIFO && t[i].policy != SCHED_RR)
			continue;
		if (!r->irq_thread_prio_max || prio < r->irq_thread_prio_min)
			r->irq_thread_prio_min = prio;
		if (prio > r->irq_thread_prio_max)
			r->irq_thread_prio_max = prio;
	}
}

static void check_irq_threads(struct udrv_rt_report *r)
{
	char prio[32];
	int lo, hi;

	scan_irq_threads(r);
	lo = r->irq_thread_prio_min;
	hi = r->irq_thread_prio_max;
	if (lo == hi)
		snprintf(prio, sizeof(prio), "%d", lo);
	else
		snprintf(prio, sizeof(prio), "%d..%d", lo, hi);
	if (r->irq_threads && hi)
		add_finding(r, UDRV_RT_INFO, "irq_threads",
			    "%d threaded IRQ handlers at SCHED_FIFO %s: a task above %d can starve them and the devices they serve (network, storage, your UIO interrupt); stay below, or raise the ones you need with chrt -f -p PRIO PID",
			    r->irq_threads, prio, lo);
	else if (r->irq_threads)
		add_finding(r, UDRV_RT_INFO, "irq_threads",
			    "%d threaded IRQ handlers (irq/N-name), their priorities unreadable",
			    r->irq_threads);
	else
		add_finding(r, UDRV_RT_INFO, "irq_threads",
			    "no threaded IRQ handlers: interrupts run in hard-IRQ context and cannot be prioritised; boot with threadirqs or use a PREEMPT_RT kernel to make them schedulable");
}

static void check_permissions(struct udrv_rt_report *r)
{
	int nice_cap = has_cap(CAP_SYS_NICE_BIT);
	struct rlimit rl = { 0, 0 };
	char how[48];

	getrlimit(RLIMIT_RTPRIO, &rl);
	if (nice_cap > 0)
		snprintf(how, sizeof(how), "CAP_SYS_NICE");
	else if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(how, sizeof(how), "RLIMIT_RTPRIO unlimited");
	else if (rl.rlim_cur > 0)
		snprintf(how, sizeof(how), "RLIMIT_RTPRIO %llu",
			 (unsigned long long)rl.rlim_cur);
	else if (nice_cap < 0 && geteuid() == 0)
		snprintf(how, sizeof(how), "root");
	else
		how[0] = '\0';
	r->can_rt = how[0] != '\0';
	if (r->can_rt)
		add_finding(r, UDRV_RT_OK, "permissions",
			    "SCHED_FIFO/RR allowed (%s)", how);
	else
		add_finding(r, UDRV_RT_WARN, "permissions",
			    "no permission for SCHED_FIFO/RR: run as root, give the program CAP_SYS_NICE (setcap cap_sys_nice+ep PROGRAM), or add '@realtime - rtprio 95' to /etc/security/limits.conf and log in again");
}

static void check_memlock(struct udrv_rt_report *r)
{
	struct rlimit rl = { 0, 0 };
	int lock_cap = has_cap(CAP_IPC_LOCK_BIT);

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (lock_cap > 0 || (lock_cap < 0 && geteuid() == 0))
		add_finding(r, UDRV_RT_OK, "memlock",
			    "mlockall() allowed without limit (CAP_IPC_LOCK)");
	else if (rl.rlim_cur == RLIM_INFINITY)
		add_finding(r, UDRV_RT_OK, "memlock",
			    "mlockall() allowed (RLIMIT_MEMLOCK unlimited)");
	else
		add_finding(r, rl.rlim_cur ? UDRV_RT_INFO : UDRV_RT_WARN,
			    "memlock",
			    "RLIMIT_MEMLOCK is %llu KiB: mlockall() fails once the process is bigger; raise it with ulimit -l unlimited or '@realtime - memlock unlimited' in /etc/security/limits.conf",
			    (unsigned long long)rl.rlim_cur / 1024);
}

static void rt_check(struct udrv_rt_report *report)
{
	memset(report, 0, sizeof(*report));
	check_kernel(report);
	check_preempt(report);
	check_throttling(report);
	check_governor(report);
	check_clocksource(report);
	check_isolation(report);
	check_irq_threads(report);
	check_permissions(report);
	check_memlock(report);
}

int udrv_rt_check_sz(struct udrv_rt_report *report, size_t report_size)
{
	struct udrv_rt_report *r;

	if (!report || udrv_abi_size(NULL, &udrv_abi_rt_report, report_size))
		return -EINVAL;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	rt_check(r);
	udrv_abi_out(&udrv_abi_rt_report, report, r, report_size);
	free(r);
	return 0;
}

static const char *level_str(enum udrv_rt_level level)
{
	switch (level) {
	case UDRV_RT_OK:
		return "OK";
	case UDRV_RT_INFO:
		return "INFO";
	case UDRV_RT_WARN:
		return "WARN";
	}
	return "?";
}

static void write_findings(const struct udrv_rt_report *r,
			   struct udrv_json *j)
{
	size_t i;

	udrv_json_key(j, "findings");
	udrv_json_arr_begin(j);
	for (i = 0; i < r->num_findings && i < UDRV_RT_MAX_FINDINGS; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "level", level_str(r->findings[i].level));
		udrv_json_kstr(j, "topic", r->findings[i].topic);
		udrv_json_kstr(j, "text", r->findings[i].text);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
}

/* rt_period_us == 0: the throttling settings could not be read (null). */
static void write_throttling(const struct udrv_rt_report *r,
			     struct udrv_json *j)
{
	udrv_json_key(j, "rt_runtime_us");
	if (r->rt_period_us)
		udrv_json_int(j, r->rt_runtime_us);
	else
		udrv_json_null(j);
	udrv_json_key(j, "rt_period_us");
	if (r->rt_period_us)
		udrv_json_int(j, r->rt_period_us);
	else
		udrv_json_null(j);
}

static void report_write_json(const struct udrv_rt_report *r,
			      struct udrv_json *j)
{
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "release", r->release);
	udrv_json_kstr(j, "version", r->version);
	udrv_json_kstr(j, "preempt_model", r->preempt_model);
	udrv_json_kbool(j, "realtime", r->realtime);
	write_throttling(r, j);
	udrv_json_kstr(j, "governor", r->governor);
	udrv_json_kstr(j, "clocksource", r->clocksource);
	udrv_json_kstr(j, "isolcpus", r->isolcpus);
	udrv_json_kstr(j, "nohz_full", r->nohz_full);
	udrv_json_kint(j, "irq_threads", r->irq_threads);
	udrv_json_kint(j, "irq_thread_prio_min", r->irq_thread_prio_min);
	udrv_json_kint(j, "irq_thread_prio_max", r->irq_thread_prio_max);
	udrv_json_kbool(j, "can_rt", r->can_rt);
	write_findings(r, j);
	udrv_json_obj_end(j);
}

int udrv_rt_report_write_json_sz(const struct udrv_rt_report *report,
				 size_t report_size, struct udrv_json *j)
{
	struct udrv_rt_report *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	ret = udrv_abi_in(NULL, &udrv_abi_rt_report, r, report, report_size);
	if (!ret)
		report_write_json(r, j);
	free(r);
	return ret;
}

/* The waited-for threads, by name prefix, into @t; how many (capped). */
static size_t waited_threads(const char *const *prefixes, size_t n,
			     struct udrv_rt_thread *t, size_t max)
{
	size_t got = 0;
	int k;

	if (!n) {
		k = udrv_rt_irq_threads(t, max);
		return k > 0 ? (k > (int)max ? max : (size_t)k) : 0;
	}
	for (size_t i = 0; i < n && got < max; i++) {
		k = udrv_rt_threads(prefixes[i], t + got, max - got);
		if (k > 0)
			got += (size_t)k > max - got ? max - got : (size_t)k;
	}
	return got;
}

static void check_priority(struct udrv_rt_report *r, int prio,
			   const char *const *prefixes, size_t n)
{
	struct udrv_rt_thread t[64];
	size_t got, below = 0;
	char names[96] = "";
	int lo = 100;

	got = waited_threads(prefixes, n, t, 64);
	for (size_t i = 0; i < got; i++) {
		if ((t[i].policy != SCHED_FIFO && t[i].policy != SCHED_RR) ||
		    t[i].priority >= prio)
			continue;
		if (!below++)
			udrv_strlcpy(names, t[i].name, sizeof(names));
		if (t[i].priority < lo)
			lo = t[i].priority;
	}
	if (n && !got)
		add_finding(r, UDRV_RT_INFO, "priority",
			    "no thread named %s%s: nothing to compare SCHED_FIFO %d with (a wake-up from hard interrupt context has no thread)",
			    prefixes[0], n > 1 ? " or the others given" : "", prio);
	else if (!below)
		add_finding(r, UDRV_RT_OK, "priority",
			    "SCHED_FIFO %d is below the %zu irq thread(s) it waits for: they finish their wake-up before it runs",
			    prio, got);
	else
		add_finding(r, r->realtime ? UDRV_RT_WARN : UDRV_RT_INFO,
			    "priority",
			    "SCHED_FIFO %d is above %zu thread%s it waits for (%s%s, FIFO %d): %s; raise them (chrt -f -p %d PID), or run at %d or below",
			    prio, below, below > 1 ? "s" : "", names,
			    below > 1 ? ", ..." : "", lo,
			    r->realtime ? "on PREEMPT_RT it preempts the waker mid-wake-up and blocks on its lock" :
			    "it preempts the waker before the wake-up is done",
			    prio < 99 ? prio + 1 : 99,
			    lo > 1 ? lo - 1 : 1);
}

int udrv_rt_check_priority_sz(struct udrv_rt_report *report,
			      size_t report_size, int prio,
			      const char *const *prefixes, size_t n)
{
	struct udrv_rt_report *r;
	int ret;

	if (!report || prio < 1 || prio > 99 || (n && !prefixes))
		return -EINVAL;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	ret = udrv_abi_in(NULL, &udrv_abi_rt_report, r, report, report_size);
	if (!ret) {
		check_priority(r, prio, prefixes, n);
		udrv_abi_out(&udrv_abi_rt_report, report, r, report_size);
	}
	free(r);
	return ret;
}

