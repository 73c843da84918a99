// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Histogram: a latency histogram (struct udrv_hist): ~3 significant digits
 * from 1 ns to 2^36 ns, exact min/max/mean/stddev, percentiles. The
 * package's udrv.Histogram adds to_dict().
 */
#include "udrv_py.h"

struct udrvpy_hist {
	PyObject_HEAD
	struct udrv_hist *h;
};

#define HIST(o)	((struct udrvpy_hist *)(o))

static PyObject *hist_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { NULL };
	struct udrvpy_hist *self;

	if (!PyArg_ParseTupleAndKeywords(args, kw, ":Histogram", kwlist))
		return NULL;
	self = (struct udrvpy_hist *)cls->tp_alloc(cls, 0);
	if (!self)
		return NULL;
	self->h = udrv_hist_new();
	if (!self->h) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void hist_dealloc(PyObject *o)
{
	udrv_hist_free(HIST(o)->h);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *hist_record(PyObject *o, PyObject *arg)
{
	unsigned long long ns;

	if (udrvpy_uint_arg(arg, "ns", UINT64_MAX, &ns) < 0)
		return NULL;
	udrv_hist_record(HIST(o)->h, ns);
	Py_RETURN_NONE;
}

static PyObject *hist_merge(PyObject *o, PyObject *other)
{
	if (!PyObject_TypeCheck(other, &udrvpy_HistogramType)) {
		PyErr_SetString(PyExc_TypeError, "merge() takes a Histogram");
		return NULL;
	}
	udrv_hist_merge(HIST(o)->h, HIST(other)->h);
	Py_RETURN_NONE;
}

static PyObject *hist_reset(PyObject *o, PyObject *unused)
{
	udrv_hist_reset(HIST(o)->h);
	Py_RETURN_NONE;
}

static PyObject *hist_percentile(PyObject *o, PyObject *arg)
{
	double p = PyFloat_AsDouble(arg);

	if (p == -1.0 && PyErr_Occurred())
		return NULL;
	if (!(p > 0 && p <= 100)) {
		PyErr_Format(PyExc_ValueError, "a percentile is in (0, 100], not %R", arg);
		return NULL;
	}
	return PyLong_FromUnsignedLongLong(udrv_hist_percentile(HIST(o)->h, p));
}

static PyObject *hist_buckets(PyObject *o, PyObject *unused)
{
	uint64_t lo, hi, count;
	size_t cursor = 0;
	PyObject *list = PyList_New(0), *it;

	while (list && udrv_hist_next_bucket(HIST(o)->h, &cursor, &lo, &hi, &count)) {
		PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)lo,
					    (unsigned long long)hi, (unsigned long long)count);

		if (!t || PyList_Append(list, t) < 0)
			Py_CLEAR(list);
		Py_XDECREF(t);
	}
	if (!list)
		return NULL;
	it = PyObject_GetIter(list);
	Py_DECREF(list);
	return it;
}

/* the getters' closures: the library function that answers each */
struct hist_u64_fn {
	uint64_t (*fn)(const struct udrv_hist *);
};
struct hist_dbl_fn {
	double (*fn)(const struct udrv_hist *);
};
static const struct hist_u64_fn get_count = { udrv_hist_count };
static const struct hist_u64_fn get_overflow = { udrv_hist_overflow };
static const struct hist_u64_fn get_min = { udrv_hist_min };
static const struct hist_u64_fn get_max = { udrv_hist_max };
static const struct hist_dbl_fn get_mean = { udrv_hist_mean };
static const struct hist_dbl_fn get_stddev = { udrv_hist_stddev };

static PyObject *hist_get_u64(PyObject *o, void *closure)
{
	const struct hist_u64_fn *f = closure;

	return PyLong_FromUnsignedLongLong(f->fn(HIST(o)->h));
}

static PyObject *hist_get_dbl(PyObject *o, void *closure)
{
	const struct hist_dbl_fn *f = closure;

	return PyFloat_FromDouble(f->fn(HIST(o)->h));
}

static PyMethodDef hist_methods[] = {
	{ "record", hist_record, METH_O,
	  "record(ns: int) -> None\n\nCount one sample (O(1), no allocation)." },
	{ "merge", hist_merge, METH_O,
	  "merge(other: Histogram) -> None\n\nAdd other's samples into this one." },
	{ "reset", hist_reset, METH_NOARGS, "reset() -> None\n\nForget every sample." },
	{ "percentile", hist_percentile, METH_O,
	  "percentile(p: float) -> int\n\nThe value at percentile p (0 < p <= 100), ns, "
	  "within the bucket's precision, clamped to [min, max]." },
	{ "buckets", hist_buckets, METH_NOARGS,
	  "buckets() -> Iterator[tuple[int, int, int]]\n\nThe non-empty buckets, increasing: "
	  "(lo, hi, count), lo and hi inclusive." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef hist_getset[] = {
	{ "count", hist_get_u64, NULL, "samples recorded", (void *)&get_count },
	{ "overflow", hist_get_u64, NULL, "samples above the range (2^36 ns)",
	  (void *)&get_overflow },
	{ "min", hist_get_u64, NULL, "smallest sample, ns (0 when empty)", (void *)&get_min },
	{ "max", hist_get_u64, NULL, "largest sample, ns", (void *)&get_max },
	{ "mean", hist_get_dbl, NULL, "mean, ns", (void *)&get_mean },
	{ "stddev", hist_get_dbl, NULL, "population standard deviation, ns",
	  (void *)&get_stddev },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_HistogramType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.Histogram",
	.tp_basicsize = sizeof(struct udrvpy_hist),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.Histogram.",
	.tp_new = hist_new,
	.tp_dealloc = hist_dealloc,
	.tp_methods = hist_methods,
	.tp_getset = hist_getset,
};

int udrvpy_hist_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_HistogramType) < 0)
		return -1;
	Py_INCREF(&udrvpy_HistogramType);
	return PyModule_AddObject(m, "Histogram", (PyObject *)&udrvpy_HistogramType);
}
