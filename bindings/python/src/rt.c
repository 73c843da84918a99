// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Rt: scheduling, locked memory, CPU affinity and /dev/cpu_dma_latency for
 * the calling thread (struct udrv_rt); and the module functions of the
 * readiness report: _rt_check, _rt_threads, rt_find_irq. The package wraps
 * the tuples into RtState, RtReport, RtThread.
 */
#include "udrv_py.h"

#include <errno.h>
#include <string.h>

struct udrvpy_rt {
	PyObject_HEAD
	struct udrv_rt *rt;		/* NULL once closed */
};

#define RT(o)	((struct udrvpy_rt *)(o))

static int rt_ok(struct udrvpy_rt *self)
{
	if (self->rt)
		return 1;
	udrvpy_released("Rt handle");
	return 0;
}

static PyObject *rt_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { NULL };
	struct udrvpy_rt *self;

	if (!PyArg_ParseTupleAndKeywords(args, kw, ":Rt", kwlist))
		return NULL;
	self = (struct udrvpy_rt *)cls->tp_alloc(cls, 0);
	if (!self)
		return NULL;
	self->rt = udrv_rt_new();
	if (!self->rt) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void rt_free(struct udrvpy_rt *self)
{
	if (self->rt) {
		udrv_rt_free(self->rt);
		self->rt = NULL;
	}
}

static void rt_dealloc(PyObject *o)
{
	rt_free(RT(o));
	Py_TYPE(o)->tp_free(o);
}

static PyObject *rt_close(PyObject *o, PyObject *unused)
{
	rt_free(RT(o));
	Py_RETURN_NONE;
}

static PyObject *rt_enter(PyObject *o, PyObject *unused)
{
	if (!rt_ok(RT(o)))
		return NULL;
	Py_INCREF(o);
	return o;
}

static PyObject *rt_exit(PyObject *o, PyObject *args)
{
	return rt_close(o, NULL);
}

static PyObject *rt_result(struct udrvpy_rt *self, int ret)
{
	if (ret < 0)
		return udrvpy_raise(ret, udrv_rt_errmsg(self->rt));
	Py_RETURN_NONE;
}

static PyObject *rt_set_scheduler(PyObject *o, PyObject *args)
{
	PyObject *policy_arg, *prio_arg;
	int policy, prio;

	if (!PyArg_ParseTuple(args, "OO:set_scheduler", &policy_arg, &prio_arg) ||
	    udrvpy_int_arg_int(policy_arg, "policy", INT_MIN, INT_MAX, &policy) < 0 ||
	    udrvpy_int_arg_int(prio_arg, "priority", INT_MIN, INT_MAX, &prio) < 0 ||
	    !rt_ok(RT(o)))
		return NULL;
	return rt_result(RT(o), udrv_rt_set_scheduler(RT(o)->rt, policy, prio));
}

static PyObject *rt_lock_memory(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "stack_bytes", NULL };
	PyObject *stack_arg = NULL;
	unsigned long long stack = 0;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:lock_memory", kwlist, &stack_arg) ||
	    (stack_arg && udrvpy_uint_arg(stack_arg, "stack_bytes", SIZE_MAX, &stack) < 0) ||
	    !rt_ok(RT(o)))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_rt_lock_memory(RT(o)->rt, (size_t)stack);
	Py_END_ALLOW_THREADS
	return rt_result(RT(o), ret);
}

static PyObject *rt_set_cpu(PyObject *o, PyObject *arg)
{
	int cpu;

	if (udrvpy_int_arg_int(arg, "cpu", INT_MIN, INT_MAX, &cpu) < 0 || !rt_ok(RT(o)))
		return NULL;
	return rt_result(RT(o), udrv_rt_set_cpu(RT(o)->rt, cpu));
}

static PyObject *rt_hold_dma_latency(PyObject *o, PyObject *arg)
{
	int us;

	if (udrvpy_int_arg_int(arg, "us", INT_MIN, INT_MAX, &us) < 0 || !rt_ok(RT(o)))
		return NULL;
	return rt_result(RT(o), udrv_rt_hold_dma_latency(RT(o)->rt, us));
}

/* _state() -> (policy, priority, memory_locked, cpu, dma_latency_us) */
static PyObject *rt_state(PyObject *o, PyObject *unused)
{
	struct udrv_rt_state st;

	if (!rt_ok(RT(o)))
		return NULL;
	memset(&st, 0, sizeof(st));
	udrv_rt_get_state(RT(o)->rt, &st);
	return Py_BuildValue("(iiNii)", st.policy, st.priority,
			     PyBool_FromLong(st.memory_locked), st.cpu, (int)st.dma_latency_us);
}

static PyMethodDef rt_methods[] = {
	{ "set_scheduler", rt_set_scheduler, METH_VARARGS,
	  "set_scheduler(policy: Policy | int, priority: int) -> None\n\n"
	  "SCHED_FIFO or SCHED_RR at 1..99, or SCHED_OTHER at 0, for the calling thread." },
	{ "lock_memory", UDRVPY_METH(rt_lock_memory), METH_VARARGS | METH_KEYWORDS,
	  "lock_memory(stack_bytes: int = 0) -> None\n\n"
	  "mlockall(MCL_CURRENT | MCL_FUTURE) and prefault stack_bytes (at most 512 KiB)." },
	{ "set_cpu", rt_set_cpu, METH_O,
	  "set_cpu(cpu: int) -> None\n\nPin the calling thread to one CPU." },
	{ "hold_dma_latency", rt_hold_dma_latency, METH_O,
	  "hold_dma_latency(us: int) -> None\n\n"
	  "Keep /dev/cpu_dma_latency at us until close()." },
	{ "_state", rt_state, METH_NOARGS, NULL },
	{ "close", rt_close, METH_NOARGS,
	  "close() -> None\n\nDrop the /dev/cpu_dma_latency hold (scheduling, affinity and "
	  "locked memory stay in force). Idempotent." },
	{ "__enter__", rt_enter, METH_NOARGS, NULL },
	{ "__exit__", rt_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject udrvpy_RtType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.Rt",
	.tp_basicsize = sizeof(struct udrvpy_rt),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.Rt.",
	.tp_new = rt_new,
	.tp_dealloc = rt_dealloc,
	.tp_methods = rt_methods,
};

/* ---- the readiness report ---- */

static PyObject *report_tuple(const struct udrv_rt_report *r)
{
	PyObject *findings = PyTuple_New((Py_ssize_t)r->num_findings);

	for (size_t i = 0; findings && i < r->num_findings; i++) {
		const struct udrv_rt_finding *f = &r->findings[i];
		/* the text may quote a thread's name (bytes, not always UTF-8) */
		PyObject *t = Py_BuildValue("(isN)", (int)f->level, f->topic,
					    PyUnicode_DecodeFSDefault(f->text));

		if (!t) {
			Py_CLEAR(findings);
			break;
		}
		PyTuple_SET_ITEM(findings, (Py_ssize_t)i, t);
	}
	if (!findings)
		return NULL;
	return Py_BuildValue("(sssNllssssiiiNN)", r->release, r->version, r->preempt_model,
			     PyBool_FromLong(r->realtime), r->rt_runtime_us, r->rt_period_us,
			     r->governor, r->clocksource, r->isolcpus, r->nohz_full,
			     r->irq_threads, r->irq_thread_prio_min, r->irq_thread_prio_max,
			     PyBool_FromLong(r->can_rt), findings);
}

/* _rt_check(priority: int | None, prefixes: tuple[str, ...]) -> tuple */
static PyObject *rt_check(PyObject *mod, PyObject *args)
{
	const char *prefixes[16];
	struct udrv_rt_report *r;
	PyObject *prio, *pre, *res = NULL;
	Py_ssize_t n;
	int ret;

	if (!PyArg_ParseTuple(args, "OO!:_rt_check", &prio, &PyTuple_Type, &pre))
		return NULL;
	n = PyTuple_GET_SIZE(pre);
	if (n > (Py_ssize_t)(sizeof(prefixes) / sizeof(prefixes[0]))) {
		PyErr_SetString(PyExc_ValueError, "at most 16 prefixes");
		return NULL;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		prefixes[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pre, i));
		if (!prefixes[i])
			return NULL;
	}
	r = PyMem_Calloc(1, sizeof(*r));
	if (!r)
		return PyErr_NoMemory();
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_rt_check(r);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		udrvpy_raise(ret, "the real-time readiness check failed");
		goto out;
	}
	if (prio != Py_None) {
		int p;

		if (udrvpy_int_arg_int(prio, "priority", INT_MIN, INT_MAX, &p) < 0)
			goto out;
		ret = udrv_rt_check_priority(r, p, prefixes, (size_t)n);
		if (ret < 0) {
			udrvpy_raise(ret, "priority must be a SCHED_FIFO priority, 1..99");
			goto out;
		}
	}
	res = report_tuple(r);
out:
	PyMem_Free(r);
	return res;
}

/* _rt_threads(prefix) -> [(pid, name, policy, priority)] */
static PyObject *rt_threads(PyObject *mod, PyObject *arg)
{
	struct udrv_rt_thread *t = NULL;
	const char *prefix = PyUnicode_AsUTF8(arg);
	PyObject *res;
	int n, max = 0;

	if (!prefix)
		return NULL;
	for (;;) {
		Py_BEGIN_ALLOW_THREADS
		n = udrv_rt_threads(prefix, t, (size_t)max);
		Py_END_ALLOW_THREADS
		if (n < 0) {
			PyMem_Free(t);
			return udrvpy_raise(n, *prefix ? "cannot list the threads in /proc" :
					    "the prefix must not be empty");
		}
		if (n <= max)
			break;
		max = n + 8;	/* threads come and go: some room */
		PyMem_Free(t);
		t = PyMem_Calloc((size_t)max, sizeof(*t));
		if (!t)
			return PyErr_NoMemory();
	}
	res = PyList_New(n);
	for (int i = 0; res && i < n; i++) {
		/* a name is the thread's bytes: not always UTF-8 */
		PyObject *e = Py_BuildValue("(lNii)", (long)t[i].pid,
					    PyUnicode_DecodeFSDefault(t[i].name),
					    t[i].policy, t[i].priority);

		if (!e) {
			Py_CLEAR(res);
			break;
		}
		PyList_SET_ITEM(res, i, e);
	}
	PyMem_Free(t);
	return res;
}

static PyObject *rt_find_irq(PyObject *mod, PyObject *args)
{
	unsigned long long hwirq;
	unsigned int irq = 0;
	const char *action;
	PyObject *hwirq_arg;
	char msg[256];
	int ret;

	if (!PyArg_ParseTuple(args, "sO:rt_find_irq", &action, &hwirq_arg) ||
	    udrvpy_uint_arg(hwirq_arg, "hwirq", ULONG_MAX, &hwirq) < 0)
		return NULL;
	ret = udrv_rt_find_irq(action, (unsigned long)hwirq, &irq);
	if (ret < 0) {
		snprintf(msg, sizeof(msg), ret == -ENOTUNIQ ?
			 "two interrupts have a handler \"%s\" with hwirq %llu: use a unique consumer name" :
			 "no interrupt has a handler \"%s\" with hwirq %llu (no edge detection on the line, or no /sys/kernel/irq)",
			 action, hwirq);
		return udrvpy_raise(ret, msg);
	}
	return PyLong_FromUnsignedLong(irq);
}

static PyMethodDef rt_functions[] = {
	{ "_rt_check", rt_check, METH_VARARGS, NULL },
	{ "_rt_threads", rt_threads, METH_O, NULL },
	{ "rt_find_irq", rt_find_irq, METH_VARARGS,
	  "rt_find_irq(action: str, hwirq: int) -> int\n\n"
	  "The Linux interrupt number of a GPIO line with edge detection: the one whose "
	  "handlers include action (the request's consumer) and whose hwirq is the line's "
	  "offset. NotFoundError when none, Error (ENOTUNIQ) when two match." },
	{ NULL, NULL, 0, NULL }
};

int udrvpy_rt_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_RtType) < 0)
		return -1;
	Py_INCREF(&udrvpy_RtType);
	if (PyModule_AddObject(m, "Rt", (PyObject *)&udrvpy_RtType) < 0)
		return -1;
	return PyModule_AddFunctions(m, rt_functions);
}
