# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench(1) and `udrv-bench ... --help` do not drift: every command and
long option that --help shows is in the man page, and every one the man
page documents is in --help (tests/support/man_help.py says what counts).

To see it fail: remove an option paragraph from rig/man/udrv-bench.1 (say
the .TP of --no-edges under 'udrv-bench toggle'), or add an option to a
bench's help text without documenting it, and run this test; the copies
below do the same to a copy of the page, so the check is seen to fail on
every run."""

from __future__ import annotations

from pathlib import Path

from tests.support.man_help import drift, help_surface, man_surface, run_help

PAGE = Path(__file__).resolve().parents[3] / "rig" / "man" / "udrv-bench.1"
PROG = "udrv-bench"


def test_help_and_man_page_agree(bench_bin: Path) -> None:
    problems = drift(help_surface(PROG, run_help(bench_bin)), man_surface(PROG, PAGE))
    assert not problems, "\n".join(problems)


def test_a_page_without_an_option_is_seen(bench_bin: Path, tmp_path: Path) -> None:
    text = PAGE.read_text()
    tag = ".TP\n.B \\-\\-no\\-edges\n"
    assert tag in text, "the paragraph this test removes is gone: pick another"
    page = tmp_path / "udrv-bench.1"
    page.write_text(text.replace(tag, ".PP\n"))
    problems = drift(help_surface(PROG, run_help(bench_bin)), man_surface(PROG, page))
    assert problems == ["option --no-edges is in --help, not in the man page"]


def test_a_page_without_a_command_is_seen(bench_bin: Path, tmp_path: Path) -> None:
    text = PAGE.read_text()
    heading = ".SS udrv\\-bench gaps "
    assert heading in text, "the heading this test renames is gone: pick another"
    page = tmp_path / "udrv-bench.1"
    page.write_text(text.replace(heading, ".SS The gaps bench "))
    problems = drift(help_surface(PROG, run_help(bench_bin)), man_surface(PROG, page))
    assert problems == ["command 'gaps' is in --help, not in the man page"]
