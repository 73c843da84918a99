# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench kernel (rig/bench/kernel/spec.py: SPEC)."""
