// SPDX-License-Identifier: GPL-2.0-only
/*
 * VFIO on fake trees (fake_vfio.h): the PCI address and ID parsers, which
 * device a spec names, every way an open fails with its message (no
 * IOMMU, wrong driver or none, vfio-pci not loaded, /dev/vfio missing or
 * not ours, group not viable, no interrupt remapping), then an open device:
 * info, regions, BAR maps, config space and bus mastering, reset,
 * interrupts through real eventfds (missed counts, timeouts, the request to
 * release the device, INTx unmask), udrv_pci_bind()'s writes, the list of vfio-pci devices and why there are none.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_vfio.h"
#include "harness.h"
#include "vfio/pci.h"
#include "vfio/vfio_priv.h"

#define BDF	"0000:00:01.0"

/* ---- parsers -------------------------------------------------------- */

static void test_parse_bdf(void)
{
	static const char *const good[][2] = {
		{ "0000:00:01.0", "0000:00:01.0" },
		{ "00:01.0", "0000:00:01.0" },
		{ "0000:3B:1F.7", "0000:3b:1f.7" },
		{ "ffff:ff:00.1", "ffff:ff:00.1" },
		{ "10000:00:02.0", "10000:00:02.0" },
	};
	static const char *const bad[] = {
		"", "0", "00:01", "00:01.", "00:01.8", "00:20.0", "0:01.0",
		"000:00:01.0", "00000:00:01.0", "100000:00:01.0", "00:01.0 ",
		" 00:01.0", "00:01.00", "00:001.0", "0000:00:01:0", "g0:01.0",
		"0000:00:01.0\n", "0000::00:01.0", "1234:11e8", "-0:01.0",
		"0000:00:01.0.0", ":00:01.0",
	};
	char bdf[UDRV_PCI_BDF_LEN];

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		CHECK_INT(udrv_pci_parse_bdf(good[i][0], bdf), 0);
		CHECK_STR(bdf, good[i][1]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (udrv_pci_parse_bdf(bad[i], bdf) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "'%s' parsed as %s",
				     bad[i], bdf);
	CHECK_INT(udrv_pci_parse_bdf(NULL, bdf), -EINVAL);
}

static void test_parse_id(void)
{
	static const char *const bad[] = {
		"", "1234", "1234:", "1234:11e", "1234:11e8a", "0x1234:11e8",
		"123:11e8", "1234-11e8", "1234:11g8", " 1234:11e8",
		"00:01.0",
	};
	uint16_t v = 0, d = 0;

	CHECK_INT(udrv_pci_parse_id("1234:11e8", &v, &d), 0);
	CHECK_INT(v, 0x1234);
	CHECK_INT(d, 0x11e8);
	CHECK_INT(udrv_pci_parse_id("FFFF:ABcd", &v, &d), 0);
	CHECK_INT(v, 0xffff);
	CHECK_INT(d, 0xabcd);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		v = d = 7;
		if (udrv_pci_parse_id(bad[i], &v, &d) != -EINVAL || v != 7 ||
		    d != 7)
			harness_fail(__FILE__, __LINE__, "'%s' parsed", bad[i]);
	}
}

/* ---- which device --------------------------------------------------- */


static void test_resolve(void)
{
	char bdf[UDRV_PCI_BDF_LEN], msg[UDRV_ERRMSG_LEN];

	fake_root();
	fake_pci_device("0000:00:02.0", "", 1);
	fake_file("sys/bus/pci/devices/0000:00:02.0/device", "0x1111\n");
	fake_pci_device("0000:00:04.0", "", 2);
	CHECK_INT(udrv_pci_resolve("1234:11e8", bdf, msg), 0);
	CHECK_STR(bdf, "0000:00:04.0");
	CHECK_INT(udrv_pci_resolve("00:02.0", bdf, msg), 0);
	CHECK_STR(bdf, "0000:00:02.0");
	CHECK_INT(udrv_pci_resolve("00:03.0", bdf, msg), -ENODEV);
	CHECK_CONTAINS(msg, "no PCI device 0000:00:03.0");
	CHECK_CONTAINS(msg, "lspci -D");
	CHECK_INT(udrv_pci_resolve("1234:0001", bdf, msg), -ENODEV);
	CHECK_CONTAINS(msg, "no PCI device 1234:0001 (vendor:device)");
	CHECK_INT(udrv_pci_resolve("edu", bdf, msg), -EINVAL);
	CHECK_CONTAINS(msg, "'edu' is neither a PCI address");
	fake_pci_device("0000:00:03.0", "", 3);
	fake_pci_device("0000:01:00.0", "", 4);
	CHECK_INT(udrv_pci_resolve("1234:11e8", bdf, msg), -ENOTUNIQ);
	CHECK_CONTAINS(msg, "3 PCI devices are 1234:11e8: 0000:00:03.0 0000:00:04.0 0000:01:00.0;");
}

static void test_open_messages_before_vfio(void)
{
	struct udrv_vfio *v;

	fake_root();
	v = fake_vfio_open("", -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no PCI device given");
	udrv_vfio_free(v);
	v = fake_vfio_open("1234:11e8", -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no PCI device 1234:11e8");
	udrv_vfio_free(v);
	/* a device the kernel put in no IOMMU group */
	fake_pci_device(BDF, "uio_pci_generic", -1);
	v = fake_vfio_open(BDF, -ENXIO);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 has no IOMMU group");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "boot with intel_iommu=on (Intel) or amd_iommu=on");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "enable VT-d / AMD-Vi in the firmware");
	CHECK_INT(udrv_vfio_device_fd(v), -1);
	udrv_vfio_free(v);
}

static void test_open_wrong_driver(void)
{
	struct udrv_vfio *v;

	fake_root();
	fake_pci_device(BDF, "uio_pci_generic", 1);
	/* vfio-pci not loaded */
	v = fake_vfio_open("00:01.0", -ENOENT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "vfio-pci is not loaded");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "modprobe vfio-pci");
	udrv_vfio_free(v);
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	v = fake_vfio_open("00:01.0", -EBUSY);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 is bound to uio_pci_generic, not vfio-pci: "
		       "echo 0000:00:01.0 > /sys/bus/pci/devices/0000:00:01.0/driver/unbind; "
		       "echo vfio-pci > /sys/bus/pci/devices/0000:00:01.0/driver_override; "
		       "echo 0000:00:01.0 > /sys/bus/pci/drivers_probe "
		       "(udrv_pci_bind() does these steps)");
	udrv_vfio_free(v);
}

static void test_open_no_driver(void)
{
	struct udrv_vfio *v;

	fake_root();
	fake_pci_device(BDF, "", 1);
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	v = fake_vfio_open(BDF, -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 is bound to no driver, not vfio-pci: "
		       "echo vfio-pci > /sys/bus/pci/devices/0000:00:01.0/driver_override; "
		       "echo 0000:00:01.0 > /sys/bus/pci/drivers_probe");
	CHECK(!strstr(udrv_vfio_errmsg(v), "unbind"));
	udrv_vfio_free(v);
}

/*
 * vfio-pci refuses a bridge (header type 1): on no driver or on pcieport,
 * the message says so instead of printing bind commands that cannot work.
 */
static void test_open_bridge(void)
{
	static const char *const bdfs[] = { "0000:00:01.0", "0000:00:02.0" };
	static const char *const drivers[] = { "", "pcieport" };
	char path[128], want[128];
	struct udrv_vfio *v;

	fake_root();
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	for (int i = 0; i < 2; i++) {
		fake_pci_device(bdfs[i], drivers[i], i + 1);
		snprintf(path, sizeof(path), "sys/bus/pci/devices/%s/class", bdfs[i]);
		fake_file(path, "0x060400\n");
		v = fake_vfio_open(bdfs[i], -EINVAL);
		snprintf(want, sizeof(want), "%s is a PCI bridge (class 0x060400): ", bdfs[i]);
		CHECK_CONTAINS(udrv_vfio_errmsg(v), want);
		CHECK_CONTAINS(udrv_vfio_errmsg(v), "vfio-pci takes only endpoint devices");
		CHECK_CONTAINS(udrv_vfio_errmsg(v), "open a device behind it");
		CHECK(!strstr(udrv_vfio_errmsg(v), "driver_override"));
		udrv_vfio_free(v);
	}
}

static void test_open_no_vfio_nodes(void)
{
	struct udrv_vfio *v;
	char path[600];

	fake_vfio_device();
	fake_path(path, sizeof(path), "dev/vfio/vfio");
	CHECK_INT(unlink(path), 0);
	v = fake_vfio_open(BDF, -ENOENT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "/dev/vfio/vfio does not exist although 0000:00:01.0 is on vfio-pci");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "modprobe vfio-pci");
	udrv_vfio_free(v);
}

static void test_node_permission_hint(void)
{
	char path[600], hint[UDRV_ERRMSG_LEN];

	fake_vfio_device();
	fake_path(path, sizeof(path), "dev/vfio/1");
	CHECK_INT(chmod(path, 0600), 0);
	udrv_vfio_node_hint(path, hint, sizeof(hint));
	CHECK_CONTAINS(hint, "/dev/vfio/1 is owner ");
	CHECK_CONTAINS(hint, ", mode 0600, for root alone: run as root, or give a group access with a udev rule (udrv's 60-udrv.rules: groups gpio, uio, vfio, i2c, spi, pwm)");
	CHECK_CONTAINS(hint, "; and raise RLIMIT_MEMLOCK (ulimit -l) for DMA");
	if (geteuid() != 0) {	/* root opens it anyway */
		struct udrv_vfio *v = fake_vfio_open(BDF, -EACCES);

		CHECK_CONTAINS(udrv_vfio_errmsg(v), "mode 0600");
		CHECK_CONTAINS(udrv_vfio_errmsg(v), "for DMA)");	/* whole */
		udrv_vfio_free(v);
	}
}

static void test_group_not_viable(void)
{
	char others[UDRV_ERRMSG_LEN];
	struct udrv_vfio *v;

	fake_vfio_device();
	fake_pci_device("0000:00:1f.2", "ahci", 1);
	fake_pci_device("0000:00:1f.3", "", 1);
	fake_pci_device("0000:00:1c.0", "pcieport", 1);
	fake_vfio.viable = false;
	v = fake_vfio_open(BDF, -EBUSY);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "IOMMU group 1 of 0000:00:01.0 is not viable");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "and 0000:00:1f.2 (ahci) must be bound to vfio-pci too, or unbound");
	/* what does not keep a group from being viable is not named */
	CHECK(!strstr(udrv_vfio_errmsg(v), "0000:00:1f.3"));
	CHECK(!strstr(udrv_vfio_errmsg(v), "0000:00:1c.0"));
	CHECK(!strstr(udrv_vfio_errmsg(v), "0000:00:01.0 ("));
	udrv_vfio_free(v);
	/* nobody to blame (a driver unbound meanwhile): all of them */
	fake_pci_device("0000:00:1f.4", "", 2);
	fake_pci_device("0000:00:1f.5", "vfio-pci", 2);
	udrv_vfio_group_devices("0000:00:1f.5", 2, others, sizeof(others));
	CHECK_STR(others, "0000:00:1f.4 (no driver)");
	udrv_vfio_group_devices(BDF, 9, others, sizeof(others));
	CHECK_STR(others, "(cannot list /sys/kernel/iommu_groups/9/devices)");
}

static void test_no_interrupt_remapping(void)
{
	struct udrv_vfio *v;

	fake_vfio_device();
	fake_file("sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts",
		  "N\n");
	fake_vfio.set_iommu_errno = EPERM;
	v = fake_vfio_open(BDF, -EPERM);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "the IOMMU has no interrupt remapping and allow_unsafe_interrupts (");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "/sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts) is N;");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "intremap=on");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "vfio_iommu_type1.allow_unsafe_interrupts=1");
	udrv_vfio_free(v);
	fake_vfio.set_iommu_errno = EBUSY;	/* not the remapping message */
	v = fake_vfio_open(BDF, -EBUSY);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "VFIO_SET_IOMMU (type1) for /dev/vfio/1");
	udrv_vfio_free(v);
}

/* ---- an open device ------------------------------------------------- */


static void test_open_info(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_info in;
	unsigned char big[sizeof(in) + 16];
	uint16_t cmd = 0;

	CHECK_STR(udrv_vfio_bdf(v), BDF);
	CHECK(udrv_vfio_device_fd(v) >= 0);
	CHECK_INT(fake_vfio.set_iommu_type, VFIO_TYPE1v2_IOMMU);
	CHECK_INT(udrv_vfio_info(v, &in), 0);
	CHECK_STR(in.bdf, BDF);
	CHECK_INT(in.vendor, 0x1234);
	CHECK_INT(in.device, 0x11e8);
	CHECK_INT(in.subsystem_vendor, 0x1af4);
	CHECK_INT(in.subsystem_device, 0x1100);
	CHECK_INT(in.class_code, 0xff00);
	CHECK_INT(in.iommu_group, 1);
	CHECK_INT(in.num_regions, 9);
	CHECK_INT(in.irq_count[UDRV_VFIO_INTX], 1);
	CHECK_INT(in.irq_count[UDRV_VFIO_MSI], 1);
	CHECK_INT(in.irq_count[UDRV_VFIO_MSIX], 0);
	CHECK(!in.can_reset);
	CHECK_INT(in.dma_mask_bits, 32);
	/* memory decoding and bus mastering on, in the config region */
	fake_vfio_region_read(VFIO_PCI_CONFIG_REGION_INDEX, 4, &cmd, 2);
	CHECK_INT(cmd, 0x0006);
	/* the struct's size rules */
	CHECK_INT(udrv_vfio_info_sz(v, &in, 8), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "struct udrv_vfio_info of 8 bytes: libudrv 1.1's is");
	memset(big, 0xa5, sizeof(big));
	CHECK_INT(udrv_vfio_info_sz(v, (void *)big, sizeof(big)), 0);
	CHECK_INT(big[sizeof(in) + 15], 0);
	/* the REQ eventfd is set up at open */
	CHECK(fake_vfio.req_fd >= 0);
	udrv_vfio_close(v);
	CHECK_INT(udrv_vfio_info(v, &in), -EBADF);
	udrv_vfio_free(v);
}

static void test_regions_and_bars(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_region_info ri;
	struct udrv_region *r = (void *)1;
	struct udrv_mmio m;
	uint32_t word = 0;

	CHECK_INT(udrv_vfio_region_info(v, 0, &ri), 0);
	CHECK_INT(ri.size, 0x1000);
	CHECK_INT(ri.flags, UDRV_VFIO_REGION_READ | UDRV_VFIO_REGION_WRITE |
		  UDRV_VFIO_REGION_MMAP);
	/* vfio-pci counts the VGA region also for devices without one */
	fake_vfio.region_info_einval[VFIO_PCI_VGA_REGION_INDEX] = true;
	CHECK_INT(udrv_vfio_region_info(v, 8, &ri), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 has no region 8: VFIO's VGA region");
	CHECK_INT(udrv_vfio_region_info(v, 9, &ri), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 has no region 9: VFIO reports 9");
	CHECK_INT(udrv_vfio_map_bar(v, 6, &r), -EINVAL);
	CHECK(r == NULL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "BAR 6 out of range: a PCI device has BARs 0-5");
	CHECK_INT(udrv_vfio_map_bar(v, 1, &r), -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "does not implement BAR 1 (size 0)");
	fake_vfio.region_size[2] = 0x20;
	fake_vfio.region_flags[2] = VFIO_REGION_INFO_FLAG_READ;
	CHECK_INT(udrv_vfio_map_bar(v, 2, &r), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "BAR 2 of 0000:00:01.0 (0x20 bytes) cannot be mmapped");
	CHECK_INT(udrv_vfio_map_bar(v, 0, &r), 0);
	CHECK_INT(udrv_region_size(r), 0x1000);
	CHECK_STR(udrv_region_name(r), "0000:00:01.0 BAR0");
	m = udrv_region_mmio(r);
	udrv_write32(&m, 0x60, 0xcafe);
	fake_vfio_region_read(0, 0x60, &word, 4);
	CHECK_INT(word, 0xcafe);
	udrv_region_unmap(r);
	udrv_vfio_free(v);
}

static void test_config_and_reset(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	uint16_t cmd;

	CHECK_INT(udrv_vfio_bus_master(v, false), 0);
	fake_vfio_region_read(VFIO_PCI_CONFIG_REGION_INDEX, 4, &cmd, 2);
	CHECK_INT(cmd, 0x0002);
	CHECK_INT(udrv_vfio_config_read(v, 4095, &cmd, 2), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "config space access of 2 bytes at 0xfff");
	CHECK_INT(udrv_vfio_config_read(v, 0, &cmd, 0), -EINVAL);
	CHECK_INT(udrv_vfio_reset(v), -ENOTSUP);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "has no reset VFIO can do");
	udrv_vfio_close(v);
	fake_vfio.device_flags |= VFIO_DEVICE_FLAGS_RESET;
	CHECK_INT(udrv_vfio_open(v, BDF), 0);
	/* a reset clears the command register: bus mastering comes back */
	cmd = 0;
	CHECK_INT(udrv_vfio_config_write(v, 4, &cmd, 2), 0);
	CHECK_INT(udrv_vfio_bus_master(v, true), 0);
	CHECK_INT(udrv_vfio_reset(v), 0);
	CHECK_INT(fake_vfio.resets, 1);
	fake_vfio_region_read(VFIO_PCI_CONFIG_REGION_INDEX, 4, &cmd, 2);
	CHECK_INT(cmd, 0x0006);
	udrv_vfio_free(v);
}

/* ---- interrupts ----------------------------------------------------- */

static void fire(int fd, uint64_t n)
{
	CHECK_INT(write(fd, &n, sizeof(n)), sizeof(n));
}

static void test_irq_msi(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_irq irq;

	CHECK_INT(udrv_vfio_wait(v, 0, &irq), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no interrupt of 0000:00:01.0 is enabled");
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 2), -ENOTSUP);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 has 1 MSI vector, not 2");
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSIX, 1), -ENOTSUP);
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 0), -EINVAL);
	CHECK_INT(udrv_vfio_irq_enable(v, 3, 1), -EINVAL);
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	CHECK_INT(fake_vfio.irq_index, VFIO_PCI_MSI_IRQ_INDEX);
	CHECK_INT(fake_vfio.irq_flags, VFIO_IRQ_SET_DATA_EVENTFD |
		  VFIO_IRQ_SET_ACTION_TRIGGER);
	CHECK_INT(fake_vfio.irq_fds[0], udrv_vfio_irq_fd(v, 0));
	CHECK_INT(udrv_vfio_irq_fd(v, 1), -EINVAL);
	CHECK_INT(udrv_vfio_wait(v, 0, &irq), 0);
	fire(udrv_vfio_irq_fd(v, 0), 1);
	CHECK_INT(udrv_vfio_wait(v, 0, &irq), 1);
	CHECK_INT(irq.type, UDRV_VFIO_MSI);
	CHECK_INT(irq.vector, 0);
	CHECK_INT(irq.count, 1);
	CHECK_INT(irq.missed, 0);
	/* three interrupts before the wait: two nobody saw */
	fire(udrv_vfio_irq_fd(v, 0), 3);
	CHECK_INT(udrv_vfio_wait(v, -1, &irq), 1);
	CHECK_INT(irq.count, 3);
	CHECK_INT(irq.missed, 2);
	CHECK_INT(udrv_vfio_missed(v), 2);
	CHECK_INT(udrv_vfio_wait(v, 10, &irq), 0);
	CHECK_INT(udrv_vfio_intx_unmask(v), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "INTx of 0000:00:01.0 is not enabled");
	CHECK_INT(udrv_vfio_irq_disable(v), 0);
	CHECK_INT(fake_vfio.irq_flags, VFIO_IRQ_SET_DATA_NONE |
		  VFIO_IRQ_SET_ACTION_TRIGGER);
	CHECK_INT(fake_vfio.irq_set_count, 0);
	CHECK_INT(udrv_vfio_irq_fd(v, 0), -EINVAL);
	udrv_vfio_free(v);
}

/*
 * An interrupt that has come already costs one read() and no poll(); after
 * four waits whose read found nothing the wait polls first, and reads first
 * again on every 128th wait.
 */
static void test_irq_read_first(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_irq irq;
	unsigned int polls;

	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	fire(udrv_vfio_irq_fd(v, 0), 1);
	polls = fake_vfio.polls;
	CHECK_INT(udrv_vfio_wait(v, -1, &irq), 1);
	CHECK_INT(fake_vfio.polls, polls);
	for (int i = 0; i < 4; i++)
		CHECK_INT(udrv_vfio_wait(v, 0, &irq), 0);
	for (int i = 1; i < 128; i++) {
		fire(udrv_vfio_irq_fd(v, 0), 1);
		polls = fake_vfio.polls;
		CHECK_INT(udrv_vfio_wait(v, -1, &irq), 1);
		CHECK_INT(fake_vfio.polls, polls + 1);
	}
	fire(udrv_vfio_irq_fd(v, 0), 1);
	polls = fake_vfio.polls;
	CHECK_INT(udrv_vfio_wait(v, -1, &irq), 1);
	CHECK_INT(fake_vfio.polls, polls);
	CHECK_INT(irq.count, 1);
	udrv_vfio_free(v);
}

static void test_irq_intx_and_switch(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_irq irq;

	fake_vfio.irq_count[VFIO_PCI_MSI_IRQ_INDEX] = 4;	/* reopen: */
	udrv_vfio_close(v);
	CHECK_INT(udrv_vfio_open(v, BDF), 0);
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 4), 0);
	CHECK_INT(fake_vfio.irq_set_count, 4);
	/* vector 2 and 3 fire: both reported, fairly, one per wait */
	fire(udrv_vfio_irq_fd(v, 3), 1);
	fire(udrv_vfio_irq_fd(v, 2), 1);
	CHECK_INT(udrv_vfio_wait(v, 0, &irq), 1);
	CHECK_INT(irq.vector, 2);
	CHECK_INT(udrv_vfio_wait(v, 0, &irq), 1);
	CHECK_INT(irq.vector, 3);
	/* enabling INTx turns MSI off first (one type at a time) */
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_INTX, 1), 0);
	CHECK_INT(fake_vfio.irq_index, VFIO_PCI_INTX_IRQ_INDEX);
	fire(udrv_vfio_irq_fd(v, 0), 1);
	CHECK_INT(udrv_vfio_wait(v, 0, &irq), 1);
	CHECK_INT(irq.type, UDRV_VFIO_INTX);
	CHECK_INT(udrv_vfio_intx_unmask(v), 0);
	CHECK_INT(fake_vfio.unmasks, 1);
	udrv_vfio_free(v);
}

static void test_irq_device_gone(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_vfio_irq irq;

	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	fire(fake_vfio.req_fd, 1);
	CHECK_INT(udrv_vfio_wait(v, -1, &irq), -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "the kernel asks for 0000:00:01.0 back");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "close it");
	udrv_vfio_free(v);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * The poll set's allocation fails after the eventfds' array was allocated
 * (uninitialised: here it holds the number of a descriptor the application
 * has open): nothing but what the enable made is closed.
 */
static void test_irq_alloc_fails(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	int app_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	CHECK(app_fd > 2);
	fake_vfio.malloc_fill = app_fd;
	fake_vfio.fail_calloc = true;
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), -ENOMEM);
	fake_vfio.malloc_fill = 0;
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "out of memory for 1 eventfds");
	CHECK(fcntl(app_fd, F_GETFD) >= 0);
	CHECK_INT(udrv_vfio_irq_fd(v, 0), -EINVAL);
	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	udrv_vfio_free(v);
	CHECK(fcntl(app_fd, F_GETFD) >= 0);
	close(app_fd);
}

/* A signal breaks a blocking wait (handler without SA_RESTART): -EINTR. */
static void test_irq_wait_interrupted(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 20000 } };
	struct udrv_vfio_irq irq;

	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK_INT(udrv_vfio_wait(v, -1, &irq), -EINTR);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "interrupted by a signal");
	udrv_vfio_free(v);
}

/*
 * A stop signal the program blocks, raised after its check of a stop flag
 * and before the wait sleeps (udrv pci wait with no --timeout): under the
 * thread's mask it stays pending and the wait sleeps on; under the wait's
 * mask (ppoll) it is delivered as the wait sleeps: -EINTR at once.
 */
static void test_irq_wait_sigmask(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct sigaction sa = { .sa_handler = on_alarm };
	struct udrv_vfio_irq irq;
	sigset_t usr1, old, pending;

	CHECK_INT(udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1), 0);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	raise(SIGUSR1);
	CHECK_INT(udrv_vfio_wait(v, 100, &irq), 0);	/* lost for the wait */
	CHECK_INT(udrv_vfio_set_wait_sigmask(v, &old), 0);
	CHECK_INT(udrv_vfio_wait(v, 2000, &irq), -EINTR);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "interrupted by a signal");
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR1));
	/* a real interrupt still comes through under the mask */
	fire(udrv_vfio_irq_fd(v, 0), 1);
	CHECK_INT(udrv_vfio_wait(v, 2000, &irq), 1);
	CHECK_INT(udrv_vfio_set_wait_sigmask(v, NULL), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	udrv_vfio_free(v);
}

/* ---- binding, listing ------------------------------------------------ */

static void test_pci_bind(void)
{
	char err[UDRV_ERRMSG_LEN], drv[64], path[600];

	fake_root();
	fake_pci_device(BDF, "uio_pci_generic", 1);
	CHECK_INT(udrv_pci_driver(BDF, drv, sizeof(drv), err, sizeof(err)), 0);
	CHECK_STR(drv, "uio_pci_generic");
	CHECK_INT(udrv_pci_driver("00:09.0", drv, sizeof(drv), err, sizeof(err)), -ENODEV);
	CHECK_CONTAINS(err, "no PCI device 0000:00:09.0");
	/* already there: nothing written */
	CHECK_INT(udrv_pci_bind(BDF, "uio_pci_generic", err, sizeof(err)), 0);
	CHECK(fake_starts_with("sys/bus/pci/devices/" BDF "/driver_override", "(null)"));
	CHECK_INT(udrv_pci_bind(BDF, "vfio-pci", err, sizeof(err)), -ENOENT);
	CHECK_CONTAINS(err, "PCI driver vfio-pci is not loaded");
	CHECK_CONTAINS(err, "modprobe vfio-pci");
	CHECK_INT(udrv_pci_bind(BDF, "../x", err, sizeof(err)), -EINVAL);
	CHECK_INT(udrv_pci_bind(BDF, NULL, err, sizeof(err)), -EINVAL);
	/* the three writes; the fake's driver link stays: the check says so */
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	CHECK_INT(udrv_pci_bind("1234:11e8", "vfio-pci", err, sizeof(err)), -EIO);
	CHECK_CONTAINS(err, "vfio-pci refused 0000:00:01.0 (dmesg says why); driver_override cleared, the device is now on uio_pci_generic");
	CHECK(fake_starts_with("sys/bus/pci/drivers/uio_pci_generic/unbind", BDF));
	CHECK(fake_starts_with("sys/bus/pci/drivers_probe", BDF));
	/* written "vfio-pci", then cleared (the fake file keeps the tail) */
	CHECK(fake_starts_with("sys/bus/pci/devices/" BDF "/driver_override", "\nfio-pci"));
	/* no IOMMU: vfio-pci would refuse it */
	fake_pci_device("0000:00:02.0", "", -1);
	CHECK_INT(udrv_pci_bind("00:02.0", "vfio-pci", err, sizeof(err)), -ENXIO);
	CHECK_CONTAINS(err, "it has no IOMMU group");
	/* ... also when vfio-pci is not loaded: loading it would not help */
	fake_path(path, sizeof(path), "sys/bus/pci/drivers/vfio-pci");
	CHECK_INT(rmdir(path), 0);
	CHECK_INT(udrv_pci_bind("00:02.0", "vfio-pci", err, sizeof(err)), -ENXIO);
	CHECK_INT(udrv_pci_bind(BDF, "vfio-pci", err, sizeof(err)), -ENOENT);
	CHECK_INT(udrv_pci_driver("00:02.0", drv, sizeof(drv), NULL, 0), 0);
	CHECK_STR(drv, "");
}

static void test_list_and_absent(void)
{
	char reason[512], **bdfs;

	fake_root();
	fake_dir("sys/kernel");
	CHECK_INT(udrv_vfio_list(&bdfs), 0);
	CHECK(bdfs && !bdfs[0]);
	udrv_strv_free(bdfs);
	udrv_vfio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "without an IOMMU");
	CHECK_CONTAINS(reason, "intel_iommu=on");
	fake_dir("sys/kernel/iommu_groups/0");
	udrv_vfio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "vfio-pci is not loaded");
	CHECK_CONTAINS(reason, "modprobe vfio-pci");
	fake_file("sys/bus/pci/drivers/vfio-pci/bind", "");
	fake_file("sys/bus/pci/drivers/vfio-pci/new_id", "");
	udrv_vfio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "no PCI device is bound to vfio-pci");
	CHECK_CONTAINS(reason, "udrv_pci_bind()");
	fake_symlink("../../../../devices/pci0000:00/0000:00:04.0",
		     "sys/bus/pci/drivers/vfio-pci/0000:00:04.0");
	fake_symlink("../../../../devices/pci0000:00/0000:00:01.0",
		     "sys/bus/pci/drivers/vfio-pci/0000:00:01.0");
	fake_symlink("x", "sys/bus/pci/drivers/vfio-pci/00:05.0");
	CHECK_INT(udrv_vfio_list(&bdfs), 2);
	CHECK_STR(bdfs[0], "0000:00:01.0");
	CHECK_STR(bdfs[1], "0000:00:04.0");
	CHECK(bdfs[2] == NULL);
	udrv_strv_free(bdfs);
}

UDRV_TESTS(UDRV_T(test_parse_bdf), UDRV_T(test_parse_id),
	   UDRV_T(test_resolve), UDRV_T(test_open_messages_before_vfio),
	   UDRV_T(test_open_wrong_driver), UDRV_T(test_open_no_driver), UDRV_T(test_open_bridge),
	   UDRV_T(test_open_no_vfio_nodes), UDRV_T(test_node_permission_hint),
	   UDRV_T(test_group_not_viable), UDRV_T(test_no_interrupt_remapping),
	   UDRV_T(test_open_info), UDRV_T(test_regions_and_bars),
	   UDRV_T(test_config_and_reset), UDRV_T(test_irq_msi), UDRV_T(test_irq_read_first),
	   UDRV_T(test_irq_intx_and_switch), UDRV_T(test_irq_device_gone),
	   UDRV_T(test_irq_alloc_fails),
	   UDRV_T(test_irq_wait_interrupted),
	   UDRV_T(test_irq_wait_sigmask),
	   UDRV_T(test_pci_bind),
	   UDRV_T(test_list_and_absent))
