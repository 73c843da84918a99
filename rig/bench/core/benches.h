/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The commands of udrv-bench (udrv-bench.c dispatches): a bench each, in its
 * folder rig/bench/NAME/, and load (load.c).
 *
 * A bench registers by its name in rig/bench/meson.build's udrv_benches, the
 * one list: meson makes bench_list.h of it (a BENCH(NAME) line each, in that
 * order) and builds the folder's meson.build; the bench's file defines its
 * command with BENCH_COMMAND(NAME, "what udrv-bench --help says").
 */
#ifndef UDRV_BENCH_BENCHES_H
#define UDRV_BENCH_BENCHES_H

struct bench_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	/* udrv-bench --help's text, lines of at most 64 characters */
	const char *summary;
};

/* In rig/bench/NAME/NAME.c: cmd_bench_NAME() is udrv-bench NAME. */
#define BENCH_COMMAND(n, text)						\
	int cmd_bench_##n(int argc, char **argv);			\
	const struct bench_cmd bench_cmd_##n = { #n, cmd_bench_##n, text }

#define BENCH(n) extern const struct bench_cmd bench_cmd_##n;
#include "bench_list.h"
#undef BENCH

int cmd_bench_load(int argc, char **argv);

#endif /* UDRV_BENCH_BENCHES_H */
