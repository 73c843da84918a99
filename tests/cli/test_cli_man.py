# SPDX-License-Identifier: GPL-2.0-only
"""udrv(1) and `udrv ... --help` do not drift: every command and long option
that --help shows is in the man page, and every one the man page documents
is in --help (tests/support/man_help.py says what counts as either).

To see it fail: remove an option paragraph from man/udrv.1 (say the .TP of
--hold under 'udrv gpio set'), or add an option to a help text in tools/
without documenting it, and run this test; the copies below do the same to
a copy of the page, so the check is seen to fail on every run."""

from __future__ import annotations

from pathlib import Path

from tests.support.man_help import drift, help_surface, man_surface, run_help

PAGE = Path(__file__).resolve().parents[2] / "man" / "udrv.1"


def test_help_and_man_page_agree(udrv_bin: Path) -> None:
    problems = drift(help_surface("udrv", run_help(udrv_bin)), man_surface("udrv", PAGE))
    assert not problems, "\n".join(problems)


def test_a_page_without_an_option_is_seen(udrv_bin: Path, tmp_path: Path) -> None:
    text = PAGE.read_text()
    tag = ".TP\n.BI \\-H \", \" \\-\\-hold \" D\"\n"
    assert tag in text, "the paragraph this test removes is gone: pick another"
    page = tmp_path / "udrv.1"
    page.write_text(text.replace(tag, ".PP\n"))
    problems = drift(help_surface("udrv", run_help(udrv_bin)), man_surface("udrv", page))
    assert problems == ["option --hold is in --help, not in the man page"]


def test_a_page_with_a_command_help_lacks_is_seen(udrv_bin: Path, tmp_path: Path) -> None:
    page = tmp_path / "udrv.1"
    page.write_text(PAGE.read_text() + ".SS udrv gpio frobnicate\n.TP\n.B \\-\\-frob\nx\n")
    problems = drift(help_surface("udrv", run_help(udrv_bin)), man_surface("udrv", page))
    assert problems == ["command 'gpio frobnicate' is in the man page, not in --help",
                        "option --frob is in the man page, not in --help"]
