# SPDX-License-Identifier: GPL-2.0-only
"""What a lab board boots: a Debian kernel (kernel.py; its packages resolved
and downloaded by apt.py), our kernel modules built against it (modules.py),
the initramfs (initramfs.py, with guest/init and guest/agent) and its Python
variant (pyguest.py); prepare.py makes all of it for one board, each step
cached."""
