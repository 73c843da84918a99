# SPDX-License-Identifier: GPL-2.0-only
"""Helpers shared by the test folders: fake sysfs/dev trees (fakes), the udrv
binary runner (udrv_runner), made-up results documents and the suite's tables
of them (results_docs; the checks themselves are rig.results')."""
