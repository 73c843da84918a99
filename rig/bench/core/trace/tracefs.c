// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs for the benches that trace (--trace-on-spike: spike.c; reply
 * --breakdown: reply_breakdown.c), one user at a time: found or mounted,
 * set up (tracing off, the nop tracer, trace_clock mono so trace timestamps
 * are CLOCK_MONOTONIC, a buffer of TRACEFS_BUFFER_KB at least, the events
 * with their filters), started and stopped. Everything written to tracefs
 * is recorded with the value it had, and put back in reverse order at the
 * end, on errors, on SIGINT/SIGTERM (through bench_end) and from the irq
 * bench's watchdog (bench_spike_restore_signal_safe). Two things cannot be
 * put back: the trace buffer's old contents (cleared when starting), and a
 * buffer the kernel had not expanded yet ("7 (expanded: 1408)": it expands
 * on first use and is put back at the expanded size).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "tracefs.h"

#define TRACEFS_MAX_SAVED	48

struct saved {
	char path[PATH_MAX];
	char old[32];
};

static struct {
	const char *who;		/* the option, for messages */
	char dir[PATH_MAX];		/* the tracefs in use */
	bool mounted;			/* by us: unmounted at the end */
	int on_fd;			/* tracing_on, kept open */
	unsigned long buffer_kb;	/* in force while tracing */
	struct saved saved[TRACEFS_MAX_SAVED];
	int nsaved;
} sp = { .on_fd = -1 };

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

static int trace_fail(const char *what, const char *path, int err)
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
static int trace_set(const char *name, const char *old, const char *value,
		     bool always)
{
	struct saved *s;
	char path[PATH_MAX];
	int err;

	path_of(path, sizeof(path), name);
	if (!strcmp(old, value) && !always)
		return 0;
	if (sp.nsaved == TRACEFS_MAX_SAVED)
		return bench_error(EXIT_FAIL, "%s: too many tracefs settings (TRACEFS_MAX_SAVED in %s)",
				 sp.who, __FILE__);
	s = &sp.saved[sp.nsaved];
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->old, sizeof(s->old), "%s", old);
	err = write_str(path, value);
	if (err)
		return trace_fail("write to", path, err);
	sp.nsaved++;
	return 0;
}

/* Read tracefs file @name's first line into @buf; 0 or an exit code. */
static int trace_get(const char *name, char *buf, size_t len, bool optional,
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
	return err ? trace_fail("read", path, err) : 0;
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

/* ---- setting up ----------------------------------------------------------- */

/* /sys/kernel/tracing, /sys/kernel/debug/tracing, or mount it. */
static int trace_find(void)
{
	const char *root = bench_sysroot();
	int ret = bench_tracefs_dir("trace_clock", sp.dir, sizeof(sp.dir));

	if (ret != -ENOENT)
		return ret ? trace_fail("find", sp.dir, ret) : 0;
	if (!*root && !mount("nodev", sp.dir, "tracefs", 0, NULL)) {
		sp.mounted = true;
		if (!bench_tracefs_dir("trace_clock", sp.dir, sizeof(sp.dir)))
			return 0;
	}
	return bench_error(EXIT_FAIL, "%s: no tracefs at %s%s or %s%s, and mounting it on %s failed: %s (as root: mount -t tracefs nodev /sys/kernel/tracing; the kernel needs CONFIG_FTRACE)",
			 sp.who, root, BENCH_TRACEFS, root, BENCH_TRACEFS_OLD, sp.dir,
			 *root ? "not tried under UDRV_SYSROOT" : strerror(errno));
}

static int trace_buffer(void)
{
	char line[64], want[24];
	const char *x;
	bool absent = false;
	uint64_t kb;
	int ret = trace_get("buffer_size_kb", line, sizeof(line), false, &absent);

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
	if (kb >= TRACEFS_BUFFER_KB)
		return 0;
	snprintf(want, sizeof(want), "%u", TRACEFS_BUFFER_KB);
	sp.buffer_kb = TRACEFS_BUFFER_KB;
	return trace_set("buffer_size_kb", line, want, false);
}

/* An event's filter, put back as it was ("none": cleared with "0"). */
static int trace_filter(const struct bench_trace_event *e)
{
	char name[96], old[32];
	bool absent = false;
	int ret;

	snprintf(name, sizeof(name), "events/%s/filter", e->path);
	ret = trace_get(name, old, sizeof(old), false, &absent);
	if (ret)
		return ret;
	if (strcmp(old, "none") && strcmp(old, e->filter))
		return bench_error(EXIT_FAIL, "%s: %s/%s holds '%s', another user's filter: clear it (echo 0 > it) first",
				 sp.who, sp.dir, name, old);
	return trace_set(name, !strcmp(old, "none") ? "0" : old, e->filter, false);
}

static int trace_events_on(const struct bench_trace_event *ev, size_t n,
			   bool *absent)
{
	char name[96], old[16];
	int ret;

	for (size_t i = 0; i < n; i++) {
		bool gone = false;

		snprintf(name, sizeof(name), "events/%s/enable", ev[i].path);
		ret = trace_get(name, old, sizeof(old), ev[i].optional, &gone);
		if (!ret && !gone && ev[i].filter)
			ret = trace_filter(&ev[i]);
		if (!ret && !gone)
			ret = trace_set(name, old, "1", false);
		if (ret)
			return ret;
		if (absent)
			absent[i] = gone;
	}
	return 0;
}

static int trace_settings(const struct bench_trace_event *ev, size_t n,
			  bool *absent)
{
	char line[256], old[32];
	bool none = false;
	int ret;

	ret = trace_get("tracing_on", old, sizeof(old), false, &none);
	if (!ret)
		ret = trace_set("tracing_on", old, "0", true);
	if (!ret)
		ret = trace_get("current_tracer", old, sizeof(old), false, &none);
	if (!ret)
		ret = trace_set("current_tracer", old, "nop", false);
	if (!ret)
		ret = trace_get("trace_clock", line, sizeof(line), false, &none);
	if (!ret) {
		selected(line, old, sizeof(old));
		ret = trace_set("trace_clock", old, "mono", false);
	}
	if (!ret)
		ret = trace_buffer();
	if (!ret)
		ret = trace_events_on(ev, n, absent);
	return ret;
}

static int trace_begin(void)
{
	char path[PATH_MAX];
	int err;

	path_of(path, sizeof(path), "trace");
	err = write_str(path, "");		/* clear the buffer */
	if (err)
		return trace_fail("clear", path, err);
	path_of(path, sizeof(path), "tracing_on");
	sp.on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (sp.on_fd < 0)
		return trace_fail("open", path, -errno);
	if (write(sp.on_fd, "1", 1) != 1)
		return trace_fail("write 1 to", path, -errno);
	return 0;
}

int bench_trace_setup(const char *who, const struct bench_trace_event *ev,
		      size_t n, bool *absent)
{
	int ret;

	if (sp.nsaved)
		return bench_error(EXIT_FAIL, "%s: tracefs is already in use by %s",
				   who, sp.who);
	memset(&sp, 0, sizeof(sp));
	sp.on_fd = -1;
	sp.who = who;
	ret = trace_find();
	if (!ret)
		ret = trace_settings(ev, n, absent);
	if (ret)
		bench_trace_restore();
	return ret;
}

int bench_trace_start(void)
{
	int ret = trace_begin();

	if (ret)
		bench_trace_restore();
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

int bench_trace_set(const char *name, const char *value)
{
	char old[32];
	bool none = false;
	int ret = trace_get(name, old, sizeof(old), false, &none);

	return ret ? ret : trace_set(name, old, value, false);
}

void bench_trace_path(char *buf, size_t len, const char *name)
{
	path_of(buf, len, name);
}

FILE *bench_trace_open(void)
{
	char path[PATH_MAX];
	FILE *f;

	path_of(path, sizeof(path), "trace");
	f = fopen(path, "re");
	if (!f)
		trace_fail("read", path, -errno);
	return f;
}

const char *bench_trace_dir(void)
{
	return sp.dir;
}

unsigned long bench_trace_buffer_kb(void)
{
	return sp.buffer_kb;
}

/* ---- putting it back ------------------------------------------------------ */

/* @say: messages when something cannot be put back (not from a signal
 * handler: open, write, close and umount2 only then). */
static void trace_put_back(bool say)
{
	int err;

	if (sp.on_fd >= 0)
		close(sp.on_fd);
	sp.on_fd = -1;
	while (sp.nsaved > 0) {
		struct saved *s = &sp.saved[--sp.nsaved];

		err = write_str(s->path, s->old);
		if (err && say)
			fprintf(stderr, "udrv-bench: cannot put %s back to '%s': %s\n",
				s->path, s->old, strerror(-err));
	}
	if (sp.mounted && umount2(sp.dir, MNT_DETACH) && say)
		fprintf(stderr, "udrv-bench: cannot unmount the tracefs mounted on %s: %s\n",
			sp.dir, strerror(errno));
	sp.mounted = false;
}

void bench_trace_restore(void)
{
	trace_put_back(true);
}

void bench_trace_restore_signal_safe(void)
{
	trace_put_back(false);
}
