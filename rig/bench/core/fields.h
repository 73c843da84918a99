/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A line of numbers as a kernel module prints it in sysfs ("%llu %llu\n"):
 * gpio-reply's counts and last edge (rig/bench/reply/reply_target.c), and a
 * comma-separated choice of names from a bench's option. Its own file,
 * with nothing but udrv/parse.h behind it, so that the unit tests and the
 * fuzz harness (tests/fuzz/fuzz_fields.c) take it as it is.
 */
#ifndef UDRV_BENCH_FIELDS_H
#define UDRV_BENCH_FIELDS_H

#include <stdint.h>

#define BENCH_FIELDS_MAX	8
#define BENCH_FIELD_DIGITS	23	/* the longest number (leading zeros included) */

/*
 * @text is exactly @n (1..BENCH_FIELDS_MAX) unsigned decimal numbers, each
 * at most UINT64_MAX and BENCH_FIELD_DIGITS long (leading zeros included), one space
 * between them and one newline after the last, then the end of the string. Returns 0 and the numbers in @v, or
 * -EINVAL with @v untouched.
 */
int bench_read_u64s(const char *text, uint64_t *v, int n);

/*
 * The one number in the file at @path ("N\n", as a sysfs attribute or a
 * /proc knob prints it), read with bench_read_u64s(): 0, -errno, or -EINVAL
 * when it is not one number.
 */
int bench_file_u64(const char *path, uint64_t *v);
/* Write "@v\n" to the file at @path, all of it: 0 or -errno. */
int bench_file_write_u64(const char *path, uint64_t v);

#define BENCH_NAMES_MAX		32	/* the bits of an unsigned int */

/*
 * A bench option's choice of names (--via, --responder, --wait): "all", or
 * one or more of @names[0..@n-1] separated by ',' (no empty name, none
 * twice, nothing around them). Returns 0 and the bit 1 << i of every name i
 * in @mask, or -EINVAL with @mask untouched.
 */
int bench_parse_names(const char *arg, const char *const *names, int n,
		      unsigned int *mask);

#endif /* UDRV_BENCH_FIELDS_H */
