/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ops table between the request front end (request.c) and the GPIO
 * backends (backend_cdev.c, backend_sysfs.c, ...). The front validates
 * arguments and never knows which backend it talks to.
 */
#ifndef UDRV_BACKEND_H
#define UDRV_BACKEND_H

#include <errno.h>
#include <limits.h>

#include <udrv/line.h>

#include "internal.h"

struct udrv_chip {
	int fd;				/* /dev/gpiochipN, or -1 */
	int num;			/* N of gpiochipN, or -1 */
	unsigned int num_lines;
	int sysfs_base;			/* or -ENOENT */
	char name[32];
	char label[32];
	char path[UDRV_PATH_LEN];
	char errmsg[UDRV_ERRMSG_LEN];
};

/*
 * A backend whose lines are driven by one 32-bit store (mmio with set and
 * clear registers) fills these, so that udrv_request_set_value() stores
 * without calling into the backend: store[i][0] makes line i active,
 * store[i][1] inactive (set and clear, swapped when active-low), storing
 * store_bit[i]. NULL (every other backend, inputs, shadowed or narrow
 * blocks): the call goes to set_value. First in struct udrv_request, with
 * power-of-two strides: the address is the request plus a shift.
 */
struct udrv_store_path {
	volatile uint32_t *reg[UDRV_LINES_MAX][2];
	uint32_t bit[UDRV_LINES_MAX];
};

struct udrv_request {
	struct udrv_store_path store;	/* first: the hot path */
	/* ops->set_value, or a fallback through ops->set: one jump, no test */
	int (*set_value)(struct udrv_request *req, size_t idx, int value);
	const struct udrv_backend_ops *ops;
	enum udrv_backend backend;
	int fd;				/* what udrv_request_fd() returns */
	size_t num_lines;
	uint64_t lost;
	void *priv;			/* backend state */
	void *regs;			/* mmio: register state (priv: the cdev's) */
	char chip_name[32];
	char chip_label[32];		/* for messages: "gpiochip0 (label)" */
	char chip_path[UDRV_PATH_LEN];	/* /dev/gpiochipN */
	char consumer[32];
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
	char errmsg[UDRV_ERRMSG_LEN];
};

struct udrv_backend_ops {
	const char *name;
	/* Claim the lines; errors go to @chip->errmsg. */
	int (*request)(struct udrv_request *req, struct udrv_chip *chip,
		       const struct udrv_request_config *config);
	/* Optional: take @fd, a request of these lines someone else made
	 * (udrv_request_adopt()); errors go to @chip->errmsg and leave
	 * @fd open. */
	int (*adopt)(struct udrv_request *req, struct udrv_chip *chip, int fd);
	void (*release)(struct udrv_request *req);
	int (*get)(struct udrv_request *req, uint64_t mask, uint64_t *values);
	int (*set)(struct udrv_request *req, uint64_t mask, uint64_t values);
	/*
	 * Optional hot path of udrv_request_set_value(): one line, @idx already
	 * checked. Keeps a toggle to one jump between the caller and the
	 * syscall or store; NULL falls back to set().
	 */
	int (*set_value)(struct udrv_request *req, size_t idx, int value);
	int (*reconfigure)(struct udrv_request *req,
			   const struct udrv_line_settings *settings);
	int (*read_events)(struct udrv_request *req,
			   struct udrv_edge_event *buf, size_t max);
};

extern const struct udrv_backend_ops udrv_cdev_ops;
extern const struct udrv_backend_ops udrv_sysfs_ops;
extern const struct udrv_backend_ops udrv_mmio_ops;

/*
 * The registry (lib/gpio/backends.c): udrv_backends[b] is the ops of enum value b,
 * never NULL below udrv_num_backends. Adding a backend: its ops file, its
 * enum value in include/udrv/line.h, one line in lib/gpio/backends.c. Internal:
 * the version script (libudrv.map) keeps both out of libudrv.so's exports.
 */
extern const struct udrv_backend_ops *const udrv_backends[];
extern const size_t udrv_num_backends;

/* Shared by the backends. */
/*
 * The one message for a request whose chip went away (driver unloaded or
 * unbound): every backend maps what the kernel reports (ENODEV, POLLERR or
 * POLLHUP, end of file) here. @what: the operation and what the kernel said.
 * Returns -ENODEV.
 */
int udrv_request_gone(struct udrv_request *req, const char *what);
/* A request of no line of @chip, its names only: what a responder whose
 * lines are all the kernel helper's stands on (udrv_responder_new_chip()).
 * udrv_request_release() frees it; NULL: out of memory. */
struct udrv_request *udrv_request_lineless(const struct udrv_chip *chip);
int udrv_settings_check(char *errmsg, const struct udrv_line_settings *s,
			size_t n, const unsigned int *offsets);
/* The index of chip offset @offset in the request, or -1. Inline: the cdev
 * backend looks it up for every event it delivers. */
static inline int udrv_request_index(const struct udrv_request *req,
				     unsigned int offset)
{
	for (size_t i = 0; i < req->num_lines; i++)
		if (req->offsets[i] == offset)
			return (int)i;
	return -1;
}
/* Find the chip's /sys/class/gpio/gpiochipBASE entry: sets sysfs_base (and
 * label / num_lines when the character device did not). */
void udrv_chip_find_sysfs(struct udrv_chip *chip);
/* Line info for building another message: leaves chip->errmsg alone. */
int udrv_chip_line_info_quiet(struct udrv_chip *chip, unsigned int offset,
			      struct udrv_line_info *info);
struct gpio_v2_line_info;
/* The kernel's line info in ours (name, consumer, flags, debounce). */
void udrv_line_info_from_v2(struct udrv_line_info *info,
			    const struct gpio_v2_line_info *li);
/* Who holds a busy line, for messages ("held by consumer 'foo'"). */
void udrv_chip_describe_holder(struct udrv_chip *chip, unsigned int offset,
			       char *buf, size_t len);

/*
 * The legacy global GPIO number of line @offset: sysfs base + offset, in
 * range of an int (a base read from sysfs near INT_MAX must not wrap onto
 * another line's number). 0 or -ERANGE.
 */
static inline int udrv_chip_gpio_number(const struct udrv_chip *chip,
					unsigned int offset, int *gpio)
{
	long long n = (long long)chip->sysfs_base + offset;

	if (chip->sysfs_base < 0 || n > INT_MAX)
		return -ERANGE;
	*gpio = (int)n;
	return 0;
}

#endif /* UDRV_BACKEND_H */
