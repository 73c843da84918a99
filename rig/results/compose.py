# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench-1.schema.json, composed: the base (udrv-bench-1.base.json: the
document's shared fields) and each bench's part (rig/bench/<bench>/schema.json),
in the order of rig.bench.specs.SPECS.

A bench's part holds its name (the value of "bench" it adds to the enum) and,
where it has them, the document's properties it adds (its own section), the
"allOf" conditions it adds (if bench is NAME then its section is required) and
the "$defs" they refer to; a name another part or the base already has is an
error. The composed file stays checked in (other tools and the docs read it):

    python3 -m rig.results schema --compose            write it
    python3 -m rig.results schema --compose --check    exit 1 if it differs

tests/rig/test_results_compose.py holds the checked-in file to the composition.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rig.bench.specs import SPECS

from .schema import FILES, HERE

BASE = HERE / "udrv-bench-1.base.json"
TARGET = HERE / FILES["udrv-bench/1"]
PART_KEYS = {"bench", "properties", "allOf", "$defs"}
WIDTH = 100  # a value that fits on one line of this width is written on it


class ComposeError(Exception):
    """A part that does not fit: str() names the file and what is wrong."""


def _read(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ComposeError(f"{path}: {exc}") from None
    if not isinstance(value, dict):
        raise ComposeError(f"{path}: not a JSON object")
    return value


def compose(base: Path = BASE, parts: list[Path] | None = None) -> dict[str, Any]:
    """The schema of base and @parts (default: every spec's, in SPECS order)."""
    schema = _read(base)
    names: list[str] = []
    conditions: list[Any] = list(schema.get("allOf", []))
    for path in parts if parts is not None else [s.schema for s in SPECS]:
        part = _read(path)
        unknown = set(part) - PART_KEYS
        if unknown or not isinstance(part.get("bench"), str):
            raise ComposeError(f"{path}: a bench's part holds \"bench\" (its name) and "
                               f"properties, allOf, $defs; not {sorted(unknown)}")
        if part["bench"] in names:
            raise ComposeError(f"{path}: bench {part['bench']!r} twice")
        names.append(part["bench"])
        for key in ("properties", "$defs"):
            for name, value in part.get(key, {}).items():
                if name in schema[key]:
                    raise ComposeError(f"{path}: {key} {name!r} is already the base's "
                                       "or another bench's")
                schema[key][name] = value
        conditions += part.get("allOf", [])
    schema["properties"]["bench"] = {**schema["properties"]["bench"], "enum": names}
    if conditions:
        schema["allOf"] = conditions
    else:
        schema.pop("allOf", None)
    return schema


def dumps(value: Any, indent: int = 0, column: int | None = None) -> str:
    """JSON, a value on one line when it fits in WIDTH (from @column), else one
    member a line, indented by two."""
    flat = json.dumps(value, ensure_ascii=False)
    start = indent if column is None else column
    if not isinstance(value, dict | list) or not value or start + len(flat) <= WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        items = [pad]  # scalars: as many a line as fit
        for v in value:
            word = json.dumps(v, ensure_ascii=False)
            if items[-1] != pad and len(items[-1]) + len(word) + 2 > WIDTH:
                items[-1] = items[-1].rstrip()
                items.append(pad)
            items[-1] += word + ", "
        items[-1] = items[-1][:-2]
        return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"
    if isinstance(value, list):
        items = [pad + dumps(v, indent + 2) for v in value]
    else:
        items = [f"{pad}{json.dumps(k)}: "
                 + dumps(v, indent + 2, indent + 2 + len(json.dumps(k)) + 2)
                 for k, v in value.items()]
    close = "]" if isinstance(value, list) else "}"
    return ("[" if close == "]" else "{") + "\n" + ",\n".join(items) + "\n" + " " * indent + close


def text(schema: dict[str, Any]) -> str:
    return dumps(schema) + "\n"


def write(target: Path = TARGET, check: bool = False, parts: list[Path] | None = None) -> bool:
    """Write the composition (of @parts, default every spec's) to @target (with
    @check: only compare); was it the same?"""
    want = text(compose(parts=parts))
    same = target.exists() and target.read_text() == want
    if not check and not same:
        target.write_text(want)
    return same
