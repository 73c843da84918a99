/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small streaming JSON writer (used for every --json output and results
 * file). Commas, nesting and string escaping are handled here; the caller
 * only says what comes next.
 *
 * Kept for the ABI (UDRV_1.0, lib/measure/): it serves udrv's rig and the
 * udrv tool, not the toolkit's API promise; no new function is added here
 * (docs/abi.md, "The rig's helpers").
 */
#ifndef UDRV_JSON_H
#define UDRV_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_json;

/* @pretty: indent with two spaces per level; otherwise one line. */
struct udrv_json *udrv_json_new(FILE *out, bool pretty);
/* Ends the document with a newline; returns -EINVAL if it was unbalanced. */
int udrv_json_free(struct udrv_json *j);

void udrv_json_obj_begin(struct udrv_json *j);
void udrv_json_obj_end(struct udrv_json *j);
void udrv_json_arr_begin(struct udrv_json *j);
void udrv_json_arr_end(struct udrv_json *j);
/* Inside an object: the next value's key. */
void udrv_json_key(struct udrv_json *j, const char *key);

void udrv_json_str(struct udrv_json *j, const char *s);	/* NULL: null */
void udrv_json_int(struct udrv_json *j, int64_t v);
void udrv_json_uint(struct udrv_json *j, uint64_t v);
void udrv_json_double(struct udrv_json *j, double v);	/* NaN/inf: null */
void udrv_json_bool(struct udrv_json *j, bool v);
void udrv_json_null(struct udrv_json *j);

/* key + value in one call */
void udrv_json_kstr(struct udrv_json *j, const char *key, const char *s);
void udrv_json_kint(struct udrv_json *j, const char *key, int64_t v);
void udrv_json_kuint(struct udrv_json *j, const char *key, uint64_t v);
void udrv_json_kdouble(struct udrv_json *j, const char *key, double v);
void udrv_json_kbool(struct udrv_json *j, const char *key, bool v);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_JSON_H */
