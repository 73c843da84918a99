// SPDX-License-Identifier: GPL-2.0-only
/*
 * Edge-event waits and reads, on a request whose file descriptor is a pipe:
 * the cdev backend's read path (whole events, sequence-number gaps), a
 * signal that breaks a blocking read or wait (-EINTR, the handler installed
 * without SA_RESTART), and a device that went away (end of file, POLLHUP:
 * -ENODEV with the one "device is gone" message naming the chip).
 *
 * The request is built by hand around the backend's ops (lib/gpio/backend.h):
 * no GPIO chip is needed, and the pipe's write end plays the kernel.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"

#define PRIV_BYTES	65536	/* zeroed, larger than any backend's state */

struct fake_req {
	struct udrv_request req;
	int wfd;		/* the pipe's write end: the "kernel" */
};

static void fake_req_init(struct fake_req *f,
			  const struct udrv_backend_ops *ops)
{
	int p[2];

	memset(f, 0, sizeof(*f));
	alarm(10);		/* a wait that never ends: killed, failed */
	CHECK_INT(pipe(p), 0);
	f->req.ops = ops;
	f->req.fd = p[0];
	f->wfd = p[1];
	f->req.num_lines = 2;
	f->req.offsets[0] = 4;
	f->req.offsets[1] = 6;
	f->req.priv = calloc(1, PRIV_BYTES);
	strcpy(f->req.chip_name, "gpiochip7");
	strcpy(f->req.chip_label, "fake-wire");
	strcpy(f->req.chip_path, "/dev/gpiochip7");
}

static void fake_req_free(struct fake_req *f)
{
	close(f->req.fd);
	if (f->wfd >= 0)
		close(f->wfd);
	free(f->req.priv);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- a helper thread: a signal to the test, then an event ----------- */

static void on_usr1(int sig)
{
	(void)sig;
}

/* SIGUSR1's handler without SA_RESTART, as a program that stops on it. */
static void handle_usr1(int flags)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

struct poke {
	pthread_t target;
	int wfd;		/* -1: no event afterwards */
	int signal_ms;
	int event_ms;
};

static void *poker(void *arg)
{
	struct poke *p = arg;

	usleep((useconds_t)p->signal_ms * 1000);
	if (p->signal_ms)
		pthread_kill(p->target, SIGUSR1);
	usleep((useconds_t)(p->event_ms - p->signal_ms) * 1000);
	/* unblocks a read that retried the signal: the test fails, not hangs */
	if (p->wfd >= 0)
		fake_gpio_event(p->wfd, 4, 1);
	return NULL;
}

static void poke_start(pthread_t *t, struct poke *p, int wfd, int signal_ms,
		       int event_ms)
{
	*p = (struct poke){ .target = pthread_self(), .wfd = wfd,
			    .signal_ms = signal_ms, .event_ms = event_ms };
	pthread_create(t, NULL, poker, p);
}

/* ---- reads ---------------------------------------------------------- */

static void test_read_whole_events_and_gaps(void)
{
	struct udrv_edge_event ev[4];
	struct fake_req f;

	fake_req_init(&f, &udrv_cdev_ops);
	fake_gpio_event(f.wfd, 4, 1);
	fake_gpio_event(f.wfd, 6, 3);	/* seqno 2 was dropped */
	CHECK_INT(udrv_request_read_events(&f.req, ev, 4), 2);
	CHECK_INT(ev[0].index, 0);
	CHECK_INT(ev[0].lost, 0);
	CHECK_INT(ev[1].index, 1);
	CHECK_INT(ev[1].offset, 6);
	CHECK_INT(ev[1].lost, 1);
	CHECK_INT(udrv_request_lost_events(&f.req), 1);
	fake_req_free(&f);
}

/* The bug this guards against: an EINTR was retried, so Ctrl-C could not
 * stop a program blocked in udrv_request_read_events(). */
static void test_read_interrupted_by_signal(void)
{
	struct udrv_edge_event ev[4];
	struct fake_req f;
	struct poke p;
	pthread_t t;
	int n;

	fake_req_init(&f, &udrv_cdev_ops);
	handle_usr1(0);
	poke_start(&t, &p, f.wfd, 100, 1500);
	n = udrv_request_read_events(&f.req, ev, 4);
	CHECK_INT(n, -EINTR);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req),
		       "reading gpiochip7 events: interrupted by a signal");
	pthread_join(t, NULL);
	/* the event that came afterwards is still there */
	if (n == -EINTR)
		CHECK_INT(udrv_request_read_events(&f.req, ev, 4), 1);
	fake_req_free(&f);
}

/* With SA_RESTART the kernel restarts the read: the event is what returns. */
static void test_read_restarted_with_sa_restart(void)
{
	struct udrv_edge_event ev[4];
	struct fake_req f;
	struct poke p;
	pthread_t t;

	fake_req_init(&f, &udrv_cdev_ops);
	handle_usr1(SA_RESTART);
	poke_start(&t, &p, f.wfd, 50, 200);
	CHECK_INT(udrv_request_read_events(&f.req, ev, 4), 1);
	pthread_join(t, NULL);
	fake_req_free(&f);
}

static void test_read_end_of_file_is_device_gone(void)
{
	struct udrv_edge_event ev[4];
	struct fake_req f;

	fake_req_init(&f, &udrv_cdev_ops);
	close(f.wfd);
	f.wfd = -1;
	CHECK_INT(udrv_request_read_events(&f.req, ev, 4), -ENODEV);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req),
		       "/dev/gpiochip7 (fake-wire): the device is gone (driver unloaded or unbound): read of edge events returned end of file");
	fake_req_free(&f);
}

/* The sysfs backend's read waits in epoll_wait(): the same -EINTR. */
static void test_sysfs_read_interrupted_by_signal(void)
{
	struct udrv_edge_event ev[4];
	struct fake_req f;
	struct poke p;
	pthread_t t;
	int pipe_fd;

	fake_req_init(&f, &udrv_sysfs_ops);
	pipe_fd = f.req.fd;
	f.req.fd = epoll_create1(EPOLL_CLOEXEC);	/* watches nothing */
	handle_usr1(0);
	alarm(3);		/* the read retried forever: killed, failed */
	poke_start(&t, &p, -1, 100, 100);
	CHECK_INT(udrv_request_read_events(&f.req, ev, 4), -EINTR);
	alarm(0);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req), "interrupted by a signal");
	pthread_join(t, NULL);
	close(pipe_fd);
	fake_req_free(&f);
}

/* ---- waits ---------------------------------------------------------- */

static void test_wait_pending_and_timeout(void)
{
	struct fake_req f;
	uint64_t t0, ms;

	fake_req_init(&f, &udrv_cdev_ops);
	CHECK_INT(udrv_request_wait_events(&f.req, 0), 0);
	/* longer than one re-poll slice (250 ms): the timeout still holds */
	t0 = now_ms();
	CHECK_INT(udrv_request_wait_events(&f.req, 600), 0);
	ms = now_ms() - t0;
	CHECK(ms >= 600 && ms < 1500);
	fake_gpio_event(f.wfd, 4, 1);
	CHECK_INT(udrv_request_wait_events(&f.req, -1), 1);
	fake_req_free(&f);
}

/* An event that comes after a few re-poll slices wakes a wait forever. */
static void test_wait_forever_across_slices(void)
{
	struct fake_req f;
	struct poke p;
	pthread_t t;

	fake_req_init(&f, &udrv_cdev_ops);
	poke_start(&t, &p, f.wfd, 0, 700);
	CHECK_INT(udrv_request_wait_events(&f.req, -1), 1);
	pthread_join(t, NULL);
	fake_req_free(&f);
}

static void test_wait_interrupted_by_signal(void)
{
	struct fake_req f;
	struct poke p;
	pthread_t t;

	fake_req_init(&f, &udrv_cdev_ops);
	handle_usr1(SA_RESTART);	/* poll() is never restarted */
	poke_start(&t, &p, f.wfd, 400, 1500);
	CHECK_INT(udrv_request_wait_events(&f.req, -1), -EINTR);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req), "interrupted by a signal");
	pthread_join(t, NULL);
	fake_req_free(&f);
}

static void test_wait_hangup_is_device_gone(void)
{
	struct fake_req f;

	fake_req_init(&f, &udrv_cdev_ops);
	close(f.wfd);		/* an empty pipe without writers: POLLHUP */
	f.wfd = -1;
	CHECK_INT(udrv_request_wait_events(&f.req, -1), -ENODEV);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req),
		       "/dev/gpiochip7 (fake-wire): the device is gone (driver unloaded or unbound): poll reports POLLHUP");
	fake_req_free(&f);
}

static void test_wait_closed_fd(void)
{
	struct fake_req f;
	int fd;

	fake_req_init(&f, &udrv_cdev_ops);
	fd = f.req.fd;
	close(fd);		/* POLLNVAL: not a device that went away */
	CHECK_INT(udrv_request_wait_events(&f.req, 100), -EBADF);
	CHECK_CONTAINS(udrv_request_errmsg(&f.req), "not open");
	f.req.fd = dup(f.wfd);	/* something for fake_req_free() to close */
	fake_req_free(&f);
}

UDRV_TESTS(UDRV_T(test_read_whole_events_and_gaps),
	   UDRV_T(test_read_interrupted_by_signal),
	   UDRV_T(test_read_restarted_with_sa_restart),
	   UDRV_T(test_read_end_of_file_is_device_gone),
	   UDRV_T(test_sysfs_read_interrupted_by_signal),
	   UDRV_T(test_wait_pending_and_timeout),
	   UDRV_T(test_wait_forever_across_slices),
	   UDRV_T(test_wait_interrupted_by_signal),
	   UDRV_T(test_wait_hangup_is_device_gone),
	   UDRV_T(test_wait_closed_fd))
