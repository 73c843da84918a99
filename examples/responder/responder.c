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
 * With --irq both lines are the toolkit's kernel helper udrv-irq's
 * (modprobe udrv-irq; package udrv-irq-dkms): it takes IN's interrupt in
 * hard irq context, wakes this thread with no irq thread on the way, and
 * writes OUT, the reply line, in the same system call that waits for the
 * next edge; there is no request (udrv_responder_new_chip()) and answer()
 * replies with udrv_responder_reply().
 *
 * Wire OUT of a board to IN of another (or of the same, to measure): on
 * the lab's gpio-wire, lines 4->5 and 6->7 are wired, so
 *   udrv-responder gpiochip1 5 6 80      answers each edge on 4 at 7.
 *
 * Usage: udrv-responder [--irq] CHIP IN OUT [PRIO [COUNT]]  (PRIO 0:
 *        SCHED_OTHER; default 80; COUNT 0: until Ctrl-C)
 * Build: cc responder.c $(pkg-config --cflags --libs libudrv)
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

struct answer {
	unsigned int count;	/* 0: for ever */
	unsigned int seen;
	struct udrv_responder *r;	/* --irq: the reply goes through it */
};

/* The hot path: one write per edge, the level the edge says: by the
 * request, or with --irq as the reply the helper writes when this returns. */
static int answer(struct udrv_request *req, const struct udrv_edge_event *ev,
		  void *data)
{
	struct answer *a = data;
	int high = ev->edge == UDRV_EDGE_RISING;
	int ret = req ? udrv_request_set_value(req, 1, high) :
			udrv_responder_reply(a->r, 1, high ? 1 : 0);

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

static int run(struct udrv_responder *r, unsigned int count)
{
	struct answer a = { .count = count, .r = r };
	int ret = udrv_responder_run(r, answer, &a);

	if (ret && ret != -EINTR)
		fprintf(stderr, "udrv-responder: %s\n", udrv_responder_errmsg(r));
	printf("answered %u edges\n", a.seen);
	show_threads(r);
	udrv_responder_free(r);
	return ret == -EINTR ? 0 : ret;
}

static int respond(struct udrv_request *req, int prio, unsigned int count)
{
	struct udrv_responder_config cfg = {
		.in = 0, .wait = UDRV_RESPOND_READ, .priority = prio,
		.flags = prio ? UDRV_RESPOND_LOCK_MEMORY : 0,
	};
	struct udrv_responder *r;
	int ret = udrv_responder_new(req, &cfg, &r);

	if (ret)
		return fprintf(stderr, "udrv-responder: %s\n",
			       udrv_request_errmsg(req)), ret;
	return run(r, count);
}

/* --irq: IN and OUT the helper's, OUT first low; no request. */
static int respond_irq(const char *chip_name, unsigned int in, unsigned int out,
		       int prio, unsigned int count)
{
	struct udrv_responder_config cfg = {
		.in = in, .wait = UDRV_RESPOND_IRQ_LINE, .priority = prio,
		.flags = prio ? UDRV_RESPOND_LOCK_MEMORY : 0,
		.num_replies = 1, .replies = { out },
	};
	struct udrv_chip *chip = udrv_chip_new();
	struct udrv_responder *r = NULL;
	int ret;

	if (!chip)
		return -ENOMEM;
	ret = udrv_chip_open(chip, chip_name);
	if (!ret)
		ret = udrv_responder_new_chip(chip, &cfg, &r);
	if (ret)
		fprintf(stderr, "udrv-responder: %s\n", udrv_chip_errmsg(chip));
	udrv_chip_free(chip);	/* the responder keeps the chip's name */
	return ret ? ret : run(r, count);
}

/* A number of the command line, strictly: exit status 2 for a bad one. */
static int number(const char *what, const char *s, unsigned int max, unsigned int *v)
{
	if (!udrv_parse_uint(s, max, v))
		return 0;
	fprintf(stderr, "udrv-responder: %s '%s': a number from 0 to %u\n", what, s, max);
	return -1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	unsigned int in, out, prio = 80, count = 0;
	struct udrv_request *req;
	int irq = argc > 1 && !strcmp(argv[1], "--irq");
	int ret;

	argc -= irq;
	argv += irq;
	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: udrv-responder [--irq] CHIP IN OUT [PRIO [COUNT]]\n");
		return 2;
	}
	if (number("IN", argv[2], UINT32_MAX, &in) || number("OUT", argv[3], UINT32_MAX, &out) ||
	    (argc > 4 && number("PRIO", argv[4], 99, &prio)) ||
	    (argc > 5 && number("COUNT", argv[5], UINT32_MAX, &count)))
		return 2;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (irq)
		return respond_irq(argv[1], in, out, (int)prio, count) ? 1 : 0;
	ret = request(argv[1], in, out, &req);
	if (ret)
		return 1;
	ret = respond(req, (int)prio, count);
	udrv_request_release(req);
	return ret ? 1 : 0;
}
