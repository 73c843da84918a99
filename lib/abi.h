/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How the public structs grow (docs/abi.md): the caller passes the size of
 * its struct (the header's macros pass sizeof), the library takes any size
 * from the struct's size in libudrv 1.0 up to its own and beyond, the rule
 * of the kernel's copy_struct_from_user() (openat2, clone3):
 *
 *   input, smaller than ours:  the missing fields read as zero (their default)
 *   input, larger than ours:   accepted when the bytes we do not know are all
 *                              zero, else -E2BIG (a field we cannot honour)
 *   output, smaller:           only the caller's bytes are written
 *   output, larger:            our fields written, the rest zeroed
 *   below the 1.0 size:        -EINVAL (no libudrv ever had that struct)
 */
#ifndef UDRV_ABI_H
#define UDRV_ABI_H

#include <stddef.h>

/* One public struct: its name for messages, its size in libudrv 1.0 (the
 * end of its last 1.0 field) and its size in this library. */
struct udrv_abi {
	const char *name;
	size_t min;
	size_t size;
	const char *since;	/* the version that added it; NULL: 1.0 */
};

#define udrv_offsetofend(type, field)					\
	(offsetof(struct type, field) + sizeof(((struct type *)0)->field))

/* A struct as of 1.0: @last is its last field in libudrv 1.0. A field added
 * later goes after it; the 1.0 size stays what it was. */
#define UDRV_ABI_STRUCT(type, last)					\
	{ "struct " #type, udrv_offsetofend(type, last), sizeof(struct type), \
	  NULL }
/* A struct added after 1.0: @last is its last field in version @since. */
#define UDRV_ABI_STRUCT_SINCE(type, last, since)			\
	{ "struct " #type, udrv_offsetofend(type, last),		\
	  sizeof(struct type), since }

extern const struct udrv_abi udrv_abi_line_settings, udrv_abi_request_config,
	udrv_abi_edge_event, udrv_abi_line_info, udrv_abi_mmio_line_info,
	udrv_abi_gpio_layout, udrv_abi_uio_map_info, udrv_abi_uio_port_info,
	udrv_abi_uio_irq, udrv_abi_rt_state, udrv_abi_rt_thread,
	udrv_abi_rt_report;
/* 1.1 */
extern const struct udrv_abi udrv_abi_vfio_info, udrv_abi_vfio_region_info,
	udrv_abi_vfio_irq;
/* 1.5 */
extern const struct udrv_abi udrv_abi_responder_config;
/* 1.6 */
extern const struct udrv_abi udrv_abi_info_event;
/* 1.9 */
extern const struct udrv_abi udrv_abi_soft_pwm_config,
	udrv_abi_soft_pwm_stats;

/*
 * Check a caller's @usize for @t: 0, or -EINVAL (smaller than the 1.0
 * struct) with a message in @errmsg (UDRV_ERRMSG_LEN bytes; NULL: none).
 */
int udrv_abi_size(char *errmsg, const struct udrv_abi *t, size_t usize);

/*
 * Copy the caller's input struct @src (@usize bytes) into @dst (one of
 * ours): missing fields zeroed. 0, -EINVAL (too small) or -E2BIG (a
 * non-zero byte beyond our struct: the message names the struct and the
 * byte), with a message in @errmsg (NULL: none).
 */
int udrv_abi_in(char *errmsg, const struct udrv_abi *t, void *dst,
		const void *src, size_t usize);

/*
 * Copy our output struct @src to the caller's @dst of @usize bytes (checked
 * with udrv_abi_size() before): the bytes that fit, the rest zeroed.
 */
void udrv_abi_out(const struct udrv_abi *t, void *dst, const void *src,
		  size_t usize);

#endif /* UDRV_ABI_H */
