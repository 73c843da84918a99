// SPDX-License-Identifier: GPL-2.0-only
/* The model's refusals (error.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"

int udrvd_fail(struct udrvd_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	free(e->msg);
	e->err = err;
	va_start(ap, fmt);
	if (vasprintf(&e->msg, fmt, ap) < 0)
		e->msg = NULL;
	va_end(ap);
	return err;
}

void udrvd_err_free(struct udrvd_err *e)
{
	free(e->msg);
	*e = (struct udrvd_err){ 0 };
}
