# SPDX-License-Identifier: GPL-2.0-only
"""libgpiod's own client, gpiocli 2.2.1 (built from its sources by
scripts/build-gpiod-dbus), against udrvd unchanged: it lists chips and lines,
requests a line, sets and gets it, lists and releases the request, and shows
udrvd's refusal. Its calls are io.gpiod1's (ObjectManager snapshots at three
levels, InterfacesAdded for a new request, Peer.Ping first)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.conftest import BUILD, GUARD_S, Udrvd, serving
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO

GPIOCLI = BUILD.parent / "gpiod-dbus" / "amd64" / "bin" / "gpiocli"
ALICE = 1  # base-passwd's daemon

POLICY = """allow uid:1 drive,read gpio fake-a LOCK
allow uid:1 read gpio fake-a DOOR
"""


@pytest.fixture(scope="session")
def gpiocli() -> Path:
    if not GPIOCLI.is_file():
        pytest.fail(f"no gpiocli at {GPIOCLI}: build it with scripts/build-gpiod-dbus",
                    pytrace=False)  # fmt: skip
    return GPIOCLI


@pytest.fixture
def udrvd(udrvd_bin: Path, fake_cdev: Path, bus: str, tree: FakeTree,
          tmp_path: Path) -> Iterator[Udrvd]:  # fmt: skip
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, POLICY) as d:
        yield d


def cli(d: Udrvd, gpiocli: Path, *args: str, uid: int = ALICE) -> subprocess.CompletedProcess[str]:
    return d.run_as([str(gpiocli), *args], uid=uid)


def test_detect_and_info(udrvd: Udrvd, gpiocli: Path) -> None:
    res = cli(udrvd, gpiocli, "detect")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["gpiochip0 [fake-a] (8 lines)",
                                       "gpiochip1 [fake-b] (4 lines)"]  # fmt: skip
    res = cli(udrvd, gpiocli, "info", "-c", "gpiochip0")
    assert res.returncode == 0, res.stderr
    assert '"LOCK"' in res.stdout and '"LED"' in res.stdout and "input" in res.stdout, res.stdout


def test_info_shows_the_state_only_to_callers_with_a_rule(udrvd: Udrvd, gpiocli: Path) -> None:
    """gpiocli info works for a user without any rule (uid 3): every line
    by name and offset; the state of alice's held LOCK only for alice."""
    assert cli(udrvd, gpiocli, "request", "--output", "LOCK=active").returncode == 0
    mine = cli(udrvd, gpiocli, "info", "-c", "gpiochip0")
    assert mine.returncode == 0, mine.stderr
    lock = [ln for ln in mine.stdout.splitlines() if '"LOCK"' in ln]
    assert lock and 'used,consumer="gpio-manager",managed="request0"' in lock[0], mine.stdout
    theirs = cli(udrvd, gpiocli, "info", "-c", "gpiochip0", uid=3)
    assert theirs.returncode == 0, theirs.stderr
    assert '"LOCK"' in theirs.stdout and '"LED"' in theirs.stdout, theirs.stdout
    assert len(theirs.stdout.splitlines()) == 9, theirs.stdout  # the chip, its 8 lines
    assert "used" not in theirs.stdout and "request0" not in theirs.stdout, theirs.stdout
    assert cli(udrvd, gpiocli, "detect", uid=3).returncode == 0


def test_request_set_get_release(udrvd: Udrvd, gpiocli: Path) -> None:
    res = cli(udrvd, gpiocli, "request", "--output", "LOCK=active")
    assert res.returncode == 0, res.stderr
    req = res.stdout.strip()
    assert req == "request0", res.stdout
    # gpiocli has exited: udrvd holds the line, active
    assert udrvd.lines()[0].used and udrvd.lines()[0].level == 1
    assert udrvd.lines()[0].consumer == "gpio-manager"  # gpiocli's default consumer
    assert cli(udrvd, gpiocli, "set", "LOCK=inactive").returncode == 0
    assert udrvd.lines()[0].level == 0
    res = cli(udrvd, gpiocli, "get", "--numeric", "LOCK")
    assert res.returncode == 0 and res.stdout.strip() == '"LOCK"=0', res.stdout + res.stderr
    res = cli(udrvd, gpiocli, "requests")
    assert res.returncode == 0 and res.stdout.startswith("request0 (gpiochip0)"), res.stdout
    assert cli(udrvd, gpiocli, "release", req).returncode == 0
    assert not udrvd.lines()[0].used


def test_refusal_reaches_gpiocli(udrvd: Udrvd, gpiocli: Path) -> None:
    res = cli(udrvd, gpiocli, "request", "--output", "DOOR=active")
    assert res.returncode != 0
    assert "the policy refuses uid 1 " in res.stderr and "'drive' on line 1 (DOOR)" in res.stderr
    assert not udrvd.lines()[1].used


def test_the_build_is_scripted() -> None:
    res = subprocess.run([str(REPO / "scripts" / "build-gpiod-dbus"), "--check"],
                         timeout=GUARD_S, check=False)  # fmt: skip
    assert res.returncode == 0
