// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding and running udrv-bench-peer (peer.h).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "peer.h"

#define PEER_MAX_ARGS	24
#define PEER_MAX_TEXT	(64 * 1024)	/* an interactive reply, at most */
#define PEER_STOP_MS	10		/* SIGTERM again after this */

static int usable(const char *path)
{
	return access(path, X_OK) ? -ENOENT : 0;
}

const struct bench_peer_prog bench_peer_gpiod = {
	.name = BENCH_PEER_NAME, .libexec = BENCH_PEER_LIBEXEC,
	.env = BENCH_PEER_ENV, .absent = BENCH_PEER_ABSENT, .gpiod = true,
};

const struct bench_peer_prog bench_peer_dbus = {
	.name = BENCH_DBUS_NAME, .libexec = BENCH_DBUS_LIBEXEC,
	.env = BENCH_DBUS_ENV, .absent = BENCH_DBUS_ABSENT, .gpiod = false,
};

const struct bench_peer_prog bench_peer_lgpio = {
	.name = BENCH_LGPIO_NAME, .libexec = BENCH_LGPIO_LIBEXEC,
	.env = BENCH_LGPIO_ENV, .absent = BENCH_LGPIO_ABSENT, .gpiod = false,
};

int bench_peer_prog_path(const struct bench_peer_prog *prog, char *path, size_t len)
{
	const char *env = secure_getenv(prog->env);	/* not for set-user-ID */
	char exe[PATH_MAX], *slash;
	ssize_t n;
	int w;

	if (env && *env) {
		w = snprintf(path, len, "%s", env);
		return w > 0 && (size_t)w < len ? usable(path) : -ENOENT;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			w = snprintf(path, len, "%s/peers/%s", exe, prog->name);
			if (w > 0 && (size_t)w < len && !usable(path))
				return 0;
		}
	}
	snprintf(path, len, "%s", prog->libexec);
	return usable(path);
}

int bench_peer_path(char *path, size_t len)
{
	return bench_peer_prog_path(&bench_peer_gpiod, path, len);
}

int bench_peer_start(struct bench_peer *p, const char *const *args,
		     bool interactive, char *why, size_t len)
{
	return bench_peer_prog_start(p, &bench_peer_gpiod, args, interactive, why, len);
}

int bench_peer_prog_start(struct bench_peer *p, const struct bench_peer_prog *prog,
			  const char *const *args, bool interactive, char *why, size_t len)
{
	char path[PATH_MAX], *argv[PEER_MAX_ARGS + 2];
	int to, from;
	size_t n = 0;

	*p = (struct bench_peer){ .tool = { .name = prog->name,
					    .stop_signal = SIGTERM,
					    .keep_sched = true },
				  .pid = -1, .to = -1 };
	if (bench_peer_prog_path(prog, path, sizeof(path))) {
		snprintf(why, len, "%s", prog->absent);
		return -1;
	}
	argv[n++] = path;
	while (args[n - 1] && n <= PEER_MAX_ARGS)
		argv[n] = (char *)args[n - 1], n++;
	argv[n] = NULL;
	if (bench_tool_mkdir(&p->tool, why, len))
		return -1;
	p->pid = bench_tool_start(&p->tool, argv, interactive ? &to : NULL,
				  interactive ? &from : NULL, why, len);
	if (p->pid < 0) {
		bench_tool_rmdir(&p->tool);
		return -1;
	}
	if (!interactive)
		return 0;
	p->to = to;
	p->from = fdopen(from, "r");
	if (p->from)
		return 0;
	snprintf(why, len, "fdopen: %s", strerror(errno));
	close(from);
	bench_peer_finish(p, NULL, NULL, why + strlen(why), 0);
	return -1;
}

int bench_peer_send(struct bench_peer *p, char *why, size_t len,
		    const char *fmt, ...)
{
	char line[64];
	va_list ap;
	ssize_t w;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -1;
	w = write(p->to, line, (size_t)n);
	if (w == n)
		return 0;
	snprintf(why, len, "writing to %s: %s", BENCH_PEER_NAME,
		 w < 0 ? strerror(errno) : "short write");
	return -1;
}

int bench_peer_read(struct bench_peer *p, const struct bench_peer_key *keys,
		    size_t nkeys, const char *end,
		    int (*fn)(void *ctx, size_t key, const uint64_t *vals),
		    void *ctx, char *why, size_t len)
{
	char *text = NULL, *line = NULL, *nt;
	size_t tlen = 0, cap = 0;
	ssize_t n;
	int ret = -1;

	for (;;) {
		errno = 0;
		n = getline(&line, &cap, p->from);
		if (n <= 0) {
			snprintf(why, len, "%s stopped answering%s%s", BENCH_PEER_NAME,
				 errno ? ": " : "", errno ? strerror(errno) : "");
			goto out;
		}
		nt = tlen + (size_t)n <= PEER_MAX_TEXT ? realloc(text, tlen + (size_t)n + 1) : NULL;
		if (!nt) {
			snprintf(why, len, "%s: answer too long", BENCH_PEER_NAME);
			goto out;
		}
		text = nt;
		memcpy(text + tlen, line, (size_t)n);
		tlen += (size_t)n;
		if ((size_t)n == strlen(end) + 1 && !memcmp(line, end, strlen(end)) &&
		    line[n - 1] == '\n')
			break;
	}
	ret = bench_peer_text(text, tlen, keys, nkeys, end, fn, ctx, why, len);
out:
	free(line);
	free(text);
	return ret;
}

int bench_peer_reply(struct bench_peer *p, const char *key, unsigned int nvals,
		     uint64_t *vals, char *why, size_t len)
{
	uint64_t v[BENCH_PEER_MAX_VALS];
	char *line = NULL, got[BENCH_PEER_KEY_LEN];
	unsigned int n = 0;
	size_t cap = 0;
	ssize_t r;
	int ret = -1;

	errno = 0;
	r = getline(&line, &cap, p->from);
	if (r <= 0 || line[r - 1] != '\n')
		snprintf(why, len, "%s stopped answering%s%s", BENCH_PEER_NAME,
			 errno ? ": " : "", errno ? strerror(errno) : "");
	else if (bench_peer_line(line, (size_t)r - 1, got, sizeof(got), v,
				 BENCH_PEER_MAX_VALS, &n) ||
		 strcmp(got, key) || n != nvals)
		snprintf(why, len, "%s answered '%.*s', expected '%s' and %u number(s)",
			 BENCH_PEER_NAME, (int)(r - 1 > 40 ? 40 : r - 1), line,
			 key, nvals);
	else
		ret = 0;
	if (!ret && nvals)
		memcpy(vals, v, nvals * sizeof(*v));
	free(line);
	return ret;
}

int bench_peer_finish(struct bench_peer *p, char **out, size_t *outlen,
		      char *why, size_t len)
{
	char path[BENCH_TOOL_DIR_LEN + 8];
	int ret = 0;

	if (p->to >= 0)
		close(p->to);	/* EOF: an interactive peer exits */
	p->to = -1;
	if (p->pid > 0)
		ret = bench_tool_wait(&p->tool, p->pid, why, len);
	p->pid = -1;
	if (p->from)
		fclose(p->from);
	p->from = NULL;
	if (!ret && out) {
		bench_tool_file(&p->tool, "out", path, sizeof(path));
		*out = bench_slurp(path, outlen);
		if (!*out) {
			snprintf(why, len, "reading %s: %s", path, strerror(errno));
			ret = -1;
		}
	}
	bench_tool_rmdir(&p->tool);
	return ret;
}

/* Append what @fd has to *@buf; 0 at EOF, 1 for more, -1 on error. */
static int drain(int fd, char **buf, size_t *n, size_t *cap)
{
	char *nb;
	ssize_t r;

	if (*cap - *n < 65536) {
		nb = realloc(*buf, *cap * 2);
		if (!nb)
			return -1;
		*buf = nb;
		*cap *= 2;
	}
	r = read(fd, *buf + *n, *cap - *n - 1);
	if (r < 0)
		return errno == EINTR ? 1 : -1;
	*n += (size_t)r;
	return r > 0;
}

int bench_peer_rest(struct bench_peer *p, char **out, size_t *outlen,
		    char *why, size_t len)
{
	int fd = p->from ? fileno(p->from) : -1, ret = 1;
	size_t n = 0, cap = 131072;
	char *buf = malloc(cap);
	bool told = false;

	*out = NULL;
	while (buf && fd >= 0 && ret > 0) {
		ret = drain(fd, &buf, &n, &cap);
		if (ret > 0 && bench_interrupted() && !told) {
			kill(p->pid, SIGTERM);	/* it prints what it has */
			told = true;
		}
	}
	if (!buf || ret < 0 || fd < 0) {
		snprintf(why, len, "reading %s's output: %s", BENCH_PEER_NAME,
			 buf && fd >= 0 ? strerror(errno) : "not interactive, or out of memory");
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	if (outlen)
		*outlen = n;
	return 0;
}

int bench_peer_stop(struct bench_peer *p, char **out, size_t *outlen,
		    char *why, size_t len)
{
	struct pollfd pfd = { .fd = p->from ? fileno(p->from) : -1, .events = POLLIN };
	size_t n = 0, cap = 131072;
	char *buf = malloc(cap);
	bool answered = false;
	int ret = 1;

	*out = NULL;
	while (buf && pfd.fd >= 0 && ret > 0) {
		/* until it answers: a SIGTERM that came just before its read
		 * blocked found no flag to stop it */
		if (!answered)
			kill(p->pid, SIGTERM);
		if (poll(&pfd, 1, PEER_STOP_MS) <= 0)
			continue;
		ret = drain(pfd.fd, &buf, &n, &cap);
		answered = true;
	}
	if (!buf || ret < 0 || pfd.fd < 0) {
		snprintf(why, len, "reading %s's output: %s", BENCH_PEER_NAME,
			 buf && pfd.fd >= 0 ? strerror(errno) : "not interactive, or out of memory");
		free(buf);
		bench_peer_finish(p, NULL, NULL, why + strlen(why), 0);
		return -1;
	}
	buf[n] = '\0';
	if (bench_peer_finish(p, NULL, NULL, why, len)) {
		free(buf);
		return -1;
	}
	*out = buf;
	if (outlen)
		*outlen = n;
	return 0;
}

void bench_peer_run_store(struct bench_peer_run *r, size_t key,
			  const uint64_t *vals)
{
	switch (key) {
	case 0:
		r->major = vals[0];
		r->minor = vals[1];
		break;
	case 1:
		r->policy = vals[0];
		r->prio = vals[1];
		break;
	case 2:
		r->affinity = vals[0];
		break;
	default:
		r->mlocked = vals[0];
	}
}

static uint64_t own_affinity(void)
{
	uint64_t mask = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (int c = 0; c < 64; c++)
			if (CPU_ISSET(c, &set))
				mask |= 1ULL << c;
	return mask;
}

int bench_peer_run_check(const struct bench_peer_run *r, bool mlock,
			 char *why, size_t len)
{
	return bench_peer_prog_check(&bench_peer_gpiod, r, mlock, why, len);
}

int bench_peer_prog_check(const struct bench_peer_prog *prog, const struct bench_peer_run *r,
			  bool mlock, char *why, size_t len)
{
	struct sched_param sp = { 0 };
	int policy = sched_getscheduler(0);
	uint64_t aff = own_affinity();

	sched_getparam(0, &sp);
	if (prog->gpiod && (r->major != BENCH_PEER_MAJOR || r->minor != BENCH_PEER_MINOR))
		snprintf(why, len, "%s links libgpiod %llu.%llu, not %d.%d",
			 BENCH_PEER_NAME, (unsigned long long)r->major,
			 (unsigned long long)r->minor, BENCH_PEER_MAJOR,
			 BENCH_PEER_MINOR);
	else if (r->policy != (uint64_t)policy || r->prio != (uint64_t)sp.sched_priority)
		snprintf(why, len, "%s runs at policy %llu priority %llu, the bench at %d, %d",
			 prog->name, (unsigned long long)r->policy,
			 (unsigned long long)r->prio, policy, sp.sched_priority);
	else if (r->affinity != aff)
		snprintf(why, len, "%s may run on CPUs 0x%llx, the bench on 0x%llx",
			 prog->name, (unsigned long long)r->affinity,
			 (unsigned long long)aff);
	else if (r->mlocked != (uint64_t)mlock)
		snprintf(why, len, "%s's memory is %slocked, the bench's is%s",
			 prog->name, r->mlocked ? "" : "not ",
			 mlock ? "" : " not");
	else
		return 0;
	return -1;
}
