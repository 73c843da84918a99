# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.results page: a Markdown page's generated tables are what
their results document holds, never copied by hand (docs/measurements.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "tests/rig/report/fixtures/lab-quick-a.json"
BLOCK = (f"<!-- generated: python3 -m rig.results markdown {FIXTURE} --table toggle -->\n"
         "*to be generated*\n<!-- end generated -->\n")


def page(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rig.results", "page", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_fill_then_check(tmp_path: Path) -> None:
    md = tmp_path / "m.md"
    md.write_text("# Numbers\n\nprose\n\n" + BLOCK + "\nmore prose\n")
    assert page(str(md), "--check").returncode == 1  # the placeholder differs
    r = page(str(md))
    assert r.returncode == 0, r.stderr
    text = md.read_text()
    assert "#### Toggle rate on the Standard PC board" in text
    assert "x1.015 vs raw" in text  # the label, coded once (rig.results.text)
    assert text.startswith("# Numbers\n\nprose\n") and text.endswith("\nmore prose\n")
    assert "Latency" not in text  # --table toggle: that table only
    r = page(str(md), "--check")
    assert r.returncode == 0, r.stdout


def test_a_number_edited_by_hand_is_seen(tmp_path: Path) -> None:
    md = tmp_path / "m.md"
    md.write_text(BLOCK)
    assert page(str(md)).returncode == 0
    md.write_text(md.read_text().replace("25751", "25752", 1))
    r = page(str(md), "--check")
    assert r.returncode == 1
    assert f"m.md:1: {FIXTURE} --table toggle" in r.stdout  # the block's line


def test_unclosed_block_and_unknown_table_are_refused(tmp_path: Path) -> None:
    md = tmp_path / "m.md"
    md.write_text(BLOCK.replace("<!-- end generated -->\n", ""))
    r = page(str(md))
    assert r.returncode == 2 and "without '<!-- end generated -->'" in r.stderr
    md.write_text(BLOCK.replace("--table toggle", "--table pci"))
    r = page(str(md))
    assert r.returncode == 2 and "no table for" in r.stderr


def test_the_measurements_page_is_its_documents() -> None:
    """docs/measurements.md: every generated block as its command prints it."""
    r = page("docs/measurements.md", "--check")
    assert r.returncode == 0, r.stdout + r.stderr
