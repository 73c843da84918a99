# SPDX-License-Identifier: GPL-2.0-only
"""Smoke tests of the lab itself: boot, command channel, files, timeouts, modules.

The tests of the lab itself run on every board (any_board: std, rt, rpi3); edu is x86's.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rig.lab import Board, CommandTimeout, LabError
from rig.lab.image import apt

# the transport and the feature skips: through labgrid on every board
pytestmark = [pytest.mark.lg_std, pytest.mark.lg_rt, pytest.mark.lg_rpi3]


@pytest.mark.lg_feature(["qemu"])
def test_runs_the_resolved_kernel(any_board: Board) -> None:
    expected = apt.resolve(any_board.target).release
    r = any_board.run("uname -r")
    assert r.status == 0, r.stderr
    assert r.stdout.strip() == expected
    assert any_board.release == expected


def test_rt_kernel_is_preempt_rt(board_rt: Board) -> None:
    assert "PREEMPT_RT" in board_rt.run("uname -v").stdout
    assert board_rt.run("cat /sys/kernel/realtime").stdout.strip() == "1"


def test_std_kernel_is_not_rt(board_std: Board) -> None:
    assert "PREEMPT_RT" not in board_std.run("uname -v").stdout
    assert board_std.run("test -e /sys/kernel/realtime").status != 0


def test_exit_status_propagates(any_board: Board) -> None:
    assert any_board.run("exit 3").status == 3
    assert any_board.run("true").status == 0
    assert any_board.run("no-such-command-here").status == 127


def test_stdout_and_stderr_are_separate(any_board: Board) -> None:
    r = any_board.run("echo to-out; echo to-err >&2; printf 'no newline'")
    assert r.stdout == "to-out\nno newline"
    assert r.stderr == "to-err\n"
    assert r.status == 0


def test_command_text_is_passed_verbatim(any_board: Board) -> None:
    cmd = "printf '%s|' \"a  b\" '$HOME' \"`echo x`\" 'quote\"s' 'tab\there'; echo"
    assert any_board.run(cmd).stdout == 'a  b|$HOME|x|quote"s|tab\there|\n'
    multi = "for i in 1 2 3; do\n  echo line $i\ndone"
    assert any_board.run(multi).stdout == "line 1\nline 2\nline 3\n"


def test_put_get_round_trip_all_byte_values(any_board: Board, tmp_path: Path) -> None:
    data = bytes(range(256)) * 16 + bytes(range(255, -1, -1))
    src = tmp_path / "bytes.bin"
    src.write_bytes(data)
    any_board.put(src, "/tmp/lab-smoke/bytes.bin")
    r = any_board.run("sha256sum /tmp/lab-smoke/bytes.bin; wc -c < /tmp/lab-smoke/bytes.bin")
    digest, size = r.stdout.split()[0], int(r.stdout.split()[-1])
    assert (digest, size) == (hashlib.sha256(data).hexdigest(), len(data))
    assert any_board.get("/tmp/lab-smoke/bytes.bin") == data


def test_put_empty_file_and_mode(any_board: Board, tmp_path: Path) -> None:
    script = tmp_path / "hello.sh"
    script.write_text("#!/bin/sh\necho hello from $0\n")
    script.chmod(0o755)
    any_board.put(script, "/tmp/lab-smoke/hello.sh")
    assert any_board.run("/tmp/lab-smoke/hello.sh").stdout == "hello from /tmp/lab-smoke/hello.sh\n"
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    any_board.put(empty, "/tmp/lab-smoke/empty")
    assert any_board.get("/tmp/lab-smoke/empty") == b""


def test_get_of_a_missing_file_is_an_error(any_board: Board) -> None:
    with pytest.raises(LabError, match="no/such/file"):
        any_board.get("/no/such/file")


# A command that never ends by itself, two processes in its group. On the
# one-CPU x86 boards they are CPU hogs: the agent must still get the CPU to
# kill them. On rpi3 they sleep: its four vCPUs are one QEMU thread taking
# turns (TCG round robin under -icount), and hogs on them starve vCPU 0, which
# takes every interrupt, the agent's UART's too. Measured with two hogs there
# on a loaded host: the kill answered 0.6-12 s after the timeout (25 runs;
# with sleepers 0.04-0.12 s), and once in CI not within agent.KILL_REPLY_S
# (120 s), the guest reporting "soft lockup - CPU#0 stuck for 44s" with a
# user-mode hog current: a state only a vCPU that QEMU did not run can show.
NEVER_ENDS = {"rpi3": "sh -c 'while :; do sleep 1; done' lab-smoke-never-ends"}
HOG = "sh -c 'while :; do :; done' lab-smoke-never-ends"


def test_command_timeout_kills_and_board_survives(any_board: Board) -> None:
    cmd = NEVER_ENDS.get(any_board.target, HOG)
    with pytest.raises(CommandTimeout, match="timed out after 3s") as info:
        any_board.run(f"echo started; {cmd} & {cmd}", timeout=3)
    assert info.value.result.stdout == "started\n"
    r = any_board.run("echo still here")
    assert (r.status, r.stdout) == (0, "still here\n")
    # the command's whole process group was killed: nothing is left running
    assert any_board.run("ps -o args | grep -c '[l]ab-smoke-never-ends'").stdout.strip() == "0"
    assert not any_board.dead


def test_edu_is_bound_to_uio_pci_generic(board: Board) -> None:
    assert board.run("cat /sys/class/uio/uio0/name").stdout.strip() == "uio_pci_generic"
    assert board.run("test -c /dev/uio0").status == 0
    dev = board.run("cat /sys/class/uio/uio0/device/vendor /sys/class/uio/uio0/device/device")
    assert dev.stdout.split() == ["0x1234", "0x11e8"]


@pytest.mark.lg_feature(["qemu"])
def test_our_modules_are_loaded(any_board: Board) -> None:
    assert any_board.module_failures == {}, f"modules failed to load: {any_board.module_failures}"
    lsmod = any_board.run("lsmod").stdout
    loaded = {line.split()[0] for line in lsmod.splitlines()[1:] if line.strip()}
    # the kernel's own modules the board loads (x86: uio, uio_pci_generic;
    # rpi3: bcm2835_wdt, uio), then ours
    own = {Path(rel).stem.replace("-", "_") for rel in any_board.machine.kernel_modules}
    assert own and own <= loaded, lsmod
    for mod in any_board.prep.modules:
        if mod.autoload:
            for ko in mod.kos:
                assert ko.stem.replace("-", "_") in loaded, f"{ko.name} not in lsmod:\n{lsmod}"


def test_filesystems_are_mounted(any_board: Board) -> None:
    mounts = any_board.run("cat /proc/mounts").stdout
    for fs in ("proc /proc", "sysfs /sys", "devtmpfs /dev", "debugfs /sys/kernel/debug", "/tmp"):
        assert fs in mounts, mounts


def test_kernel_log_has_no_oops(any_board: Board) -> None:
    dmesg = any_board.run("dmesg").stdout
    for bad in ("Oops", "BUG:", "Call Trace", "WARNING: CPU"):
        assert bad not in dmesg, dmesg[-4000:]
