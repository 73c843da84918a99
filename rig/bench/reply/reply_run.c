// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply, running it (reply.c has the options, the rows and the
 * command): the lines, the target on this machine (module or user
 * responder child), the log host's edges and their accounting, --role
 * target, and the watchdog that bounds every wait.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "reply.h"
#include "spike.h"

/* ---- the watchdog and the end of --role target ----------------------- */

volatile int reply_alarm;

static void on_alarm(int sig)
{
	(void)sig;
	reply_alarm = 1;
}

/* SIGALRM interrupts a blocked wait (no SA_RESTART) and sets the flag. */
void reply_alarm_catch(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

/* Lines A, B, C, D (0..3): does this role use line @i? */
bool reply_role_line(const struct reply_bench *b, int i)
{
	if (b->role == ROLE_TARGET)
		return i == 1 || i == 2;
	if (b->role == ROLE_LOGHOST)
		return i == 0 || i == 3;
	return true;
}

/* ---- the lines ---------------------------------------------------------- */

int reply_open(struct reply_bench *b)
{
	unsigned int n, l[4] = { b->trig, b->in, b->reply, b->watch };

	b->chip = udrv_chip_new();
	if (!b->chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(b->chip, b->chip_spec))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
	n = udrv_chip_num_lines(b->chip);
	for (int i = 0; i < 4; i++)
		if (reply_role_line(b, i) && l[i] >= n)
			return bench_usage(b->run.bench, "line %u: %s has %u lines (--trigger, --in, --reply, --watch)",
					 l[i], udrv_chip_name(b->chip), n);
	if (!udrv_chip_has_cdev(b->chip))
		return bench_error(EXIT_FAIL, "%s has no GPIO character device: no edge events with timestamps",
				 udrv_chip_name(b->chip));
	bench_wire_path(b->chip, b->wire, sizeof(b->wire));
	return 0;
}

static int lh_request(struct reply_bench *b)
{
	struct udrv_request_config cfg = { .consumer = REPLY_CONSUMER };
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_OUTPUT, .value = b->level },
		{ .direction = UDRV_DIR_INPUT, .edge = UDRV_EDGE_BOTH },
	};
	unsigned int offsets[2] = { b->trig, b->watch };

	if (udrv_chip_request(b->chip, &cfg, 2, offsets, s, &b->lh))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
	return 0;
}

/* Events on D from before (the responder's first write of C): not ours. */
static void lh_drain(struct reply_bench *b)
{
	struct pollfd pfd = { .fd = udrv_request_fd(b->lh), .events = POLLIN };
	struct udrv_edge_event e;

	while (poll(&pfd, 1, 50) > 0 && (pfd.revents & POLLIN))
		if (udrv_request_read_events(b->lh, &e, 1) != 1)
			break;
}

/* ---- the target, on this machine ---------------------------------------- */

static int child_start(struct reply_bench *b, struct reply_cfg *c)
{
	struct reply_user u = { .chip = b->chip, .in = b->in, .out = b->reply,
				.wait = c->wait, .prio = c->child_prio,
				.cpu = b->target_cpu, .mlock = b->run.o.mlock,
				.lib = c->resp == REPLY_LIB,
				.irq_prio = b->run.o.irq_prio, .sh = b->sh };
	static volatile int never;
	int p[2], ret;
	char one;

	memset(b->sh, 0, sizeof(*b->sh));
	c->driven = 0;
	if (pipe(p))
		return bench_error(EXIT_FAIL, "pipe: %s", strerror(errno));
	b->child = fork();
	if (b->child < 0)
		return bench_error(EXIT_FAIL, "fork: %s", strerror(errno));
	if (b->child == 0) {
		close(p[0]);
		_exit(reply_user_run(&u, p[1], &never));
	}
	bench_spike_path(b->child);	/* the responder: measured, not a cause */
	close(p[1]);
	alarm(REPLY_WATCHDOG_S);
	ret = read(p[0], &one, 1) == 1 ? 0 : -1;
	alarm(0);
	close(p[0]);
	if (ret && !bench_interrupted())
		return bench_error(EXIT_FAIL, "bench reply: the user responder did not start%s%s",
				 b->sh->error[0] ? ": " : "", b->sh->error);
	return ret ? EXIT_FAIL : 0;
}

void reply_child_stop(struct reply_bench *b)
{
	if (b->child <= 0)
		return;
	kill(b->child, SIGTERM);
	while (waitpid(b->child, NULL, 0) < 0 && errno == EINTR)
		;
	b->child = 0;
}

static int target_start(struct reply_bench *b, struct reply_cfg *c)
{
	if (reply_by_process(c->resp))
		return child_start(b, c);
	return reply_module_start(&b->mod, udrv_chip_label(b->chip), b->in,
				  b->reply, c->resp) ? EXIT_FAIL : 0;
}

static void target_stop(struct reply_bench *b, struct reply_cfg *c)
{
	if (reply_by_process(c->resp))
		reply_child_stop(b);
	else if (b->mod.saved)
		reply_module_off(&b->mod);
}

/* The responder's count of its replies. */
static int target_replies(struct reply_bench *b, struct reply_cfg *c,
			  uint64_t *replies, uint64_t *edges)
{
	if (b->role == ROLE_LOGHOST) {
		*replies = *edges = 0;
		return 0;
	}
	if (reply_by_process(c->resp)) {
		*replies = __atomic_load_n(&b->sh->seq, __ATOMIC_ACQUIRE);
		*edges = b->sh->edges;
		return 0;
	}
	return reply_module_counts(edges, replies) ? EXIT_FAIL : 0;
}

/* The target's timestamps of the reply just seen: the breakdown rows. */
static int target_sample(struct reply_bench *b, struct reply_cfg *c,
			 uint64_t t_write, uint64_t t_d)
{
	uint64_t seq, t[3];
	int np = c->part[2] ? 3 : 2;	/* the stages cfg_parts() made rows of */

	if (b->role == ROLE_LOGHOST)
		return 0;
	if (!reply_by_process(c->resp)) {
		if (reply_module_last(&b->mod, &seq, &t[0], &t[1]))
			return EXIT_FAIL;
	} else {
		seq = __atomic_load_n(&b->sh->seq, __ATOMIC_ACQUIRE);
		t[0] = b->sh->t_irq;
		t[1] = b->sh->t_wake;
		t[2] = b->sh->t_reply;
		if (c->wait == REPLY_BUSY) {	/* no t_irq: the level's */
			t[0] = t[1];
			t[1] = t[2];
		}
	}
	if (seq != c->prev_seq + 1 || t_write > t[0] || t[np - 1] > t_d) {
		c->left_out++;
		c->prev_seq = seq;
		return 0;
	}
	c->prev_seq = seq;
	for (int i = 1; i < np; i++)
		if (t[i - 1] > t[i]) {
			c->left_out++;
			return 0;
		}
	udrv_hist_record(c->part[0]->hist, t[0] - t_write);
	for (int i = 1; i < np; i++)
		udrv_hist_record(c->part[i]->hist, t[i] - t[i - 1]);
	return 0;
}

/* ---- the log host --------------------------------------------------------- */

static int no_reply(struct reply_bench *b, const struct reply_cfg *c)
{
	int st;

	if (reply_by_process(c->resp) && b->child > 0 &&
	    waitpid(b->child, &st, WNOHANG) == b->child) {
		b->child = 0;
		return bench_error(EXIT_FAIL, "bench reply: the user responder ended: %s",
				 b->sh->error[0] ? b->sh->error : "no reason given");
	}
	return bench_error(EXIT_FAIL, "bench reply: no reply on line %u (--watch) within %d s of an edge on line %u (--trigger), responder %s: is the responder running (gpio-reply's mode, the user responder), is A wired to B (--in %u) and C (--reply %u) to the watched line? see 'udrv gpio info'",
			 b->watch, REPLY_WATCHDOG_S, b->trig,
			 b->role == ROLE_LOGHOST ? "remote" : reply_responder_names[c->resp],
			 b->in, b->reply);
}

/*
 * Role both, a process responder: C moved only after the process decided
 * the reply. It publishes each edge's decision (the seq, after its post-wake
 * timestamp) before it writes C, so when D's edge to the n-th edge driven
 * is read the process has decided n, woken before D's timestamp. Else the
 * reply was not the process's (a helper writing it from its interrupt
 * handler, a second writer on C): the bench fails, whatever the latency.
 */
static int reply_decided(struct reply_bench *b, struct reply_cfg *c, uint64_t t_d)
{
	uint64_t seq = __atomic_load_n(&b->sh->seq, __ATOMIC_ACQUIRE);
	uint64_t t_wake = b->sh->t_wake;

	if (seq >= c->driven && t_wake <= t_d)
		return 0;
	return bench_error(EXIT_FAIL, "bench reply: line %u (--watch) changed at %llu ns, before the %s responder had decided its reply to edge %llu (it had decided %llu, the last woken at %llu ns): something else drives line %u (--reply), such as a helper writing the reply from its interrupt handler",
			   b->watch, (unsigned long long)t_d,
			   reply_responder_names[c->resp], (unsigned long long)c->driven,
			   (unsigned long long)seq, (unsigned long long)t_wake, b->reply);
}

int reply_edge(struct reply_bench *b, struct reply_cfg *c, bool record,
	       uint64_t *tw, uint64_t *td)
{
	int level = !b->level, n;
	struct udrv_edge_event e;
	uint64_t t_write;

	reply_alarm = 0;
	alarm(REPLY_WATCHDOG_S);
	t_write = bench_now_ns();
	if (udrv_request_set_value(b->lh, 0, level))
		return bench_error(EXIT_FAIL, "bench reply: %s", udrv_request_errmsg(b->lh));
	b->level = level;
	n = udrv_request_read_events(b->lh, &e, 1);
	alarm(0);
	if (n == -EINTR && bench_interrupted())
		return EXIT_FAIL;	/* bench_end says so */
	if (n == -EINTR && reply_alarm)
		return no_reply(b, c);
	if (n != 1)
		return bench_error(EXIT_FAIL, "bench reply: %s",
				 n < 0 ? udrv_request_errmsg(b->lh) : "no event read");
	if (e.lost)
		return bench_error(EXIT_FAIL, "bench reply: the kernel reports %u lost event(s) on line %u with one edge in flight (another writer on the line?)",
				 (unsigned int)e.lost, b->watch);
	if ((e.edge == UDRV_EDGE_RISING) != !level)
		return bench_error(EXIT_FAIL, "bench reply: line %u went %s after line %u went %s: the reply must be the inverse (C = !B); is the watched line wired to the responder's output?",
				 b->watch, e.edge == UDRV_EDGE_RISING ? "high" : "low",
				 b->trig, level ? "high" : "low");
	c->driven++;
	if (b->role == ROLE_BOTH && reply_by_process(c->resp) &&
	    reply_decided(b, c, e.timestamp_ns))
		return EXIT_FAIL;
	if (tw && td) {
		*tw = t_write;
		*td = e.timestamp_ns;
	}
	if (!record)
		return 0;
	c->received++;
	if (e.timestamp_ns < t_write) {
		c->left_out++;
		return 0;
	}
	udrv_hist_record(c->t2r->hist, e.timestamp_ns - t_write);
	bench_spike_check(c->t2r, t_write, e.timestamp_ns);
	return target_sample(b, c, t_write, e.timestamp_ns);
}

/* --irq-prio: D's cdev thread, and the responder's (kthread, user's B). */
static int lh_wake_threads(struct reply_bench *b, const struct reply_cfg *c)
{
	struct { const char *who; unsigned int line; } t[2] = {
		{ REPLY_CONSUMER, b->watch },
		{ b->role != ROLE_BOTH ? NULL :
		  c->resp == REPLY_KTHREAD ? "gpio-reply" :
		  /* busy: nothing wakes it; irq, irq-reply: udrv-irq wakes
		   * it from the hard irq handler, no thread */
		  c->wait == REPLY_BUSY || reply_by_helper(c->wait) ? NULL :
		  c->resp == REPLY_USER ? REPLY_TARGET_CONSUMER :
		  c->resp == REPLY_LIB ? REPLY_LIB_CONSUMER : NULL, b->in },
	};
	char prefix[24];
	unsigned int irq;

	for (int i = 0; i < 2; i++) {
		if (!t[i].who)
			continue;
		if (udrv_rt_find_irq(t[i].who, t[i].line, &irq)) {
			if (b->run.o.irq_prio)
				return bench_error(EXIT_FAIL, "--irq-prio: no interrupt of %s line %u (%s) in /sys/kernel/irq",
						 udrv_chip_name(b->chip), t[i].line, t[i].who);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
		if (bench_wake_threads(&b->run, prefix))
			return EXIT_FAIL;
	}
	return 0;
}

struct lh_counts {
	struct bench_wire b, d;
	uint64_t replies, edges;
};

static int lh_counts(struct reply_bench *b, struct reply_cfg *c,
		     struct lh_counts *k)
{
	memset(k, 0, sizeof(*k));
	if (b->wire[0] && (bench_wire_counts(b->wire, b->in, &k->b) ||
			   bench_wire_counts(b->wire, b->watch, &k->d)))
		return EXIT_FAIL;
	return target_replies(b, c, &k->replies, &k->edges);
}

/* sent = received + lost, and every reply counted where it was made. */
static int lh_account(struct reply_bench *b, struct reply_cfg *c,
		      const struct lh_counts *k0, const struct lh_counts *k1,
		      uint64_t written)
{
	uint64_t d_driven = k1->d.driven - k0->d.driven;
	const char *who = b->role == ROLE_LOGHOST ? "remote" :
			  reply_responder_names[c->resp];

	c->sent = b->wire[0] ? k1->b.driven - k0->b.driven : written;
	c->lost = (k1->b.dropped - k0->b.dropped) + (k1->d.dropped - k0->d.dropped);
	c->replies = k1->replies - k0->replies;
	if (c->sent != c->received + c->lost)
		return bench_error(EXIT_FAIL, "bench reply (%s): %llu edges went to line %u (sent), but %llu replies were read on line %u and %llu edges dropped",
				 who, (unsigned long long)c->sent, b->in,
				 (unsigned long long)c->received, b->watch,
				 (unsigned long long)c->lost);
	if (b->wire[0] && d_driven != c->received + (k1->d.dropped - k0->d.dropped))
		return bench_error(EXIT_FAIL, "bench reply (%s): gpio-wire put %llu edges on line %u, the log host read %llu",
				 who, (unsigned long long)d_driven, b->watch,
				 (unsigned long long)c->received);
	if (b->role == ROLE_BOTH && c->replies != c->received)
		return bench_error(EXIT_FAIL, "bench reply (%s): the responder counted %llu replies, the log host read %llu",
				 who, (unsigned long long)c->replies,
				 (unsigned long long)c->received);
	return 0;
}

static int lh_run(struct reply_bench *b, struct reply_cfg *c)
{
	uint64_t n = bench_samples(&b->run, REPLY_SAMPLES), i = 0;
	struct lh_counts k0, k1;
	int ret = 0;

	lh_drain(b);
	for (int w = 0; w < REPLY_WARMUP && !ret; w++)
		ret = reply_edge(b, c, false, NULL, NULL);
	if (!ret)
		ret = lh_wake_threads(b, c);
	if (!ret)
		ret = lh_counts(b, c, &k0);
	if (!ret && b->role == ROLE_BOTH && !reply_by_process(c->resp))
		ret = reply_module_last(&b->mod, &c->prev_seq, &k1.edges,
					&k1.replies) ? EXIT_FAIL : 0;
	if (!ret && reply_by_process(c->resp))
		c->prev_seq = k0.replies;
	for (uint64_t t0 = bench_now_ns(); !ret && bench_more(&b->run, t0, i, n); i++) {
		ret = reply_edge(b, c, true, NULL, NULL);
		bench_progress(&b->run, c->t2r, i, n);
	}
	if (!ret)
		ret = lh_counts(b, c, &k1);
	if (!ret)
		ret = lh_account(b, c, &k0, &k1, i);
	return ret;
}

static void cfg_notes(struct reply_bench *b, struct reply_cfg *c)
{
	struct bench_row *r = c->t2r;

	r->has_loss = true;
	r->sent = c->sent;
	r->received = c->received;
	r->lost = c->lost;
	snprintf(r->note, sizeof(r->note),
		 "A %u -> B %u, C %u -> D %u; %s counted %llu replies; left out %llu",
		 b->trig, b->in, b->reply, b->watch,
		 b->role == ROLE_LOGHOST ? "the remote responder (not seen)" :
		 c->resp == REPLY_USER ? "the user responder" :
		 c->resp == REPLY_LIB ? "the lib responder (udrv_responder_run)" :
		 "gpio-reply",
		 (unsigned long long)c->replies, (unsigned long long)c->left_out);
	if (reply_by_process(c->resp) && c->wait == REPLY_BUSY && b->role == ROLE_BOTH)
		bench_note_add(r->note, sizeof(r->note), "busy responder at %s %d%s",
			       c->child_prio ? "SCHED_FIFO" : "SCHED_OTHER",
			       c->child_prio,
			       c->child_prio == 1 ? ", below the irq threads: it shares the log host's CPU" : "");
	else if (reply_by_process(c->resp) && c->child_prio != b->run.o.prio &&
		 b->role == ROLE_BOTH)
		bench_note_add(r->note, sizeof(r->note),
			       "responder at %s %d, the log host at %d (--target-prio)",
			       c->child_prio ? "SCHED_FIFO" : "SCHED_OTHER",
			       c->child_prio, b->run.o.prio);
}

int reply_measure_both(struct reply_bench *b)
{
	int ret = lh_request(b);

	for (size_t i = 0; i < b->ncfg && !ret; i++) {
		struct reply_cfg *c = &b->cfg[i];

		if (b->role == ROLE_BOTH && !bench_interrupted())
			ret = target_start(b, c);
		if (!ret)
			ret = lh_run(b, c);
		if (!ret && b->breakdown)
			ret = reply_breakdown(b, c);
		if (b->role == ROLE_BOTH)
			target_stop(b, c);
		if (!ret)
			cfg_notes(b, c);
	}
	udrv_request_release(b->lh);
	b->lh = NULL;
	return ret;
}

/* ---- --role target ---------------------------------------------------- */

static bool target_more(struct reply_bench *b, uint64_t t0)
{
	if (bench_interrupted() || reply_alarm)
		return false;
	return !b->run.o.duration_ns || bench_now_ns() - t0 < b->run.o.duration_ns;
}

/* --irq-prio (and the document): the module's irq thread. */
static int target_kthread(struct reply_bench *b)
{
	char prefix[24];
	unsigned int irq;

	if (udrv_rt_find_irq("gpio-reply", b->in, &irq))
		return b->run.o.irq_prio ?
		       bench_error(EXIT_FAIL, "--irq-prio: no interrupt of gpio-reply (line %u) in /sys/kernel/irq",
				 b->in) : 0;
	snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
	return bench_wake_threads(&b->run, prefix);
}

/* The module replies; sample its last edge every millisecond. */
static int target_module(struct reply_bench *b, struct reply_cfg *c)
{
	const struct timespec ms = { .tv_nsec = 1000000 };
	uint64_t seq, te, tr, e0 = 0, r0, e1, r1, sampled = 0;
	struct bench_wire w0 = { 0 }, w1 = { 0 };
	int ret;

	ret = target_start(b, c);
	if (!ret && c->resp == REPLY_KTHREAD)
		ret = target_kthread(b);
	if (!ret && reply_module_counts(&e0, &r0))
		ret = EXIT_FAIL;
	if (!ret && b->wire[0] && bench_wire_counts(b->wire, b->in, &w0))
		ret = EXIT_FAIL;
	c->prev_seq = e0;
	for (uint64_t t0 = bench_now_ns(); !ret && target_more(b, t0);) {
		nanosleep(&ms, NULL);
		ret = reply_module_last(&b->mod, &seq, &te, &tr) ? EXIT_FAIL : 0;
		if (!ret && seq != c->prev_seq && te <= tr) {
			udrv_hist_record(c->part[1]->hist, tr - te);
			sampled++;
		}
		c->prev_seq = seq;
	}
	if (!ret && reply_module_counts(&e1, &r1))
		ret = EXIT_FAIL;
	if (!ret && b->wire[0] && bench_wire_counts(b->wire, b->in, &w1))
		ret = EXIT_FAIL;
	target_stop(b, c);
	if (ret)
		return ret;
	c->sent = b->wire[0] ? w1.driven - w0.driven : e1 - e0;
	c->received = r1 - r0;
	c->lost = w1.dropped - w0.dropped;
	snprintf(c->part[1]->note, sizeof(c->part[1]->note),
		 "the last edge's timestamps, read every 1 ms: %llu of %llu replies sampled; %llu edges seen",
		 (unsigned long long)sampled, (unsigned long long)c->received,
		 (unsigned long long)(e1 - e0));
	return 0;
}

/* This process is the user responder until a signal or --duration. */
static int target_user(struct reply_bench *b, struct reply_cfg *c)
{
	struct reply_shared sh = { 0 };
	struct reply_user u = { .chip = b->chip, .in = b->in, .out = b->reply,
				.wait = c->wait, .prio = b->run.o.prio,
				.cpu = -1, .mlock = false, .sh = &sh,
				.lib = c->resp == REPLY_LIB,
				.irq_prio = b->run.o.irq_prio,
				.i2w = c->part[1], .w2r = c->part[2] };
	struct bench_wire w0 = { 0 }, w1 = { 0 };
	int ret;

	if (c->wait == REPLY_BUSY) {
		u.i2w = NULL;
		u.w2r = c->part[1];
	}
	if (b->run.o.duration_ns)
		alarm((unsigned int)((b->run.o.duration_ns + 999999999ULL) / 1000000000ULL));
	if (b->wire[0] && bench_wire_counts(b->wire, b->in, &w0))
		return EXIT_FAIL;
	ret = reply_user_run(&u, -1, &reply_alarm);
	alarm(0);
	if (!ret && b->wire[0] && bench_wire_counts(b->wire, b->in, &w1))
		ret = EXIT_FAIL;
	if (ret)
		return ret;
	c->sent = b->wire[0] ? w1.driven - w0.driven : sh.edges;
	c->received = sh.seq;
	c->lost = w1.dropped - w0.dropped;
	if (c->sent != c->received + c->lost)
		return bench_error(EXIT_FAIL, "bench reply (target): %llu edges went to line %u, the user responder replied to %llu, %llu dropped",
				 (unsigned long long)c->sent, b->in,
				 (unsigned long long)c->received,
				 (unsigned long long)c->lost);
	return 0;
}

int reply_measure_target(struct reply_bench *b)
{
	struct reply_cfg *c = &b->cfg[0];
	int ret = reply_by_process(c->resp) ? target_user(b, c) : target_module(b, c);

	if (ret)
		return ret;
	for (int i = 0; i < 3; i++) {
		struct bench_row *r = c->part[i];

		if (!r)
			continue;
		r->has_loss = true;
		r->sent = c->sent;
		r->received = c->received;
		r->lost = c->lost;
	}
	return 0;
}
