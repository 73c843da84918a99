/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Request object, shared by request.c (the request, its values) and
 * request_events.c (its edge events: fileno, waits, reads).
 */
#ifndef UDRVPY_REQUEST_H
#define UDRVPY_REQUEST_H

#include "udrv_py.h"

struct udrvpy_soft_pwm;

struct udrvpy_request {
	PyObject_HEAD
	struct udrv_request *req;	/* NULL once released */
	PyObject *chip;			/* the Chip: kept alive */
	PyObject *names;		/* dict name -> index, or NULL */
	PyObject *offsets;		/* tuple of int */
	unsigned char *index_of;	/* offset -> index + 1, 0: not requested */
	size_t index_len;
	size_t n;
	int busy;			/* a thread is blocked in a wait or read */
	bool release_pending;		/* release() came while busy */
	bool pending;			/* the last wait found events, no read since */
	struct udrvpy_soft_pwm *pwms;	/* the SoftPWMs on its lines (soft_pwm.c) */
	struct udrvpy_replies replies;	/* respond() running with reply lines */
	char chip_name[32];
};

#define REQ(o)	((struct udrvpy_request *)(o))

/* request.c */
PyObject *udrvpy_req_released(struct udrvpy_request *self);	/* ValueError */
PyObject *udrvpy_req_error(struct udrvpy_request *self, int ret);
PyObject *udrvpy_req_busy(void);	/* RuntimeError: one blocking call at a time */
/* after a blocking call: a release() that came meanwhile; 1 (and a
 * ValueError unless an exception is set) when it did */
int udrvpy_req_release_if_pending(struct udrvpy_request *self);
/* a line (offset or name as requested) -> its index; -1 with an exception */
Py_ssize_t udrvpy_req_line_index(struct udrvpy_request *self, PyObject *line);

/* request_events.c: the methods and the getter of edge events */
PyObject *udrvpy_req_fileno(PyObject *o, PyObject *unused);
PyObject *udrvpy_req_wait_edge_events(PyObject *o, PyObject *args, PyObject *kw);
PyObject *udrvpy_req_read_edge_events(PyObject *o, PyObject *args, PyObject *kw);
PyObject *udrvpy_req_get_lost(PyObject *o, void *unused);

/* respond.c: _respond(), libudrv's responder with a Python callback */
PyObject *udrvpy_req_respond(PyObject *o, PyObject *args);

/*
 * soft_pwm.c: the SoftPWMs of a request. Before its release: each one
 * stopped (its line left inactive) and closed, as the library wants the
 * request to outlive its PWMs; running: whether one runs (a reconfigure
 * waits for none).
 */
void udrvpy_soft_pwms_close(struct udrvpy_request *req);
bool udrvpy_soft_pwms_running(struct udrvpy_request *req);

#endif /* UDRVPY_REQUEST_H */
