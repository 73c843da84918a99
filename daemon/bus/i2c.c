// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.udrv1.I2c (/io/udrv1): I2C transfers udrvd makes for a client, at the
 * addresses `transfer i2c BUS ADDRESS[-ADDRESS]` rules grant it.
 *
 *	Transfer(s bus, a(qqqay) messages) -> (aay reads)
 *		each message (address, flags, length, bytes): a read (flag
 *		0x1) of length bytes and no bytes, or a write of its bytes
 *		(length their count); 0x10 a 10-bit address, 0x8000 a stop
 *		after it. One I2C_RDWR; the reads' bytes in order.
 *	ReadByteData(s bus, q address, y register) -> (y value)
 *	WriteByteData(s bus, q address, y register, y value)
 *	ReadWordData(s bus, q address, y register) -> (q value)
 *	WriteWordData(s bus, q address, y register, q value)
 *
 * An i2c-dev fd would let its holder talk to every address of the bus, the
 * kernel's devices included, so udrvd keeps it. What is checked and done
 * is the model's (model/i2c_serve.h); here the calls' arguments and
 * answers.
 */
#include <errno.h>
#include <stdlib.h>

#include "caller.h"
#include "errors.h"
#include "i2c_serve.h"
#include "i2c.h"

int udrvd_i2c_read_msgs(sd_bus_message *m, struct udrvd_i2c_msg *msgs, size_t max,
			sd_bus_error *error)
{
	size_t n = 0;
	int r = sd_bus_message_enter_container(m, 'a', "(qqqay)");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r', "qqqay")) > 0) {
		uint16_t addr, flags, len;
		const void *data = NULL;
		size_t size = 0;

		if (n == max)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "more than %zu messages: a transfer has 1 to %d",
						 max, UDRVD_I2C_MSGS_MAX);
		r = sd_bus_message_read(m, "qqq", &addr, &flags, &len);
		if (r >= 0)
			r = sd_bus_message_read_array(m, 'y', &data, &size);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		msgs[n++] = (struct udrvd_i2c_msg){ addr, flags, len, data, size };
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	return r < 0 ? r : (int)n;
}

/* @e into @error, or the reply */
static int answer(sd_bus_error *error, struct udrvd_err *e, int err)
{
	return err < 0 ? udrvd_bus_error(error, e) : 0;
}

/* io.udrv1.I2c.Transfer(s bus, a(qqqay) messages) -> (aay reads) */
static int method_transfer(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd *d = data;
	struct udrvd_i2c_msg msgs[UDRVD_I2C_MSGS_MAX];
	struct udrvd_err e = { 0 };
	struct udrvd_creds who;
	sd_bus_message *reply = NULL;
	uint8_t *reads = NULL;
	size_t len = 0, at = 0;
	const char *bus;
	int n, err = sd_bus_message_read(m, "s", &bus);

	if (err < 0)
		return err;
	n = udrvd_i2c_read_msgs(m, msgs, UDRVD_I2C_MSGS_MAX, error);
	if (n < 0)
		return n;
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	err = udrvd_i2c_transfer(d->held.policy, &who.caller, bus, msgs, (size_t)n, &reads,
				 &len, &e);
	udrvd_caller_done(&who);
	if (err < 0)
		return answer(error, &e, err);
	err = sd_bus_message_new_method_return(m, &reply);
	if (err >= 0)
		err = sd_bus_message_open_container(reply, 'a', "ay");
	for (int i = 0; err >= 0 && i < n; i++) {
		if (!(msgs[i].flags & UDRVD_I2C_RD))
			continue;
		err = sd_bus_message_append_array(reply, 'y', reads ? reads + at : (uint8_t *)"",
						  msgs[i].len);
		at += msgs[i].len;
	}
	if (err >= 0)
		err = sd_bus_message_close_container(reply);
	if (err >= 0)
		err = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	free(reads);
	return err;
}

/* The SMBus calls: (s bus, q address, y register[, y|q value]) */
static int smbus(sd_bus_message *m, struct udrvd *d, enum udrvd_smbus_op op,
		 sd_bus_error *error)
{
	struct udrvd_err e = { 0 };
	struct udrvd_creds who;
	const char *bus;
	uint16_t addr, value = 0, out = 0;
	uint8_t reg, byte = 0;
	int err = sd_bus_message_read(m, "sqy", &bus, &addr, &reg);

	if (err >= 0 && op == UDRVD_SMBUS_WRITE_BYTE_DATA) {
		err = sd_bus_message_read(m, "y", &byte);
		value = byte;
	} else if (err >= 0 && op == UDRVD_SMBUS_WRITE_WORD_DATA) {
		err = sd_bus_message_read(m, "q", &value);
	}
	if (err < 0)
		return err;
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	err = udrvd_i2c_smbus(d->held.policy, &who.caller, bus, addr, op, reg, value, &out, &e);
	udrvd_caller_done(&who);
	if (err < 0)
		return answer(error, &e, err);
	switch (op) {
	case UDRVD_SMBUS_READ_BYTE_DATA:
		return sd_bus_reply_method_return(m, "y", (uint8_t)out);
	case UDRVD_SMBUS_READ_WORD_DATA:
		return sd_bus_reply_method_return(m, "q", out);
	default:
		return sd_bus_reply_method_return(m, "");
	}
}

static int method_read_byte_data(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return smbus(m, data, UDRVD_SMBUS_READ_BYTE_DATA, error);
}

static int method_write_byte_data(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return smbus(m, data, UDRVD_SMBUS_WRITE_BYTE_DATA, error);
}

static int method_read_word_data(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return smbus(m, data, UDRVD_SMBUS_READ_WORD_DATA, error);
}

static int method_write_word_data(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return smbus(m, data, UDRVD_SMBUS_WRITE_WORD_DATA, error);
}

static const sd_bus_vtable i2c_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_NAMES("Transfer", "sa(qqqay)", SD_BUS_PARAM(bus) SD_BUS_PARAM(messages),
				 "aay", SD_BUS_PARAM(reads), method_transfer,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("ReadByteData", "sqy", SD_BUS_PARAM(bus) SD_BUS_PARAM(address)
				 SD_BUS_PARAM(register), "y", SD_BUS_PARAM(value),
				 method_read_byte_data, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("WriteByteData", "sqyy", SD_BUS_PARAM(bus) SD_BUS_PARAM(address)
				 SD_BUS_PARAM(register) SD_BUS_PARAM(value), "", ,
				 method_write_byte_data, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("ReadWordData", "sqy", SD_BUS_PARAM(bus) SD_BUS_PARAM(address)
				 SD_BUS_PARAM(register), "q", SD_BUS_PARAM(value),
				 method_read_word_data, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("WriteWordData", "sqyq", SD_BUS_PARAM(bus) SD_BUS_PARAM(address)
				 SD_BUS_PARAM(register) SD_BUS_PARAM(value), "", ,
				 method_write_word_data, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int udrvd_i2c_export(struct udrvd *d)
{
	return sd_bus_add_object_vtable(d->bus, &d->i2c, UDRVD_DEVICES_PATH, "io.udrv1.I2c",
					i2c_vtable, d);
}
