// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace's text (rig/bench/core/trace/trace_parse.c and trace.c:
 * --trace-on-spike's reader and analysis; rig/bench/reply/breakdown.c:
 * udrv-bench reply --breakdown's stages).
 *
 * Parts: [0] the window and the bench as text, "START END CPU PID" (decimal;
 * anything else: a window over the first two events' timestamps), [1] the
 * trace, one line per '\n', as tracefs's "trace" file prints it.
 *
 * Properties, for every line: a parsed event's strings are terminated and
 * its header pid, printed back, is in the line; for the analysis: the time
 * it gives out adds up (entries + unattributed = covered <= the window), no
 * entry holds more than the window, the entries are sorted by time, the
 * cause is the largest entry that is neither the bench, its wake-up path
 * nor idle, the bench's runnable time fits in the window, the time RT
 * tasks waited while the CPU idled or ran non-RT tasks fits in what the
 * trace covers (and names a task when it is RT throttling), and the
 * verdict is one terminated sentence. A gpio_value event prints back
 * ("%u set|get %d") into its line. The breakdown (the window as one reply,
 * B = irq 25, D = irq 24, C = gpio 1022, each chain in turn): a reply's
 * stages are contiguous (they add up to its total exactly), none is
 * negative or beyond the total, their names are "<mark>_to_<mark>" in the
 * marks' order; a refused reply says why; with events' costs taken off
 * (chains 2 and 3) they add up to bd_total(), no more than the reply. A
 * line that parses as ftrace's raw format prints back to itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reply/breakdown.h"
#include "fuzz.h"
#include "core/trace/trace.h"

static struct trace_analysis an;	/* big: not on the stack */

static void check_event(const char *line, size_t len, const struct trace_event *ev)
{
	char pid[24];

	FUZZ_CHECK(memchr(ev->cur.comm, '\0', sizeof(ev->cur.comm)) &&
		   memchr(ev->task.comm, '\0', sizeof(ev->task.comm)) &&
		   memchr(ev->prev.comm, '\0', sizeof(ev->prev.comm)) &&
		   memchr(ev->what, '\0', sizeof(ev->what)), "unterminated string");
	snprintf(pid, sizeof(pid), "-%d", ev->cur.pid);
	FUZZ_CHECK(memmem(line, len, pid, strlen(pid)) != NULL,
		   "pid %d is not in the line", ev->cur.pid);
	if (ev->kind == TRACE_GPIO_VALUE) {
		char v[48];

		snprintf(v, sizeof(v), "gpio_value: %u %s %d", ev->gpio,
			 ev->gpio_get ? "get" : "set", ev->value);
		FUZZ_CHECK(memmem(line, len, v, strlen(v)) != NULL,
			   "'%s' is not in the line", v);
	}
}

static void check_raw(const char *line, size_t len)
{
	struct trace_raw r;
	char back[96];

	if (!trace_parse_raw(line, len, &r))
		return;
	snprintf(back, sizeof(back), "%d %u %" PRIu64 " type: %d", r.pid, r.cpu,
		 r.ts_ns, r.type);
	FUZZ_CHECK(strlen(back) == len && !memcmp(back, line, len),
		   "raw line '%.*s' prints back as '%s'", (int)len, line, back);
}

static struct bd_analysis bd[4];
static struct bd_reply bd_r[4];

static void bd_start(uint64_t t_write, uint64_t t_d)
{
	for (int c = 0; c < 4; c++) {
		struct bd_spec s = { .chain = (enum bd_chain)c, .ipi = c & 1,
				     .d_side = c != 2,
				     .b_irq = c == BD_CHAIN_BUSY ? -1 : 25,
				     .d_irq = 24, .responder_pid = 157,
				     .c_gpio = 1022 };

		bd_r[c].t_write = t_write;
		bd_r[c].t_d = t_d;
		bd_init(&bd[c], &s, &bd_r[c], 1);
		for (int e = 0; e < BD_NEV && c >= 2; e++)
			bd[c].cost_ns[e] = 350.0 * (e + 1);
	}
}

static void check_breakdown(void)
{
	struct bd_stage st[BD_NMARKS];
	char err[320];

	for (int c = 0; c < 4; c++) {
		const struct bd_reply *r = &bd_r[c];
		uint64_t sum = 0;
		int n;

		memset(err, 'x', sizeof(err));
		n = bd_stages(&bd[c], 0, st, err, sizeof(err));
		if (n < 0) {
			FUZZ_CHECK(memchr(err, '\0', sizeof(err)) && err[0],
				   "a refused reply without a reason");
			continue;
		}
		FUZZ_CHECK(n >= 2 && n < BD_NMARKS, "%d stages", n);
		FUZZ_CHECK(!strncmp(st[0].name, "write_to_", 9) &&
			   strstr(st[n - 1].name, "_to_timestamp"),
			   "stages from %s to %s", st[0].name, st[n - 1].name);
		for (int i = 0; i < n; i++) {
			FUZZ_CHECK(st[i].ns <= r->t_d - r->t_write,
				   "stage %s longer than the reply", st[i].name);
			sum += st[i].ns;
		}
		FUZZ_CHECK(sum == bd_total(&bd[c], 0) && sum <= r->t_d - r->t_write &&
			   (c >= 2 || sum == r->t_d - r->t_write),
			   "stages add up to %" PRIu64 ", the total is %" PRIu64
			   ", the reply %" PRIu64, sum, bd_total(&bd[c], 0),
			   r->t_d - r->t_write);
	}
}

static void check_analysis(const struct trace_analysis *a)
{
	uint64_t window = a->end - a->start, sum = a->unattributed_ns;
	char verdict[640];

	for (size_t i = 0; i < a->n; i++) {
		const struct trace_entry *e = &a->entries[i];

		FUZZ_CHECK(e->ns <= window, "entry %zu holds %" PRIu64 " ns of a %" PRIu64 " ns window",
			   i, e->ns, window);
		FUZZ_CHECK(!i || a->entries[i - 1].ns >= e->ns, "entries not sorted at %zu", i);
		FUZZ_CHECK(e->rt_waiting_ns <= a->rt_waiting_idle_ns + a->rt_waiting_other_ns,
			   "entry %zu waited more than the CPU was away", i);
		FUZZ_CHECK(memchr(e->name, '\0', sizeof(e->name)), "unterminated name");
		if (a->cause < 0 || (size_t)a->cause > i)
			FUZZ_CHECK(e->role != TRACE_ROLE_OTHER || !e->ns,
				   "entry %zu (other, %" PRIu64 " ns) is before the cause %d",
				   i, e->ns, a->cause);
		sum += e->ns;
	}
	FUZZ_CHECK(sum == a->covered_ns, "entries add up to %" PRIu64 ", covered %" PRIu64,
		   sum, a->covered_ns);
	FUZZ_CHECK(a->covered_ns <= window, "covered %" PRIu64 " > window %" PRIu64,
		   a->covered_ns, window);
	FUZZ_CHECK(a->runnable_ns <= window, "runnable %" PRIu64 " > window %" PRIu64,
		   a->runnable_ns, window);
	FUZZ_CHECK(a->rt_waiting_idle_ns + a->rt_waiting_other_ns <= a->covered_ns,
		   "RT waiting %" PRIu64 " + %" PRIu64 " > covered %" PRIu64,
		   a->rt_waiting_idle_ns, a->rt_waiting_other_ns, a->covered_ns);
	FUZZ_CHECK(!a->kept_waiting || a->waiter >= 0, "kept waiting with no waiter");
	FUZZ_CHECK(!a->throttled || (a->kept_waiting && a->rt_period_at), "throttled without its signs");
	if (a->cause >= 0) {
		const struct trace_entry *c = &a->entries[a->cause];

		FUZZ_CHECK((size_t)a->cause < a->n && c->role == TRACE_ROLE_OTHER && c->ns,
			   "the cause is not another's work");
	}
	memset(verdict, 'x', sizeof(verdict));
	trace_verdict(a, verdict, sizeof(verdict));
	FUZZ_CHECK(memchr(verdict, '\0', sizeof(verdict)) && !strchr(verdict, '\n'),
		   "verdict not one terminated line");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;
	struct trace_event ev;
	unsigned long long start = 0, end = 0;
	unsigned int cpu = 0;
	int pid = 1, first = 1;
	char *head, *text, *p;

	fuzz_split(data, size, &parts);
	head = fuzz_str(&parts, 0);
	text = fuzz_str(&parts, 1);
	if (sscanf(head, "%llu %llu %u %d", &start, &end, &cpu, &pid) != 4)
		first = 0;
	trace_analysis_init(&an, start, end, cpu, pid);
	bd_start(start, end);
	for (p = text; *p;) {
		size_t len = strcspn(p, "\n");

		check_raw(p, len);
		if (trace_parse_line(p, len, &ev)) {
			check_event(p, len, &ev);
			if (!first) {	/* the window from the trace itself */
				trace_analysis_init(&an, ev.ts_ns, ev.ts_ns + 1000000,
						    ev.cpu, ev.cur.pid + 1);
				bd_start(ev.ts_ns, ev.ts_ns + 20000);
				first = 1;
			}
			trace_analysis_feed(&an, &ev);
			for (int c = 0; c < 4; c++)
				bd_feed(&bd[c], &ev);
		}
		p += len + (p[len] == '\n');
	}
	trace_analysis_finish(&an);
	check_analysis(&an);
	check_breakdown();
	free(head);
	free(text);
	return 0;
}
