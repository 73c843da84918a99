/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-bench reply, shared between reply.c (options, the log host, rows)
 * and reply_target.c (the responders: rig/kernel/gpio-reply's modes and the
 * user responder process).
 *
 * Four lines: the log host drives A (trigger), A is wired to B (in), the
 * responder writes C = !B (reply) on every edge of B, C is wired to D
 * (watch), whose edge events the log host reads. On gpio-wire: A = 4 ->
 * B = 5, C = 6 -> D = 7.
 */
#ifndef UDRV_BENCH_REPLY_H
#define UDRV_BENCH_REPLY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <udrv/udrv.h>

#include "bench.h"
#include "breakdown.h"

#define REPLY_MODULE_DIR	"/sys/devices/platform/gpio-reply"
#define REPLY_CONSUMER		"udrv-bench-reply"
#define REPLY_TARGET_CONSUMER	"udrv-reply-target"
#define REPLY_LIB_CONSUMER	"udrv-reply-lib"

/*
 * isr, kthread: rig/kernel/gpio-reply; user: the bench's own loop in a
 * process; lib: libudrv's responder (udrv_responder_run()), which sets the
 * process's scheduling and its line's irq threads itself.
 */
enum reply_responder { REPLY_ISR, REPLY_KTHREAD, REPLY_USER, REPLY_LIB,
		       REPLY_NRESP };
/*
 * irq: the lib responder's wait through the toolkit's kernel helper
 * udrv-irq (UDRV_RESPOND_IRQ_LINE): B's interrupt straight to the
 * responder, which replies through its request holding C. irq-reply: the
 * same wait, C the helper's reply line too (num_replies 1, no request:
 * udrv_responder_new_chip()), written by the helper in the call that
 * waits for the next edge.
 */
enum reply_wait { REPLY_READ, REPLY_POLL, REPLY_EPOLL, REPLY_BUSY, REPLY_IRQ,
		  REPLY_IRQ_REPLY, REPLY_NWAIT };

extern const char *const reply_responder_names[REPLY_NRESP];
extern const char *const reply_wait_names[REPLY_NWAIT];

/* A process responds (user, lib), not gpio-reply. */
static inline bool reply_by_process(enum reply_responder r)
{
	return r == REPLY_USER || r == REPLY_LIB;
}

/* The lib responder waits through udrv-irq (irq, irq-reply). */
static inline bool reply_by_helper(enum reply_wait w)
{
	return w == REPLY_IRQ || w == REPLY_IRQ_REPLY;
}

/* The waits of the lib responder (the library's) and of the user loop. */
#define REPLY_HELPER_WAITS	((1u << REPLY_IRQ) | (1u << REPLY_IRQ_REPLY))
#define REPLY_LIB_WAITS		((1u << REPLY_READ) | (1u << REPLY_BUSY) | \
				 REPLY_HELPER_WAITS)
#define REPLY_USER_WAITS	((1u << REPLY_READ) | (1u << REPLY_POLL) | \
				 (1u << REPLY_EPOLL) | (1u << REPLY_BUSY))


/*
 * The user responder's record of its last reply, in memory shared with the
 * log host (role both): written before the reply's write, so it is there
 * when the log host sees the reply; seq last (release).
 */
/* back-to-back timestamp pairs whose median is a probe's cost */
#define REPLY_PROBE_PAIRS	101
/*
 * The process's timestamps between its wake-up and C's write: t_wake and
 * t_reply (busy: the level's and t_reply); irq-reply only t_wake, since the
 * helper writes C and stamps it (write_ns), as the kernel thread's two.
 */
static inline int reply_process_probes(enum reply_wait w)
{
	return w == REPLY_IRQ_REPLY ? 1 : 2;
}

struct reply_shared {
	uint64_t seq;		/* replies made */
	uint64_t edges;		/* edges seen on B (events read, levels seen) */
	uint64_t t_irq;		/* B's event timestamp (0: busy, none) */
	uint64_t t_wake;	/* the wait returned */
	uint64_t t_reply;	/* just before C's write (irq-reply: t_wake) */
	uint64_t polls;		/* busy: level reads */
	uint64_t probe_ns;	/* what one of its timestamps costs (median) */
	char error[256];	/* why the responder stopped, "" */
};

/* The user responder's setup (role both: in a child; role target: here). */
struct reply_user {
	struct udrv_chip *chip;
	unsigned int in, out;
	enum reply_wait wait;
	int prio;		/* SCHED_FIFO priority; 0 SCHED_OTHER */
	bool lib;		/* libudrv's responder, not the bench's loop */
	int irq_prio;		/* lib: its irq_priority (0: prio + 1) */
	int cpu;		/* -1: as inherited */
	bool mlock;
	struct reply_shared *sh;
	/* role target: its own rows (NULL in the child) */
	struct bench_row *i2w, *w2r;
};

/* The module's state, to put back. */
struct reply_module {
	char chip[64], mode[16];
	unsigned int in, out;
	bool saved;
	int last_fd;		/* its "last" attribute, kept open */
};

/* reply_target.c */
int reply_module_save(struct reply_module *m);
int reply_module_start(struct reply_module *m, const char *chip_label,
		       unsigned int in, unsigned int out,
		       enum reply_responder r);
void reply_module_restore(struct reply_module *m);
int reply_module_off(struct reply_module *m);
int reply_module_counts(uint64_t *edges, uint64_t *replies);
int reply_module_last(struct reply_module *m, uint64_t *seq,
		      uint64_t *t_entry, uint64_t *t_reply);
/* The user responder's loop until a signal, @stop or an error: 0 or an
 * exit code; the error also in sh->error. @ready_fd: a byte once ready. */
int reply_user_run(struct reply_user *u, int ready_fd,
		   volatile int *stop);
/* Same CPU as the log host (one CPU online, or both pinned to one). */
bool reply_shares_cpu(int cpu_a, int cpu_b);

/* ---- reply.c (options, rows, the command) and reply_run.c (running) ---- */

#define REPLY_SAMPLES		2000	/* edges per responder */
#define REPLY_WARMUP		16
#define REPLY_WATCHDOG_S	5
#define REPLY_MAX_CFG		(2 + REPLY_NWAIT + 2)	/* isr, kthread, user, lib */

enum { ROLE_BOTH, ROLE_TARGET, ROLE_LOGHOST };

#define REPLY_BD_EDGES		201	/* --breakdown: traced edges (odd) */
#define REPLY_BD_COST_EDGES	101	/* and per event type, for its cost */

/* --breakdown: what one event type costs a reply (traced alone). */
struct reply_bd_cost {
	bool done;
	uint64_t traced_p50_ns;		/* the run with it alone on */
	double per_reply;		/* its events inside a reply, mean */
	double ns;			/* one event's cost */
};

/* --breakdown: one responder's traced run (reply_breakdown.c). */
struct reply_bd {
	bool done;
	struct bd_spec spec;
	bool d_thread;			/* the median reply had a d_thread mark */
	uint64_t edges, total_ns, traced_p50_ns, untraced_p50_ns;
	uint64_t traced_total_ns;	/* the median reply, costs not taken off */
	uint64_t probe_ns;		/* user, lib: sh->probe_ns; 0 unmeasured */
	struct reply_bd_cost cost[BD_NEV];
	unsigned int events;		/* trace events inside the median reply */
	int nstages;
	struct bd_stage stages[BD_NMARKS];
	char events_on[160];		/* the events traced, with filters */
};

/* One responder (and wait method): its rows and counts. */
struct reply_cfg {
	enum reply_responder resp;
	enum reply_wait wait;		/* REPLY_NWAIT: the module's */
	struct bench_row *t2r, *part[3];	/* the target's breakdown */
	uint64_t sent, received, lost, replies, left_out, prev_seq;
	uint64_t driven;		/* edges on A since the responder started */
	int child_prio;			/* user: the responder's priority */
	struct reply_bd bd;		/* --breakdown */
};

struct reply_bench {
	struct bench_run run;
	const char *chip_spec;
	unsigned int trig, in, reply, watch;
	int role;
	unsigned int resp_mask, wait_mask;
	int target_cpu;
	int target_prio;		/* --target-prio; -1: --prio */
	bool breakdown;			/* --breakdown */
	struct udrv_chip *chip;
	struct udrv_request *lh;	/* log host: 0 = A (out), 1 = D (in) */
	int level;			/* A's level */
	char wire[160];			/* gpio-wire's counts; "" = none */
	struct reply_module mod;
	pid_t child;
	struct reply_shared *sh;
	size_t ncfg;
	struct reply_cfg cfg[REPLY_MAX_CFG];
};

/* reply_run.c */
extern volatile int reply_alarm;	/* SIGALRM came: a wait's watchdog */
void reply_alarm_catch(void);
bool reply_role_line(const struct reply_bench *b, int i);
int reply_open(struct reply_bench *b);
int reply_measure_both(struct reply_bench *b);
int reply_measure_target(struct reply_bench *b);
void reply_child_stop(struct reply_bench *b);
/* One edge and its reply (the log host); @record: into the rows; the
 * write's and the reply's times in @t_write, @t_d (NULL: not wanted). */
int reply_edge(struct reply_bench *b, struct reply_cfg *c, bool record,
	       uint64_t *t_write, uint64_t *t_d);

/* reply_breakdown.c: --breakdown's traced run of @c, after its measured
 * one; and the document's "breakdown" list */
int reply_breakdown(struct reply_bench *b, struct reply_cfg *c);
void reply_breakdown_json(const struct bench_run *run, struct udrv_json *j);
void reply_breakdown_print(const struct reply_bench *b);

#endif /* UDRV_BENCH_REPLY_H */
