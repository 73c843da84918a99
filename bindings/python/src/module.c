// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrv._udrv: the module, its functions (version, chip_list, uio_list) and
 * the helpers the object files share.
 */
#include "udrv_py.h"

#include <math.h>

int udrvpy_timeout_ms(PyObject *timeout, long long *ms)
{
	double s;

	if (timeout == Py_None) {
		*ms = -1;
		return 0;
	}
	s = PyFloat_AsDouble(timeout);
	if (s == -1.0 && PyErr_Occurred())
		return -1;
	if (isnan(s) || s < 0) {
		PyErr_SetString(PyExc_ValueError,
				"timeout must be >= 0 seconds, or None to wait forever");
		return -1;
	}
	*ms = s > 1e12 ? -1 : (long long)ceil(s * 1000.0);
	return 0;
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

static PyMethodDef module_methods[] = {
	{ "version", version, METH_NOARGS,
	  "version() -> str\n\nThe library's version, \"MAJOR.MINOR.PATCH\"." },
	{ "chip_list", chip_list, METH_NOARGS,
	  "chip_list() -> list[str]\n\nThe GPIO chips (\"gpiochip0\", ...), by number; [] when none." },
	{ "uio_list", uio_list, METH_NOARGS,
	  "uio_list() -> list[str]\n\nThe UIO devices (\"uio0\", ...), by number; [] when none." },
	{ "gpio_absent_reason", gpio_absent_reason, METH_NOARGS,
	  "gpio_absent_reason() -> str\n\nWhy there are no GPIO chips, and what to do." },
	{ "uio_absent_reason", uio_absent_reason, METH_NOARGS,
	  "uio_absent_reason() -> str\n\nWhy there are no UIO devices, and what to do." },
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
