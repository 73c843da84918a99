// SPDX-License-Identifier: GPL-2.0-only
/*
 * rig/bench/reply/breakdown.c: udrv-bench reply --breakdown's stages, on lines
 * of real lab traces (Debian 12's 6.1 std and rt kernels on gpio-wire,
 * every event on; B = irq 25, D = irq 24, C = gpio 1022), with the log
 * host's t_write and D's timestamp put where the bench saw them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "reply/breakdown.h"

#define US(x)	((uint64_t)(x) * 1000ULL)

/* std, isr: the reply inside B's hard handler, D handled by the same
 * irq_work; D's thread runs after the timestamp (no mark) */
static const char *const std_isr[] = {
	"      udrv-bench-138     [000] .....     2.943986: gpio_value: 1020 set 1",
	"      udrv-bench-138     [000] d.h1.     2.943987: irq_work_entry: vector=246",
	"      udrv-bench-138     [000] d.h1.     2.943988: irq_handler_entry: irq=25 name=gpio-reply",
	"      udrv-bench-138     [000] d.h1.     2.943988: gpio_value: 1021 get 1",
	"      udrv-bench-138     [000] d.h1.     2.943989: gpio_value: 1022 set 0",
	"      udrv-bench-138     [000] d.h1.     2.943990: irq_handler_exit: irq=25 ret=handled",
	"      udrv-bench-138     [000] d.h1.     2.943991: irq_handler_entry: irq=24 name=udrv-bench-reply",
	"      udrv-bench-138     [000] d.h1.     2.943992: irq_handler_exit: irq=24 ret=handled",
	"      udrv-bench-138     [000] d.h3.     2.943992: sched_waking: comm=irq/24-udrv-ben pid=139 prio=49 target_cpu=000",
	"      udrv-bench-138     [000] d..2.     2.944000: sched_switch: prev_comm=udrv-bench prev_pid=138 prev_prio=19 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=139 next_prio=49",
	" irq/24-udrv-ben-139     [000] d..2.     2.944009: sched_switch: prev_comm=irq/24-udrv-ben prev_pid=139 prev_prio=49 prev_state=S ==> next_comm=udrv-bench next_pid=138 next_prio=19",
	"      udrv-bench-138     [000] .....     2.944018: gpio_value: 1020 set 0",
	"      udrv-bench-138     [000] d.h1.     2.944019: irq_work_entry: vector=246",
	"      udrv-bench-138     [000] d.h1.     2.944020: irq_handler_entry: irq=25 name=gpio-reply",
	"      udrv-bench-138     [000] d.h1.     2.944022: gpio_value: 1022 set 1",
	"      udrv-bench-138     [000] d.h1.     2.944023: irq_handler_entry: irq=24 name=udrv-bench-reply",
	"      udrv-bench-138     [000] d..2.     2.944033: sched_switch: prev_comm=udrv-bench prev_pid=138 prev_prio=19 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=139 next_prio=49",
	"      udrv-bench-138     [000] .....     2.944050: gpio_value: 1020 set 1",
	"      udrv-bench-138     [000] d.h1.     2.944051: irq_work_entry: vector=246",
	"      udrv-bench-138     [000] d.h1.     2.944052: irq_handler_entry: irq=25 name=gpio-reply",
	"      udrv-bench-138     [000] d.h1.     2.944053: gpio_value: 1022 set 0",
	"      udrv-bench-138     [000] d.h1.     2.944058: irq_handler_entry: irq=24 name=udrv-bench-reply",
};

/* rt, kthread: D's thread, still running from the reply before, is
 * switched to between B's hardirq and B's thread (no mark there) */
static const char *const rt_kthread[] = {
	"      udrv-bench-145     [000] .......     3.077727: gpio_value: 1020 set 1",
	"      udrv-bench-145     [000] d..h1..     3.077728: irq_work_entry: vector=246",
	"      udrv-bench-145     [000] d..h1..     3.077729: irq_handler_entry: irq=25 name=gpio-reply",
	"      udrv-bench-145     [000] d..h3..     3.077730: sched_waking: comm=irq/25-gpio-rep pid=147 prio=49 target_cpu=000",
	"      udrv-bench-145     [000] d...2..     3.077736: sched_switch: prev_comm=udrv-bench prev_pid=145 prev_prio=19 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=146 next_prio=49",
	" irq/24-udrv-ben-146     [000] d...2..     3.077739: sched_switch: prev_comm=irq/24-udrv-ben prev_pid=146 prev_prio=49 prev_state=S ==> next_comm=irq/25-gpio-rep next_pid=147 next_prio=49",
	" irq/25-gpio-rep-147     [000] .......     3.077740: gpio_value: 1021 get 1",
	" irq/25-gpio-rep-147     [000] .......     3.077741: gpio_value: 1022 set 0",
	" irq/25-gpio-rep-147     [000] d..h1..     3.077742: irq_work_entry: vector=246",
	" irq/25-gpio-rep-147     [000] d..h1..     3.077743: irq_handler_entry: irq=24 name=udrv-bench-reply",
	" irq/25-gpio-rep-147     [000] d...2..     3.077749: sched_switch: prev_comm=irq/25-gpio-rep prev_pid=147 prev_prio=49 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=146 next_prio=49",
};

/* rt, user/read: the responder (157) runs, blocks on a lock B's irq
 * thread holds (prev_state=D), and runs again */
static const char *const rt_user[] = {
	"      udrv-bench-155     [000] .......     3.316070: gpio_value: 1020 set 1",
	"      udrv-bench-155     [000] d..h1..     3.316071: irq_work_entry: vector=246",
	"      udrv-bench-155     [000] d..h1..     3.316072: irq_handler_entry: irq=25 name=udrv-reply-target",
	"      udrv-bench-155     [000] d...2..     3.316079: sched_switch: prev_comm=udrv-bench prev_pid=155 prev_prio=19 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=156 next_prio=49",
	" irq/24-udrv-ben-156     [000] d...2..     3.316083: sched_switch: prev_comm=irq/24-udrv-ben prev_pid=156 prev_prio=49 prev_state=S ==> next_comm=irq/25-udrv-rep next_pid=158 next_prio=49",
	" irq/25-udrv-rep-158     [000] d...211     3.316088: sched_switch: prev_comm=irq/25-udrv-rep prev_pid=158 prev_prio=49 prev_state=R+ ==> next_comm=udrv-bench next_pid=157 next_prio=19",
	"      udrv-bench-157     [000] d...2..     3.316092: sched_switch: prev_comm=udrv-bench prev_pid=157 prev_prio=19 prev_state=D ==> next_comm=irq/25-udrv-rep next_pid=158 next_prio=19",
	" irq/25-udrv-rep-158     [000] d...2..     3.316099: sched_switch: prev_comm=irq/25-udrv-rep prev_pid=158 prev_prio=49 prev_state=R+ ==> next_comm=udrv-bench next_pid=157 next_prio=19",
	"      udrv-bench-157     [000] .......     3.316102: gpio_value: 1022 set 0",
	"      udrv-bench-157     [000] d..h1..     3.316103: irq_work_entry: vector=246",
	"      udrv-bench-157     [000] d..h1..     3.316104: irq_handler_entry: irq=24 name=udrv-bench-reply",
	"      udrv-bench-157     [000] d...2..     3.316111: sched_switch: prev_comm=udrv-bench prev_pid=157 prev_prio=19 prev_state=S ==> next_comm=irq/25-udrv-rep next_pid=158 next_prio=49",
	" irq/25-udrv-rep-158     [000] d...2..     3.316114: sched_switch: prev_comm=irq/25-udrv-rep prev_pid=158 prev_prio=49 prev_state=S ==> next_comm=irq/24-udrv-ben next_pid=156 next_prio=49",
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static struct bd_analysis an;

static void feed(struct bd_analysis *a, const char *const *lines, size_t n,
		 size_t skip)
{
	struct trace_event ev;

	for (size_t i = 0; i < n; i++)
		if (i != skip && trace_parse_line(lines[i], strlen(lines[i]), &ev))
			bd_feed(a, &ev);
}

static struct bd_spec spec(enum bd_chain chain, int responder)
{
	return (struct bd_spec){ .chain = chain, .ipi = true, .d_side = true,
				 .b_irq = 25, .d_irq = 24,
				 .responder_pid = responder, .c_gpio = 1022 };
}

/* The stages' names, "a b c", their sum into @sum. */
static void names(const struct bd_stage *st, int n, char *buf, size_t len,
		  uint64_t *sum)
{
	size_t used = 0;

	*sum = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? " " : "", st[i].name);
		*sum += st[i].ns;
	}
}

/* Reply 0's stages from @lines under @sp: how many, their names into @buf
 * and their sum into @sum (-1: refused). */
static int stages_of(struct bd_spec sp, struct bd_reply *r, size_t nr,
		     const char *const *lines, size_t nl, struct bd_stage *st,
		     char *buf, size_t len, uint64_t *sum)
{
	char err[256];
	int n;

	*sum = 0;
	buf[0] = '\0';
	bd_init(&an, &sp, r, nr);
	feed(&an, lines, nl, (size_t)-1);
	n = bd_stages(&an, 0, st, err, sizeof(err));
	if (n >= 0)
		names(st, n, buf, len, sum);
	return n;
}

static void test_std_isr(void)
{
	struct bd_reply r[3] = {
		{ .t_write = 2943985600ULL, .t_d = 2943991250ULL },
		{ .t_write = 2944017700ULL, .t_d = 2944023300ULL },
		{ .t_write = 2944049800ULL, .t_d = 2944058300ULL },
	};
	struct bd_stage st[BD_NMARKS];
	char err[256], buf[256];
	uint64_t sum;
	int n = stages_of(spec(BD_CHAIN_ISR, 0), r, 3, std_isr, N(std_isr), st,
			  buf, sizeof(buf), &sum);

	CHECK_INT(n, 5);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_reply reply_to_d_hardirq d_hardirq_to_timestamp");
	CHECK_INT(st[0].ns, US(2943987) - 2943985600ULL);
	CHECK_INT(st[1].ns, 1000);
	CHECK_INT(st[2].ns, 1000);
	CHECK_INT(st[3].ns, 2000);
	CHECK_INT(st[4].ns, 250);
	CHECK_INT(sum, r[0].t_d - r[0].t_write);	/* contiguous */
	CHECK_STR(st[2].who, "hardirq 25 gpio-reply");
	CHECK_STR(st[3].who, "gpio 1022 set 0 in udrv-bench-138");
	/* the median of 5600, 5600 and 8500 ns: a 5600 one (the first) */
	CHECK_INT(bd_median(&an, err, sizeof(err)), 0);
	/* D's thread ran after the timestamp: no d_thread mark */
	CHECK_INT(r[0].at[BD_D_THREAD], 0);
	/* the events inside reply 0: from A's write to D's hardirq, 7 */
	CHECK_INT(r[0].events, 7);
}

/* A mark rounded (to the trace's µs) past the timestamp is moved to it:
 * no negative stage; one further out is refused. */
static void test_rounding(void)
{
	struct bd_reply r[1] = { { .t_write = 2943985600ULL, .t_d = 2943990800ULL } };
	struct bd_spec s = spec(BD_CHAIN_ISR, 0);
	struct bd_stage st[BD_NMARKS];
	char err[256];
	int n;

	bd_init(&an, &s, r, 1);
	feed(&an, std_isr, 7, (size_t)-1);
	n = bd_stages(&an, 0, st, err, sizeof(err));
	CHECK_INT(n, 5);
	CHECK_INT(st[3].ns, 1800);	/* reply at 2943989000, D clamped */
	CHECK_INT(st[4].ns, 0);
	r[0].t_d = 2943990400ULL;	/* D's hardirq 600 ns after: refused */
	bd_init(&an, &s, r, 1);
	feed(&an, std_isr, 7, (size_t)-1);
	r[0].at[BD_D_HARDIRQ] = US(2943991);
	CHECK_INT(bd_stages(&an, 0, st, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "d_hardirq at 2943991000 ns is out of order");
}

static void test_rt_kthread(void)
{
	struct bd_reply r[1] = { { .t_write = 3077726900ULL, .t_d = 3077743400ULL } };
	struct bd_stage st[BD_NMARKS];
	char buf[256];
	uint64_t sum;
	int n = stages_of(spec(BD_CHAIN_KTHREAD, 0), r, 1, rt_kthread,
			  N(rt_kthread), st, buf, sizeof(buf), &sum);

	CHECK_INT(n, 6);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_b_thread b_thread_to_reply reply_to_d_hardirq d_hardirq_to_timestamp");
	/* B's hardirq to its thread: 10 us, D's thread from before inside */
	CHECK_INT(st[2].ns, 10000);
	CHECK_STR(st[3].who, "task irq/25-gpio-rep (pid 147)");
	CHECK_INT(sum, r[0].t_d - r[0].t_write);
}

static void test_rt_user(void)
{
	struct bd_reply r[1] = { { .t_write = 3316069800ULL, .t_d = 3316104300ULL } };
	struct bd_stage st[BD_NMARKS];
	char buf[256];
	uint64_t sum;
	int n = stages_of(spec(BD_CHAIN_USER, 157), r, 1, rt_user, N(rt_user),
			  st, buf, sizeof(buf), &sum);

	CHECK_INT(n, 7);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_b_thread b_thread_to_responder responder_to_reply reply_to_d_hardirq d_hardirq_to_timestamp");
	CHECK_INT(st[3].ns, 5000);	/* B's thread until the responder */
	CHECK_INT(st[4].ns, 14000);	/* the responder, blocked once, to C */
	CHECK_INT(sum, r[0].t_d - r[0].t_write);
}

/* A forced-threaded kernel's second thread and a timestamp taken in D's
 * thread: optional marks, taken when the trace has them */
static void test_optional_marks(void)
{
	static const char *const lines[] = {
		"  w-1 [000] d.h1.     1.000002: irq_work_entry: vector=246",
		"  w-1 [000] d.h1.     1.000003: irq_handler_entry: irq=25 name=x",
		"  w-1 [000] d..2.     1.000005: sched_switch: prev_comm=w prev_pid=1 prev_prio=19 prev_state=S ==> next_comm=irq/25-x next_pid=7 next_prio=49",
		"  irq/25-x-7 [000] d..2.     1.000006: sched_switch: prev_comm=irq/25-x prev_pid=7 prev_prio=49 prev_state=S ==> next_comm=irq/25-s-x next_pid=8 next_prio=49",
		"  irq/25-s-x-8 [000] .....     1.000007: gpio_value: 1022 set 1",
		"  irq/25-s-x-8 [000] d.h1.     1.000008: irq_handler_entry: irq=24 name=y",
		"  irq/25-s-x-8 [000] d..2.     1.000009: sched_switch: prev_comm=irq/25-s-x prev_pid=8 prev_prio=49 prev_state=S ==> next_comm=irq/24-y next_pid=9 next_prio=49",
	};
	struct bd_reply r[1] = { { .t_write = 1000001000ULL, .t_d = 1000010000ULL } };
	struct bd_stage st[BD_NMARKS];
	char buf[256];
	uint64_t sum;
	int n = stages_of(spec(BD_CHAIN_KTHREAD, 0), r, 1, lines, N(lines), st,
			  buf, sizeof(buf), &sum);

	CHECK_INT(n, 8);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_b_thread b_thread_to_b_thread_s b_thread_s_to_reply reply_to_d_hardirq d_hardirq_to_d_thread d_thread_to_timestamp");
	CHECK_INT(sum, 9000);
}

/*
 * helper_reply (lib/irq-reply), lines made for the test in the shape of the
 * helper chain's: udrv-irq's handler wakes the responder (160), whose next
 * UDRV_IRQ_SET writes C; D's hardirq interrupts that call. The reply mark
 * is "helper_write", and only the responder's own write of C is one.
 */
static void test_helper_reply(void)
{
	static const char *const lines[] = {
		"  w-1 [000] d.h1.     1.000002: irq_work_entry: vector=246",
		"  w-1 [000] d.h1.     1.000003: irq_handler_entry: irq=25 name=udrv-irq:gpio-wire:5",
		"  w-1 [000] d..2.     1.000005: sched_switch: prev_comm=w prev_pid=1 prev_prio=19 prev_state=S ==> next_comm=udrv-bench next_pid=160 next_prio=14",
		"  other-7 [000] .....     1.000006: gpio_value: 1022 set 0",
		"  udrv-bench-160 [000] .....     1.000008: gpio_value: 1022 set 0",
		"  udrv-bench-160 [000] d.h1.     1.000009: irq_handler_entry: irq=24 name=y",
	};
	struct bd_reply r[1] = { { .t_write = 1000001000ULL, .t_d = 1000010000ULL } };
	struct bd_spec s = spec(BD_CHAIN_HELPER_REPLY, 160);
	struct bd_stage st[BD_NMARKS];
	char buf[256], err[256];
	uint64_t sum;
	int n = stages_of(s, r, 1, lines, N(lines), st, buf, sizeof(buf), &sum);

	CHECK_INT(n, 6);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_responder responder_to_helper_write helper_write_to_d_hardirq d_hardirq_to_timestamp");
	CHECK_INT(st[3].ns, 3000);	/* the responder to its call's write */
	CHECK_STR(st[4].who, "gpio 1022 set 0 in udrv-bench-160");
	CHECK_INT(sum, 9000);
	CHECK_STR(bd_chain_name(s.chain), "helper_reply");
	/* the helper chain (lib/irq) names the same mark "reply" */
	n = stages_of(spec(BD_CHAIN_HELPER, 160), r, 1, lines, N(lines), st,
		      buf, sizeof(buf), &sum);
	CHECK_STR(buf, "write_to_ipi ipi_to_b_hardirq b_hardirq_to_responder responder_to_reply reply_to_d_hardirq d_hardirq_to_timestamp");
	/* C written by another task only: no helper_write */
	bd_init(&an, &s, r, 1);
	feed(&an, lines, N(lines), 4);
	CHECK_INT(bd_stages(&an, 0, st, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "no helper_write (gpio_value setting C in the responder's task");
}

/* A reply whose mark the trace lacks: refused with its name, not a
 * wrong number; the median refuses the run */
static void test_missing_mark(void)
{
	struct bd_reply r[1] = { { .t_write = 3316069800ULL, .t_d = 3316104300ULL } };
	struct bd_spec s = spec(BD_CHAIN_USER, 157);
	struct bd_stage st[BD_NMARKS];
	char err[256];

	/* line 5 is the first switch to the responder; the second one
	 * (line 7) then marks it: drop both */
	bd_init(&an, &s, r, 1);
	s.responder_pid = 999;
	bd_init(&an, &s, r, 1);
	feed(&an, rt_user, N(rt_user), (size_t)-1);
	CHECK_INT(bd_stages(&an, 0, st, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "the trace has no responder (sched_switch to the responder's pid)");
	CHECK_INT(bd_median(&an, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "reply 0");
	/* the write of C left out */
	s.responder_pid = 157;
	bd_init(&an, &s, r, 1);
	feed(&an, rt_user, N(rt_user), 8);
	CHECK_INT(bd_stages(&an, 0, st, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "no reply (gpio_value setting C)");
	/* no replies at all */
	bd_init(&an, &s, r, 0);
	CHECK_INT(bd_median(&an, err, sizeof(err)), -1);
}

static void test_parse_gpio_value(void)
{
	struct trace_event ev;
	const char *l = "  u-157 [000] .......     3.316102: gpio_value: 1022 set 0";

	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_GPIO_VALUE);
	CHECK_INT(ev.gpio, 1022);
	CHECK_INT(ev.gpio_get, 0);
	CHECK_INT(ev.value, 0);
	l = "  u-157 [000] .......     3.316102: gpio_value: 7 get 1";
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.gpio_get, 1);
	CHECK_INT(ev.value, 1);
	/* damaged: not a gpio_value event */
	l = "  u-157 [000] .......     3.316102: gpio_value: 07 set 1";
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	l = "  u-157 [000] .......     3.316102: gpio_value: 7 put 1";
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	l = "  u-157 [000] .......     3.316102: gpio_value: 7 set -0";	/* not %d's */
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	l = "  u-157 [000] .......     3.316102: gpio_value: 7 set +1";
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	l = "  u-157 [000] .......     3.316102: gpio_value:7 set 1";	/* ": " */
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
	l = "  u-157 [000] .......     3.316102: gpio_value: 7 set";
	CHECK_INT(trace_parse_line(l, strlen(l), &ev), 1);
	CHECK_INT(ev.kind, TRACE_OTHER);
}

/*
 * Each event's cost taken off (cost_ns[]): a mark moves back by the cost of
 * its reply's events up to and including its own, the timestamp by all of
 * them; the stages stay contiguous and add up to bd_total(). A cost larger
 * than the reply leaves no stage negative.
 */
static void test_costs(void)
{
	struct bd_reply r[1] = { { .t_write = 2943985600ULL, .t_d = 2943991250ULL } };
	struct bd_spec s = spec(BD_CHAIN_ISR, 0);
	struct bd_stage st[BD_NMARKS];
	char err[256], buf[256];
	uint64_t sum;
	int n;

	bd_init(&an, &s, r, 1);
	an.cost_ns[BD_EV_IPI] = 300;
	an.cost_ns[BD_EV_IRQ] = 500;
	an.cost_ns[BD_EV_GPIO] = 400;
	feed(&an, std_isr, N(std_isr), (size_t)-1);
	/* inside reply 0: A's write, the IPI, B's hardirq, C read, C set,
	 * (irq_handler_exit: no type), D's hardirq */
	CHECK_INT(an.count[BD_EV_GPIO], 3);
	CHECK_INT(an.count[BD_EV_IRQ], 2);
	CHECK_INT(an.count[BD_EV_IPI], 1);
	CHECK_INT(an.count[BD_EV_SWITCH], 0);
	n = bd_stages(&an, 0, st, err, sizeof(err));
	CHECK_INT(n, 5);
	names(st, n, buf, sizeof(buf), &sum);
	CHECK_INT(st[0].ns, 1400 - 700);	/* ipi: 400 + 300 taken off */
	CHECK_INT(st[1].ns, 1000 - 500);	/* b_hardirq: + 500 */
	CHECK_INT(st[2].ns, 1000 - 800);	/* reply: + 400 + 400 */
	CHECK_INT(st[3].ns, 2000 - 500);	/* d_hardirq: + 500 */
	CHECK_INT(st[4].ns, 250);
	CHECK_INT(sum, 5650 - 2500);
	CHECK_INT(bd_total(&an, 0), sum);
	CHECK_INT(bd_median(&an, err, sizeof(err)), 0);
	/* costs beyond the reply: stages 0, none negative, total 0 */
	bd_init(&an, &s, r, 1);
	an.cost_ns[BD_EV_IRQ] = 4000;
	feed(&an, std_isr, N(std_isr), (size_t)-1);
	n = bd_stages(&an, 0, st, err, sizeof(err));
	CHECK_INT(n, 5);
	names(st, n, buf, sizeof(buf), &sum);
	for (int i = 0; i < n; i++)
		CHECK_INT(st[i].ns, 0);
	CHECK_INT(sum, 0);
	CHECK_INT(bd_total(&an, 0), 0);
}

/* What udrv-bench traces: neither the IPI nor D's side; their events in
 * the trace mark nothing, and the reply runs to the timestamp. */
static void test_b_side_only(void)
{
	struct bd_reply r[1] = { { .t_write = 3316069800ULL, .t_d = 3316104300ULL } };
	struct bd_spec s = spec(BD_CHAIN_USER, 157);
	struct bd_stage st[BD_NMARKS];
	char buf[256];
	uint64_t sum;
	int n;

	s.ipi = false;
	s.d_side = false;
	n = stages_of(s, r, 1, rt_user, N(rt_user), st, buf, sizeof(buf), &sum);
	CHECK_INT(n, 5);
	CHECK_STR(buf, "write_to_b_hardirq b_hardirq_to_b_thread b_thread_to_responder responder_to_reply reply_to_timestamp");
	CHECK_INT(st[4].ns, r[0].t_d - US(3316102));
	CHECK_INT(sum, r[0].t_d - r[0].t_write);
}

/* ftrace's raw format: the nanoseconds the text rounds away, strictly */
static void test_parse_raw(void)
{
	const char *ok = "157 0 3316102499 type: 1182";
	const char *bad[] = {
		"157 0 3316102499 type: ", "157 0 3316102499 type: 01",
		"157 0 03316102499 type: 1", "157 0 3316102499 typ: 1",
		"-1 0 3316102499 type: 1", "157 0 3316102499 type: 1 ",
		"157 0 99999999999999999999 type: 1", "157 70000 1 type: 1",
		"CPU:0 [LOST 12 EVENTS]", "# tracer: nop", "",
	};
	struct trace_raw r;

	CHECK_INT(trace_parse_raw(ok, strlen(ok), &r), 1);
	CHECK_INT(r.pid, 157);
	CHECK_INT(r.cpu, 0);
	CHECK_INT(r.ts_ns, 3316102499ULL);
	CHECK_INT(r.type, 1182);
	for (size_t i = 0; i < N(bad); i++)
		CHECK_INT(trace_parse_raw(bad[i], strlen(bad[i]), &r), 0);
}

UDRV_TESTS(UDRV_T(test_parse_gpio_value), UDRV_T(test_std_isr),
	   UDRV_T(test_rounding), UDRV_T(test_rt_kthread), UDRV_T(test_rt_user),
	   UDRV_T(test_optional_marks), UDRV_T(test_helper_reply),
	   UDRV_T(test_missing_mark),
	   UDRV_T(test_costs), UDRV_T(test_b_side_only),
	   UDRV_T(test_parse_raw))
