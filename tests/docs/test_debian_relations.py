# SPDX-License-Identifier: GPL-2.0-only
"""debian/control's relations on packages of Debian's archive can be met on
Debian 12 (bookworm): each version bound on such a package holds for
bookworm's version of it (python3-udrv suggested gpiozero >= 2, which
bookworm, at 1.6.2, cannot give).

BOOKWORM is bookworm's version of each archive package that a relation
bounds; a bound on a package missing from it fails the test, so that a new
bound is checked against the archive by whoever adds it (apt-cache policy
PACKAGE on a Debian 12 machine). scripts/check_steps/python_step.py's PY_TEST_GPIOZERO_1
tests the factory with the same gpiozero."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTROL = ROOT / "debian" / "control"
BOOKWORM = {
    "debhelper-compat": "13",  # debhelper 13.11.4 provides (= 9) to (= 13): the newest
    "meson": "1.0.1-5",
    "python3": "3.11.2-1+b1",
    "python3-gpiozero": "1.6.2-1+b1",
}
RELATIONS = ("Pre-Depends", "Depends", "Recommends", "Suggests", "Enhances", "Build-Depends",
             "Build-Depends-Indep", "Build-Depends-Arch")
BOUND = re.compile(r"^([a-z0-9][a-z0-9+.-]+)(?::\w+)?\s*\(\s*(<<|<=|=|>=|>>)\s*([^)\s]+)\s*\)")


def stanzas(text: str) -> list[dict[str, str]]:
    """The control file's paragraphs: field -> value (continuation lines joined)."""
    out = []
    for para in re.split(r"\n\s*\n", text.strip()):
        fields: dict[str, str] = {}
        key = ""
        for line in para.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += " " + line.strip()
            elif ":" in line and not line.startswith("#"):
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        out.append(fields)
    return out


def bounds(text: str) -> list[tuple[str, str, str, str, str]]:
    """(package of the stanza, field, bounded package, operator, version) of
    every versioned relation on a package no stanza of @text builds."""
    paras = stanzas(text)
    ours = {p["Package"] for p in paras if "Package" in p}
    out = []
    for para in paras:
        who = para.get("Package", para.get("Source", "?"))
        for field in RELATIONS:
            for rel in re.split(r"[,|]", para.get(field, "")):
                m = BOUND.match(rel.strip())
                if m and m[1] not in ours and not m[1].startswith("${"):
                    out.append((who, field, m[1], m[2], m[3]))
    return out


def unmet(text: str) -> list[str]:
    """The bounds bookworm's archive does not meet (or that BOOKWORM has no
    version of)."""
    dpkg_op = {"<<": "lt", "<=": "le", "=": "eq", ">=": "ge", ">>": "gt"}
    out = []
    for who, field, pkg, op, version in bounds(text):
        have = BOOKWORM.get(pkg)
        if have is None:
            out.append(f"{who} {field}: {pkg} ({op} {version}): bookworm's version is not in "
                       "BOOKWORM: add it (apt-cache policy)")
        elif subprocess.run(["dpkg", "--compare-versions", have, dpkg_op[op], version],
                            check=False).returncode:
            out.append(f"{who} {field}: {pkg} ({op} {version}), bookworm has {have}")
    return out


def test_relations_can_be_met_on_bookworm() -> None:
    assert unmet(CONTROL.read_text()) == []


@pytest.mark.parametrize(("relation", "wrong"), [
    ("python3-gpiozero (>= 2)", True),
    ("python3-gpiozero (>= 1.6)", False),
    ("python3-gpiozero (<< 1.5)", True),
    ("python3-nonesuch (>= 1)", True),
    ("python3-udrv (= ${binary:Version})", False),  # ours
])
def test_checker_sees_an_unmet_bound(relation: str, wrong: bool) -> None:
    control = ("Source: udrv\nBuild-Depends: meson\n\nPackage: python3-udrv\n"
               f"Depends: python3\nSuggests: udrvd,\n {relation}\n\nPackage: udrvd\n")
    assert bool(unmet(control)) == wrong, unmet(control)
