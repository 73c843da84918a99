// SPDX-License-Identifier: GPL-2.0-only
/*
 * UIO on fake trees: discovery by name/number/path, maps and ports, mapping
 * with the N * pagesize offset and the sub-page offset, waiting (a FIFO
 * stands in for the event counter), timeouts, missed-interrupt counting
 * across the s32 wrap, irqcontrol, PCI INTx re-enable, device gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "harness.h"

static void fake_uio(int num, const char *name, const char *event)
{
	char p[256];

	fake_dir("sys/kernel");
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/name", num);
	fake_file(p, name);
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/version", num);
	fake_file(p, "0.1\n");
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/event", num);
	fake_file(p, event);
}

static void fake_map(int num, int map, const char *name, const char *addr,
		     const char *size, const char *offset)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/class/uio/uio%d/maps/map%d/name", num, map);
	fake_file(p, name);
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/maps/map%d/addr", num, map);
	fake_file(p, addr);
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/maps/map%d/size", num, map);
	fake_file(p, size);
	snprintf(p, sizeof(p), "sys/class/uio/uio%d/maps/map%d/offset", num, map);
	fake_file(p, offset);
}

/* A /dev/uio0 regular file: page N holds bytes equal to N + 1. */
static void fake_dev_pages(int pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char path[512];
	FILE *f;

	fake_path(path, sizeof(path), "dev/uio0");
	fake_dir("dev");
	f = fopen(path, "w");
	for (int p = 0; p < pages; p++)
		for (long i = 0; i < page; i++)
			fputc(p + 1, f);
	fclose(f);
}

static struct udrv_uio *open_uio(const char *spec, int expect)
{
	struct udrv_uio *uio = udrv_uio_new();

	CHECK_INT(udrv_uio_open(uio, spec), expect);
	return uio;
}

static void test_no_uio(void)
{
	struct udrv_uio *uio;
	char reason[256];
	char **names;

	fake_root();
	fake_dir("sys/kernel");
	CHECK_INT(udrv_uio_list(&names), 0);
	udrv_strv_free(names);
	udrv_uio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "CONFIG_UIO");
	CHECK_CONTAINS(reason, "modprobe uio");
	uio = open_uio("uio_pci_generic", -ENOENT);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "no UIO device 'uio_pci_generic'");
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "CONFIG_UIO");
	udrv_uio_free(uio);
}

static void test_discovery(void)
{
	static const char *const specs[] = { "uio-ticker", "uio1", "/dev/uio1", "1" };
	struct udrv_uio_map_info m;
	struct udrv_uio *uio;

	fake_root();
	fake_uio(0, "uio_pci_generic\n", "0\n");
	fake_uio(1, "uio-ticker\n", "0\n");
	fake_map(1, 0, "ticker\n", "0xffff888003a4e000\n", "0x1000\n", "0x0\n");
	fake_file("dev/uio0", "");
	fake_file("dev/uio1", "");
	for (size_t i = 0; i < 4; i++) {
		uio = open_uio(specs[i], 0);
		CHECK_STR(udrv_uio_devname(uio), "uio1");
		CHECK_STR(udrv_uio_name(uio), "uio-ticker");
		CHECK_STR(udrv_uio_version(uio), "0.1");
		CHECK_INT(udrv_uio_num_maps(uio), 1);
		CHECK_INT(udrv_uio_map_info(uio, 0, &m), 0);
		CHECK_STR(m.name, "ticker");
		CHECK(m.addr == 0xffff888003a4e000ULL);
		CHECK_INT(m.size, 0x1000);
		CHECK_INT(udrv_uio_map_info(uio, 1, &m), -EINVAL);
		CHECK_CONTAINS(udrv_uio_errmsg(uio), "uio1: no map 1 (it has 1)");
		udrv_uio_free(uio);
	}
	uio = open_uio("uio-missing", -ENOENT);
	CHECK_CONTAINS(udrv_uio_errmsg(uio),
		       "available: uio0 (uio_pci_generic) uio1 (uio-ticker)");
	udrv_uio_free(uio);
}

static void test_ports(void)
{
	struct udrv_uio_port_info p;
	struct udrv_uio *uio;

	fake_root();
	fake_uio(0, "isa-card\n", "0\n");
	fake_file("sys/class/uio/uio0/portio/port0/name", "ioport\n");
	fake_file("sys/class/uio/uio0/portio/port0/start", "0x3f8\n");
	fake_file("sys/class/uio/uio0/portio/port0/size", "0x8\n");
	fake_file("sys/class/uio/uio0/portio/port0/porttype", "port_x86\n");
	fake_file("dev/uio0", "");
	uio = open_uio("isa-card", 0);
	CHECK_INT(udrv_uio_num_ports(uio), 1);
	CHECK_INT(udrv_uio_port_info(uio, 0, &p), 0);
	CHECK_INT(p.start, 0x3f8);
	CHECK_INT(p.size, 8);
	CHECK_STR(p.porttype, "port_x86");
	CHECK_INT(udrv_uio_port_info(uio, 1, &p), -EINVAL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "uio0: no port region 1 (it has 1)");
	/* a newer caller's larger struct: the tail zeroed (docs/abi.md) */
	{
		struct { struct udrv_uio_port_info p; uint64_t extra; } big;

		memset(&big, 0xa5, sizeof(big));
		CHECK_INT(udrv_uio_port_info_sz(uio, 0, &big.p, sizeof(big)), 0);
		CHECK_INT(big.p.start, 0x3f8);
		CHECK_INT(big.extra, 0);
	}
	udrv_uio_free(uio);
}

static void test_map_offsets(void)
{
	struct udrv_region *r;
	struct udrv_uio *uio;
	struct udrv_mmio m;
	char *dev;

	fake_root();
	fake_uio(0, "fpga\n", "0\n");
	fake_map(0, 0, "regs\n", "0x40000000\n", "0x100\n", "0x0\n");
	fake_map(0, 1, "sram\n", "0x40001010\n", "0x20\n", "0x10\n");
	fake_dev_pages(3);
	uio = open_uio("fpga", 0);
	CHECK_INT(udrv_uio_map(uio, 1, &r), 0);
	CHECK_INT(udrv_region_size(r), 0x20);
	CHECK_STR(udrv_region_name(r), "sram");
	m = udrv_region_mmio(r);
	CHECK_INT(udrv_read8(&m, 0), 2);	/* page 1 */
	udrv_write32(&m, 0, 0xdeadbeef);
	udrv_region_unmap(r);
	dev = fake_read("dev/uio0");
	CHECK(dev && memcmp(dev + sysconf(_SC_PAGESIZE) + 0x10,
			    "\xef\xbe\xad\xde", 4) == 0);
	free(dev);
	CHECK_INT(udrv_uio_map(uio, 2, &r), -EINVAL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "map 2 out of range: uio0 (fpga) has 2 maps");
	udrv_uio_free(uio);
}

static void test_map_none_hint(void)
{
	struct udrv_region *r;
	struct udrv_uio *uio;

	fake_root();
	fake_uio(0, "uio_pci_generic\n", "0\n");
	fake_file("dev/uio0", "");
	uio = open_uio("uio_pci_generic", 0);
	CHECK_INT(udrv_uio_map(uio, 0, &r), -EINVAL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "udrv_uio_pci_map_bar");
	CHECK_INT(udrv_uio_pci_map_bar(uio, 0, &r), -ENOENT);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "has no memory BAR 0");
	udrv_uio_free(uio);
}

static void test_pci_bar(void)
{
	char bar[256] = { 0 };
	struct udrv_region *r;
	struct udrv_uio *uio;
	struct udrv_mmio m;

	fake_root();
	fake_uio(0, "uio_pci_generic\n", "0\n");
	fake_file("dev/uio0", "");
	memcpy(bar, "\xed\x00\x00\x01", 4);	/* edu's ident 0x010000ed */
	fake_dir("sys/class/uio/uio0/device");
	{
		char p[512];
		FILE *f;

		fake_path(p, sizeof(p), "sys/class/uio/uio0/device/resource0");
		f = fopen(p, "w");
		fwrite(bar, 1, sizeof(bar), f);
		fclose(f);
	}
	uio = open_uio("uio0", 0);
	CHECK_INT(udrv_uio_pci_map_bar(uio, 0, &r), 0);
	m = udrv_region_mmio(r);
	CHECK_INT(udrv_read32(&m, 0), 0x010000ed);
	CHECK_INT(udrv_region_size(r), 256);
	udrv_region_unmap(r);
	udrv_uio_free(uio);
}

static int fifo_writer(void)
{
	char path[512];

	fake_path(path, sizeof(path), "dev/uio0");
	return open(path, O_WRONLY | O_NONBLOCK);
}

static void put_count(int fd, int32_t c)
{
	CHECK(write(fd, &c, sizeof(c)) == (ssize_t)sizeof(c));
}

static void test_wait_and_missed(void)
{
	struct udrv_uio_irq irq;
	struct udrv_uio *uio;
	int w;

	fake_root();
	fake_uio(0, "ticker\n", "4\n");
	fake_fifo("dev/uio0");
	uio = open_uio("ticker", 0);
	w = fifo_writer();
	CHECK(w >= 0);
	CHECK_INT(udrv_uio_wait(uio, 10, &irq), 0);	/* timeout */
	put_count(w, 5);
	CHECK_INT(udrv_uio_wait(uio, 1000, &irq), 1);
	CHECK_INT(irq.count, 5);
	CHECK_INT(irq.delta, 1);
	CHECK_INT(irq.missed, 0);
	put_count(w, 9);
	CHECK_INT(udrv_uio_wait(uio, -1, &irq), 1);
	CHECK_INT(irq.delta, 4);
	CHECK_INT(irq.missed, 3);
	CHECK_INT(udrv_uio_missed(uio), 3);
	close(w);
	udrv_uio_free(uio);
}

static void test_counter_wrap(void)
{
	struct udrv_uio_irq irq;
	struct udrv_uio *uio;
	int w;

	fake_root();
	fake_uio(0, "ticker\n", "2147483646\n");	/* S32_MAX - 1 */
	fake_fifo("dev/uio0");
	uio = open_uio("uio0", 0);
	w = fifo_writer();
	put_count(w, INT32_MIN + 1);	/* wrapped: 3 interrupts later */
	CHECK_INT(udrv_uio_wait(uio, 1000, &irq), 1);
	CHECK_INT(irq.delta, 3);
	CHECK_INT(irq.missed, 2);
	close(w);
	udrv_uio_free(uio);
}

/* An interrupt between open() and reading the baseline: delta 1, not 0. */
static void test_baseline_race(void)
{
	struct udrv_uio_irq irq;
	struct udrv_uio *uio;
	int w;

	fake_root();
	fake_uio(0, "ticker\n", "7\n");
	fake_fifo("dev/uio0");
	uio = open_uio("uio0", 0);
	w = fifo_writer();
	put_count(w, 7);
	CHECK_INT(udrv_uio_wait(uio, 1000, &irq), 1);
	CHECK_INT(irq.delta, 1);
	CHECK_INT(irq.missed, 0);
	close(w);
	udrv_uio_free(uio);
}

static void test_device_gone(void)
{
	struct udrv_uio_irq irq;
	struct udrv_uio *uio;

	fake_root();
	fake_uio(0, "ticker\n", "0\n");
	fake_file("dev/uio0", "");	/* read() at EOF: like a removed device */
	uio = open_uio("uio0", 0);
	CHECK_INT(udrv_uio_wait(uio, -1, &irq), -ENODEV);
	CHECK_CONTAINS(udrv_uio_errmsg(uio),
		       "dev/uio0 (ticker): the device is gone (driver unloaded or unbound): read returned end of file");
	udrv_uio_free(uio);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A signal breaks a blocking wait (handler without SA_RESTART): -EINTR. */
static void test_wait_interrupted(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 100000 } };
	struct udrv_uio_irq irq;
	struct udrv_uio *uio;
	int w;

	fake_root();
	fake_uio(0, "ticker\n", "0\n");
	fake_fifo("dev/uio0");
	uio = open_uio("uio0", 0);
	w = fifo_writer();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK_INT(udrv_uio_wait(uio, -1, &irq), -EINTR);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "interrupted by a signal");
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK_INT(udrv_uio_wait(uio, 5000, &irq), -EINTR);	/* in poll() */
	close(w);
	udrv_uio_free(uio);
}

/*
 * A stop signal the program blocks, raised after its check of a stop flag
 * and before the wait sleeps (udrv uio wait with no --timeout): under the
 * thread's mask it stays pending and the wait sleeps on; under the wait's
 * mask (ppoll) it is delivered as the wait sleeps: -EINTR at once.
 */
static void test_wait_sigmask(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct udrv_uio_irq irq;
	sigset_t usr1, old, pending;
	struct udrv_uio *uio;
	int w;

	fake_root();
	fake_uio(0, "ticker\n", "0\n");
	fake_fifo("dev/uio0");
	uio = open_uio("uio0", 0);
	w = fifo_writer();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	raise(SIGUSR1);
	CHECK_INT(udrv_uio_wait(uio, 100, &irq), 0);	/* lost for the wait */
	CHECK_INT(udrv_uio_set_wait_sigmask(uio, &old), 0);
	CHECK_INT(udrv_uio_wait(uio, -1, &irq), -EINTR);	/* also forever */
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "interrupted by a signal");
	raise(SIGUSR1);
	CHECK_INT(udrv_uio_wait(uio, 5000, &irq), -EINTR);
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR1));
	/* an interrupt still comes through under the mask */
	put_count(w, 1);
	CHECK_INT(udrv_uio_wait(uio, 5000, &irq), 1);
	CHECK_INT(udrv_uio_set_wait_sigmask(uio, NULL), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(w);
	udrv_uio_free(uio);
}

static void test_irqcontrol(void)
{
	struct udrv_uio *uio;
	char *dev;

	fake_root();
	fake_uio(0, "ticker\n", "0\n");
	fake_file("dev/uio0", "");
	uio = open_uio("uio0", 0);
	CHECK_INT(udrv_uio_irq_enable(uio, true), 0);
	CHECK_INT(udrv_uio_irq_enable(uio, false), 0);
	udrv_uio_free(uio);
	dev = fake_read("dev/uio0");
	CHECK(dev && memcmp(dev, "\x01\0\0\0\0\0\0\0", 8) == 0);
	free(dev);
}

static void test_pci_intx_unmask(void)
{
	unsigned char cfg[64] = { 0 };
	struct udrv_uio *uio;
	char p[512];
	FILE *f;

	fake_root();
	fake_uio(0, "uio_pci_generic\n", "0\n");
	fake_file("dev/uio0", "");
	uio = open_uio("uio0", 0);
	CHECK_INT(udrv_uio_pci_intx_unmask(uio), -ENOTSUP);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "is not a PCI device");
	cfg[4] = 0x07;		/* memory, I/O, bus master */
	cfg[5] = 0x05;		/* SERR# enable + INTx disable */
	fake_dir("sys/class/uio/uio0/device");
	fake_path(p, sizeof(p), "sys/class/uio/uio0/device/config");
	f = fopen(p, "w");
	fwrite(cfg, 1, sizeof(cfg), f);
	fclose(f);
	CHECK_INT(udrv_uio_pci_intx_unmask(uio), 0);
	f = fopen(p, "r");
	CHECK(fread(cfg, 1, sizeof(cfg), f) == sizeof(cfg));
	fclose(f);
	CHECK_INT(cfg[5], 0x01);	/* INTx re-enabled, SERR# kept */
	CHECK_INT(cfg[4], 0x07);
	udrv_uio_free(uio);
	/* the command register is read whole: a config space that ends in it */
	f = fopen(p, "w");
	fwrite(cfg, 1, 5, f);
	fclose(f);
	uio = open_uio("uio0", 0);
	CHECK_INT(udrv_uio_pci_intx_unmask(uio), -EIO);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "reading the PCI command register of uio0: short read");
	udrv_uio_free(uio);
}

static void test_permission(void)
{
	struct udrv_uio *uio;
	char p[512];

	fake_root();
	fake_uio(0, "ticker\n", "0\n");
	fake_file("dev/uio0", "");
	fake_path(p, sizeof(p), "dev/uio0");
	chmod(fake_root_dir(), 0755);
	CHECK(chmod(p, 0600) == 0);
	if (geteuid() == 0)
		CHECK(setresuid(65534, 65534, 65534) == 0);
	uio = open_uio("ticker", -EACCES);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "uio0 is owner ");
	CHECK_CONTAINS(udrv_uio_errmsg(uio), ", mode 0600, for root alone: run as root, or give a group access with a udev rule");
	udrv_uio_free(uio);
}

/* A device node someone else opened (udrv_uio_open_fd). */
static void test_open_fd(void)
{
	struct udrv_uio *uio = udrv_uio_new();
	struct udrv_region *r;
	struct udrv_mmio m;
	char path[512];
	int fd, other;

	fake_root();
	fake_uio(0, "fpga\n", "7\n");
	fake_map(0, 0, "regs\n", "0x40000000\n", "0x100\n", "0x0\n");
	fake_dev_pages(1);
	fake_uio(1, "other\n", "0\n");
	fake_path(path, sizeof(path), "dev/uio0");
	fd = open(path, O_RDWR);
	fake_path(path, sizeof(path), "sys/class/uio/uio1/name");
	other = open(path, O_RDONLY);
	CHECK(fd >= 0 && other >= 0);
	/* another file, a closed one, none: refused, the fd still the caller's */
	CHECK_INT(udrv_uio_open_fd(uio, "fpga", other), -EINVAL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "/dev/uio0 (fpga) is not that device's node");
	CHECK(fcntl(other, F_GETFD) >= 0);
	CHECK_INT(udrv_uio_open_fd(uio, "uio0", 1000), -EBADF);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "/dev/uio0 (fpga) is not open");
	CHECK_INT(udrv_uio_open_fd(uio, "uio0", -1), -EBADF);
	CHECK_INT(udrv_uio_open_fd(uio, "nosuch", fd), -ENOENT);
	CHECK(fcntl(fd, F_GETFD) >= 0);
	/* the node: maps and name from sysfs, the baseline count, the fd owned */
	CHECK_INT(udrv_uio_open_fd(uio, "fpga", fd), 0);
	CHECK_INT(udrv_uio_fd(uio), fd);
	CHECK_STR(udrv_uio_devname(uio), "uio0");
	CHECK_INT(udrv_uio_num_maps(uio), 1);
	CHECK_INT(udrv_uio_map(uio, 0, &r), 0);
	m = udrv_region_mmio(r);
	CHECK_INT(udrv_read8(&m, 0), 1);	/* page 0 of the fd's file */
	udrv_region_unmap(r);
	udrv_uio_close(uio);
	CHECK(fcntl(fd, F_GETFD) < 0);
	close(other);
	udrv_uio_free(uio);
}

UDRV_TESTS(UDRV_T(test_no_uio), UDRV_T(test_discovery), UDRV_T(test_ports),
	   UDRV_T(test_map_offsets), UDRV_T(test_map_none_hint),
	   UDRV_T(test_pci_bar), UDRV_T(test_wait_and_missed),
	   UDRV_T(test_counter_wrap), UDRV_T(test_baseline_race),
	   UDRV_T(test_device_gone),
	   UDRV_T(test_wait_interrupted), UDRV_T(test_wait_sigmask),
	   UDRV_T(test_irqcontrol), UDRV_T(test_pci_intx_unmask),
	   UDRV_T(test_permission), UDRV_T(test_open_fd))
