// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real-time readiness report (udrv_rt_check(), lib/rt/rt_check.c): every
 * file it reads from /proc, /sys and /boot, and its JSON.
 *
 * Input parts (fuzz.h), each a file under the fake root:
 *   0 proc/sys/kernel/osrelease      1 proc/sys/kernel/version
 *   2 sys/kernel/realtime            3 proc/cmdline
 *   4 sys/kernel/debug/sched/preempt
 *   5 boot/config-RELEASE (RELEASE: part 0 as read, when it has no '/')
 *   6 proc/sys/kernel/sched_rt_runtime_us
 *   7 proc/sys/kernel/sched_rt_period_us
 *   8 sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
 *   9 sys/devices/system/clocksource/clocksource0/current_clocksource
 *  10 sys/devices/system/cpu/isolated
 *  11 sys/devices/system/cpu/nohz_full
 *  12 proc/self/status
 *  13, 14 proc/100/comm, proc/100/stat;  15, 16 proc/101/comm, stat
 *  17, 18 sys/kernel/irq/24/hwirq, actions;  19 the name prefix and 20 the
 *  action name looked for (lib/rt/rt_threads.c)
 *
 * Properties:
 *  - the report is whole: one finding per topic (8), each with a topic and
 *    a text, every string NUL-terminated inside its field, a known
 *    preemption model, irq priorities min <= max;
 *  - the throttling numbers are both the files' numbers (read as
 *    udrv/parse.h reads numbers), or both 0 (unknown);
 *  - no undefined behaviour on any numbers (UBSan: period - runtime);
 *  - udrv_rt_report_write_json() writes one valid JSON object (RFC 8259,
 *    UTF-8) whatever bytes the files hold;
 *  - udrv_rt_threads() finds at most the two threads, each named with the
 *    prefix, its priority -1 or 0..99; udrv_rt_find_irq() finds 24 or
 *    nothing; udrv_rt_check_priority() adds one finding, NUL-terminated.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "fuzz.h"

static const char *const files[] = {
	"proc/sys/kernel/osrelease",
	"proc/sys/kernel/version",
	"sys/kernel/realtime",
	"proc/cmdline",
	"sys/kernel/debug/sched/preempt",
	NULL,	/* boot/config-RELEASE */
	"proc/sys/kernel/sched_rt_runtime_us",
	"proc/sys/kernel/sched_rt_period_us",
	"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	"sys/devices/system/clocksource/clocksource0/current_clocksource",
	"sys/devices/system/cpu/isolated",
	"sys/devices/system/cpu/nohz_full",
	"proc/self/status",
	"proc/100/comm",
	"proc/100/stat",
	"proc/101/comm",
	"proc/101/stat",
	"sys/kernel/irq/24/hwirq",
	"sys/kernel/irq/24/actions",
};

#define NFILES	(sizeof(files) / sizeof(files[0]))

static bool terminated(const char *s, size_t size)
{
	return memchr(s, 0, size) != NULL;
}

#define TERMINATED(field)						\
	FUZZ_CHECK(terminated(r->field, sizeof(r->field)), #field " is not NUL-terminated")

static void check_report(const struct udrv_rt_report *r,
			 const struct fuzz_parts *parts)
{
	static const char *const models[] = {
		"PREEMPT_RT", "PREEMPT", "VOLUNTARY", "NONE", "unknown",
	};
	char rt_text[64], period_text[64];
	const char *t;
	int64_t runtime, period;
	bool known = false;

	TERMINATED(release);
	TERMINATED(version);
	TERMINATED(preempt_model);
	TERMINATED(governor);
	TERMINATED(clocksource);
	TERMINATED(isolcpus);
	TERMINATED(nohz_full);
	FUZZ_CHECK(r->num_findings == 8, "%zu findings, one per topic is 8", r->num_findings);
	for (size_t i = 0; i < r->num_findings && i < UDRV_RT_MAX_FINDINGS; i++) {
		TERMINATED(findings[i].topic);
		TERMINATED(findings[i].text);
		FUZZ_CHECK(r->findings[i].topic[0] && r->findings[i].text[0],
			   "finding %zu has no topic or text", i);
		FUZZ_CHECK(r->findings[i].level <= UDRV_RT_WARN, "finding %zu: level %d", i,
			   (int)r->findings[i].level);
	}
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		known |= !strcmp(r->preempt_model, models[i]);
	known |= !strncmp(r->preempt_model, "DYNAMIC", 7);
	FUZZ_CHECK(known, "preemption model \"%s\"", r->preempt_model);
	FUZZ_CHECK(r->irq_threads >= 0 && r->irq_threads <= 2, "%d irq threads of 2 processes",
		   r->irq_threads);
	FUZZ_CHECK(r->irq_thread_prio_min <= r->irq_thread_prio_max,
		   "irq thread priorities %d..%d", r->irq_thread_prio_min, r->irq_thread_prio_max);

	if (fuzz_skip("rt-number"))
		return;
	t = fuzz_text(files[6], 64);
	snprintf(rt_text, sizeof(rt_text), "%s", t ? t : "(unreadable)");
	t = fuzz_text(files[7], 64);
	snprintf(period_text, sizeof(period_text), "%s", t ? t : "(unreadable)");
	if ((fuzz_has(parts, 6) && memchr(parts->p[6], 0, parts->len[6])) ||
	    (fuzz_has(parts, 7) && memchr(parts->p[7], 0, parts->len[7])))
		return;
	if (!udrv_parse_s64(rt_text, LONG_MIN, LONG_MAX, &runtime) &&
	    !udrv_parse_s64(period_text, LONG_MIN, LONG_MAX, &period))
		FUZZ_CHECK(r->rt_runtime_us == runtime && r->rt_period_us == period,
			   "throttling %ld/%ld from \"%s\"/\"%s\"", r->rt_runtime_us,
			   r->rt_period_us, rt_text, period_text);
	else
		FUZZ_CHECK(r->rt_runtime_us == 0 && r->rt_period_us == 0,
			   "throttling %ld/%ld from \"%s\"/\"%s\"", r->rt_runtime_us,
			   r->rt_period_us, rt_text, period_text);
}

static void check_json(const struct udrv_rt_report *r)
{
	struct udrv_json *j;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	j = udrv_json_new(f, true);
	udrv_rt_report_write_json(r, j);
	FUZZ_CHECK(udrv_json_free(j) == 0, "the report's JSON writer failed");
	fclose(f);
	FUZZ_CHECK(fuzz_json_valid(text, len), "the report is not valid JSON:\n%s", text);
	free(text);
}

/* Part @i as a NUL-terminated name, or NULL (empty, or holds a NUL). */
static const char *part_name(const struct fuzz_parts *parts, size_t i, char *buf,
			     size_t len)
{
	if (!fuzz_has(parts, i) || !parts->len[i] || parts->len[i] >= len ||
	    memchr(parts->p[i], 0, parts->len[i]))
		return NULL;
	memcpy(buf, parts->p[i], parts->len[i]);
	buf[parts->len[i]] = '\0';
	return buf;
}

static void check_threads(struct udrv_rt_report *r, const struct fuzz_parts *parts)
{
	struct udrv_rt_thread t[4];
	char prefix[64], action[64];
	const char *p = part_name(parts, 19, prefix, sizeof(prefix));
	const char *a = part_name(parts, 20, action, sizeof(action));
	size_t before = r->num_findings;
	unsigned int irq = 0;
	int n;

	if (p) {
		n = udrv_rt_threads(p, t, 4);
		FUZZ_CHECK(n >= 0 && n <= 2, "udrv_rt_threads() found %d of 2 threads", n);
		for (int i = 0; i < n; i++) {
			FUZZ_CHECK(terminated(t[i].name, sizeof(t[i].name)), "name not terminated");
			FUZZ_CHECK(!strncmp(t[i].name, p, strlen(p)), "%s lacks the prefix", t[i].name);
			FUZZ_CHECK(t[i].priority >= -1 && t[i].priority <= 99, "priority %d",
				   t[i].priority);
		}
		FUZZ_CHECK(udrv_rt_check_priority(r, 50, &p, 1) == 0, "check_priority failed");
		FUZZ_CHECK(r->num_findings == before + 1 ||
			   r->num_findings == UDRV_RT_MAX_FINDINGS, "no priority finding");
		TERMINATED(findings[r->num_findings - 1].text);
	}
	if (a) {
		n = udrv_rt_find_irq(a, 3, &irq);
		FUZZ_CHECK(n == -ENOENT || (n == 0 && irq == 24), "find_irq: %d, irq %u", n, irq);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrv_rt_report *r = malloc(sizeof(*r));
	struct fuzz_parts parts;
	const char *release;
	char rel[128];

	if (!r)
		return 0;
	fuzz_split(data, size, &parts);
	fuzz_reset();
	fuzz_mkdir("proc");
	for (size_t i = 0; i < NFILES; i++)
		if (files[i])
			fuzz_write_part(&parts, i, files[i]);
	release = fuzz_text(files[0], 65);
	if (release && release[0] && !strchr(release, '/')) {
		snprintf(rel, sizeof(rel), "boot/config-%s", release);
		fuzz_write_part(&parts, 5, rel);
	}
	memset(r, 0x5a, sizeof(*r));
	FUZZ_CHECK(udrv_rt_check(r) == 0, "udrv_rt_check() failed");
	check_report(r, &parts);
	check_json(r);
	check_threads(r, &parts);
	free(r);
	return 0;
}
