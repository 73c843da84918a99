// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPIO backends, indexed by the public enum udrv_backend: the only list
 * of them. Their names (udrv_backend_str(), udrv_backend_parse()) are the
 * ops' own, and udrv_chip_request() finds a backend's ops here; a test
 * (tests/lib/test_backends.c) links its own table instead of this file.
 */
#include "gpio/backend.h"

const struct udrv_backend_ops *const udrv_backends[] = {
	[UDRV_BACKEND_CDEV] = &udrv_cdev_ops,
	[UDRV_BACKEND_SYSFS] = &udrv_sysfs_ops,
	[UDRV_BACKEND_MMIO] = &udrv_mmio_ops,
};

const size_t udrv_num_backends = ARRAY_SIZE(udrv_backends);
