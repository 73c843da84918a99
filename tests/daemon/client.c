// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's test client (sd-bus), its jobs:
 *
 *	client fd REQUEST_PATH VALUE [COUNT]
 *		take a request's fd (io.udrv1.Request.GetFd) and set its first
 *		line through the kernel (GPIO_V2_LINE_SET_VALUES_IOCTL) COUNT
 *		times, alternating from VALUE, then exit, leaving the line held
 *	client load CHIP_PATH OFFSET COUNT
 *		request line OFFSET as an output (io.gpiod1.Chip.RequestLines),
 *		set it COUNT times alternating from 1 (Request.SetValues), read
 *		it back (GetValues), print "ok CALLS VALUE": the calls counted
 *		here, at the source, and the last value set
 *	client uio DEVICE [WAITS]
 *		take UIO device DEVICE from udrvd (io.udrv1.Devices.OpenUio)
 *		with udrv_uio_open_fd(), print "uio NODE NAME WORD": its node,
 *		its driver's name, the first 32-bit word of map 0; then wait
 *		for WAITS interrupts (1 s each) and print "irqs N"
 *	client vfio ADDRESS
 *		take the VFIO device at ADDRESS (io.udrv1.Devices.OpenVfio)
 *		with udrv_vfio_open_fds(), print "vfio BDF VENDOR:DEVICE
 *		GROUP", the first word of BAR 0, the word read back at 0x04
 *		after writing 0x12345678 there (edu's liveness register
 *		answers with its complement), and the IOVA of a 4 KiB DMA
 *		buffer mapped through the container
 *
 *	client spi DEVICE HEX
 *		take SPI device DEVICE (io.udrv1.Devices.OpenSpi) with
 *		udrv_spi_open_fd(), send the bytes HEX ("a1b2") in one transfer
 *		and print "spi NODE B.C rx HEX": the bytes received
 *	client i2c-bus BUS ADDRESS REGISTER [force]
 *		take the whole I2C bus BUS (io.udrv1.Devices.OpenI2cBus) with
 *		udrv_i2c_open_fd(), read register REGISTER of the device at
 *		ADDRESS (SMBus read byte data; force: UDRV_I2C_FORCE, which the
 *		fd allows at any address) and print "i2c-bus NODE ADDRESS VALUE"
 *
 *	client watch LINE_PATH
 *		read the Line's properties (Properties.GetAll, as every proxy
 *		of it does), subscribe to its EdgeEvent signals (a match on the
 *		bus too: a broadcast one arrives as well) and its
 *		PropertiesChanged, print "watching"; then for each line "sync"
 *		on stdin: Peer.Ping udrvd and print "edge EDGE TIMESTAMP SEQNO
 *		LINE_SEQNO" for every EdgeEvent and "changed NAME,..." (the
 *		properties changed or invalidated) for every PropertiesChanged
 *		that came before its reply (udrvd's messages to one client
 *		arrive in order: none sent before the reply can come after it),
 *		then "synced"; exit at the end of stdin
 *
 *	client requests CHIP_PATH FIRST COUNT
 *		request lines FIRST.. FIRST+COUNT-1 as outputs, one request
 *		each, on one connection; print "requested N" (those granted)
 *	client watchmany COUNT LINE_PATH...
 *		open COUNT connections, each reading every LINE_PATH's
 *		properties (GetAll), print "watching COUNT" and keep them to
 *		the end of stdin
 *	client stall FIRST_PATH LINE_PATH
 *		read FIRST_PATH's properties, print "ready UNIQUE_NAME", wait
 *		for a line on stdin, then send a read of LINE_PATH's and hang
 *		up without waiting for its answer
 *	client hangup COUNT PATH...
 *		COUNT times: connect, read the properties of each PATH (a
 *		Line's or a Chip's), waiting for the answers but the last's,
 *		and hang up right after sending that; print "hung up COUNT"
 *
 * The bus is DBUS_SYSTEM_BUS_ADDRESS's, or the socket at file descriptor
 * CLIENT_BUS_FD when that is set: one already connected to the bus, by
 * another process (the bus knows that process's pid). Exit 0 done, 1
 * refused or failed (the error's name and message on stderr), 2 bad
 * arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <systemd/sd-bus.h>

#include <udrv/mmio.h>
#include <udrv/parse.h>
#include <udrv/i2c.h>
#include <udrv/spi.h>
#include <udrv/uio.h>
#include <udrv/vfio.h>
#include <unistd.h>

#define IFACE	"io.gpiod1"

static int failed(const char *what, const sd_bus_error *error, int r)
{
	fprintf(stderr, "client: %s: %s: %s\n", what, error->name ? error->name : "error",
		error->message ? error->message : strerror(-r));
	return 1;
}

static int set_values(int fd, unsigned int value, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		struct gpio_v2_line_values lv = { .bits = (value ^ (i & 1)) & 1, .mask = 1 };

		if (ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0) {
			fprintf(stderr, "client: set values: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("set %u times\n", count);
	return 0;
}

static int fd_job(sd_bus *bus, const char *path, unsigned int value, unsigned int count)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int fd, r;

	r = sd_bus_call_method(bus, IFACE, path, "io.udrv1.Request", "GetFd", &error, &reply, "");
	if (r >= 0)
		r = sd_bus_message_read(reply, "h", &fd);
	r = r < 0 ? failed("GetFd", &error, r) : set_values(fd, value, count);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	return r;
}

/* RequestLines for one output line at 0; its path into @req. */
static int request_line(sd_bus *bus, const char *chip, unsigned int offset, char **req,
			sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	const char *path;
	int r = sd_bus_call_method(bus, IFACE, chip, IFACE ".Chip", "RequestLines", error, &reply,
				   "(a(aua{sv})ai)a{sv}", 1, 1, offset, 1, "direction", "s",
				   "output", 1, 0, 1, "consumer", "s", "load");

	if (r >= 0)
		r = sd_bus_message_read(reply, "o", &path);
	if (r >= 0)
		*req = strdup(path);
	sd_bus_message_unref(reply);
	return r;
}

static int load_job(sd_bus *bus, const char *chip, unsigned int offset, unsigned int count)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	unsigned int calls = 0;
	int32_t value = 0, got = -1;
	char *req = NULL;
	int r = request_line(bus, chip, offset, &req, &error);

	if (r < 0)
		return failed("RequestLines", &error, r);
	for (; calls < count && r >= 0; calls += r >= 0) {
		value = (int32_t)(~calls & 1);
		r = sd_bus_call_method(bus, IFACE, req, IFACE ".Request", "SetValues", &error, NULL,
				       "a{ui}", 1, offset, value);
	}
	if (r >= 0)
		r = sd_bus_call_method(bus, IFACE, req, IFACE ".Request", "GetValues", &error,
				       &reply, "au", 1, offset);
	if (r >= 0)
		r = sd_bus_message_read(reply, "ai", 1, &got);
	if (r < 0) {
		fprintf(stderr, "client: after %u calls:\n", calls);
		r = failed(reply ? "GetValues" : "SetValues", &error, r);
	} else {
		printf("ok %u %d\n", calls, got);
		r = got != value;
	}
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	free(req);
	return r;
}

/* Call io.udrv1.Devices.@method(@arg); its reply in *@reply. */
static int open_device(sd_bus *bus, const char *method, const char *arg, sd_bus_message **reply)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	int r = sd_bus_call_method(bus, IFACE, "/io/udrv1", "io.udrv1.Devices", method, &error,
				   reply, "s", arg);

	if (r < 0)
		failed(method, &error, r);
	sd_bus_error_free(&error);
	return r;
}

static int uio_waits(struct udrv_uio *uio, unsigned int waits)
{
	struct udrv_uio_irq irq;
	unsigned int n = 0;

	for (; n < waits; n++)
		if (udrv_uio_wait(uio, 1000, &irq) != 1)
			break;
	printf("irqs %u\n", n);
	return n == waits ? 0 : 1;
}

static int uio_job(sd_bus *bus, const char *spec, unsigned int waits)
{
	struct udrv_uio *uio = udrv_uio_new();
	sd_bus_message *reply = NULL;
	struct udrv_region *r = NULL;
	const char *node;
	int fd = -1, ret = open_device(bus, "OpenUio", spec, &reply);

	if (ret >= 0)
		ret = sd_bus_message_read(reply, "sh", &node, &fd);
	if (ret >= 0)	/* the message closes its own */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (ret >= 0 && (udrv_uio_open_fd(uio, node, fd) < 0 || udrv_uio_map(uio, 0, &r) < 0)) {
		fprintf(stderr, "client: %s\n", udrv_uio_errmsg(uio));
		ret = -1;
	}
	if (ret >= 0) {
		struct udrv_mmio m = udrv_region_mmio(r);

		printf("uio %s %s 0x%08x\n", node, udrv_uio_name(uio), udrv_read32(&m, 0));
		udrv_region_unmap(r);
		ret = waits ? uio_waits(uio, waits) : 0;
	}
	udrv_uio_free(uio);
	sd_bus_message_unref(reply);
	return ret < 0 ? 1 : ret;
}

static int spi_job(sd_bus *bus, const char *spec, const char *hex)
{
	struct udrv_spi *spi = udrv_spi_new();
	sd_bus_message *reply = NULL;
	uint8_t tx[64], rx[64];
	size_t n = strlen(hex) / 2;
	const char *node;
	int fd = -1, ret = 0;

	if (!n || n > sizeof(tx) || strlen(hex) % 2)
		return 2;
	for (size_t i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return 2;
		tx[i] = (uint8_t)b;
	}
	ret = open_device(bus, "OpenSpi", spec, &reply);
	if (ret >= 0)
		ret = sd_bus_message_read(reply, "sh", &node, &fd);
	if (ret >= 0)	/* the message closes its own */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (ret >= 0 && (udrv_spi_open_fd(spi, node, fd) < 0 ||
			 udrv_spi_transfer(spi, tx, rx, n) != (int)n)) {
		fprintf(stderr, "client: %s\n", udrv_spi_errmsg(spi));
		ret = -1;
	}
	if (ret >= 0) {
		printf("spi %s %u.%u rx ", node, udrv_spi_bus(spi), udrv_spi_cs(spi));
		for (size_t i = 0; i < n; i++)
			printf("%02x", rx[i]);
		printf("\n");
	}
	udrv_spi_free(spi);
	sd_bus_message_unref(reply);
	return ret < 0 ? 1 : 0;
}

static int i2c_bus_job(sd_bus *bus, const char *spec, unsigned int addr, unsigned int reg,
		       bool force)
{
	struct udrv_i2c *i2c = udrv_i2c_new();
	sd_bus_message *reply = NULL;
	const char *node;
	uint8_t v = 0;
	int fd = -1, ret = open_device(bus, "OpenI2cBus", spec, &reply);

	if (ret >= 0)
		ret = sd_bus_message_read(reply, "sh", &node, &fd);
	if (ret >= 0)	/* the message closes its own */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (ret >= 0 && (udrv_i2c_open_fd(i2c, node, fd) < 0 ||
			 udrv_i2c_set_address(i2c, addr, force ? UDRV_I2C_FORCE : 0) < 0 ||
			 udrv_i2c_smbus_read_byte_data(i2c, (uint8_t)reg, &v) < 0)) {
		fprintf(stderr, "client: %s\n", udrv_i2c_errmsg(i2c));
		ret = -1;
	}
	if (ret >= 0)
		printf("i2c-bus %s 0x%02x 0x%02x\n", node, addr, v);
	udrv_i2c_free(i2c);
	sd_bus_message_unref(reply);
	return ret < 0 ? 1 : 0;
}

static void vfio_print(struct udrv_vfio *v, struct udrv_region *bar, struct udrv_dma *buf)
{
	struct udrv_mmio m = udrv_region_mmio(bar);
	struct udrv_vfio_info in;

	udrv_vfio_info(v, &in);
	printf("vfio %s %04x:%04x %u\n", in.bdf, in.vendor, in.device, in.iommu_group);
	printf("bar0 0x%08x\n", udrv_read32(&m, 0));
	udrv_write32(&m, 4, 0x12345678);
	printf("liveness 0x%08x\n", udrv_read32(&m, 4));
	printf("dma iova 0x%llx\n", (unsigned long long)udrv_dma_iova(buf));
}

static int vfio_job(sd_bus *bus, const char *address)
{
	struct udrv_vfio *v = udrv_vfio_new();
	sd_bus_message *reply = NULL;
	struct udrv_region *bar = NULL;
	struct udrv_dma *buf = NULL;
	int fds[3], ret = open_device(bus, "OpenVfio", address, &reply);

	if (ret >= 0)
		ret = sd_bus_message_read(reply, "hhh", &fds[0], &fds[1], &fds[2]);
	for (int i = 0; i < 3 && ret >= 0; i++)
		fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
	if (ret >= 0 && (udrv_vfio_open_fds(v, address, fds[0], fds[1], fds[2]) < 0 ||
			 udrv_vfio_map_bar(v, 0, &bar) < 0 ||
			 udrv_vfio_dma_alloc(v, 4096, &buf) < 0)) {
		fprintf(stderr, "client: %s\n", udrv_vfio_errmsg(v));
		ret = -1;
	}
	if (ret >= 0) {
		vfio_print(v, bar, buf);
		udrv_region_unmap(bar);
	}
	udrv_vfio_free(v);
	sd_bus_message_unref(reply);
	return ret < 0 ? 1 : 0;
}

static int on_edge(sd_bus_message *m, void *data, sd_bus_error *error)
{
	uint64_t ts, seq, lseq;
	int32_t edge;

	if (sd_bus_message_read(m, "(ittt)", &edge, &ts, &seq, &lseq) < 0)
		printf("edge malformed\n");
	else
		printf("edge %d %llu %llu %llu\n", edge, (unsigned long long)ts,
		       (unsigned long long)seq, (unsigned long long)lseq);
	return 0;
}

/* "changed A,B,...": the properties a PropertiesChanged names */
static int on_changed(sd_bus_message *m, void *data, sd_bus_error *error)
{
	const char *iface, *name;
	int r, n = 0;

	printf("changed ");
	r = sd_bus_message_read(m, "s", &iface);
	if (r >= 0)
		r = sd_bus_message_enter_container(m, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		r = sd_bus_message_read(m, "s", &name);
		if (r >= 0)
			printf("%s%s", n++ ? "," : "", name);
		if (r >= 0)
			r = sd_bus_message_skip(m, "v");
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	if (r >= 0)
		r = sd_bus_message_enter_container(m, 'a', "s");
	while (r >= 0 && (r = sd_bus_message_read(m, "s", &name)) > 0)
		printf("%s%s", n++ ? "," : "", name);
	printf("%s\n", r < 0 ? " malformed" : "");
	return 0;
}

static int watch_job(sd_bus *bus, const char *path)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	char line[64];
	int r = sd_bus_match_signal(bus, NULL, NULL, path, IFACE ".Line", "EdgeEvent",
				    on_edge, NULL);

	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, NULL, path, "org.freedesktop.DBus.Properties",
					"PropertiesChanged", on_changed, NULL);

	if (r >= 0)
		r = sd_bus_call_method(bus, IFACE, path, "org.freedesktop.DBus.Properties",
				       "GetAll", &error, &reply, "s", IFACE ".Line");
	sd_bus_message_unref(reply);
	if (r < 0)
		return failed("GetAll", &error, r);
	printf("watching\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		r = sd_bus_call_method(bus, IFACE, "/", "org.freedesktop.DBus.Peer", "Ping",
				       &error, NULL, NULL);
		if (r < 0)
			return failed("Ping", &error, r);
		while ((r = sd_bus_process(bus, NULL)) > 0)
			;
		printf("synced\n");
		fflush(stdout);
	}
	return 0;
}

static int requests_job(sd_bus *bus, const char *chip, unsigned int first, unsigned int count)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	unsigned int n = 0;
	char *req = NULL;
	int r = 0;

	for (; n < count && r >= 0; n += r >= 0) {
		r = request_line(bus, chip, first + n, &req, &error);
		free(req);
		req = NULL;
	}
	printf("requested %u\n", n);
	r = r < 0 ? failed("RequestLines", &error, r) : 0;
	sd_bus_error_free(&error);
	return r;
}

static int open_bus(sd_bus **bus)
{
	int r = sd_bus_open_system(bus);

	if (r < 0)
		fprintf(stderr, "client: no bus: %s\n", strerror(-r));
	return r;
}

/* The interface of the object at @path: a Line's or a Chip's. */
static const char *iface_of(const char *path)
{
	return strstr(path, "/line") ? IFACE ".Line" : IFACE ".Chip";
}

static int get_all(sd_bus *bus, const char *path, sd_bus_error *error)
{
	return sd_bus_call_method(bus, IFACE, path, "org.freedesktop.DBus.Properties", "GetAll",
				  error, NULL, "s", iface_of(path));
}

static int watchmany_job(unsigned int count, int npaths, char **paths)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus **buses = calloc(count, sizeof(*buses));
	unsigned int n = 0;
	char line[16];
	int r = buses ? 0 : -ENOMEM;

	for (; n < count && r >= 0; n++) {
		r = open_bus(&buses[n]);
		for (int i = 0; i < npaths && r >= 0; i++)
			r = get_all(buses[n], paths[i], &error);
	}
	if (r < 0) {
		fprintf(stderr, "client: connection %u:\n", n);
		r = failed("GetAll", &error, r);
	} else {
		printf("watching %u\n", n);
		fflush(stdout);
		while (fgets(line, sizeof(line), stdin))
			;
		r = 0;
	}
	for (unsigned int i = 0; buses && i < count; i++)
		sd_bus_flush_close_unref(buses[i]);
	free(buses);
	sd_bus_error_free(&error);
	return r;
}

static int send_get_all(sd_bus *bus, const char *path)
{
	sd_bus_message *m = NULL;
	int r = sd_bus_message_new_method_call(bus, &m, IFACE, path,
					       "org.freedesktop.DBus.Properties", "GetAll");

	if (r >= 0)
		r = sd_bus_message_append(m, "s", iface_of(path));
	if (r >= 0)
		r = sd_bus_send(bus, m, NULL);
	if (r >= 0)
		r = sd_bus_flush(bus);
	sd_bus_message_unref(m);
	return r;
}

static int stall_job(sd_bus *bus, const char *first, const char *path)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	const char *name = NULL;
	char line[16];
	int r = get_all(bus, first, &error);

	if (r >= 0)
		r = sd_bus_get_unique_name(bus, &name);
	if (r < 0)
		return failed("GetAll", &error, r);
	printf("ready %s\n", name);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	r = send_get_all(bus, path);
	return r < 0 ? failed("GetAll", &error, r) : 0;
}

static int hangup_job(unsigned int count, int npaths, char **paths)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	unsigned int n = 0;
	int r = 0;

	for (; n < count && r >= 0; n++) {
		sd_bus *bus = NULL;

		r = open_bus(&bus);
		for (int i = 0; i + 1 < npaths && r >= 0; i++)
			r = get_all(bus, paths[i], &error);
		if (r >= 0)
			r = send_get_all(bus, paths[npaths - 1]);
		sd_bus_close_unref(bus);
	}
	if (r < 0)
		return failed("hang up", &error, r);
	printf("hung up %u\n", n);
	return 0;
}

static const char usage[] =
	"usage: client fd REQUEST_PATH VALUE [COUNT]\n"
	"       client load CHIP_PATH OFFSET COUNT\n"
	"       client uio DEVICE [WAITS]\n"
	"       client vfio ADDRESS\n"
	"       client spi DEVICE HEX\n"
	"       client i2c-bus BUS ADDRESS REGISTER [force]\n"
	"       client watch LINE_PATH\n"
	"       client requests CHIP_PATH FIRST COUNT\n"
	"       client watchmany COUNT LINE_PATH...\n"
	"       client stall FIRST_PATH LINE_PATH\n"
	"       client hangup COUNT PATH...\n";

/* The job of argv[1]; 2 for bad arguments. */
static int job(sd_bus *bus, int argc, char **argv)
{
	const char *j = argv[1];
	unsigned int a = 0, count = 1;

	if (!strcmp(j, "fd") && (argc == 4 || argc == 5) && !udrv_parse_uint(argv[3], 1, &a) &&
	    (argc == 4 || !udrv_parse_uint(argv[4], 100000000, &count)))
		return fd_job(bus, argv[2], a, count);
	if (!strcmp(j, "load") && argc == 5 && !udrv_parse_uint(argv[3], 65534, &a) &&
	    !udrv_parse_uint(argv[4], 100000000, &count))
		return load_job(bus, argv[2], a, count);
	if (!strcmp(j, "uio") && (argc == 3 || argc == 4) &&
	    (argc == 3 || !udrv_parse_uint(argv[3], 100000, &a)))
		return uio_job(bus, argv[2], a);
	if (!strcmp(j, "spi") && argc == 4)
		return spi_job(bus, argv[2], argv[3]);
	if (!strcmp(j, "i2c-bus") && (argc == 5 || (argc == 6 && !strcmp(argv[5], "force"))) &&
	    !udrv_parse_uint(argv[3], 0x7f, &a) && !udrv_parse_uint(argv[4], 0xff, &count))
		return i2c_bus_job(bus, argv[2], a, count, argc == 6);
	if (!strcmp(j, "vfio") && argc == 3)
		return vfio_job(bus, argv[2]);
	if (!strcmp(j, "watch") && argc == 3)
		return watch_job(bus, argv[2]);
	if (!strcmp(j, "requests") && argc == 5 && !udrv_parse_uint(argv[3], 65534, &a) &&
	    !udrv_parse_uint(argv[4], 65534, &count))
		return requests_job(bus, argv[2], a, count);
	if (!strcmp(j, "watchmany") && argc >= 4 && !udrv_parse_uint(argv[2], 10000, &count) &&
	    count)
		return watchmany_job(count, argc - 3, argv + 3);
	if (!strcmp(j, "stall") && argc == 4)
		return stall_job(bus, argv[2], argv[3]);
	if (!strcmp(j, "hangup") && argc >= 4 && !udrv_parse_uint(argv[2], 100000, &count))
		return hangup_job(count, argc - 3, argv + 3);
	fputs(usage, stderr);
	return 2;
}

/* A bus client on the connected socket @fd (a number): it authenticates
 * and says Hello as a new connection would. */
static int bus_of_fd(const char *fd, sd_bus **bus)
{
	unsigned int n;
	int r = udrv_parse_uint(fd, 65535, &n);

	if (r >= 0)
		r = sd_bus_new(bus);
	if (r >= 0)
		r = sd_bus_set_fd(*bus, (int)n, (int)n);
	if (r >= 0)
		r = sd_bus_set_bus_client(*bus, 1);
	if (r >= 0)
		r = sd_bus_start(*bus);
	if (r < 0)
		fprintf(stderr, "client: no bus on fd %s: %s\n", fd, strerror(-r));
	return r;
}

int main(int argc, char **argv)
{
	sd_bus *bus = NULL;
	int r;

	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	r = getenv("CLIENT_BUS_FD") ? bus_of_fd(getenv("CLIENT_BUS_FD"), &bus) : open_bus(&bus);
	if (r < 0)
		return 1;
	r = job(bus, argc, argv);
	sd_bus_flush_close_unref(bus);
	return r;
}
