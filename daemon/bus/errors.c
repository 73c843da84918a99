// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's refusals (model/error.h) as the D-Bus errors io.gpiod1's and
 * io.udrv1's callers get: the one place that names them for the model.
 */
#include <errno.h>

#include "errors.h"

static const char *error_name(int err)
{
	switch (err) {
	case -EACCES:
		return SD_BUS_ERROR_ACCESS_DENIED;
	case -EINVAL:
		return SD_BUS_ERROR_INVALID_ARGS;
	case -ENOENT:
		return SD_BUS_ERROR_FILE_NOT_FOUND;
	case -EBUSY:
		return SD_BUS_ERROR_LIMITS_EXCEEDED;
	case -EIO:
		return SD_BUS_ERROR_IO_ERROR;
	default:
		return NULL;
	}
}

int udrvd_bus_error(sd_bus_error *error, struct udrvd_err *e)
{
	const char *name = error_name(e->err);
	int r;

	if (!e->msg)
		r = sd_bus_error_set_errno(error, ENOMEM);
	else if (name)
		r = sd_bus_error_set(error, name, e->msg);
	else
		r = sd_bus_error_set_errnof(error, -e->err, "%s", e->msg);
	udrvd_err_free(e);
	return r;
}
