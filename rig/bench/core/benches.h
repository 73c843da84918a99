/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands of udrv-bench (udrv-bench.c dispatches): one file each. */
#ifndef UDRV_BENCH_BENCHES_H
#define UDRV_BENCH_BENCHES_H

int cmd_bench_load(int argc, char **argv);
/* benches: one line each */
int cmd_bench_toggle(int argc, char **argv);
int cmd_bench_uio(int argc, char **argv);
int cmd_bench_pci(int argc, char **argv);
int cmd_bench_timer(int argc, char **argv);
int cmd_bench_irq(int argc, char **argv);
int cmd_bench_kernel(int argc, char **argv);
int cmd_bench_reply(int argc, char **argv);
int cmd_bench_gaps(int argc, char **argv);
int cmd_bench_rate(int argc, char **argv);

#endif /* UDRV_BENCH_BENCHES_H */
