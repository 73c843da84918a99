# SPDX-License-Identifier: GPL-2.0-only
"""A Markdown page's generated blocks (docs/measurements.md): between
GEN_BEGIN, which names the `python3 -m rig.results markdown ARGS` that makes
the block, and GEN_END; `python3 -m rig.results page` fills them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .errors import ResultsError

GEN_BEGIN = re.compile(r"^<!-- generated: python3 -m rig\.results markdown (.+?) -->$")
GEN_END = "<!-- end generated -->"


def fill(page: str, check: bool, lines_for: Callable[[str, Path], list[str]]) -> int:
    """The page with each generated block made again by `lines_for(ARGS,
    checkout)`; with `check`, 1 if any block differs (listed), the page
    untouched."""
    path = Path(page)
    root = Path(__file__).resolve().parents[2]
    old = path.read_text().splitlines()
    new: list[str] = []
    differ: list[str] = []
    i = 0
    while i < len(old):
        m = GEN_BEGIN.match(old[i])
        new.append(old[i])
        i += 1
        if not m:
            continue
        end = next((j for j in range(i, len(old)) if old[j] == GEN_END), None)
        if end is None:
            raise ResultsError(f"{page}:{i}", f"a generated block without {GEN_END!r}")
        made = lines_for(m.group(1), root)
        if old[i:end] != made:
            differ.append(f"{page}:{i}: {m.group(1)}")
        new += [*made, GEN_END]
        i = end + 1
    if check:
        for d in differ:
            print(f"differs from its results document: {d}")
        return 1 if differ else 0
    if differ:
        path.write_text("\n".join(new) + "\n")
    print(f"{page}: {len(differ)} generated block(s) written")
    return 0
