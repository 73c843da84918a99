// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event reads and signals: a signal handler that runs while
 * udrv_request_read_events() blocks makes it return -EINTR (it used to
 * retry forever, so Ctrl-C could not stop a blocking event read). The
 * request's fd is a pipe that never delivers an event.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "backend.h"
#include "harness.h"

static volatile sig_atomic_t signals;
static int wake_fd = -1;

/* The first signal should end the read; if the library retries instead,
 * the second one unblocks it with a stray byte, so the test fails rather
 * than hangs. */
static void on_alarm(int sig)
{
	(void)sig;
	if (++signals == 2 && write(wake_fd, "x", 1) < 0)
		abort();
}

static struct udrv_request *pipe_request(const struct udrv_backend_ops *ops,
					 int *fds)
{
	struct udrv_request *req = calloc(1, sizeof(*req));

	CHECK(pipe(fds) == 0);
	req->ops = ops;
	req->fd = fds[0];
	req->num_lines = 1;
	strcpy(req->chip_name, "gpiochip0");
	return req;
}

static void test_cdev_read_interrupted(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { { 0, 200000 }, { 0, 50000 } };
	struct udrv_edge_event ev[4];
	struct udrv_request *req;
	int fds[2];

	req = pipe_request(&udrv_cdev_ops, fds);
	wake_fd = fds[1];
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	CHECK_INT(udrv_request_read_events(req, ev, 4), -EINTR);
	CHECK_CONTAINS(udrv_request_errmsg(req), "interrupted by a signal");
	CHECK_INT(signals, 1);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	close(fds[0]);
	close(fds[1]);
	free(req);
}

UDRV_TESTS(UDRV_T(test_cdev_read_interrupted))
