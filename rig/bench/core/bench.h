/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark framework shared by 'udrv-bench <name>': common options
 * (RT setup, samples/duration, load, output), a run made of result rows,
 * the live progress line, and the result document (docs/rig/results.md).
 *
 * A bench fills rows: one per (mechanism, implementation, wait method).
 * Each row carries a histogram of samples in ns, optional loss accounting
 * (sent = received + lost) and a rate; a udrv row names the row measured in
 * the same run that it is compared with (raw loop, libgpiod, cyclictest),
 * and the document carries the ratio.
 */
#ifndef UDRV_BENCH_H
#define UDRV_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <udrv/udrv.h>

#define BENCH_MAX_ROWS	48
#define BENCH_MAX_THREADS	8
#define BENCH_SCHEMA	"udrv-bench/1"

struct bench_opts {
	int prio;		/* SCHED_FIFO priority; 0: SCHED_OTHER */
	int irq_prio;		/* --irq-prio: the wake threads' SCHED_FIFO
				 * priority; 0: leave them as they are */
	int cpu;		/* pin to this CPU; -1: don't */
	bool mlock;
	bool dma_latency;	/* hold /dev/cpu_dma_latency at 0 */
	uint64_t samples;	/* 0: the bench's default */
	uint64_t duration_ns;	/* instead of samples, when non-zero */
	const char *load;	/* load profile name, or NULL */
	const char *board;	/* label for the results; NULL: detected */
	const char *out;	/* also write the JSON document here */
	bool json;
	bool quiet;		/* no progress line */
	uint64_t spike_ns;	/* --trace-on-spike (spike.h); 0: off */
	const char *spike_out;	/* --spike-out FILE */
};

struct bench_row {
	const char *mechanism;		/* "cdev", "sysfs", "sysfs-shell", ... */
	const char *implementation;	/* "udrv", "raw", "libgpiod", ... */
	const char *wait;		/* "read", "poll", "epoll", "busy", NULL */
	const char *what;		/* what a sample is: "toggle", ... */
	struct udrv_hist *hist;		/* samples, ns */
	uint64_t sent, received, lost;	/* loss accounting; all 0: n/a */
	bool has_loss;
	double rate_per_s;		/* 0: n/a */
	int reference;			/* row index compared with, -1: none */
	char note[160];
};

/* A thread the wake-ups go through (wake.c). */
struct bench_thread {
	struct udrv_rt_thread now;	/* as read back while measuring */
	int old_policy, old_priority;	/* before --irq-prio */
	bool raised;			/* by --irq-prio */
	bool restored;
	const char *impl;		/* the rows it carries the wake-ups of:
					 * NULL the bench's own, else the peer's
					 * implementation (BENCH_PEER_IMPL) */
};

struct bench_run {
	const char *bench;
	struct bench_opts o;
	struct udrv_rt *rt;
	pid_t load_pid;
	uint64_t last_progress_ns;
	size_t num_rows;
	struct bench_row rows[BENCH_MAX_ROWS];
	size_t num_threads;
	struct bench_thread threads[BENCH_MAX_THREADS];
	/* the bench's own top-level keys in the document; NULL: none */
	void (*json_extra)(const struct bench_run *run, struct udrv_json *j);
	bool traceable;		/* hands its samples to bench_spike_check();
				 * set before bench_parse(), which keeps it */
};

/*
 * Parse the common options (getopt_long on @argv) plus the bench's own:
 * @extra_short / @extra_long are appended, and @extra() is called for them
 * (returns 0, or an exit code). Returns 0, -1 after --help, or an exit code.
 */
struct option;
int bench_parse(struct bench_run *run, const char *bench, int argc,
		char **argv, const char *help, const char *extra_short,
		const struct option *extra_long,
		int (*extra)(struct bench_run *run, int opt, const char *arg,
			     void *ctx),
		void *ctx);
/*
 * Where a bench's --help lists the common options: a marker that
 * bench_parse() replaces with them when it prints the help (one literal
 * holding both would pass the 4095 characters ISO C guarantees).
 */
#define BENCH_OPTS_HELP BENCH_OPTS_MARKER "\n"
#define BENCH_OPTS_MARKER "@common-options@"

/* Apply the RT settings and start the load. Returns 0 or an exit code. */
int bench_begin(struct bench_run *run);
/*
 * Stop the load, print/write the results, free everything; exit code.
 * After SIGINT or SIGTERM (bench_interrupted()): the rows measured so far,
 * "interrupted" naming the signal, and exit status 128 + the signal.
 */
int bench_end(struct bench_run *run, int status);
/* The signal (SIGINT, SIGTERM) that stops the bench, or 0. */
int bench_interrupted(void);

/*
 * The root libudrv looks up /sys and /proc under: UDRV_SYSROOT (the CLI
 * tests' fake trees), "" on a real system. Files a bench writes or reads
 * itself go there too, so that the tests see them.
 */
const char *bench_sysroot(void);
/* The two places tracefs is found at, under bench_sysroot(). */
#define BENCH_TRACEFS		"/sys/kernel/tracing"
#define BENCH_TRACEFS_OLD	"/sys/kernel/debug/tracing"
/*
 * The tracefs in use: the first of BENCH_TRACEFS, BENCH_TRACEFS_OLD (under
 * bench_sysroot()) that has @file, in @dir; 0, or -ENOENT with @dir the
 * first one (where to mount it), -ENAMETOOLONG.
 */
int bench_tracefs_dir(const char *file, char *dir, size_t len);

/* CLOCK_MONOTONIC in ns, inline: the clock of every sample, read on the
 * measured path (the kernel's edge timestamps use the same clock) */
static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* How many samples a row takes: --samples, or @dflt. */
uint64_t bench_samples(const struct bench_run *run, uint64_t dflt);
/* Should a row that started at @t0_ns with @done samples go on? */
bool bench_more(struct bench_run *run, uint64_t t0_ns, uint64_t done,
		uint64_t samples);

struct bench_row *bench_row(struct bench_run *run, const char *mechanism,
			    const char *implementation, const char *wait,
			    const char *what);
int bench_row_index(const struct bench_run *run, const struct bench_row *row);
/* Append to a note ("a; b"), truncating at @len. */
void bench_note_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Live progress on stderr (a terminal only), at most 4 times a second. */
void bench_progress(struct bench_run *run, const struct bench_row *row,
		    uint64_t done, uint64_t total);

/*
 * The threads whose name starts with @prefix carry this bench's wake-ups:
 * record them (the document's wake_threads) and, with --irq-prio, raise
 * them. Call once what is waited for is requested (an irq thread exists
 * from request_irq() on). 0 or an exit code.
 */
int bench_wake_threads(struct bench_run *run, const char *prefix);
/* The same for the threads of a peer's request, whose rows are @impl's. */
int bench_wake_threads_for(struct bench_run *run, const char *prefix,
			   const char *impl);
/* Put raised threads back (bench_end does). */
void bench_wake_restore(struct bench_run *run);
struct udrv_json;
void bench_wake_json(const struct bench_run *run, struct udrv_json *j);

/* Load profiles (load.c). */
/* gpio-wire's own counts of the edges on input line @line (wire.c) */
struct bench_wire {
	uint64_t driven;	/* level changes put on its wire */
	uint64_t dropped;	/* swallowed by fault injection (drop_every) */
};
/* The chip's counts file into @path; false (and "") if it has none. */
bool bench_wire_path(const struct udrv_chip *chip, char *path, size_t len);
int bench_wire_counts(const char *path, unsigned int line, struct bench_wire *w);

int load_start(const char *profile, pid_t *pid, char *err, size_t errlen);
void load_stop(pid_t pid);
int load_profile_valid(const char *profile);
extern const char load_profiles_help[];

#endif /* UDRV_BENCH_H */
