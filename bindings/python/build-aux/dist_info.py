#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the package's .dist-info for an install by meson alone (a
distribution's python3-udrv, bindings/python/meson.build with
-Dlibudrv=system), from pyproject.toml: what pip's wheel would install, minus
RECORD. Without it importlib.metadata knows no udrv, and gpiozero finds no
`udrv` pin factory (the gpiozero_pin_factories entry point).

    dist_info.py PYPROJECT VERSION OUTDIR    writes OUTDIR/METADATA, entry_points.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11: only the wheel (pip) path is supported there
    sys.exit("dist_info.py needs Python 3.11 (tomllib) for -Dlibudrv=system")


def metadata(project: dict[str, object], version: str) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {version}",
             f"Summary: {project['description']}"]  # fmt: skip
    licence = project.get("license")
    if isinstance(licence, dict) and "text" in licence:
        lines.append(f"License: {licence['text']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    classifiers = project.get("classifiers", [])
    assert isinstance(classifiers, list)
    lines += [f"Classifier: {c}" for c in classifiers]
    return "\n".join(lines) + "\n"


def entry_points(project: dict[str, object]) -> str:
    groups = project.get("entry-points", {})
    assert isinstance(groups, dict)
    out = []
    for group, entries in groups.items():
        out.append(f"[{group}]")
        out += [f"{name} = {target}" for name, target in entries.items()]
        out.append("")
    return "\n".join(out)


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pyproject, version, outdir = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    project = tomllib.loads(pyproject.read_text())["project"]
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "METADATA").write_text(metadata(project, version))
    (outdir / "entry_points.txt").write_text(entry_points(project))


if __name__ == "__main__":
    main()
