# SPDX-License-Identifier: GPL-2.0-only
"""udrvd's command line: --help and udrvd(8) name the same options, bad
arguments exit 2 with a message, --version answers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.man_help import page_drift
from tests.support.udrv_runner import REPO


def test_help_and_man_page_agree(udrvd_bin: Path) -> None:
    problems = page_drift("udrvd", udrvd_bin, REPO / "man" / "udrvd.8")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("args", "says"), [
    (["--bogus"], "unrecognized option '--bogus'"),
    (["extra"], "unexpected argument 'extra'"),
    (["--policy", ""], "--policy needs a file name"),
    (["--policy", "/nonexistent/udrvd.conf"], "cannot read the policy /nonexistent/udrvd.conf"),
])  # fmt: skip
def test_bad_arguments_exit_2(udrvd_bin: Path, args: list[str], says: str) -> None:
    res = subprocess.run([str(udrvd_bin), *args], capture_output=True, text=True, timeout=30,
                         check=False)  # fmt: skip
    assert res.returncode == 2 and says in res.stderr, res.stderr


def test_version(udrvd_bin: Path) -> None:
    res = subprocess.run([str(udrvd_bin), "--version"], capture_output=True, text=True,
                         timeout=30, check=True)  # fmt: skip
    assert res.stdout.startswith("udrvd 1.")


def check(udrvd_bin: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(udrvd_bin), "--check", *args], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip


def test_check_prints_the_rules_with_their_lines(udrvd_bin: Path, tmp_path: Path) -> None:
    """--check: each rule with FILE:LINE, the count, exit 0; no bus needed
    (DBUS_SYSTEM_BUS_ADDRESS points nowhere here)."""
    conf = tmp_path / "udrvd.conf"
    conf.write_text("# the door\nallow group:root drive gpio fake-a LOCK\n\n"
                    "allow uid:1 read,watch gpio 0 1-3\n")  # fmt: skip
    res = subprocess.run([str(udrvd_bin), "-t", "--policy", str(conf)], capture_output=True,
                         text=True, timeout=30, check=False,
                         env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"})  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [
        f"{conf}:2: allow group:root drive gpio fake-a LOCK",
        f"{conf}:4: allow uid:1 read,watch gpio 0 1-3",
        f"udrvd: {conf} is good: 2 rules",
    ]
    conf.write_text("# nothing yet\n")
    res = check(udrvd_bin, "--policy", str(conf))
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"udrvd: {conf} is good: 0 rules (nobody has access, root included)\n"


def test_check_names_the_first_mistake(udrvd_bin: Path, tmp_path: Path) -> None:
    conf = tmp_path / "udrvd.conf"
    conf.write_text("allow uid:1 read gpio 0 1\nallow uid:1 fly gpio 0 1\nallow bogus\n")
    res = check(udrvd_bin, "-p", str(conf))
    assert res.returncode == 2 and res.stdout == "", res.stdout
    assert res.stderr.startswith(f"udrvd: {conf}:2: "), res.stderr
    assert "fly" in res.stderr and len(res.stderr.splitlines()) == 1, res.stderr


def test_check_defaults_to_the_installed_policy(udrvd_bin: Path) -> None:
    """Without --policy, --check reads the file the build installs (meson's
    SYSCONFDIR/udrv/udrvd.conf), which --help names."""
    helptext = subprocess.run([str(udrvd_bin), "--help"], capture_output=True, text=True,
                              timeout=30, check=True).stdout  # fmt: skip
    default = helptext.split("the policy (default ", 1)[1].split(",", 1)[0]
    assert default.endswith("/udrv/udrvd.conf"), helptext
    res = check(udrvd_bin)
    if Path(default).exists():
        assert res.returncode in (0, 2) and default in res.stdout + res.stderr
    else:
        assert res.returncode == 2
        assert f"udrvd: cannot read the policy {default}: No such file" in res.stderr, res.stderr
