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

struct bench_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
};

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
"Commands:\n"
/* benches: one line each, in the order of the table below */
"  toggle   maximum toggle rate of one line: shell, sysfs, cdev, libgpiod 2.3,\n"
"           SoC registers (mmio)\n"
"  uio      UIO interrupt wake-up: uio-ticker (vs raw read), edu over PCI\n"
"  pci      one PCI device's interrupt: UIO INTx vs VFIO INTx vs VFIO MSI\n"
"           (edu), wake-up and re-arm cost\n"
"  timer    clock_nanosleep wake-up, with cyclictest and rtla as references\n"
"  irq      GPIO edge to userspace wake-up: read, poll, epoll, busy, raw,\n"
"           libgpiod 2.3\n"
"  kernel   in-kernel trigger to interrupt handler latency (irqlat)\n"
"  reply    trigger to reply on another line, as a log host sees it: isr,\n"
"           kthread (rig/kernel/gpio-reply), user (read, poll, epoll, busy)\n"
"  gaps     the scheduler's gaps in a busy SCHED_FIFO loop (RT throttling)\n"
"  rate     interrupts per second a receiver takes: sweep, loss at the\n"
"           source, knee, CPU, throughput (cdev, cdev-batch, uio)\n"
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

int main(int argc, char **argv)
{
	static const struct bench_cmd cmds[] = {
		/* benches: { "name", cmd_bench_name }, */
		{ "toggle", cmd_bench_toggle },
		{ "uio", cmd_bench_uio },
		{ "pci", cmd_bench_pci },
		{ "timer", cmd_bench_timer },
		{ "irq", cmd_bench_irq },
		{ "kernel", cmd_bench_kernel },
		{ "reply", cmd_bench_reply },
		{ "gaps", cmd_bench_gaps },
		{ "rate", cmd_bench_rate },
		{ "load", cmd_bench_load },
		{ NULL, NULL },
	};

	if (argc < 2 || is_help(argv[1])) {
		fputs(main_help, stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf(BENCH_PROG " %s\n", udrv_version());
		return EXIT_OK;
	}
	for (const struct bench_cmd *c = cmds; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->run(argc - 1, argv + 1);
	return bench_usage("", "unknown command '%s'", argv[1]);
}
