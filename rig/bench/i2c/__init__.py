# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench i2c (rig/bench/i2c/spec.py: SPEC)."""
