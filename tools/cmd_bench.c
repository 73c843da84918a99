// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv bench: the latency suite. One file per bench (bench_*.c), each a
 * user of the framework in bench.c.
 */
#include <stdio.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"

static const char bench_help[] =
"Usage: udrv bench NAME [OPTIONS]\n"
"\n"
"Measure how fast userspace drives and reacts to hardware, with real-time\n"
"setup from libudrv (default SCHED_FIFO 80, mlockall, cpu_dma_latency 0),\n"
"optional load, loss accounting, and a reference measured in the same run\n"
"(raw system-call loop, libgpiod 2.3, cyclictest) so that udrv's overhead shows\n"
"as a ratio. Results: a table, or with --json the result document described\n"
"in docs/rig/results.md.\n"
"\n"
"Benches:\n"
/* benches: one line each, in the order of the table below */
"  toggle   maximum toggle rate of one line: shell, sysfs, cdev, libgpiod 2.3,\n"
"           SoC registers (mmio)\n"
"  uio      UIO interrupt wake-up: uio-ticker (vs raw read), edu over PCI\n"
"  pci      one PCI device's interrupt: UIO INTx vs VFIO INTx vs VFIO MSI\n"
"           (edu), wake-up and re-arm cost\n"
"  timer    clock_nanosleep wake-up, with cyclictest as the reference\n"
"  irq      GPIO edge to userspace wake-up: read, poll, epoll, busy, raw,\n"
"           libgpiod 2.3\n"
"  kernel   in-kernel trigger to interrupt handler latency (irqlat)\n"
"  reply    trigger to reply on another line, as a log host sees it: isr,\n"
"           kthread (rig/kernel/gpio-reply), user (read, poll, epoll, busy)\n"
"  gaps     the scheduler's gaps in a busy SCHED_FIFO loop (RT throttling)\n"
"  rate     interrupts per second a receiver takes: sweep, loss at the\n"
"           source, knee, CPU, throughput (cdev, cdev-batch, uio)\n"
"\n"
"Run 'udrv bench NAME --help' for its options.\n";

int cmd_bench(int argc, char **argv)
{
	static const struct cli_cmd benches[] = {
		/* benches: { "name", cmd_bench_name, "summary" }, */
		{ "toggle", cmd_bench_toggle, "maximum toggle rate of one line per mechanism" },
		{ "uio", cmd_bench_uio, "UIO interrupt wake-up latency (uio-ticker, edu)" },
		{ "pci", cmd_bench_pci, "PCI interrupt wake-up and re-arm: UIO INTx, VFIO INTx, VFIO MSI" },
		{ "timer", cmd_bench_timer, "timer wake-up latency, cyclictest as reference" },
		{ "irq", cmd_bench_irq, "GPIO edge to userspace wake-up latency per wait method" },
		{ "kernel", cmd_bench_kernel, "kernel trigger to interrupt handler latency (irqlat)" },
		{ "reply", cmd_bench_reply, "trigger to reply latency per responder (log host + target)" },
		{ "gaps", cmd_bench_gaps, "scheduler gaps in a busy SCHED_FIFO toggle loop" },
		{ "rate", cmd_bench_rate, "interrupt rate sweep: loss at the source, knee, throughput" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("bench", benches, argc - 1, argv + 1, bench_help);
}
