# SPDX-License-Identifier: GPL-2.0-only
"""What only a labgrid target's board does (collected with --lg-env only):
the agent quits and gives the console's shell its tty back, and starts again;
kernel messages on the console are kept for failure messages, not parsed;
udrv is deployed when the board's is not this tree's build."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import pytest

from rig.lab.boards.labgrid_board import DEPLOY, STATIC_BUILDS, LabgridBoard
from rig.lab.paths import REPO_ROOT

pytestmark = pytest.mark.lg_std  # all of it on std; the console tests on every board


def real(board: Any) -> LabgridBoard:
    lg = board._boards.live(board._flavour)  # the LiveBoard's current board
    assert isinstance(lg, LabgridBoard)
    return lg


@pytest.mark.lg_rt
@pytest.mark.lg_rpi3
def test_agent_gives_the_shell_its_tty_back(any_board: Any) -> None:
    lg = real(any_board)
    if lg.transport != "console":
        pytest.skip(f"the target's transport is {lg.transport}: no console tty to give back")
    assert lg.stop_agent()
    out, _, status = lg.shell.run("stty -a")
    text = " ".join(out)
    assert status == 0, text
    assert " icanon" in f" {text}" and " echo" in f" {text}", f"the tty stayed raw: {text}"
    out, _, _ = lg.shell.run("cat /proc/sys/kernel/printk")
    assert out and out[0].split()[0] != "1", f"the console log level stayed at 1: {out}"
    lg.start_agent()
    assert any_board.run("echo back").stdout == "back\n"


@pytest.mark.lg_rt
@pytest.mark.lg_rpi3
def test_console_lines_are_kept_not_parsed(any_board: Any) -> None:
    lg = real(any_board)
    if lg.transport != "console":
        pytest.skip(f"the target's transport is {lg.transport}: /dev/console is elsewhere")
    probe = f"udrv-console-probe-{time.monotonic_ns()}"
    r = any_board.run(f"echo {probe} > /dev/console; echo done")
    assert (r.status, r.stdout) == (0, "done\n")
    any_board.run("true")  # the probe line has reached the channel by now
    assert probe in any_board.console_tail(40)


def test_udrv_is_deployed_when_the_board_has_another(any_board: Any) -> None:
    lg = real(any_board)
    arch = any_board.run("uname -m").stdout.strip()
    build = REPO_ROOT / "build" / STATIC_BUILDS[arch]
    want = hashlib.sha256((build / DEPLOY["udrv"]).read_bytes()).hexdigest()
    where = any_board.run("command -v udrv", check=True).stdout.strip()
    deployed = f"{lg.dir}/bin/udrv"
    hidden = f"{where}.lab-test-hidden"
    any_board.run(f"mv {where} {hidden}", check=True)
    try:
        assert any_board.run("command -v udrv").status != 0
        lg._ensure_udrv()
        assert any_board.run("command -v udrv").stdout.strip() == deployed
        got = any_board.run(f"sha256sum {deployed}").stdout.split()[:1]
        assert got == [want]
        assert any_board.run("udrv --version", check=True).stdout.startswith("udrv ")
        bench = hashlib.sha256((build / DEPLOY["udrv-bench"]).read_bytes()).hexdigest()
        got = any_board.run(f"sha256sum {lg.dir}/bin/udrv-bench").stdout.split()[:1]
        assert got == [bench]
    finally:
        if where != deployed:
            any_board.run(f"rm -f {lg.dir}/bin/udrv {lg.dir}/bin/udrv-bench "
                          f"{lg.dir}/bin/udrv-bench-peer")
        any_board.run(f"mv {hidden} {where}", check=True)
