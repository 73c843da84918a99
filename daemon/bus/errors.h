/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's refusals as D-Bus errors (errors.c), in one place: which
 * error name each kind of refusal (model/error.h) gets.
 */
#ifndef UDRVD_ERRORS_H
#define UDRVD_ERRORS_H

#include <systemd/sd-bus.h>

#include "error.h"

/* @e into @error (and freed): what sd_bus_error_set() returns for it. */
int udrvd_bus_error(sd_bus_error *error, struct udrvd_err *e);

#endif /* UDRVD_ERRORS_H */
