// SPDX-License-Identifier: GPL-2.0-only
/*
 * A responder: copy an input line's edges to an output line, COUNT times
 * or until Ctrl-C, the way libudrv sets it up for real time:
 *
 *   1. request the input with edge detection (both edges) and the output,
 *      under a consumer name of its own: the kernel names the input's
 *      interrupt handler after it, and that is how libudrv finds the irq
 *      thread ("irq/N-udrv-responder") that wakes the responder
 *   2. udrv_responder_run(): on PREEMPT_RT the irq thread goes to
 *      SCHED_FIFO PRIO+1 first (on a standard kernel it is left as it is),
 *      then this thread to SCHED_FIFO PRIO, with its memory locked;
 *      each edge calls answer(), which writes the new level to the output
 *   3. when it returns (COUNT edges, Ctrl-C, an error) every setting is
 *      back as it was: this thread's scheduling and memory lock, the irq
 *      thread's priority
 *
 * Wire OUT of a board to IN of another (or of the same, to measure): on
 * the lab's gpio-wire, lines 4->5 and 6->7 are wired, so
 *   udrv-responder gpiochip1 5 6 80      answers each edge on 4 at 7.
 *
 * Usage: udrv-responder CHIP IN OUT [PRIO [COUNT]]  (PRIO 0: SCHED_OTHER;
 *        default 80; COUNT 0: until Ctrl-C)
 * Build: cc responder.c $(pkg-config --cflags --libs libudrv)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

struct answer {
	unsigned long count;	/* 0: for ever */
	unsigned long seen;
};

/* The hot path: one write per edge, the level the edge says. */
static int answer(struct udrv_request *req, const struct udrv_edge_event *ev,
		  void *data)
{
	struct answer *a = data;
	int ret = udrv_request_set_value(req, 1, ev->edge == UDRV_EDGE_RISING);

	if (ret)
		return ret;
	a->seen++;
	return a->count && a->seen >= a->count;
}

static void on_signal(int sig)
{
	(void)sig;	/* the blocked read() returns EINTR: run returns -EINTR */
}

static int request(const char *chip_name, unsigned int in, unsigned int out,
		   struct udrv_request **req)
{
	const unsigned int offsets[] = { in, out };
	const struct udrv_line_settings settings[] = {
		{ .direction = UDRV_DIR_INPUT, .edge = UDRV_EDGE_BOTH },
		{ .direction = UDRV_DIR_OUTPUT },
	};
	const struct udrv_request_config config = { .consumer = "udrv-responder" };
	struct udrv_chip *chip = udrv_chip_new();
	int ret;

	if (!chip)
		return -ENOMEM;
	ret = udrv_chip_open(chip, chip_name);
	if (!ret)
		ret = udrv_chip_request(chip, &config, 2, offsets, settings, req);
	if (ret)
		fprintf(stderr, "udrv-responder: %s\n", udrv_chip_errmsg(chip));
	udrv_chip_free(chip);	/* the request stays valid */
	return ret;
}

static void show_threads(const struct udrv_responder *r)
{
	struct udrv_rt_thread t[8];
	int n = udrv_responder_threads(r, t, 8);

	for (int i = 0; i < n && i < 8; i++)
		printf("wake thread %s (pid %d): back at %s %d\n", t[i].name,
		       (int)t[i].pid, udrv_rt_policy_str(t[i].policy),
		       t[i].priority);
	if (!n)
		printf("no wake thread found (a hard interrupt, or no /sys/kernel/irq)\n");
}

static int respond(struct udrv_request *req, int prio, unsigned long count)
{
	struct udrv_responder_config cfg = {
		.in = 0, .wait = UDRV_RESPOND_READ, .priority = prio,
		.flags = prio ? UDRV_RESPOND_LOCK_MEMORY : 0,
	};
	struct answer a = { .count = count };
	struct udrv_responder *r;
	int ret = udrv_responder_new(req, &cfg, &r);

	if (ret)
		return fprintf(stderr, "udrv-responder: %s\n",
			       udrv_request_errmsg(req)), ret;
	ret = udrv_responder_run(r, answer, &a);
	if (ret && ret != -EINTR)
		fprintf(stderr, "udrv-responder: %s\n", udrv_responder_errmsg(r));
	printf("answered %lu edges\n", a.seen);
	show_threads(r);
	udrv_responder_free(r);
	return ret == -EINTR ? 0 : ret;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct udrv_request *req;
	int ret;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: udrv-responder CHIP IN OUT [PRIO [COUNT]]\n");
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = request(argv[1], (unsigned int)strtoul(argv[2], NULL, 0),
		      (unsigned int)strtoul(argv[3], NULL, 0), &req);
	if (ret)
		return 1;
	ret = respond(req, argc > 4 ? atoi(argv[4]) : 80,
		      argc > 5 ? strtoul(argv[5], NULL, 0) : 0);
	udrv_request_release(req);
	return ret ? 1 : 0;
}
