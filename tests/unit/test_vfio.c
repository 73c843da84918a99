// SPDX-License-Identifier: GPL-2.0-only
/*
 * VFIO on fake trees (fake_vfio.h): the PCI address and ID parsers, which
 * device a spec names, every way an open fails with its message (no
 * IOMMU, wrong driver or none, vfio-pci not loaded, /dev/vfio missing or
 * not ours, group not viable, no interrupt remapping), then an open device:
 * info, regions, BAR maps, config space and bus mastering, reset,
 * interrupts through real eventfds (missed counts, timeouts, the request to
 * release the device, INTx unmask), DMA (the IOVA allocator, the mask, the
 * IOMMU's windows, alignment, overlap, pinning limits), udrv_pci_bind()'s
 * writes, the list of vfio-pci devices and why there are none.
 */
#include <errno.h>
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
#include "pci.h"
#include "vfio_priv.h"

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

static struct udrv_vfio *open_vfio(const char *spec, int expect)
{
	struct udrv_vfio *v = udrv_vfio_new();

	CHECK(v != NULL);
	CHECK_INT(udrv_vfio_open(v, spec), expect);
	return v;
}

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
	v = open_vfio("", -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no PCI device given");
	udrv_vfio_free(v);
	v = open_vfio("1234:11e8", -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no PCI device 1234:11e8");
	udrv_vfio_free(v);
	/* a device the kernel put in no IOMMU group */
	fake_pci_device(BDF, "uio_pci_generic", -1);
	v = open_vfio(BDF, -ENXIO);
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
	v = open_vfio("00:01.0", -ENOENT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "vfio-pci is not loaded");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "modprobe vfio-pci");
	udrv_vfio_free(v);
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	v = open_vfio("00:01.0", -EBUSY);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 is bound to uio_pci_generic, not vfio-pci: "
		       "echo 0000:00:01.0 > /sys/bus/pci/devices/0000:00:01.0/driver/unbind; "
		       "echo vfio-pci > /sys/bus/pci/devices/0000:00:01.0/driver_override; "
		       "echo 0000:00:01.0 > /sys/bus/pci/drivers_probe "
		       "(or: udrv pci bind 0000:00:01.0 vfio-pci)");
	udrv_vfio_free(v);
}

static void test_open_no_driver(void)
{
	struct udrv_vfio *v;

	fake_root();
	fake_pci_device(BDF, "", 1);
	fake_dir("sys/bus/pci/drivers/vfio-pci");
	v = open_vfio(BDF, -ENODEV);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "0000:00:01.0 is bound to no driver, not vfio-pci: "
		       "echo vfio-pci > /sys/bus/pci/devices/0000:00:01.0/driver_override; "
		       "echo 0000:00:01.0 > /sys/bus/pci/drivers_probe");
	CHECK(!strstr(udrv_vfio_errmsg(v), "unbind"));
	udrv_vfio_free(v);
}

static void vfio_device(void)
{
	fake_root();
	fake_pci_device(BDF, "vfio-pci", 1);
	fake_vfio_setup(BDF, 1);
}

static void test_open_no_vfio_nodes(void)
{
	struct udrv_vfio *v;
	char path[600];

	vfio_device();
	fake_path(path, sizeof(path), "dev/vfio/vfio");
	CHECK_INT(unlink(path), 0);
	v = open_vfio(BDF, -ENOENT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "/dev/vfio/vfio does not exist although 0000:00:01.0 is on vfio-pci");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "modprobe vfio-pci");
	udrv_vfio_free(v);
}

static void test_node_permission_hint(void)
{
	char path[600], hint[UDRV_ERRMSG_LEN];

	vfio_device();
	fake_path(path, sizeof(path), "dev/vfio/1");
	CHECK_INT(chmod(path, 0600), 0);
	udrv_vfio_node_hint(path, hint, sizeof(hint));
	CHECK_CONTAINS(hint, "/dev/vfio/1 is owner ");
	CHECK_CONTAINS(hint, ", mode 0600: run as root, or chown $USER ");
	CHECK_CONTAINS(hint, "SUBSYSTEM==\"vfio\", OWNER=\"$USER\"");
	CHECK_CONTAINS(hint, "RLIMIT_MEMLOCK (ulimit -l) for DMA");
	if (geteuid() != 0) {	/* root opens it anyway */
		struct udrv_vfio *v = open_vfio(BDF, -EACCES);

		CHECK_CONTAINS(udrv_vfio_errmsg(v), "mode 0600");
		CHECK_CONTAINS(udrv_vfio_errmsg(v), "for DMA)");	/* whole */
		udrv_vfio_free(v);
	}
}

static void test_group_not_viable(void)
{
	char others[UDRV_ERRMSG_LEN];
	struct udrv_vfio *v;

	vfio_device();
	fake_pci_device("0000:00:1f.2", "ahci", 1);
	fake_pci_device("0000:00:1f.3", "", 1);
	fake_pci_device("0000:00:1c.0", "pcieport", 1);
	fake_vfio.viable = false;
	v = open_vfio(BDF, -EBUSY);
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

	vfio_device();
	fake_file("sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts",
		  "N\n");
	fake_vfio.set_iommu_errno = EPERM;
	v = open_vfio(BDF, -EPERM);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "the IOMMU has no interrupt remapping and allow_unsafe_interrupts (");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "/sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts) is N;");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "intremap=on");
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "vfio_iommu_type1.allow_unsafe_interrupts=1");
	udrv_vfio_free(v);
	fake_vfio.set_iommu_errno = EBUSY;	/* not the remapping message */
	v = open_vfio(BDF, -EBUSY);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "VFIO_SET_IOMMU (type1) for /dev/vfio/1");
	udrv_vfio_free(v);
}

/* ---- an open device ------------------------------------------------- */

static struct udrv_vfio *open_fake(void)
{
	vfio_device();
	return open_vfio(BDF, 0);
}

static void test_open_info(void)
{
	struct udrv_vfio *v = open_fake();
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
	struct udrv_vfio *v = open_fake();
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
	struct udrv_vfio *v = open_fake();
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
	struct udrv_vfio *v = open_fake();
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

static void test_irq_intx_and_switch(void)
{
	struct udrv_vfio *v = open_fake();
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
	struct udrv_vfio *v = open_fake();
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

/* A signal breaks a blocking wait (handler without SA_RESTART): -EINTR. */
static void test_irq_wait_interrupted(void)
{
	struct udrv_vfio *v = open_fake();
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

/* ---- DMA ------------------------------------------------------------ */

static void test_dma_alloc(void)
{
	struct udrv_vfio *v = open_fake();
	struct udrv_dma *a, *b, *c;

	CHECK_INT(udrv_vfio_dma_alloc(v, 0, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_alloc(v, 1, &a), 0);
	CHECK_INT(udrv_dma_size(a), 4096);
	CHECK_INT(udrv_dma_iova(a), 4096);	/* never IOVA 0 */
	CHECK_INT(fake_vfio.num_maps, 1);
	CHECK(fake_vfio.maps[0].vaddr == (uintptr_t)udrv_dma_addr(a));
	CHECK_INT(fake_vfio.maps[0].iova, 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &b), 0);
	CHECK_INT(udrv_dma_iova(b), 8192);
	memset(udrv_dma_addr(b), 0x5a, 8192);
	/* freed space is reused, first fit */
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK_INT(fake_vfio.unmaps, 1);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &c), 0);
	CHECK_INT(udrv_dma_iova(c), 16384);
	udrv_vfio_close(v);	/* unmaps what is left */
	CHECK_INT(fake_vfio.unmaps, 4);
	udrv_vfio_free(v);
}

static void test_dma_mask(void)
{
	struct udrv_vfio *v = open_fake();
	void *mem = aligned_alloc(4096, 3 * 4096);
	struct udrv_dma *a, *b;

	CHECK_INT(udrv_vfio_set_dma_mask(v, 0), -EINVAL);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 65), -EINVAL);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 28), 0);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 1ULL << 28, &a), -ERANGE);
	CHECK(a == NULL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "DMA buffer at IOVA 0x10000000 of 4096 bytes ends beyond the DMA mask of 0000:00:01.0 (28 bits: 0xfffffff)");
	/* ending one byte beyond */
	CHECK_INT(udrv_vfio_dma_map(v, mem, 8192, (1ULL << 28) - 4096, &a), -ERANGE);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, (1ULL << 28) - 4096, &a), 0);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 20), -ERANGE);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "would leave the buffer at IOVA 0xffff000");
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK_INT(udrv_vfio_dma_free(v, a), -EINVAL);	/* freed already */
	/* the allocator stays below the mask: 13 bits hold one page */
	CHECK_INT(udrv_vfio_set_dma_mask(v, 13), 0);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &b), -ENOSPC);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no free IOVA range of 4096 bytes for 0000:00:01.0 below its DMA mask (13 bits: 0x1fff)");
	CHECK_INT(udrv_vfio_dma_alloc(v, 16384, &b), -ERANGE);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 64), 0);
	udrv_vfio_free(v);
	free(mem);
}

static void test_dma_map_checks(void)
{
	struct udrv_vfio *v = open_fake();
	char *mem = aligned_alloc(4096, 4 * 4096);
	struct udrv_dma *a, *b;

	CHECK_INT(udrv_vfio_dma_map(v, mem + 1, 4096, 0, &a), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "must be multiples of the page size");
	CHECK_INT(udrv_vfio_dma_map(v, mem, 100, 0, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 0x100800, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 0, 0, &a), -EINVAL);
	/* x86's MSI window is not the IOMMU's to map */
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 0xfee00000, &a), -ERANGE);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "IOVA 0xfee00000 (4096 bytes) is outside the IOMMU's windows");
	CHECK_INT(udrv_vfio_dma_map(v, mem, 8192, 0x200000, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x200000);
	CHECK(udrv_dma_addr(a) == mem);
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0x201000, &b), -EEXIST);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "IOVA 0x201000 (4096 bytes) overlaps the buffer at IOVA 0x200000 (8192 bytes)");
	fake_vfio.map_errno = ENOMEM;
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0, &b), -ENOMEM);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "RLIMIT_MEMLOCK");
	fake_vfio.map_errno = EFAULT;
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0, &b), -EFAULT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "VFIO_IOMMU_MAP_DMA of 4096 bytes at IOVA 0x1000");
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK(mem[0] == mem[0]);	/* the caller's memory stays mapped */
	udrv_vfio_free(v);
	free(mem);
}

static void test_dma_windows_skip_holes(void)
{
	struct udrv_vfio *v;
	struct udrv_dma *a;

	vfio_device();
	fake_vfio.iova_start[0] = 0x10000;	/* nothing below 64 KiB */
	fake_vfio.iova_end[0] = 0x11fff;
	fake_vfio.iova_start[1] = 0x100000;
	v = open_vfio(BDF, 0);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x10000);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x100000);
	udrv_vfio_free(v);
}

static void test_iova_caps_parser(void)
{
	uint64_t raw[32] = { 0 };
	struct vfio_iommu_type1_info *info = (void *)raw;
	struct vfio_iommu_type1_info_cap_iova_range *cap =
		(void *)((char *)raw + sizeof(*info));
	size_t len = sizeof(*info) + sizeof(*cap) + 2 * sizeof(cap->iova_ranges[0]);
	struct vfio_iova_window w[4];

	info->argsz = (uint32_t)len;
	info->flags = VFIO_IOMMU_INFO_CAPS;
	info->cap_offset = sizeof(*info);
	cap->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
	cap->nr_iovas = 2;
	cap->iova_ranges[0] = (struct vfio_iova_range){ 0, 0xfedfffff };
	cap->iova_ranges[1] = (struct vfio_iova_range){ 0xfef00000, ~0ULL };
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 2);
	CHECK(w[1].start == 0xfef00000 && w[1].end == ~0ULL);
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 1), 1);
	/* the ranges run past the end */
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len - 1, w, 4), -EINVAL);
	cap->nr_iovas = 0x40000000;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	cap->nr_iovas = 2;
	cap->iova_ranges[0].start = 5;
	cap->iova_ranges[0].end = 4;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	cap->iova_ranges[0].end = 5;
	/* a chain pointing at itself ends */
	cap->header.id = 99;
	cap->header.next = sizeof(*info);
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 0);
	info->cap_offset = (uint32_t)len;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	info->cap_offset = 2;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	info->flags = 0;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 0);
}

/*
 * 6.1's layout: the migration capability (32 bytes), the DMA-available one
 * (12), then the IOVA ranges at offset 68, 4 bytes off an 8-byte boundary
 * (the sanitized build sees a misaligned read).
 */
static void test_iova_caps_packed_as_6_1(void)
{
	uint64_t raw[32] = { 0 };
	char *b = (char *)raw;
	struct vfio_iommu_type1_info info = {
		.flags = VFIO_IOMMU_INFO_CAPS | VFIO_IOMMU_INFO_PGSIZES,
		.cap_offset = 24,
	};
	struct vfio_info_cap_header mig = { .id = VFIO_IOMMU_TYPE1_INFO_CAP_MIGRATION,
					    .version = 1, .next = 56 };
	struct vfio_info_cap_header avail = { .id = VFIO_IOMMU_TYPE1_INFO_DMA_AVAIL,
					      .version = 1, .next = 68 };
	struct vfio_info_cap_header iova = { .id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE,
					     .version = 1 };
	struct vfio_iova_range r[2] = { { 0, 0xfedfffff }, { 0xfef00000, 0xffffffffffffULL } };
	uint32_t nr = 2;
	struct vfio_iova_window w[4];

	info.argsz = 68 + 16 + (uint32_t)sizeof(r);
	memcpy(b, &info, sizeof(info));
	memcpy(b + 24, &mig, sizeof(mig));
	memcpy(b + 56, &avail, sizeof(avail));
	memcpy(b + 68, &iova, sizeof(iova));
	memcpy(b + 76, &nr, sizeof(nr));
	memcpy(b + 84, r, sizeof(r));
	CHECK_INT(udrv_vfio_parse_iova_caps(b, info.argsz, w, 4), 2);
	CHECK(w[0].start == 0 && w[0].end == 0xfedfffff);
	CHECK(w[1].start == 0xfef00000 && w[1].end == 0xffffffffffffULL);
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
	CHECK_CONTAINS(reason, "udrv pci bind BDF vfio-pci");
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
	   UDRV_T(test_open_wrong_driver), UDRV_T(test_open_no_driver),
	   UDRV_T(test_open_no_vfio_nodes), UDRV_T(test_node_permission_hint),
	   UDRV_T(test_group_not_viable), UDRV_T(test_no_interrupt_remapping),
	   UDRV_T(test_open_info), UDRV_T(test_regions_and_bars),
	   UDRV_T(test_config_and_reset), UDRV_T(test_irq_msi),
	   UDRV_T(test_irq_intx_and_switch), UDRV_T(test_irq_device_gone),
	   UDRV_T(test_irq_wait_interrupted),
	   UDRV_T(test_dma_alloc), UDRV_T(test_dma_mask),
	   UDRV_T(test_dma_map_checks), UDRV_T(test_dma_windows_skip_holes),
	   UDRV_T(test_iova_caps_parser),
	   UDRV_T(test_iova_caps_packed_as_6_1), UDRV_T(test_pci_bind),
	   UDRV_T(test_list_and_absent))
