# SPDX-License-Identifier: GPL-2.0-only
"""udrv(1) and `udrv ... --help` do not drift: every command and long option
that --help shows is in the man page, and every one the man page documents
is in --help (tests/support/man_help.py says what counts as either).

To see it fail: remove an option paragraph from man/udrv.1 (say the .TP of
--daemonize under 'udrv gpio set'), or add an option to a help text in tools/
without documenting it, and run this test; the tests below do the same to
a copy of the page, so the check is seen to fail on every run."""

from __future__ import annotations

from pathlib import Path

from tests.support.man_help import edited_copy, page_drift

PAGE = Path(__file__).resolve().parents[2] / "man" / "udrv.1"


def test_help_and_man_page_agree(udrv_bin: Path) -> None:
    problems = page_drift("udrv", udrv_bin, PAGE)
    assert not problems, "\n".join(problems)


def test_a_page_without_an_option_is_seen(udrv_bin: Path, tmp_path: Path) -> None:
    # an option of one command only (--hold is gpio set's and pwm run's)
    page = edited_copy(PAGE, tmp_path, '.TP\n.BR \\-z ", " \\-\\-daemonize\n', ".PP\n")
    assert page_drift("udrv", udrv_bin, page) == [
        "option --daemonize is in --help, not in the man page"]


def test_a_page_with_a_command_help_lacks_is_seen(udrv_bin: Path, tmp_path: Path) -> None:
    page = edited_copy(PAGE, tmp_path, ".SH OUTPUT\n",
                       ".SS udrv gpio frobnicate\n.TP\n.B \\-\\-frob\nx\n.SH OUTPUT\n")
    assert page_drift("udrv", udrv_bin, page) == [
        "command 'gpio frobnicate' is in the man page, not in --help",
        "option --frob is in the man page, not in --help"]
