// SPDX-License-Identifier: GPL-2.0-only
/*
 * How the public structs grow (lib/abi.c, docs/abi.md): every struct is
 * passed with the caller's sizeof. An older, smaller input struct reads as
 * zero past its end; a newer, larger one is accepted when the bytes this
 * library does not know are zero and refused (-E2BIG, the message naming the
 * struct and the byte) when they are not; outputs are written up to the
 * caller's size, a larger caller's tail zeroed; an array is walked with the
 * caller's stride; below the 1.0 size is -EINVAL.
 *
 * libudrv 1.0 is the first version, so no real struct is smaller than 1.0's
 * yet: the smaller-struct path is tested on a struct that ends earlier (a
 * "1.0" of two fields against a "1.1" of three), through the same helpers
 * every public function uses; the real functions are tested with larger
 * structs (a struct that embeds the public one and adds a field) and with
 * sizes below 1.0.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "abi.h"
#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"

/* ---- the helpers, on a struct that grew ------------------------------ */

struct v10 { uint32_t a, b; };			/* as in "1.0" */
struct v11 { uint32_t a, b, c; };		/* "1.1" added c */
struct v12 { uint32_t a, b, c, d; };		/* a newer caller */

static const struct udrv_abi v11_abi = {
	"struct v11", sizeof(struct v10), sizeof(struct v11), NULL
};

static void test_in_older_smaller_struct_reads_zero_defaults(void)
{
	struct v10 old = { 1, 2 };
	struct v11 got;

	memset(&got, 0xa5, sizeof(got));
	CHECK_INT(udrv_abi_in(NULL, &v11_abi, &got, &old, sizeof(old)), 0);
	CHECK_INT(got.a, 1);
	CHECK_INT(got.b, 2);
	CHECK_INT(got.c, 0);
}

static void test_in_same_size(void)
{
	struct v11 cur = { 1, 2, 3 }, got;

	CHECK_INT(udrv_abi_in(NULL, &v11_abi, &got, &cur, sizeof(cur)), 0);
	CHECK_INT(got.c, 3);
}

static void test_in_newer_larger_struct_zero_tail_accepted(void)
{
	struct v12 newer = { 1, 2, 3, 0 };
	struct v11 got;

	CHECK_INT(udrv_abi_in(NULL, &v11_abi, &got, &newer, sizeof(newer)), 0);
	CHECK_INT(got.a, 1);
	CHECK_INT(got.c, 3);
}

static void test_in_newer_larger_struct_set_tail_refused(void)
{
	struct v12 newer = { 1, 2, 3, 4 };
	struct v11 got = { 9, 9, 9 };
	char msg[UDRV_ERRMSG_LEN] = "";

	CHECK_INT(udrv_abi_in(msg, &v11_abi, &got, &newer, sizeof(newer)), -E2BIG);
	CHECK_CONTAINS(msg, "struct v11");
	CHECK_CONTAINS(msg, "byte 12");
	CHECK_CONTAINS(msg, "16 bytes");
	CHECK_INT(got.a, 9);		/* nothing copied */
}

static void test_in_below_the_first_version_refused(void)
{
	uint32_t a = 1;
	struct v11 got;
	char msg[UDRV_ERRMSG_LEN] = "";

	CHECK_INT(udrv_abi_in(msg, &v11_abi, &got, &a, sizeof(a)), -EINVAL);
	CHECK_CONTAINS(msg, "struct v11 of 4 bytes");
	CHECK_INT(udrv_abi_size(NULL, &v11_abi, sizeof(a)), -EINVAL);
}

static void test_out_older_smaller_struct_gets_its_bytes_only(void)
{
	struct v11 ours = { 1, 2, 3 };
	struct { struct v10 old; uint32_t canary; } dst = { { 0, 0 }, 0xdeadbeef };

	udrv_abi_out(&v11_abi, &dst.old, &ours, sizeof(dst.old));
	CHECK_INT(dst.old.a, 1);
	CHECK_INT(dst.old.b, 2);
	CHECK_INT(dst.canary, 0xdeadbeef);
}

static void test_out_newer_larger_struct_tail_zeroed(void)
{
	struct v11 ours = { 1, 2, 3 };
	struct v12 dst;

	memset(&dst, 0xa5, sizeof(dst));
	udrv_abi_out(&v11_abi, &dst, &ours, sizeof(dst));
	CHECK_INT(dst.c, 3);
	CHECK_INT(dst.d, 0);
}

/* ---- the public functions, with a larger struct -------------------------- */

struct settings_big { struct udrv_line_settings s; uint32_t extra; };
struct config_big { struct udrv_request_config c; uint64_t extra; };
struct info_big { struct udrv_line_info i; uint32_t extra; };
struct event_big { struct udrv_edge_event e; uint64_t extra[2]; };
struct state_big { struct udrv_rt_state s; uint32_t extra; };
struct layout_big { struct udrv_gpio_layout l; uint64_t extra; };

static struct udrv_chip *sysfs_chip(void)
{
	struct udrv_chip *chip = udrv_chip_new();

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_gpio_export_start();
	CHECK_INT(udrv_chip_open(chip, "fake-wire"), 0);
	return chip;
}

static void test_request_settings_stride(void)
{
	struct settings_big s[2] = {
		{ { .direction = UDRV_DIR_OUTPUT, .value = 1 }, 0 },
		{ { .direction = UDRV_DIR_INPUT, .active_low = true }, 0 },
	};
	struct config_big cfg = { { .backend = UDRV_BACKEND_SYSFS }, 0 };
	struct udrv_chip *chip = sysfs_chip();
	unsigned int offs[2] = { 2, 3 };
	struct udrv_request *req;

	/* a newer caller, every new field zero: works, each line its entry */
	CHECK_INT(udrv_chip_request_sz(chip, &cfg.c, sizeof(cfg), 2, offs,
				       &s[0].s, sizeof(s[0]), &req), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio514/direction", "high"));
	CHECK(fake_starts_with("sys/class/gpio/gpio515/active_low", "1"));
	CHECK_INT(udrv_request_reconfigure_sz(req, &s[0].s, sizeof(s[0])), 0);
	/* a field this library does not know, set: refused, named */
	s[1].extra = 7;
	CHECK_INT(udrv_request_reconfigure_sz(req, &s[0].s, sizeof(s[0])), -E2BIG);
	CHECK_CONTAINS(udrv_request_errmsg(req), "struct udrv_line_settings");
	CHECK_CONTAINS(udrv_request_errmsg(req), "does not know");
	udrv_request_release(req);

	CHECK_INT(udrv_chip_request_sz(chip, &cfg.c, sizeof(cfg), 2, offs,
				       &s[0].s, sizeof(s[0]), &req), -E2BIG);
	CHECK(req == NULL);
	s[1].extra = 0;
	cfg.extra = 1;
	CHECK_INT(udrv_chip_request_sz(chip, &cfg.c, sizeof(cfg), 2, offs,
				       &s[0].s, sizeof(s[0]), &req), -E2BIG);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "struct udrv_request_config");
	/* below 1.0's size */
	CHECK_INT(udrv_chip_request_sz(chip, &cfg.c, sizeof(cfg.c), 2, offs,
				       &s[0].s, 8, &req), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "struct udrv_line_settings of 8 bytes");
	udrv_chip_free(chip);
}

static void test_request_layout_needs_its_size(void)
{
	struct udrv_gpio_layout layout = UDRV_GPIO_LAYOUT_INIT;
	struct udrv_request_config cfg = {
		.backend = UDRV_BACKEND_MMIO, .layout = &layout,
	};
	struct udrv_line_settings s = { 0 };
	struct udrv_chip *chip = sysfs_chip();
	struct udrv_request *req;
	unsigned int off = 1;

	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &off, &s, &req), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "layout_size");
	cfg.layout_size = 16;
	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &off, &s, &req), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "struct udrv_gpio_layout of 16 bytes");
	udrv_chip_free(chip);
}

static void test_line_info_larger_tail_zeroed(void)
{
	struct udrv_chip *chip = sysfs_chip();
	struct info_big info;

	memset(&info, 0xa5, sizeof(info));
	CHECK_INT(udrv_chip_line_info_sz(chip, 3, &info.i, sizeof(info)), 0);
	CHECK_INT(info.i.offset, 3);
	CHECK_INT(info.extra, 0);
	CHECK_INT(udrv_chip_line_info_sz(chip, 3, &info.i, 4), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "struct udrv_line_info");
	udrv_chip_free(chip);
}

/* A cdev request around a pipe (as test_events.c): the pipe is the kernel. */
static void test_read_events_with_the_callers_stride(void)
{
	static char priv[65536];
	struct udrv_request req;
	struct event_big ev[3];
	int p[2];

	memset(&req, 0, sizeof(req));
	memset(priv, 0, sizeof(priv));
	CHECK_INT(pipe(p), 0);
	req.ops = &udrv_cdev_ops;
	req.fd = p[0];
	req.num_lines = 2;
	req.offsets[0] = 4;
	req.offsets[1] = 6;
	req.priv = priv;
	strcpy(req.chip_name, "gpiochip7");
	fake_gpio_event(p[1], 4, 1);
	fake_gpio_event(p[1], 6, 3);
	memset(ev, 0xa5, sizeof(ev));
	/* 64-byte stride: through the bounce buffer, each event at its place */
	CHECK_INT(udrv_request_read_events_sz(&req, &ev[0].e, 3, sizeof(ev[0])), 2);
	CHECK_INT(ev[0].e.offset, 4);
	CHECK_INT(ev[0].e.index, 0);
	CHECK_INT(ev[0].extra[1], 0);
	CHECK_INT(ev[1].e.offset, 6);
	CHECK_INT(ev[1].e.index, 1);
	CHECK_INT(ev[1].e.lost, 1);
	CHECK_INT(ev[1].e.timestamp_ns, 1003);
	CHECK_INT(ev[1].extra[0], 0);
	CHECK_INT(ev[2].e.seqno, 0xa5a5a5a5);	/* not written */
	CHECK_INT(udrv_request_read_events_sz(&req, &ev[0].e, 3, 40), -EINVAL);
	CHECK_CONTAINS(req.errmsg, "struct udrv_edge_event of 40 bytes");
	close(p[0]);
	close(p[1]);
}

struct info_event_big { struct udrv_info_event e; uint64_t extra; };

/* A chip whose descriptor is a pipe: the kernel's line-info changes. */
static void test_read_info_event_sizes(void)
{
	struct gpio_v2_line_info_changed ch;
	struct udrv_chip *chip = udrv_chip_new();
	struct info_event_big ev;
	struct info_big info;
	int p[2];

	CHECK_INT(pipe(p), 0);
	chip->fd = p[0];
	chip->num_lines = 8;
	strcpy(chip->name, "gpiochip7");
	memset(&ch, 0, sizeof(ch));
	strcpy(ch.info.name, "DOOR");
	strcpy(ch.info.consumer, "lock");
	ch.info.offset = 5;
	ch.info.flags = GPIO_V2_LINE_FLAG_USED | GPIO_V2_LINE_FLAG_OUTPUT;
	ch.timestamp_ns = 4242;
	ch.event_type = GPIO_V2_LINE_CHANGED_CONFIG;
	CHECK_INT(write(p[1], &ch, sizeof(ch)), (int)sizeof(ch));
	memset(&ev, 0xa5, sizeof(ev));
	memset(&info, 0xa5, sizeof(info));
	CHECK_INT(udrv_chip_read_info_event_sz(chip, &ev.e, 8, &info.i, sizeof(info)), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "struct udrv_info_event");
	CHECK_INT(udrv_chip_read_info_event_sz(chip, &ev.e, sizeof(ev), &info.i, sizeof(info)), 0);
	CHECK_INT(ev.e.change, UDRV_INFO_RECONFIGURED);
	CHECK_INT(ev.e.timestamp_ns, 4242);
	CHECK_INT(ev.e.offset, 5);
	CHECK_INT(ev.extra, 0);
	CHECK_INT(info.i.offset, 5);
	CHECK_INT(info.i.direction, UDRV_DIR_OUTPUT);
	CHECK_INT(info.i.used, 1);
	CHECK_CONTAINS(info.i.consumer, "lock");
	CHECK_INT(info.extra, 0);
	CHECK_CONTAINS(udrv_info_change_str(ev.e.change), "reconfigured");
	CHECK_INT(udrv_chip_wait_info_event(chip, 0), 0);
	CHECK_INT(udrv_chip_watch_line_info(chip, 8, NULL), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "offset 8 out of range");
	close(p[1]);
	udrv_chip_free(chip);	/* closes p[0] */
}

static void test_watch_needs_the_character_device(void)
{
	struct udrv_chip *chip = sysfs_chip();
	struct udrv_line_info info;

	CHECK_INT(udrv_chip_fd(chip), -EOPNOTSUPP);
	CHECK_INT(udrv_chip_watch_line_info(chip, 3, &info), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "gpiochip0 has no GPIO character device");
	CHECK_INT(udrv_chip_read_info_event(chip, NULL, NULL), -EOPNOTSUPP);
	udrv_chip_free(chip);
}

static void test_rt_state_sizes(void)
{
	struct state_big st;
	struct udrv_json *j;
	FILE *out = fopen("/dev/null", "w");

	fake_root();
	fake_file("proc/self/status", "Name:\ttest\nVmLck:\t       0 kB\n");
	memset(&st, 0xa5, sizeof(st));
	CHECK_INT(udrv_rt_get_state_sz(NULL, &st.s, sizeof(st)), 0);
	CHECK_INT(st.extra, 0);
	CHECK_INT(st.s.dma_latency_us, -1);
	CHECK_INT(udrv_rt_get_state_sz(NULL, &st.s, 8), -EINVAL);
	j = udrv_json_new(out, false);
	CHECK_INT(udrv_rt_state_write_json_sz(&st.s, sizeof(st), j), 0);
	st.extra = 1;
	CHECK_INT(udrv_rt_state_write_json_sz(&st.s, sizeof(st), j), -E2BIG);
	CHECK_INT(udrv_json_free(j), 0);
	fclose(out);
}

static void test_layout_parse_larger_tail_zeroed(void)
{
	struct layout_big l;
	char err[256] = "";

	memset(&l, 0xa5, sizeof(l));
	CHECK_INT(udrv_gpio_layout_parse_sz("base=0x1000,data=0x0", &l.l,
					    sizeof(l), err, sizeof(err)), 0);
	CHECK_INT(l.l.base, 0x1000);
	CHECK_INT(l.l.dir, -1);
	CHECK_INT(l.extra, 0);
	CHECK_INT(udrv_gpio_layout_parse_sz("base=0x1000", &l.l, 8, err,
					    sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "struct udrv_gpio_layout of 8 bytes");
}

/* The macros pass this library's own sizes: the fast path, no copy. */
static void test_sizes_of_1_0(void)
{
	CHECK_INT(udrv_abi_edge_event.size, 48);
	CHECK_INT(udrv_abi_edge_event.min, 48);
	CHECK_INT(udrv_abi_line_settings.min, sizeof(struct udrv_line_settings));
	CHECK_INT(udrv_abi_rt_report.min, sizeof(struct udrv_rt_report));
}

UDRV_TESTS(
	UDRV_T(test_in_older_smaller_struct_reads_zero_defaults),
	UDRV_T(test_in_same_size),
	UDRV_T(test_in_newer_larger_struct_zero_tail_accepted),
	UDRV_T(test_in_newer_larger_struct_set_tail_refused),
	UDRV_T(test_in_below_the_first_version_refused),
	UDRV_T(test_out_older_smaller_struct_gets_its_bytes_only),
	UDRV_T(test_out_newer_larger_struct_tail_zeroed),
	UDRV_T(test_request_settings_stride),
	UDRV_T(test_request_layout_needs_its_size),
	UDRV_T(test_line_info_larger_tail_zeroed),
	UDRV_T(test_read_events_with_the_callers_stride),
	UDRV_T(test_read_info_event_sizes),
	UDRV_T(test_watch_needs_the_character_device),
	UDRV_T(test_rt_state_sizes),
	UDRV_T(test_layout_parse_larger_tail_zeroed),
	UDRV_T(test_sizes_of_1_0),
)
