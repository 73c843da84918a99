// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SoftPWM: the library's software PWM (struct udrv_soft_pwm) on a line of
 * a Request, its own thread driving the line. The SoftPWM keeps its
 * Request alive, and the Request lists its SoftPWMs (request.h): its
 * release() stops and closes them first (the library's PWM must not
 * outlive its request), its reconfigure refuses while one runs. One
 * thread at a time uses the handle (struct udrvpy_busy); start() and
 * stop() wait for the PWM's thread with the GIL released (a stop lets the
 * pulse under way end). The package's udrv.SoftPWM subclasses it
 * (frequency, duty_cycle, polarity as udrv.Polarity, stats, the servo
 * helpers).
 */
#include "udrv_py.h"
#include "request.h"

#include <errno.h>
#include <sched.h>

struct udrvpy_soft_pwm {
	PyObject_HEAD
	struct udrv_soft_pwm *spwm;	/* NULL once closed */
	struct udrvpy_request *request;	/* kept alive while open */
	struct udrvpy_soft_pwm *next;	/* in request->pwms */
	struct udrvpy_busy busy;	/* held by the thread using spwm */
	size_t idx;			/* the line's index in the request */
	unsigned int offset;
};

#define SPWM(o)	((struct udrvpy_soft_pwm *)(o))
#define WHAT	"SoftPWM"
#define ATTR(a)	((void *)(uintptr_t)(a))

static int spwm_begin(struct udrvpy_soft_pwm *self)
{
	udrvpy_hold(&self->busy);
	return udrvpy_taken(&self->busy, self->spwm, WHAT);
}

/* Give the handle back; @ret < 0: raise the library's error first */
static int spwm_end(struct udrvpy_soft_pwm *self, int ret)
{
	if (ret < 0)
		udrvpy_raise(ret, udrv_soft_pwm_errmsg(self->spwm));
	udrvpy_give(&self->busy);
	return ret < 0 ? -1 : 0;
}

/* ---- on the request's list ---- */

static void unlink_pwm(struct udrvpy_soft_pwm *self)
{
	struct udrvpy_soft_pwm **p;

	if (!self->request)
		return;
	for (p = &self->request->pwms; *p; p = &(*p)->next) {
		if (*p == self) {
			*p = self->next;
			break;
		}
	}
	self->next = NULL;
}

/* Stop (the GIL released: the pulse under way ends) and free the
 * library's PWM; the caller holds @self's busy. The Request returned, to
 * be let go once the handle is given back. */
static struct udrvpy_request *spwm_free(struct udrvpy_soft_pwm *self)
{
	struct udrv_soft_pwm *spwm = self->spwm;
	struct udrvpy_request *req;

	if (!spwm)
		return NULL;
	unlink_pwm(self);
	self->spwm = NULL;
	Py_BEGIN_ALLOW_THREADS
	udrv_soft_pwm_free(spwm);
	Py_END_ALLOW_THREADS
	req = self->request;
	self->request = NULL;
	return req;
}

static void spwm_close_held(struct udrvpy_soft_pwm *self)
{
	struct udrvpy_request *req;

	udrvpy_hold(&self->busy);	/* after another thread's call */
	req = spwm_free(self);
	udrvpy_give(&self->busy);
	Py_XDECREF(req);
}

void udrvpy_soft_pwms_close(struct udrvpy_request *req)
{
	struct udrvpy_soft_pwm *p;

	while ((p = req->pwms)) {
		Py_INCREF(p);
		unlink_pwm(p);
		spwm_close_held(p);
		Py_DECREF(p);
	}
}

bool udrvpy_soft_pwms_running(struct udrvpy_request *req)
{
	for (struct udrvpy_soft_pwm *p = req->pwms; p; p = p->next)
		if (p->busy.busy || (p->spwm && udrv_soft_pwm_running(p->spwm) == 1))
			return true;
	return false;
}

/* ---- made, closed ---- */

struct spwm_args {
	PyObject *request, *line, *priority, *cpu, *lock, *tail, *late;
};

static int config_parse(const struct spwm_args *a, struct udrv_soft_pwm_config *c)
{
	unsigned long long tail, late;
	int lock;

	*c = (struct udrv_soft_pwm_config){ 0 };
	if (udrvpy_not_bool(a->priority, "priority") < 0 ||
	    udrvpy_int_arg_int(a->priority, "priority", 0, 99, &c->priority) < 0)
		return -1;
	if (a->cpu != Py_None) {
		if (udrvpy_not_bool(a->cpu, "cpu") < 0 ||
		    udrvpy_int_arg_int(a->cpu, "cpu", 0, CPU_SETSIZE - 1, &c->cpu) < 0)
			return -1;
		c->flags |= UDRV_SOFT_PWM_PIN_CPU;
	}
	lock = udrvpy_bool_arg(a->lock, "lock_memory");
	if (lock < 0)
		return -1;
	if (lock)
		c->flags |= UDRV_SOFT_PWM_LOCK_MEMORY;
	if (udrvpy_not_bool(a->tail, "tail_ns") < 0 ||
	    udrvpy_uint_arg(a->tail, "tail_ns", UDRV_SOFT_PWM_TAIL_MAX_NS, &tail) < 0 ||
	    udrvpy_not_bool(a->late, "late_ns") < 0 ||
	    udrvpy_uint_arg(a->late, "late_ns", UINT32_MAX, &late) < 0)
		return -1;
	c->tail_ns = (uint32_t)tail;
	c->late_ns = (uint32_t)late;
	return 0;
}

/* BusyError when a SoftPWM of @req drives line @idx already */
static int line_free(struct udrvpy_request *req, size_t idx, PyObject *line)
{
	char msg[160];

	for (struct udrvpy_soft_pwm *p = req->pwms; p; p = p->next) {
		if (p->idx != idx)
			continue;
		snprintf(msg, sizeof(msg), "line %u of %s has a SoftPWM already: close() it first",
			 p->offset, req->chip_name);
		udrvpy_raise(-EBUSY, msg);
		return -1;
	}
	return 0;
}

static int spwm_make(struct udrvpy_soft_pwm *self, struct udrvpy_request *req,
		     PyObject *line, const struct udrv_soft_pwm_config *cfg)
{
	Py_ssize_t idx;
	int ret;

	if (!req->req) {
		udrvpy_req_released(req);
		return -1;
	}
	idx = udrvpy_req_line_index(req, line);
	if (idx < 0 || line_free(req, (size_t)idx, line) < 0)
		return -1;
	ret = udrv_soft_pwm_new(req->req, (size_t)idx, cfg, &self->spwm);
	if (ret < 0) {
		udrvpy_req_error(req, ret);
		return -1;
	}
	self->idx = (size_t)idx;
	self->offset = (unsigned int)PyLong_AsUnsignedLong(
		PyTuple_GET_ITEM(req->offsets, idx));
	Py_INCREF(req);
	self->request = req;
	self->next = req->pwms;
	req->pwms = self;
	return 0;
}

/* SoftPWM(request, line, *, priority=0, cpu=None, lock_memory=False,
 * tail_ns=0, late_ns=0) */
static PyObject *spwm_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "request", "line", "priority", "cpu", "lock_memory",
				  "tail_ns", "late_ns", NULL };
	PyObject *zero = PyLong_FromLong(0);
	struct spwm_args a = { .cpu = Py_None, .lock = Py_False };
	struct udrv_soft_pwm_config cfg;
	struct udrvpy_soft_pwm *self = NULL;

	if (!zero)
		return NULL;
	a.priority = a.tail = a.late = zero;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|$OOOOO:SoftPWM", kwlist,
					 &udrvpy_RequestType, &a.request, &a.line, &a.priority,
					 &a.cpu, &a.lock, &a.tail, &a.late) ||
	    config_parse(&a, &cfg) < 0)
		goto out;
	self = (struct udrvpy_soft_pwm *)cls->tp_alloc(cls, 0);
	if (self && (udrvpy_busy_init(&self->busy) < 0 ||
		     spwm_make(self, REQ(a.request), a.line, &cfg) < 0))
		Py_CLEAR(self);
out:
	Py_DECREF(zero);
	return (PyObject *)self;
}

static void spwm_dealloc(PyObject *o)
{
	/* open: its request holds it in its list, not a reference; the
	 * SoftPWM holds the request, which is alive */
	Py_XDECREF(spwm_free(SPWM(o)));
	udrvpy_busy_free(&SPWM(o)->busy);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *spwm_close(PyObject *o, PyObject *unused)
{
	spwm_close_held(SPWM(o));
	Py_RETURN_NONE;
}

static PyObject *spwm_enter(PyObject *o, PyObject *unused)
{
	if (!SPWM(o)->spwm)
		return udrvpy_released(WHAT);
	Py_INCREF(o);
	return o;
}

static PyObject *spwm_exit(PyObject *o, PyObject *args)
{
	return spwm_close(o, NULL);
}

static PyObject *spwm_repr(PyObject *o)
{
	struct udrvpy_soft_pwm *self = SPWM(o);

	if (!self->spwm)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	return PyUnicode_FromFormat("<%s on line %u of %s>", Py_TYPE(o)->tp_name,
				    self->offset, self->request->chip_name);
}

/* ---- start, stop: the GIL released while the thread starts or ends ---- */

static PyObject *spwm_switch(struct udrvpy_soft_pwm *self, bool start)
{
	int ret;

	if (spwm_begin(self) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = start ? udrv_soft_pwm_start(self->spwm) : udrv_soft_pwm_stop(self->spwm);
	Py_END_ALLOW_THREADS
	if (spwm_end(self, ret) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *spwm_start(PyObject *o, PyObject *unused)
{
	return spwm_switch(SPWM(o), true);
}

static PyObject *spwm_stop(PyObject *o, PyObject *unused)
{
	return spwm_switch(SPWM(o), false);
}

static PyObject *spwm_get_running(PyObject *o, void *unused)
{
	int ret;

	if (spwm_begin(SPWM(o)) < 0)
		return NULL;
	ret = udrv_soft_pwm_running(SPWM(o)->spwm);
	if (spwm_end(SPWM(o), ret) < 0)
		return NULL;
	return PyBool_FromLong(ret);
}

/* _stats() -> (periods, missed, skipped, edges, worst_late_ns) */
static PyObject *spwm_stats(PyObject *o, PyObject *unused)
{
	struct udrv_soft_pwm_stats st;
	int ret;

	if (spwm_begin(SPWM(o)) < 0)
		return NULL;
	ret = udrv_soft_pwm_stats(SPWM(o)->spwm, &st);
	if (spwm_end(SPWM(o), ret) < 0)
		return NULL;
	return Py_BuildValue("KKKKK", (unsigned long long)st.periods,
			     (unsigned long long)st.missed, (unsigned long long)st.skipped,
			     (unsigned long long)st.edges, (unsigned long long)st.worst_late_ns);
}

/* ---- the waveform (a mutex with the thread: the GIL held) ---- */

enum spwm_attr { PERIOD, DUTY };

static PyObject *spwm_get_ns(PyObject *o, void *closure)
{
	uint64_t ns = 0;
	int ret;

	if (spwm_begin(SPWM(o)) < 0)
		return NULL;
	ret = closure == ATTR(PERIOD) ? udrv_soft_pwm_period_ns(SPWM(o)->spwm, &ns) :
	      udrv_soft_pwm_duty_ns(SPWM(o)->spwm, &ns);
	if (spwm_end(SPWM(o), ret) < 0)
		return NULL;
	return PyLong_FromUnsignedLongLong(ns);
}

static int spwm_set_ns(PyObject *o, PyObject *value, void *closure)
{
	const char *name = closure == ATTR(PERIOD) ? "period_ns" : "duty_ns";
	uint64_t ns, duty = 0;
	int ret;

	if (udrvpy_no_delete(value, name) < 0 || udrvpy_ns_arg(value, name, &ns) < 0 ||
	    spwm_begin(SPWM(o)) < 0)
		return -1;
	if (closure == ATTR(DUTY)) {
		ret = udrv_soft_pwm_set_duty_ns(SPWM(o)->spwm, ns);
	} else {
		/* the duty cycle as it is, when it fits the new period */
		udrv_soft_pwm_duty_ns(SPWM(o)->spwm, &duty);
		ret = udrv_soft_pwm_set_config(SPWM(o)->spwm, ns, duty <= ns ? duty : ns);
	}
	return spwm_end(SPWM(o), ret);
}

static PyObject *spwm_set_config(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	uint64_t period, duty;
	int ret;

	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError,
			     "set_config(period_ns, duty_ns) takes 2 arguments, not %zd", nargs);
		return NULL;
	}
	if (udrvpy_ns_arg(args[0], "period_ns", &period) < 0 ||
	    udrvpy_ns_arg(args[1], "duty_ns", &duty) < 0 || spwm_begin(SPWM(o)) < 0)
		return NULL;
	ret = udrv_soft_pwm_set_config(SPWM(o)->spwm, period, duty);
	if (spwm_end(SPWM(o), ret) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *spwm_get_polarity(PyObject *o, void *unused)
{
	enum udrv_pwm_polarity pol = UDRV_PWM_POLARITY_NORMAL;
	int ret;

	if (spwm_begin(SPWM(o)) < 0)
		return NULL;
	ret = udrv_soft_pwm_polarity(SPWM(o)->spwm, &pol);
	if (spwm_end(SPWM(o), ret) < 0)
		return NULL;
	return PyLong_FromLong((long)pol);
}

static int spwm_set_polarity(PyObject *o, PyObject *value, void *unused)
{
	int pol, ret;

	if (udrvpy_no_delete(value, "polarity") < 0 || udrvpy_not_bool(value, "polarity") < 0 ||
	    udrvpy_int_arg_int(value, "polarity", 0, 1, &pol) < 0 || spwm_begin(SPWM(o)) < 0)
		return -1;
	ret = udrv_soft_pwm_set_polarity(SPWM(o)->spwm, (enum udrv_pwm_polarity)pol);
	return spwm_end(SPWM(o), ret);
}

static PyObject *spwm_get_line(PyObject *o, void *unused)
{
	if (!SPWM(o)->spwm)
		return udrvpy_released(WHAT);
	return PyLong_FromUnsignedLong(SPWM(o)->offset);
}

static PyObject *spwm_get_request(PyObject *o, void *unused)
{
	if (!SPWM(o)->spwm)
		return udrvpy_released(WHAT);
	Py_INCREF(SPWM(o)->request);
	return (PyObject *)SPWM(o)->request;
}

static PyObject *spwm_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!SPWM(o)->spwm);
}

static PyMethodDef spwm_methods[] = {
	{ "close", spwm_close, METH_NOARGS,
	  "close() -> None\n\nStop it (the line left inactive) and let the request go. "
	  "Idempotent." },
	{ "__enter__", spwm_enter, METH_NOARGS, NULL },
	{ "__exit__", spwm_exit, METH_VARARGS, NULL },
	{ "start", spwm_start, METH_NOARGS,
	  "start() -> None\n\nStart its thread: returns once the first period's level is "
	  "driven (the GIL released meanwhile)." },
	{ "stop", spwm_stop, METH_NOARGS,
	  "stop() -> None\n\nLet the pulse under way end, leave the line inactive, end the "
	  "thread (the GIL released meanwhile); raises the error the thread ended on." },
	{ "set_config", UDRVPY_METH(spwm_set_config), METH_FASTCALL,
	  "set_config(period_ns: int, duty_ns: int) -> None\n\nThe period and duty cycle, "
	  "from the next period boundary while it runs." },
	{ "_stats", spwm_stats, METH_NOARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef spwm_getset[] = {
	{ "period_ns", spwm_get_ns, spwm_set_ns,
	  "the period in ns, 10000..60000000000 (the duty cycle kept, or cut to it)",
	  ATTR(PERIOD) },
	{ "duty_ns", spwm_get_ns, spwm_set_ns, "the duty cycle in ns, up to the period",
	  ATTR(DUTY) },
	{ "_polarity", spwm_get_polarity, spwm_set_polarity, NULL, NULL },
	{ "running", spwm_get_running, NULL,
	  "whether its thread runs (udrv.Error: the thread ended on that error)", NULL },
	{ "line", spwm_get_line, NULL, "the line's offset", NULL },
	{ "request", spwm_get_request, NULL, "the Request whose line it drives", NULL },
	{ "closed", spwm_get_closed, NULL, "whether close() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_SoftPWMType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.SoftPWM",
	.tp_basicsize = sizeof(struct udrvpy_soft_pwm),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.SoftPWM.",
	.tp_new = spwm_new,
	.tp_dealloc = spwm_dealloc,
	.tp_repr = spwm_repr,
	.tp_methods = spwm_methods,
	.tp_getset = spwm_getset,
};

int udrvpy_soft_pwm_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_SoftPWMType) < 0)
		return -1;
	Py_INCREF(&udrvpy_SoftPWMType);
	return PyModule_AddObject(m, "SoftPWM", (PyObject *)&udrvpy_SoftPWMType);
}
