/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udrv.h - umbrella header of libudrv, a library for Linux userspace drivers.
 *
 * Every function that can fail returns 0 (or a count) on success and a
 * negative errno on failure; the handle involved keeps a message that names
 * what failed, the path and what to do about it (udrv_*_errmsg()). Functions
 * without a handle write their message to the errbuf they take
 * (udrv_region_map_file(), udrv_gpio_layout_parse()) or have none (the rt
 * readiness and thread functions, the list functions: see
 * udrv_gpio_absent_reason(), the parsers). A *_new() returns NULL with errno
 * ENOMEM when memory runs out.
 *
 * ABI (docs/abi.md): soname libudrv.so.1, symbols in version nodes UDRV_1.0
 * to UDRV_1.5 (1.1: VFIO, udrv/vfio.h; 1.5: the responder, udrv/responder.h).
 * Public structs are passed with the caller's sizeof: the exported function
 * has the suffix _sz and the natural name is a macro passing sizeof, so that
 * a struct can gain fields at its end in a later version (a smaller struct
 * than 1.0's: -EINVAL; a larger one with an unknown field set: -E2BIG).
 * struct udrv_mmio, struct udrv_mmio_pin and struct udrv_rt_finding are
 * frozen.
 */
#ifndef UDRV_UDRV_H
#define UDRV_UDRV_H

#include <udrv/chip.h>
#include <udrv/line.h>
#include <udrv/gpio_mmio.h>
#include <udrv/i2c.h>
#include <udrv/spi.h>
#include <udrv/pwm.h>
#include <udrv/soft_pwm.h>
#include <udrv/uio.h>
#include <udrv/vfio.h>
#include <udrv/mmio.h>
#include <udrv/rt.h>
#include <udrv/responder.h>
#include <udrv/hist.h>
#include <udrv/json.h>
#include <udrv/parse.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library version as "MAJOR.MINOR.PATCH". */
const char *udrv_version(void);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_UDRV_H */
