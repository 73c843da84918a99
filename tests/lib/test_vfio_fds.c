// SPDX-License-Identifier: GPL-2.0-only
/*
 * A VFIO device someone else opened (udrv_vfio_open_fds), on a fake VFIO
 * (fake_vfio.h): the fds a broker hands over are taken and owned; each
 * wrong one (swapped, closed, a group outside a container, another
 * device's fd, a spec naming no device) is refused with its message, and
 * all three stay the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_vfio.h"
#include "harness.h"

#define BDF	"0000:00:01.0"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* What a broker hands over: duplicates of an open handle's three fds. */
static void broker_fds(int fds[3])
{
	struct udrv_vfio *v = fake_vfio_open_device();

	fds[0] = dup(udrv_vfio_container_fd(v));
	fds[1] = dup(udrv_vfio_group_fd(v));
	fds[2] = dup(udrv_vfio_device_fd(v));
	CHECK(fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0);
	udrv_vfio_free(v);
}

static int open_fds(struct udrv_vfio *v, const int fds[3])
{
	return udrv_vfio_open_fds(v, BDF, fds[0], fds[1], fds[2]);
}

static void test_open_fds(void)
{
	struct udrv_vfio *v = udrv_vfio_new();
	struct udrv_vfio_info in;
	uint16_t cmd = 0;
	int fds[3];

	broker_fds(fds);
	fake_vfio_region_write(VFIO_PCI_CONFIG_REGION_INDEX, 4, "\0\0", 2);
	CHECK_INT(open_fds(v, fds), 0);
	CHECK_INT(udrv_vfio_device_fd(v), fds[2]);
	CHECK_INT(udrv_vfio_info(v, &in), 0);
	CHECK_STR(in.bdf, BDF);
	CHECK_INT(in.vendor, 0x1234);
	CHECK_INT(in.num_regions, 9);
	CHECK_INT(in.dma_mask_bits, 32);
	/* as after udrv_vfio_open(): decoding and bus mastering on, REQ armed */
	fake_vfio_region_read(VFIO_PCI_CONFIG_REGION_INDEX, 4, &cmd, 2);
	CHECK_INT(cmd, 0x0006);
	CHECK(fake_vfio.req_fd >= 0);
	/* the handle owns the three */
	CHECK_INT(udrv_vfio_container_fd(v), fds[0]);
	CHECK_INT(udrv_vfio_group_fd(v), fds[1]);
	udrv_vfio_close(v);
	CHECK(!is_open(fds[0]) && !is_open(fds[1]) && !is_open(fds[2]));
	CHECK_INT(udrv_vfio_container_fd(v), -1);
	CHECK_INT(udrv_vfio_group_fd(v), -1);
	udrv_vfio_free(v);
}

/* Each wrong fd is refused, says which, and all three stay the caller's. */
static void check_refused(const int fds[3], int expect, const char *needle)
{
	struct udrv_vfio *v = udrv_vfio_new();
	bool was[3];

	for (int i = 0; i < 3; i++)
		was[i] = is_open(fds[i]);
	CHECK_INT(open_fds(v, fds), expect);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), needle);
	for (int i = 0; i < 3; i++)
		CHECK(is_open(fds[i]) == was[i]);
	CHECK_INT(udrv_vfio_device_fd(v), -1);
	udrv_vfio_free(v);
}

static void test_open_fds_refused(void)
{
	int fds[3], swapped[3], closed[3];

	broker_fds(fds);
	/* the group's fd where the container's should be, and the reverse */
	memcpy(swapped, (int[]){ fds[1], fds[0], fds[2] }, sizeof(swapped));
	check_refused(swapped, -EINVAL,
		      "the container file descriptor");
	check_refused(swapped, -EINVAL, "is not ");
	memcpy(swapped, (int[]){ fds[0], fds[2], fds[2] }, sizeof(swapped));
	check_refused(swapped, -EINVAL, "group file descriptor");
	memcpy(closed, (int[]){ fds[0], fds[1], 1000 }, sizeof(closed));
	check_refused(closed, -EBADF, "the device file descriptor 1000 given for " BDF " is not open");
	memcpy(closed, (int[]){ 1000, fds[1], fds[2] }, sizeof(closed));
	check_refused(closed, -EBADF, "the container file descriptor 1000 given for " BDF " is not open");
	/* a group not (or no longer) in a container */
	fake_vfio.container_set = false;
	check_refused(fds, -EINVAL, "is not in a container with an IOMMU");
	fake_vfio.container_set = true;
	/* a device fd of another device: its config space says so */
	fake_vfio_region_write(VFIO_PCI_CONFIG_REGION_INDEX, 0, "\xf4\x1a\x00\x10", 4);
	check_refused(fds, -EINVAL, "is another device: 1af4:1000 in its config space, 1234:11e8 in sysfs");
	/* a spec that names no device */
	{
		struct udrv_vfio *v = udrv_vfio_new();

		CHECK_INT(udrv_vfio_open_fds(v, "0000:00:09.0", fds[0], fds[1], fds[2]), -ENODEV);
		CHECK(is_open(fds[0]) && is_open(fds[1]) && is_open(fds[2]));
		udrv_vfio_free(v);
	}
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}

UDRV_TESTS(UDRV_T(test_open_fds), UDRV_T(test_open_fds_refused))
