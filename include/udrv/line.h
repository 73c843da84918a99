/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Line requests: several lines of one chip held together, through one of the
 * backends (GPIO character device v2, legacy sysfs, memory-mapped registers).
 *
 * Lines are addressed by their index in the request (0 .. n-1); the value
 * bitmaps use bit i for the i-th requested line, like the kernel uAPI, so a
 * get or set of any subset is one operation.
 */
#ifndef UDRV_LINE_H
#define UDRV_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <udrv/chip.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UDRV_LINES_MAX 64

struct udrv_request;
struct udrv_gpio_layout;	/* udrv/gpio_mmio.h */

enum udrv_backend {
	UDRV_BACKEND_CDEV = 0,	/* GPIO character device, uAPI v2 (default) */
	UDRV_BACKEND_SYSFS,	/* legacy /sys/class/gpio */
	UDRV_BACKEND_MMIO,	/* SoC registers (claimed through the cdev) */
};

/* Per-line settings. Zeroed memory is a plain input with no edge detection. */
struct udrv_line_settings {
	enum udrv_direction direction;
	int value;			/* initial logical value of an output */
	enum udrv_bias bias;
	enum udrv_drive drive;
	bool active_low;
	enum udrv_edge edge;
	uint32_t debounce_us;		/* 0 = no debounce */
	enum udrv_clock event_clock;
};

struct udrv_request_config {
	const char *consumer;		/* NULL: "udrv" */
	uint32_t event_buffer_size;	/* kernel event queue; 0: default */
	enum udrv_backend backend;
	/* mmio backend: the register layout, for a SoC udrv does not know or
	 * an FPGA GPIO core; NULL: detect the SoC (see udrv/gpio_mmio.h) */
	const struct udrv_gpio_layout *layout;
	/* sizeof(struct udrv_gpio_layout), required with @layout (the layout
	 * grows like every public struct: docs/abi.md) */
	size_t layout_size;
};

/*
 * One edge event. The layout follows the kernel's struct gpio_v2_line_event
 * (48 bytes, edge at the kernel's id) so that the cdev backend reads events
 * in place, with no copy; keep it that way (lib/gpio/backend_cdev.c asserts it).
 */
struct udrv_edge_event {
	uint64_t timestamp_ns;	/* event clock of the line (see below) */
	enum udrv_edge edge;	/* UDRV_EDGE_RISING or UDRV_EDGE_FALLING */
	unsigned int offset;	/* chip offset of the line */
	uint32_t seqno;		/* request-wide sequence number */
	uint32_t line_seqno;	/* per-line sequence number */
	unsigned int index;	/* index of the line in the request */
	uint32_t lost;		/* events lost just before this one */
	uint32_t reserved[4];
};

/*
 * The structs passed in and out of these calls grow in later versions: each
 * exported function (suffix _sz) takes the caller's sizeof after the pointer
 * (for an array, its element size after the count) and the natural name is a
 * macro that passes it; see docs/abi.md.
 *
 * Request @n lines (@offsets, one settings entry per line) from @chip.
 * @config may be NULL (cdev backend, consumer "udrv"). On failure the chip's
 * error message says why (busy line: who holds it; bad offset; permission).
 */
int udrv_chip_request_sz(struct udrv_chip *chip,
			 const struct udrv_request_config *config,
			 size_t config_size, size_t n,
			 const unsigned int *offsets,
			 const struct udrv_line_settings *settings,
			 size_t settings_size, struct udrv_request **reqp);
#define udrv_chip_request(chip, config, n, offsets, settings, reqp)	\
	udrv_chip_request_sz(chip, config,				\
			     sizeof(struct udrv_request_config), n, offsets, \
			     settings, sizeof(struct udrv_line_settings), reqp)
/*
 * Take over a line request someone else made: @fd is the request of the
 * @n lines @offsets (in the request's order) of chip @chip ("gpiochip0"),
 * as a broker hands it over (udrvd's io.udrv1.Request.GetFd, with the
 * request's ChipPath and LinePaths) or a parent passes it on. No access to
 * the chip is needed: the request drives the lines at the character
 * device's speed, and the kernel keeps them held while any process has the
 * request open, so releasing this handle (which closes @fd) leaves them
 * with their holder, at their level. Character device only.
 * Linux does not say which lines a request holds (6.1), so udrv checks
 * what it can: @fd is a line request (anon_inode:gpio-line, where /proc is
 * mounted) of at least @n lines. On success the handle owns @fd; on an
 * error it stays the caller's, and @errbuf (when not NULL) gets the
 * message: -EBADF @fd is not open, -EINVAL another file, too few lines, a
 * bad chip name or offsets. Since 1.4.
 */
int udrv_request_adopt(const char *chip, int fd, size_t n,
		       const unsigned int *offsets, struct udrv_request **reqp,
		       char *errbuf, size_t errlen);
void udrv_request_release(struct udrv_request *req);
const char *udrv_request_errmsg(const struct udrv_request *req);

enum udrv_backend udrv_request_backend(const struct udrv_request *req);
size_t udrv_request_num_lines(const struct udrv_request *req);
unsigned int udrv_request_offset(const struct udrv_request *req, size_t idx);

/* Values: bit i of @mask selects line i; logical values (active-low applied). */
int udrv_request_get_values(struct udrv_request *req, uint64_t mask,
			    uint64_t *values);
int udrv_request_set_values(struct udrv_request *req, uint64_t mask,
			    uint64_t values);
/* One line: returns 0/1, or a negative errno. */
int udrv_request_get_value(struct udrv_request *req, size_t idx);
int udrv_request_set_value(struct udrv_request *req, size_t idx, int value);

/* Change the settings of all lines without releasing them (n entries). */
int udrv_request_reconfigure_sz(struct udrv_request *req,
				const struct udrv_line_settings *settings,
				size_t settings_size);
#define udrv_request_reconfigure(req, settings)				\
	udrv_request_reconfigure_sz(req, settings,			\
				    sizeof(struct udrv_line_settings))

/*
 * Events. The fd becomes readable (POLLIN) when events are pending: use it
 * with poll/epoll. udrv_request_wait_events() returns 1 when events are
 * pending, 0 on timeout (@timeout_ms < 0 waits forever), -EINTR when a
 * signal handler ran (so that a program can stop on Ctrl-C), -ENODEV when
 * the chip went away (driver unloaded or unbound; the message names the
 * chip's device and label). It re-polls at least every 250 ms, so that a
 * removal is reported within that time also where the kernel does not wake
 * the poll (Debian 12's 6.1 kernels, measured).
 * udrv_request_read_events() reads up to @max events with as few system
 * calls as possible and returns their number; it blocks only when none are
 * pending. Like the waits it returns -EINTR when a signal handler ran while
 * it blocked (the handler installed without SA_RESTART: with SA_RESTART the
 * kernel restarts the read), and -ENODEV when the chip went away. A read()
 * blocked on a GPIO character device holds the chip on 6.1 kernels:
 * unbinding its driver waits until the read returns. Where the device may
 * go away under you, wait with udrv_request_wait_events() (or poll the fd)
 * and read only what is pending, as 'udrv gpio mon' does. Gaps in the
 * kernel's sequence numbers are reported in each event's 'lost' field and
 * accumulated in udrv_request_lost_events().
 *
 * Timestamps: cdev events carry the kernel's timestamp taken in hardirq
 * context; sysfs has none, so its events carry CLOCK_MONOTONIC at the time
 * userspace saw them and losses are inferred from repeated levels.
 */
int udrv_request_fd(const struct udrv_request *req);
int udrv_request_wait_events(struct udrv_request *req, int timeout_ms);
int udrv_request_read_events_sz(struct udrv_request *req,
				struct udrv_edge_event *buf, size_t max,
				size_t event_size);
#define udrv_request_read_events(req, buf, max)				\
	udrv_request_read_events_sz(req, buf, max,			\
				    sizeof(struct udrv_edge_event))
uint64_t udrv_request_lost_events(const struct udrv_request *req);

const char *udrv_backend_str(enum udrv_backend backend);
/* Parse "cdev", "sysfs" or "mmio"; returns 0 or -EINVAL. */
int udrv_backend_parse(const char *str, enum udrv_backend *backend);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_LINE_H */
