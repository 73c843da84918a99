# SPDX-License-Identifier: GPL-2.0-only
"""The SMP board (rt-smp): two vCPUs, CPU 1 isolated (docs/rig/lab.md).

What a deployment relies on, checked on the real kernel: CPU 1 is isolated
and tickless, every irq starts on CPU 0, the default affinity (what a load
inherits) leaves CPU 1 out, and a bench pinned to CPU 1 runs there and
accounts for every interrupt (sent = received + lost). No timing is asserted: this board has no
icount (guest time follows the host).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from background import Background, guest_ok

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["rt", "isolcpus"])


def test_cpu1_is_isolated_and_interrupts_start_on_cpu0(board_rt_smp: Any) -> None:
    out = guest_ok(board_rt_smp, "cat /sys/devices/system/cpu/online "
                   "/sys/devices/system/cpu/isolated /sys/devices/system/cpu/nohz_full "
                   "/proc/irq/default_smp_affinity; nproc")
    online, isolated, nohz, default_affinity, nproc = out.split()
    assert (online, isolated, nohz) == ("0-1", "1", "1"), out
    assert int(default_affinity, 16) == 1, out  # CPU 0 only
    assert nproc == "1", out  # the shell's affinity leaves CPU 1 out


def test_bench_on_the_isolated_cpu_load_on_the_other(board_rt_smp: Any) -> None:
    job = Background(board_rt_smp, "smp-uio",
                     "udrv-bench uio -d ticker -n 3000 --cpu 1 --load fork --json --quiet "
                     "--out /tmp/smp.json")
    try:
        job.wait_for(f"grep -q '^Cpus_allowed_list:.*1$' /proc/{job.pid}/status",
                     what="the bench pinned to CPU 1")
        # the load's processes: children of the bench, never on CPU 1
        loads = guest_ok(board_rt_smp, "for s in /proc/[0-9]*/stat; do "
                         f"[ \"$(cut -d' ' -f4 $s)\" = {job.pid} ] && "
                         "grep Cpus_allowed_list ${s%stat}status; done; true")
        assert loads.strip(), "no load process found"
        assert all(line.split()[-1] == "0" for line in loads.splitlines()), loads
        end = job.ended(timeout_s=600)
    finally:
        job.kill()
    assert end.status == 0, end.stderr
    doc = json.loads(guest_ok(board_rt_smp, "cat /tmp/smp.json"))
    check_bench(doc)
    assert doc["rt"]["cpu"] == 1
    assert doc["kernel"]["realtime"] is True
    # sent = received + lost (check_document); without icount the 1 ms ticks
    # outrun the emulated CPU and are lost, counted (3433 of 6434 measured)
    for row in doc["rows"]:
        if row["loss"]:
            assert row["loss"]["received"] > 0, row
