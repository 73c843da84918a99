# SPDX-License-Identifier: GPL-2.0-only
"""udrvd under load and faults: 100 clients at once, each 1000 SetValues on
its own line (counted at the source: each client counts its calls and reads
its line back; the fake chip's state is then checked line by line), clients
killed in the middle of their calls, and udrvd keeps serving."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import GUARD_S, Udrvd, chip_file, start_udrvd
from tests.support.fakes import FakeTree

CLIENTS, CALLS = 100, 1000
CHIP = "/io/gpiod1/chips/gpiochip2"


@pytest.fixture
def loaded(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
           tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    chip_file(tree, 2, "fake-load", [""] * 128)
    policy = tmp_path / "udrvd.conf"
    policy.write_text("allow uid:1 drive,read gpio fake-load *\n")
    d = start_udrvd(udrvd_bin, fake_cdev, bus, tree, policy)
    yield d
    d.stop()


def clients(d: Udrvd, client: Path, n: int, calls: int,
            first: int = 0) -> list[subprocess.Popen[str]]:  # fmt: skip
    """@n clients, each on its own line from @first on."""
    return [subprocess.Popen(["setpriv", "--reuid=1", "--regid=1", "--clear-groups", str(client),
                              "load", CHIP, str(first + i), str(calls)],
                             env={"DBUS_SYSTEM_BUS_ADDRESS": d.address}, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for i in range(n)]  # fmt: skip


def test_100_clients_1000_calls_each(loaded: Udrvd, client: Path) -> None:
    t0 = time.monotonic()
    procs = clients(loaded, client, CLIENTS, CALLS)
    outs = [p.communicate(timeout=600) for p in procs]
    took = time.monotonic() - t0
    bad = [(i, p.returncode, err) for i, (p, (_, err)) in enumerate(zip(procs, outs, strict=True))
           if p.returncode]  # fmt: skip
    assert not bad, bad[:3]
    # each client made all its calls, and read back the last value it set
    last = (CALLS - 1) % 2 ^ 1
    assert [o for o, _ in outs] == [f"ok {CALLS} {last}\n"] * CLIENTS
    lines = loaded.lines(2)
    assert all(ln.used and ln.level == last and ln.consumer == "load"
               for ln in lines[:CLIENTS]), lines[:3]  # fmt: skip
    assert not any(ln.used for ln in lines[CLIENTS:])
    print(f"{CLIENTS * CALLS} SetValues from {CLIENTS} clients in {took:.1f} s")


def test_clients_killed_mid_call(loaded: Udrvd, client: Path) -> None:
    procs = clients(loaded, client, 20, 100000)
    time.sleep(0.5)  # not a race: whatever the clients did by now, they are killed in the middle
    for p in procs:
        p.send_signal(signal.SIGKILL)
    for p in procs:
        p.wait(GUARD_S)
    # their requests stay held (they outlive their clients); udrvd serves: a
    # new client's calls all go through
    assert all(ln.used for ln in loaded.lines(2)[:20])
    res = clients(loaded, client, 1, 10, first=50)[0]
    out, err = res.communicate(timeout=GUARD_S)
    assert res.returncode == 0 and out == "ok 10 0\n", err
    assert loaded.proc.poll() is None
