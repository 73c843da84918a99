// SPDX-License-Identifier: GPL-2.0-only
/*
 * spi-fixture - an SPI controller with two devices on it, for the lab
 *
 * The controller has two chip selects, SPI modes 0 to 3, 8 or 16 bits per
 * word and clocks from SPI_FIXTURE_MIN_HZ to SPI_FIXTURE_MAX_HZ (the SPI
 * core clamps a faster transfer to the maximum and refuses a slower one).
 * It shifts every bit through a model of the device on the chip select:
 *
 *   CS0  "mcp3008": an MCP3008, an 8-channel 10-bit ADC. After its chip
 *        select goes active it waits for a start bit (a 1 on MOSI), takes
 *        SGL/DIFF and D2 D1 D0, samples, sends a null bit and the 10-bit
 *        result MSB first, then the result again LSB first (from B1), then
 *        zeros; a new conversion needs the chip select to go inactive and
 *        active again. So the usual 3-byte frame 0x01, 0x80 | ch << 4, 0x00
 *        reads the channel in the last 10 bits. It answers in modes 0 and 3
 *        as the chip does; a transfer in mode 1 or 2 reads zeros (counted).
 *        The channels' inputs are what the test writes to `adc`.
 *   CS1  "spi-loopback": MISO is MOSI.
 *
 * The devices are registered with those names as modalias and no driver;
 * the lab binds them to spidev with driver_override (rig/kernel/spi-fixture/
 * lab-setup.sh).
 *
 * /sys/devices/platform/spi-fixture/: `adc` (the eight inputs, 0..1023),
 * `cs0`, `cs1` (what the controller did on each chip select: the counts and
 * the last transfer's settings, for tests to count at the source).
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#define SPI_FIXTURE_NAME	"spi-fixture"
#define SPI_FIXTURE_NCS		2
#define SPI_FIXTURE_MIN_HZ	10000
#define SPI_FIXTURE_MAX_HZ	10000000
#define SPI_FIXTURE_ADC_CS	0
#define SPI_FIXTURE_LOOP_CS	1
#define SPI_FIXTURE_ADC_CH	8
#define SPI_FIXTURE_ADC_MAX	1023

struct spi_fixture_cs_stats {
	u64 messages;
	u64 transfers;
	u64 bytes;
	u64 cs_asserts;		/* chip select driven active */
	u64 conversions;	/* CS0: start bits seen */
	u64 bad_mode;		/* CS0: transfers in mode 1 or 2 */
	u32 mode;		/* the last transfer's SPI mode bits */
	u32 bits;		/* its bits per word */
	u32 speed_hz;		/* its clock, as the core gave it */
};

struct spi_fixture_adc {
	bool started;		/* a start bit seen since the chip select went active */
	unsigned int clk;	/* clocks since the start bit */
	u8 cfg;			/* SGL/DIFF D2 D1 D0 */
	u16 value;		/* the conversion being sent */
};

struct spi_fixture {
	struct mutex lock;	/* everything below */
	u16 inputs[SPI_FIXTURE_ADC_CH];
	struct spi_fixture_adc adc;
	struct spi_fixture_cs_stats stats[SPI_FIXTURE_NCS];
};

static struct platform_device *spi_fixture_pdev;

static u16 spi_fixture_convert(const struct spi_fixture *f, u8 cfg)
{
	unsigned int ch = cfg & 7, neg = ch ^ 1;

	if (cfg & 8)		/* single-ended */
		return f->inputs[ch];
	/* differential, pair ch / 2: IN+ is CHch, IN- its pair's other channel */
	return f->inputs[ch] > f->inputs[neg] ? f->inputs[ch] - f->inputs[neg] : 0;
}

/* One clock of the MCP3008: the bit it drives on MISO, having seen @mosi. */
static int spi_fixture_adc_clock(struct spi_fixture *f, int mosi)
{
	struct spi_fixture_adc *a = &f->adc;

	if (!a->started) {
		if (mosi) {
			a->started = true;
			a->clk = 0;
			a->cfg = 0;
			f->stats[SPI_FIXTURE_ADC_CS].conversions++;
		}
		return 0;
	}
	a->clk++;
	if (a->clk <= 4) {
		a->cfg = (a->cfg << 1) | mosi;
		if (a->clk == 4)
			a->value = spi_fixture_convert(f, a->cfg);
		return 0;
	}
	if (a->clk <= 6)		/* sampling, then the null bit */
		return 0;
	if (a->clk <= 16)		/* B9 .. B0 */
		return (a->value >> (16 - a->clk)) & 1;
	if (a->clk <= 25)		/* B1 .. B9 */
		return (a->value >> (a->clk - 16)) & 1;
	return 0;
}

static u32 spi_fixture_get_word(const void *buf, unsigned int size, unsigned int i)
{
	if (!buf)
		return 0;
	if (size == 1)
		return ((const u8 *)buf)[i];
	return ((const u16 *)buf)[i];
}

static void spi_fixture_put_word(void *buf, unsigned int size, unsigned int i, u32 w)
{
	if (!buf)
		return;
	if (size == 1)
		((u8 *)buf)[i] = w;
	else
		((u16 *)buf)[i] = w;
}

static void spi_fixture_adc_xfer(struct spi_fixture *f, struct spi_transfer *t,
				 unsigned int bits, unsigned int size)
{
	unsigned int i, b, n = t->len / size;

	for (i = 0; i < n; i++) {
		u32 in = spi_fixture_get_word(t->tx_buf, size, i), out = 0;

		for (b = bits; b-- > 0;)
			out |= (u32)spi_fixture_adc_clock(f, (in >> b) & 1) << b;
		spi_fixture_put_word(t->rx_buf, size, i, out);
	}
}

static int spi_fixture_transfer_one(struct spi_controller *ctlr, struct spi_device *spi,
				    struct spi_transfer *t)
{
	struct spi_fixture *f = spi_controller_get_devdata(ctlr);
	unsigned int cs = spi_get_chipselect(spi, 0);
	unsigned int bits = t->bits_per_word ? t->bits_per_word : spi->bits_per_word;
	unsigned int size = bits > 8 ? 2 : 1;
	struct spi_fixture_cs_stats *s;

	if (cs >= SPI_FIXTURE_NCS)
		return -EINVAL;
	s = &f->stats[cs];
	mutex_lock(&f->lock);
	s->transfers++;
	s->bytes += t->len;
	s->mode = spi->mode;
	s->bits = bits;
	s->speed_hz = t->speed_hz;
	if (cs == SPI_FIXTURE_LOOP_CS) {
		if (t->rx_buf && t->tx_buf)
			memcpy(t->rx_buf, t->tx_buf, t->len);
		else if (t->rx_buf)
			memset(t->rx_buf, 0, t->len);
	} else if (!!(spi->mode & SPI_CPOL) != !!(spi->mode & SPI_CPHA)) {
		s->bad_mode++;	/* the MCP3008 does modes 0 and 3 only */
		if (t->rx_buf)
			memset(t->rx_buf, 0, t->len);
	} else {
		spi_fixture_adc_xfer(f, t, bits, size);
	}
	mutex_unlock(&f->lock);
	return 0;	/* done: nothing to wait for */
}

static void spi_fixture_set_cs(struct spi_device *spi, bool level)
{
	struct spi_fixture *f = spi_controller_get_devdata(spi->controller);
	unsigned int cs = spi_get_chipselect(spi, 0);

	/* @level is the line's: active low unless SPI_CS_HIGH */
	if (cs >= SPI_FIXTURE_NCS || level != !!(spi->mode & SPI_CS_HIGH))
		return;
	mutex_lock(&f->lock);
	f->stats[cs].cs_asserts++;
	if (cs == SPI_FIXTURE_ADC_CS)
		f->adc.started = false;
	mutex_unlock(&f->lock);
}

static int spi_fixture_prepare_message(struct spi_controller *ctlr, struct spi_message *msg)
{
	struct spi_fixture *f = spi_controller_get_devdata(ctlr);
	unsigned int cs = spi_get_chipselect(msg->spi, 0);

	if (cs >= SPI_FIXTURE_NCS)
		return -EINVAL;
	mutex_lock(&f->lock);
	f->stats[cs].messages++;
	mutex_unlock(&f->lock);
	return 0;
}

static struct spi_fixture *spi_fixture_of(struct device *dev)
{
	struct spi_controller *ctlr = dev_get_drvdata(dev);

	return spi_controller_get_devdata(ctlr);
}

static ssize_t spi_fixture_cs_show(struct device *dev, unsigned int cs, char *buf)
{
	struct spi_fixture *f = spi_fixture_of(dev);
	struct spi_fixture_cs_stats s;

	mutex_lock(&f->lock);
	s = f->stats[cs];
	mutex_unlock(&f->lock);
	return sysfs_emit(buf,
			  "messages %llu\ntransfers %llu\nbytes %llu\ncs_asserts %llu\n"
			  "conversions %llu\nbad_mode %llu\nmode %u\nbits %u\nspeed_hz %u\n",
			  s.messages, s.transfers, s.bytes, s.cs_asserts, s.conversions,
			  s.bad_mode, s.mode, s.bits, s.speed_hz);
}

static ssize_t cs0_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return spi_fixture_cs_show(dev, 0, buf);
}
static DEVICE_ATTR_RO(cs0);

static ssize_t cs1_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return spi_fixture_cs_show(dev, 1, buf);
}
static DEVICE_ATTR_RO(cs1);

static ssize_t adc_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct spi_fixture *f = spi_fixture_of(dev);
	u16 v[SPI_FIXTURE_ADC_CH];

	mutex_lock(&f->lock);
	memcpy(v, f->inputs, sizeof(v));
	mutex_unlock(&f->lock);
	return sysfs_emit(buf, "%u %u %u %u %u %u %u %u\n",
			  v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}

/* "V0 V1 ... V7": all eight inputs, each 0..1023 */
static ssize_t adc_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct spi_fixture *f = spi_fixture_of(dev);
	unsigned int v[SPI_FIXTURE_ADC_CH], i;
	int n, used;

	for (i = 0, n = 0; i < SPI_FIXTURE_ADC_CH; i++, n += used) {
		if (sscanf(buf + n, " %u%n", &v[i], &used) != 1 ||
		    v[i] > SPI_FIXTURE_ADC_MAX)
			return -EINVAL;
	}
	mutex_lock(&f->lock);
	for (i = 0; i < SPI_FIXTURE_ADC_CH; i++)
		f->inputs[i] = v[i];
	mutex_unlock(&f->lock);
	return count;
}
static DEVICE_ATTR_RW(adc);

static struct attribute *spi_fixture_attrs[] = {
	&dev_attr_cs0.attr,
	&dev_attr_cs1.attr,
	&dev_attr_adc.attr,
	NULL,
};
ATTRIBUTE_GROUPS(spi_fixture);

static int spi_fixture_add_device(struct spi_controller *ctlr, const char *name, u16 cs)
{
	struct spi_board_info info = {
		.max_speed_hz = 1000000,
		.chip_select = cs,
		.mode = SPI_MODE_0,
	};
	struct spi_device *spi;

	strscpy(info.modalias, name, sizeof(info.modalias));
	spi = spi_new_device(ctlr, &info);
	return spi ? 0 : -ENODEV;
}

static int spi_fixture_probe(struct platform_device *pdev)
{
	struct spi_controller *ctlr;
	struct spi_fixture *f;
	int err;

	ctlr = devm_spi_alloc_host(&pdev->dev, sizeof(*f));
	if (!ctlr)
		return -ENOMEM;
	f = spi_controller_get_devdata(ctlr);
	mutex_init(&f->lock);
	ctlr->bus_num = -1;
	ctlr->num_chipselect = SPI_FIXTURE_NCS;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8) | SPI_BPW_MASK(16);
	ctlr->min_speed_hz = SPI_FIXTURE_MIN_HZ;
	ctlr->max_speed_hz = SPI_FIXTURE_MAX_HZ;
	ctlr->set_cs = spi_fixture_set_cs;
	ctlr->prepare_message = spi_fixture_prepare_message;
	ctlr->transfer_one = spi_fixture_transfer_one;
	err = devm_spi_register_controller(&pdev->dev, ctlr);
	if (err)
		return err;
	err = spi_fixture_add_device(ctlr, "mcp3008", SPI_FIXTURE_ADC_CS);
	if (!err)
		err = spi_fixture_add_device(ctlr, "spi-loopback", SPI_FIXTURE_LOOP_CS);
	if (err)
		return err;	/* the controller's unregistration removes a device added */
	platform_set_drvdata(pdev, ctlr);
	return 0;
}

static struct platform_driver spi_fixture_driver = {
	.probe = spi_fixture_probe,
	.driver = {
		.name = SPI_FIXTURE_NAME,
		.dev_groups = spi_fixture_groups,
	},
};

static int __init spi_fixture_init(void)
{
	int err = platform_driver_register(&spi_fixture_driver);

	if (err)
		return err;
	spi_fixture_pdev = platform_device_register_simple(SPI_FIXTURE_NAME, -1, NULL, 0);
	if (IS_ERR(spi_fixture_pdev)) {
		platform_driver_unregister(&spi_fixture_driver);
		return PTR_ERR(spi_fixture_pdev);
	}
	if (!platform_get_drvdata(spi_fixture_pdev)) {	/* the probe failed */
		platform_device_unregister(spi_fixture_pdev);
		platform_driver_unregister(&spi_fixture_driver);
		return -ENODEV;
	}
	return 0;
}

static void __exit spi_fixture_exit(void)
{
	platform_device_unregister(spi_fixture_pdev);
	platform_driver_unregister(&spi_fixture_driver);
}

module_init(spi_fixture_init);
module_exit(spi_fixture_exit);

MODULE_DESCRIPTION("An SPI controller with an MCP3008 model on CS0 and a loopback on CS1");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
