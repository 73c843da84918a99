/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udrv.h - umbrella header of libudrv, a library for Linux userspace drivers.
 *
 * Every function returns 0 (or a count) on success and a negative errno on
 * failure; the handle involved keeps a message that names what failed, the
 * path and what to do about it (udrv_*_errmsg()).
 */
#ifndef UDRV_UDRV_H
#define UDRV_UDRV_H

#include <udrv/chip.h>
#include <udrv/line.h>
#include <udrv/gpio_mmio.h>
#include <udrv/uio.h>
#include <udrv/mmio.h>
#include <udrv/rt.h>
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
