# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench rate (rig/bench/rate/spec.py: SPEC)."""
