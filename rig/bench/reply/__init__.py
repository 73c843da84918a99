# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply (rig/bench/reply/spec.py: SPEC)."""
