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
"(raw system-call loop, libgpiod, cyclictest) so that udrv's overhead shows\n"
"as a ratio. Results: a table, or with --json the result document described\n"
"in docs/results.md.\n"
"\n"
"Benches:\n"
/* benches: one line each, in the order of the table below */
"\n"
"Run 'udrv bench NAME --help' for its options.\n";

int cmd_bench(int argc, char **argv)
{
	static const struct cli_cmd benches[] = {
		/* benches: { "name", cmd_bench_name, "summary" }, */
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("bench", benches, argc - 1, argv + 1, bench_help);
}
