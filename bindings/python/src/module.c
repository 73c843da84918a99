// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrv._udrv: the module, its functions (version, chip_list, uio_list,
 * i2c_list, spi_list, pwm_list) and the helpers the object files share.
 */
#include "udrv_py.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

int udrvpy_timeout_ms(PyObject *timeout, long long *ms)
{
	double s;

	if (timeout == Py_None) {
		*ms = -1;
		return 0;
	}
	if (!PyFloat_Check(timeout) && !PyIndex_Check(timeout)) {
		PyErr_Format(PyExc_TypeError,
			     "timeout must be a number of seconds or None, not %.100s",
			     Py_TYPE(timeout)->tp_name);
		return -1;
	}
	s = PyFloat_AsDouble(timeout);
	if (s == -1.0 && PyErr_Occurred()) {
		if (!PyErr_ExceptionMatches(PyExc_OverflowError))
			return -1;
		/* an int beyond a double: hugely negative, or too large */
		PyErr_Clear();
		s = PyObject_RichCompareBool(timeout, Py_False, Py_LT) == 1 ?
		    -1.0 : 2 * UDRVPY_TIMEOUT_MAX_S;
	}
	if (!isfinite(s) || s < 0) {
		PyErr_Format(PyExc_ValueError,
			     "timeout must be a finite number of seconds >= 0, or None to wait forever, not %R",
			     timeout);
		return -1;
	}
	if (s > UDRVPY_TIMEOUT_MAX_S) {
		PyErr_Format(PyExc_OverflowError,
			     "timeout %R is too large (at most 1e12 seconds; None waits forever)",
			     timeout);
		return -1;
	}
	*ms = (long long)ceil(s * 1000.0);
	return 0;
}

/* _timeout_ms(timeout) -> int: the check of udrvpy_timeout_ms() for the
 * package's Python waits (asyncio) */
static PyObject *timeout_ms(PyObject *mod, PyObject *timeout)
{
	long long ms;

	if (udrvpy_timeout_ms(timeout, &ms) < 0)
		return NULL;
	return PyLong_FromLongLong(ms);
}

/* @o as an int object (a new reference), TypeError naming @name */
static PyObject *int_object(PyObject *o, const char *name)
{
	if (!PyIndex_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", name,
			     Py_TYPE(o)->tp_name);
		return NULL;
	}
	return PyNumber_Index(o);
}

/* "NAME must be LO..HI, not VALUE" as @exc; the bounds formatted here,
 * not by PyErr_Format (whose codes differ between Python versions) */
static int range_error(PyObject *exc, const char *name, const char *lo,
		       const char *hi, PyObject *value)
{
	PyErr_Format(exc, "%s must be %s..%s, not %R", name, lo, hi, value);
	return -1;
}

/* udrvpy_int_arg(), with @exc for a value outside @min..@max but within
 * 64 bits */
static int int_range(PyObject *o, const char *name, long long min, long long max,
		     long long *v, PyObject *exc)
{
	PyObject *i = int_object(o, name);
	char lo[24], hi[24];
	int ovf;

	if (!i)
		return -1;
	*v = PyLong_AsLongLongAndOverflow(i, &ovf);
	Py_DECREF(i);
	if (*v == -1 && PyErr_Occurred())
		return -1;
	if (!ovf && *v >= min && *v <= max)
		return 0;
	snprintf(lo, sizeof(lo), "%lld", min);
	snprintf(hi, sizeof(hi), "%lld", max);
	return range_error(ovf ? PyExc_OverflowError : exc, name, lo, hi, o);
}

int udrvpy_int_arg(PyObject *o, const char *name, long long min, long long max,
		   long long *v)
{
	return int_range(o, name, min, max, v, PyExc_ValueError);
}

/* udrvpy_uint_arg() of anything but an exact int in range: apart, so
 * that the common case's call saves no registers for it */
static __attribute__((noinline)) int uint_object(PyObject *o, const char *name,
						 unsigned long long max, unsigned long long *v)
{
	PyObject *i, *exc = PyExc_ValueError;
	char hi[24];
	long long s;
	int ovf;

	i = int_object(o, name);
	if (!i)
		return -1;
	s = PyLong_AsLongLongAndOverflow(i, &ovf);
	*v = (unsigned long long)s;
	if (ovf > 0)	/* beyond LLONG_MAX: maybe within 64 bits */
		*v = PyLong_AsUnsignedLongLong(i);
	Py_DECREF(i);
	if (*v == (unsigned long long)-1 && PyErr_Occurred()) {
		if (!PyErr_ExceptionMatches(PyExc_OverflowError))
			return -1;
		PyErr_Clear();
		exc = PyExc_OverflowError;
	} else if (ovf < 0 || (!ovf && s < 0)) {
		exc = PyExc_OverflowError;	/* negative: no unsigned value */
	} else if (*v <= max) {
		return 0;
	}
	snprintf(hi, sizeof(hi), "%llu", max);
	return range_error(exc, name, "0", hi, o);
}

int udrvpy_uint_arg(PyObject *o, const char *name, unsigned long long max,
		    unsigned long long *v)
{
	long long s;
	int ovf;

	if (PyLong_CheckExact(o)) {	/* the common case: no __index__ to call */
		s = PyLong_AsLongLongAndOverflow(o, &ovf);
		*v = (unsigned long long)s;
		if (!ovf && s >= 0 && *v <= max)
			return 0;
	}
	return uint_object(o, name, max, v);
}

int udrvpy_int_arg_int(PyObject *o, const char *name, int min, int max, int *v)
{
	long long x;

	/* beyond a C int: OverflowError, as beyond 64 bits */
	if (int_range(o, name, INT_MIN, INT_MAX, &x, PyExc_OverflowError) < 0 ||
	    int_range(o, name, min, max, &x, PyExc_ValueError) < 0)
		return -1;
	*v = (int)x;
	return 0;
}

int udrvpy_not_bool(PyObject *o, const char *name)
{
	if (!PyBool_Check(o))
		return 0;
	PyErr_Format(PyExc_TypeError, "%s must be an int, not bool", name);
	return -1;
}

int udrvpy_no_delete(PyObject *value, const char *name)
{
	if (value)
		return 0;
	PyErr_Format(PyExc_AttributeError, "%s cannot be deleted", name);
	return -1;
}

int udrvpy_bool_arg(PyObject *value, const char *name)
{
	if (PyBool_Check(value))
		return value == Py_True;
	PyErr_Format(PyExc_TypeError, "%s is True or False, not %.100s", name,
		     Py_TYPE(value)->tp_name);
	return -1;
}

int udrvpy_ns_arg(PyObject *o, const char *name, uint64_t *ns)
{
	long long v;

	if (udrvpy_not_bool(o, name) < 0 || udrvpy_int_arg(o, name, 0, LLONG_MAX, &v) < 0)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}

int udrvpy_busy_init(struct udrvpy_busy *b)
{
	*b = (struct udrvpy_busy){ .wake = PyThread_allocate_lock() };
	if (!b->wake) {
		PyErr_NoMemory();
		return -1;
	}
	PyThread_acquire_lock(b->wake, WAIT_LOCK);	/* a new lock: at once */
	return 0;
}

void udrvpy_busy_free(struct udrvpy_busy *b)
{
	if (!b->wake)
		return;
	if (!b->woken)
		PyThread_release_lock(b->wake);	/* freed unlocked, as Python's own */
	PyThread_free_lock(b->wake);
	b->wake = NULL;
}

void udrvpy_busy_wait(struct udrvpy_busy *b)
{
	while (b->busy) {
		b->waiters++;
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(b->wake, WAIT_LOCK);
		Py_END_ALLOW_THREADS
		b->waiters--;
		b->woken = false;	/* @wake acquired again */
	}
}

/* One release of @wake at a time: it is never released twice, and a
 * waiter woken but not yet back (the GIL) looks again before sleeping */
void udrvpy_busy_wake(struct udrvpy_busy *b)
{
	if (b->woken)
		return;
	b->woken = true;
	PyThread_release_lock(b->wake);
}

PyObject *udrvpy_spec_bytes(PyObject *spec, const char *name, const char *what)
{
	PyObject *res = NULL;

	if (PyBool_Check(spec) || !PyUnicode_FSConverter(spec, &res)) {
		if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "%s must be %s, not %.100s", name, what,
				     Py_TYPE(spec)->tp_name);
		}
		return NULL;
	}
	if (PyBytes_GET_SIZE(res) == 0) {
		Py_DECREF(res);
		PyErr_Format(PyExc_ValueError, "%s must be %s, not ''", name, what);
		return NULL;
	}
	return res;
}

int udrvpy_parse_kw(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
		    const char *format, char **kwlist, ...)
{
	PyObject *tuple, *kw = NULL;
	va_list ap;
	int ok;

	tuple = PyTuple_New(nargs);
	if (!tuple)
		return -1;
	for (Py_ssize_t i = 0; i < nargs; i++) {
		Py_INCREF(args[i]);
		PyTuple_SET_ITEM(tuple, i, args[i]);
	}
	if (kwnames && PyTuple_GET_SIZE(kwnames)) {
		kw = PyDict_New();
		for (Py_ssize_t i = 0; kw && i < PyTuple_GET_SIZE(kwnames); i++)
			if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
				Py_CLEAR(kw);
		if (!kw) {
			Py_DECREF(tuple);
			return -1;
		}
	}
	va_start(ap, kwlist);
	ok = PyArg_VaParseTupleAndKeywords(tuple, kw, format, kwlist, ap);
	va_end(ap);
	/* the objects parsed are the caller's, alive for the call */
	Py_DECREF(tuple);
	Py_XDECREF(kw);
	return ok ? 0 : -1;
}

static PyObject *version(PyObject *mod, PyObject *unused)
{
	return PyUnicode_FromString(udrv_version());
}

/* a list of str from a strv list function (udrv_chip_list, udrv_uio_list) */
static PyObject *strv_list(int (*list)(char ***), const char *what)
{
	char **names = NULL;
	PyObject *res;
	int n = list(&names);

	if (n < 0)
		return udrvpy_raise(n, what);
	res = PyList_New(0);
	for (int i = 0; res && i < n; i++) {
		PyObject *s = PyUnicode_DecodeFSDefault(names[i]);

		if (!s || PyList_Append(res, s) < 0)
			Py_CLEAR(res);
		Py_XDECREF(s);
	}
	udrv_strv_free(names);
	return res;
}

static PyObject *chip_list(PyObject *mod, PyObject *unused)
{
	return strv_list(udrv_chip_list, "cannot list the GPIO chips");
}

static PyObject *uio_list(PyObject *mod, PyObject *unused)
{
	return strv_list(udrv_uio_list, "cannot list the UIO devices");
}

static PyObject *i2c_list(PyObject *mod, PyObject *unused)
{
	return strv_list(udrv_i2c_list, "cannot list the I2C buses");
}

static PyObject *spi_list(PyObject *mod, PyObject *unused)
{
	return strv_list(udrv_spi_list, "cannot list the spidev devices");
}

static PyObject *pwm_list(PyObject *mod, PyObject *unused)
{
	return strv_list(udrv_pwm_list, "cannot list the PWM chips");
}

static PyObject *absent_reason(void (*fn)(char *, size_t))
{
	char buf[512];

	fn(buf, sizeof(buf));
	return PyUnicode_FromString(buf);
}

static PyObject *gpio_absent_reason(PyObject *mod, PyObject *unused)
{
	return absent_reason(udrv_gpio_absent_reason);
}

static PyObject *uio_absent_reason(PyObject *mod, PyObject *unused)
{
	return absent_reason(udrv_uio_absent_reason);
}

/*
 * BACKEND_NAMES: the library's backends in the order of enum udrv_backend,
 * named as it names them (udrv_backend_str() until "unknown"). A test holds
 * udrv.Backend, a copy the type checkers can read, to it.
 */
static int backend_names_init(PyObject *m)
{
	PyObject *names;
	Py_ssize_t n = 0;

	while (strcmp(udrv_backend_str((enum udrv_backend)n), "unknown"))
		n++;
	names = PyTuple_New(n);
	for (Py_ssize_t i = 0; names && i < n; i++) {
		PyObject *s = PyUnicode_FromString(
			udrv_backend_str((enum udrv_backend)i));

		if (!s)
			Py_CLEAR(names);
		else
			PyTuple_SET_ITEM(names, i, s);
	}
	if (!names || PyModule_AddObject(m, "BACKEND_NAMES", names) < 0) {
		Py_XDECREF(names);
		return -1;
	}
	return 0;
}

static PyMethodDef module_methods[] = {
	{ "version", version, METH_NOARGS,
	  "version() -> str\n\nThe library's version, \"MAJOR.MINOR.PATCH\"." },
	{ "chip_list", chip_list, METH_NOARGS,
	  "chip_list() -> list[str]\n\nThe GPIO chips (\"gpiochip0\", ...), by number; [] when none." },
	{ "uio_list", uio_list, METH_NOARGS,
	  "uio_list() -> list[str]\n\nThe UIO devices (\"uio0\", ...), by number; [] when none." },
	{ "i2c_list", i2c_list, METH_NOARGS,
	  "i2c_list() -> list[str]\n\nThe I2C buses (\"i2c-0\", ...), by number; [] when none." },
	{ "spi_list", spi_list, METH_NOARGS,
	  "spi_list() -> list[str]\n\nThe spidev devices (\"spidev0.0\", ...), by bus then chip "
	  "select; [] when none." },
	{ "pwm_list", pwm_list, METH_NOARGS,
	  "pwm_list() -> list[str]\n\nThe PWM chips (\"pwmchip0\", ...), by number; [] when none." },
	{ "gpio_absent_reason", gpio_absent_reason, METH_NOARGS,
	  "gpio_absent_reason() -> str\n\nWhy there are no GPIO chips, and what to do." },
	{ "uio_absent_reason", uio_absent_reason, METH_NOARGS,
	  "uio_absent_reason() -> str\n\nWhy there are no UIO devices, and what to do." },
	{ "_timeout_ms", timeout_ms, METH_O, NULL },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "udrv._udrv",
	.m_doc = "libudrv's C API for Python (use the udrv package, not this module).",
	.m_size = -1,
	.m_methods = module_methods,
};

typedef int (*init_fn)(PyObject *m);

static const init_fn inits[] = {
	udrvpy_errors_init,
	udrvpy_events_init,
	udrvpy_chip_init,
	udrvpy_layout_init,
	udrvpy_request_init,
	udrvpy_uio_init,
	udrvpy_region_init,
	udrvpy_rt_init,
	udrvpy_hist_init,
	udrvpy_i2c_init,
	udrvpy_spi_init,
	udrvpy_pwm_init,
	udrvpy_soft_pwm_init,
	udrvpy_servo_init,
	udrvpy_udrvd_init,
	backend_names_init,
};

PyMODINIT_FUNC PyInit__udrv(void);

PyMODINIT_FUNC PyInit__udrv(void)
{
	PyObject *m = PyModule_Create(&module_def);

	if (!m)
		return NULL;
	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
		if (inits[i](m) < 0) {
			Py_DECREF(m);
			return NULL;
		}
	}
	return m;
}
