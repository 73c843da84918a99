# SPDX-License-Identifier: GPL-2.0-only
"""The README's code snippets: tests/docs/test_doc_code.py compiles and runs
the C one, tests/python/test_readme.py runs the Python one, each on the fake
chips of tests/support/fake_gpio.py."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def snippet(heading: str, lang: str, readme: Path = ROOT / "README.md") -> str:
    """The first ```@lang block after the heading line @heading ("## Python")."""
    text = readme.read_text()
    at = text.find(f"\n{heading}\n")
    assert at >= 0, f"no heading {heading!r} in {readme}"
    m = re.compile(rf"^```{lang}\n(.*?)^```", re.MULTILINE | re.DOTALL).search(text, at)
    assert m, f"no ```{lang} block after {heading!r} in {readme}"
    return m[1]
