// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the third-party tools of the reference rows (tool.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "bench.h"
#include "tool.h"

int bench_which(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");
	const char *p, *end;
	size_t n;
	int w;

	for (p = dirs ? dirs : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		n = (size_t)(end - p);
		if (!n)
			continue;
		w = snprintf(path, len, "%.*s/%s", (int)n, p, name);
		if (w > 0 && (size_t)w < len && access(path, X_OK) == 0)
			return 0;
	}
	if (len)
		path[0] = '\0';
	return -ENOENT;
}

char *bench_slurp_fd(int fd, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;
	int err;

	if (!buf)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
fail:
	err = errno;
	free(buf);
	errno = err;
	return NULL;
}

char *bench_slurp(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = bench_slurp_fd(fd, lenp);
	err = errno;
	close(fd);
	errno = err;
	return buf;
}

int bench_tool_mkdir(struct bench_tool *tool, char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(tool->dir, sizeof(tool->dir), "%s/udrv-%.12s-XXXXXX",
		 tmp && *tmp && strlen(tmp) <= 40 ? tmp : "/tmp", tool->name);
	if (mkdtemp(tool->dir))
		return 0;
	snprintf(why, len, "mkdtemp %.40s: %s", tool->dir, strerror(errno));
	tool->dir[0] = '\0';
	return -1;
}

void bench_tool_file(const struct bench_tool *tool, const char *file,
		     char *path, size_t len)
{
	snprintf(path, len, "%s/%s", tool->dir, file);
}

static void redirect(const struct bench_tool *tool, const char *file, int fd)
{
	char path[BENCH_TOOL_DIR_LEN + 8];
	int f;

	bench_tool_file(tool, file, path, sizeof(path));
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (f < 0 || dup2(f, fd) < 0)
		_exit(126);
	close(f);
}

static void child(const struct bench_tool *tool, char **argv, int in, int out)
{
	struct sched_param sp = { 0 };
	sigset_t none;

	/* like a start from a shell: the tool sets its own scheduling; the
	 * peer keeps the bench's (policy, priority, CPU) */
	if (!tool->keep_sched)
		sched_setscheduler(0, SCHED_OTHER, &sp);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (in >= 0 && dup2(in, STDIN_FILENO) < 0)
		_exit(126);
	if (out >= 0 && dup2(out, STDOUT_FILENO) < 0)
		_exit(126);
	if (out < 0)
		redirect(tool, "out", STDOUT_FILENO);
	redirect(tool, "err", STDERR_FILENO);
	sp.sched_priority = tool->fifo_prio;
	if (tool->fifo_prio && sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "udrv-bench: %s at SCHED_OTHER: SCHED_FIFO %d: %s\n",
			tool->name, tool->fifo_prio, strerror(errno));
	execv(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The first line of the tool's stderr (not cyclictest's "# ..." info). */
static void first_error(const struct bench_tool *tool, char *buf, size_t len)
{
	char path[BENCH_TOOL_DIR_LEN + 8];
	FILE *f;

	buf[0] = '\0';
	bench_tool_file(tool, "err", path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(buf, (int)len, f))
		if (buf[0] != '#' && buf[0] != '\n')
			break;
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/*
 * Does @pid catch @sig yet ("SigCgt:" in /proc/PID/status, a hex mask)? A
 * tool that gets its stop signal before it set its handler dies of it,
 * without putting back what it has changed so far (rtla: its tracefs
 * instance).
 */
static bool catches(pid_t pid, int sig)
{
	char path[40], hex[24], *buf, *p;
	uint64_t mask = 0;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	buf = bench_slurp(path, NULL);
	p = buf ? strstr(buf, "\nSigCgt:\t") : NULL;
	if (p) {
		p += strlen("\nSigCgt:\t");
		n = strcspn(p, "\n");
		if (n < sizeof(hex) - 2) {
			snprintf(hex, sizeof(hex), "0x%.*s", (int)n, p);
			if (udrv_parse_u64(hex, UINT64_MAX, &mask))
				mask = 0;
		}
	}
	free(buf);
	return mask & (1ULL << (sig - 1));
}

/* The bench was interrupted: stop the tool its own way, then for good. */
static void stop(const struct bench_tool *tool, pid_t pid, int *status)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	bool sent = false;
	int i;

	for (i = 0; i < BENCH_TOOL_STOP_S * 50; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return;
		if (!sent && catches(pid, tool->stop_signal))
			sent = !kill(pid, tool->stop_signal);
		nanosleep(&tick, NULL);
	}
	fprintf(stderr, "udrv-bench: %s did not stop within %d s of %s: killed\n",
		tool->name, BENCH_TOOL_STOP_S, strsignal(tool->stop_signal));
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

static int wait_tool(const struct bench_tool *tool, pid_t pid, int *status)
{
	for (;;) {
		if (bench_interrupted()) {
			stop(tool, pid, status);
			return 0;
		}
		if (waitpid(pid, status, 0) == pid)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

/* Pipes to the child's stdin (@to) and from its stdout (@from). */
static int pipes(int *to, int *from, int fds[4], char *why, size_t len)
{
	fds[0] = fds[1] = fds[2] = fds[3] = -1;
	if (!to)
		return 0;
	if (!pipe2(fds, O_CLOEXEC) && !pipe2(fds + 2, O_CLOEXEC))
		return 0;
	snprintf(why, len, "pipe: %s", strerror(errno));
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return -1;
}

pid_t bench_tool_start(struct bench_tool *tool, char **argv, int *to,
		       int *from, char *why, size_t len)
{
	int fds[4];	/* stdin's read, write end; stdout's read, write end */
	pid_t pid;

	if (bench_interrupted()) {
		snprintf(why, len, "interrupted");
		return -1;
	}
	if (pipes(to, from, fds, why, len))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(tool, argv, fds[0], fds[3]);
	if (pid < 0)
		snprintf(why, len, "fork: %s", strerror(errno));
	if (to) {
		close(fds[0]);
		close(fds[3]);
		if (pid < 0) {
			close(fds[1]);
			close(fds[2]);
		} else {
			*to = fds[1];
			*from = fds[2];
		}
	}
	return pid;
}

int bench_tool_wait(struct bench_tool *tool, pid_t pid, char *why, size_t len)
{
	char err[80];
	int status;

	if (wait_tool(tool, pid, &status)) {
		snprintf(why, len, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (bench_interrupted()) {
		snprintf(why, len, "interrupted");
		return -1;
	}
	first_error(tool, err, sizeof(err));
	snprintf(why, len, "it failed (%s %d)%s%s",
		 WIFEXITED(status) ? "exit" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		 err[0] ? ": " : "", err);
	return -1;
}

int bench_tool_run(struct bench_tool *tool, char **argv, char *why, size_t len)
{
	pid_t pid = bench_tool_start(tool, argv, NULL, NULL, why, len);

	return pid < 0 ? -1 : bench_tool_wait(tool, pid, why, len);
}

void bench_tool_rmdir(struct bench_tool *tool)
{
	char path[BENCH_TOOL_DIR_LEN + NAME_MAX + 2];
	struct dirent *e;
	DIR *d;

	if (!tool->dir[0])
		return;
	d = opendir(tool->dir);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tool->dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(tool->dir);
	tool->dir[0] = '\0';
}
