// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Request._respond(): libudrv's responder (udrv_responder_run()) with a
 * Python callback. The run holds no GIL while it waits; the trampoline
 * takes it for each call of the callback (and for the busy loop's ticks,
 * to take Python's signal handlers: Ctrl-C) and gives it back after. An
 * exception in the callback, or raised by a signal handler, stops the run
 * (the library puts every setting back) and propagates. It returns the
 * wake threads the run found, as it left them.
 *
 * With reply lines (udrv-irq's outputs) the callback answers by reply()
 * on the object it was given, the Request or, for Chip._respond() (every
 * line the helper's: udrv_responder_new_chip()), the Chip.
 */
#include "udrv_py.h"
#include "request.h"

#include <errno.h>
#include <string.h>

struct respond_ctx {
	PyObject *self;		/* the Request or Chip: the callback's first argument */
	PyObject *callback;
	PyThreadState *ts;
	bool raised;		/* an exception is set: stop with it */
};

/* The callback's answer: 1 stop (truthy), 0 go on, -1 an exception. */
static int call_back(struct respond_ctx *c, const struct udrv_edge_event *ev)
{
	PyObject *e, *res;
	int stop;

	if (!ev)	/* a busy loop's tick: only the signals */
		return PyErr_CheckSignals() < 0 ? -1 : 0;
	e = udrvpy_edge_event(ev);
	if (!e)
		return -1;
	res = PyObject_CallFunctionObjArgs(c->callback, c->self, e, NULL);
	Py_DECREF(e);
	if (!res)
		return -1;
	stop = PyObject_IsTrue(res);
	Py_DECREF(res);
	if (stop < 0 || PyErr_CheckSignals() < 0)
		return -1;
	return stop;
}

static int trampoline(struct udrv_request *req, const struct udrv_edge_event *ev,
		      void *data)
{
	struct respond_ctx *c = data;
	int ret;

	(void)req;
	PyEval_RestoreThread(c->ts);
	ret = call_back(c, ev);
	c->ts = PyEval_SaveThread();
	if (ret < 0) {
		c->raised = true;
		return -ECANCELED;
	}
	return ret;
}

/* A Python int into a config field of @lo..@hi (the library checks what
 * it means). */
static int field(PyObject *args, Py_ssize_t i, const char *name, long long lo,
		 long long hi, long long *v)
{
	return udrvpy_int_arg(PyTuple_GET_ITEM(args, i), name, lo, hi, v);
}

static const char *const names[] = {
	"in", "wait", "priority", "irq_priority", "flags", "cpu",
	"dma_latency_us", "prefault_stack", "busy_spin_us", "busy_pause_us",
};

/* args[11], the reply lines' offsets (a tuple), and args[12], reply_high */
static int replies_parse(PyObject *args, struct udrv_responder_config *c)
{
	PyObject *offs = PyTuple_GET_ITEM(args, 11);
	long long v;

	if (!PyTuple_Check(offs) || PyTuple_GET_SIZE(offs) > UDRV_RESPOND_REPLIES_MAX) {
		PyErr_Format(PyExc_ValueError, "replies: at most %d lines",
			     UDRV_RESPOND_REPLIES_MAX);
		return -1;
	}
	c->num_replies = (uint32_t)PyTuple_GET_SIZE(offs);
	for (uint32_t i = 0; i < c->num_replies; i++) {
		if (udrvpy_int_arg(PyTuple_GET_ITEM(offs, i), "a reply line", 0, UINT32_MAX,
				   &v) < 0)
			return -1;
		c->replies[i] = (uint32_t)v;
	}
	if (field(args, 12, "reply_high", 0, UINT32_MAX, &v) < 0)
		return -1;
	c->reply_high = (uint32_t)v;
	return 0;
}

static int config_parse(PyObject *args, struct udrv_responder_config *c)
{
	long long v[10];

	if (PyTuple_GET_SIZE(args) != 13) {
		PyErr_SetString(PyExc_TypeError, "_respond(callback, in, wait, priority, "
				"irq_priority, flags, cpu, dma_latency_us, prefault_stack, "
				"busy_spin_us, busy_pause_us, replies, reply_high)");
		return -1;
	}
	for (int i = 0; i < 10; i++) {
		bool sign = i == 2 || i == 3 || i == 5 || i == 6;

		if (field(args, i + 1, names[i], sign ? INT32_MIN : 0,
			  sign ? INT32_MAX : UINT32_MAX, &v[i]) < 0)
			return -1;
	}
	*c = (struct udrv_responder_config){
		.in = (unsigned int)v[0], .wait = (enum udrv_respond_wait)v[1],
		.priority = (int)v[2], .irq_priority = (int)v[3],
		.flags = (unsigned int)v[4], .cpu = (int)v[5],
		.dma_latency_us = (int32_t)v[6], .prefault_stack = (uint32_t)v[7],
		.busy_spin_us = (uint32_t)v[8], .busy_pause_us = (uint32_t)v[9],
	};
	return replies_parse(args, c);
}

/* The run, the GIL released, reply() allowed on @rp; what it returned. */
static int run(struct udrv_responder *r, const struct udrv_responder_config *cfg,
	       struct udrvpy_replies *rp, struct respond_ctx *c)
{
	int ret;

	rp->r = r;
	rp->n = cfg->num_replies;
	memcpy(rp->offsets, cfg->replies, sizeof(rp->offsets));
	c->ts = PyEval_SaveThread();
	ret = udrv_responder_run(r, trampoline, c);
	PyEval_RestoreThread(c->ts);
	rp->r = NULL;
	return ret;
}

PyObject *udrvpy_reply(struct udrvpy_replies *rp, PyObject *const *args, Py_ssize_t nargs)
{
	long long line;
	int high;

	if (nargs != 2)
		return PyErr_Format(PyExc_TypeError,
				    "reply(line, level) takes 2 arguments, not %zd", nargs);
	if (udrvpy_int_arg(args[0], "line", 0, UINT32_MAX, &line) < 0)
		return NULL;
	high = udrvpy_bool_arg(args[1], "level");
	if (high < 0)
		return NULL;
	if (!rp->r)
		return PyErr_Format(PyExc_RuntimeError,
				    "reply(): only from the callback of a respond() with replies");
	for (unsigned int i = 0; i < rp->n; i++) {
		if (rp->offsets[i] != (unsigned int)line)
			continue;
		if (udrv_responder_reply(rp->r, 1u << i, high ? 1u << i : 0) < 0)
			return udrvpy_raise(-EINVAL, udrv_responder_errmsg(rp->r));
		Py_RETURN_NONE;
	}
	return PyErr_Format(PyExc_ValueError, "reply(): line %lld is not a reply line of "
			    "this respond() (its replies=)", line);
}

/* The wake threads as the run left them: [(pid, name, policy, priority)] */
static PyObject *threads_list(const struct udrv_responder *r)
{
	struct udrv_rt_thread t[16];
	int n = udrv_responder_threads(r, t, 16);
	PyObject *res = PyList_New(n < 0 ? 0 : n > 16 ? 16 : n);

	for (int i = 0; res && i < PyList_GET_SIZE(res); i++) {
		/* a name is the thread's bytes: not always UTF-8 */
		PyObject *e = Py_BuildValue("(lNii)", (long)t[i].pid,
					    PyUnicode_DecodeFSDefault(t[i].name),
					    t[i].policy, t[i].priority);

		if (!e)
			Py_CLEAR(res);
		else
			PyList_SET_ITEM(res, i, e);
	}
	return res;
}

static PyObject *run_result(struct udrv_responder *r, struct respond_ctx *c,
			    int ret)
{
	if (c->raised)
		return NULL;
	if (ret < 0)
		return udrvpy_raise(ret, udrv_responder_errmsg(r));
	return threads_list(r);
}

/* the config and the callback of _respond(): 0, or -1 with an exception */
static int respond_args(PyObject *args, struct udrv_responder_config *cfg,
			struct respond_ctx *c)
{
	if (config_parse(args, cfg) < 0)
		return -1;
	c->callback = PyTuple_GET_ITEM(args, 0);
	if (PyCallable_Check(c->callback))
		return 0;
	PyErr_Format(PyExc_TypeError, "the callback must be callable, not %.100s",
		     Py_TYPE(c->callback)->tp_name);
	return -1;
}

PyObject *udrvpy_req_respond(PyObject *o, PyObject *args)
{
	struct udrvpy_request *self = REQ(o);
	struct respond_ctx c = { .self = o };
	struct udrv_responder_config cfg;
	struct udrv_responder *r;
	PyObject *res;
	int ret;

	if (!self->req)
		return udrvpy_req_released(self);
	if (respond_args(args, &cfg, &c) < 0)
		return NULL;
	if (self->busy)
		return udrvpy_req_busy();
	ret = udrv_responder_new(self->req, &cfg, &r);
	if (ret < 0)
		return udrvpy_req_error(self, ret);
	self->busy = 1;
	ret = run(r, &cfg, &self->replies, &c);
	self->busy = 0;
	res = run_result(r, &c, ret);
	udrv_responder_free(r);
	if (udrvpy_req_release_if_pending(self))
		Py_CLEAR(res);
	return res;
}

PyObject *udrvpy_chip_respond(PyObject *o, PyObject *args)
{
	struct udrvpy_chip *self = (struct udrvpy_chip *)o;
	struct respond_ctx c = { .self = o };
	struct udrv_responder_config cfg;
	struct udrv_responder *r;
	PyObject *res;
	int ret;

	if (!self->chip)
		return udrvpy_released("chip");
	if (respond_args(args, &cfg, &c) < 0)
		return NULL;
	if (self->replies.r)
		return PyErr_Format(PyExc_RuntimeError, "the chip responds already");
	ret = udrv_responder_new_chip(self->chip, &cfg, &r);
	if (ret < 0)
		return udrvpy_raise(ret, udrv_chip_errmsg(self->chip));
	self->busy++;	/* a close() meanwhile waits for the run */
	ret = run(r, &cfg, &self->replies, &c);
	self->busy--;
	res = run_result(r, &c, ret);
	udrv_responder_free(r);
	udrvpy_chip_close_pending(self);
	return res;
}
