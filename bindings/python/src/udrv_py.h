/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udrv._udrv: what the extension's files share. One object per file:
 * errors.c (exceptions), chip.c, request.c, events.c (EdgeEvent, UioIrq),
 * layout.c (GpioLayout), uio.c, region.c, rt.c, hist.c, i2c.c (with
 * i2c_smbus.c and i2c_rdwr.c), spi.c, pwm.c (hardware PWM), soft_pwm.c
 * (SoftPWM, on a Request's line), servo.c (the servo helpers); buffers.c (the bytes of their
 * calls); module.c ties them into the module.
 */
#ifndef UDRV_PY_H
#define UDRV_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <udrv/udrv.h>

/* (PyCFunction) of a METH_FASTCALL or METH_KEYWORDS function */
#define UDRVPY_METH(f)	((PyCFunction)(void (*)(void))(f))

/* errors.c: udrv.Error and its subclasses */
extern PyObject *udrvpy_Error;
extern PyObject *udrvpy_NotFoundError;
extern PyObject *udrvpy_BusyError;
extern PyObject *udrvpy_PermissionDeniedError;
extern PyObject *udrvpy_InvalidError;
int udrvpy_errors_init(PyObject *m);
/*
 * Raise the udrv.Error subclass for the negative errno @ret with the
 * library's message @msg (NULL or "": strerror). -EINTR: the pending
 * signal's exception (KeyboardInterrupt), or InterruptedError. Returns NULL.
 */
PyObject *udrvpy_raise(int ret, const char *msg);
/* ValueError("<what> is released") */
PyObject *udrvpy_released(const char *what);

/* chip.c */
extern PyTypeObject udrvpy_ChipType;
/* respond.c: the reply lines of a responder run under way, a Request's or a
 * Chip's (reply() is allowed while r is set: from the callback) */
struct udrvpy_replies {
	struct udrv_responder *r;
	unsigned int n;
	unsigned int offsets[UDRV_RESPOND_REPLIES_MAX];
};
PyObject *udrvpy_reply(struct udrvpy_replies *rp, PyObject *const *args, Py_ssize_t nargs);

struct udrvpy_chip {
	PyObject_HEAD
	struct udrv_chip *chip;		/* NULL once closed */
	struct udrvpy_replies replies;	/* Chip.respond() running */
	int busy;			/* requests being made, the GIL released */
	bool close_pending;		/* close() came meanwhile */
};
int udrvpy_chip_init(PyObject *m);
/* after a request: the close() that came meanwhile */
void udrvpy_chip_close_pending(struct udrvpy_chip *chip);
/* respond.c: Chip._respond(), a responder whose lines are all udrv-irq's */
PyObject *udrvpy_chip_respond(PyObject *o, PyObject *args);

/* layout.c */
extern PyTypeObject udrvpy_GpioLayoutType;
struct udrvpy_layout {
	PyObject_HEAD
	struct udrv_gpio_layout layout;
};
int udrvpy_layout_init(PyObject *m);

/* request.c */
extern PyTypeObject udrvpy_RequestType;
int udrvpy_request_init(PyObject *m);
/* Chip._request(): a new request of type @cls (a subtype of Request) */
PyObject *udrvpy_request_new(struct udrvpy_chip *chip, PyTypeObject *cls,
			     PyObject *offsets, PyObject *settings,
			     PyObject *names, const char *consumer,
			     int backend, PyObject *layout,
			     uint32_t bufsize);
/* settings tuples -> struct udrv_line_settings[n] (Python-side checks) */
int udrvpy_settings_parse(PyObject *seq, size_t n,
			  struct udrv_line_settings *out);

/* events.c: EdgeEvent and UioIrq (struct sequences), the enums' members */
extern PyTypeObject *udrvpy_EdgeEventType;
extern PyTypeObject *udrvpy_UioIrqType;
int udrvpy_events_init(PyObject *m);
PyObject *udrvpy_edge_event(const struct udrv_edge_event *ev);
PyObject *udrvpy_uio_irq(const struct udrv_uio_irq *irq);

/* uio.c, region.c */
extern PyTypeObject udrvpy_UioType;
extern PyTypeObject udrvpy_RegionType;
int udrvpy_uio_init(PyObject *m);
int udrvpy_region_init(PyObject *m);
/* a Region owning @region (unmapped when the object goes) */
PyObject *udrvpy_region_wrap(struct udrv_region *region);

/* rt.c, hist.c */
extern PyTypeObject udrvpy_RtType;
extern PyTypeObject udrvpy_HistogramType;
int udrvpy_rt_init(PyObject *m);
int udrvpy_hist_init(PyObject *m);

/* i2c.c, spi.c */
extern PyTypeObject udrvpy_I2CType;
extern PyTypeObject udrvpy_SPIType;
int udrvpy_i2c_init(PyObject *m);
int udrvpy_spi_init(PyObject *m);

/* pwm.c, soft_pwm.c, servo.c (module functions only) */
extern PyTypeObject udrvpy_PWMType;
extern PyTypeObject udrvpy_SoftPWMType;
int udrvpy_pwm_init(PyObject *m);
int udrvpy_soft_pwm_init(PyObject *m);
int udrvpy_servo_init(PyObject *m);

/* udrvd.c: udrvd_hold(), udrvd_release(), HAS_UDRVD_CLIENT */
int udrvpy_udrvd_init(PyObject *m);

/*
 * timeout in seconds (None: forever) -> milliseconds, -1 forever. A finite
 * number >= 0 (ValueError for nan, inf or below 0; OverflowError above
 * UDRVPY_TIMEOUT_MAX_S): infinity is None, never a float.
 */
#define UDRVPY_TIMEOUT_MAX_S	1e12
int udrvpy_timeout_ms(PyObject *timeout, long long *ms);
/* CLOCK_MONOTONIC in ms, for the waits in slices (request_events.c) */
long long udrvpy_now_ms(void);

/*
 * An integer argument called @name (an int, or what has __index__) in
 * @min..@max, never wrapped: TypeError for another type, OverflowError
 * beyond 64 bits, ValueError beyond the range; each message names @name,
 * the range and the value. 0, or -1 with the exception set.
 */
int udrvpy_int_arg(PyObject *o, const char *name, long long min, long long max,
		   long long *v);
int udrvpy_uint_arg(PyObject *o, const char *name, unsigned long long max,
		    unsigned long long *v);
/* udrvpy_int_arg() into an int: the range @min..@max within INT_MIN..INT_MAX */
int udrvpy_int_arg_int(PyObject *o, const char *name, int min, int max, int *v);

/* TypeError("<name> must be an int, not bool") for True and False (where
 * an int's True would be 1 by mistake): 0, or -1 with the exception */
int udrvpy_not_bool(PyObject *o, const char *name);
/* A setter's @value NULL (del obj.attr): AttributeError naming @name, -1 */
int udrvpy_no_delete(PyObject *value, const char *name);
/* True or False: 1 or 0; anything else: TypeError naming @name, -1 */
int udrvpy_bool_arg(PyObject *value, const char *name);
/* A time in ns called @name: an int (not a bool) 0..2**63-1 (ValueError
 * below 0 or beyond, OverflowError beyond 64 bits, as udrvpy_int_arg()) */
int udrvpy_ns_arg(PyObject *o, const char *name, uint64_t *ns);

/*
 * A handle one thread uses at a time (I2C, SPI), from its call's start to
 * the end of its ioctl (run with the GIL released), and close() after it.
 * Taken and given back with the GIL held, which makes the flags a critical
 * section (the module does not declare itself free-threading safe: a
 * free-threaded Python runs it with the GIL): a free handle costs two
 * stores. A thread that finds it busy waits on @wake with the GIL released
 * (the other thread's ioctl may block); whoever gives it back wakes one
 * waiter, which looks again.
 */
struct udrvpy_busy {
	PyThread_type_lock wake;	/* acquired; released to wake a waiter */
	int waiters;			/* threads waiting for the handle */
	bool busy;			/* a thread has it */
	bool woken;			/* @wake released, its waiter not back */
};
/* 0, or -1 with MemoryError */
int udrvpy_busy_init(struct udrvpy_busy *b);
void udrvpy_busy_free(struct udrvpy_busy *b);
/* for udrvpy_hold() and udrvpy_give() */
void udrvpy_busy_wait(struct udrvpy_busy *b);
void udrvpy_busy_wake(struct udrvpy_busy *b);

/* Take @b, waiting for another thread's call (the GIL released) */
static inline void udrvpy_hold(struct udrvpy_busy *b)
{
	if (b->busy)
		udrvpy_busy_wait(b);
	b->busy = true;
}

static inline void udrvpy_give(struct udrvpy_busy *b)
{
	b->busy = false;
	if (b->waiters)
		udrvpy_busy_wake(b);
}

/* After udrvpy_hold(): 0 when @open (the handle, looked at once held: a
 * close() may have run while this thread waited); closed: given back,
 * ValueError("<what> is released") and -1 */
static inline int udrvpy_taken(struct udrvpy_busy *b, bool open, const char *what)
{
	if (open)
		return 0;
	udrvpy_give(b);
	udrvpy_released(what);
	return -1;
}
/*
 * A device named by a path or a name (str, bytes, os.PathLike), not empty,
 * as bytes: TypeError or ValueError naming @name and @what it may be
 * ("a node's path or an adapter's name").
 */
PyObject *udrvpy_spec_bytes(PyObject *spec, const char *name, const char *what);

/*
 * The rare calls of a METH_FASTCALL | METH_KEYWORDS function (keywords, a
 * count of arguments it does not take): parsed by
 * PyArg_ParseTupleAndKeywords(@format, @kwlist) into the PyObject *s the
 * varargs point at, with its checks and messages (the function parses its
 * common positional calls itself). 0, or -1 with the exception set.
 */
int udrvpy_parse_kw(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
		    const char *format, char **kwlist, ...);

/*
 * buffers.c: the bytes given as data to send, called @name (a printf
 * format of @i when the argument belongs to a transfer or a message:
 * "message %zu's data"): any C-contiguous buffer (bytes, bytearray,
 * memoryview, array...) or a list or tuple of ints 0..255; TypeError for
 * anything else (an int, a str). A buffer is used in place (no copy), a
 * list or tuple of up to UDRVPY_DATA_SMALL ints copied into @d->small (a
 * longer one into a bytes object). 0 with @d->view.buf and .len, for
 * udrvpy_data_release() once sent; or -1 with the exception set.
 */
#define UDRVPY_DATA_SMALL	64
struct udrvpy_data {
	Py_buffer view;				/* .obj NULL: nothing to release */
	uint8_t small[UDRVPY_DATA_SMALL];
};
int udrvpy_data_arg(PyObject *o, const char *name, size_t i, struct udrvpy_data *d);

static inline void udrvpy_data_release(struct udrvpy_data *d)
{
	if (d->view.obj)
		PyBuffer_Release(&d->view);
}

/* A caller's buffer to fill, called @name (of @i, as above): writable and
 * C-contiguous (TypeError otherwise). 0 with @view, or -1. */
int udrvpy_into_arg(PyObject *o, const char *name, size_t i, Py_buffer *view);

#endif /* UDRV_PY_H */
