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
