# SPDX-License-Identifier: GPL-2.0-only
"""The rig: what measures udrv (the toolkit), and depends on it, never the
other way round.

    rig/bench/    udrv-bench, the benches (C) and their peers
    rig/kernel/   the fixture kernel modules (gpio-wire, uio-ticker, irqlat, gpio-reply)
    rig/lab/      the lab, python3 -m rig.lab: image/ (Debian's kernels, initramfs),
                  boards/ (QEMU, labgrid), suite/ (the one plan, suites, soak)
    rig/lava/     LAVA, python3 -m rig.lava: jobs, lava-run and results, the test definition,
                  the recorder and job templates
    rig/report/   udrv-report: the HTML page of a results document
"""
