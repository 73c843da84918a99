# SPDX-License-Identifier: GPL-2.0-only
"""The rig: what measures udrv (the toolkit), and depends on it, never the
other way round.

    rig/bench/    udrv-bench, the benches (C) and their peers
    rig/kernel/   the fixture kernel modules (gpio-wire, uio-ticker, irqlat, gpio-reply)
    rig/lab/      Debian's kernels in QEMU, labgrid and LAVA boards: python3 -m rig.lab
    rig/lava/     LAVA's test definition and device templates
    rig/report/   udrv-report: the HTML page of a results document
"""
