// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench: the latency and throughput suite that measures udrv (the rig),
 * a program of its own beside the udrv tool. One folder per bench
 * (rig/bench/NAME/), each a user of the framework in core/ (bench.c);
 * 'load' runs the benches' load profiles alone.
 */
#include <stdio.h>
#include <string.h>
#include <udrv/udrv.h>

#include "benches.h"
#include "msg.h"

/* the benches, in the order of rig/bench/meson.build's udrv_benches */
static const struct bench_cmd *const benches[] = {
#define BENCH(n) &bench_cmd_##n,
#include "bench_list.h"
#undef BENCH
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define HELP_INDENT 11

static const char main_help[] =
"Usage: udrv-bench [--version] [--help] COMMAND [OPTIONS]\n"
"\n"
"Measure how fast userspace drives and reacts to hardware through libudrv,\n"
"with real-time setup from libudrv (default SCHED_FIFO 80, mlockall,\n"
"cpu_dma_latency 0), optional load, loss accounting (sent = received +\n"
"lost), and a reference measured in the same run (raw system-call loop,\n"
"libgpiod 2.3 in udrv-bench-peer, cyclictest, rtla) so that udrv's overhead\n"
"shows as a ratio. Results: a table, or with --json the result document\n"
"(schema udrv-bench/1, docs/rig/results.md) that udrv-report(1) renders.\n"
"\n"
"Commands:\n";

/* after the benches' lines */
static const char main_help_tail[] =
"  load     run a load profile alone: hackbench, memory, fork or all\n"
"\n"
"Run 'udrv-bench COMMAND --help' for its options.\n"
"\n"
"Examples:\n"
"  udrv-bench toggle -c gpio-wire --line 0 -n 1000000\n"
"  udrv-bench irq --load all --json -o irq.json\n"
"  udrv-bench timer -n 100000 --load hackbench\n"
"  udrv-bench load all -D 60s\n"
"\n"
"The fixtures the benches drive (gpio-wire, uio-ticker, irqlat, gpio-reply)\n"
"are kernel modules in rig/kernel/; python3 -m rig.lab suite runs every bench\n"
"on Debian's kernels in QEMU.\n"
"\n"
"Exit status: 0 success, 1 failure (the message says what and why),\n"
"2 bad command line. See udrv-bench(1).\n";

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "help");
}

/* "  name     summary", its further lines indented as far */
static void print_command(const char *name, const char *summary)
{
	const char *line = summary;

	printf("  %-*s", HELP_INDENT - 2, name);
	for (;;) {
		size_t len = strcspn(line, "\n");

		printf("%.*s\n", (int)len, line);
		if (!line[len])
			return;
		line += len + 1;
		printf("%*s", HELP_INDENT, "");
	}
}

static void print_help(void)
{
	fputs(main_help, stdout);
	for (size_t i = 0; i < ARRAY_SIZE(benches); i++)
		print_command(benches[i]->name, benches[i]->summary);
	fputs(main_help_tail, stdout);
}

int main(int argc, char **argv)
{
	if (argc < 2 || is_help(argv[1])) {
		print_help();
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf(BENCH_PROG " %s\n", udrv_version());
		return EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(benches); i++)
		if (!strcmp(argv[1], benches[i]->name))
			return benches[i]->run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "load"))
		return cmd_bench_load(argc - 1, argv + 1);
	return bench_usage("", "unknown command '%s'", argv[1]);
}
