# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench(1) and `udrv-bench ... --help` do not drift: every command and
long option that --help shows is in the man page, and every one the man
page documents is in --help (tests/support/man_help.py says what counts).

To see it fail: remove an option paragraph from rig/man/udrv-bench.1 (say
the .TP of --no-edges under 'udrv-bench toggle'), or add an option to a
bench's help text without documenting it, and run this test; the tests
below do the same to a copy of the page, so the check is seen to fail on
every run."""

from __future__ import annotations

from pathlib import Path

from tests.support.man_help import edited_copy, page_drift

PAGE = Path(__file__).resolve().parents[3] / "rig" / "man" / "udrv-bench.1"
PROG = "udrv-bench"


def test_help_and_man_page_agree(bench_bin: Path) -> None:
    problems = page_drift(PROG, bench_bin, PAGE)
    assert not problems, "\n".join(problems)


def test_a_page_without_an_option_is_seen(bench_bin: Path, tmp_path: Path) -> None:
    page = edited_copy(PAGE, tmp_path, ".TP\n.B \\-\\-no\\-edges\n", ".PP\n")
    assert page_drift(PROG, bench_bin, page) == [
        "option --no-edges is in --help, not in the man page"]


def test_a_page_without_a_command_is_seen(bench_bin: Path, tmp_path: Path) -> None:
    page = edited_copy(PAGE, tmp_path, ".SS udrv\\-bench gaps ", ".SS The gaps bench ")
    assert page_drift(PROG, bench_bin, page) == [
        "command 'gaps' is in --help, not in the man page"]
