// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply: trigger to reply latency of a responder, as a log host
 * sees it (Grandegger's gpioirqbench: log host + target; Featherston's TS-4200
 * inverter; docs/references.md).
 *
 *   log host: drives A, reads D's edge events
 *   target:   a responder writes C = !B on every edge of B
 *   wiring:   A -> B, C -> D (gpio-wire: 4 -> 5, 6 -> 7)
 *
 * Per edge: t_write (CLOCK_MONOTONIC, just before A's write) and D's event
 * timestamp (gpiolib-cdev's hardirq timestamp, CLOCK_MONOTONIC): sample
 * trigger_to_reply. Responders: the interrupt handler and the irq thread of
 * rig/kernel/gpio-reply (isr, kthread), and a user process (user) that waits
 * for B's edge by read, poll, epoll or busy-polling B's level. With the log
 * host and the target on one machine (--role both) the target's own
 * timestamps split the latency up; on two machines, run --role target on
 * one and --role loghost on the other.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <udrv/udrv-irq.h>	/* UDRV_IRQ_DEVICE */

#include "msg.h"
#include "benches.h"
#include "fields.h"
#include "reply.h"
#include "spike.h"

enum {
	OPT_ROLE = 0x80,	/* long-only; below the framework's 0x100 */
	OPT_RESPONDER,
	OPT_WAIT,
	OPT_TRIGGER,
	OPT_IN,
	OPT_REPLY,
	OPT_WATCH,
	OPT_TARGET_CPU,
	OPT_TARGET_PRIO,
	OPT_BREAKDOWN,
};

static const char reply_help[] =
"Usage: udrv-bench reply [OPTIONS]\n"
"\n"
"Trigger to reply latency of a responder, measured by a log host\n"
"(Grandegger's gpioirqbench; Featherston's TS-4200 inverter). Four lines,\n"
"two wires:\n"
"\n"
"  log host  A --wire--> B  target\n"
"  log host  D <--wire-- C  target      the responder writes C = !B\n"
"\n"
"The log host drives A (one edge in flight, rising and falling\n"
"alternating) and reads D's edge events: trigger_to_reply = D's kernel\n"
"timestamp - t_write (CLOCK_MONOTONIC, just before A's write). Responders:\n"
"  isr      rig/kernel/gpio-reply, from the hard interrupt handler\n"
"  kthread  rig/kernel/gpio-reply, from the kernel's irq thread\n"
"           (irq/N-gpio-reply)\n"
"  user     a udrv process that waits for B's edge and writes C: --wait\n"
"           read, poll, epoll (the edge event) or busy (B's level)\n"
"  lib      the same through libudrv's responder, which raises B's irq\n"
"           threads above it (to --irq-prio, else --prio + 1) first:\n"
"           --wait read, busy, irq (the kernel helper udrv-irq holds B,\n"
"           wakes it from B's hardirq) or irq-reply (udrv-irq holds C too,\n"
"           writes the reply in the call that waits for the next edge)\n"
"On one machine (--role both) the target's timestamps split the latency:\n"
"trigger_to_handler and handler_to_reply (isr, kthread, from the module),\n"
"trigger_to_irq (B's event), irq_to_wake, wake_to_reply (user, lib; none for\n"
"irq-reply: the helper writes C). Loss:\n"
"sent = gpio-wire's own count of the edges on B (else the writes),\n"
"received = the events read on D, lost = the edges the wire dropped; the\n"
"responder's count and the wire's count on D must equal received. A reply\n"
"not within 5 s, the wrong way or (user, lib) before its decision fails.\n"
"\n"
"On two machines: 'udrv-bench reply --role target' on the target (until a\n"
"signal or --duration), then 'udrv-bench reply --role loghost' on the log\n"
"host, with A wired to B, C to D and a common ground (udrv-bench(1)).\n"
"\n"
"Options:\n"
"  -c, --chip CHIP       the chip (default gpio-wire)\n"
"      --role R          both (default: log host and target here), target\n"
"                        or loghost\n"
"      --responder R     isr, kthread, user, lib, a comma-separated list\n"
"                        (user,lib: a board without gpio-reply) or all\n"
"                        (default; one for --role target; a label for\n"
"                        --role loghost)\n"
"      --wait W          the user and lib responders' wait: read, poll,\n"
"                        epoll, busy, irq, irq-reply (lib only; all: if\n"
"                        /dev/udrv-irq exists), a list or all (default; one\n"
"                        for --role target)\n"
"      --trigger N       line A, driven by the log host (default 4)\n"
"      --in N            line B, the responder's input (default 5)\n"
"      --reply N         line C, the responder's output (default 6)\n"
"      --watch N         line D, watched by the log host (default 7)\n"
"      --target-cpu N    pin the user responder to CPU N (--cpu pins the log\n"
"                        host)\n"
"      --target-prio N   the user and lib responders' priority (default\n"
"                        --prio; busy on the log host's CPU: 1); above the\n"
"                        log host's, it runs as soon as it is woken\n"
"      --breakdown       where the microseconds go (--role both): after each\n"
"                        responder's run, 101 edges per event type traced alone\n"
"                        (one event's cost), then 201 with them all (ftrace;\n"
"                        root, tracefs; not with --trace-on-spike), each reply\n"
"                        split into contiguous stages, each event's cost taken\n"
"                        off; the median reply's stages, total and untraced p50\n"
"                        to the document's \"breakdown\" and to stderr\n"
"\n"
"--irq-prio N raises D's irq thread (the log host's wake-up) and the\n"
"responder's: gpio-reply's (kthread), B's (user, --role both; lib: the\n"
"library raises B's itself, to N, else to --prio + 1).\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Default: 2000 edges per responder. The module's mode, chip and lines are\n"
"put back afterwards, also after SIGINT or SIGTERM.\n";

/* ---- options ---------------------------------------------------------- */

static int parse_line(struct bench_run *run, const char *opt, const char *arg,
		      unsigned int *line)
{
	int64_t v;

	if (udrv_parse_s64(arg, 0, 65535, &v))
		return bench_usage(run->bench, "bad %s '%s': a line offset", opt, arg);
	*line = (unsigned int)v;
	return 0;
}

static int parse_choice(struct bench_run *run, const char *opt, const char *arg,
			const char *const *names, int n, unsigned int *mask)
{
	char list[64] = "";

	if (!bench_parse_names(arg, names, n, mask))
		return 0;
	for (int i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", names[i]);
	return bench_usage(run->bench, "bad %s '%s': %s (comma-separated, each once) or all",
			   opt, arg, list);
}

static int reply_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct reply_bench *b = ctx;
	int64_t v;

	switch (opt) {
	case 'c':
		b->chip_spec = arg;
		return 0;
	case OPT_ROLE:
		if (!strcmp(arg, "both"))
			b->role = ROLE_BOTH;
		else if (!strcmp(arg, "target"))
			b->role = ROLE_TARGET;
		else if (!strcmp(arg, "loghost"))
			b->role = ROLE_LOGHOST;
		else
			return bench_usage(run->bench, "bad --role '%s': both, target or loghost", arg);
		return 0;
	case OPT_RESPONDER:
		return parse_choice(run, "--responder", arg, reply_responder_names,
				    REPLY_NRESP, &b->resp_mask);
	case OPT_WAIT:
		return parse_choice(run, "--wait", arg, reply_wait_names,
				    REPLY_NWAIT, &b->wait_mask);
	case OPT_TRIGGER:
		return parse_line(run, "--trigger", arg, &b->trig);
	case OPT_IN:
		return parse_line(run, "--in", arg, &b->in);
	case OPT_REPLY:
		return parse_line(run, "--reply", arg, &b->reply);
	case OPT_WATCH:
		return parse_line(run, "--watch", arg, &b->watch);
	case OPT_BREAKDOWN:
		b->breakdown = true;
		return 0;
	case OPT_TARGET_PRIO:
		if (udrv_parse_s64(arg, 0, 99, &v))
			return bench_usage(run->bench, "bad --target-prio '%s': a SCHED_FIFO priority 1..99, 0 for SCHED_OTHER", arg);
		b->target_prio = (int)v;
		return 0;
	case OPT_TARGET_CPU:
		if (udrv_parse_s64(arg, 0, CPU_SETSIZE - 1, &v))
			return bench_usage(run->bench, "bad --target-cpu '%s'", arg);
		b->target_cpu = (int)v;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* The toolkit's kernel helper is there: lib --wait irq, irq-reply can run. */
static bool reply_helper_loaded(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", bench_sysroot(), UDRV_IRQ_DEVICE);
	return !access(path, F_OK);
}

static bool single(unsigned int mask)
{
	return mask && !(mask & (mask - 1));
}

/* What the command line asks for makes sense (exit 2 otherwise). */
static int reply_check_opts(struct reply_bench *b, bool wait_given)
{
	const char *cmd = b->run.bench;
	unsigned int l[4] = { b->trig, b->in, b->reply, b->watch };

	unsigned int procs = (1u << REPLY_USER) | (1u << REPLY_LIB);

	if (b->breakdown && b->role != ROLE_BOTH)
		return bench_usage(cmd, "--breakdown traces both sides on this machine: --role both (the default)");
	if (b->breakdown && b->run.o.spike_ns)
		return bench_usage(cmd, "--breakdown and --trace-on-spike both use tracefs: one at a time");
	if (wait_given && !(b->resp_mask & procs))
		return bench_usage(cmd, "--wait is the user and lib responders': add --responder user or lib");
	if (wait_given && (b->resp_mask & 1u << REPLY_LIB) &&
	    !(b->wait_mask & REPLY_LIB_WAITS))
		return bench_usage(cmd, "the lib responder waits by read, busy, irq or irq-reply (udrv_responder_run()), not by poll or epoll");
	if (wait_given && (b->resp_mask & 1u << REPLY_USER) &&
	    !(b->wait_mask & REPLY_USER_WAITS))
		return bench_usage(cmd, "--wait irq and irq-reply are the lib responder's (udrv-irq through libudrv): add --responder lib");
	if (b->role == ROLE_TARGET && !single(b->resp_mask))
		return bench_usage(cmd, "--role target runs one responder: --responder isr, kthread, user or lib");
	if (b->role == ROLE_TARGET && (b->resp_mask & procs) &&
	    !single(b->wait_mask))
		return bench_usage(cmd, "--role target runs one user or lib responder: --wait read, poll, epoll or busy (lib: read, busy, irq or irq-reply)");
	if (b->role == ROLE_LOGHOST && b->resp_mask != (1u << REPLY_NRESP) - 1 &&
	    !single(b->resp_mask))
		return bench_usage(cmd, "--role loghost: --responder names the remote responder (one, or leave it out)");
	for (int i = 0; i < 4; i++)
		for (int k = i + 1; k < 4; k++)
			if (reply_role_line(b, i) && reply_role_line(b, k) &&
			    l[i] == l[k])
				return bench_usage(cmd, "the lines --trigger %u, --in %u, --reply %u, --watch %u must differ",
						 b->trig, b->in, b->reply, b->watch);
	return 0;
}

/* ---- rows ------------------------------------------------------------- */

static struct reply_cfg *cfg_add(struct reply_bench *b, enum reply_responder r,
				 enum reply_wait w)
{
	struct reply_cfg *c = &b->cfg[b->ncfg++];

	c->resp = r;
	c->wait = w;
	return c;
}

static int row(struct reply_bench *b, struct bench_row **dst,
	       const struct reply_cfg *c, const char *impl, const char *what)
{
	const char *wait = c->wait < REPLY_NWAIT ? reply_wait_names[c->wait] : NULL;

	*dst = bench_row(&b->run, "gpio", impl, wait, what);
	return *dst ? 0 : bench_error(EXIT_FAIL, "out of memory (or more than %d rows)",
				      BENCH_MAX_ROWS);
}

/* The target's own samples: module (2), user (3), busy user (2), irq-reply
 * (2: the helper writes C after the process's last timestamp, t_wake). */
static int cfg_parts(struct reply_bench *b, struct reply_cfg *c,
		     const char *impl, bool target_only)
{
	static const char *const module[] = { "trigger_to_handler", "handler_to_reply", NULL };
	static const char *const user[] = { "trigger_to_irq", "irq_to_wake", "wake_to_reply" };
	static const char *const busy[] = { "trigger_to_wake", "wake_to_reply", NULL };
	static const char *const helper[] = { "trigger_to_irq", "irq_to_wake", NULL };
	const char *const *names = !reply_by_process(c->resp) ? module :
				   c->wait == REPLY_BUSY ? busy :
				   c->wait == REPLY_IRQ_REPLY ? helper : user;
	int ret = 0;

	/* a target alone has no t_write: only what happens on its side */
	for (int i = target_only ? 1 : 0; i < 3 && names[i] && !ret; i++)
		ret = row(b, &c->part[i], c, impl, names[i]);
	return ret;
}

static int reply_rows(struct reply_bench *b)
{
	int ret = 0;

	for (int r = 0; r < REPLY_NRESP; r++) {
		if (!(b->resp_mask & (1u << r)))
			continue;
		unsigned int waits = b->wait_mask &
				     (r == REPLY_LIB ? REPLY_LIB_WAITS : REPLY_USER_WAITS);

		if (!reply_by_process(r) || b->role == ROLE_LOGHOST) {
			cfg_add(b, r, reply_by_process(r) && single(b->wait_mask) ?
				(enum reply_wait)__builtin_ctz(b->wait_mask) : REPLY_NWAIT);
			continue;
		}
		for (int w = 0; w < REPLY_NWAIT; w++)
			if (waits & (1u << w))
				cfg_add(b, r, w);
	}
	if (b->role == ROLE_LOGHOST && b->ncfg > 1)
		b->ncfg = 1;	/* --responder left out: one "remote" row */
	for (size_t i = 0; i < b->ncfg && !ret; i++) {
		struct reply_cfg *c = &b->cfg[i];
		const char *impl = b->role == ROLE_LOGHOST && !single(b->resp_mask) ?
				   "remote" : reply_responder_names[c->resp];

		if (b->role != ROLE_TARGET)
			ret = row(b, &c->t2r, c, impl, "trigger_to_reply");
		if (!ret && b->role != ROLE_LOGHOST)
			ret = cfg_parts(b, c, impl, b->role == ROLE_TARGET);
	}
	return ret;
}

/* ---- the command -------------------------------------------------------- */

static int reply_prepare(struct reply_bench *b)
{
	bool module = b->resp_mask & ((1u << REPLY_ISR) | (1u << REPLY_KTHREAD));

	for (size_t i = 0; i < b->ncfg; i++) {
		struct reply_cfg *c = &b->cfg[i];

		c->child_prio = b->target_prio >= 0 ? b->target_prio :
				b->run.o.prio;
		if (c->wait == REPLY_BUSY && b->run.o.prio &&
		    reply_shares_cpu(b->run.o.cpu, b->target_cpu))
			c->child_prio = 1;
	}
	if (b->role == ROLE_TARGET && b->target_cpu >= 0)
		b->run.o.cpu = b->target_cpu;
	if (b->role != ROLE_LOGHOST && module && reply_module_save(&b->mod))
		return EXIT_FAIL;
	b->sh = mmap(NULL, sizeof(*b->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b->sh == MAP_FAILED) {
		b->sh = NULL;
		return bench_error(EXIT_FAIL, "mmap: %s", strerror(errno));
	}
	return 0;
}

static int reply_measure(struct reply_bench *b)
{
	int ret;

	reply_alarm_catch();
	ret = b->role == ROLE_TARGET ? reply_measure_target(b) : reply_measure_both(b);
	if (b->breakdown)
		reply_breakdown_print(b);
	reply_child_stop(b);
	reply_module_restore(&b->mod);
	return ret;
}

BENCH_COMMAND(reply,
		"trigger to reply on another line, as a log host sees it: isr,\n"
		"kthread (rig/kernel/gpio-reply), user (read, poll, epoll, busy)");

int cmd_bench_reply(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "role", required_argument, NULL, OPT_ROLE },
		{ "responder", required_argument, NULL, OPT_RESPONDER },
		{ "wait", required_argument, NULL, OPT_WAIT },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "in", required_argument, NULL, OPT_IN },
		{ "reply", required_argument, NULL, OPT_REPLY },
		{ "watch", required_argument, NULL, OPT_WATCH },
		{ "target-cpu", required_argument, NULL, OPT_TARGET_CPU },
		{ "target-prio", required_argument, NULL, OPT_TARGET_PRIO },
		{ "breakdown", no_argument, NULL, OPT_BREAKDOWN },
		{ NULL, 0, NULL, 0 },
	};
	struct reply_bench b = { .chip_spec = "gpio-wire", .trig = 4, .in = 5,
				 .reply = 6, .watch = 7, .target_cpu = -1,
				 .target_prio = -1,
				 .resp_mask = (1u << REPLY_NRESP) - 1,
				 .wait_mask = (1u << REPLY_NWAIT) - 1,
				 .mod = { .last_fd = -1 } };
	unsigned int all_waits = b.wait_mask;
	int ret;

	b.run.traceable = true;	/* --trace-on-spike: trigger_to_reply */
	ret = bench_parse(&b.run, "reply", argc, argv, reply_help, "c:",
			  longopts, reply_opt, &b);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return bench_usage("reply", "unexpected argument '%s'", argv[optind]);
	ret = reply_check_opts(&b, b.wait_mask != all_waits);
	if (!ret && b.wait_mask == all_waits && !reply_helper_loaded())
		b.wait_mask &= ~REPLY_HELPER_WAITS;	/* all: what there is */
	if (b.breakdown)
		b.run.json_extra = reply_breakdown_json;
	if (!ret)
		ret = reply_open(&b);
	if (!ret)
		ret = reply_rows(&b);
	if (!ret)
		ret = reply_prepare(&b);
	if (!ret)
		ret = bench_begin(&b.run);
	if (!ret)
		ret = reply_measure(&b);
	else
		reply_module_restore(&b.mod);
	if (b.sh)
		munmap(b.sh, sizeof(*b.sh));
	udrv_chip_free(b.chip);
	return bench_end(&b.run, ret);
}
