// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rig/bench/core/peer.c: where the bench finds udrv-bench-peer
 * (bench_peer_path()), and running it (start, send, read, reply, finish,
 * the run check) against small /bin/sh peers that answer as the real one
 * does, or not.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "peer.h"
#include "harness.h"

#define LOOKUP_ENV	"UDRV_TEST_PEER_LOOKUP"

/* tool.c asks whether the bench was interrupted: never, here */
int bench_interrupted(void);
int bench_interrupted(void)
{
	return 0;
}

/* Run as a copy in a fake build tree: print what the lookup finds. */
__attribute__((constructor)) static void lookup_mode(void)
{
	char path[PATH_MAX];

	if (!getenv(LOOKUP_ENV))
		return;
	unsetenv(BENCH_PEER_ENV);
	printf("%d %s\n", bench_peer_path(path, sizeof(path)), path);
	exit(0);
}

static void write_exec(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	CHECK_INT(chmod(path, 0755), 0);
}

/* A /bin/sh peer in the fake root; $UDRV_BENCH_PEER points at it. */
static void fake_peer(const char *script)
{
	char path[PATH_MAX], text[2048];

	fake_root();
	fake_path(path, sizeof(path), "peer.sh");
	snprintf(text, sizeof(text), "#!/bin/sh\n%s", script);
	write_exec(path, text);
	setenv(BENCH_PEER_ENV, path, 1);
}

static void test_path_env(void)
{
	char path[PATH_MAX];

	fake_peer("exit 0\n");
	CHECK_INT(bench_peer_path(path, sizeof(path)), 0);
	CHECK_CONTAINS(path, "peer.sh");
	/* set but not there: not found, whatever else exists */
	setenv(BENCH_PEER_ENV, "/nonexistent/udrv-bench-peer", 1);
	CHECK_INT(bench_peer_path(path, sizeof(path)), -ENOENT);
}

/*
 * The lookup of a copy of this test at @rel under the fake root (copied
 * there from @self when given): "STATUS PATH\n" in @out.
 */
static void lookup_from(const char *rel, const char *self, char *out, size_t len)
{
	char exe[PATH_MAX], copy[2 * PATH_MAX + 8] = "", cmd[4 * PATH_MAX];
	FILE *p;

	fake_path(exe, sizeof(exe), rel);
	if (self)
		snprintf(copy, sizeof(copy), "cp %s %s && ", self, exe);
	/* cross builds: meson test runs us under qemu-user, and says how */
	snprintf(cmd, sizeof(cmd), "%s%s=1 $MESON_EXE_WRAPPER %s", copy,
		 LOOKUP_ENV, exe);
	snprintf(out, len, "(no output)");
	p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(fgets(out, (int)len, p) != NULL);
	pclose(p);
}

/* A copy of this test in DIR/rig/bench/ (where udrv-bench is in a build
 * tree) finds DIR/rig/bench/peers/; one in DIR/tools/ (where udrv is) does
 * not: the libexec path. */
static void test_path_build_tree(void)
{
	char exe[PATH_MAX], self[PATH_MAX], out[PATH_MAX] = "";
	ssize_t n;

	fake_root();
	fake_dir("tools");
	fake_dir("rig/bench/peers");
	fake_path(exe, sizeof(exe), "rig/bench/peers/udrv-bench-peer");
	write_exec(exe, "#!/bin/sh\nexit 0\n");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	if (n <= 0)
		return;
	self[n] = '\0';
	lookup_from("rig/bench/t", self, out, sizeof(out));
	CHECK(!strncmp(out, "0 ", 2));
	CHECK_CONTAINS(out, "/rig/bench/peers/udrv-bench-peer\n");
	lookup_from("tools/t", self, out, sizeof(out));
	CHECK_CONTAINS(out, " " BENCH_PEER_LIBEXEC "\n");
	/* without it there: the libexec path, not found (or the lab's) */
	unlink(exe);
	lookup_from("rig/bench/t", NULL, out, sizeof(out));
	CHECK_CONTAINS(out, " " BENCH_PEER_LIBEXEC "\n");
}

/* The run lines of this process, as the peer prints them. */
static void run_lines(char *buf, size_t len, int prio_delta, int mlocked)
{
	struct sched_param sp = { 0 };
	unsigned long long mask = 0;
	cpu_set_t set;

	sched_getparam(0, &sp);
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, &set))
			mask |= 1ULL << c;
	snprintf(buf, len, "libgpiod 2 3\nsched %d %d\naffinity %llu\nmlocked %d\n",
		 sched_getscheduler(0), sp.sched_priority + prio_delta, mask, mlocked);
}

static const struct bench_peer_key run_keys[] = { BENCH_PEER_RUN_TABLE };

static int store(void *ctx, size_t key, const uint64_t *vals)
{
	bench_peer_run_store(ctx, key, vals);
	return 0;
}

static int start_toggle_peer(struct bench_peer *p, int prio_delta,
			     const char *replies, char *why, size_t len)
{
	static const char *const args[] = { "toggle", NULL };
	char script[1024], lines[256];

	run_lines(lines, sizeof(lines), prio_delta, 0);
	snprintf(script, sizeof(script),
		 "printf '%%s' '%s'; echo ready\n"
		 "while read cmd arg; do\n%s\ndone\n", lines, replies);
	fake_peer(script);
	return bench_peer_start(p, args, true, why, len);
}

static void test_interactive(void)
{
	struct bench_peer_run run = { 0 };
	struct bench_peer p;
	char why[256] = "";
	uint64_t v = 0;

	CHECK_INT(start_toggle_peer(&p, 0,
		"case $cmd in batch) echo \"ns $((arg * 8))\" ;; set) echo ok ;; esac",
		why, sizeof(why)), 0);
	CHECK_INT(bench_peer_read(&p, run_keys, BENCH_PEER_RUN_KEYS, "ready",
				  store, &run, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_run_check(&run, false, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_send(&p, why, sizeof(why), "batch %d\n", 256), 0);
	CHECK_INT(bench_peer_reply(&p, "ns", 1, &v, why, sizeof(why)), 0);
	CHECK_INT(v, 2048);
	CHECK_INT(bench_peer_send(&p, why, sizeof(why), "set 1\n"), 0);
	CHECK_INT(bench_peer_reply(&p, "ok", 0, NULL, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_finish(&p, NULL, NULL, why, sizeof(why)), 0);
	/* memory locked, as the bench says, but not the peer's */
	CHECK_INT(bench_peer_run_check(&run, true, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "udrv-bench-peer's memory is not locked, the bench's is");
}

static void test_run_check_sees_another_priority(void)
{
	struct bench_peer_run run = { 0 };
	struct bench_peer p;
	char why[256] = "";

	CHECK_INT(start_toggle_peer(&p, 3, "", why, sizeof(why)), 0);
	CHECK_INT(bench_peer_read(&p, run_keys, BENCH_PEER_RUN_KEYS, "ready",
				  store, &run, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_run_check(&run, false, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "priority 3, the bench at");
	bench_peer_finish(&p, NULL, NULL, why, sizeof(why));
	run.prio = 0;
	run.minor = 6;
	run.major = 1;
	CHECK_INT(bench_peer_run_check(&run, false, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "links libgpiod 1.6, not 2.3");
}

static void test_bad_replies(void)
{
	struct bench_peer_run run = { 0 };
	struct bench_peer p;
	char why[256] = "";
	uint64_t v;

	CHECK_INT(start_toggle_peer(&p, 0,
		"case $cmd in batch) echo 'ns 12x' ;; set) echo 'ok 1' ;; "
		"*) echo bye >&2; exit 3 ;; esac", why, sizeof(why)), 0);
	CHECK_INT(bench_peer_read(&p, run_keys, BENCH_PEER_RUN_KEYS, "ready",
				  store, &run, why, sizeof(why)), 0);
	bench_peer_send(&p, why, sizeof(why), "batch 2\n");
	CHECK_INT(bench_peer_reply(&p, "ns", 1, &v, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "answered 'ns 12x', expected 'ns' and 1 number(s)");
	bench_peer_send(&p, why, sizeof(why), "set 0\n");
	CHECK_INT(bench_peer_reply(&p, "ok", 0, NULL, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "answered 'ok 1'");
	bench_peer_send(&p, why, sizeof(why), "quit\n");
	CHECK_INT(bench_peer_reply(&p, "ok", 0, NULL, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "stopped answering");
	CHECK_INT(bench_peer_finish(&p, NULL, NULL, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "it failed (exit 3): bye");
}

static void test_bad_run_lines(void)
{
	static const char *const args[] = { "toggle", NULL };
	struct bench_peer_run run = { 0 };
	struct bench_peer p;
	char why[256] = "";

	fake_peer("printf 'libgpiod 2 3\\nsched 0 0\\nready\\n'; read x\n");
	CHECK_INT(bench_peer_start(&p, args, true, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_read(&p, run_keys, BENCH_PEER_RUN_KEYS, "ready",
				  store, &run, why, sizeof(why)), -EINVAL);
	CHECK_CONTAINS(why, "no 'affinity' line");
	bench_peer_finish(&p, NULL, NULL, why, sizeof(why));
	/* the peer ends before "ready" */
	fake_peer("printf 'libgpiod 2 3\\n'; exit 1\n");
	CHECK_INT(bench_peer_start(&p, args, true, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_read(&p, run_keys, BENCH_PEER_RUN_KEYS, "ready",
				  store, &run, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "stopped answering");
	CHECK_INT(bench_peer_finish(&p, NULL, NULL, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "exit 1");
}

static void test_output_and_args(void)
{
	static const char *const args[] = { "irq", "--samples", "2", NULL };
	struct bench_peer p;
	char why[256] = "", *out = NULL;
	size_t len = 0;

	fake_peer("echo \"$#:$1:$2:$3\"; echo end\n");
	CHECK_INT(bench_peer_start(&p, args, false, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_finish(&p, &out, &len, why, sizeof(why)), 0);
	CHECK_STR(out, "3:irq:--samples:2\nend\n");
	CHECK_INT(len, strlen("3:irq:--samples:2\nend\n"));
	free(out);
	/* absent: the note says how to get it */
	setenv(BENCH_PEER_ENV, "/nonexistent", 1);
	CHECK_INT(bench_peer_start(&p, args, false, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "scripts/fetch-peers");
}

struct rx_sum {
	uint64_t v[BENCH_PEER_RX_KEYS];
	unsigned int lats;
};

static int rx_add(void *ctx, size_t key, const uint64_t *vals)
{
	struct rx_sum *r = ctx;

	r->v[key] += vals[0];
	r->lats += key == BENCH_PEER_RX_LAT;
	return 0;
}

/* rx's way out: SIGTERM until it answers, then all it prints */
static void test_stop(void)
{
	static const char *const args[] = { "rx", NULL };
	static const struct bench_peer_key rx_keys[] = { BENCH_PEER_RX_TABLE };
	struct rx_sum sum = { { 0 }, 0 };
	struct bench_peer p;
	char why[256] = "", *out = NULL;
	size_t len = 0;

	/* sh runs the trap once the sleep returns: SIGTERM is repeated */
	fake_peer("trap 'trap \"\" TERM; printf \"received 20000\\nreads 9\\n"
		  "seqno_first 1\\nseqno_last 20000\\ncpu_user_ns 0\\ncpu_sys_ns 4000\\n"
		  "samples 20000\\n\"; i=0; while [ $i -lt 20000 ]; do "
		  "echo \"lat $i\"; i=$((i+1)); done; echo end; exit 0' TERM\n"
		  "echo ready\nwhile :; do sleep 0.05; done\n");
	CHECK_INT(bench_peer_start(&p, args, true, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_reply(&p, "ready", 0, NULL, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_stop(&p, &out, &len, why, sizeof(why)), 0);
	CHECK(out != NULL && len > 20000 * 6);
	if (out) {
		CHECK(!strncmp(out, "received 20000\n", 15));
		CHECK_CONTAINS(out, "\nlat 19999\nend\n");
		CHECK_INT(strlen(out), len);
		CHECK_INT(bench_peer_text(out, len, rx_keys, BENCH_PEER_RX_KEYS, "end",
					  rx_add, &sum, why, sizeof(why)), 0);
		CHECK_INT(sum.lats, 20000);
		CHECK(sum.v[BENCH_PEER_RX_LAT] == 19999ULL * 20000 / 2);
		CHECK(sum.v[3] - sum.v[2] + 1 == sum.v[0]);	/* nothing dropped */
	}
	free(out);
	/* a peer that fails on the way out: its message */
	fake_peer("trap 'echo no >&2; exit 1' TERM\necho ready\n"
		  "while :; do sleep 0.05; done\n");
	CHECK_INT(bench_peer_start(&p, args, true, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_reply(&p, "ready", 0, NULL, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_stop(&p, &out, &len, why, sizeof(why)), -1);
	CHECK(out == NULL);
	CHECK_CONTAINS(why, "it failed (exit 1): no");
}

/*
 * After "ready" and "go", the rest of the peer's output however long (the
 * irq rows' edges: 5000 of them are 200 KiB, past an interactive reply's
 * 64 KiB), read to its end.
 */
static void test_rest(void)
{
	static const char *const args[] = { "irq", NULL };
	struct bench_peer p;
	char why[256] = "", *out = NULL;
	size_t len = 0;

	fake_peer("echo ready\nread go\n[ \"$go\" = go ] || exit 1\n"
		  "i=0; while [ $i -lt 5000 ]; do "
		  "echo \"edge 1000000000$i 2000000000$i 3000000000$i 1\"; i=$((i+1)); done\n"
		  "echo received 5016; echo lost 0; echo end\n");
	CHECK_INT(bench_peer_start(&p, args, true, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_reply(&p, "ready", 0, NULL, why, sizeof(why)), 0);
	CHECK_INT(bench_peer_send(&p, why, sizeof(why), "go\n"), 0);
	CHECK_INT(bench_peer_rest(&p, &out, &len, why, sizeof(why)), 0);
	CHECK(out != NULL && len > 64 * 1024);
	if (out) {
		CHECK_INT(strlen(out), len);
		CHECK(!strncmp(out, "edge 10000000000 ", 17));
		CHECK_CONTAINS(out, "\nreceived 5016\nlost 0\nend\n");
	}
	free(out);
	CHECK_INT(bench_peer_finish(&p, NULL, NULL, why, sizeof(why)), 0);
}

UDRV_TESTS(
	UDRV_T(test_path_env),
	UDRV_T(test_path_build_tree),
	UDRV_T(test_interactive),
	UDRV_T(test_run_check_sees_another_priority),
	UDRV_T(test_bad_replies),
	UDRV_T(test_bad_run_lines),
	UDRV_T(test_output_and_args),
	UDRV_T(test_stop),
	UDRV_T(test_rest),
)
