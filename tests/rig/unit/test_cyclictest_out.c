// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the readers of cyclictest's histogram file and stdout
 * (rig/bench/core/parsers/cyclictest_out.c) on files captured in the lab
 * (tests/rig/unit/cyclictest/README.md), and on those files cut short or
 * changed: every check, broken on purpose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/hist.h>

#include "core/parsers/cyclictest_out.h"
#include "harness.h"

struct parsed {
	struct udrv_hist *h;
	struct ct_hist hist;
	struct ct_spikes spikes;
	char why[200];
	int ret;
};

static char *load(const char *name, size_t *len)
{
	return harness_load(CT_DATA, name, len);
}

/*
 * hist-100000.sparse is the 1.4 MB capture without its empty buckets'
 * lines: put them back ("%06u 000000"), giving the capture byte for byte.
 */
static char *load_expanded(const char *name, unsigned int range, size_t *len)
{
	size_t slen, cap = (size_t)range * 14 + 4096, n = 0;
	char *sparse = load(name, &slen), *out = malloc(cap), *s = sparse, *nl, *d;
	unsigned int next = 0, idx;

	while ((nl = strchr(s, '\n'))) {
		for (idx = 0, d = s; *d >= '0' && *d <= '9'; d++)	/* "003640 000001" */
			idx = idx * 10 + (unsigned int)(*d - '0');
		if (d > s) {
			for (; next < idx; next++)
				n += (size_t)snprintf(out + n, cap - n, "%06u 000000\n", next);
			next++;
		} else if (!strncmp(s, "# Total:", 8)) {
			for (; next < range; next++)
				n += (size_t)snprintf(out + n, cap - n, "%06u 000000\n", next);
		}
		memcpy(out + n, s, (size_t)(nl - s) + 1);
		n += (size_t)(nl - s) + 1;
		s = nl + 1;
	}
	out[n] = '\0';
	free(sparse);
	*len = n;
	return out;
}

/* A histogram file, expanded if it is stored sparse. */
static char *load_hist(const char *name, unsigned int range, size_t *len)
{
	const char *dot = strrchr(name, '.');

	if (dot && !strcmp(dot, ".sparse"))
		return load_expanded(name, range, len);
	return load(name, len);
}

static void parse_hist(struct parsed *p, const char *text, size_t len,
		       uint64_t range, uint64_t loops)
{
	p->h = udrv_hist_new();
	p->ret = ct_hist_parse(text, len, range, loops, p->h, &p->hist, p->why,
			       sizeof(p->why));
}

static void parse_spikes(struct parsed *p, const char *text, size_t len,
			 uint64_t range, uint64_t nodes, uint64_t loops)
{
	p->ret = ct_spikes_parse(text, len, range, nodes, loops, p->h, &p->spikes,
				 p->why, sizeof(p->why));
}

/* Both files of one run, as `udrv-bench timer` reads them. */
static void parse_pair(struct parsed *p, const char *hist, const char *out,
		       uint64_t range, uint64_t nodes, uint64_t loops)
{
	size_t hlen, olen;
	char *htext = load_hist(hist, range, &hlen), *otext = load(out, &olen);

	parse_hist(p, htext, hlen, range, loops);
	CHECK_STR(p->why, "");
	if (!p->ret) {
		parse_spikes(p, otext, olen, range, nodes, loops);
		CHECK_STR(p->why, "");
	}
	if (!p->ret)
		p->ret = ct_out_check(&p->hist, &p->spikes, p->why, sizeof(p->why));
	free(htext);
	free(otext);
}

/* A whole, consistent run: its samples make its summary. */
static void check_whole(struct parsed *p, uint64_t count)
{
	CHECK_INT(p->ret, 0);
	CHECK_STR(p->why, "");
	CHECK_INT(p->hist.total + p->hist.overflows, count);
	CHECK_INT(udrv_hist_count(p->h), count);
	CHECK_INT(p->spikes.listed, p->hist.overflows);
	CHECK_INT(udrv_hist_min(p->h), p->hist.min);
	CHECK_INT(udrv_hist_max(p->h), p->hist.max);
	CHECK_INT(ct_avg(p->hist.sum + p->spikes.sum, count), p->hist.avg);
}

static void done(struct parsed *p)
{
	udrv_hist_free(p->h);
	p->h = NULL;
}

/* The bench's own range (100000 buckets), no sample above it. */
static void test_range_100000(void)
{
	struct parsed p = { 0 };
	size_t len, olen;
	char *text = load_expanded("hist-100000.sparse", 100000, &len);
	char *out = load("out-100000", &olen);

	CHECK_INT(len, 1400180);	/* the capture's size (README: its sha256) */
	parse_hist(&p, text, len, 100000, 300);
	CHECK_INT(p.ret, 0);
	CHECK_STR(p.why, "");
	CHECK_INT(p.hist.total, 300);
	CHECK_INT(p.hist.overflows, 0);
	CHECK_INT(p.hist.min, 3640);
	CHECK_INT(p.hist.avg, 3841);
	CHECK_INT(p.hist.max, 5157);
	parse_spikes(&p, out, olen, 100000, 300, 300);
	CHECK_INT(p.ret, 0);
	CHECK_INT(p.spikes.spikes, 0);
	CHECK_INT(ct_out_check(&p.hist, &p.spikes, p.why, sizeof(p.why)), 0);
	check_whole(&p, 300);
	done(&p);
	/* what was asked for: fewer samples, a smaller range */
	parse_hist(&p, text, len, 100000, 299);
	CHECK_CONTAINS(p.why, "more than the 299 asked for in all");
	done(&p);
	parse_hist(&p, text, len, 99999, 300);
	CHECK_CONTAINS(p.why, "line 100001: expected '# Total: ', not '099999 000000'");
	done(&p);
	free(text);
	free(out);
}

/* 47 of 200 samples above the range: on its stdout, one by one. */
static void test_spikes_4000(void)
{
	struct parsed p = { 0 };

	parse_pair(&p, "hist-4000", "out-4000", 4000, 300, 200);
	check_whole(&p, 200);
	CHECK_INT(p.hist.total, 153);
	CHECK_INT(p.hist.overflows, 47);
	CHECK_INT(p.hist.cycles_listed, 47);
	CHECK_INT(p.spikes.spikes, 47);
	CHECK_INT(p.hist.min, 3642);
	CHECK_INT(p.hist.avg, 3833);
	CHECK_INT(p.hist.max, 4385);
	CHECK_INT(p.spikes.min, 4206);
	CHECK_INT(p.spikes.max, 4385);
	done(&p);
}

/* More runs from the lab (README.md): what each one exercises. */
static void test_lab_captures(void)
{
	static const struct {
		const char *hist, *out;
		uint64_t range, nodes, loops, count, overflows, listed, size;
	} runs[] = {
		/* 200 overflows, 10 cycle numbers, " # 00190 others" */
		{ "hist-others", "out-others", 10, 300, 200, 200, 200, 10, 395 },
		/* SIGINT after 1 s: 751 + 222 of the 100000 asked for */
		{ "hist-sigint.sparse", "out-sigint", 4000, 100000, 100000, 973, 222, 222, 57512 },
		/* SCHED_OTHER, --default-system: no comment line, all above 4 us */
		{ "hist-other.sparse", "out-other", 4000, 200, 200, 200, 200, 200, 57380 },
	};
	struct parsed p = { 0 };
	size_t len;

	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		free(load_hist(runs[i].hist, (unsigned int)runs[i].range, &len));
		CHECK_INT(len, runs[i].size);	/* the capture's (README: sha256) */
		parse_pair(&p, runs[i].hist, runs[i].out, runs[i].range, runs[i].nodes,
			   runs[i].loops);
		if (p.ret)
			harness_fail(__FILE__, __LINE__, "%s: %s", runs[i].hist, p.why);
		check_whole(&p, runs[i].count);
		CHECK_INT(p.hist.overflows, runs[i].overflows);
		CHECK_INT(p.hist.cycles_listed, runs[i].listed);
		done(&p);
	}
}

/* --spike-nodes=10 for 47 spikes: it lists 10, the row is not whole. */
static void test_nodes_short(void)
{
	struct parsed p = { 0 };
	size_t hlen, olen;
	char *h = load_hist("hist-nodes.sparse", 4000, &hlen), *o = load("out-nodes", &olen);

	parse_hist(&p, h, hlen, 4000, 200);
	CHECK_INT(p.ret, 0);
	parse_spikes(&p, o, olen, 4000, 10, 200);
	CHECK_INT(p.ret, 0);
	CHECK_INT(p.spikes.listed, 10);
	CHECK_INT(p.spikes.spikes, p.hist.overflows);
	CHECK_INT(ct_out_check(&p.hist, &p.spikes, p.why, sizeof(p.why)), -EINVAL);
	CHECK_CONTAINS(p.why, "only 10 of its");
	done(&p);
	/* read as if it had been asked for more nodes: 10 listed is too few */
	p.h = udrv_hist_new();
	parse_spikes(&p, o, olen, 4000, 11, 200);
	CHECK_CONTAINS(p.why, "spikes listed of");
	CHECK_CONTAINS(p.why, "not 11 (--spike-nodes=11)");
	done(&p);
	free(h);
	free(o);
}

static void check_refused(const char *text, size_t len, bool hist, uint64_t range,
			  uint64_t loops, const char *why, int line)
{
	struct parsed p = { 0 };

	if (hist) {
		parse_hist(&p, text, len, range, loops);
	} else {
		p.h = udrv_hist_new();
		parse_spikes(&p, text, len, range, loops, loops);
	}
	if (p.ret != -EINVAL || !strstr(p.why, why))
		harness_fail(__FILE__, line, "parse returned %d \"%s\", expected -EINVAL \"%s\"",
			     p.ret, p.why, why);
	done(&p);
}

/* @name with @from replaced by @to (once): refused, saying @why. */
static void check_changed(const char *name, const char *from, const char *to,
			  const char *why, int line)
{
	size_t len, flen = strlen(from), tlen = strlen(to);
	char *text = load(name, &len), *at = strstr(text, from), *out;

	if (!at) {
		harness_fail(__FILE__, line, "'%s' is not in %s", from, name);
		free(text);
		return;
	}
	out = malloc(len - flen + tlen + 1);
	memcpy(out, text, (size_t)(at - text));
	memcpy(out + (at - text), to, tlen);
	memcpy(out + (at - text) + tlen, at + flen, len - (size_t)(at - text) - flen + 1);
	check_refused(out, len - flen + tlen, !strncmp(name, "hist", 4), 4000, 200, why, line);
	free(out);
	free(text);
}

#define CHANGED(name, from, to, why) check_changed(name, from, to, why, __LINE__)
#define THREAD_LINE "# Thread 0: 00015 00023 00027"

static void test_hist_garbled(void)
{
	/* the old reader's bug: fgets() cut the 293-byte Thread line at 255
	 * bytes and read its rest "00023 00027 ..." as bucket 23 */
	size_t len;
	char *text = load("hist-4000", &len), *at = strstr(text, THREAD_LINE);

	CHECK(at && strchr(at, '\n') - at > 256);
	free(text);
	CHANGED("hist-4000", "00131 00135", "00131\n00135",
		"line 4008: 30 cycle numbers for 47 overflows");
	/* counts: negative, above what was asked for, beyond 64 bits */
	CHANGED("hist-4000", "\n003642 000001", "\n003642 -00001",
		"line 3644: its count '-00001' is not a number");
	CHANGED("hist-4000", "\n003642 000001", "\n003642 4294967295",
		"line 3644: bucket 3642: 4294967295 samples, more than the 200 asked for");
	CHANGED("hist-4000", "\n003642 000001", "\n003642 99999999999999999999",
		"does not fit in 64 bits");
	CHANGED("hist-4000", "\n003642 000001", "\n003642 00001",
		"its count '00001' is not printed %06lu");
	CHANGED("hist-4000", "\n003642 000001", "\n003642 0000001",
		"its count '0000001' is not printed %06lu");
	/* a missing, an extra, a repeated line; buckets out of order */
	CHANGED("hist-4000", "# Avg Latencies: 03833\n", "",
		"expected '# Avg Latencies: ', not '# Max Latencies: 04385'");
	CHANGED("hist-4000", "# Total: 000000153\n", "",
		"expected '# Total: ', not '# Min Latencies: 03642'");
	CHANGED("hist-4000", "# Min Latencies: 03642\n",
		"# Min Latencies: 03642\n# Min Latencies: 03642\n", "expected '# Avg Latencies: '");
	CHANGED("hist-4000", "\n000010 000000", "\n000011 000000\n000010 000000",
		"line 12: expected bucket 000010 of the 4000 asked for (-h), not '000011 000000'");
	CHANGED("hist-4000", "\n000010 000000", "\n000010 000000\n000010 000000",
		"expected bucket 000011 of");
	CHANGED("hist-4000", "\n000010 000000", "\n# Something\n000010 000000",
		"not '# Something'");
	CHANGED("hist-4000", "# Histogram\n", "# Histogram\n\n", "expected bucket 000000");
	CHANGED("hist-4000", "# Histogram\n", "# Histogram \n", "expected '# Histogram'");
	CHANGED("hist-4000", "00199\n", "00199\n\n\n", "text after the histogram's end");
	CHANGED("hist-4000", "00199\n", "00199\n# Thread 1: 00001\n", "one thread only");
	/* the summary against the buckets */
	CHANGED("hist-4000", "# Total: 000000153", "# Total: 000000154",
		"Total 154, its buckets hold 153");
	CHANGED("hist-4000", "Min Latencies: 03642", "Min Latencies: 03643",
		"min 3643 is not its lowest sample");
	CHANGED("hist-4000", "Max Latencies: 04385", "Max Latencies: 03999",
		"max 3999 is not its highest sample");
	CHANGED("hist-4000", "Avg Latencies: 03833", "Avg Latencies: 04386",
		"out of order");
	/* the mean of 153 buckets and 47 overflows of at most 4385 */
	CHANGED("hist-4000", "Avg Latencies: 03833", "Avg Latencies: 04000",
		"cannot come from its buckets and 47 overflows");
	/* the overflows against their cycle numbers */
	CHANGED("hist-4000", "Overflows: 00047", "Overflows: 00048",
		"line 4006: 48 overflows + 153 in buckets: more than the 200 asked for");
	CHANGED("hist-4000", " 00195 00199", " 00195", "46 cycle numbers for 47 overflows");
	CHANGED("hist-4000", " 00195 00199", " 00195 00197 00199",
		"more cycle numbers than the 47 overflows");
	CHANGED("hist-4000", " 00023 00027", " 00027 00023", "cycle number 23 after 27");
	CHANGED("hist-4000", " 00195 00199", " 00195 00200", "cycle number 200 after 195");
	CHANGED("hist-4000", " 00195 00199", " 00195 00199 # 00001 others",
		"47 cycle numbers and 1 others for 47 overflows, at most 4000 listed");
	CHANGED("hist-4000", " 00195 00199", " 00195  00199", "cycle number '' is not a number");
	CHANGED("hist-4000", " 00195 00199", " 00195 00199 ", "expected ' <cycle number>'");
}

/* The same checks where there is no overflow: max and avg are exact. */
static void test_hist_no_overflow(void)
{
	struct parsed p = { 0 };
	size_t len;
	char *text = load_expanded("hist-100000.sparse", 100000, &len);
	char *at = strstr(text, "# Avg Latencies: 03841");

	CHECK(at != NULL);
	if (!at)
		return;
	memcpy(at, "# Avg Latencies: 03842", 22);
	parse_hist(&p, text, len, 100000, 300);
	CHECK_CONTAINS(p.why, "avg 3842, its buckets' mean 3841");
	done(&p);
	at = strstr(text, "# Max Latencies: 05157");
	memcpy(at, "# Max Latencies: 05158", 22);
	memcpy(strstr(text, "# Avg Latencies: 03842"), "# Avg Latencies: 03841", 22);
	parse_hist(&p, text, len, 100000, 300);
	CHECK_CONTAINS(p.why, "max 5158 is not its highest sample");
	done(&p);
	free(text);
}

/*
 * Whether the prefix of @line whole lines is tried: every one outside the
 * 4000 bucket lines (lines 2 to 4001) and near their ends, every 37th among
 * them (all 4000 are alike; each prefix is parsed whole: all would be 8
 * million lines, half a minute under qemu-user for the ARM builds).
 */
static bool prefix_tried(size_t line)
{
	return line < 16 || line > 3990 || line % 37 == 0;
}

/* Every proper prefix that ends before its Thread line is refused (those
 * of the bucket lines sampled: prefix_tried()). */
static void test_every_prefix_refused(void)
{
	struct parsed p = { 0 };
	size_t len, cut, thread, line = 0;
	char *text = load("hist-4000", &len);

	thread = (size_t)(strstr(text, THREAD_LINE) - text);
	for (cut = 0; cut <= thread; cut++) {
		if (cut && text[cut - 1] != '\n')
			continue;
		if (!prefix_tried(line++))
			continue;
		parse_hist(&p, text, cut, 4000, 200);
		if (p.ret != -EINVAL)
			harness_fail(__FILE__, __LINE__, "the first %zu of %zu bytes accepted", cut, len);
		done(&p);
	}
	check_refused(text, len - 2, true, 4000, 200, "line 4008: cut short (no newline)",
		      __LINE__);
	check_refused(text, thread, true, 4000, 200, "ends before its '# Thread 0:' line",
		      __LINE__);
	check_refused(text, 4000, true, 4000, 200, "cut short", __LINE__);
	check_refused(text, 0, true, 4000, 200, "ends before its '# Histogram' line", __LINE__);
	/* the spikes: every prefix that ends inside the list */
	free(text);
	text = load("out-4000", &len);
	thread = (size_t)(strstr(text, "spikes =") - text);
	for (cut = (size_t)(strstr(text, "T:") - text) + 1; cut <= thread; cut++) {
		if (text[cut - 1] != '\n')
			continue;
		p.h = udrv_hist_new();
		parse_spikes(&p, text, cut, 4000, 300, 200);
		if (p.ret != -EINVAL || !strstr(p.why, "'spikes = N'"))
			harness_fail(__FILE__, __LINE__, "the first %zu of %zu bytes: %d %s",
				     cut, len, p.ret, p.why);
		done(&p);
	}
	free(text);
}

static void test_spikes_garbled(void)
{
	CHANGED("out-4000", "T: 0 Spike:    4206:", "T: 0 Spike:    3999:",
		"line 16: spike 3999: not in 4000..2147483647 (--spike=3999)");
	CHANGED("out-4000", "T: 0 Spike:    4206:", "T: 0 Spike:   -4206:",
		"spike '-4206' is not a number");
	CHANGED("out-4000", "T: 0 Spike:    4206:", "T: 0 Spike:   4206:",
		"spike '   4206' is not printed %8ld");
	CHANGED("out-4000", "T: 0 Spike:    4206:", "T: 1 Spike:    4206:", "thread 0 only");
	CHANGED("out-4000", "TS:      3308236", "TS:      3304235", "time stamp 3304235 after 3304236");
	CHANGED("out-4000", "TS:      3308236", "TS:      3308236 x", "time stamp");
	CHANGED("out-4000", "TS:      3308236", "TS:   3308236", "is not printed %12ld");
	CHANGED("out-4000", "spikes = 47", "spikes = 48", "47 spikes listed of 48, not 48");
	CHANGED("out-4000", "spikes = 47", "spikes = 047", "spikes '047' has a leading zero");
	CHANGED("out-4000", "spikes = 47", "spikes = 4294967296",
		"4294967296 spikes: more than the 200 samples asked for");
	CHANGED("out-4000", "spikes = 47\n", "spikes = 47\n# more\n", "text after 'spikes = N'");
	CHANGED("out-4000", "spikes = 47\n", "spikes = 47\nspikes = 47\n",
		"'spikes =' without a spike before it");
	CHANGED("out-4000", "spikes = 47\n", "spikes = 47\nT: 0 Spike:    4206: TS:      3308236\n",
		"a spike after 'spikes ='");
	CHANGED("out-4000", "\nT: 0 Spike:    4206:", "\n\nT: 0 Spike:    4206:",
		"expected 'spikes = N' after the spikes");
	CHANGED("out-4000", "\n\nT: 0 Spike:    4286:", "\nT: 0 Spike:    4286:",
		"line 2: no empty line before the first spike");
	CHANGED("out-4000", "# /dev/cpu_dma_latency", "/dev/cpu_dma_latency",
		"not cyclictest -q's output: '/dev/cpu_dma_latency set to 0us'");
	CHANGED("out-4000", "T: 0 Spike:    4206:", "T: 0 Spike:    4206 TS:",
		"spike '    4206 TS' is not printed %8ld");
	CHANGED("out-4000", "T: 0 Spike:    4206: TS:", "T: 0 Spike:    4206:TS:", "V: TS: T");
}

/* Each file right, the two together not: caught by ct_out_check(). */
static void test_pair_checked(void)
{
	struct parsed p = { 0 };
	char why[200];
	struct ct_hist h;
	struct ct_spikes s;

	parse_pair(&p, "hist-4000", "out-4000", 4000, 300, 200);
	CHECK_INT(p.ret, 0);
	h = p.hist;
	s = p.spikes;
	done(&p);
	s.spikes = s.listed = 46;
	CHECK_INT(ct_out_check(&h, &s, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "46 spikes on its stdout, 47 overflows in its histogram");
	s = p.spikes;
	s.max = 4386;
	CHECK_INT(ct_out_check(&h, &s, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "max 4385, its highest spike 4386");
	s = p.spikes;
	s.sum += 200;		/* one more ns on average */
	CHECK_INT(ct_out_check(&h, &s, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "avg 3833, its samples' mean 3834");
	s.sum -= 200;
	h.total = 0;		/* as if every sample were above the range */
	h.min = 4207;
	CHECK_INT(ct_out_check(&h, &s, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "min 4207, its lowest spike 4206");
}

/* Small texts: no sample at all, one overflow only, NUL bytes, the caps. */
static void test_small(void)
{
	static const char tail[] = "# Histogram Overflow at cycle number:\n";
	char text[512];
	struct parsed p = { 0 };

	snprintf(text, sizeof(text), "# Histogram\n000000 000000\n000001 000000\n# Total: 000000000\n"
		 "# Min Latencies: 1000000\n# Avg Latencies: 00000\n# Max Latencies: 00000\n"
		 "# Histogram Overflows: 00000\n%s# Thread 0:\n\n", tail);
	parse_hist(&p, text, strlen(text), 2, 10);
	CHECK_INT(p.ret, 0);
	CHECK_INT(udrv_hist_count(p.h), 0);
	done(&p);
	snprintf(text, sizeof(text), "# Histogram\n000000 000000\n000001 000000\n# Total: 000000000\n"
		 "# Min Latencies: 00005\n# Avg Latencies: 00005\n# Max Latencies: 00005\n"
		 "# Histogram Overflows: 00001\n%s# Thread 0: 00000\n\n", tail);
	parse_hist(&p, text, strlen(text), 2, 10);
	CHECK_INT(p.ret, 0);
	CHECK_INT(p.hist.overflows, 1);
	done(&p);
	memcpy(strstr(text, "Min Latencies: 00005"), "Min Latencies: 00004", 20);
	check_refused(text, strlen(text), true, 2, 10, "cannot come from its buckets and 1 overflows",
		      __LINE__);
	memcpy(strstr(text, "Min Latencies: 00004"), "Min Latencies: 00001", 20);
	check_refused(text, strlen(text), true, 2, 10, "min 1 is not its lowest sample", __LINE__);
	/* every sample above 1 ms: cyclictest's min stays at its start */
	snprintf(text, sizeof(text), "# Histogram\n000000 000000\n000001 000000\n# Total: 000000000\n"
		 "# Min Latencies: 1000000\n# Avg Latencies: 1500250\n# Max Latencies: 2000000\n"
		 "# Histogram Overflows: 00002\n%s# Thread 0: 00000 00001\n\n", tail);
	parse_hist(&p, text, strlen(text), 2, 10);
	CHECK_STR(p.why, "");
	snprintf(text, sizeof(text), "\nT: 0 Spike: 1000500: TS:      2000000\n"
		 "T: 0 Spike: 2000000: TS:      2001000\nspikes = 2\n\n");
	parse_spikes(&p, text, strlen(text), 2, 10, 10);
	CHECK_STR(p.why, "");
	CHECK_INT(ct_out_check(&p.hist, &p.spikes, p.why, sizeof(p.why)), 0);
	p.spikes.min = 999999;	/* below its min: not cyclictest's */
	CHECK_INT(ct_out_check(&p.hist, &p.spikes, p.why, sizeof(p.why)), -EINVAL);
	CHECK_STR(p.why, "min 1000000, its lowest spike 999999");
	done(&p);
	check_refused("# Histogram\n0000\0 000000\n", 25, true, 2, 10, "line 2: a NUL byte", __LINE__);
	check_refused("", 0, true, 0, 10, "bad range 0", __LINE__);
	check_refused("", 0, true, CT_MAX_RANGE + 1, 10, "bad range", __LINE__);
	check_refused("", 0, true, 2, 1ULL << 32, "bad range", __LINE__);
	check_refused("", 0, false, 2, 0, "bad range", __LINE__);
}

UDRV_TESTS(UDRV_T(test_range_100000), UDRV_T(test_spikes_4000), UDRV_T(test_lab_captures),
	   UDRV_T(test_nodes_short), UDRV_T(test_hist_garbled), UDRV_T(test_hist_no_overflow),
	   UDRV_T(test_every_prefix_refused), UDRV_T(test_spikes_garbled),
	   UDRV_T(test_pair_checked), UDRV_T(test_small))
