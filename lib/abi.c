// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public structs' sizes and the copies in and out of them (lib/abi.h,
 * docs/abi.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <udrv/udrv.h>

#include "abi.h"
#include "internal.h"

const struct udrv_abi udrv_abi_line_settings =
	UDRV_ABI_STRUCT(udrv_line_settings, event_clock);
const struct udrv_abi udrv_abi_request_config =
	UDRV_ABI_STRUCT(udrv_request_config, layout_size);
const struct udrv_abi udrv_abi_edge_event =
	UDRV_ABI_STRUCT(udrv_edge_event, reserved);
const struct udrv_abi udrv_abi_line_info =
	UDRV_ABI_STRUCT(udrv_line_info, debounce_us);
const struct udrv_abi udrv_abi_mmio_line_info =
	UDRV_ABI_STRUCT(udrv_mmio_line_info, level_name);
const struct udrv_abi udrv_abi_gpio_layout =
	UDRV_ABI_STRUCT(udrv_gpio_layout, map_offset);
const struct udrv_abi udrv_abi_uio_map_info =
	UDRV_ABI_STRUCT(udrv_uio_map_info, offset);
const struct udrv_abi udrv_abi_uio_port_info =
	UDRV_ABI_STRUCT(udrv_uio_port_info, porttype);
const struct udrv_abi udrv_abi_uio_irq =
	UDRV_ABI_STRUCT(udrv_uio_irq, missed);
const struct udrv_abi udrv_abi_rt_state =
	UDRV_ABI_STRUCT(udrv_rt_state, dma_latency_us);
const struct udrv_abi udrv_abi_rt_thread =
	UDRV_ABI_STRUCT(udrv_rt_thread, priority);
const struct udrv_abi udrv_abi_rt_report =
	UDRV_ABI_STRUCT(udrv_rt_report, findings);
const struct udrv_abi udrv_abi_vfio_info =
	UDRV_ABI_STRUCT_SINCE(udrv_vfio_info, dma_mask_bits, "1.1");
const struct udrv_abi udrv_abi_vfio_region_info =
	UDRV_ABI_STRUCT_SINCE(udrv_vfio_region_info, offset, "1.1");
const struct udrv_abi udrv_abi_vfio_irq =
	UDRV_ABI_STRUCT_SINCE(udrv_vfio_irq, missed, "1.1");
const struct udrv_abi udrv_abi_responder_config =
	UDRV_ABI_STRUCT_SINCE(udrv_responder_config, busy_pause_us, "1.5");
const struct udrv_abi udrv_abi_info_event =
	UDRV_ABI_STRUCT_SINCE(udrv_info_event, reserved, "1.6");
const struct udrv_abi udrv_abi_soft_pwm_config =
	UDRV_ABI_STRUCT_SINCE(udrv_soft_pwm_config, late_ns, "1.9");
const struct udrv_abi udrv_abi_soft_pwm_stats =
	UDRV_ABI_STRUCT_SINCE(udrv_soft_pwm_stats, worst_late_ns, "1.9");

/*
 * The structs the library reads have no trailing padding in 1.0: a field
 * added later must not land in bytes a 1.0 caller never initialised (its
 * sizeof would cover them). While a struct is as in 1.0, UDRV_NO_TAIL()
 * holds; the commit that appends its first field replaces it with
 * UDRV_GROWN(), which keeps the new field right at the 1.0 end (docs/abi.md).
 * Output-only structs may have padding: writing into a caller's padding is
 * harmless.
 */
#define UDRV_NO_TAIL(type, last)					\
	_Static_assert(udrv_offsetofend(type, last) == sizeof(struct type), \
		       "struct " #type " read by libudrv has trailing padding, " \
		       "or a field was added without UDRV_GROWN()")
#define UDRV_GROWN(type, last_1_0, first_new)				\
	_Static_assert(offsetof(struct type, first_new) ==		\
		       udrv_offsetofend(type, last_1_0),			\
		       "struct " #type ": the first field after 1.0 must " \
		       "start where 1.0's struct ended")
UDRV_NO_TAIL(udrv_line_settings, event_clock);
UDRV_NO_TAIL(udrv_request_config, layout_size);
UDRV_NO_TAIL(udrv_gpio_layout, map_offset);
UDRV_NO_TAIL(udrv_rt_state, dma_latency_us);
UDRV_NO_TAIL(udrv_rt_report, findings);
UDRV_GROWN(udrv_responder_config, busy_pause_us, num_replies);
UDRV_NO_TAIL(udrv_soft_pwm_config, late_ns);

/* The cdev backend reads events in place (lib/gpio/backend_cdev.c). */
_Static_assert(sizeof(struct udrv_edge_event) == 48,
	       "struct udrv_edge_event is the kernel's gpio_v2_line_event");

udrv_printf(3, 4)
static int abi_err(char *errmsg, int err, const char *fmt, ...)
{
	va_list ap;

	if (errmsg) {
		va_start(ap, fmt);
		vsnprintf(errmsg, UDRV_ERRMSG_LEN, fmt, ap);
		va_end(ap);
	}
	return -err;
}

int udrv_abi_size(char *errmsg, const struct udrv_abi *t, size_t usize)
{
	if (usize >= t->min)
		return 0;
	return abi_err(errmsg, EINVAL,
		       "%s of %zu bytes: libudrv %s's is %zu, no libudrv has a smaller one; pass sizeof(%s) (the header's macros do)",
		       t->name, usize, t->since ? t->since : "1.0", t->min,
		       t->name);
}

int udrv_abi_in(char *errmsg, const struct udrv_abi *t, void *dst,
		const void *src, size_t usize)
{
	const unsigned char *tail = (const unsigned char *)src + t->size;
	int ret = udrv_abi_size(errmsg, t, usize);

	if (ret)
		return ret;
	for (size_t i = 0; usize > t->size && i < usize - t->size; i++)
		if (tail[i])
			return abi_err(errmsg, E2BIG,
				       "%s: the caller's is %zu bytes, this libudrv's (%s) %zu: byte %zu is a field this library does not know, and it is set; run the program with the libudrv it was built for, or leave that field zero",
				       t->name, usize, udrv_version(), t->size,
				       t->size + i);
	memcpy(dst, src, usize < t->size ? usize : t->size);
	if (usize < t->size)
		memset((char *)dst + usize, 0, t->size - usize);
	return 0;
}

void udrv_abi_out(const struct udrv_abi *t, void *dst, const void *src,
		  size_t usize)
{
	memcpy(dst, src, usize < t->size ? usize : t->size);
	if (usize > t->size)
		memset((char *)dst + t->size, 0, usize - t->size);
}
