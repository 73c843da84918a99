# SPDX-License-Identifier: GPL-2.0-only
"""What runs on the boards: the one plan (plan.py) and its runners, the
latency suite on the QEMU boards (qemu.py, with pci.py and python.py), the
suite through labgrid (labgrid.py), and the soak (soak.py)."""
