/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * parse.h - strict parsing of the numbers, durations and device names that
 * select hardware.
 *
 * libudrv and the udrv tool read every number through these functions, and
 * so can programs built on libudrv: a value that picks a pin, a register or a
 * device must never be taken from half a string, wrap around, or come from a
 * string that is empty.
 *
 * Every function parses the whole string: no leading or trailing space, no
 * sign (unless stated), no empty string, no locale. Numbers are decimal, or
 * hexadecimal with 0x (a leading 0 is not octal: 010 is ten). They return 0,
 * -EINVAL when the text is not of the form asked for, or -ERANGE when it is
 * but the value is out of range; the output is written only on success.
 */
#ifndef UDRV_PARSE_H
#define UDRV_PARSE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UDRV_MUST_CHECK __attribute__((warn_unused_result))

/* An unsigned number no larger than @max. */
UDRV_MUST_CHECK
int udrv_parse_u64(const char *s, uint64_t max, uint64_t *v);
UDRV_MUST_CHECK
int udrv_parse_uint(const char *s, unsigned int max, unsigned int *v);

/* A number with an optional '-' or '+', within [@min, @max]. */
UDRV_MUST_CHECK
int udrv_parse_s64(const char *s, int64_t min, int64_t max, int64_t *v);

/*
 * A duration: DIGITS[.DIGITS][UNIT] with UNIT one of ns, us, ms, s, m
 * (minutes); no unit means seconds. At most nine digits after the point;
 * the result is rounded down to whole nanoseconds and must not exceed
 * @max_ns. No exponents, no nan or inf: "1.5ms", "250us", "10", "2m".
 */
UDRV_MUST_CHECK
int udrv_parse_duration_ns(const char *s, uint64_t max_ns, uint64_t *ns);

/*
 * A device number given as "N", "<prefix>N" or "/dev/<prefix>N"
 * ("4", "gpiochip4", "/dev/gpiochip4" with prefix "gpiochip"). N is decimal
 * without leading zeros (the kernel never names a device gpiochip04) and at
 * most INT32_MAX.
 */
UDRV_MUST_CHECK
int udrv_parse_devnum(const char *s, const char *prefix, unsigned int *num);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_PARSE_H */
