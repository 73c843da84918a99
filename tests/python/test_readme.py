# SPDX-License-Identifier: GPL-2.0-only
"""The README's Python snippet, run as it is written, in a Python with the
package: on a fake gpiochip0 answered by tests/daemon's fake character
device (line 17 driven, line 27's edge read; the snippet then waits its 5 s
for more edges) and a fake UIO device uio_pci_generic with a PCI BAR and an
interrupt queued. (The C snippet: tests/docs/test_doc_code.py.)"""

from __future__ import annotations

import subprocess
import sys

from tests.daemon.conftest import GUARD_S
from tests.support.fake_gpio import FALLING, edges, fake_chip, fake_env, line_state
from tests.support.fakes import FakeTree, pci_device, uio_counts, uio_dev_fifo, uio_device
from tests.support.readme_code import snippet


def test_readme_python_snippet(tree: FakeTree) -> None:
    code = snippet("## Python", "python")
    assert "import udrv" in code
    fake_chip(tree, "fake-a", 32)
    uio_device(tree, 0, "uio_pci_generic")
    uio_dev_fifo(tree, 0)
    bar = bytearray(256)
    bar[0:4] = (0x010000ED).to_bytes(4, "little")
    pci_device(tree, 0, bars={0: bytes(bar)})
    with edges(tree, [(27, FALLING)]), uio_counts(tree, 0, [1]):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=fake_env(tree), timeout=GUARD_S, check=False)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == ["1000 27 FALLING 0",
                                      "0x10000ed udrv.UioIrq(count=1, delta=1, missed=0)"]
    assert line_state(tree, 17)[1:3] == ["out", "1"]
