// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake GPIO character device for udrvd's host tests, preloaded
 * (LD_PRELOAD) into udrvd: the ioctls libudrv makes on a chip and on a line
 * request are answered for regular files named gpiochipN (under the fake
 * tree UDRV_SYSROOT points at), as Linux 6.1's gpiolib-cdev answers them.
 *
 * The chip file:	LABEL\n NUM_LINES\n then one NAME\n per line ("" unnamed)
 * Its state file:	gpiochipN.state next to it, written after each change,
 *			one line per offset:
 *				HOLDER DIR VALUE ACTIVE_LOW CONSUMER EDGE
 *			(HOLDER the pid of the process that requested it, 0
 *			when free; DIR in/out, VALUE the physical level,
 *			EDGE none/rising/falling/both), what a test reads as
 *			"the partner line" of a pin. A line whose holder is
 *			gone is free, as the kernel frees the requests of a
 *			process that ends.
 * Its line changes:	gpiochipN.info next to it, a FIFO the test makes and
 *			writes struct gpio_v2_line_info_changed records into:
 *			a chip descriptor that watches lines
 *			(GPIO_V2_GET_LINEINFO_WATCH_IOCTL) reads them from
 *			there. Without it, watching fails with ENOTTY (a
 *			kernel without the ioctl). GPIO_GET_LINEINFO_UNWATCH_IOCTL
 *			on a watching descriptor succeeds; poll() and ppoll()
 *			of it wait on the FIFO.
 * Its edges:		gpiochipN.events next to it, a FIFO the test makes
 *			and writes struct gpio_v2_line_event records into:
 *			a request with edge detection made after it exists
 *			reads its events from there (read(), and epoll_ctl()
 *			and poll() watch the FIFO for it). One such request
 *			per chip.
 *			Its reads never block (the test may write nothing),
 *			unless FAKE_CDEV_BLOCKING_READ=1 is in the environment:
 *			then a read of a request whose fd is blocking waits
 *			for an event as the kernel's does (a signal ends the
 *			wait with EINTR), for a program that blocks in read()
 *			(libudrv's responder).
 *
 * An SPI ADC on its lines:	gpiochipN.mcp3008 next to it, "CLK MOSI MISO CS
 *			BITS V0 ... V7" (offsets, 10 or 12 bits, the channels'
 *			values): an MCP3008/MCP3208 in SPI mode 0 that the
 *			process's requests talk to by setting CLK, MOSI and CS
 *			(active low): it samples MOSI at the clock's rising edge
 *			and sets MISO's level at its falling edge, as its data
 *			sheet says (after the start bit, single-ended or
 *			differential and the channel; a null bit, then the
 *			value MSB first). For software SPI's tests.
 *
 * A request is a memfd holding "CHIP_PATH\nN OFFSET...\n" (/proc/self/fd shows
 * it as the kernel's anon_inode:gpio-line): the process that
 * made it remembers its number, and closing it there frees its lines (their
 * level stays, as most GPIO drivers leave it); another process given the fd
 * (udrvd's GetFd) finds the request in it and can set its values too, as
 * the kernel lets any holder of a request's fd. Single threaded, as udrvd
 * is.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <linux/gpio.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_LINES	256
#define MAX_REQS	512	/* above udrvd's per-user request quota (256) */

struct line {
	char name[GPIO_MAX_NAME_SIZE];
	char consumer[GPIO_MAX_NAME_SIZE];
	int used, out, level, active_low;	/* used: the holder's pid */
	uint64_t edge;				/* GPIO_V2_LINE_FLAG_EDGE_* */
};

struct chip {
	char path[PATH_MAX];
	char label[GPIO_MAX_NAME_SIZE];
	unsigned int n;
	struct line lines[MAX_LINES];
};

struct req {
	int fd;
	char path[PATH_MAX];
	unsigned int n;
	unsigned int offsets[GPIO_V2_LINES_MAX];
	int events;		/* the chip's events FIFO, when edges are on */
};

/* what a request's memfd is called, in /proc/self/fd */
#define FAKE_REQUEST	"/memfd:fake-gpio-request"

#define EDGES	(GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING)

static const char *const edge_names[] = { "none", "rising", "falling", "both" };

static struct req reqs[MAX_REQS];

#define MAX_WATCHES	16

/* chip descriptors that watch line info, and their chips' FIFOs */
static struct watch {
	int fd, fifo;
} watches[MAX_WATCHES];

static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);
static ssize_t (*real_read)(int, void *, size_t);
static int (*real_epoll_ctl)(int, int, int, struct epoll_event *);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
static ssize_t (*real_readlink)(const char *, char *, size_t);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstat64)(int, struct stat *);

static void init(void)
{
	/* POSIX's way to take a function from dlsym() (its rationale) */
	if (!real_ioctl) {
		*(void **)&real_ioctl = dlsym(RTLD_NEXT, "ioctl");
		*(void **)&real_close = dlsym(RTLD_NEXT, "close");
		*(void **)&real_read = dlsym(RTLD_NEXT, "read");
		*(void **)&real_epoll_ctl = dlsym(RTLD_NEXT, "epoll_ctl");
		*(void **)&real_ppoll = dlsym(RTLD_NEXT, "ppoll");
		*(void **)&real_readlink = dlsym(RTLD_NEXT, "readlink");
		*(void **)&real_fstat = dlsym(RTLD_NEXT, "fstat");
		*(void **)&real_fstat64 = dlsym(RTLD_NEXT, "fstat64");
	}
}

/* @fd is a regular file called gpiochipN: its path into @path. */
static int chip_path(int fd, char *path)
{
	char link[64];
	struct stat st;
	ssize_t n;
	const char *base;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, PATH_MAX - 1);
	if (n < 0)
		return -1;
	path[n] = '\0';
	base = strrchr(path, '/');
	return base && !strncmp(base + 1, "gpiochip", 8) && !strchr(base, '.') ? 0 : -1;
}

/* The fake cannot keep its state: no test may pass on what it lost. */
static void fail(const char *what, const char *path)
{
	fprintf(stderr, "fake_cdev: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

static void load(struct chip *c, const char *path)
{
	char buf[256], state[PATH_MAX + 8];
	FILE *f = fopen(path, "r");

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f))
		snprintf(c->label, sizeof(c->label), "%.*s", (int)strcspn(buf, "\n"), buf);
	if (fgets(buf, sizeof(buf), f))
		c->n = (unsigned int)strtoul(buf, NULL, 10);
	if (c->n > MAX_LINES)
		c->n = MAX_LINES;
	for (unsigned int i = 0; i < c->n && fgets(buf, sizeof(buf), f); i++)
		snprintf(c->lines[i].name, GPIO_MAX_NAME_SIZE, "%.*s", (int)strcspn(buf, "\n"), buf);
	fclose(f);
	snprintf(state, sizeof(state), "%s.state", path);
	f = fopen(state, "r");
	for (unsigned int i = 0; f && i < c->n && fgets(buf, sizeof(buf), f); i++) {
		struct line *l = &c->lines[i];
		char dir[4] = "", edge[8] = "none";

		if (sscanf(buf, "%d %3s %d %d %31s %7s", &l->used, dir, &l->level, &l->active_low,
			   l->consumer, edge) < 4)
			break;
		l->out = !strcmp(dir, "out");
		for (uint64_t e = 0; e < 4; e++)
			if (!strcmp(edge, edge_names[e]))
				l->edge = e * GPIO_V2_LINE_FLAG_EDGE_RISING;
		if (l->used && kill(l->used, 0) < 0 && errno == ESRCH) {
			l->used = 0;
			l->consumer[0] = '\0';
		}
		if (!strcmp(l->consumer, "-"))
			l->consumer[0] = '\0';
	}
	if (f)
		fclose(f);
}

static void save(const struct chip *c)
{
	char state[PATH_MAX + 8], tmp[PATH_MAX + 16];
	FILE *f;

	snprintf(state, sizeof(state), "%s.state", c->path);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", state, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		fail("cannot write", tmp);
	fchmod(fileno(f), 0666);	/* a client given a request's fd writes it too */
	for (unsigned int i = 0; i < c->n; i++) {
		const struct line *l = &c->lines[i];

		fprintf(f, "%d %s %d %d %s %s\n", l->used, l->out ? "out" : "in", l->level,
			l->active_low, l->consumer[0] ? l->consumer : "-",
			edge_names[l->edge / GPIO_V2_LINE_FLAG_EDGE_RISING]);
	}
	if (fclose(f) || rename(tmp, state))
		fail("cannot write", state);
}

static int chip_info(const struct chip *c, struct gpiochip_info *info)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", strrchr(c->path, '/') + 1);
	memcpy(info->label, c->label, sizeof(info->label));
	info->lines = c->n;
	return 0;
}

static int line_info(const struct chip *c, struct gpio_v2_line_info *li)
{
	const struct line *l;

	if (li->offset >= c->n) {
		errno = EINVAL;
		return -1;
	}
	l = &c->lines[li->offset];
	memset(li->name, 0, sizeof(li->name) + sizeof(li->consumer));
	memcpy(li->name, l->name, sizeof(li->name));
	memcpy(li->consumer, l->consumer, sizeof(li->consumer));
	li->num_attrs = 0;
	li->flags = (l->used ? GPIO_V2_LINE_FLAG_USED : 0) |
		    (l->out ? GPIO_V2_LINE_FLAG_OUTPUT : GPIO_V2_LINE_FLAG_INPUT) |
		    (l->active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0) | l->edge;
	return 0;
}

/* The flags and output value the config gives line @idx. */
static void config_of(const struct gpio_v2_line_config *cfg, unsigned int idx,
		      uint64_t *flags, int *value)
{
	*flags = cfg->flags;
	*value = 0;
	for (unsigned int a = 0; a < cfg->num_attrs && a < GPIO_V2_LINE_NUM_ATTRS_MAX; a++) {
		const struct gpio_v2_line_config_attribute *at = &cfg->attrs[a];

		if (!(at->mask >> idx & 1))
			continue;
		if (at->attr.id == GPIO_V2_LINE_ATTR_ID_FLAGS)
			*flags = at->attr.flags;
		else if (at->attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES)
			*value = (int)(at->attr.values >> idx & 1);
	}
}

static void apply(struct line *l, uint64_t flags, int value)
{
	l->out = !!(flags & GPIO_V2_LINE_FLAG_OUTPUT);
	l->active_low = !!(flags & GPIO_V2_LINE_FLAG_ACTIVE_LOW);
	l->edge = flags & EDGES;
	if (l->out)
		l->level = value ^ l->active_low;
}

/* The FIFO @chip.@what the test made (O_RDWR: never an end of file;
 * nonblocking, as the test may write nothing), or -1. */
static int fifo_open(const char *chip, const char *what)
{
	char fifo[PATH_MAX + 8];

	snprintf(fifo, sizeof(fifo), "%s.%s", chip, what);
	return open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

/* @r's lines detect edges: it reads them from its chip's FIFO, if the test
 * made one. */
static void events_open(struct req *r, const struct chip *c)
{
	uint64_t edges = 0;

	for (unsigned int i = 0; i < r->n; i++)
		edges |= c->lines[r->offsets[i]].edge;
	if (!edges || r->events > 0)
		return;
	r->events = fifo_open(r->path, "events");
}

static int get_line(struct chip *c, struct gpio_v2_line_request *lr)
{
	struct req *r = NULL;

	for (size_t i = 0; i < MAX_REQS && !r; i++)
		if (!reqs[i].fd)
			r = &reqs[i];
	if (!r || !lr->num_lines || lr->num_lines > GPIO_V2_LINES_MAX) {
		errno = r ? EINVAL : ENOMEM;
		return -1;
	}
	for (unsigned int i = 0; i < lr->num_lines; i++) {
		if (lr->offsets[i] >= c->n) {
			errno = EINVAL;
			return -1;
		}
		if (c->lines[lr->offsets[i]].used) {
			errno = EBUSY;
			return -1;
		}
	}
	r->fd = memfd_create("fake-gpio-request", MFD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	snprintf(r->path, sizeof(r->path), "%s", c->path);
	r->n = lr->num_lines;
	dprintf(r->fd, "%s\n%u", c->path, r->n);
	for (unsigned int i = 0; i < r->n; i++)
		dprintf(r->fd, " %u", lr->offsets[i]);
	dprintf(r->fd, "\n");
	for (unsigned int i = 0; i < lr->num_lines; i++) {
		struct line *l = &c->lines[lr->offsets[i]];
		uint64_t flags;
		int value;

		r->offsets[i] = lr->offsets[i];
		config_of(&lr->config, i, &flags, &value);
		l->used = (int)getpid();
		snprintf(l->consumer, sizeof(l->consumer), "%s", lr->consumer);
		apply(l, flags, value);
	}
	events_open(r, c);
	lr->fd = r->fd;
	save(c);
	return 0;
}

static struct watch *watch_of(int fd)
{
	for (size_t i = 0; i < MAX_WATCHES; i++)
		if (watches[i].fd && watches[i].fd == fd)
			return &watches[i];
	return NULL;
}

/* GPIO_V2_GET_LINEINFO_WATCH_IOCTL on chip @c through @fd: the
 * line's info, and its changes from then on in the chip's FIFO. */
static int watch_line(const struct chip *c, int fd, struct gpio_v2_line_info *li)
{
	struct watch *w = watch_of(fd);

	for (size_t i = 0; !w && i < MAX_WATCHES; i++) {
		if (watches[i].fd)
			continue;
		watches[i].fifo = fifo_open(c->path, "info");
		if (watches[i].fifo < 0) {
			errno = ENOTTY;
			return -1;
		}
		watches[i].fd = fd;
		w = &watches[i];
	}
	if (!w) {
		errno = ENOMEM;
		return -1;
	}
	return line_info(c, li);
}

static struct req *req_of(int fd)
{
	for (size_t i = 0; i < MAX_REQS; i++)
		if (reqs[i].fd && reqs[i].fd == fd)
			return &reqs[i];
	return NULL;
}

/* A request another process made, passed to this one: read from the memfd. */
static int passed_req(int fd, struct req *r)
{
	char link[64], target[PATH_MAX], buf[PATH_MAX + 512];
	ssize_t n;
	char *nl, *p, *end;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	init();
	n = real_readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	if (strncmp(target, FAKE_REQUEST, strlen(FAKE_REQUEST)))
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (!nl)
		return -1;
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%.*s", (int)(nl - buf), buf);
	r->n = (unsigned int)strtoul(nl + 1, &p, 10);
	if (r->n > GPIO_V2_LINES_MAX)
		return -1;
	for (unsigned int i = 0; i < r->n; i++) {
		r->offsets[i] = (unsigned int)strtoul(p, &end, 10);
		p = end;
	}
	r->fd = fd;
	return 0;
}

/* The MCP3xxx's bit at position @p of a frame, @n bits of @tx sampled */
static int adc_bit(uint64_t tx, unsigned int n, unsigned int p, unsigned int bits,
		   const long *v)
{
	unsigned int s = 0, ch;
	long value;

#define TX(i)	((int)(tx >> (n - 1 - (i)) & 1))
	while (s < n && !TX(s))
		s++;
	if (s + 5 > n || p < s + 6)
		return 1;	/* no channel yet: high impedance, read as 1 */
	if (p == s + 6)
		return 0;	/* the null bit */
	ch = (unsigned int)(TX(s + 2) << 2 | TX(s + 3) << 1 | TX(s + 4));
	value = TX(s + 1) ? v[ch] : v[ch] - v[ch ^ 1];
#undef TX
	if (value < 0)
		value = 0;
	if (p - (s + 7) >= bits)
		return 0;
	return (int)(value >> (bits - 1 - (p - (s + 7))) & 1);
}

/* gpiochipN.mcp3008's device, after the lines changed */
static void adc(struct chip *c)
{
	static int prev_clk = -1, prev_cs = -1;
	static unsigned int n;
	static uint64_t tx;
	unsigned int clk, mosi, miso, cs, bits;
	char path[PATH_MAX + 16];
	long v[8];
	FILE *f;
	int ok, lclk, lcs;

	snprintf(path, sizeof(path), "%s.mcp3008", c->path);
	f = fopen(path, "r");
	if (!f)
		return;
	ok = fscanf(f, "%u %u %u %u %u %ld %ld %ld %ld %ld %ld %ld %ld", &clk, &mosi, &miso,
		    &cs, &bits, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 13;
	fclose(f);
	if (!ok || clk >= c->n || mosi >= c->n || miso >= c->n || cs >= c->n)
		fail("cannot read", path);
	lclk = c->lines[clk].level;
	lcs = c->lines[cs].level;
	if (lcs == 0 && prev_cs != 0) {		/* selected: a new frame */
		n = 0;
		tx = 0;
		c->lines[miso].level = 1;
	}
	if (lcs == 0 && prev_clk == 0 && lclk == 1 && n < 64) {
		tx = tx << 1 | (uint64_t)(c->lines[mosi].level & 1);
		n++;
	}
	if (lcs == 0 && prev_clk == 1 && lclk == 0)
		c->lines[miso].level = adc_bit(tx, n, n, bits, v);
	prev_clk = lclk;
	prev_cs = lcs;
}

static int req_ioctl(struct req *r, unsigned long op, void *arg)
{
	struct chip c;

	load(&c, r->path);
	if (op == GPIO_V2_LINE_GET_VALUES_IOCTL || op == GPIO_V2_LINE_SET_VALUES_IOCTL) {
		struct gpio_v2_line_values *lv = arg;

		if (!(lv->mask & (r->n == 64 ? ~0ULL : (1ULL << r->n) - 1))) {
			errno = EINVAL;	/* no line of the request: the kernel's answer */
			return -1;
		}

		for (unsigned int i = 0; i < r->n; i++) {
			struct line *l = &c.lines[r->offsets[i]];

			if (!(lv->mask >> i & 1))
				continue;
			if (op == GPIO_V2_LINE_GET_VALUES_IOCTL) {
				lv->bits &= ~(1ULL << i);
				lv->bits |= (uint64_t)(l->level ^ l->active_low) << i;
			} else if (l->out) {
				l->level = (int)(lv->bits >> i & 1) ^ l->active_low;
			} else {
				errno = EPERM;	/* what the kernel says for an input */
				return -1;
			}
		}
	} else if (op == GPIO_V2_LINE_SET_CONFIG_IOCTL) {
		for (unsigned int i = 0; i < r->n; i++) {
			uint64_t flags;
			int value;

			config_of(arg, i, &flags, &value);
			apply(&c.lines[r->offsets[i]], flags, value);
		}
		events_open(r, &c);
	} else {
		errno = ENOTTY;
		return -1;
	}
	adc(&c);
	save(&c);
	return 0;
}

int ioctl(int fd, unsigned long op, ...)
{
	char path[PATH_MAX];
	struct req passed;
	struct chip c;
	struct req *r;
	va_list ap;
	void *arg;

	va_start(ap, op);
	arg = va_arg(ap, void *);
	va_end(ap);
	init();
	r = req_of(fd);
	if (r)
		return req_ioctl(r, op, arg);
	if (!passed_req(fd, &passed))
		return req_ioctl(&passed, op, arg);
	if (op == GPIO_GET_LINEINFO_UNWATCH_IOCTL && !chip_path(fd, path)) {
		if (watch_of(fd))
			return 0;
		errno = EBUSY;	/* the kernel's answer for a line not watched */
		return -1;
	}
	if ((op != GPIO_GET_CHIPINFO_IOCTL && op != GPIO_V2_GET_LINEINFO_IOCTL &&
	     op != GPIO_V2_GET_LINE_IOCTL && op != GPIO_V2_GET_LINEINFO_WATCH_IOCTL) ||
	    chip_path(fd, path))
		return real_ioctl(fd, op, arg);
	load(&c, path);
	if (op == GPIO_GET_CHIPINFO_IOCTL)
		return chip_info(&c, arg);
	if (op == GPIO_V2_GET_LINEINFO_IOCTL)
		return line_info(&c, arg);
	if (op == GPIO_V2_GET_LINEINFO_WATCH_IOCTL)
		return watch_line(&c, fd, arg);
	return get_line(&c, arg);
}

/* A request's file, as /proc shows it: the kernel's anon_inode:gpio-line. */
ssize_t readlink(const char *path, char *buf, size_t len)
{
	static const char line[] = "anon_inode:gpio-line";
	char target[PATH_MAX];
	ssize_t n;

	init();
	if (strncmp(path, "/proc/self/fd/", 14))
		return real_readlink(path, buf, len);
	n = real_readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return n;
	target[n] = '\0';
	if (strncmp(target, FAKE_REQUEST, strlen(FAKE_REQUEST)))
		return real_readlink(path, buf, len);
	n = (ssize_t)(len < sizeof(line) - 1 ? len : sizeof(line) - 1);
	memcpy(buf, line, (size_t)n);
	return n;
}

int close(int fd)
{
	struct watch *w;
	struct req *r;

	init();
	w = watch_of(fd);
	if (w) {
		real_close(w->fifo);
		w->fd = w->fifo = 0;
	}
	r = req_of(fd);
	if (r) {
		struct chip c;

		load(&c, r->path);
		for (unsigned int i = 0; i < r->n; i++) {
			c.lines[r->offsets[i]].used = 0;
			c.lines[r->offsets[i]].consumer[0] = '\0';
		}
		save(&c);
		if (r->events > 0)
			real_close(r->events);
		r->fd = 0;
		r->events = 0;
	}
	return real_close(fd);
}

/* Where a request's edge events or a watching chip descriptor's line
 * changes come from: the chip's FIFO (else @fd itself). */
static int source_of(int fd)
{
	struct watch *w = watch_of(fd);
	struct req *r = req_of(fd);

	if (w)
		return w->fifo;
	return r && r->events > 0 ? r->events : fd;
}

/* FAKE_CDEV_BLOCKING_READ: a blocking request's read waits for an event. */
static int wait_readable(int fd, int src)
{
	struct pollfd pfd = { .fd = src, .events = POLLIN };
	const char *env = getenv("FAKE_CDEV_BLOCKING_READ");
	int fl = fcntl(fd, F_GETFL);

	if (src == fd || !env || strcmp(env, "1") || fl < 0 || (fl & O_NONBLOCK))
		return 0;
	return poll(&pfd, 1, -1) < 0 ? -1 : 0;
}

ssize_t read(int fd, void *buf, size_t count)
{
	int src;

	init();
	src = source_of(fd);
	if (wait_readable(fd, src) < 0)
		return -1;
	return real_read(src, buf, count);
}

/*
 * Waiting for them with poll() or ppoll() (libudrv's
 * udrv_request_wait_edge_events(), a watching chip descriptor's changes):
 * on the FIFO; the request's memfd itself is always readable.
 */
int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
	  const sigset_t *mask)
{
	int fd[16];
	int ret;

	init();
	if (n > 16)
		return real_ppoll(fds, n, timeout, mask);
	for (nfds_t i = 0; i < n; i++) {
		fd[i] = fds[i].fd;
		fds[i].fd = source_of(fd[i]);
	}
	ret = real_ppoll(fds, n, timeout, mask);
	for (nfds_t i = 0; i < n; i++)
		fds[i].fd = fd[i];
	return ret;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };

	return ppoll(fds, n, timeout < 0 ? NULL : &ts, NULL);
}

/* Waiting for them: on the FIFO. */
int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	init();
	return real_epoll_ctl(epfd, op, source_of(fd), ev);
}

/*
 * UIO nodes: a regular file dev/uioN (its bytes the device's maps) stands
 * for the character device; the device number the kernel would give it is
 * in dev/uioN.rdev ("MAJ:MIN"), and fstat() reports the file so (S_IFCHR,
 * that st_rdev), as udrvd reads the node it opened. The same for spidev
 * and i2c-dev nodes (dev/spidevB.C.rdev, dev/i2c-N.rdev), whose ioctls
 * tests/cli's fakes answer (they look at the file with fstatat(), which
 * this one leaves alone). A test that writes
 * another device's number there makes a stale node (/dev/uio0 that is
 * uio2's). Files without such a note are left as they are.
 */
static void fake_rdev(int fd, struct stat *st)
{
	char link[64], path[PATH_MAX], note[PATH_MAX + 8];
	unsigned int maj, min;
	const char *base;
	ssize_t n;
	FILE *f;
	int ok;

	if (!S_ISREG(st->st_mode))
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = real_readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return;
	path[n] = '\0';
	base = strrchr(path, '/');
	if (!base || (strncmp(base + 1, "uio", 3) && strncmp(base + 1, "spidev", 6) &&
		      strncmp(base + 1, "i2c-", 4)))
		return;
	if (!strncmp(base + 1, "uio", 3) && strchr(base, '.'))
		return;
	snprintf(note, sizeof(note), "%s.rdev", path);
	f = fopen(note, "re");
	if (!f)
		return;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return;
	st->st_mode = (st->st_mode & 07777) | S_IFCHR;
	st->st_rdev = makedev(maj, min);
}

/* fstat and fstat64 by their symbols, whatever _FILE_OFFSET_BITS maps
 * fstat to (struct stat is struct stat64 on the 64-bit hosts that run
 * these tests). */
int fake_fstat(int fd, struct stat *st) __asm__("fstat");
int fake_fstat64(int fd, struct stat *st) __asm__("fstat64");

/* @real's answer for @fd, a UIO node's made the character device's. */
static int fstat_by(int (*real)(int, struct stat *), int fd, struct stat *st)
{
	int r = real(fd, st);

	if (!r)
		fake_rdev(fd, st);
	return r;
}

int fake_fstat(int fd, struct stat *st)
{
	init();
	return fstat_by(real_fstat, fd, st);
}

int fake_fstat64(int fd, struct stat *st)
{
	init();
	return fstat_by(real_fstat64, fd, st);
}
