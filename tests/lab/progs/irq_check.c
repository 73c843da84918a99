// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq-check: exercise the toolkit's kernel helper udrv-irq
 * (kernel/udrv-irq, /dev/udrv-irq) in the lab through its uapi, and print
 * what happened as lines for tests/lab/test_udrv_irq.py:
 *
 *   edge K seqno S level L flags F late_ns D   after each of COUNT toggles
 *                                        of OUT (D: the handler's timestamp
 *                                        minus the time just before the write)
 *   check NAME ERRNO                     a misuse and the errno it got
 *                                        (0: it worked)
 *   holder NAME LABEL                    the holder a refused bind named
 *   consumer LABEL                       IN's consumer while bound
 *   version V                            what a bind of another version got back
 *   message TEXT                         libudrv's responder's error for
 *                                        IN+2 held by another process
 *
 * OUT is wired to IN (gpio-wire's lines 2k -> 2k+1). The process requests
 * OUT as an output through libudrv; the helper requests IN itself. A child
 * process holds IN+2 (consumer "irq-check-other"), this process IN-2 with
 * edge detection: both refused, naming the holder.
 *
 * udrv-irq-check CHIP OUT IN unbind: bind IN, print "bound PID", block in
 * read() and print "read-after-gone ERRNO" when it returns (the test
 * unbinds the chip's driver meanwhile), then close and print "closed".
 *
 * udrv-irq-check CHIP OUT IN reply: a responder through UDRV_IRQ_SET. The
 * file holds IN and the output IN+1 (wired to IN+2, which this process
 * watches through a character-device request); a child toggles OUT every
 * 2 ms, REPLIES times; each edge of IN is answered with the opposite level
 * on IN+1 by the call that then waits for the next edge. Prints
 *   output-high LEVEL                    IN+2 after a bind with UDRV_IRQ_HIGH
 *   check NAME ERRNO                     the misuses of outputs and UDRV_IRQ_SET
 *   reply K level L seqno S write_after_wake_ns W wire_after_wake_ns D wire_level V
 *                                        per edge: the helper's write time and
 *                                        the edge the wire saw on IN+2, after
 *                                        this process's own time taken when
 *                                        the wait returned (before it decided)
 *
 * Usage: udrv-irq-check CHIP OUT IN COUNT|unbind|reply
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include <udrv/udrv-irq.h>

#define EDGES	(UDRV_IRQ_RISING | UDRV_IRQ_FALLING)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* UDRV_IRQ_BIND_LINE of line @off; the errno, @b as the module left it */
static int bind_into(int fd, const char *chip, unsigned int off,
		     unsigned int flags, struct udrv_irq_line *b)
{
	*b = (struct udrv_irq_line){ .version = UDRV_IRQ_VERSION,
				     .size = sizeof(*b), .offset = off,
				     .flags = flags };
	snprintf(b->chip, sizeof(b->chip), "%s", chip);
	return ioctl(fd, UDRV_IRQ_BIND_LINE, b) ? errno : 0;
}

static int bind_line(int fd, const char *chip, unsigned int off,
		     unsigned int flags)
{
	struct udrv_irq_line b;

	return bind_into(fd, chip, off, flags, &b);
}

static void check(const char *name, int err)
{
	printf("check %s %d\n", name, err);
}

/* A bind of a line someone holds: EBUSY and the holder's label. */
static void check_held_as(const char *name, int fd, const char *chip,
			  unsigned int off, unsigned int flags)
{
	struct udrv_irq_line b;

	check(name, bind_into(fd, chip, off, flags, &b));
	printf("holder %s %s\n", name, b.holder[0] ? b.holder : "-");
}

static void check_held(const char *name, int fd, const char *chip,
		       unsigned int off)
{
	check_held_as(name, fd, chip, off, UDRV_IRQ_INPUT | EDGES);
}

static int open_dev(void)
{
	int fd = open(UDRV_IRQ_DEVICE, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("udrv-irq-check: " UDRV_IRQ_DEVICE);
		exit(1);
	}
	return fd;
}

static struct udrv_request *request(struct udrv_chip *chip, unsigned int off,
				    const char *consumer,
				    enum udrv_direction dir, enum udrv_edge edge)
{
	struct udrv_request_config cfg = { .consumer = consumer };
	struct udrv_line_settings s = { .direction = dir, .edge = edge };
	struct udrv_request *req = NULL;

	if (udrv_chip_request(chip, &cfg, 1, &off, &s, &req)) {
		fprintf(stderr, "udrv-irq-check: line %u: %s\n", off,
			udrv_chip_errmsg(chip));
		exit(1);
	}
	return req;
}

/* COUNT toggles of OUT, one event read after each. */
static int edges(int fd, struct udrv_request *req, unsigned int count)
{
	struct udrv_irq_event ev;

	for (unsigned int k = 1; k <= count; k++) {
		uint64_t t = now_ns();

		if (udrv_request_set_value(req, 0, (int)(k & 1)) ||
		    read(fd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev)) {
			fprintf(stderr, "udrv-irq-check: edge %u: %s\n", k,
				strerror(errno));
			return 1;
		}
		printf("edge %u seqno %u level %d flags %u late_ns %lld\n", k,
		       ev.seqno, ev.level, ev.flags,
		       (long long)(ev.timestamp_ns - t));
	}
	return 0;
}

/* A child holds line @off (a character-device request of another
 * process) until @ctl's write end closes; returns its pid. */
static pid_t other_holds(const char *chip_name, unsigned int off, int ctl[2])
{
	char one;
	pid_t pid;

	if (pipe(ctl) || (pid = fork()) < 0) {
		perror("udrv-irq-check: fork");
		exit(1);
	}
	if (!pid) {
		struct udrv_chip *chip = udrv_chip_new();

		close(ctl[0]);
		if (!chip || udrv_chip_open(chip, chip_name))
			_exit(1);
		request(chip, off, "irq-check-other", UDRV_DIR_INPUT,
			UDRV_EDGE_NONE);
		if (write(ctl[1], "h", 1) != 1)
			_exit(1);
		pause();	/* until killed */
		_exit(0);
	}
	close(ctl[1]);
	if (read(ctl[0], &one, 1) != 1) {
		fprintf(stderr, "udrv-irq-check: the holder of line %u did not start\n", off);
		exit(1);
	}
	return pid;
}

static void on_alarm(int sig)
{
	(void)sig;	/* only to end a read that would block for good */
}

/* The state letter of @pid ('S': asleep, interruptibly), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %c", &st) != 1)
			st = 0;
		fclose(f);
	}
	return st;
}

/*
 * One thread waits at a time: while a child (the same open file) sleeps in
 * read(), a second read() is EBUSY, at once (a helper that let it wait
 * would block it: SIGALRM ends it after 5 s, EINTR, and the check fails).
 */
static void check_second_waiter(int fd)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct udrv_irq_event ev;
	pid_t pid = fork();
	char st = 0;
	int err;

	if (pid == 0) {
		_exit(read(fd, &ev, sizeof(ev)) < 0);
	}
	for (int i = 0; i < 5000 && st != 'S'; i++) {
		st = proc_state(pid);
		if (st != 'S')
			usleep(1000);
	}
	sigaction(SIGALRM, &sa, NULL);
	alarm(5);
	err = st != 'S' ? ETIMEDOUT : read(fd, &ev, sizeof(ev)) < 0 ? errno : 0;
	alarm(0);
	check("second-waiter", err);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* What the helper refuses, each with its errno. */
static void misuses(int fd, struct udrv_chip *chip, const char *label,
		    unsigned int in)
{
	struct udrv_irq_bind_v1 v1 = { .offset = in, .flags = 3 };
	struct udrv_request *edged;
	struct udrv_irq_line b;
	struct udrv_irq_event ev;
	int other = open_dev(), ctl[2];
	pid_t holder;
	char small[4];

	fcntl(fd, F_SETFL, O_NONBLOCK);
	check("nonblock-nothing-new", read(fd, &ev, sizeof(ev)) < 0 ? errno : 0);
	fcntl(fd, F_SETFL, 0);
	check("short-buffer", read(fd, small, sizeof(small)) < 0 ? errno : 0);
	check_second_waiter(fd);
	check("bind-twice", bind_line(fd, label, in, UDRV_IRQ_INPUT | EDGES));
	check("read-unbound", read(other, &ev, sizeof(ev)) < 0 ? errno : 0);
	check_held("held-by-another-file", other, label, in);
	holder = other_holds(udrv_chip_name(chip), in + 2, ctl);
	check_held("held-by-another-process", other, label, in + 2);
	kill(holder, SIGTERM);
	waitpid(holder, NULL, 0);
	close(ctl[0]);
	edged = request(chip, in - 2, "udrv-irq-check", UDRV_DIR_INPUT,
			UDRV_EDGE_BOTH);
	check_held("edge-detection-holds-it", other, label, in - 2);
	udrv_request_release(edged);
	check("no-such-chip", bind_line(other, "no-such-chip", in, UDRV_IRQ_INPUT | EDGES));
	check("no-such-line", bind_line(other, label, 9999, UDRV_IRQ_INPUT | EDGES));
	check("no-edge", bind_line(other, label, in + 2, UDRV_IRQ_INPUT));
	check("not-input", bind_line(other, label, in + 2, EDGES));
	check("unknown-flag", bind_line(other, label, in + 2, UDRV_IRQ_INPUT | EDGES | (1u << 4)));
	check("output-of-an-input", bind_line(other, label, in - 2, UDRV_IRQ_OUTPUT | EDGES));
	b = (struct udrv_irq_line){ .version = UDRV_IRQ_VERSION + 1, .size = sizeof(b),
				    .offset = in + 2, .flags = UDRV_IRQ_INPUT | EDGES };
	snprintf(b.chip, sizeof(b.chip), "%s", label);
	check("other-version", ioctl(other, UDRV_IRQ_BIND_LINE, &b) ? errno : 0);
	printf("version %u size %u\n", b.version, b.size);
	snprintf(v1.chip, sizeof(v1.chip), "%s", label);
	check("bind-v1-gone", ioctl(other, UDRV_IRQ_BIND_V1, &v1) ? errno : 0);
	check("unknown-ioctl", ioctl(other, _IO(UDRV_IRQ_IOC_MAGIC, 0x7f)) ? errno : 0);
	close(fd);	/* gives IN and its interrupt back */
	check("bind-after-close", bind_line(other, label, in, UDRV_IRQ_FALLING | UDRV_IRQ_INPUT));
	close(other);
	udrv_request_release(request(chip, in, "udrv-irq-check", UDRV_DIR_INPUT,
				     UDRV_EDGE_BOTH));
	check("request-after-close", 0);
}

static int never(struct udrv_request *req, const struct udrv_edge_event *ev,
		 void *data)
{
	return 1;
}

/* libudrv's UDRV_RESPOND_IRQ_LINE on IN+2, which another process holds:
 * the run's error names the holder. */
static void responder_held(struct udrv_chip *chip, struct udrv_request *out,
			   unsigned int in)
{
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_IRQ_LINE,
					   .in = in + 2 };
	struct udrv_responder *r = NULL;
	pid_t holder;
	int ctl[2], ret;

	holder = other_holds(udrv_chip_name(chip), in + 2, ctl);
	ret = udrv_responder_new(out, &c, &r);
	if (!ret)
		ret = udrv_responder_run(r, never, NULL);
	check("responder-held", -ret);
	printf("message %s\n", r ? udrv_responder_errmsg(r) : udrv_request_errmsg(out));
	udrv_responder_free(r);
	kill(holder, SIGTERM);
	waitpid(holder, NULL, 0);
	close(ctl[0]);
}

static void print_consumer(struct udrv_chip *chip, unsigned int in)
{
	struct udrv_line_info info;

	if (udrv_chip_line_info(chip, in, &info)) {
		fprintf(stderr, "udrv-irq-check: line %u: %s\n", in,
			udrv_chip_errmsg(chip));
		exit(1);
	}
	printf("consumer %s\n", info.consumer[0] ? info.consumer : "-");
}

/* Bound, then blocked in read() while the test unbinds the chip. */
static int gone(int fd, const char *label, unsigned int in)
{
	struct udrv_irq_event ev;
	int err = bind_line(fd, label, in, UDRV_IRQ_INPUT | EDGES);

	if (err) {
		fprintf(stderr, "udrv-irq-check: bind: %s\n", strerror(err));
		return 1;
	}
	printf("bound %d\n", (int)getpid());
	fflush(stdout);
	check("read-after-gone", read(fd, &ev, sizeof(ev)) < 0 ? errno : 0);
	check("read-again", read(fd, &ev, sizeof(ev)) < 0 ? errno : 0);
	check("bind-again", bind_line(fd, label, in, UDRV_IRQ_INPUT | EDGES));
	close(fd);
	printf("closed\n");
	return 0;
}

#define REPLIES		12
#define REPLY_GAP_NS	2000000

/* UDRV_IRQ_SET: @mask to @values, then (@wait) the next edge into @ev;
 * the errno; @write_ns when the levels were written. */
static int set(int fd, unsigned int mask, unsigned int values, bool wait,
	       struct udrv_irq_set *s)
{
	*s = (struct udrv_irq_set){ .size = sizeof(*s), .mask = mask, .values = values,
				    .flags = wait ? UDRV_IRQ_SET_WAIT : 0 };
	return ioctl(fd, UDRV_IRQ_SET, s) ? errno : 0;
}

/* What outputs and UDRV_IRQ_SET refuse, each with its errno; IN's file @fd. */
static void output_misuses(int fd, const char *label, unsigned int in)
{
	struct udrv_irq_set s;
	int other = open_dev();

	/* high first: the first reply (low, to a rising edge) is an edge too */
	check("output-bind", bind_line(fd, label, in + 1, UDRV_IRQ_OUTPUT | UDRV_IRQ_HIGH));
	check("output-of-another-chip", bind_line(fd, "another-chip", in - 3, UDRV_IRQ_OUTPUT));
	check_held_as("output-held", fd, label, in - 1, UDRV_IRQ_OUTPUT);	/* OUT: ours */
	check("output-unknown-flag", bind_line(fd, label, in - 3, UDRV_IRQ_OUTPUT | (1u << 5)));
	check("set-a-line-not-held", set(fd, 1u << 1, 0, false, &s));
	check("set-all-bits", set(fd, ~0u, 0, false, &s));
	check("set-unknown-flag", (s = (struct udrv_irq_set){ .size = sizeof(s), .flags = 2 },
				   ioctl(fd, UDRV_IRQ_SET, &s) ? errno : 0));
	check("set-reserved", (s = (struct udrv_irq_set){ .size = sizeof(s), .reserved[3] = 1 },
			       ioctl(fd, UDRV_IRQ_SET, &s) ? errno : 0));
	s = (struct udrv_irq_set){ .size = sizeof(s) + 8 };
	check("set-other-size", ioctl(fd, UDRV_IRQ_SET, &s) ? errno : 0);
	printf("set-size %u\n", s.size);
	check("set-unbound", set(other, 0, 0, false, &s));
	check("other-output-bind", bind_line(other, label, in - 3, UDRV_IRQ_OUTPUT));
	check("set-wait-without-input", set(other, 1, 1, true, &s));
	check("set-without-wait", set(other, 1, 0, false, &s));
	close(other);
}

/* A child toggles line @out of @chip_name @n times, @gap_ns apart. */
static pid_t stimulus(const char *chip_name, unsigned int out, unsigned int n)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("udrv-irq-check: fork");
		exit(1);
	}
	if (!pid) {
		struct udrv_chip *chip = udrv_chip_new();
		struct timespec next;
		struct udrv_request *req;

		if (!chip || udrv_chip_open(chip, chip_name))
			_exit(1);
		req = request(chip, out, "irq-check-stimulus", UDRV_DIR_OUTPUT, UDRV_EDGE_NONE);
		clock_gettime(CLOCK_MONOTONIC, &next);
		for (unsigned int k = 1; k <= n; k++) {
			next.tv_nsec += REPLY_GAP_NS;
			if (next.tv_nsec >= 1000000000L) {
				next.tv_nsec -= 1000000000L;
				next.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
			if (udrv_request_set_value(req, 0, (int)(k & 1)))
				_exit(1);
		}
		_exit(0);
	}
	return pid;
}

/* The replies: each edge of IN answered on IN+1 with the opposite level
 * by the call that waits for the next one. */
static int replies(struct udrv_chip *chip, int fd, unsigned int out, unsigned int in)
{
	struct udrv_edge_event wire[REPLIES];
	uint64_t wake[REPLIES];
	struct udrv_request *seen;
	struct udrv_irq_set s;
	int level, status, n, err;
	unsigned int seqno;
	pid_t child;

	seen = request(chip, in + 2, "irq-check-wire", UDRV_DIR_INPUT, UDRV_EDGE_BOTH);
	child = stimulus(udrv_chip_name(chip), out, REPLIES);
	err = set(fd, 0, 0, true, &s);		/* the first wait: nothing to say yet */
	for (unsigned int k = 0; !err && k < REPLIES; k++) {
		wake[k] = now_ns();
		level = s.ev.level;
		seqno = s.ev.seqno;
		/* the decision: C = !B; the last reply waits for no edge */
		err = set(fd, 1, !level, k + 1 < REPLIES, &s);
		printf("reply %u level %d seqno %u write_after_wake_ns %lld", k + 1, level, seqno,
		       (long long)(s.write_ns - wake[k]));
		printf(k + 1 < REPLIES ? "\n" : " last\n");
	}
	waitpid(child, &status, 0);
	if (err || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "udrv-irq-check: replies: %s, stimulus status %d\n",
			strerror(err), status);
		return 1;
	}
	n = udrv_request_read_events(seen, wire, REPLIES);
	for (int k = 0; k < n; k++)
		printf("wire %d level %d wire_after_wake_ns %lld\n", k + 1,
		       wire[k].edge == UDRV_EDGE_RISING,
		       (long long)(wire[k].timestamp_ns - wake[k]));
	udrv_request_release(seen);
	return n == REPLIES ? 0 : 1;
}

static int reply_mode(struct udrv_chip *chip, int fd, struct udrv_request *out_req,
		      unsigned int out, unsigned int in)
{
	const char *label = udrv_chip_label(chip);
	struct udrv_request *c;
	int hold = open_dev(), ret;

	/* a first level high: seen on the wire, before anything is set */
	check("output-high-bind", bind_line(hold, label, in + 1, UDRV_IRQ_OUTPUT | UDRV_IRQ_HIGH));
	c = request(chip, in + 2, "irq-check-wire", UDRV_DIR_INPUT, UDRV_EDGE_NONE);
	printf("output-high %d\n", udrv_request_get_value(c, 0));
	udrv_request_release(c);
	close(hold);
	check("bind", bind_line(fd, label, in, UDRV_IRQ_INPUT | EDGES));
	output_misuses(fd, label, in);
	udrv_request_release(out_req);	/* OUT is the stimulus child's now */
	ret = replies(chip, fd, out, in);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct udrv_request *out;
	struct udrv_chip *chip;
	unsigned int o, i, n;
	int fd, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: udrv-irq-check CHIP OUT IN COUNT|unbind\n");
		return 2;
	}
	o = (unsigned int)atoi(argv[2]);
	i = (unsigned int)atoi(argv[3]);
	n = (unsigned int)atoi(argv[4]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	chip = udrv_chip_new();
	if (!chip || udrv_chip_open(chip, argv[1])) {
		fprintf(stderr, "udrv-irq-check: %s: %s\n", argv[1],
			chip ? udrv_chip_errmsg(chip) : "out of memory");
		return 1;
	}
	fd = open_dev();
	if (!strcmp(argv[4], "unbind")) {
		const char *label = udrv_chip_label(chip);
		char copy[UDRV_IRQ_CHIP_LEN];

		snprintf(copy, sizeof(copy), "%s", label);
		udrv_chip_free(chip);	/* nothing of the chip's held */
		return gone(fd, copy, i);
	}
	out = request(chip, o, "udrv-irq-check", UDRV_DIR_OUTPUT, UDRV_EDGE_NONE);
	if (!strcmp(argv[4], "reply")) {
		/* the stimulus is the child's: this process holds OUT only for
		 * the output-held check, and gives it back first */
		ret = reply_mode(chip, fd, out, o, i);
		udrv_chip_free(chip);
		return ret;
	}
	check("bind", bind_line(fd, udrv_chip_label(chip), i,
				UDRV_IRQ_INPUT | EDGES));
	print_consumer(chip, i);
	ret = edges(fd, out, n);
	if (!ret)
		misuses(fd, chip, udrv_chip_label(chip), i);
	if (!ret)
		responder_held(chip, out, i);
	udrv_request_release(out);
	udrv_chip_free(chip);
	return ret;
}
