# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench uio (rig/bench/uio/spec.py: SPEC)."""
