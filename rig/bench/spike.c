// SPDX-License-Identifier: GPL-2.0-only
/*
 * --trace-on-spike: ftrace armed through tracefs for the run, stopped at
 * the first sample above the threshold, read back and analysed at the end
 * (spike.h, trace.h). Everything written to tracefs is recorded with the
 * value it had, and put back in reverse order at the end, on errors, on
 * SIGINT/SIGTERM (through bench_end) and from the irq bench's watchdog
 * (bench_spike_restore_signal_safe). Two things cannot be put back: the
 * trace buffer's old contents (cleared when arming), and a buffer the
 * kernel had not expanded yet ("7 (expanded: 1408)": it expands on first
 * use and is put back at the expanded size).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "spike.h"
#include "trace.h"

#define SPIKE_MAX_SAVED		48
#define SPIKE_MARGIN_NS		1000000ULL	/* kept before the window, at least */
#define SPIKE_AFTER_NS		100000ULL	/* kept after it */
#define SPIKE_TOP		8

/* The events, "system/name"; optional ones may be absent (x86 only). */
static const struct bench_trace_event spike_events[] = {
	{ "sched/sched_switch", NULL, false },
	{ "sched/sched_wakeup", NULL, false },
	{ "sched/sched_wakeup_new", NULL, false },
	{ "sched/sched_waking", NULL, false },
	{ "sched/sched_pi_setprio", NULL, false },
	{ "irq/irq_handler_entry", NULL, false },
	{ "irq/irq_handler_exit", NULL, false },
	{ "irq/softirq_entry", NULL, false },
	{ "irq/softirq_exit", NULL, false },
	{ "timer/hrtimer_expire_entry", NULL, false },
	{ "timer/hrtimer_expire_exit", NULL, false },
	{ "irq_vectors/local_timer_entry", NULL, true },
	{ "irq_vectors/local_timer_exit", NULL, true },
};

struct saved {
	char path[PATH_MAX];
	char old[32];
};

static struct {
	const char *who;		/* the option, for messages */
	bool armed;
	uint64_t threshold;		/* ns */
	char dir[PATH_MAX];		/* the tracefs in use */
	bool mounted;			/* by us: unmounted at the end */
	int on_fd;			/* tracing_on, kept open */
	unsigned long buffer_kb;	/* in force while tracing */
	struct saved saved[SPIKE_MAX_SAVED];
	int nsaved;
	/* the spike */
	bool hit;
	uint64_t over;			/* samples above the threshold */
	const struct bench_row *row;
	uint64_t start, end, index;
	int cpu;
	/* the analysis */
	bool finished;
	char file[PATH_MAX];
	uint64_t lines, from, to;
	char error[320];
	char verdict[640];
	struct trace_analysis an;
} sp = { .on_fd = -1, .who = "--trace-on-spike" };

uint64_t bench_spike_ns;

/* ---- tracefs files ------------------------------------------------------ */

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", sp.dir, name);
}

/*
 * The first line of @path, without its newline; 0 or -errno (-ENODATA: an
 * empty file). @buf is a string either way: fgets() leaves it untouched
 * when it reads nothing.
 */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f;
	int err = 0;

	if (!len || len > INT_MAX)
		return -EINVAL;
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -errno;
	errno = 0;
	if (!fgets(buf, (int)len, f)) {
		err = !ferror(f) ? -ENODATA : errno ? -errno : -EIO;
		buf[0] = '\0';
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* Signal-safe: open, write, close. 0 or -errno. */
static int write_str(const char *path, const char *s)
{
	size_t n = strlen(s);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t w;
	int err;

	if (fd < 0)
		return -errno;
	w = write(fd, s, n);
	err = w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

static int spike_fail(const char *what, const char *path, int err)
{
	const char *fix = "";

	if (err == -EACCES || err == -EPERM || err == -EROFS)
		fix = " (tracefs needs root: run udrv as root, or leave the option out)";
	else if (err == -ENOENT)
		fix = " (the kernel lacks it: CONFIG_FTRACE and the scheduler/irq trace events)";
	else if (err == -EINVAL && strstr(path, "/filter"))
		fix = " (the kernel refused the event filter)";
	return bench_error(EXIT_FAIL, "%s: cannot %s %s: %s%s", sp.who, what,
			 path, strerror(-err), fix);
}

/* Write @value to tracefs file @name, remembering what it held before
 * (@always: even when it holds @value now: tracing_on, written again later). */
static int spike_set(const char *name, const char *old, const char *value,
		     bool always)
{
	struct saved *s;
	char path[PATH_MAX];
	int err;

	path_of(path, sizeof(path), name);
	if (!strcmp(old, value) && !always)
		return 0;
	if (sp.nsaved == SPIKE_MAX_SAVED)
		return bench_error(EXIT_FAIL, "%s: too many tracefs settings (SPIKE_MAX_SAVED in %s)",
				 sp.who, __FILE__);
	s = &sp.saved[sp.nsaved];
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->old, sizeof(s->old), "%s", old);
	err = write_str(path, value);
	if (err)
		return spike_fail("write to", path, err);
	sp.nsaved++;
	return 0;
}

/* Read tracefs file @name's first line into @buf; 0 or an exit code. */
static int spike_get(const char *name, char *buf, size_t len, bool optional,
		     bool *absent)
{
	char path[PATH_MAX];
	int err;

	path_of(path, sizeof(path), name);
	err = read_line(path, buf, len);
	if (err == -ENOENT && optional) {
		*absent = true;
		return 0;
	}
	return err ? spike_fail("read", path, err) : 0;
}

/* "[local] global counter ... mono" -> "local" */
static void selected(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(out, len, "%s", line);
}

/* ---- arming --------------------------------------------------------------- */

/* /sys/kernel/tracing, /sys/kernel/debug/tracing, or mount it. */
static int spike_find(void)
{
	const char *root = bench_sysroot();
	int ret = bench_tracefs_dir("trace_clock", sp.dir, sizeof(sp.dir));

	if (ret != -ENOENT)
		return ret ? spike_fail("find", sp.dir, ret) : 0;
	if (!*root && !mount("nodev", sp.dir, "tracefs", 0, NULL)) {
		sp.mounted = true;
		if (!bench_tracefs_dir("trace_clock", sp.dir, sizeof(sp.dir)))
			return 0;
	}
	return bench_error(EXIT_FAIL, "%s: no tracefs at %s%s or %s%s, and mounting it on %s failed: %s (as root: mount -t tracefs nodev /sys/kernel/tracing; the kernel needs CONFIG_FTRACE)",
			 sp.who, root, BENCH_TRACEFS, root, BENCH_TRACEFS_OLD, sp.dir,
			 *root ? "not tried under UDRV_SYSROOT" : strerror(errno));
}

static int spike_buffer(void)
{
	char line[64], want[24];
	const char *x;
	bool absent = false;
	uint64_t kb;
	int ret = spike_get("buffer_size_kb", line, sizeof(line), false, &absent);

	if (ret)
		return ret;
	/* "7 (expanded: 1408)": not allocated yet; it will be at 1408 */
	x = strstr(line, "(expanded: ");
	if (x)
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(x + 11, ")"), x + 11);
	if (udrv_parse_u64(line, UINT64_MAX, &kb))
		return bench_error(EXIT_FAIL, "%s: %s/buffer_size_kb reads '%s', not a size in KiB",
				 sp.who, sp.dir, line);
	sp.buffer_kb = kb;
	if (kb >= SPIKE_BUFFER_KB)
		return 0;
	snprintf(want, sizeof(want), "%u", SPIKE_BUFFER_KB);
	sp.buffer_kb = SPIKE_BUFFER_KB;
	return spike_set("buffer_size_kb", line, want, false);
}

/* An event's filter, put back as it was ("none": cleared with "0"). */
static int spike_filter(const struct bench_trace_event *e)
{
	char name[96], old[32];
	bool absent = false;
	int ret;

	snprintf(name, sizeof(name), "events/%s/filter", e->path);
	ret = spike_get(name, old, sizeof(old), false, &absent);
	if (ret)
		return ret;
	if (strcmp(old, "none") && strcmp(old, e->filter))
		return bench_error(EXIT_FAIL, "%s: %s/%s holds '%s', another user's filter: clear it (echo 0 > it) first",
				 sp.who, sp.dir, name, old);
	return spike_set(name, !strcmp(old, "none") ? "0" : old, e->filter, false);
}

static int spike_events_on(const struct bench_trace_event *ev, size_t n,
			   bool *absent)
{
	char name[96], old[16];
	int ret;

	for (size_t i = 0; i < n; i++) {
		bool gone = false;

		snprintf(name, sizeof(name), "events/%s/enable", ev[i].path);
		ret = spike_get(name, old, sizeof(old), ev[i].optional, &gone);
		if (!ret && !gone && ev[i].filter)
			ret = spike_filter(&ev[i]);
		if (!ret && !gone)
			ret = spike_set(name, old, "1", false);
		if (ret)
			return ret;
		if (absent)
			absent[i] = gone;
	}
	return 0;
}

static int spike_settings(const struct bench_trace_event *ev, size_t n,
			  bool *absent)
{
	char line[256], old[32];
	bool none = false;
	int ret;

	ret = spike_get("tracing_on", old, sizeof(old), false, &none);
	if (!ret)
		ret = spike_set("tracing_on", old, "0", true);
	if (!ret)
		ret = spike_get("current_tracer", old, sizeof(old), false, &none);
	if (!ret)
		ret = spike_set("current_tracer", old, "nop", false);
	if (!ret)
		ret = spike_get("trace_clock", line, sizeof(line), false, &none);
	if (!ret) {
		selected(line, old, sizeof(old));
		ret = spike_set("trace_clock", old, "mono", false);
	}
	if (!ret)
		ret = spike_buffer();
	if (!ret)
		ret = spike_events_on(ev, n, absent);
	return ret;
}

static int spike_start(void)
{
	char path[PATH_MAX];
	int err;

	path_of(path, sizeof(path), "trace");
	err = write_str(path, "");		/* clear the buffer */
	if (err)
		return spike_fail("clear", path, err);
	path_of(path, sizeof(path), "tracing_on");
	sp.on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (sp.on_fd < 0)
		return spike_fail("open", path, -errno);
	if (write(sp.on_fd, "1", 1) != 1)
		return spike_fail("write 1 to", path, -errno);
	return 0;
}

int bench_spike_arm(struct bench_run *run)
{
	int ret;

	memset(&sp, 0, sizeof(sp));
	sp.on_fd = -1;
	sp.who = "--trace-on-spike";
	ret = spike_find();
	if (!ret)
		ret = spike_settings(spike_events,
				     sizeof(spike_events) / sizeof(spike_events[0]),
				     NULL);
	if (!ret)
		ret = spike_start();
	if (ret) {
		bench_spike_restore();
		return ret;
	}
	sp.armed = true;
	sp.threshold = run->o.spike_ns;
	bench_spike_ns = sp.threshold;
	return 0;
}

int bench_trace_setup(const char *who, const struct bench_trace_event *ev,
		      size_t n, bool *absent)
{
	int ret;

	if (sp.armed || sp.nsaved)
		return bench_error(EXIT_FAIL, "%s: tracefs is already in use by %s",
				   who, sp.who);
	memset(&sp, 0, sizeof(sp));
	sp.on_fd = -1;
	sp.who = who;
	ret = spike_find();
	if (!ret)
		ret = spike_settings(ev, n, absent);
	if (ret)
		bench_spike_restore();
	return ret;
}

int bench_trace_start(void)
{
	int ret = spike_start();

	if (ret)
		bench_spike_restore();
	return ret;
}

void bench_trace_stop(void)
{
	ssize_t r;

	if (sp.on_fd < 0)
		return;
	r = write(sp.on_fd, "0", 1);
	(void)r;
}

FILE *bench_trace_open(void)
{
	char path[PATH_MAX];
	FILE *f;

	path_of(path, sizeof(path), "trace");
	f = fopen(path, "re");
	if (!f)
		spike_fail("read", path, -errno);
	return f;
}

void bench_spike_hit(const struct bench_row *row, uint64_t start_ns,
		     uint64_t end_ns)
{
	ssize_t r;

	sp.over++;
	if (sp.hit)
		return;
	r = write(sp.on_fd, "0", 1);	/* stop: the spike is the newest */
	(void)r;
	sp.hit = true;
	sp.row = row;
	sp.start = start_ns;
	sp.end = end_ns;
	sp.index = udrv_hist_count(row->hist);
	sp.cpu = sched_getcpu();
}

/* ---- putting it back ------------------------------------------------------ */

void bench_spike_restore_signal_safe(void)
{
	if (sp.on_fd >= 0)
		close(sp.on_fd);
	sp.on_fd = -1;
	while (sp.nsaved > 0) {
		sp.nsaved--;
		write_str(sp.saved[sp.nsaved].path, sp.saved[sp.nsaved].old);
	}
	if (sp.mounted)
		umount2(sp.dir, MNT_DETACH);
	sp.mounted = false;
	bench_spike_ns = 0;
}

void bench_spike_restore(void)
{
	int err;

	if (sp.on_fd >= 0)
		close(sp.on_fd);
	sp.on_fd = -1;
	while (sp.nsaved > 0) {
		struct saved *s = &sp.saved[--sp.nsaved];

		err = write_str(s->path, s->old);
		if (err)
			fprintf(stderr, "udrv-bench: cannot put %s back to '%s': %s\n",
				s->path, s->old, strerror(-err));
	}
	if (sp.mounted && umount2(sp.dir, MNT_DETACH))
		fprintf(stderr, "udrv-bench: cannot unmount the tracefs mounted on %s: %s\n",
			sp.dir, strerror(errno));
	sp.mounted = false;
	bench_spike_ns = 0;
}

/* ---- reading the trace ------------------------------------------------------ */

/* --spike-out, else next to --out (x.json -> x.spike.txt), else ./udrv-BENCH-spike.txt */
static void spike_file(const struct bench_run *run, char *buf, size_t len)
{
	const char *name = run->bench;
	size_t n;

	if (run->o.spike_out) {
		snprintf(buf, len, "%s", run->o.spike_out);
	} else if (run->o.out) {
		n = strlen(run->o.out);
		if (n > 5 && !strcmp(run->o.out + n - 5, ".json"))
			n -= 5;
		snprintf(buf, len, "%.*s.spike.txt", (int)n, run->o.out);
	} else {
		snprintf(buf, len, "udrv-%s-spike.txt", name);
	}
}

/* Stream the trace: feed the analysis, keep [from, to] (and comments). */
static int spike_read(FILE *in, FILE *out)
{
	struct trace_event ev;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');
		int got = trace_parse_line(line, len, &ev);

		if (got)
			trace_analysis_feed(&sp.an, &ev);
		if (got && (ev.ts_ns < sp.from || ev.ts_ns > sp.to))
			continue;
		if (fwrite(line, 1, (size_t)n, out) != (size_t)n)
			break;
		sp.lines++;
	}
	free(line);
	return ferror(in) ? -EIO : 0;
}

static void spike_policies(void)
{
	for (size_t i = 0; i < sp.an.n; i++) {
		struct trace_entry *e = &sp.an.entries[i];
		struct udrv_rt_thread t[4];
		char comm[TRACE_COMM_LEN + 2];
		int n;

		if (e->kind != TRACE_E_TASK || e->prio < 0 || e->prio >= 100)
			continue;
		/* the task as it is now, if it is still the same one */
		snprintf(comm, sizeof(comm), "%s", e->name);
		n = udrv_rt_threads(comm, t, 4);
		for (int k = 0; k < n && k < 4; k++)
			if (t[k].pid == e->pid && t[k].policy >= 0 &&
			    !strncmp(udrv_rt_policy_str(t[k].policy), "SCHED_", 6))
				snprintf(e->policy, sizeof(e->policy), "%s",
					 udrv_rt_policy_str(t[k].policy) + 6);
	}
}

static pid_t spike_path[TRACE_MAX_PATH];
static size_t spike_npath;

void bench_spike_path(pid_t pid)
{
	if (spike_npath < TRACE_MAX_PATH)
		spike_path[spike_npath++] = pid;
}

static void spike_analyse(const struct bench_run *run)
{
	uint64_t lat = sp.end - sp.start;
	uint64_t margin = lat > SPIKE_MARGIN_NS ? lat : SPIKE_MARGIN_NS;
	char path[PATH_MAX];
	FILE *in, *out;
	int err;

	sp.from = sp.start > margin ? sp.start - margin : 0;
	sp.to = sp.end + SPIKE_AFTER_NS;
	trace_analysis_init(&sp.an, sp.start, sp.end,
			    sp.cpu < 0 ? 0 : (unsigned int)sp.cpu, (int)getpid());
	/* the threads the wake-ups go through, and the bench's own helpers */
	for (size_t i = 0; i < run->num_threads; i++)
		trace_analysis_add_path(&sp.an, (int)run->threads[i].now.pid);
	for (size_t i = 0; i < spike_npath; i++)
		trace_analysis_add_path(&sp.an, (int)spike_path[i]);
	spike_file(run, sp.file, sizeof(sp.file));
	path_of(path, sizeof(path), "trace");
	in = fopen(path, "re");
	if (!in) {
		snprintf(sp.error, sizeof(sp.error), "cannot read %s: %s", path,
			 strerror(errno));
		return;
	}
	out = fopen(sp.file, "we");
	if (!out) {
		snprintf(sp.error, sizeof(sp.error), "cannot write the trace to %s: %s (see --spike-out)",
			 sp.file, strerror(errno));
		fclose(in);
		return;
	}
	fprintf(out, "# udrv-bench: spike of %llu ns: sample %llu of %s/%s%s%s %s, window %llu..%llu ns CLOCK_MONOTONIC, CPU %d, bench pid %d\n",
		(unsigned long long)lat, (unsigned long long)sp.index,
		sp.row->mechanism, sp.row->implementation,
		sp.row->wait ? "/" : "", sp.row->wait ? sp.row->wait : "",
		sp.row->what,
		(unsigned long long)sp.start, (unsigned long long)sp.end,
		sp.cpu, (int)getpid());
	err = spike_read(in, out);
	fclose(in);
	if (fclose(out) || err)
		snprintf(sp.error, sizeof(sp.error), "reading %s or writing %s failed",
			 path, sp.file);
	trace_analysis_finish(&sp.an);
	spike_policies();
	trace_verdict(&sp.an, sp.verdict, sizeof(sp.verdict));
}

static void spike_summary(void)
{
	const struct bench_row *r = sp.row;
	char what[96];

	fprintf(stderr, "udrv-bench: spike of %.1f us at sample %llu of %s/%s%s%s %s (CPU %d; %llu sample(s) above %llu us)\n",
		(double)(sp.end - sp.start) / 1e3, (unsigned long long)sp.index,
		r->mechanism, r->implementation, r->wait ? "/" : "",
		r->wait ? r->wait : "", r->what, sp.cpu,
		(unsigned long long)sp.over,
		(unsigned long long)(sp.threshold / 1000));
	if (sp.error[0]) {
		fprintf(stderr, "udrv-bench: spike: no analysis: %s\n", sp.error);
		return;
	}
	fprintf(stderr, "udrv-bench: spike: %s%s\n", sp.an.cause >= 0 ? "cause: " : "",
		sp.verdict);
	for (size_t i = 0; i < sp.an.n && i < SPIKE_TOP; i++) {
		const struct trace_entry *e = &sp.an.entries[i];

		if (!e->ns)
			break;
		trace_entry_str(e, what, sizeof(what));
		fprintf(stderr, "udrv-bench: spike: %10.1f us  %-48s %s\n",
			(double)e->ns / 1e3, what, trace_role_str(e->role));
	}
	fprintf(stderr, "udrv-bench: spike: trace: %s (%llu lines)\n", sp.file,
		(unsigned long long)sp.lines);
}

void bench_spike_finish(struct bench_run *run)
{
	if (!sp.armed || sp.finished)
		return;
	sp.finished = true;
	if (!sp.hit) {
		fprintf(stderr, "udrv-bench: no sample above %llu us: no spike to trace\n",
			(unsigned long long)(sp.threshold / 1000));
		return;
	}
	spike_analyse(run);
	spike_summary();
}

/* ---- the document ------------------------------------------------------------ */

static void json_entry(struct udrv_json *j, const struct trace_entry *e)
{
	char prio[24];

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "kind", trace_entry_kind_str(e->kind));
	udrv_json_kstr(j, "name", e->name);
	udrv_json_key(j, "pid");
	if (e->kind == TRACE_E_TASK || e->kind == TRACE_E_IDLE)
		udrv_json_int(j, e->pid);
	else
		udrv_json_null(j);
	udrv_json_key(j, "irq");
	if (e->irq >= 0)
		udrv_json_int(j, e->irq);
	else
		udrv_json_null(j);
	trace_prio_str(e->prio, e->policy, prio, sizeof(prio));
	udrv_json_kstr(j, "priority", e->kind == TRACE_E_TASK ? prio : NULL);
	udrv_json_kuint(j, "ns", e->ns);
	udrv_json_kuint(j, "count", e->count);
	udrv_json_kstr(j, "role", trace_role_str(e->role));
	udrv_json_kuint(j, "rt_waiting_ns", e->rt_waiting_ns);
	udrv_json_key(j, "run_ns");
	if (e->kind == TRACE_E_TASK && e->run_end > e->run_start)
		udrv_json_uint(j, e->run_end - e->run_start);
	else
		udrv_json_null(j);
	udrv_json_obj_end(j);
}

static void json_sample(struct udrv_json *j)
{
	const struct bench_row *r = sp.row;

	udrv_json_key(j, "sample");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", r->mechanism);
	udrv_json_kstr(j, "implementation", r->implementation);
	udrv_json_kstr(j, "wait", r->wait);
	udrv_json_kstr(j, "sample", r->what);
	udrv_json_kuint(j, "index", sp.index);
	udrv_json_kuint(j, "latency_ns", sp.end - sp.start);
	udrv_json_kuint(j, "start_ns", sp.start);
	udrv_json_kuint(j, "end_ns", sp.end);
	udrv_json_kint(j, "cpu", sp.cpu);
	udrv_json_obj_end(j);
}

static void json_analysis(struct udrv_json *j)
{
	bool ok = sp.finished && !sp.error[0];

	udrv_json_key(j, "window");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "start_ns", sp.start);
	udrv_json_kuint(j, "end_ns", sp.end);
	udrv_json_kuint(j, "covered_ns", sp.an.covered_ns);
	udrv_json_kuint(j, "events", sp.an.window_events);
	udrv_json_kuint(j, "runnable_ns", sp.an.runnable_ns);
	udrv_json_kuint(j, "rt_waiting_idle_ns", sp.an.rt_waiting_idle_ns);
	udrv_json_kuint(j, "rt_waiting_other_ns", sp.an.rt_waiting_other_ns);
	udrv_json_obj_end(j);
	udrv_json_kbool(j, "rt_kept_waiting", ok && sp.an.kept_waiting);
	udrv_json_kbool(j, "rt_throttled", ok && sp.an.throttled);
	udrv_json_key(j, "top");
	udrv_json_arr_begin(j);
	for (size_t i = 0; ok && i < sp.an.n && i < SPIKE_TOP && sp.an.entries[i].ns; i++)
		json_entry(j, &sp.an.entries[i]);
	udrv_json_arr_end(j);
	udrv_json_key(j, "cause");
	if (ok && sp.an.cause >= 0)
		json_entry(j, &sp.an.entries[sp.an.cause]);
	else
		udrv_json_null(j);
	udrv_json_kstr(j, "verdict", ok ? sp.verdict : NULL);
	udrv_json_key(j, "trace");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "file", sp.file[0] ? sp.file : NULL);
	udrv_json_kuint(j, "lines", sp.lines);
	udrv_json_kuint(j, "from_ns", sp.from);
	udrv_json_kuint(j, "to_ns", sp.to);
	udrv_json_kstr(j, "tracefs", sp.dir);
	udrv_json_kstr(j, "clock", "mono");
	udrv_json_kuint(j, "buffer_size_kb", sp.buffer_kb);
	udrv_json_obj_end(j);
	udrv_json_kstr(j, "error", sp.error[0] ? sp.error : NULL);
}

void bench_spike_json(struct udrv_json *j)
{
	if (!sp.armed)
		return;
	udrv_json_key(j, "spike");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "threshold_ns", sp.threshold);
	udrv_json_kuint(j, "samples_over", sp.over);
	udrv_json_kbool(j, "found", sp.hit);
	if (sp.hit) {
		json_sample(j);
		json_analysis(j);
	}
	udrv_json_obj_end(j);
}
