// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pwm's generators, each run for the same number of periods
 * while the bench watches the wire (pwm_watch.c):
 *
 *   hw     a channel of the kernel's PWM class through libudrv (the lab's
 *          pwm-fixture: an hrtimer in hard interrupt context drives the
 *          line, the kernel's reference); the fixture's own counts
 *   udrv   libudrv's software PWM (udrv/soft_pwm.h) in a child process
 *          that runs as a program of its user does: SCHED_OTHER, memory
 *          not locked, any CPU, unless the tuning (the PWM's own config:
 *          priority, CPU, memory lock, tail) says otherwise; the thread's
 *          own counts and the child's CPU time
 *   lgpio  lgpio's tx_pwm/tx_servo in udrv-bench-lgpio, the process
 *          tuned as the udrv child's PWM thread is (lgpio's thread
 *          inherits it); its CPU time
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <udrv/parse.h>
#include <udrv/soft_pwm.h>
#include <unistd.h>

#include "fields.h"
#include "msg.h"
#include "peer.h"
#include "pwm/pwm.h"
#include "spike.h"
#include "tool.h"

#define FIXTURE_STATS	"/sys/devices/platform/pwm-fixture/stats"

static uint64_t wave_period_ns(const struct pwm_wave *w)
{
	return 1000000000ULL / w->frequency_hz;
}

static uint64_t run_ns(const struct pwm_gen_ctx *g, const struct pwm_wave *w)
{
	return g->periods * wave_period_ns(w);
}

static void sleep_until_ns(uint64_t end)
{
	struct timespec t = { .tv_sec = (time_t)(end / 1000000000ULL),
			      .tv_nsec = (long)(end % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR &&
	       !bench_interrupted())
		;
}

/* ---- the hardware PWM ------------------------------------------------ */

struct hw_run {
	uint64_t end_ns;
};

/* Over at its end, mid-low-phase (see hw_run()): a polled run waits for
 * that itself when it comes before the next read, which would be late */
static int hw_done(void *ctx, bool block)
{
	uint64_t end = ((struct hw_run *)ctx)->end_ns;

	if (block || bench_now_ns() + PWM_WATCH_EVERY_NS >= end)
		sleep_until_ns(end);
	return bench_now_ns() >= end || bench_interrupted();
}

/* "CH LINE PERIODS EDGES OVERRUNS" of channel @ch: 0, or -1 (no such file). */
static int fixture_counts(unsigned int ch, struct pwm_source *src)
{
	char path[256], line[6 * (BENCH_FIELD_DIGITS + 1) + 1], *text, *l, *save = NULL;
	uint64_t v[5];
	int ret = -1;

	snprintf(path, sizeof(path), "%s%s", bench_sysroot(), FIXTURE_STATS);
	text = bench_slurp(path, NULL);
	if (!text)
		return -1;
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		snprintf(line, sizeof(line), "%s\n", l);
		if (bench_read_u64s(line, v, 5) || v[0] != ch)
			continue;
		src->has_counts = true;
		src->periods = v[2];
		src->edges = v[3];
		src->missed = v[4];
		ret = 0;
	}
	free(text);
	return ret;
}

static int hw_run(const struct pwm_gen_ctx *g, struct udrv_pwm *pwm,
		  const struct pwm_wave *wave, struct pwm_source *src)
{
	struct hw_run r;
	uint64_t t0;
	int ret;

	if (udrv_pwm_set_config(pwm, wave_period_ns(wave), wave->width_us * 1000ULL) ||
	    udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_NORMAL))
		return bench_error(EXIT_FAIL, "pwm: %s", udrv_pwm_errmsg(pwm));
	t0 = bench_now_ns();
	if (udrv_pwm_enable(pwm))
		return bench_error(EXIT_FAIL, "pwm: %s", udrv_pwm_errmsg(pwm));
	/*
	 * Disable in the middle of a low phase: at a rising edge, the bench
	 * (above the edge interrupt's thread) would drive the falling one
	 * before that thread ran, and the kernel reports two edges that close
	 * as one event (of the level it reads then)
	 */
	r.end_ns = t0 + run_ns(g, wave) + (wave_period_ns(wave) + wave->width_us * 1000ULL) / 2;
	ret = pwm_watch_until(g->watch, hw_done, &r);
	if (!ret && bench_interrupted())
		ret = 128 + bench_interrupted();
	if (udrv_pwm_disable(pwm) && !ret)
		ret = bench_error(EXIT_FAIL, "pwm: %s", udrv_pwm_errmsg(pwm));
	src->duration_ns = bench_now_ns() - t0;
	src->cpu_ns = UINT64_MAX;
	if (!ret && !strcmp(udrv_pwm_device(pwm), "pwm-fixture"))
		fixture_counts((unsigned int)udrv_pwm_channel(pwm), src);
	return ret;
}

int pwm_gen_hw(const struct pwm_gen_ctx *g, const char *chip, unsigned int channel,
	       const struct pwm_wave *wave, struct pwm_source *src)
{
	struct udrv_pwm *pwm = udrv_pwm_new();
	int ret;

	if (!pwm)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_pwm_open(pwm, chip, channel, 0))
		ret = bench_error(EXIT_FAIL, "pwm: %s", udrv_pwm_errmsg(pwm));
	else
		ret = hw_run(g, pwm, wave, src);
	udrv_pwm_free(pwm);
	return ret;
}

/* ---- a child process's end, and what it printed --------------------- */

/* 1 once @pid has ended (not reaped: its status stays for waitpid()); with
 * @block, waits for that (or the bench's interruption: then -(128 + sig)) */
static int child_done(void *ctx, bool block)
{
	siginfo_t si = { 0 };
	pid_t pid = *(pid_t *)ctx;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) {
		if (errno == EINTR && bench_interrupted())
			return -(128 + bench_interrupted());
		if (errno != EINTR)
			return -bench_error(EXIT_FAIL, "pwm: waitid(%d): %s", (int)pid,
					    strerror(errno));
	}
	return si.si_pid == pid;
}

enum { K_SCHED, K_AFFINITY, K_MLOCKED, K_DURATION, K_USER, K_SYS, K_PERIODS, K_MISSED,
       K_SKIPPED, K_EDGES, K_LATE, K_THREAD };

static const struct bench_peer_key gen_keys[] = {
	{ "sched", 2, BENCH_PEER_REQUIRED },
	{ "affinity", 1, BENCH_PEER_REQUIRED },
	{ "mlocked", 1, BENCH_PEER_REQUIRED },
	{ "duration_ns", 1, BENCH_PEER_REQUIRED },
	{ "cpu_user_ns", 1, BENCH_PEER_REQUIRED },
	{ "cpu_sys_ns", 1, BENCH_PEER_REQUIRED },
	/* udrv's thread only */
	{ "periods", 1, 0 }, { "missed", 1, 0 }, { "skipped", 1, 0 },
	{ "edges", 1, 0 }, { "worst_late_ns", 1, 0 }, { "thread", 1, 0 },
};

struct gen_out {
	struct pwm_source *src;
	uint64_t sched[2], mlocked;
};

static int gen_key(void *ctx, size_t key, const uint64_t *v)
{
	struct gen_out *o = ctx;
	struct pwm_source *s = o->src;

	switch (key) {
	case K_SCHED: o->sched[0] = v[0], o->sched[1] = v[1]; break;
	case K_MLOCKED: o->mlocked = v[0]; break;
	case K_DURATION: s->duration_ns = v[0]; break;
	case K_USER: s->cpu_ns = v[0]; break;
	case K_SYS: s->cpu_ns += v[0]; break;
	case K_PERIODS: s->periods = v[0], s->has_counts = true; break;
	case K_MISSED: s->missed = v[0]; break;
	case K_SKIPPED: s->skipped = v[0]; break;
	case K_EDGES: s->edges = v[0]; break;
	case K_LATE: s->worst_late_ns = v[0]; break;
	case K_THREAD: s->thread = v[0]; break;
	default: break;
	}
	return 0;
}

/* What generator @who printed, and that it ran as told. */
static int gen_output(const char *who, const char *text, size_t len,
		      const struct pwm_tuning *t, bool thread_counts, struct pwm_source *src)
{
	struct gen_out o = { .src = src };
	char why[200];

	if (bench_peer_text(text, len, gen_keys, sizeof(gen_keys) / sizeof(gen_keys[0]),
			    "end", gen_key, &o, why, sizeof(why)))
		return bench_error(EXIT_FAIL, "pwm: %s's output: %s", who, why);
	if (thread_counts != src->has_counts)
		return bench_error(EXIT_FAIL, "pwm: %s's output: %s the thread's counts", who,
				   thread_counts ? "without" : "with");
	/* the process (lgpio's, whose thread inherits it) as told */
	if (!thread_counts && ((o.sched[0] == SCHED_FIFO) != (t->prio > 0) ||
			       (t->prio && o.sched[1] != (uint64_t)t->prio) ||
			       o.mlocked != t->mlock))
		return bench_error(EXIT_FAIL, "pwm: %s ran at policy %" PRIu64 " priority %"
				   PRIu64 ", memory locked %" PRIu64 ", not as told", who,
				   o.sched[0], o.sched[1], o.mlocked);
	return 0;
}

/* ---- udrv's software PWM, in a child -------------------------------- */

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * UINT64_C(1000000000) + (uint64_t)tv->tv_usec * 1000;
}

static int child_fail(const char *what, const char *msg)
{
	fprintf(stderr, "udrv-bench: pwm: udrv's generator: %s: %s\n", what, msg);
	return 1;
}

/* The PWM's thread: the one task of this process that is not its main
 * thread (/proc/self/task); 0 if that cannot be told. */
static pid_t child_thread(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t self = getpid(), found = 0;
	unsigned int n = 0;
	int64_t v;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!udrv_parse_s64(e->d_name, 1, INT32_MAX, &v) && (pid_t)v != self) {
			found = (pid_t)v;
			n++;
		}
	closedir(d);
	return n == 1 ? found : 0;
}

static int child_pwm(struct udrv_request *req, const struct pwm_tuning *t,
		     const struct pwm_wave *wave, uint64_t run, FILE *out)
{
	struct udrv_soft_pwm_config c = {
		.priority = t->prio, .tail_ns = t->tail_ns,
		.flags = (t->mlock ? UDRV_SOFT_PWM_LOCK_MEMORY : 0) |
			 (t->cpu >= 0 ? UDRV_SOFT_PWM_PIN_CPU : 0),
		.cpu = t->cpu >= 0 ? t->cpu : 0,
	};
	struct udrv_soft_pwm_stats st;
	struct udrv_soft_pwm *pwm;
	struct rusage r0, r1;
	uint64_t t0, t1;
	pid_t thread;

	if (udrv_soft_pwm_new(req, 0, &c, &pwm))
		return child_fail("udrv_soft_pwm_new", udrv_request_errmsg(req));
	if (udrv_soft_pwm_set_config(pwm, wave_period_ns(wave), wave->width_us * 1000ULL))
		return child_fail("config", udrv_soft_pwm_errmsg(pwm));
	/* the periods from the first one, which the start drives before it
	 * returns; the CPU time from there to the stop: the running PWM's, not
	 * its thread's setup (the memory lock of this fork of the bench, ~8 ms
	 * in the lab; lgpio's process locks its memory before its start too) */
	if (udrv_soft_pwm_start(pwm))
		return child_fail("start", udrv_soft_pwm_errmsg(pwm));
	getrusage(RUSAGE_SELF, &r0);
	t0 = bench_now_ns();
	sleep_until_ns(t0 + run);
	/* its thread, for --trace-on-spike only (a traced run's cpu_ns holds
	 * this scan), once the pulses measured are over */
	thread = bench_spike_ns ? child_thread() : 0;
	if (udrv_soft_pwm_stop(pwm) || udrv_soft_pwm_stats(pwm, &st))
		return child_fail("stop", udrv_soft_pwm_errmsg(pwm));
	t1 = bench_now_ns();
	getrusage(RUSAGE_SELF, &r1);
	udrv_soft_pwm_free(pwm);
	bench_peer_print_sched(0);
	fprintf(out, "duration_ns %" PRIu64 "\ncpu_user_ns %" PRIu64 "\ncpu_sys_ns %" PRIu64
		"\nperiods %" PRIu64 "\nmissed %" PRIu64 "\nskipped %" PRIu64 "\nedges %"
		PRIu64 "\nworst_late_ns %" PRIu64 "\n", t1 - t0,
		tv_ns(&r1.ru_utime) - tv_ns(&r0.ru_utime),
		tv_ns(&r1.ru_stime) - tv_ns(&r0.ru_stime),
		st.periods, st.missed, st.skipped, st.edges, st.worst_late_ns);
	if (thread)
		fprintf(out, "thread %d\n", (int)thread);
	fputs("end\n", out);
	return fflush(out) ? 1 : 0;
}

/* The child: a plain process (whatever the bench is), the line, the PWM. */
static int child_main(const struct pwm_gen_ctx *g, const struct pwm_tuning *t,
		      const struct pwm_wave *wave, int fd)
{
	struct udrv_request_config cfg = { .consumer = "udrv-bench-pwm" };
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT, .value = 0 };
	struct udrv_request *req;
	char why[160];
	int ret;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* stdout is the pipe to the bench */
	if (dup2(fd, STDOUT_FILENO) < 0)
		return child_fail("its output", strerror(errno));
	if (bench_peer_set_sched(0, -1, false, why, sizeof(why)))
		return child_fail("a plain process", why);
	if (udrv_chip_request(g->chip, &cfg, 1, &g->out, &s, &req))
		return child_fail("the line", udrv_chip_errmsg(g->chip));
	ret = child_pwm(req, t, wave, run_ns(g, wave), stdout);
	udrv_request_release(req);
	return ret;
}

static int reap(pid_t pid, const char *who)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return bench_error(EXIT_FAIL, "pwm: waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	return bench_error(EXIT_FAIL, "pwm: %s failed (%s %d; its message above)", who,
			   WIFEXITED(status) ? "exit" : "signal",
			   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int pwm_gen_udrv(const struct pwm_gen_ctx *g, const struct pwm_tuning *t,
		 const struct pwm_wave *wave, struct pwm_source *src)
{
	char *text = NULL;
	size_t len = 0;
	int fds[2], ret;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return bench_error(EXIT_FAIL, "pwm: pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return close(fds[0]), close(fds[1]),
		       bench_error(EXIT_FAIL, "pwm: fork: %s", strerror(errno));
	if (!pid) {
		close(fds[0]);
		_exit(child_main(g, t, wave, fds[1]));
	}
	close(fds[1]);
	ret = pwm_watch_until(g->watch, child_done, &pid);
	if (ret)
		kill(pid, SIGTERM);
	if (reap(pid, "udrv's generator") && !ret)
		ret = EXIT_FAIL;
	if (!ret && !(text = bench_slurp_fd(fds[0], &len)))
		ret = bench_error(EXIT_FAIL, "pwm: udrv's generator's output: %s", strerror(errno));
	close(fds[0]);
	if (!ret)
		ret = gen_output("udrv's generator", text, len, t, true, src);
	free(text);
	/* a spike of its pulses: the child and its thread are what is
	 * measured there, not a cause */
	bench_spike_path(pid);
	if (src->thread)
		bench_spike_path((pid_t)src->thread);
	return ret;
}

/* ---- lgpio's, in udrv-bench-lgpio ------------------------------------ */

int pwm_gen_lgpio(const struct pwm_gen_ctx *g, const struct pwm_tuning *t,
		  const struct pwm_wave *wave, struct pwm_source *src, char *why,
		  size_t len)
{
	char chip[16], line[16], freq[16], shape[16], ms[24], prio[8], cpu[16];
	const char *args[20] = { wave->servo ? "servo" : "pwm" };
	struct bench_peer p;
	char *text = NULL;
	size_t n = 1, tlen = 0;
	int ret;

	unsigned int num;

	/* lgpio opens /dev/gpiochipN by its number */
	if (udrv_parse_devnum(udrv_chip_name(g->chip), "gpiochip", &num))
		return bench_error(EXIT_FAIL, "pwm: %s: not gpiochipN, which lgpio opens",
				   udrv_chip_name(g->chip));
	snprintf(chip, sizeof(chip), "%u", num);
	snprintf(line, sizeof(line), "%u", g->out);
	snprintf(freq, sizeof(freq), "%" PRIu32, wave->frequency_hz);
	snprintf(ms, sizeof(ms), "%" PRIu64, run_ns(g, wave) / UINT64_C(1000000));
	snprintf(prio, sizeof(prio), "%d", t->prio);
	args[n++] = "--gpiochip", args[n++] = chip, args[n++] = "--line", args[n++] = line;
	args[n++] = "--frequency", args[n++] = freq, args[n++] = "--duration-ms", args[n++] = ms;
	args[n++] = "--prio", args[n++] = prio;
	if (wave->servo)
		snprintf(shape, sizeof(shape), "%" PRIu32, wave->width_us),
		args[n++] = "--width-us", args[n++] = shape;
	else	/* a whole percentage: the waves are chosen so */
		snprintf(shape, sizeof(shape), "%" PRIu64,
			 (uint64_t)wave->width_us * wave->frequency_hz / 10000),
		args[n++] = "--duty", args[n++] = shape;
	if (t->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%d", t->cpu), args[n++] = "--cpu", args[n++] = cpu;
	if (t->mlock)
		args[n++] = "--mlock";
	args[n] = NULL;
	if (bench_peer_prog_start(&p, &bench_peer_lgpio, args, false, why, len))
		return -ENOENT;
	ret = pwm_watch_until(g->watch, child_done, &p.pid);
	if (bench_peer_finish(&p, &text, &tlen, why, len) && !ret)
		ret = bench_error(EXIT_FAIL, "pwm: udrv-bench-lgpio: %s", why);
	if (!ret)
		ret = gen_output("udrv-bench-lgpio", text, tlen, t, false, src);
	free(text);
	return ret;
}
