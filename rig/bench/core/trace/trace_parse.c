// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace's text read back (trace.h): one line of the trace file into a
 * struct trace_event, strictly (numbers as the kernel prints them; a line
 * that is not an event we know is skipped, a damaged one refused).
 */
#include <stdio.h>
#include <string.h>

#include <udrv/parse.h>

#include "trace.h"

/* ---- the line ---------------------------------------------------------- */

/* @s[0..n) as a number through udrv/parse.h (whole token, no sign for u64) */
static bool tok_s64(const char *s, size_t n, int64_t min, int64_t max,
		    int64_t *v)
{
	char buf[24];

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return udrv_parse_s64(buf, min, max, v) == 0;
}

/* A pid, cpu, irq or prio as the kernel prints them ("%d"): no leading
 * zero, no 0x, no '+' (parse.h takes them), no "-0" */
static bool tok_int(const char *s, size_t n, int *v)
{
	size_t neg = n && s[0] == '-';
	int64_t x;

	if (n <= neg || s[neg] < '0' || s[neg] > '9' ||
	    ((n > neg + 1 || neg) && s[neg] == '0'))
		return false;
	if (!tok_s64(s, n, -1000000, 0x7fffffff, &x))
		return false;
	*v = (int)x;
	return true;
}

static void copy_tok(char *dst, size_t dlen, const char *s, size_t n)
{
	if (n >= dlen)
		n = dlen - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* First occurrence of @needle in s[0..n), or NULL. */
static const char *find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (!memcmp(s + i, needle, k))
			return s + i;
	return NULL;
}

/* Last occurrence of @needle in s[0..n), or NULL. */
static const char *rfind(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = n - k + 1; k <= n && i-- > 0;)
		if (!memcmp(s + i, needle, k))
			return s + i;
	return NULL;
}

static size_t span_digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/*
 * The value of "@key=" in f[0..n): at the start or after a space, up to
 * the next space (or, with @until, up to the last " @until" after it: comm
 * may hold spaces). false when absent.
 */
static bool field(const char *f, size_t n, const char *key, const char *until,
		  const char **v, size_t *vlen)
{
	size_t k = strlen(key);
	const char *p = f, *end = f + n, *stop;

	for (;;) {
		p = find(p, (size_t)(end - p), key);
		if (!p)
			return false;
		if ((p == f || p[-1] == ' ') && p + k < end && p[k] == '=')
			break;
		p++;
	}
	p += k + 1;
	stop = until ? rfind(p, (size_t)(end - p), until) : NULL;
	if (!stop) {
		stop = memchr(p, ' ', (size_t)(end - p));
		if (!stop)
			stop = end;
	}
	*v = p;
	*vlen = (size_t)(stop - p);
	return true;
}

static bool field_int(const char *f, size_t n, const char *key, int *out)
{
	const char *v;
	size_t vl;

	return field(f, n, key, NULL, &v, &vl) && tok_int(v, vl, out);
}

static bool field_task(const char *f, size_t n, const char *comm_key,
		       const char *pid_key, const char *prio_key,
		       struct trace_task *t)
{
	char until[24];
	const char *v;
	size_t vl;

	snprintf(until, sizeof(until), " %s=", pid_key);
	if (!field(f, n, comm_key, until, &v, &vl))
		return false;
	copy_tok(t->comm, sizeof(t->comm), v, vl);
	t->prio = TRACE_PRIO_UNKNOWN;
	return field_int(f, n, pid_key, &t->pid) &&
	       (!prio_key || field_int(f, n, prio_key, &t->prio));
}

/* "<sec>.<frac>" to ns: the fraction's digits scaled to 9 places. */
static bool parse_ts(const char *s, size_t n, uint64_t *ns)
{
	size_t i = span_digits(s, n), j;
	int64_t sec, frac;

	if (!i || i > 10 || i >= n || s[i] != '.')
		return false;
	j = span_digits(s + i + 1, n - i - 1);
	if (!j || j > 9 || !tok_s64(s, i, 0, 9999999999LL, &sec) ||
	    !tok_s64(s + i + 1, j, 0, 999999999, &frac))
		return false;
	for (size_t k = j; k < 9; k++)
		frac *= 10;
	*ns = (uint64_t)sec * 1000000000ULL + (uint64_t)frac;
	return i + 1 + j == n;
}

/*
 * After "[cpu] ": the flags column, the timestamp and ": ". Sets @rest to
 * the event's name.
 */
static bool parse_flags_ts(const char *p, const char *end,
			   struct trace_event *ev, const char **rest)
{
	const char *colon;

	for (; p < end && *p != ' '; p++)
		if (strchr("hHszZ", *p))	/* hardirq/softirq/NMI column */
			ev->in_irq = true;
	while (p < end && *p == ' ')
		p++;
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || !parse_ts(p, (size_t)(colon - p), &ev->ts_ns) ||
	    colon + 2 > end || colon[1] != ' ')
		return false;
	*rest = colon + 2;
	return true;
}

/*
 * The header "<comm>-<pid> [<cpu>] <flags> <ts>: ": the first " [digits] "
 * whose left side ends in "-digits" and whose right side parses (comm may
 * hold anything). Sets @rest to the event's name.
 */
static bool parse_head(const char *l, size_t n, struct trace_event *ev,
		       const char **rest)
{
	for (const char *p = l; (p = memchr(p, '[', (size_t)(l + n - p))); p++) {
		size_t d = span_digits(p + 1, (size_t)(l + n - p - 1));
		const char *q = p, *dash;
		int64_t cpu;	/* "%03d": zero-padded */

		if (!d || p + 1 + d + 1 >= l + n || p[1 + d] != ']' ||
		    p[2 + d] != ' ' || !tok_s64(p + 1, d, 0, 1 << 20, &cpu))
			continue;
		while (q > l && q[-1] == ' ')
			q--;
		dash = q;
		while (dash > l && dash[-1] >= '0' && dash[-1] <= '9')
			dash--;
		if (dash == q || dash == l || dash[-1] != '-' ||
		    !tok_int(dash, (size_t)(q - dash), &ev->cur.pid))
			continue;
		q = l;
		while (q < dash - 1 && *q == ' ')
			q++;
		copy_tok(ev->cur.comm, sizeof(ev->cur.comm), q,
			 (size_t)(dash - 1 - q));
		ev->cur.prio = TRACE_PRIO_UNKNOWN;
		ev->cpu = (unsigned int)cpu;
		ev->in_irq = false;
		if (parse_flags_ts(p + 3 + d, l + n, ev, rest))
			return true;
	}
	return false;
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *stem)
{
	size_t k = strlen(suffix);

	if (n <= k || memcmp(s + n - k, suffix, k))
		return false;
	*stem = n - k;
	return true;
}

static void parse_sched(const char *name, size_t nl, const char *f, size_t fl,
			struct trace_event *ev)
{
	if (nl == 12 && !memcmp(name, "sched_switch", 12)) {
		const char *v;
		size_t vl;

		if (field_task(f, fl, "prev_comm", "prev_pid", "prev_prio", &ev->prev) &&
		    field_task(f, fl, "next_comm", "next_pid", "next_prio", &ev->task))
			ev->kind = TRACE_SWITCH;
		ev->prev_runnable = field(f, fl, "prev_state", NULL, &v, &vl) &&
				    vl && v[0] == 'R';
	} else if ((nl == 12 && !memcmp(name, "sched_wakeup", 12)) ||
		   (nl == 16 && !memcmp(name, "sched_wakeup_new", 16)) ||
		   (nl == 12 && !memcmp(name, "sched_waking", 12))) {
		const char *v;
		size_t vl;
		int64_t cpu;

		if (field(f, fl, "target_cpu", NULL, &v, &vl) &&
		    vl == span_digits(v, vl) && tok_s64(v, vl, 0, 1 << 20, &cpu))
			ev->target_cpu = (int)cpu;	/* "%03d" */
		if (field_task(f, fl, "comm", "pid", "prio", &ev->task))
			ev->kind = TRACE_WAKEUP;
	} else if (nl == 16 && !memcmp(name, "sched_pi_setprio", 16)) {
		if (field_task(f, fl, "comm", "pid", "newprio", &ev->task))
			ev->kind = TRACE_SETPRIO;
	}
}

static void parse_irq(const char *name, size_t nl, const char *f, size_t fl,
		      struct trace_event *ev)
{
	const char *v;
	size_t vl, stem;

	if (nl == 17 && !memcmp(name, "irq_handler_entry", 17)) {
		if (field_int(f, fl, "irq", &ev->irq) &&
		    field(f, fl, "name", NULL, &v, &vl)) {
			copy_tok(ev->what, sizeof(ev->what), v, vl);
			ev->kind = TRACE_IRQ_ENTRY;
		}
	} else if (nl == 16 && !memcmp(name, "irq_handler_exit", 16)) {
		if (field_int(f, fl, "irq", &ev->irq))
			ev->kind = TRACE_IRQ_EXIT;
	} else if ((nl == 13 && !memcmp(name, "softirq_entry", 13)) ||
		   (nl == 12 && !memcmp(name, "softirq_exit", 12))) {
		if (!field_int(f, fl, "vec", &ev->irq) ||
		    !field(f, fl, "[action", NULL, &v, &vl) || !vl || v[vl - 1] != ']')
			return;
		copy_tok(ev->what, sizeof(ev->what), v, vl - 1);
		ev->kind = name[8] == 'e' && name[9] == 'n' ? TRACE_SOFTIRQ_ENTRY :
							      TRACE_SOFTIRQ_EXIT;
	} else if (nl == 20 && !memcmp(name, "hrtimer_expire_entry", 20)) {
		if (field(f, fl, "function", NULL, &v, &vl)) {
			copy_tok(ev->what, sizeof(ev->what), v, vl);
			ev->kind = TRACE_HRTIMER_ENTRY;
		}
	} else if (nl == 19 && !memcmp(name, "hrtimer_expire_exit", 19)) {
		ev->kind = TRACE_HRTIMER_EXIT;
	} else if (field_int(f, fl, "vector", &ev->irq)) {
		/* irq_vectors: local_timer_entry, reschedule_exit, ... */
		if (ends_with(name, nl, "_entry", &stem))
			ev->kind = TRACE_VECTOR_ENTRY;
		else if (ends_with(name, nl, "_exit", &stem))
			ev->kind = TRACE_VECTOR_EXIT;
		else
			return;
		copy_tok(ev->what, sizeof(ev->what), name, stem);
	}
}

/* gpio_value: "<gpio> get <value>" or "<gpio> set <value>" ("%u %3s %d") */
static void parse_gpio(const char *f, size_t fl, struct trace_event *ev)
{
	size_t d = span_digits(f, fl), k;
	int64_t gpio;
	int value;

	if (!d || d + 5 > fl || f[d] != ' ' ||
	    (memcmp(f + d + 1, "get ", 4) && memcmp(f + d + 1, "set ", 4)))
		return;
	k = d + 5;
	if ((d > 1 && f[0] == '0') || !tok_s64(f, d, 0, 0xffffffffLL, &gpio) ||
	    !tok_int(f + k, fl - k, &value))
		return;
	ev->gpio = (unsigned int)gpio;
	ev->gpio_get = f[d + 1] == 'g';
	ev->value = value;
	ev->kind = TRACE_GPIO_VALUE;
}

int trace_parse_line(const char *line, size_t len, struct trace_event *ev)
{
	const char *p, *end = line + len, *name;
	size_t nl;

	memset(ev, 0, sizeof(*ev));
	ev->irq = -1;
	ev->target_cpu = -1;
	if (!len || line[0] == '#' || !parse_head(line, len, ev, &name))
		return 0;
	p = memchr(name, ':', (size_t)(end - name));
	if (!p)
		return 0;
	nl = (size_t)(p - name);
	p += p + 1 < end && p[1] == ' ' ? 2 : 1;
	ev->kind = TRACE_OTHER;
	if (nl > 6 && !memcmp(name, "sched_", 6))
		parse_sched(name, nl, p, (size_t)(end - p), ev);
	else if (nl == 10 && !memcmp(name, "gpio_value", 10) && p[-1] == ' ')
		parse_gpio(p, (size_t)(end - p), ev);	/* "gpio_value: " */
	else
		parse_irq(name, nl, p, (size_t)(end - p), ev);
	return 1;
}

/* ---- the raw format ------------------------------------------------------- */

/* The next space-ended token of [*p, end) as a number of [0, @max]. */
static bool raw_u64(const char **p, const char *end, int64_t max, int64_t *v)
{
	const char *sp = memchr(*p, ' ', (size_t)(end - *p));
	size_t n;

	if (!sp)
		return false;
	n = (size_t)(sp - *p);
	if (span_digits(*p, n) != n || (n > 1 && **p == '0') ||
	    !tok_s64(*p, n, 0, max, v))
		return false;
	*p = sp + 1;
	return true;
}

int trace_parse_raw(const char *line, size_t len, struct trace_raw *r)
{
	const char *p = line, *end = line + len;
	int64_t pid, cpu, ts, type;

	memset(r, 0, sizeof(*r));
	if (!raw_u64(&p, end, 0x7fffffff, &pid) ||
	    !raw_u64(&p, end, 0xffff, &cpu) ||
	    !raw_u64(&p, end, INT64_MAX, &ts) ||
	    (size_t)(end - p) < 7 || memcmp(p, "type: ", 6))
		return 0;
	p += 6;
	if ((size_t)(end - p) != span_digits(p, (size_t)(end - p)) ||
	    (end - p > 1 && *p == '0') ||
	    !tok_s64(p, (size_t)(end - p), 0, 0xffff, &type))
		return 0;
	r->pid = (int)pid;
	r->cpu = (unsigned int)cpu;
	r->ts_ns = (uint64_t)ts;
	r->type = (int)type;
	return 1;
}
