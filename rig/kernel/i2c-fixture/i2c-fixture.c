// SPDX-License-Identifier: GPL-2.0-only
/*
 * i2c-fixture - an I2C adapter with one device on it, for the lab
 *
 * The adapter does plain I2C transfers only (I2C_FUNC_I2C): it has no
 * smbus_xfer, so i2c-core emulates every SMBus transaction with I2C
 * messages (I2C_FUNC_SMBUS_EMUL_ALL), process calls, block process calls
 * and PEC included, as on most real I2C controllers. It has no 10-bit
 * addressing and refuses a message with I2C_M_TEN.
 *
 * The device at `addr` (default 0x50) is a 256-byte register file like an
 * EEPROM: the first byte a write carries sets the register pointer, the
 * next bytes are stored from there, reads continue from the pointer, and
 * the pointer increments after every byte (wrapping at 0xff). A read
 * message with I2C_M_RECV_LEN (an SMBus block read) takes its length from
 * the byte at the pointer (1..32; anything else fails with EPROTO).
 * Any other address does not answer (ENXIO).
 *
 * With the `pec` attribute set the device speaks SMBus with PEC: the last
 * byte of a transaction's last message is its PEC (CRC-8 over every byte
 * of the transaction, address bytes included): the device sends it as the
 * last byte of a read and checks it as the last byte of a write of two
 * bytes or more, NAKing a wrong one (EIO; nothing of that write is stored).
 *
 * /sys/devices/platform/i2c-fixture/: `stats` (the device's own counts:
 * what tests compare with what they sent), `pec`, and `regs` (the register
 * file, binary, 256 bytes, read/write: to seed it and to look at it).
 */

#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#define I2C_FIXTURE_NAME	"i2c-fixture"
#define I2C_FIXTURE_REGS	256

static unsigned short addr = 0x50;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "The device's 7-bit address (0x03-0x77, default 0x50)");

struct i2c_fixture_stats {
	u64 transfers;		/* master_xfer calls */
	u64 messages;		/* messages looked at */
	u64 read_bytes;		/* bytes sent to the master (PEC included) */
	u64 written_bytes;	/* bytes received (register byte, PEC included) */
	u64 naks;		/* messages to an address nobody has */
	u64 refused;		/* messages with I2C_M_TEN */
	u64 pec_sent;
	u64 pec_ok;
	u64 pec_errors;		/* writes NAKed for a wrong PEC */
	u64 recv_len_errors;	/* block reads of a bad length byte */
};

struct i2c_fixture {
	struct i2c_adapter adap;
	struct mutex lock;	/* the device's state and counts */
	u8 regs[I2C_FIXTURE_REGS];
	u8 ptr;
	bool pec;
	struct i2c_fixture_stats stats;
};

static struct platform_device *i2c_fixture_pdev;

/* SMBus PEC: CRC-8, x^8 + x^2 + x + 1, MSB first, initial value 0 */
static u8 i2c_fixture_crc8(u8 crc, const u8 *p, size_t n)
{
	int bit;

	while (n--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc & 0x80) ? (crc << 1) ^ 0x07 : crc << 1;
	}
	return crc;
}

static int i2c_fixture_read(struct i2c_fixture *fx, struct i2c_msg *m, bool last,
			    u8 *crc)
{
	bool pec = fx->pec && last;
	u16 i, n;

	if (m->flags & I2C_M_RECV_LEN) {
		u8 count = fx->regs[fx->ptr];

		if (count == 0 || count > I2C_SMBUS_BLOCK_MAX) {
			fx->stats.recv_len_errors++;
			return -EPROTO;
		}
		m->len += count;
	}
	n = (pec && m->len) ? m->len - 1 : m->len;
	for (i = 0; i < n; i++)
		m->buf[i] = fx->regs[fx->ptr++];
	*crc = i2c_fixture_crc8(*crc, m->buf, n);
	if (n < m->len) {
		m->buf[n] = *crc;
		fx->stats.pec_sent++;
	}
	fx->stats.read_bytes += m->len;
	return 0;
}

static int i2c_fixture_write(struct i2c_fixture *fx, const struct i2c_msg *m,
			     bool last, u8 *crc)
{
	u16 i, n = m->len;

	if (!n)
		return 0;	/* a quick write */
	if (fx->pec && last && n >= 2) {
		n--;
		if (i2c_fixture_crc8(*crc, m->buf, n) != m->buf[n]) {
			fx->stats.pec_errors++;
			return -EIO;	/* the PEC byte NAKed */
		}
		fx->stats.pec_ok++;
	}
	*crc = i2c_fixture_crc8(*crc, m->buf, n);
	fx->ptr = m->buf[0];
	for (i = 1; i < n; i++)
		fx->regs[fx->ptr++] = m->buf[i];
	fx->stats.written_bytes += m->len;
	return 0;
}

static int i2c_fixture_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct i2c_fixture *fx = i2c_get_adapdata(adap);
	int i, err = 0;
	u8 crc = 0, a;

	mutex_lock(&fx->lock);
	fx->stats.transfers++;
	for (i = 0; i < num && !err; i++) {
		struct i2c_msg *m = &msgs[i];
		bool last = i == num - 1;

		fx->stats.messages++;
		if (m->flags & I2C_M_TEN) {
			fx->stats.refused++;
			err = -EOPNOTSUPP;
			break;
		}
		if (m->addr != addr) {
			fx->stats.naks++;
			err = -ENXIO;
			break;
		}
		a = i2c_8bit_addr_from_msg(m);
		crc = i2c_fixture_crc8(crc, &a, 1);
		if (m->flags & I2C_M_RD)
			err = i2c_fixture_read(fx, m, last, &crc);
		else
			err = i2c_fixture_write(fx, m, last, &crc);
	}
	mutex_unlock(&fx->lock);
	return err ? err : num;
}

static u32 i2c_fixture_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL_ALL;
}

static const struct i2c_algorithm i2c_fixture_algo = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	.xfer = i2c_fixture_xfer,
#else
	.master_xfer = i2c_fixture_xfer,
#endif
	.functionality = i2c_fixture_func,
};

static ssize_t stats_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct i2c_fixture *fx = dev_get_drvdata(dev);
	struct i2c_fixture_stats s;

	mutex_lock(&fx->lock);
	s = fx->stats;
	mutex_unlock(&fx->lock);
	return sysfs_emit(buf,
			  "transfers %llu\nmessages %llu\nread_bytes %llu\nwritten_bytes %llu\n"
			  "naks %llu\nrefused %llu\npec_sent %llu\npec_ok %llu\npec_errors %llu\n"
			  "recv_len_errors %llu\n",
			  s.transfers, s.messages, s.read_bytes, s.written_bytes, s.naks,
			  s.refused, s.pec_sent, s.pec_ok, s.pec_errors, s.recv_len_errors);
}
static DEVICE_ATTR_RO(stats);

static ssize_t pec_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct i2c_fixture *fx = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", fx->pec);
}

static ssize_t pec_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct i2c_fixture *fx = dev_get_drvdata(dev);
	bool on;
	int err = kstrtobool(buf, &on);

	if (err)
		return err;
	mutex_lock(&fx->lock);
	fx->pec = on;
	mutex_unlock(&fx->lock);
	return count;
}
static DEVICE_ATTR_RW(pec);

static ssize_t regs_read(struct file *file, struct kobject *kobj,
			 struct bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	struct i2c_fixture *fx = dev_get_drvdata(kobj_to_dev(kobj));

	mutex_lock(&fx->lock);
	memcpy(buf, fx->regs + off, count);	/* sysfs clamps to the size */
	mutex_unlock(&fx->lock);
	return count;
}

static ssize_t regs_write(struct file *file, struct kobject *kobj,
			  struct bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	struct i2c_fixture *fx = dev_get_drvdata(kobj_to_dev(kobj));

	mutex_lock(&fx->lock);
	memcpy(fx->regs + off, buf, count);
	mutex_unlock(&fx->lock);
	return count;
}
static BIN_ATTR_RW(regs, I2C_FIXTURE_REGS);

static struct attribute *i2c_fixture_attrs[] = {
	&dev_attr_stats.attr,
	&dev_attr_pec.attr,
	NULL,
};

static struct bin_attribute *i2c_fixture_bin_attrs[] = {
	&bin_attr_regs,
	NULL,
};

static const struct attribute_group i2c_fixture_group = {
	.attrs = i2c_fixture_attrs,
	.bin_attrs = i2c_fixture_bin_attrs,
};
__ATTRIBUTE_GROUPS(i2c_fixture);

static int i2c_fixture_probe(struct platform_device *pdev)
{
	struct i2c_fixture *fx;
	int err;

	fx = devm_kzalloc(&pdev->dev, sizeof(*fx), GFP_KERNEL);
	if (!fx)
		return -ENOMEM;
	mutex_init(&fx->lock);
	fx->adap.owner = THIS_MODULE;
	fx->adap.algo = &i2c_fixture_algo;
	fx->adap.dev.parent = &pdev->dev;
	fx->adap.nr = -1;
	strscpy(fx->adap.name, I2C_FIXTURE_NAME, sizeof(fx->adap.name));
	i2c_set_adapdata(&fx->adap, fx);
	err = devm_i2c_add_adapter(&pdev->dev, &fx->adap);
	if (err)
		return err;
	platform_set_drvdata(pdev, fx);
	return 0;
}

static struct platform_driver i2c_fixture_driver = {
	.probe = i2c_fixture_probe,
	.driver = {
		.name = I2C_FIXTURE_NAME,
		.dev_groups = i2c_fixture_groups,
	},
};

static int __init i2c_fixture_init(void)
{
	int err;

	if (addr < 0x03 || addr > 0x77) {
		pr_err(I2C_FIXTURE_NAME ": addr=0x%x is not a 7-bit device address (0x03-0x77)\n",
		       addr);
		return -EINVAL;
	}
	err = platform_driver_register(&i2c_fixture_driver);
	if (err)
		return err;
	i2c_fixture_pdev = platform_device_register_simple(I2C_FIXTURE_NAME, -1, NULL, 0);
	if (IS_ERR(i2c_fixture_pdev)) {
		platform_driver_unregister(&i2c_fixture_driver);
		return PTR_ERR(i2c_fixture_pdev);
	}
	if (!platform_get_drvdata(i2c_fixture_pdev)) {	/* the probe failed */
		platform_device_unregister(i2c_fixture_pdev);
		platform_driver_unregister(&i2c_fixture_driver);
		return -ENODEV;
	}
	return 0;
}

static void __exit i2c_fixture_exit(void)
{
	platform_device_unregister(i2c_fixture_pdev);
	platform_driver_unregister(&i2c_fixture_driver);
}

module_init(i2c_fixture_init);
module_exit(i2c_fixture_exit);

MODULE_DESCRIPTION("An I2C adapter (plain I2C, SMBus emulated) with an EEPROM-like device");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
