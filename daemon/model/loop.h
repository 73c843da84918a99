/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd's event loop as its parts use it, plain C: file descriptors read
 * when readable, a timer, the loop's clock. bus/loop.c runs it on
 * sd-event (the loop is the sd_event udrvd and its bus are attached to).
 */
#ifndef UDRVD_LOOP_H
#define UDRVD_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct udrvd_loop;
struct udrvd_io;
struct udrvd_timer;

/* @fd is readable (or in error): read it. */
typedef void udrvd_io_fn(struct udrvd_io *io, int fd, void *data);
typedef void udrvd_timer_fn(void *data);

/* Call @fn(@data) whenever @fd is readable, from now on; with @own_fd the
 * loop closes @fd when the watch is freed (not when this fails). 0 or a
 * negative errno (nothing watched). */
int udrvd_io_add(struct udrvd_loop *loop, struct udrvd_io **out, int fd, bool own_fd,
		 udrvd_io_fn *fn, void *data);
/* No more calls (the fd stays as it is). */
void udrvd_io_stop(struct udrvd_io *io);
/* Stopped and freed (NULL: nothing); NULL. */
struct udrvd_io *udrvd_io_free(struct udrvd_io *io);

/* Now, on the loop's clock (CLOCK_MONOTONIC, in us). */
uint64_t udrvd_loop_now_us(struct udrvd_loop *loop);
/* Call @fn(@data) once, at @due_us on the loop's clock; 0 or a negative
 * errno. udrvd_timer_set(): due again, once, at @due_us. */
int udrvd_timer_add(struct udrvd_loop *loop, struct udrvd_timer **out, uint64_t due_us,
		    udrvd_timer_fn *fn, void *data);
void udrvd_timer_set(struct udrvd_timer *t, uint64_t due_us);
void udrvd_timer_off(struct udrvd_timer *t);
/* Is @t due (set and not yet called)? */
bool udrvd_timer_pending(struct udrvd_timer *t);
struct udrvd_timer *udrvd_timer_free(struct udrvd_timer *t);

#endif /* UDRVD_LOOP_H */
