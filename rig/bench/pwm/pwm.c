// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pwm: how exact a PWM's pulses are, read from the wire. The
 * generators drive output line N of a wired pair (gpio-wire, or a jumper
 * to N+1); the bench watches N+1 for both edges, and the kernel's
 * timestamps of the edges give every pulse width and period. In turns, in
 * one run, the same number of periods each:
 *
 *   hw           a hardware PWM channel driving line N (the lab's
 *                pwm-fixture: an hrtimer in hard interrupt context, the
 *                kernel's reference)
 *   udrv         libudrv's software PWM as a program starts it by default
 *                (its thread at SCHED_OTHER, any CPU, memory not locked)
 *   udrv-tuned   its thread at SCHED_FIFO --gen-prio on --gen-cpu, memory
 *                locked
 *   udrv-tail    tuned, and a busy-wait --tail before each edge
 *   lgpio        lgpio 0.2.2.0's tx_pwm/tx_servo as a program of its user
 *                runs it (udrv-bench-lgpio, SCHED_OTHER)
 *   lgpio-tuned  the same process at SCHED_FIFO --gen-prio on --gen-cpu,
 *                memory locked (lgpio's thread inherits it)
 *
 * Waveforms: servo (a 1.5 ms pulse at 50 Hz) and 1khz (500 us of 1 ms).
 * Rows: per waveform and generator, the pulse width error and the period
 * error (absolute, ns); the width rows' loss: periods of the span with no
 * pulse on the wire. The "pwm" object: the generators' own counts (udrv's
 * thread: periods, missed, skipped, edges, worst lateness; the fixture's
 * stats), their CPU time, gpio-wire's count of the edges it put on the
 * wire; and each run's timeline: every measured pulse's signed width error
 * (measured - asked) against its rising edge's time from the run's first,
 * the first PWM_TIMELINE_MAX of a run (the rest counted as dropped).
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <udrv/parse.h>
#include <udrv/soft_pwm.h>

#include "bench.h"
#include "benches.h"
#include "fields.h"
#include "msg.h"
#include "pwm/pwm.h"
#include "spike.h"

#define DEFAULT_PERIODS	200
#define DEFAULT_PRIO	90
#define DEFAULT_TAIL_NS	50000u
#define HW_DEFAULT	"pwm-fixture"

enum { GEN_HW, GEN_UDRV, GEN_UDRV_TUNED, GEN_UDRV_TAIL, GEN_LGPIO, GEN_LGPIO_TUNED, NGEN };

static const char *const gen_names[NGEN] = {
	"hw", "udrv", "udrv-tuned", "udrv-tail", "lgpio", "lgpio-tuned",
};

static const struct pwm_wave waves[] = {
	{ "servo", 50, 1500, true },
	{ "1khz", 1000, 500, false },
};
#define NWAVE	(sizeof(waves) / sizeof(waves[0]))

/* one generator's run of one waveform */
struct pwm_result {
	bool ran;
	struct pwm_source src;
	struct pwm_measure m;
	struct pwm_timeline timeline;	/* each pulse's signed width error */
	bool has_wire;
	uint64_t wire_driven;
	uint64_t asked;			/* periods it was to run */
	bool polled;			/* its edges read while it ran */
};

struct pwm_bench {
	struct bench_run run;
	const char *chip_spec;
	unsigned int out;
	const char *hw_chip;		/* NULL: none */
	unsigned int hw_channel;
	bool hw_named;			/* --pwm given: it must be there */
	unsigned int gens, wave_mask;
	int gen_prio, gen_cpu;
	uint32_t tail_ns;
	struct udrv_chip *chip;
	struct pwm_watch watch;
	char wire[256];			/* gpio-wire's counts file, "": none */
	char lgpio_absent[256];		/* why there are no lgpio rows */
	struct pwm_result res[NWAVE][NGEN];
};

static const char help[] =
"Usage: udrv-bench pwm [OPTIONS]\n"
"\n"
"How exact a PWM's pulses are, read from the wire: output line N drives\n"
"input N+1 (gpio-wire, or a jumper), the kernel's timestamps of the edges\n"
"there give every pulse width and period. In turns, the same periods each:\n"
"hw (a hardware PWM channel wired to line N: the lab's pwm-fixture),\n"
"libudrv's software PWM as a program starts it (udrv), tuned (udrv-tuned:\n"
"SCHED_FIFO, one CPU, memory locked) and with a busy-wait tail (udrv-tail),\n"
"and lgpio's tx_pwm/tx_servo as its user runs it (lgpio) and tuned alike\n"
"(lgpio-tuned; udrv-bench-lgpio). Waveforms: servo (1.5 ms at 50 Hz),\n"
"1khz (50 %). Rows: the absolute error of each pulse width and period.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP      the chip (default gpio-wire)\n"
"      --out-line N     output line N, input N+1 (default 0)\n"
"      --pwm CHIP:CH    the hardware PWM channel wired to line N (default\n"
"                       pwm-fixture:0 when that chip is there; none: no hw)\n"
"      --gen GEN,...    the generators: hw, udrv, udrv-tuned, udrv-tail,\n"
"                       lgpio, lgpio-tuned, or all (default)\n"
"      --wave W,...     servo, 1khz, or all (default)\n"
"      --gen-prio N     the tuned generators' SCHED_FIFO priority (default 90)\n"
"      --gen-cpu N      the tuned generators' CPU (default: the last one)\n"
"      --tail TIME      udrv-tail's busy-wait before each edge (default 50us)\n"
"\n"
"-n N: each generator runs N periods of each waveform (default 200); -D D:\n"
"as many as fit in D.\n"
"\n"
BENCH_OPTS_HELP
"\n"
"The bench itself (-P, --cpu) reads the wire's edges after each run (every\n"
"17 ms while one runs that the kernel's queue cannot hold: over 480 periods).\n"
"With --trace-on-spike US, the first of udrv's pulse widths or periods\n"
"more than US off is traced: what held the generator's CPU from where its\n"
"late edge was due to where it came (its process and thread, and the input\n"
"line's interrupt, are the measured path; hw and lgpio are not traced).\n"
"Keep such a run short: the trace buffer must still hold the pulse when\n"
"the run is over.\n"
"\n"
"Example:\n"
"  udrv-bench pwm --gen udrv-tuned,lgpio-tuned --wave servo -n 500\n";

enum { OPT_OUT_LINE = 0x80, OPT_PWM, OPT_GEN, OPT_WAVE, OPT_GEN_PRIO, OPT_GEN_CPU, OPT_TAIL };

static const struct option long_opts[] = {
	{ "chip", required_argument, NULL, 'c' },
	{ "out-line", required_argument, NULL, OPT_OUT_LINE },
	{ "pwm", required_argument, NULL, OPT_PWM },
	{ "gen", required_argument, NULL, OPT_GEN },
	{ "wave", required_argument, NULL, OPT_WAVE },
	{ "gen-prio", required_argument, NULL, OPT_GEN_PRIO },
	{ "gen-cpu", required_argument, NULL, OPT_GEN_CPU },
	{ "tail", required_argument, NULL, OPT_TAIL },
	{ NULL, 0, NULL, 0 },
};

/* "CHIP:CHANNEL" (the chip as udrv_pwm_open() takes it), or "none" */
static int pwm_spec(struct pwm_bench *b, char *arg)
{
	char *colon = strrchr(arg, ':');

	b->hw_named = true;
	if (!strcmp(arg, "none")) {
		b->hw_chip = NULL;
		return 0;
	}
	if (!colon || colon == arg || udrv_parse_uint(colon + 1, 65535, &b->hw_channel))
		return bench_usage("pwm", "bad --pwm '%s': CHIP:CHANNEL (pwmchip0:1, "
				   "pwm-fixture:0) or none", arg);
	*colon = '\0';
	b->hw_chip = arg;
	return 0;
}

static int names_opt(const char *opt, const char *arg, const char *const *names, int n,
		     unsigned int *mask)
{
	if (bench_parse_names(arg, names, n, mask))
		return bench_usage("pwm", "bad %s '%s': names from the list, comma-separated, "
				   "or all", opt, arg);
	return 0;
}

static int pwm_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	static const char *const wave_names[NWAVE] = { "servo", "1khz" };
	struct pwm_bench *b = ctx;
	unsigned int v;
	uint64_t ns;

	switch (opt) {
	case 'c':
		if (!*arg)
			return bench_usage(run->bench, "bad --chip '': a name, label or path");
		b->chip_spec = arg;
		return 0;
	case OPT_OUT_LINE:
		if (udrv_parse_uint(arg, 65534, &b->out))
			return bench_usage(run->bench, "bad --out-line '%s': 0..65534", arg);
		return 0;
	case OPT_PWM:
		return pwm_spec(b, (char *)arg);
	case OPT_GEN:
		return names_opt("--gen", arg, gen_names, NGEN, &b->gens);
	case OPT_WAVE:
		return names_opt("--wave", arg, wave_names, NWAVE, &b->wave_mask);
	case OPT_GEN_PRIO:
		if (udrv_parse_uint(arg, 99, &v) || !v)
			return bench_usage(run->bench, "bad --gen-prio '%s': 1..99", arg);
		b->gen_prio = (int)v;
		return 0;
	case OPT_GEN_CPU:
		if (udrv_parse_uint(arg, CPU_SETSIZE - 1, &v))
			return bench_usage(run->bench, "bad --gen-cpu '%s': a CPU number", arg);
		b->gen_cpu = (int)v;
		return 0;
	case OPT_TAIL:
		if (udrv_parse_duration_ns(arg, UDRV_SOFT_PWM_TAIL_MAX_NS, &ns) || !ns)
			return bench_usage(run->bench, "bad --tail '%s': a time up to 1ms "
					   "(50us)", arg);
		b->tail_ns = (uint32_t)ns;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* ---- setup ----------------------------------------------------------- */

static int open_wire(struct pwm_bench *b)
{
	b->chip = udrv_chip_new();
	if (!b->chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(b->chip, b->chip_spec))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
	if (b->out + 1 >= udrv_chip_num_lines(b->chip))
		return bench_error(EXIT_FAIL, "--out-line %u: %s has %u lines, the input would "
				   "be line %u", b->out, udrv_chip_name(b->chip),
				   udrv_chip_num_lines(b->chip), b->out + 1);
	if (!udrv_chip_has_cdev(b->chip))
		return bench_error(EXIT_FAIL, "%s has no character device: the edges' "
				   "timestamps come from it", udrv_chip_name(b->chip));
	bench_wire_path(b->chip, b->wire, sizeof(b->wire));
	return pwm_watch_open(&b->watch, b->chip, b->out + 1);
}

/* The hardware PWM: the one named, or the fixture's channel 0 if there. */
static int find_hw(struct pwm_bench *b)
{
	struct udrv_pwm *pwm;
	int ret;

	if (b->hw_named || !(b->gens & (1u << GEN_HW)))
		return 0;
	pwm = udrv_pwm_new();
	if (!pwm)
		return bench_error(EXIT_FAIL, "out of memory");
	ret = udrv_pwm_open_chip(pwm, HW_DEFAULT);
	udrv_pwm_free(pwm);
	if (!ret)
		b->hw_chip = HW_DEFAULT;
	return 0;
}

/* ---- the runs ---------------------------------------------------------- */

static struct pwm_tuning tuning(const struct pwm_bench *b, int gen)
{
	bool tuned = gen == GEN_UDRV_TUNED || gen == GEN_UDRV_TAIL || gen == GEN_LGPIO_TUNED;

	return (struct pwm_tuning){ .prio = tuned ? b->gen_prio : 0,
				    .cpu = tuned ? b->gen_cpu : -1, .mlock = tuned,
				    .tail_ns = gen == GEN_UDRV_TAIL ? b->tail_ns : 0 };
}

static int wire_driven(const struct pwm_bench *b, uint64_t *driven)
{
	struct bench_wire w;

	if (!b->wire[0])
		return 0;
	if (bench_wire_counts(b->wire, b->out + 1, &w))
		return EXIT_FAIL;
	*driven = w.driven;
	return 0;
}

static int generate(struct pwm_bench *b, const struct pwm_gen_ctx *g, int gen,
		    const struct pwm_wave *wave, struct pwm_result *r)
{
	struct pwm_tuning t = tuning(b, gen);
	char why[256] = "";
	int ret;

	switch (gen) {
	case GEN_HW:
		return pwm_gen_hw(g, b->hw_chip, b->hw_channel, wave, &r->src);
	case GEN_LGPIO:
	case GEN_LGPIO_TUNED:
		ret = pwm_gen_lgpio(g, &t, wave, &r->src, why, sizeof(why));
		if (ret == -ENOENT)
			snprintf(b->lgpio_absent, sizeof(b->lgpio_absent), "%s", why);
		return ret;
	default:
		return pwm_gen_udrv(g, &t, wave, &r->src);
	}
}

/*
 * --trace-on-spike: udrv's pulses in turn, each from where its late edge was
 * due to where it came (too long: the falling edge; too short: the rising
 * one; a period too long: its second rising edge; too short: its first), on
 * the generator's CPU (the bench's when it has none). An edge's
 * timestamp is taken in the input line's interrupt, a few us after the
 * write began (~2 us in the lab with the trace on): the analysis starts
 * SPIKE_LEAD_NS earlier, so that what held the write back is in it, and
 * counts that interrupt as the measurement's own (bench_spike_path_irq).
 * The fixture's pulses are the kernel's own and lgpio's thread is not known
 * to the bench: theirs are not handed over.
 */
#define SPIKE_LEAD_NS	5000ULL

static void spike_edge(const struct bench_row *row, uint64_t edge, uint64_t err,
		       uint64_t index, int cpu)
{
	bench_spike_check_at(row, edge - err, edge, SPIKE_LEAD_NS, index, cpu);
}

static void spike_pulses(const struct pwm_bench *b, int gen, const struct bench_row *w,
			 const struct bench_row *per, uint64_t period, uint64_t width,
			 const struct pwm_result *r)
{
	int cpu = tuning(b, gen).cpu;
	uint64_t prev = 0, periods = 0;

	if (gen != GEN_UDRV && gen != GEN_UDRV_TUNED && gen != GEN_UDRV_TAIL)
		return;
	for (size_t k = 0; k < r->timeline.len; k++) {
		const struct pwm_pulse *p = &r->timeline.pulse[k];
		uint64_t rise = r->m.first_ns + p->start_ns, d = rise - prev;
		uint64_t err = p->error_ns < 0 ? (uint64_t)-p->error_ns : (uint64_t)p->error_ns;

		if (k && pwm_whole_periods(d, period) < 2)
			spike_edge(per, d > period ? rise : prev,
				   d > period ? d - period : period - d, ++periods, cpu);
		spike_edge(w, p->error_ns > 0 ? rise + width + err : rise, err, k + 1, cpu);
		prev = rise;
	}
}

/* Rows of one run: the width and period errors. */
static int rows(struct pwm_bench *b, int gen, const struct pwm_wave *wave,
		struct pwm_result *r)
{
	struct bench_row *w = bench_row(&b->run, wave->name, gen_names[gen], NULL, "width-error");
	struct bench_row *p = bench_row(&b->run, wave->name, gen_names[gen], NULL,
					"period-error");
	uint64_t period = 1000000000ULL / wave->frequency_hz;

	if (!w || !p)
		return bench_error(EXIT_FAIL, "pwm: too many rows");
	pwm_measure(b->watch.ev, b->watch.n, period, wave->width_us * 1000ULL, w->hist,
		    p->hist, &r->timeline, &r->m);
	spike_pulses(b, gen, w, p, period, wave->width_us * 1000ULL, r);
	w->has_loss = true;
	w->sent = r->m.expected;
	w->received = r->m.expected - r->m.missing;
	w->lost = r->m.missing;
	if (r->m.lost)
		return bench_error(EXIT_FAIL, "pwm: %s %s: the kernel dropped %llu edge events "
				   "(the bench read its queue too late)", wave->name,
				   gen_names[gen], (unsigned long long)r->m.lost);
	if (r->m.pulses < 2)
		return bench_error(EXIT_FAIL, "pwm: %s %s: %llu pulses on line %u: is the "
				   "generator's output wired to it?", wave->name, gen_names[gen],
				   (unsigned long long)r->m.pulses, b->out + 1);
	return 0;
}

/* What was counted at the source agrees with the wire. */
static int counts_agree(const struct pwm_bench *b, int gen, const struct pwm_wave *wave,
			const struct pwm_result *r)
{
	if (r->has_wire && r->wire_driven != r->m.edges)
		return bench_error(EXIT_FAIL, "pwm: %s %s: gpio-wire put %llu edges on line %u, "
				   "%llu were read", wave->name, gen_names[gen],
				   (unsigned long long)r->wire_driven, b->out + 1,
				   (unsigned long long)r->m.edges);
	/* udrv's thread counts every level it drove on a deadline */
	if (gen != GEN_HW && r->src.has_counts && r->src.edges != r->m.edges)
		return bench_error(EXIT_FAIL, "pwm: %s %s: the PWM thread drove %llu edges, the "
				   "wire saw %llu", wave->name, gen_names[gen],
				   (unsigned long long)r->src.edges,
				   (unsigned long long)r->m.edges);
	return 0;
}

/* -n N, or as many as fit in -D (2 at least) */
static uint64_t periods(const struct pwm_bench *b, const struct pwm_wave *w)
{
	uint64_t n = b->run.o.duration_ns * w->frequency_hz / 1000000000ULL;

	if (!b->run.o.duration_ns)
		return bench_samples(&b->run, DEFAULT_PERIODS);
	return n < 2 ? 2 : n;
}

static int one(struct pwm_bench *b, int gen, size_t wi)
{
	struct pwm_result *r = &b->res[wi][gen];
	struct pwm_gen_ctx g = { .chip = b->chip, .out = b->out, .watch = &b->watch,
				 .periods = periods(b, &waves[wi]) };
	uint64_t before = 0, after = 0;
	int ret;

	/* every edge and a margin (a start's, a stop's) */
	if (pwm_watch_reset(&b->watch, g.periods * 2 + 64) || wire_driven(b, &before))
		return EXIT_FAIL;
	ret = generate(b, &g, gen, &waves[wi], r);
	if (ret == -ENOENT)
		return 0;
	if (!ret)
		ret = pwm_watch_settle(&b->watch);
	if (ret || wire_driven(b, &after))
		return ret ? ret : EXIT_FAIL;
	r->ran = true;
	r->asked = g.periods;
	r->polled = b->watch.polled;
	r->has_wire = b->wire[0] != '\0';
	r->wire_driven = after - before;
	ret = rows(b, gen, &waves[wi], r);
	return ret ? ret : counts_agree(b, gen, &waves[wi], r);
}

/* udrv's rows against lgpio's of the same tuning, in the same run. */
static void references(struct pwm_bench *b)
{
	for (size_t i = 0; i < b->run.num_rows; i++) {
		struct bench_row *r = &b->run.rows[i];
		const char *peer = !strcmp(r->implementation, "udrv") ? "lgpio" :
				   !strncmp(r->implementation, "udrv-", 5) ? "lgpio-tuned" : NULL;

		for (size_t k = 0; peer && k < b->run.num_rows; k++)
			if (!strcmp(b->run.rows[k].implementation, peer) &&
			    !strcmp(b->run.rows[k].mechanism, r->mechanism) &&
			    !strcmp(b->run.rows[k].what, r->what))
				r->reference = (int)k;
	}
}

static int run_all(struct pwm_bench *b)
{
	int ret = 0;

	for (size_t wi = 0; !ret && wi < NWAVE; wi++)
		for (int gen = 0; !ret && gen < NGEN; gen++)
			if ((b->wave_mask & (1u << wi)) && (b->gens & (1u << gen)) &&
			    (gen != GEN_HW || b->hw_chip))
				ret = one(b, gen, wi);
	references(b);
	if (b->lgpio_absent[0])
		fprintf(stderr, "udrv-bench: pwm: no lgpio rows: %s\n", b->lgpio_absent);
	return ret;
}

/* ---- the document ------------------------------------------------------ */

static void json_source(struct udrv_json *j, const struct pwm_source *s)
{
	udrv_json_key(j, "source");
	if (!s->has_counts) {
		udrv_json_null(j);
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "periods", s->periods);
	udrv_json_kuint(j, "missed", s->missed);
	udrv_json_kuint(j, "skipped", s->skipped);
	udrv_json_kuint(j, "edges", s->edges);
	udrv_json_kuint(j, "worst_late_ns", s->worst_late_ns);
	udrv_json_obj_end(j);
}

static void json_timeline(struct udrv_json *j, const struct pwm_timeline *t)
{
	udrv_json_key(j, "timeline");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < t->len; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "start_ns", t->pulse[i].start_ns);
		udrv_json_kint(j, "error_ns", t->pulse[i].error_ns);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
	udrv_json_kuint(j, "timeline_dropped", t->dropped);
}

static void json_run(struct udrv_json *j, const struct pwm_wave *w, int gen,
		     const struct pwm_result *r)
{
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "waveform", w->name);
	udrv_json_kstr(j, "implementation", gen_names[gen]);
	udrv_json_kuint(j, "period_ns", 1000000000ULL / w->frequency_hz);
	udrv_json_kuint(j, "width_ns", w->width_us * 1000ULL);
	udrv_json_kuint(j, "periods", r->asked);
	udrv_json_kbool(j, "read_while_running", r->polled);
	udrv_json_kuint(j, "duration_ns", r->src.duration_ns);
	udrv_json_key(j, "cpu_ns");
	if (r->src.cpu_ns == UINT64_MAX)
		udrv_json_null(j);
	else
		udrv_json_uint(j, r->src.cpu_ns);
	json_source(j, &r->src);
	udrv_json_key(j, "wire");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "edges", r->m.edges);
	udrv_json_kuint(j, "pulses", r->m.pulses);
	udrv_json_kuint(j, "periods", r->m.periods);
	udrv_json_kuint(j, "expected", r->m.expected);
	udrv_json_kuint(j, "missing", r->m.missing);
	udrv_json_kuint(j, "repeated", r->m.repeated);
	udrv_json_key(j, "driven");
	if (r->has_wire)
		udrv_json_uint(j, r->wire_driven);
	else
		udrv_json_null(j);
	udrv_json_obj_end(j);
	json_timeline(j, &r->timeline);
	udrv_json_obj_end(j);
}

static void json_extra(const struct bench_run *run, struct udrv_json *j)
{
	const struct pwm_bench *b = (const struct pwm_bench *)run;

	udrv_json_key(j, "pwm");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "chip", udrv_chip_name(b->chip));
	udrv_json_kuint(j, "out_line", b->out);
	udrv_json_kuint(j, "in_line", b->out + 1);
	udrv_json_key(j, "hw");
	udrv_json_str(j, b->hw_chip);
	udrv_json_kuint(j, "hw_channel", b->hw_channel);
	udrv_json_kint(j, "gen_prio", b->gen_prio);
	udrv_json_kint(j, "gen_cpu", b->gen_cpu);
	udrv_json_kuint(j, "tail_ns", b->tail_ns);
	udrv_json_key(j, "lgpio_absent");
	udrv_json_str(j, b->lgpio_absent[0] ? b->lgpio_absent : NULL);
	udrv_json_key(j, "runs");
	udrv_json_arr_begin(j);
	for (size_t wi = 0; wi < NWAVE; wi++)
		for (int gen = 0; gen < NGEN; gen++)
			if (b->res[wi][gen].ran)
				json_run(j, &waves[wi], gen, &b->res[wi][gen]);
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
}

BENCH_COMMAND(pwm, "PWM pulse errors on the wire: hw, udrv, lgpio");

static int pwm_main(struct pwm_bench *b, int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	b->run.traceable = true;	/* --trace-on-spike: udrv's pulses */
	ret = bench_parse(&b->run, "pwm", argc, argv, help, "c:", long_opts, pwm_opt, b);
	if (!ret && optind < argc)
		ret = bench_usage("pwm", "unexpected argument '%s'", argv[optind]);
	if (!ret && b->run.o.samples == 1)
		ret = bench_usage("pwm", "-n 1: a period needs two pulses; 2 at least");
	if (ret)
		return ret;
	if (b->gen_cpu < 0)
		b->gen_cpu = cpus > 0 ? (int)cpus - 1 : 0;
	ret = open_wire(b);
	if (!ret)
		ret = find_hw(b);
	if (ret)
		return ret;
	b->run.json_extra = json_extra;
	bench_spike_path_irq(PWM_WATCH_CONSUMER);
	ret = bench_begin(&b->run);
	if (!ret)
		ret = run_all(b);
	return bench_end(&b->run, ret);
}

int cmd_bench_pwm(int argc, char **argv)
{
	struct pwm_bench *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return bench_error(EXIT_FAIL, "out of memory");
	*b = (struct pwm_bench){ .chip_spec = "gpio-wire", .gens = (1u << NGEN) - 1,
				 .wave_mask = (1u << NWAVE) - 1, .gen_prio = DEFAULT_PRIO,
				 .gen_cpu = -1, .tail_ns = DEFAULT_TAIL_NS };
	ret = pwm_main(b, argc, argv);
	pwm_watch_close(&b->watch);
	udrv_chip_free(b->chip);
	free(b);
	return ret < 0 ? EXIT_OK : ret;
}
