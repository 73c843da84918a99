// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probes for the store-count check (store_count.py): the inline pin write as
 * a caller compiles it. One edge must be one store, a toggle two.
 */
#include <udrv/gpio_mmio.h>

void udrv_test_pin_write_probe(const struct udrv_mmio_pin *p, int v);
void udrv_test_pin_toggle_probe(const struct udrv_mmio_pin *p);

void udrv_test_pin_write_probe(const struct udrv_mmio_pin *p, int v)
{
	udrv_mmio_pin_write(p, v);
}

void udrv_test_pin_toggle_probe(const struct udrv_mmio_pin *p)
{
	udrv_mmio_pin_write(p, 1);
	udrv_mmio_pin_write(p, 0);
}
