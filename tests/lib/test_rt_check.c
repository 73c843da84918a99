// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the real-time readiness report (lib/rt/rt_check.c), on fake
 * /proc and /sys trees only (never the real host).
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

#include "fake_gpio.h"
#include "harness.h"
#include "rt_common.h"

/* The sanitizers intercept mlockall() as a no-op that always succeeds. */
#ifdef __SANITIZE_ADDRESS__
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

static void write_report(const void *r, struct udrv_json *j)
{
	udrv_rt_report_write_json(r, j);
}

/* ---- rt.c ---- */

/* ---- rt_check.c ---- */

#define PF_KTHREAD	0x00200000
static int fake_flags = PF_KTHREAD;	/* field 9 of fake_stat()'s stat */

static void fake_stat(int pid, const char *comm, int prio, int policy)
{
	char rel[64], line[512];
	int n, field;

	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(line, sizeof(line), "%s\n", comm);
	fake_file(rel, line);
	n = snprintf(line, sizeof(line), "%d (%s) S", pid, comm);
	for (field = 4; field <= 52; field++)
		n += snprintf(line + n, sizeof(line) - n, " %d",
			      field == 9 ? fake_flags :
			      field == 40 ? prio : field == 41 ? policy : 0);
	snprintf(line + n, sizeof(line) - n, "\n");
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	fake_file(rel, line);
}

/* A tidy system: everything in place, @version decides the kernel. */
static void fake_system(const char *version)
{
	fake_root();
	fake_file("proc/sys/kernel/osrelease", "6.1.0-test\n");
	fake_file("proc/sys/kernel/version", version);
	fake_file("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	fake_file("proc/sys/kernel/sched_rt_period_us", "1000000\n");
	fake_file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  "performance\n");
	fake_file("sys/devices/system/clocksource/clocksource0/current_clocksource",
		  "tsc\n");
	fake_file("sys/devices/system/cpu/isolated", "\n");
	fake_file("sys/devices/system/cpu/nohz_full", "(null)\n");
	fake_file("proc/self/status",
		  "Name:\tudrv\nCapEff:\t000001ffffffffff\n");
}

static void fake_rm(const char *rel)
{
	char path[512];

	fake_path(path, sizeof(path), rel);
	CHECK(unlink(path) == 0);
}

static const struct udrv_rt_finding *
finding(const struct udrv_rt_report *r, const char *topic)
{
	size_t i;

	for (i = 0; i < r->num_findings; i++)
		if (!strcmp(r->findings[i].topic, topic))
			return &r->findings[i];
	harness_fail(__FILE__, __LINE__, "no finding '%s'", topic);
	return NULL;
}

#define CHECK_FINDING(r, topic, lvl, needle)				\
	do {								\
		const struct udrv_rt_finding *_f = finding(r, topic);	\
		if (_f) {						\
			CHECK_INT(_f->level, lvl);			\
			CHECK_CONTAINS(_f->text, needle);		\
		}							\
	} while (0)

static void test_check_rt_kernel(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT Debian 6.1.192-2\n");
	fake_file("sys/kernel/realtime", "1\n");
	CHECK_INT(udrv_rt_check(&r), 0);
	CHECK_STR(r.release, "6.1.0-test");
	CHECK_STR(r.version, "#1 SMP PREEMPT_RT Debian 6.1.192-2");
	CHECK_STR(r.preempt_model, "PREEMPT_RT");
	CHECK(r.realtime);
	CHECK_FINDING(&r, "preempt", UDRV_RT_OK, "PREEMPT_RT");
}

static void test_check_rt_by_sysfs_only(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP Debian\n");
	fake_file("sys/kernel/realtime", "1\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "PREEMPT_RT");
	CHECK(r.realtime);

	fake_rm("sys/kernel/realtime");
	fake_file("proc/sys/kernel/version", "#1 SMP PREEMPT RT Tue Jan 1\n");
	udrv_rt_check(&r);
	CHECK(r.realtime);
	CHECK_STR(r.preempt_model, "PREEMPT_RT");

	fake_file("sys/kernel/realtime", "0\n");
	fake_file("proc/sys/kernel/version", "#1 SMP PREEMPT\n");
	udrv_rt_check(&r);
	CHECK(!r.realtime);
}

static void test_check_dynamic(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2\n");
	fake_file("sys/kernel/debug/sched/preempt", "none voluntary (full)\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "DYNAMIC (full)");
	CHECK(!r.realtime);
	CHECK_FINDING(&r, "preempt", UDRV_RT_INFO, "full mode");
	CHECK_FINDING(&r, "preempt", UDRV_RT_INFO, "PREEMPT_RT kernel");

	fake_file("sys/kernel/debug/sched/preempt", "none (voluntary) full\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "DYNAMIC (voluntary)");
	CHECK_FINDING(&r, "preempt", UDRV_RT_WARN, "preempt=full");
}

static void test_check_dynamic_cmdline(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_DYNAMIC @0\n");
	fake_file("proc/cmdline",
		  "BOOT_IMAGE=/vmlinuz nopreempt=x preempt=none quiet\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "DYNAMIC (none)");
	CHECK_FINDING(&r, "preempt", UDRV_RT_WARN, "none mode");

	fake_file("proc/cmdline", "BOOT_IMAGE=/vmlinuz quiet\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "DYNAMIC");
	CHECK_FINDING(&r, "preempt", UDRV_RT_INFO, "mode unknown");
}

static void test_check_preempt(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT Tue Jan 1 00:00:00 UTC 2030\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "PREEMPT");
	CHECK_FINDING(&r, "preempt", UDRV_RT_INFO, "PREEMPT");

	fake_file("proc/sys/kernel/version", "#1 SMP PREEMPT\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "PREEMPT");

	/* PREEMPTIBLE or xPREEMPT are not the marker */
	fake_file("proc/sys/kernel/version", "#1 SMP PREEMPTIBLE xPREEMPT\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "unknown");
}

static void test_check_plain_kernel(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP Debian 6.1.192-2 (2030-01-01)\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "unknown");
	CHECK(!r.realtime);
	CHECK_FINDING(&r, "preempt", UDRV_RT_WARN, "NONE or VOLUNTARY");

	fake_file("boot/config-6.1.0-test",
		  "CONFIG_PREEMPT_BUILD=y\n# CONFIG_PREEMPT_NONE is not set\n"
		  "CONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PREEMPT is not set\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "VOLUNTARY");
	CHECK_FINDING(&r, "preempt", UDRV_RT_WARN, "VOLUNTARY kernel");

	fake_file("boot/config-6.1.0-test", "CONFIG_PREEMPT_NONE=y\n");
	udrv_rt_check(&r);
	CHECK_STR(r.preempt_model, "NONE");
}

static void test_check_throttling(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	udrv_rt_check(&r);
	CHECK_INT(r.rt_runtime_us, 950000);
	CHECK_INT(r.rt_period_us, 1000000);
	CHECK_FINDING(&r, "throttling", UDRV_RT_INFO,
		      "throttled for 50000 µs every 1000000 µs");
	CHECK_FINDING(&r, "throttling", UDRV_RT_INFO,
		      "echo -1 > /proc/sys/kernel/sched_rt_runtime_us");

	fake_file("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	udrv_rt_check(&r);
	CHECK_INT(r.rt_runtime_us, -1);
	CHECK_FINDING(&r, "throttling", UDRV_RT_OK, "off");
}

static void test_check_throttling_unreadable(void)
{
	struct udrv_rt_report r;
	char *s;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_file("proc/sys/kernel/sched_rt_period_us", "garbage\n");
	udrv_rt_check(&r);
	CHECK_INT(r.rt_period_us, 0);
	CHECK_FINDING(&r, "throttling", UDRV_RT_INFO, "could not read");
	s = to_json(write_report, &r, false);
	CHECK_CONTAINS(s, "\"rt_runtime_us\":null,\"rt_period_us\":null,");
	free(s);
}

static void test_check_governor(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	udrv_rt_check(&r);
	CHECK_STR(r.governor, "performance");
	CHECK_FINDING(&r, "governor", UDRV_RT_OK, "performance");

	fake_file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  "powersave\n");
	udrv_rt_check(&r);
	CHECK_STR(r.governor, "powersave");
	CHECK_FINDING(&r, "governor", UDRV_RT_WARN, "powersave");
	CHECK_FINDING(&r, "governor", UDRV_RT_WARN, "echo performance");

	fake_rm("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	udrv_rt_check(&r);
	CHECK_STR(r.governor, "");
	CHECK_FINDING(&r, "governor", UDRV_RT_INFO, "no cpufreq");
}

static void test_check_clocksource(void)
{
	static const char path[] =
		"sys/devices/system/clocksource/clocksource0/current_clocksource";
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	udrv_rt_check(&r);
	CHECK_STR(r.clocksource, "tsc");
	CHECK_FINDING(&r, "clocksource", UDRV_RT_OK, "tsc");

	fake_file(path, "arch_sys_counter\n");
	udrv_rt_check(&r);
	CHECK_FINDING(&r, "clocksource", UDRV_RT_OK, "arch_sys_counter");

	fake_file(path, "refined-jiffies\n");
	udrv_rt_check(&r);
	CHECK_FINDING(&r, "clocksource", UDRV_RT_WARN, "refined-jiffies");

	fake_file(path, "hpet\n");
	udrv_rt_check(&r);
	CHECK_FINDING(&r, "clocksource", UDRV_RT_INFO, "hpet");

	fake_file(path, "");
	udrv_rt_check(&r);
	CHECK_STR(r.clocksource, "");
	CHECK_FINDING(&r, "clocksource", UDRV_RT_INFO, "unknown");
}

static void test_check_isolation(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	udrv_rt_check(&r);
	CHECK_STR(r.isolcpus, "");
	CHECK_STR(r.nohz_full, "");
	CHECK_FINDING(&r, "isolation", UDRV_RT_INFO, "isolcpus=N");

	fake_file("sys/devices/system/cpu/isolated", "2-3\n");
	fake_file("sys/devices/system/cpu/nohz_full", "2-3\n");
	udrv_rt_check(&r);
	CHECK_STR(r.isolcpus, "2-3");
	CHECK_STR(r.nohz_full, "2-3");
	CHECK_FINDING(&r, "isolation", UDRV_RT_OK, "isolated CPUs 2-3");
}

static void test_check_irq_threads(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-ahci", 50, 1);
	fake_stat(11, "irq/9-acpi", 49, 1);
	fake_stat(12, "irq/1-i8042", 0, 0);	/* not RT: no priority */
	fake_stat(13, "bash", 99, 1);
	fake_stat(14, "irq/5-a) b", 51, 2);	/* ')' in the name */
	fake_file("proc/15/comm", "irq/7-nostat\n");
	fake_file("proc/self/comm", "irq/6-self\n");
	udrv_rt_check(&r);
	CHECK_INT(r.irq_threads, 5);
	CHECK_INT(r.irq_thread_prio_min, 49);
	CHECK_INT(r.irq_thread_prio_max, 51);
	CHECK_FINDING(&r, "irq_threads", UDRV_RT_INFO,
		      "5 threaded IRQ handlers at SCHED_FIFO 49..51");
	CHECK_FINDING(&r, "irq_threads", UDRV_RT_INFO, "above 49");
}

/*
 * A process of anyone's may be called irq/N-name (prctl PR_SET_NAME): the
 * report counts the kernel's irq threads only, by PF_KTHREAD in their stat;
 * udrv_rt_threads() still finds every thread by its name.
 */
static void test_check_irq_threads_not_a_process(void)
{
	struct udrv_rt_thread t[4];
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-ahci", 50, 1);
	fake_flags = 0;
	fake_stat(20, "irq/99-mine", 99, 1);
	fake_stat(21, "irq/1-low", 1, 1);
	fake_flags = PF_KTHREAD;
	udrv_rt_check(&r);
	CHECK_INT(r.irq_threads, 1);
	CHECK_INT(r.irq_thread_prio_min, 50);
	CHECK_INT(r.irq_thread_prio_max, 50);
	CHECK_INT(udrv_rt_threads("irq/", t, 4), 3);
	/* with no prefix the priority check waits for the kernel's only */
	CHECK_INT(udrv_rt_check_priority(&r, 60, NULL, 0), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_WARN,
		      "above 1 thread it waits for (irq/24-ahci, FIFO 50)");
}

static void test_check_irq_threads_default(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-ahci", 50, 1);
	fake_stat(11, "irq/9-acpi", 50, 1);
	udrv_rt_check(&r);
	CHECK_FINDING(&r, "irq_threads", UDRV_RT_INFO,
		      "2 threaded IRQ handlers at SCHED_FIFO 50: a task above 50 can starve them");
}

static void test_check_no_irq_threads(void)
{
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_DYNAMIC\n");
	fake_stat(13, "bash", 99, 1);
	udrv_rt_check(&r);
	CHECK_INT(r.irq_threads, 0);
	CHECK_INT(r.irq_thread_prio_min, 0);
	CHECK_INT(r.irq_thread_prio_max, 0);
	CHECK_FINDING(&r, "irq_threads", UDRV_RT_INFO, "threadirqs");

	fake_file("proc/15/comm", "irq/7-nostat\n");
	udrv_rt_check(&r);
	CHECK_INT(r.irq_threads, 1);
	CHECK_FINDING(&r, "irq_threads", UDRV_RT_INFO, "priorities unreadable");
}

static void test_check_permissions(void)
{
	struct udrv_rt_report r;

	CHECK(set_limit(RLIMIT_RTPRIO, 0));
	fake_system("#1 SMP PREEMPT_RT\n");
	udrv_rt_check(&r);
	CHECK(r.can_rt);
	CHECK_FINDING(&r, "permissions", UDRV_RT_OK, "CAP_SYS_NICE");
	CHECK_FINDING(&r, "memlock", UDRV_RT_OK, "CAP_IPC_LOCK");

	/* no capabilities, no rtprio, memlock 0 */
	CHECK(set_limit(RLIMIT_MEMLOCK, 0));
	fake_file("proc/self/status", "Name:\tudrv\nCapEff:\t0000000000000000\n");
	udrv_rt_check(&r);
	CHECK(!r.can_rt);
	CHECK_FINDING(&r, "permissions", UDRV_RT_WARN, "limits.conf");
	CHECK_FINDING(&r, "permissions", UDRV_RT_WARN, "cap_sys_nice");
	CHECK_FINDING(&r, "memlock", UDRV_RT_WARN, "RLIMIT_MEMLOCK is 0 KiB");
}

static void test_check_permissions_rtprio(void)
{
	struct udrv_rt_report r;

	if (!set_limit(RLIMIT_RTPRIO, 20)) {
		printf("# skipped: cannot raise RLIMIT_RTPRIO here\n");
		return;
	}
	fake_system("#1 SMP PREEMPT_RT\n");
	fake_file("proc/self/status", "Name:\tudrv\nCapEff:\t0000000000000000\n");
	udrv_rt_check(&r);
	CHECK(r.can_rt);
	CHECK_FINDING(&r, "permissions", UDRV_RT_OK, "RLIMIT_RTPRIO 20");
}

static void test_check_all_findings(void)
{
	static const char *const topics[] = {
		"preempt", "throttling", "governor", "clocksource",
		"isolation", "irq_threads", "permissions", "memlock",
	};
	struct udrv_rt_report r;
	size_t i, k, n;

	fake_system("#1 SMP PREEMPT_DYNAMIC\n");
	fake_file("sys/kernel/debug/sched/preempt", "(none) voluntary full\n");
	fake_file("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  "schedutil\n");
	fake_stat(10, "irq/24-ahci", 50, 1);
	udrv_rt_check(&r);
	CHECK_INT(r.num_findings, sizeof(topics) / sizeof(topics[0]));
	for (k = 0; k < sizeof(topics) / sizeof(topics[0]); k++) {
		for (i = n = 0; i < r.num_findings; i++)
			n += !strcmp(r.findings[i].topic, topics[k]);
		if (n != 1)
			harness_fail(__FILE__, __LINE__, "topic %s: %zu",
				     topics[k], n);
	}
	/* no text was cut */
	for (i = 0; i < r.num_findings; i++)
		CHECK(strlen(r.findings[i].text) <
		      sizeof(r.findings[i].text) - 1);
}

static void test_check_fallback_uname(void)
{
	struct udrv_rt_report r;
	struct utsname u;

	fake_root();
	CHECK(uname(&u) == 0);
	CHECK_INT(udrv_rt_check(&r), 0);
	CHECK_STR(r.release, u.release);
	CHECK(r.num_findings >= 8);
	CHECK_INT(udrv_rt_check(NULL), -EINVAL);
}

static void test_check_json(void)
{
	static const char *const keys[] = {
		"{\"release\":\"6.1.0-test\",",
		"\"version\":\"#1 SMP PREEMPT_RT\",",
		"\"preempt_model\":\"PREEMPT_RT\",", "\"realtime\":true,",
		"\"rt_runtime_us\":950000,", "\"rt_period_us\":1000000,",
		"\"governor\":\"performance\",", "\"clocksource\":\"tsc\",",
		"\"isolcpus\":\"\",", "\"nohz_full\":\"\",",
		"\"irq_threads\":1,", "\"irq_thread_prio_min\":50,",
		"\"irq_thread_prio_max\":50,", "\"can_rt\":true,",
		"\"findings\":[{\"level\":\"OK\",\"topic\":\"preempt\",\"text\":",
		"{\"level\":\"INFO\",\"topic\":\"throttling\",\"text\":\"RT tasks",
		"\"topic\":\"memlock\"",
	};
	struct udrv_rt_report r;
	char *s;
	size_t i;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-ahci", 50, 1);
	udrv_rt_check(&r);
	s = to_json(write_report, &r, false);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK_CONTAINS(s, keys[i]);
	CHECK_CONTAINS(s, "}]}\n");
	free(s);
	s = to_json(write_report, &r, true);
	CHECK_CONTAINS(s, "  \"findings\": [\n    {\n      \"level\": \"OK\",");
	free(s);
}

static void test_threads_by_prefix(void)
{
	struct udrv_rt_thread t[2];

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-udrv", 50, 1);
	fake_stat(11, "irq/24-udrv", 90, 1);	/* a shared interrupt */
	fake_stat(12, "irq/240-other", 50, 1);	/* irq/24 is a prefix of it */
	fake_stat(13, "uio-ticker", 49, 2);
	fake_file("proc/15/comm", "irq/24-nostat\n");
	/* Linux 6.0+: a kernel thread's comm is its full name */
	fake_stat(16, "irq/10-uio_pci_generic", 50, 1);
	CHECK_INT(udrv_rt_threads("irq/10-", t, 2), 1);
	CHECK_STR(t[0].name, "irq/10-uio_pci_generic");
	CHECK_INT(udrv_rt_threads("uio-ticker", t, 2), 1);
	CHECK_INT(t[0].pid, 13);
	CHECK_INT(t[0].policy, SCHED_RR);
	CHECK_INT(t[0].priority, 49);
	CHECK_STR(t[0].name, "uio-ticker");
	CHECK_INT(udrv_rt_threads("irq/24-", t, 2), 3);	/* more than fit */
	CHECK_INT(udrv_rt_threads("irq/24-", NULL, 0), 3);
	CHECK_INT(udrv_rt_threads("nothing", t, 2), 0);
	CHECK_INT(udrv_rt_threads("", t, 2), -EINVAL);
	CHECK_INT(udrv_rt_threads("irq/", NULL, 2), -EINVAL);
}

static void test_thread_stat_unreadable(void)
{
	struct udrv_rt_thread t[1];

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_file("proc/15/comm", "irq/24-nostat\n");
	CHECK_INT(udrv_rt_threads("irq/24-", t, 1), 1);
	CHECK_INT(t[0].policy, -1);
	CHECK_INT(t[0].priority, -1);
}

static void test_find_irq(void)
{
	unsigned int irq = 0;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_gpio_irq(9, "9\n", "acpi\n");
	fake_gpio_irq(24, "3\n", "ahci,udrv\n");
	fake_gpio_irq(25, "3\n", "udrv-bench\n");	/* udrv is a prefix of it */
	fake_gpio_irq(26, "2\n", "udrv\n");
	fake_gpio_irq(27, "0x3\n", "\n");		/* no handler */
	CHECK_INT(udrv_rt_find_irq("udrv", 3, &irq), 0);
	CHECK_INT(irq, 24);
	CHECK_INT(udrv_rt_find_irq("udrv-bench", 3, &irq), 0);
	CHECK_INT(irq, 25);
	CHECK_INT(udrv_rt_find_irq("udrv", 7, &irq), -ENOENT);
	CHECK_INT(udrv_rt_find_irq("", 3, &irq), -EINVAL);
	fake_gpio_irq(40, "3\n", "udrv\n");	/* the same offset of another chip */
	CHECK_INT(udrv_rt_find_irq("udrv", 3, &irq), -ENOTUNIQ);
}

static void test_check_priority(void)
{
	const char *ticker[] = { "uio-ticker" };
	const char *gpio[] = { "irq/24-", "uio-ticker" };
	const char *none[] = { "irq/99-" };
	struct udrv_rt_report r;

	fake_system("#1 SMP PREEMPT_RT\n");
	fake_stat(10, "irq/24-udrv-bench-irq", 50, 1);
	fake_stat(11, "irq/9-acpi", 49, 1);
	fake_stat(12, "uio-ticker", 90, 1);
	udrv_rt_check(&r);
	/* above the GPIO line's irq thread: the warning and the fix */
	CHECK_INT(udrv_rt_check_priority(&r, 80, gpio, 2), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_WARN,
		      "SCHED_FIFO 80 is above 1 thread it waits for (irq/24-udrv-bench-irq, FIFO 50)");
	CHECK_FINDING(&r, "priority", UDRV_RT_WARN, "raise them (chrt -f -p 81 PID), or run at 49 or below");
	/* below uio-ticker's thread: fine */
	udrv_rt_check(&r);
	CHECK_INT(udrv_rt_check_priority(&r, 80, ticker, 1), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_OK, "below the 1 irq thread(s)");
	/* every irq thread by default */
	udrv_rt_check(&r);
	CHECK_INT(udrv_rt_check_priority(&r, 50, NULL, 0), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_WARN, "is above 1 thread it waits for (irq/9-acpi, FIFO 49)");
	/* nothing to compare with */
	udrv_rt_check(&r);
	CHECK_INT(udrv_rt_check_priority(&r, 80, none, 1), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_INFO, "no thread named irq/99-");
	CHECK_INT(udrv_rt_check_priority(&r, 0, NULL, 0), -EINVAL);
	CHECK_INT(udrv_rt_check_priority(&r, 100, NULL, 0), -EINVAL);
	/* not PREEMPT_RT: information, not a warning */
	fake_system("#1 SMP PREEMPT_DYNAMIC\n");
	fake_stat(10, "irq/24-udrv-bench-irq", 50, 1);
	udrv_rt_check(&r);
	CHECK_INT(udrv_rt_check_priority(&r, 80, gpio, 1), 0);
	CHECK_FINDING(&r, "priority", UDRV_RT_INFO, "before the wake-up is done");
}

UDRV_TESTS(
	UDRV_T(test_check_rt_kernel),
	UDRV_T(test_check_rt_by_sysfs_only),
	UDRV_T(test_check_dynamic),
	UDRV_T(test_check_dynamic_cmdline),
	UDRV_T(test_check_preempt),
	UDRV_T(test_check_plain_kernel),
	UDRV_T(test_check_throttling),
	UDRV_T(test_check_throttling_unreadable),
	UDRV_T(test_check_governor),
	UDRV_T(test_check_clocksource),
	UDRV_T(test_check_isolation),
	UDRV_T(test_check_irq_threads),
	UDRV_T(test_check_irq_threads_not_a_process),
	UDRV_T(test_check_irq_threads_default),
	UDRV_T(test_check_no_irq_threads),
	UDRV_T(test_check_permissions),
	UDRV_T(test_check_permissions_rtprio),
	UDRV_T(test_check_all_findings),
	UDRV_T(test_check_fallback_uname),
	UDRV_T(test_check_json),
	UDRV_T(test_threads_by_prefix),
	UDRV_T(test_thread_stat_unreadable),
	UDRV_T(test_find_irq),
	UDRV_T(test_check_priority)
)
