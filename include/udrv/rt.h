/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Real-time helpers: scheduling policy and priority, locked memory, CPU
 * affinity, /dev/cpu_dma_latency, and a readiness report of the system.
 */
#ifndef UDRV_RT_H
#define UDRV_RT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/json.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_rt;

/* What is actually in force for the calling thread (read back, not assumed). */
struct udrv_rt_state {
	int policy;		/* SCHED_OTHER, SCHED_FIFO, SCHED_RR, ... */
	int priority;
	bool memory_locked;	/* mlockall(MCL_CURRENT|MCL_FUTURE) succeeded */
	int cpu;		/* the single CPU we are pinned to, or -1 */
	int32_t dma_latency_us;	/* value held on /dev/cpu_dma_latency, or -1 */
};

/*
 * A handle that remembers what was set. udrv_rt_free() drops the
 * /dev/cpu_dma_latency request; scheduler, affinity and locked memory stay
 * in force.
 */
struct udrv_rt *udrv_rt_new(void);
void udrv_rt_free(struct udrv_rt *rt);
const char *udrv_rt_errmsg(const struct udrv_rt *rt);

/* @policy: SCHED_FIFO or SCHED_RR (1..99), or SCHED_OTHER (0). */
int udrv_rt_set_scheduler(struct udrv_rt *rt, int policy, int priority);
/* mlockall() and prefault @stack_bytes of stack (0 or at most 512 KiB:
 * 512 KiB; more: -EINVAL). */
int udrv_rt_lock_memory(struct udrv_rt *rt, size_t stack_bytes);
/* Pin the calling thread to @cpu. */
int udrv_rt_set_cpu(struct udrv_rt *rt, int cpu);
/* Keep /dev/cpu_dma_latency open at @us until udrv_rt_free(). */
int udrv_rt_hold_dma_latency(struct udrv_rt *rt, int32_t us);
/* 0, or -EINVAL for a struct size below 1.0's (then nothing is written);
 * (_sz and the macros: how structs grow, docs/abi.md) */
int udrv_rt_get_state_sz(const struct udrv_rt *rt, struct udrv_rt_state *st,
			 size_t st_size);
#define udrv_rt_get_state(rt, st)					\
	udrv_rt_get_state_sz(rt, st, sizeof(struct udrv_rt_state))
int udrv_rt_state_write_json_sz(const struct udrv_rt_state *st,
				size_t st_size, struct udrv_json *j);
#define udrv_rt_state_write_json(st, j)					\
	udrv_rt_state_write_json_sz(st, sizeof(struct udrv_rt_state), j)
const char *udrv_rt_policy_str(int policy);

/*
 * A thread the application's wake-ups go through: an irq thread
 * ("irq/24-udrv": a threaded handler, every handler on PREEMPT_RT) or a
 * named kernel thread, and the scheduling it runs at.
 */
struct udrv_rt_thread {
	pid_t pid;
	char name[64];		/* /proc/PID/comm (kernel threads: the full
				 * name since Linux 6.0, "irq/24-udrv-bench-irq") */
	int policy;		/* SCHED_OTHER, SCHED_FIFO, ...; -1: unreadable */
	int priority;		/* 1..99 for SCHED_FIFO/RR, else 0; -1: unreadable */
};

/*
 * The threads whose name starts with @prefix ("irq/24-" for the threads of
 * interrupt 24, "uio-ticker"): up to @max into @threads. Returns how many
 * there are (more than @max if they did not fit) or -errno.
 */
int udrv_rt_threads_sz(const char *prefix, struct udrv_rt_thread *threads,
		       size_t max, size_t thread_size);
#define udrv_rt_threads(prefix, threads, max)				\
	udrv_rt_threads_sz(prefix, threads, max, sizeof(struct udrv_rt_thread))
/*
 * The Linux interrupt number of a GPIO line with edge detection, from
 * /sys/kernel/irq: the one whose handlers include @action (the request's
 * consumer name) and whose number within its irq chip is @hwirq (the line's
 * offset, for gpiolib's irq chips). 0, -ENOENT (no such interrupt: the line
 * has no edge detection, or the kernel lacks CONFIG_SPARSE_IRQ's sysfs),
 * or -ENOTUNIQ (two chips match: use a unique consumer name).
 */
int udrv_rt_find_irq(const char *action, unsigned long hwirq,
		     unsigned int *irq);

enum udrv_rt_level {
	UDRV_RT_OK = 0,
	UDRV_RT_INFO,
	UDRV_RT_WARN,
};

/* Frozen for the life of libudrv.so.1 (an array of them sits inside
 * struct udrv_rt_report, which grows at its end only). */
struct udrv_rt_finding {
	enum udrv_rt_level level;
	char topic[24];		/* "preempt", "throttling", "governor", ... */
	char text[256];		/* what was found and what to do about it */
};

#define UDRV_RT_MAX_FINDINGS 16

/* Readiness of this system for real-time work (udrv rt check). */
struct udrv_rt_report {
	char release[65];		/* uname -r */
	char version[128];		/* uname -v */
	char preempt_model[24];		/* PREEMPT_RT, PREEMPT, VOLUNTARY, NONE,
					 * DYNAMIC (with the active mode), or
					 * unknown */
	bool realtime;			/* PREEMPT_RT kernel */
	long rt_runtime_us;		/* -1: unlimited */
	long rt_period_us;
	char governor[32];		/* cpufreq governor of cpu0, "" if none */
	char clocksource[32];
	char isolcpus[64];		/* "" when none */
	char nohz_full[64];
	int irq_threads;		/* threaded irq handlers (irq/N-name) */
	int irq_thread_prio_min;	/* their SCHED_FIFO priorities */
	int irq_thread_prio_max;
	bool can_rt;			/* we may use SCHED_FIFO (RLIMIT_RTPRIO
					 * or CAP_SYS_NICE) */
	size_t num_findings;
	struct udrv_rt_finding findings[UDRV_RT_MAX_FINDINGS];
};

int udrv_rt_check_sz(struct udrv_rt_report *report, size_t report_size);
#define udrv_rt_check(report)						\
	udrv_rt_check_sz(report, sizeof(struct udrv_rt_report))
/*
 * After udrv_rt_check(): a finding "priority" on an application at
 * SCHED_FIFO @prio (1..99) that waits for the threads named @prefixes[0..n)
 * ("irq/24-", "uio-ticker"; n == 0: every irq thread). A warning on
 * PREEMPT_RT when it sits above one of them, with what to change.
 * 0 or -EINVAL.
 */
int udrv_rt_check_priority_sz(struct udrv_rt_report *report,
			      size_t report_size, int prio,
			      const char *const *prefixes, size_t n);
#define udrv_rt_check_priority(report, prio, prefixes, n)		\
	udrv_rt_check_priority_sz(report, sizeof(struct udrv_rt_report), \
				  prio, prefixes, n)
/* 0, or -EINVAL for a report size below 1.0's (nothing written) */
int udrv_rt_report_write_json_sz(const struct udrv_rt_report *report,
				 size_t report_size, struct udrv_json *j);
#define udrv_rt_report_write_json(report, j)				\
	udrv_rt_report_write_json_sz(report, sizeof(struct udrv_rt_report), j)

#ifdef __cplusplus
}
#endif

#endif /* UDRV_RT_H */
