// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A Request's edge events: fileno() for selectors and asyncio, waits and
 * reads. Blocking calls release the GIL and poll in slices of SLICE_MS, so
 * that a signal (Ctrl-C) raises its exception and a release() from another
 * thread takes effect within a slice.
 */
#include "udrv_py.h"
#include "request.h"

#include <errno.h>
#include <time.h>

#define SLICE_MS	200
#define EVENTS_STACK	64

PyObject *udrvpy_req_fileno(PyObject *o, PyObject *unused)
{
	if (!REQ(o)->req)
		return udrvpy_req_released(REQ(o));
	return PyLong_FromLong(udrv_request_fd(REQ(o)->req));
}

long long udrvpy_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait up to @ms (-1: forever) in slices, the GIL released in each: 1
 * events pending, 0 timeout, -1 with an exception (a signal's, an error,
 * released from another thread).
 */
static int wait_sliced(struct udrvpy_request *self, long long ms)
{
	long long end = ms > 0 ? udrvpy_now_ms() + ms : 0;
	struct udrv_request *req = self->req;
	int ret;

	if (self->busy) {
		udrvpy_req_busy();
		return -1;
	}
	self->busy = 1;
	for (;;) {
		int slice = ms < 0 || ms > SLICE_MS ? SLICE_MS : (int)ms;

		Py_BEGIN_ALLOW_THREADS
		ret = udrv_request_wait_events(req, slice);
		Py_END_ALLOW_THREADS
		if (self->release_pending)
			break;
		if (ret != 0)
			break;
		if (PyErr_CheckSignals() < 0) {
			self->busy = 0;
			return -1;
		}
		if (ms == 0 || (ms > 0 && (ms = end - udrvpy_now_ms()) <= 0))
			break;
	}
	self->busy = 0;
	if (udrvpy_req_release_if_pending(self))
		return -1;
	if (ret < 0) {
		udrvpy_req_error(self, ret);
		return -1;
	}
	self->pending = ret > 0;
	return ret;
}

PyObject *udrvpy_req_wait_edge_events(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "timeout", NULL };
	PyObject *timeout = Py_None;
	long long ms;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:wait_edge_events", kwlist, &timeout))
		return NULL;
	if (!REQ(o)->req)
		return udrvpy_req_released(REQ(o));
	if (udrvpy_timeout_ms(timeout, &ms) < 0)
		return NULL;
	ret = wait_sliced(REQ(o), ms);
	if (ret < 0)
		return NULL;
	return PyBool_FromLong(ret);
}

static PyObject *events_list(const struct udrv_edge_event *ev, int n)
{
	PyObject *res = PyList_New(n);

	for (int i = 0; res && i < n; i++) {
		PyObject *e = udrvpy_edge_event(&ev[i]);

		if (!e) {
			Py_CLEAR(res);
			break;
		}
		PyList_SET_ITEM(res, i, e);
	}
	return res;
}

/* up to @max events; first waits (in slices) for some unless a wait just
 * found them */
static PyObject *read_events(struct udrvpy_request *self, Py_ssize_t max)
{
	struct udrv_edge_event stack[EVENTS_STACK], *buf = stack;
	PyObject *res;
	int ret;

	if (!self->req)
		return udrvpy_req_released(self);
	/* a wait that found events pending and no read since: read them
	 * without polling again (wait, then read: one poll, one read) */
	if (!self->pending && wait_sliced(self, -1) < 0)
		return NULL;
	self->pending = false;
	if (self->busy)
		return udrvpy_req_busy();
	if (max > EVENTS_STACK) {
		buf = PyMem_Calloc((size_t)max, sizeof(*buf));
		if (!buf)
			return PyErr_NoMemory();
	}
	self->busy = 1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_request_read_events(self->req, buf, (size_t)max);
	Py_END_ALLOW_THREADS
	self->busy = 0;
	if (ret < 0)
		res = udrvpy_req_error(self, ret);
	else
		res = events_list(buf, ret);
	if (buf != stack)
		PyMem_Free(buf);
	if (udrvpy_req_release_if_pending(self))
		Py_CLEAR(res);
	return res;
}

PyObject *udrvpy_req_read_edge_events(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "max_events", NULL };
	PyObject *max_arg = NULL;
	long long max = EVENTS_STACK;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:read_edge_events", kwlist, &max_arg) ||
	    (max_arg && udrvpy_int_arg(max_arg, "max_events", 1, 65536, &max) < 0))
		return NULL;
	return read_events(REQ(o), (Py_ssize_t)max);
}

PyObject *udrvpy_req_get_lost(PyObject *o, void *unused)
{
	if (!REQ(o)->req)
		return udrvpy_req_released(REQ(o));
	return PyLong_FromUnsignedLongLong(udrv_request_lost_events(REQ(o)->req));
}
