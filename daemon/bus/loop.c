// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's event loop (model/loop.h) on sd-event: its file descriptors,
 * its timer and its clock; the signals it stops and reloads on.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>

#include "bus_loop.h"

struct udrvd_io {
	sd_event_source *source;
	udrvd_io_fn *fn;
	void *data;
};

struct udrvd_timer {
	sd_event_source *source;
	udrvd_timer_fn *fn;
	void *data;
};

/* The loop is the sd_event itself: model/loop.h's handle of it. */
struct udrvd_loop *udrvd_loop_of(sd_event *event)
{
	return (struct udrvd_loop *)event;
}

static sd_event *event_of(struct udrvd_loop *loop)
{
	return (sd_event *)loop;
}

static int on_io(sd_event_source *s, int fd, uint32_t revents, void *data)
{
	struct udrvd_io *io = data;

	io->fn(io, fd, io->data);
	return 0;
}

int udrvd_io_add(struct udrvd_loop *loop, struct udrvd_io **out, int fd, bool own_fd,
		 udrvd_io_fn *fn, void *data)
{
	struct udrvd_io *io = calloc(1, sizeof(*io));
	int err;

	if (!io)
		return -ENOMEM;
	io->fn = fn;
	io->data = data;
	err = sd_event_add_io(event_of(loop), &io->source, fd, EPOLLIN, on_io, io);
	if (!err && own_fd)
		err = sd_event_source_set_io_fd_own(io->source, 1);
	if (err < 0) {
		sd_event_source_disable_unref(io->source);
		free(io);
		return err;
	}
	*out = io;
	return 0;
}

void udrvd_io_stop(struct udrvd_io *io)
{
	sd_event_source_set_enabled(io->source, SD_EVENT_OFF);
}

struct udrvd_io *udrvd_io_free(struct udrvd_io *io)
{
	if (io) {
		sd_event_source_disable_unref(io->source);
		free(io);
	}
	return NULL;
}

uint64_t udrvd_loop_now_us(struct udrvd_loop *loop)
{
	uint64_t now = 0;

	sd_event_now(event_of(loop), CLOCK_MONOTONIC, &now);
	return now;
}

static int on_time(sd_event_source *s, uint64_t usec, void *data)
{
	struct udrvd_timer *t = data;

	t->fn(t->data);
	return 0;
}

int udrvd_timer_add(struct udrvd_loop *loop, struct udrvd_timer **out, uint64_t due_us,
		    udrvd_timer_fn *fn, void *data)
{
	struct udrvd_timer *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return -ENOMEM;
	t->fn = fn;
	t->data = data;
	err = sd_event_add_time(event_of(loop), &t->source, CLOCK_MONOTONIC, due_us, 0, on_time, t);
	if (err < 0) {
		free(t);
		return err;
	}
	sd_event_source_set_enabled(t->source, SD_EVENT_ONESHOT);
	*out = t;
	return 0;
}

void udrvd_timer_set(struct udrvd_timer *t, uint64_t due_us)
{
	sd_event_source_set_time(t->source, due_us);
	sd_event_source_set_enabled(t->source, SD_EVENT_ONESHOT);
}

void udrvd_timer_off(struct udrvd_timer *t)
{
	sd_event_source_set_enabled(t->source, SD_EVENT_OFF);
}

bool udrvd_timer_pending(struct udrvd_timer *t)
{
	return sd_event_source_get_enabled(t->source, NULL) > 0;
}

struct udrvd_timer *udrvd_timer_free(struct udrvd_timer *t)
{
	if (t) {
		sd_event_source_unref(t->source);
		free(t);
	}
	return NULL;
}

/* ---- signals ---- */

struct hangup {
	void (*fn)(void *data);
	void *data;
};

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *data)
{
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int on_hangup(sd_event_source *s, const struct signalfd_siginfo *si, void *data)
{
	struct hangup *h = data;

	h->fn(h->data);
	return 0;
}

int udrvd_loop_signals(sd_event *event, void (*hangup)(void *data), void *data)
{
	static struct hangup h;		/* one loop a process: main()'s */
	sigset_t set;
	int r;

	h = (struct hangup){ hangup, data };
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	r = sd_event_add_signal(event, NULL, SIGTERM, on_signal, NULL);
	if (r >= 0)
		r = sd_event_add_signal(event, NULL, SIGINT, on_signal, NULL);
	if (r >= 0)
		r = sd_event_add_signal(event, NULL, SIGHUP, on_hangup, &h);
	return r;
}
