// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * EdgeEvent and UioIrq: immutable records made in C for every event (struct
 * sequences: attribute access, tuple unpacking, no Python code per event),
 * and the Edge enum's members that EdgeEvent.edge holds (set by the
 * package at import: udrv._udrv._set_edge_enum()).
 */
#include "udrv_py.h"

PyTypeObject *udrvpy_EdgeEventType;
PyTypeObject *udrvpy_UioIrqType;

/* Edge.NONE .. Edge.BOTH, or NULL: plain ints until the package sets them */
static PyObject *edge_members[4];

static PyStructSequence_Field edge_event_fields[] = {
	{ "timestamp_ns", "the line's event clock (Clock), ns" },
	{ "edge", "Edge.RISING or Edge.FALLING" },
	{ "offset", "the line's offset on the chip" },
	{ "seqno", "request-wide sequence number" },
	{ "line_seqno", "the line's sequence number" },
	{ "index", "the line's index in the request" },
	{ "lost", "events lost just before this one" },
	{ NULL, NULL }
};

static PyStructSequence_Desc edge_event_desc = {
	"udrv.EdgeEvent",
	"An edge on a requested line (Request.read_edge_events()). Immutable; "
	"fields by name or position.",
	edge_event_fields, 7,
};

static PyStructSequence_Field uio_irq_fields[] = {
	{ "count", "the kernel's total interrupt count" },
	{ "delta", "interrupts since the previous wait" },
	{ "missed", "delta - 1: interrupts nobody saw" },
	{ NULL, NULL }
};

static PyStructSequence_Desc uio_irq_desc = {
	"udrv.UioIrq",
	"The outcome of a UIO interrupt wait (Uio.wait()). Immutable.",
	uio_irq_fields, 3,
};

static PyObject *edge_obj(enum udrv_edge edge)
{
	unsigned int e = (unsigned int)edge;

	if (e < 4 && edge_members[e]) {
		Py_INCREF(edge_members[e]);
		return edge_members[e];
	}
	return PyLong_FromLong((long)e);
}

PyObject *udrvpy_edge_event(const struct udrv_edge_event *ev)
{
	PyObject *o = PyStructSequence_New(udrvpy_EdgeEventType);
	PyObject *v[7];

	if (!o)
		return NULL;
	v[0] = PyLong_FromUnsignedLongLong(ev->timestamp_ns);
	v[1] = edge_obj(ev->edge);
	v[2] = PyLong_FromUnsignedLong(ev->offset);
	v[3] = PyLong_FromUnsignedLong(ev->seqno);
	v[4] = PyLong_FromUnsignedLong(ev->line_seqno);
	v[5] = PyLong_FromUnsignedLong(ev->index);
	v[6] = PyLong_FromUnsignedLong(ev->lost);
	for (int i = 0; i < 7; i++) {
		if (!v[i]) {
			for (int j = i + 1; j < 7; j++)
				Py_XDECREF(v[j]);
			Py_DECREF(o);
			return NULL;
		}
		PyStructSequence_SET_ITEM(o, i, v[i]);
	}
	return o;
}

PyObject *udrvpy_uio_irq(const struct udrv_uio_irq *irq)
{
	PyObject *o = PyStructSequence_New(udrvpy_UioIrqType);
	PyObject *v[3];

	if (!o)
		return NULL;
	v[0] = PyLong_FromUnsignedLong(irq->count);
	v[1] = PyLong_FromUnsignedLong(irq->delta);
	v[2] = PyLong_FromUnsignedLong(irq->missed);
	for (int i = 0; i < 3; i++) {
		if (!v[i]) {
			for (int j = i + 1; j < 3; j++)
				Py_XDECREF(v[j]);
			Py_DECREF(o);
			return NULL;
		}
		PyStructSequence_SET_ITEM(o, i, v[i]);
	}
	return o;
}

static PyObject *set_edge_enum(PyObject *mod, PyObject *cls)
{
	PyObject *members[4];

	for (long i = 0; i < 4; i++) {
		members[i] = PyObject_CallFunction(cls, "l", i);
		if (!members[i]) {
			while (i--)
				Py_DECREF(members[i]);
			return NULL;
		}
	}
	for (int i = 0; i < 4; i++)
		Py_XSETREF(edge_members[i], members[i]);
	Py_RETURN_NONE;
}

static PyMethodDef events_methods[] = {
	{ "_set_edge_enum", set_edge_enum, METH_O,
	  "_set_edge_enum(Edge): the enum whose members EdgeEvent.edge holds." },
	{ NULL, NULL, 0, NULL }
};

int udrvpy_events_init(PyObject *m)
{
	udrvpy_EdgeEventType = PyStructSequence_NewType(&edge_event_desc);
	udrvpy_UioIrqType = PyStructSequence_NewType(&uio_irq_desc);
	if (!udrvpy_EdgeEventType || !udrvpy_UioIrqType)
		return -1;
	Py_INCREF(udrvpy_EdgeEventType);
	Py_INCREF(udrvpy_UioIrqType);
	if (PyModule_AddObject(m, "EdgeEvent", (PyObject *)udrvpy_EdgeEventType) < 0 ||
	    PyModule_AddObject(m, "UioIrq", (PyObject *)udrvpy_UioIrqType) < 0)
		return -1;
	return PyModule_AddFunctions(m, events_methods);
}
