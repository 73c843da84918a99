# SPDX-License-Identifier: GPL-2.0-only
"""Helpers shared by the test folders: fake sysfs/dev trees (fakes), the udrv
binary runner (udrv_runner), the results checks (results_schema)."""
