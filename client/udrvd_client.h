/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udrvd's client (internal, on sd-bus): the udrv tool asks udrvd to hold
 * lines for it. libudrv stays libc and the kernel's uAPI only; this is the
 * part that needs a D-Bus library, so it lives beside it and is built only
 * where libsystemd is (not into the static tools).
 *
 *	struct udrvd_client *c = udrvd_client_new();
 *	udrvd_client_open(c);			// the system bus
 *	udrvd_client_find(c, "gpio-wire", 1, (char *[]){ "wire0-out" }, &lines);
 *	udrvd_client_set(c, &lines, settings, "udrv", path, sizeof(path));
 *	udrvd_client_free(c);
 *
 * Every call returns 0 or a negative errno, and leaves a message in the
 * handle that says what failed and what to do (udrvd_client_errmsg()).
 */
#ifndef UDRVD_CLIENT_H
#define UDRVD_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <udrv/chip.h>
#include <udrv/line.h>

#define UDRVD_CLIENT_PATH_LEN	96

struct udrvd_client;

/* Lines of one chip as udrvd exports them (udrvd_client_find()). */
struct udrvd_lines {
	char chip[32];				/* "gpiochip0" */
	char label[64];				/* "pinctrl-bcm2835" */
	char chip_path[UDRVD_CLIENT_PATH_LEN];	/* /io/gpiod1/chips/gpiochip0 */
	size_t n;
	unsigned int offsets[UDRV_LINES_MAX];
	/* the request of udrvd's that holds each, "" for none */
	char requests[UDRV_LINES_MAX][UDRVD_CLIENT_PATH_LEN];
	/* how each is held, as udrvd's Line objects say ("output", "pull-up"
	 * or "unknown", "push-pull") */
	struct udrvd_held {
		char direction[16], bias[16], drive[16];
		bool active_low;
	} held[UDRV_LINES_MAX];
};

struct udrvd_client *udrvd_client_new(void);
/* Connect to the system bus (DBUS_SYSTEM_BUS_ADDRESS, when set). Whether
 * udrvd answers there shows at the first call: -ENOENT when nothing owns
 * io.gpiod1, with a message that says how to start it. */
int udrvd_client_open(struct udrvd_client *c);
void udrvd_client_free(struct udrvd_client *c);
const char *udrvd_client_errmsg(const struct udrvd_client *c);

/*
 * The @n lines @names (names, or offsets when @chip is given) on @chip (a
 * chip's name "gpiochip0", number "0", path "/dev/gpiochip0" or label), or
 * with @chip NULL on the one chip that has every name, as udrvd exports
 * them, with what holds each. -ENOENT no such chip or line (the message
 * lists what there is), -EINVAL a line given twice or an offset without a
 * chip.
 */
int udrvd_client_find(struct udrvd_client *c, const char *chip, size_t n,
		      char *const *names, struct udrvd_lines *lines);

/*
 * Have udrvd hold @lines as outputs with settings @s (one per line) and
 * their value: a new request (RequestLines, consumer @consumer) when none
 * holds them; SetValues on the one request that holds them all with @s's
 * settings, ReconfigureLines on it with other settings (udrvd refuses that
 * unless @lines are all of its lines); -EBUSY when different requests hold
 * them. The request's object path into @path. -EACCES refused by udrvd's
 * policy or not the caller's request.
 */
int udrvd_client_set(struct udrvd_client *c, const struct udrvd_lines *lines,
		     const struct udrv_line_settings *s, const char *consumer,
		     char *path, size_t len);

/* Release the requests that hold @lines; -ENOENT when one is held by none.
 * @values (NULL: not wanted) gets each line's logical value first. Every
 * line of each such request goes back to the kernel. */
int udrvd_client_release(struct udrvd_client *c, const struct udrvd_lines *lines, int *values);

/*
 * Do @lines name every line of each request of udrvd's that holds one of
 * them? 0; -EBUSY when a request holds others too (udrvd, as the kernel,
 * releases a request whole: the message names them and the command that
 * releases them all), -ENOENT when a line is held by none.
 */
int udrvd_client_whole(struct udrvd_client *c, const struct udrvd_lines *lines);

/*
 * The fast path: the file descriptor of the one request of udrvd's that
 * holds @lines (io.udrv1.Request.GetFd), into @fd (close-on-exec, the
 * caller's to close), and the offsets of all that request's lines in its
 * order into @offsets (UDRV_LINES_MAX) and @n: what
 * udrv_request_adopt() takes. -ENOENT a line held by none, -EBUSY by
 * different requests, -EACCES refused by udrvd (the owner only, with every
 * permission on each line).
 */
int udrvd_client_get_fd(struct udrvd_client *c, const struct udrvd_lines *lines, int *fd,
			unsigned int *offsets, size_t *n);

/*
 * Does udrvd answer on the bus (something owns io.gpiod1)? 1 or 0; a
 * negative errno when the bus cannot be asked (no bus: the message says so).
 */
int udrvd_client_running(struct udrvd_client *c);

/*
 * The logical values of @lines into @values (one per line), read as udrvd
 * has them: GetValues on the request of udrvd's that holds them all (the
 * caller's own), else a request of inputs with @s's settings (direction
 * input, bias, active-low) made for the reading and released after it
 * (RequestLines, GetValues, Release; consumer @consumer). -EBUSY when
 * different requests hold them, -EACCES refused by udrvd's policy (read on
 * each line, and what the settings need).
 */
int udrvd_client_get(struct udrvd_client *c, const struct udrvd_lines *lines,
		     const struct udrv_line_settings *s, const char *consumer, int *values);

/*
 * Watch @lines' edges through udrvd: become a watcher of each line (its
 * properties read), then, unless one request of udrvd's already holds
 * them all with edge detection (the caller then only listens to it: the
 * policy's watch is enough), request them as inputs with @s's settings
 * (edge, debounce, event clock, bias, active-low; read and watch on each
 * line) and consumer @consumer, @buffer_size events in the kernel (0: its
 * default). udrvd_client_unwatch() releases that request; a client that is
 * killed leaves it held (udrv gpio release lets it go).
 */
int udrvd_client_watch(struct udrvd_client *c, const struct udrvd_lines *lines,
		       const struct udrv_line_settings *s, const char *consumer,
		       unsigned int buffer_size);
/*
 * Wait up to @timeout_ms (-1: forever) for an edge, with the signal mask
 * @mask while it sleeps (NULL: as it is; ppoll's). 1 events pending, 0 none
 * came, -EINTR a signal, another negative errno when the bus failed.
 */
int udrvd_client_wait_events(struct udrvd_client *c, int timeout_ms, const sigset_t *mask);
/* Up to @max pending edges into @ev (index: in @lines' order; lost: events
 * missing before it by the line's sequence number); their number. */
int udrvd_client_read_events(struct udrvd_client *c, struct udrv_edge_event *ev, size_t max);
/* Events missing so far (gaps in the lines' sequence numbers). */
uint64_t udrvd_client_lost_events(const struct udrvd_client *c);
/* Stop watching, and release the request udrvd_client_watch() made. */
int udrvd_client_unwatch(struct udrvd_client *c);

/* A chip as udrvd exports it, and its lines (udrvd_client_chips()). */
struct udrvd_chip_info {
	char name[32], label[64], dev[64];
	unsigned int num_lines;
	/* as udrvd shows them: the state only of lines the policy names for
	 * the caller (others read as free inputs) */
	struct udrv_line_info *lines;
};

/*
 * The chips udrvd exports (@chip NULL), or the one @chip names (name,
 * number, /dev path or label), with their lines: *@chips (free with
 * udrvd_client_chips_free()) and their number, or a negative errno
 * (-ENOENT no such chip: the message lists those there are).
 */
int udrvd_client_chips(struct udrvd_client *c, const char *chip,
		       struct udrvd_chip_info **chips, size_t *n);
void udrvd_client_chips_free(struct udrvd_chip_info *chips, size_t n);

#endif /* UDRVD_CLIENT_H */
