// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench kernel: the in-kernel baseline of the latency tables, from the
 * irqlat module (rig/kernel/irqlat, docs/rig/kernel-modules.md): trigger -> start of
 * the interrupt handler of the wired input, measured by the kernel itself.
 *
 * The bench sets the module's parameters (chip, lines, edge, handler type),
 * writes N to /sys/kernel/irqlat/run (the passes run in the bench's own task,
 * at its real-time priority, until the write returns), reads every latency
 * from /sys/kernel/irqlat/samples into the row's histogram and checks the
 * result against the module's own /sys/kernel/irqlat/stats: count, min, max,
 * avg and stddev must agree exactly. The parameters are put back afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "benches.h"
#include "tool.h"

#define KLAT_SYS	"/sys/kernel/irqlat"
#define KLAT_PARAMS	"/sys/module/irqlat/parameters"
#define KLAT_SAMPLES	10000
#define KLAT_MAX_PASSES	1000000	/* IRQLAT_MAX_PASSES */
#define KLAT_VAL_LEN	80

enum {
	OPT_OUT_LINE = 0x80,	/* long-only; below the framework's 0x100 */
	OPT_EDGE,
	OPT_THREADED,
};

/* The module parameters the bench sets, and puts back when done. */
static const char *const klat_params[] = { "chip", "out", "in", "edge",
					   "threaded" };
#define KLAT_NPARAMS	(sizeof(klat_params) / sizeof(klat_params[0]))

struct klat_stats {
	char chip[KLAT_VAL_LEN], edge[16], mode[16];
	unsigned long long out, in, passes, missed, spurious;
	unsigned long long min, avg, max, stddev, samples, run;
	unsigned int seen;	/* how many keys were found */
};

struct kbench {
	struct bench_run run;
	const char *chip_spec;
	char chip[KLAT_VAL_LEN];	/* what the module is given */
	unsigned int out;
	const char *edge;
	bool threaded;
	char saved[KLAT_NPARAMS][KLAT_VAL_LEN];
	bool params_saved;
};

static const char kernel_help[] =
"Usage: udrv-bench kernel [OPTIONS]\n"
"\n"
"The kernel's own GPIO interrupt latency, the baseline the userspace rows\n"
"are compared with: the irqlat module (rig/kernel/irqlat) drives output line N\n"
"and times until the interrupt handler of line N+1, wired to it, runs\n"
"(ktime_get_ns() before the write, first thing in the handler). Row\n"
"irqlat/kernel, sample trigger_to_isr (hard interrupt handler); with\n"
"--threaded also the threaded handler's row (wait \"threaded\"). Each run's\n"
"samples come from /sys/kernel/irqlat/samples and are checked against\n"
"/sys/kernel/irqlat/stats. Needs root and the module: modprobe irqlat, or\n"
"insmod rig/kernel/irqlat/irqlat.ko.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP     the chip (default gpio-wire)\n"
"      --out-line N    output line N, input N+1 (default 2)\n"
"      --edge EDGE     rising, falling or both (default both)\n"
"      --threaded      also time a threaded handler\n"
BENCH_OPTS_HELP
"\n"
"Default: 10000 passes per row (at most 1000000); --duration is not\n"
"supported (a run is a number of passes).\n";

/* ---- sysfs files ---------------------------------------------------- */

static int klat_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

static int klat_param_path(char *buf, size_t len, const char *param)
{
	return snprintf(buf, len, "%s/%s", KLAT_PARAMS, param);
}

static int klat_set(const char *param, const char *val)
{
	char path[128];
	int err;

	klat_param_path(path, sizeof(path), param);
	err = klat_write(path, val);
	if (err)
		return bench_error(EXIT_FAIL, "cannot set %s to '%s': %s", path,
				 val, strerror(-err));
	return 0;
}

static int klat_save_params(struct kbench *k)
{
	char path[128], *v;

	for (size_t i = 0; i < KLAT_NPARAMS; i++) {
		klat_param_path(path, sizeof(path), klat_params[i]);
		v = bench_slurp(path, NULL);
		if (!v)
			return bench_error(EXIT_FAIL, "cannot read %s: %s (is this irqlat too old?)",
					 path, strerror(errno));
		v[strcspn(v, "\n")] = '\0';
		snprintf(k->saved[i], sizeof(k->saved[i]), "%s", v);
		free(v);
	}
	k->params_saved = true;
	return 0;
}

static void klat_restore_params(struct kbench *k)
{
	if (!k->params_saved)
		return;
	for (size_t i = 0; i < KLAT_NPARAMS; i++)
		klat_set(klat_params[i], k->saved[i]);
}

static int klat_set_params(struct kbench *k, bool threaded)
{
	char out[16], in[16];

	snprintf(out, sizeof(out), "%u", k->out);
	snprintf(in, sizeof(in), "%u", k->out + 1);
	if (klat_set("chip", k->chip) || klat_set("out", out) ||
	    klat_set("in", in) || klat_set("edge", k->edge) ||
	    klat_set("threaded", threaded ? "Y" : "N"))
		return EXIT_FAIL;
	return 0;
}

/* ---- the stats file ------------------------------------------------- */

static int klat_stats_key(struct klat_stats *st, const char *key,
			  const char *val)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "out", offsetof(struct klat_stats, out) },
		{ "in", offsetof(struct klat_stats, in) },
		{ "passes", offsetof(struct klat_stats, passes) },
		{ "missed", offsetof(struct klat_stats, missed) },
		{ "spurious", offsetof(struct klat_stats, spurious) },
		{ "min_ns", offsetof(struct klat_stats, min) },
		{ "avg_ns", offsetof(struct klat_stats, avg) },
		{ "max_ns", offsetof(struct klat_stats, max) },
		{ "stddev_ns", offsetof(struct klat_stats, stddev) },
		{ "samples", offsetof(struct klat_stats, samples) },
		{ "run", offsetof(struct klat_stats, run) },
	};

	if (!strcmp(key, "chip")) {
		snprintf(st->chip, sizeof(st->chip), "%s", val);
	} else if (!strcmp(key, "edge")) {
		snprintf(st->edge, sizeof(st->edge), "%s", val);
	} else if (!strcmp(key, "mode")) {
		snprintf(st->mode, sizeof(st->mode), "%s", val);
	} else {
		for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
			uint64_t v;

			if (strcmp(key, nums[i].key))
				continue;
			if (udrv_parse_u64(val, UINT64_MAX, &v))
				return bench_error(EXIT_FAIL, "%s/stats: %s is '%s', not a number",
						 KLAT_SYS, key, val);
			*(unsigned long long *)((char *)st + nums[i].off) = v;
			break;
		}
	}
	st->seen++;
	return 0;
}

static int klat_read_stats(struct klat_stats *st)
{
	char *buf = bench_slurp(KLAT_SYS "/stats", NULL), *line, *save, *sp;

	if (!buf)
		return bench_error(EXIT_FAIL, "cannot read %s/stats: %s", KLAT_SYS,
				 strerror(errno));
	memset(st, 0, sizeof(*st));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		if (klat_stats_key(st, line, sp + 1)) {
			free(buf);
			return EXIT_FAIL;
		}
	}
	free(buf);
	if (st->seen < 14)
		return bench_error(EXIT_FAIL, "%s/stats has %u keys, expected 14 (an irqlat older than udrv-bench kernel? rebuild and reload rig/kernel/irqlat)",
				 KLAT_SYS, st->seen);
	return 0;
}

/* ---- a run ---------------------------------------------------------- */

static int klat_run_error(const struct kbench *k, int err)
{
	switch (err) {
	case EBUSY:
		return bench_error(EXIT_FAIL, "irqlat: line %u or %u of %s is busy (held by another user: see 'udrv gpio info -c %s')",
				 k->out, k->out + 1, k->chip, k->chip);
	case ENODEV:
		return bench_error(EXIT_FAIL, "irqlat found no gpiochip labelled or named '%s'",
				 k->chip);
	case EACCES:
		return bench_error(EXIT_FAIL, "%s/run: permission denied (run as root)",
				 KLAT_SYS);
	default:
		return bench_error(EXIT_FAIL, "irqlat run failed: %s (the kernel log says why: dmesg | grep irqlat)",
				 strerror(err));
	}
}

/* The samples file: one latency in ns per line, in pass order. */
static int klat_read_samples(uint64_t **valsp, size_t *np)
{
	char *buf = bench_slurp(KLAT_SYS "/samples", NULL), *p, *end;
	size_t n = 0, cap = 1024;
	uint64_t *vals = malloc(cap * sizeof(*vals)), *nv, v;

	if (!buf || !vals) {
		free(vals);
		free(buf);
		return bench_error(EXIT_FAIL, "cannot read %s/samples: %s",
				 KLAT_SYS, strerror(errno));
	}
	for (p = buf; *p; p = end + 1) {
		errno = 0;
		if (n == cap) {
			nv = realloc(vals, cap * 2 * sizeof(*vals));
			if (!nv)
				break;
			vals = nv;
			cap *= 2;
		}
		end = strchr(p, '\n');
		if (!end)
			break;
		*end = '\0';
		if (udrv_parse_u64(p, UINT64_MAX, &v)) {
			*end = '\n';
			break;
		}
		vals[n++] = v;
	}
	if (*p) {
		free(vals);
		free(buf);
		return bench_error(EXIT_FAIL, "%s/samples: bad line %zu", KLAT_SYS,
				 n);
	}
	free(buf);
	*valsp = vals;
	*np = n;
	return 0;
}

/* Square root rounded down, like the kernel's int_sqrt64(). */
static uint64_t klat_isqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/* The module's stddev, computed its way (rig/kernel/irqlat: irqlat_stddev). */
static uint64_t klat_stddev(const uint64_t *s, size_t n, uint64_t avg)
{
	uint64_t sum = 0, coarse = 0, d;
	bool overflow = false;

	for (size_t i = 0; i < n; i++) {
		d = s[i] > avg ? s[i] - avg : avg - s[i];
		if (d > UINT32_MAX)
			d = UINT32_MAX;
		coarse += d * d / n;
		if (!overflow)
			overflow = __builtin_add_overflow(sum, d * d, &sum);
	}
	return klat_isqrt(overflow ? coarse : sum / n);
}

#define KLAT_CHECK(what, ours, theirs) do { \
	if ((unsigned long long)(ours) != (unsigned long long)(theirs)) \
		return bench_error(EXIT_FAIL, "irqlat: %s disagrees: %llu from the samples, %llu in %s/stats", \
				 what, (unsigned long long)(ours), \
				 (unsigned long long)(theirs), KLAT_SYS); \
} while (0)

static int klat_crosscheck(const struct klat_stats *st, const uint64_t *v,
			   size_t n, const struct udrv_hist *h)
{
	uint64_t sum = 0, avg;

	KLAT_CHECK("sample count", n, st->samples);
	KLAT_CHECK("passes - missed", n, st->passes - st->missed);
	KLAT_CHECK("udrv's count", udrv_hist_count(h), n);
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	avg = sum / n;
	KLAT_CHECK("min", udrv_hist_min(h), st->min);
	KLAT_CHECK("max", udrv_hist_max(h), st->max);
	KLAT_CHECK("avg (sum / count, rounded down)", avg, st->avg);
	KLAT_CHECK("udrv's avg", (uint64_t)udrv_hist_mean(h), st->avg);
	KLAT_CHECK("stddev", klat_stddev(v, n, avg), st->stddev);
	return 0;
}

/* Is the stats file the run we asked for? */
static int klat_check_cfg(const struct kbench *k, const struct klat_stats *st,
			  uint64_t passes, bool threaded)
{
	if (strcmp(st->chip, k->chip) || st->out != k->out ||
	    st->in != k->out + 1 || strcmp(st->edge, k->edge) ||
	    strcmp(st->mode, threaded ? "threaded" : "hardirq") ||
	    st->passes != passes)
		return bench_error(EXIT_FAIL, "%s/stats is not our run (%s %llu->%llu %s %s, %llu passes): another irqlat user?",
				 KLAT_SYS, st->chip, st->out, st->in, st->edge,
				 st->mode, st->passes);
	return 0;
}

static void klat_fill_row(struct bench_row *row, const struct klat_stats *st,
			  bool threaded)
{
	row->has_loss = true;
	row->sent = st->passes;
	row->received = st->passes - st->missed;
	row->lost = st->missed;
	snprintf(row->note, sizeof(row->note),
		 "ktime_get_ns() before gpiod_set_value() -> first thing in the %s; %s edges; passes run in the bench's task; spurious %llu",
		 threaded ? "threaded handler (irq thread)" :
			    "hardirq handler (IRQF_NO_THREAD)",
		 st->edge, st->spurious);
}

static int klat_run(struct kbench *k, uint64_t passes, bool threaded)
{
	struct bench_row *row = bench_row(&k->run, "irqlat", "kernel",
					  threaded ? "threaded" : NULL,
					  "trigger_to_isr");
	struct klat_stats st, st2;
	uint64_t *v = NULL;
	char num[32];
	size_t n = 0;
	int ret;

	if (!row)
		return bench_error(EXIT_FAIL, "out of memory");
	ret = klat_set_params(k, threaded);
	if (ret)
		return ret;
	snprintf(num, sizeof(num), "%llu\n", (unsigned long long)passes);
	ret = klat_write(KLAT_SYS "/run", num);
	if (ret)
		return klat_run_error(k, -ret);
	ret = klat_read_stats(&st);
	if (!ret)
		ret = klat_check_cfg(k, &st, passes, threaded);
	if (!ret)
		ret = klat_read_samples(&v, &n);
	if (!ret)
		ret = klat_read_stats(&st2);
	if (!ret && st2.run != st.run)
		ret = bench_error(EXIT_FAIL, "another irqlat run replaced the results while they were read; run again");
	for (size_t i = 0; !ret && i < n; i++)
		udrv_hist_record(row->hist, v[i]);
	if (!ret)
		ret = klat_crosscheck(&st, v, n, row->hist);
	if (!ret)
		klat_fill_row(row, &st, threaded);
	free(v);
	return ret;
}

/* ---- setup ---------------------------------------------------------- */

static int klat_check_module(void)
{
	if (access(KLAT_SYS, F_OK))
		return bench_error(EXIT_FAIL, "irqlat is not loaded (%s is missing): modprobe irqlat, or insmod rig/kernel/irqlat/irqlat.ko",
				 KLAT_SYS);
	if (access(KLAT_SYS "/samples", F_OK))
		return bench_error(EXIT_FAIL, "the loaded irqlat has no %s/samples (older than udrv-bench kernel): rebuild and reload rig/kernel/irqlat",
				 KLAT_SYS);
	if (access(KLAT_SYS "/run", W_OK))
		return bench_error(EXIT_FAIL, "%s/run: %s (run as root)", KLAT_SYS,
				 strerror(errno));
	return 0;
}

/* Give the module the chip by label or gpiochipN name, which it knows. */
static int klat_resolve_chip(struct kbench *k)
{
	struct udrv_chip *chip = udrv_chip_new();
	const char *name;
	int ret = 0;

	if (!chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(chip, k->chip_spec)) {
		ret = bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		goto out;
	}
	if (k->out + 1 >= udrv_chip_num_lines(chip)) {
		ret = bench_usage(k->run.bench, "--out-line %u: %s has %u lines, the input would be line %u",
				k->out, udrv_chip_name(chip),
				udrv_chip_num_lines(chip), k->out + 1);
		goto out;
	}
	name = !strcmp(k->chip_spec, udrv_chip_label(chip)) ? k->chip_spec :
	       udrv_chip_name(chip);
	snprintf(k->chip, sizeof(k->chip), "%s", name);
out:
	udrv_chip_free(chip);
	return ret;
}

static int klat_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct kbench *k = ctx;
	int64_t v;

	switch (opt) {
	case 'c':
		k->chip_spec = arg;
		return 0;
	case OPT_OUT_LINE:
		if (udrv_parse_s64(arg, 0, 65534, &v))
			return bench_usage(run->bench, "bad --out-line '%s'", arg);
		k->out = (unsigned int)v;
		return 0;
	case OPT_EDGE:
		if (strcmp(arg, "rising") && strcmp(arg, "falling") &&
		    strcmp(arg, "both"))
			return bench_usage(run->bench, "bad --edge '%s': rising, falling or both",
					 arg);
		k->edge = arg;
		return 0;
	case OPT_THREADED:
		k->threaded = true;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

BENCH_COMMAND(kernel,
		"in-kernel trigger to interrupt handler latency (irqlat)");

int cmd_bench_kernel(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "out-line", required_argument, NULL, OPT_OUT_LINE },
		{ "edge", required_argument, NULL, OPT_EDGE },
		{ "threaded", no_argument, NULL, OPT_THREADED },
		{ NULL, 0, NULL, 0 },
	};
	struct kbench k = { .chip_spec = "gpio-wire", .out = 2, .edge = "both" };
	uint64_t passes;
	int ret;

	ret = bench_parse(&k.run, "kernel", argc, argv, kernel_help, "c:",
			  longopts, klat_opt, &k);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return bench_usage("kernel", "unexpected argument '%s'",
				 argv[optind]);
	if (k.run.o.duration_ns)
		return bench_usage("kernel", "--duration is not supported: irqlat runs a number of passes (use --samples)");
	passes = bench_samples(&k.run, KLAT_SAMPLES);
	if (passes > KLAT_MAX_PASSES)
		return bench_usage("kernel", "--samples %llu: irqlat runs at most %d passes",
				 (unsigned long long)passes, KLAT_MAX_PASSES);
	ret = klat_check_module();
	if (!ret)
		ret = klat_resolve_chip(&k);
	if (!ret)
		ret = klat_save_params(&k);
	if (!ret)
		ret = bench_begin(&k.run);
	if (!ret)
		ret = klat_run(&k, passes, false);
	if (!ret && k.threaded && !bench_interrupted())
		ret = klat_run(&k, passes, true);
	klat_restore_params(&k);
	return bench_end(&k.run, ret);
}
