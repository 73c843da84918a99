// SPDX-License-Identifier: GPL-2.0-only
/*
 * The libgpiod 2.3 receiver of udrv bench rate: `udrv-bench-peer rx`
 * (bench/peers/, the contract in rate.h's rate_peer_parse()). Per step: the
 * peer requests the line and prints "ready"; the source runs for the step;
 * then the bench stops the source, lets the kernel settle, and sends SIGTERM
 * every 10 ms until the peer exits with its counts, CPU and latencies.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "peer.h"
#include "rate.h"

#define PEER_READY_MS	10000	/* the peer's request and "ready" */
#define PEER_SETTLE_MS	20	/* after the source stops, before SIGTERM */
#define PEER_TERM_MS	10	/* SIGTERM repeated this often */
#define PEER_EXIT_MS	10000	/* then SIGKILL */

struct peer_proc {
	pid_t pid;
	int out;		/* its stdout */
	char *text;
	size_t len, cap;
};

static int peer_spawn(struct rate_rx *rx, struct peer_proc *p)
{
	char batch[16], buffer[16], line[16], max[24];
	char *argv[] = { (char *)rx->peer, "rx", "--chip", (char *)rx->chip_path,
			 "--line", line, "--batch", batch, "--buffer", buffer,
			 "--max-samples", max, NULL };
	int fds[2];

	snprintf(batch, sizeof(batch), "%u", rx->batch);
	snprintf(buffer, sizeof(buffer), "%u", rx->buffer);
	snprintf(line, sizeof(line), "%u", rx->line);
	snprintf(max, sizeof(max), "%llu", (unsigned long long)rx->max_samples);
	if (pipe2(fds, O_CLOEXEC))
		return cli_error(EXIT_FAIL, "pipe: %s", strerror(errno));
	p->pid = fork();
	if (p->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return cli_error(EXIT_FAIL, "fork: %s", strerror(errno));
	}
	if (!p->pid) {
		/* the bench's SCHED_FIFO priority is inherited */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	p->out = fds[0];
	return 0;
}

/* Append what the pipe has; 1 at its end, 0 when more may come, -1 error. */
static int peer_take(struct peer_proc *p, int timeout_ms)
{
	struct pollfd pfd = { .fd = p->out, .events = POLLIN };
	ssize_t n;
	int ret = poll(&pfd, 1, timeout_ms);

	if (ret <= 0)
		return ret < 0 && errno != EINTR ? -1 : 0;
	if (p->cap - p->len < 65536) {
		size_t cap = p->cap ? p->cap * 2 : 262144;
		char *t = realloc(p->text, cap);

		if (!t)
			return -1;
		p->text = t;
		p->cap = cap;
	}
	n = read(p->out, p->text + p->len, p->cap - p->len - 1);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	p->len += (size_t)n;
	p->text[p->len] = '\0';
	return n == 0;
}

static int peer_wait_ready(const struct rate_rx *rx, struct peer_proc *p)
{
	uint64_t t0 = cli_now_ns();

	while (p->len < 6 && cli_now_ns() - t0 < PEER_READY_MS * 1000000ULL) {
		int ret = peer_take(p, 100);

		if (ret || bench_interrupted())
			break;
	}
	if (p->len >= 6 && !memcmp(p->text, "ready\n", 6))
		return 0;
	return cli_error(EXIT_FAIL, "bench rate: %s rx did not print 'ready' within %d s (%s): see its message above",
			 rx->peer, PEER_READY_MS / 1000,
			 p->len ? "it printed something else" : "it printed nothing");
}

/* SIGTERM every PEER_TERM_MS until it exits, reading its output. */
static int peer_stop(struct peer_proc *p, int *status)
{
	uint64_t t0 = cli_now_ns();
	bool eof = false;
	pid_t w = 0;

	while (!w || !eof) {
		if (!w) {
			kill(p->pid, cli_now_ns() - t0 > PEER_EXIT_MS * 1000000ULL ?
				     SIGKILL : SIGTERM);
			w = waitpid(p->pid, status, WNOHANG);
			if (w < 0)
				return -1;
		}
		if (!eof) {
			int ret = peer_take(p, PEER_TERM_MS);

			if (ret < 0)
				return -1;
			eof = ret == 1;
		} else {
			struct timespec ts = { 0, PEER_TERM_MS * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	return 0;
}

static void peer_sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	while (!bench_interrupted() &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int peer_result(const struct rate_rx *rx, struct peer_proc *p, int status,
		       struct udrv_hist *lat, struct rate_step *st)
{
	struct rate_peer_out o;
	char why[200];

	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return cli_error(EXIT_FAIL, "bench rate: %s rx ended with %s %d (see its message above)",
				 rx->peer, WIFEXITED(status) ? "exit status" : "signal",
				 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	if (rate_peer_parse(p->text, p->len, lat, &o, why, sizeof(why)))
		return cli_error(EXIT_FAIL, "bench rate: the output of %s rx: %s",
				 rx->peer, why);
	st->received = o.received;
	st->reads = o.reads;
	st->cpu_ns = o.cpu_user_ns + o.cpu_sys_ns;
	st->left_out = o.received - o.samples;
	/*
	 * The contract's (last - first + 1) - received, plus first - 1: a
	 * fresh request numbers its events from 1, so events dropped before
	 * the first read count too.
	 */
	st->dropped = o.received ? o.seqno_last - o.received : 0;
	return 0;
}

int rate_peer_step(struct rate_rx *rx, struct rate_src *src,
		   uint64_t period_ns, uint64_t duration_ns,
		   struct udrv_hist *lat, struct rate_step *st)
{
	struct peer_proc p = { .pid = -1, .out = -1 };
	struct rate_count c0, c1;
	uint64_t t0;
	int status = 0, ret;

	memset(st, 0, sizeof(*st));
	udrv_hist_reset(lat);
	ret = peer_spawn(rx, &p);
	if (!ret)
		ret = peer_wait_ready(rx, &p);
	if (!ret && rx->peer_ready)
		ret = rx->peer_ready(rx->ctx);
	if (!ret)
		ret = rate_src_count(src, &c0);
	t0 = bench_now_ns();
	if (!ret)
		ret = rate_src_start(src, period_ns,
				     (duration_ns + period_ns - 1) / period_ns);
	if (!ret) {
		peer_sleep_until(t0 + duration_ns);
		ret = rate_src_stop(src);
		st->duration_ns = bench_now_ns() - t0;
		peer_sleep_until(bench_now_ns() + PEER_SETTLE_MS * 1000000ULL);
	}
	if (p.pid > 0 && peer_stop(&p, &status))
		ret = cli_error(EXIT_FAIL, "bench rate: waiting for %s: %s",
				rx->peer, strerror(errno));
	if (!ret)
		ret = peer_result(rx, &p, status, lat, st);
	if (!ret)
		ret = rate_src_count(src, &c1);
	/* the peer reports no times: the events count over the source's */
	st->elapsed_ns = st->duration_ns;
	if (!ret) {
		st->c.made = c1.made - c0.made;
		st->c.masked = c1.masked - c0.masked;
		st->c.injected = c1.injected - c0.injected;
		st->c.overruns = c1.overruns - c0.overruns;
		st->c.signalled = st->c.made;
	}
	if (p.out >= 0)
		close(p.out);
	free(p.text);
	return ret;
}
