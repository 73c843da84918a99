/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GPIO chips: open one by path, name or label; enumerate chips and lines.
 */
#ifndef UDRV_CHIP_H
#define UDRV_CHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_chip;

enum udrv_direction {
	UDRV_DIR_INPUT = 0,
	UDRV_DIR_OUTPUT,
};

enum udrv_bias {
	UDRV_BIAS_AS_IS = 0,	/* leave the line's bias alone */
	UDRV_BIAS_DISABLED,
	UDRV_BIAS_PULL_UP,
	UDRV_BIAS_PULL_DOWN,
};

enum udrv_drive {
	UDRV_DRIVE_PUSH_PULL = 0,
	UDRV_DRIVE_OPEN_DRAIN,
	UDRV_DRIVE_OPEN_SOURCE,
};

enum udrv_edge {
	UDRV_EDGE_NONE = 0,
	UDRV_EDGE_RISING,
	UDRV_EDGE_FALLING,
	UDRV_EDGE_BOTH,
};

enum udrv_clock {
	UDRV_CLOCK_MONOTONIC = 0,
	UDRV_CLOCK_REALTIME,
	UDRV_CLOCK_HTE,		/* hardware timestamp engine */
};

/* What the kernel says about one line (udrv_chip_line_info()). */
struct udrv_line_info {
	unsigned int offset;
	char name[32];		/* "" when the line is unnamed */
	char consumer[32];	/* "" when the line is free */
	bool used;		/* requested by someone (kernel or userspace) */
	enum udrv_direction direction;
	bool active_low;
	enum udrv_bias bias;
	enum udrv_drive drive;
	enum udrv_edge edge;
	enum udrv_clock event_clock;
	uint32_t debounce_us;
};

/*
 * Allocate an unopened chip handle. Open it with udrv_chip_open(); its error
 * message is available even when opening fails.
 */
struct udrv_chip *udrv_chip_new(void);

/*
 * Open a chip. @spec is a path ("/dev/gpiochip0"), a name ("gpiochip0"),
 * a number ("0") or a label ("pinctrl-bcm2835"). The character device is
 * used when present; a chip that only has legacy sysfs GPIO still opens
 * (udrv_chip_has_cdev() is then false and only the sysfs backend works).
 */
int udrv_chip_open(struct udrv_chip *chip, const char *spec);
void udrv_chip_close(struct udrv_chip *chip);
void udrv_chip_free(struct udrv_chip *chip);
const char *udrv_chip_errmsg(const struct udrv_chip *chip);

const char *udrv_chip_name(const struct udrv_chip *chip);	/* gpiochip0 */
const char *udrv_chip_label(const struct udrv_chip *chip);
const char *udrv_chip_path(const struct udrv_chip *chip);	/* /dev/gpiochip0 */
unsigned int udrv_chip_num_lines(const struct udrv_chip *chip);
bool udrv_chip_has_cdev(const struct udrv_chip *chip);
/* Global sysfs number of offset 0, or -ENOENT without sysfs GPIO. */
int udrv_chip_sysfs_base(const struct udrv_chip *chip);

/* (_sz and the macro: how structs grow, docs/abi.md) */
int udrv_chip_line_info_sz(struct udrv_chip *chip, unsigned int offset,
			   struct udrv_line_info *info, size_t info_size);
#define udrv_chip_line_info(chip, offset, info)				\
	udrv_chip_line_info_sz(chip, offset, info, sizeof(struct udrv_line_info))
/* Offset of the line called @name, or -ENOENT. */
int udrv_chip_find_line(struct udrv_chip *chip, const char *name);

/*
 * Line-info changes (since 1.6): what libgpiod's gpionotify shows. Watch a
 * line and the kernel queues an event on the chip's descriptor each time
 * any process requests it, releases it or changes its settings.
 * udrv_chip_watch_line_info() starts watching line @offset and writes its
 * info now (as udrv_chip_line_info()); -EBUSY when this chip handle watches
 * it already, -EOPNOTSUPP for a chip without a character device, -ENOTTY
 * for a kernel without the watch (before Linux 5.10).
 * udrv_chip_unwatch_line_info() stops (-EBUSY: not watched).
 * udrv_chip_fd() is the descriptor to poll (POLLIN: an event is pending),
 * -EOPNOTSUPP without a character device; udrv_chip_wait_info_event()
 * returns 1 when an event is pending, 0 on timeout (@timeout_ms < 0 waits
 * forever), -EINTR when a signal handler ran.
 * udrv_chip_read_info_event() reads one event into @event and the line's
 * info after the change into @info (either may be NULL); it blocks while
 * none is pending. Every watch of the handle ends when it is closed.
 */
enum udrv_info_change {
	UDRV_INFO_REQUESTED = 1,	/* a process requested the line */
	UDRV_INFO_RELEASED,		/* its holder released it */
	UDRV_INFO_RECONFIGURED,		/* its holder changed its settings */
};

struct udrv_info_event {
	uint64_t timestamp_ns;		/* CLOCK_MONOTONIC, taken by the kernel */
	enum udrv_info_change change;
	unsigned int offset;		/* the line's offset on the chip */
	uint32_t reserved[4];
};

int udrv_chip_watch_line_info_sz(struct udrv_chip *chip, unsigned int offset,
				 struct udrv_line_info *info, size_t info_size);
#define udrv_chip_watch_line_info(chip, offset, info)			\
	udrv_chip_watch_line_info_sz(chip, offset, info,		\
				     sizeof(struct udrv_line_info))
int udrv_chip_unwatch_line_info(struct udrv_chip *chip, unsigned int offset);
int udrv_chip_fd(const struct udrv_chip *chip);
int udrv_chip_wait_info_event(struct udrv_chip *chip, int timeout_ms);
int udrv_chip_read_info_event_sz(struct udrv_chip *chip,
				 struct udrv_info_event *event,
				 size_t event_size,
				 struct udrv_line_info *info, size_t info_size);
#define udrv_chip_read_info_event(chip, event, info)			\
	udrv_chip_read_info_event_sz(chip, event,			\
				     sizeof(struct udrv_info_event), info, \
				     sizeof(struct udrv_line_info))
const char *udrv_info_change_str(enum udrv_info_change change);

/*
 * Enumerate GPIO chips ("gpiochip0", "gpiochip1", ... sorted by number).
 * Returns the count and stores a NULL-terminated array in *names, to be freed
 * with udrv_strv_free(). When there are none, udrv_gpio_absent_reason()
 * explains why (no GPIO support in the kernel, no chips registered, ...).
 */
int udrv_chip_list(char ***names);
void udrv_gpio_absent_reason(char *buf, size_t len);
void udrv_strv_free(char **strv);

const char *udrv_direction_str(enum udrv_direction dir);
const char *udrv_bias_str(enum udrv_bias bias);
const char *udrv_drive_str(enum udrv_drive drive);
const char *udrv_edge_str(enum udrv_edge edge);
const char *udrv_clock_str(enum udrv_clock clock);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_CHIP_H */
