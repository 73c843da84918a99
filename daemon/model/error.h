/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the model refuses (plain C): a negative errno that says which kind of
 * refusal it is and a message for the caller. The bus side turns it into
 * the D-Bus error of that kind in one place (bus/errors.h): -EACCES access
 * denied, -EINVAL invalid arguments, -ENOENT no such file, -EBUSY limits
 * exceeded, -EIO an I/O error; another errno is said as itself.
 */
#ifndef UDRVD_ERROR_H
#define UDRVD_ERROR_H

struct udrvd_err {
	int err;		/* negative errno: the kind */
	char *msg;		/* malloc'd; NULL when there was no memory for it */
};

/* @e refuses with @err and the message of @fmt; returns @err. */
int udrvd_fail(struct udrvd_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void udrvd_err_free(struct udrvd_err *e);

#endif /* UDRVD_ERROR_H */
