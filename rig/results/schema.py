# SPDX-License-Identifier: GPL-2.0-only
"""The schema files (udrv-bench-1.schema.json, udrv-lab-1.schema.json,
udrv-pybench-1.schema.json) and a strict validator of the part of JSON Schema
(draft 2020-12) they use.

Every keyword of a schema file is one this validator implements: a schema
that uses another is refused when it is read (tests/rig/test_results_schema.py
also checks the files and the same documents with the jsonschema package,
where it is installed). Messages name the place in the document as a path
(runs[0].documents[2].rows[1].stats.count) and what was expected there.
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# name -> the schema file of its version 1 (a new major version: a new file)
FILES = {"udrv-lab/1": "udrv-lab-1.schema.json", "udrv-bench/1": "udrv-bench-1.schema.json"}
# udrv-pybench's document (rig/bench/python/udrv_pybench.py: its own, not a bench
# document of FILES; the result of each of udrv-lab/1's python entries)
PYBENCH = "udrv-pybench-1"
PYBENCH_FILE = "udrv-pybench-1.schema.json"
# the widest integers udrv writes (int64_t, uint64_t)
INT_RANGE = (-(2**63), 2**64 - 1)
# what a schema file may say: annotations, and the keywords checked below
ANNOTATIONS = {"$schema", "$id", "title", "description"}
KEYWORDS = {"type", "const", "enum", "properties", "required", "additionalProperties",
            "items", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
            "minLength", "pattern", "anyOf", "allOf", "if", "then", "else", "$ref", "$defs"}


class Invalid(Exception):
    """A value does not follow its schema: str() is "PATH: what, expected what"."""


def need(ok: bool, message: str) -> None:
    """Invalid(@message) unless @ok: what the schema cannot say (rig.results.check,
    rig.results.pybench, the benches' checks in rig/bench/<bench>/spec.py)."""
    if not ok:
        raise Invalid(message)


@functools.cache
def schemas() -> dict[str, dict[str, Any]]:
    """$id -> schema, every file of FILES read and its keywords checked."""
    out = {}
    for name in (*FILES.values(), PYBENCH_FILE):
        schema = json.loads((HERE / name).read_text())
        _check_keywords(schema, name)
        out[schema["$id"]] = schema
    return out


def schema_of(name: str) -> dict[str, Any]:
    """The schema of "udrv-bench/1", "udrv-lab/1" or "udrv-pybench-1"."""
    return next(s for s in schemas().values() if s["properties"]["schema"]["const"] == name)


def _check_keywords(schema: Any, where: str) -> None:
    if isinstance(schema, list):
        for s in schema:
            _check_keywords(s, where)
    if not isinstance(schema, dict):
        return
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise ValueError(f"{where}: keywords {sorted(unknown)} are not implemented by "
                         "rig/results/schema.py")
    for key, sub in schema.items():
        if key in ("properties", "$defs"):
            for name, s in sub.items():
                _check_keywords(s, f"{where}/{key}/{name}")
        elif key not in ("const", "enum", "required") and key not in ANNOTATIONS:
            _check_keywords(sub, f"{where}/{key}")


def validate(doc: Any, name: str) -> None:
    """Raise Invalid naming the first place where @doc does not follow schema @name."""
    root = schema_of(name)
    _validate(doc, root, root, "")


def _resolve(ref: str, root: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    base, _, frag = ref.partition("#")
    if base:
        root = schemas()[base]
    node: Any = root
    for part in [p for p in frag.split("/") if p]:
        node = node[part]
    return node, root


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _validate(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str) -> None:
    if "$ref" in schema:
        sub, sub_root = _resolve(schema["$ref"], root)
        _validate(value, sub, sub_root, path)
    if "type" in schema:
        _type(value, schema["type"], path)
    if "const" in schema and not _same(value, schema["const"]):
        raise Invalid(f"{path or 'document'}: {_repr(value)}, expected {_repr(schema['const'])}")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        raise Invalid(f"{path or 'document'}: {_repr(value)}, expected one of "
                      + ", ".join(str(e) for e in schema["enum"]))
    if "anyOf" in schema:
        _any_of(value, schema["anyOf"], root, path)
    for sub in schema.get("allOf", ()):
        _validate(value, sub, root, path)
    if "if" in schema:
        try:
            _validate(value, schema["if"], root, path)
            branch = schema.get("then")
        except Invalid:
            branch = schema.get("else")
        if branch is not None:
            _validate(value, branch, root, path)
    if isinstance(value, dict):
        _object(value, schema, root, path)
    elif isinstance(value, list):
        _array(value, schema, root, path)
    elif isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            raise Invalid(f"{path}: empty string, expected a name")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise Invalid(f"{path}: {_repr(value)} does not match {schema['pattern']}")
    elif _is_number(value):
        _bounds(value, schema, path)


def _object(value: dict[str, Any], schema: dict[str, Any], root: dict[str, Any],
            path: str) -> None:
    for key in schema.get("required", ()):
        if key not in value:
            raise Invalid(f"{_at(path, key)}: missing")
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, v in value.items():
        if key in props:
            _validate(v, props[key], root, _at(path, key))
        elif extra is False:
            raise Invalid(f"{_at(path, key)}: not a field of {path or 'the document'} "
                          f"(known: {', '.join(props)})")
        elif isinstance(extra, dict):
            _validate(v, extra, root, _at(path, key))


def _array(value: list[Any], schema: dict[str, Any], root: dict[str, Any], path: str) -> None:
    if len(value) < schema.get("minItems", 0):
        raise Invalid(f"{path}: {len(value)} items, expected at least {schema['minItems']}")
    if len(value) > schema.get("maxItems", math.inf):
        raise Invalid(f"{path}: {len(value)} items, expected at most {schema['maxItems']}")
    if "items" in schema:
        for i, v in enumerate(value):
            _validate(v, schema["items"], root, f"{path}[{i}]")


def _bounds(value: float, schema: dict[str, Any], path: str) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        raise Invalid(f"{path}: {value}, expected at least {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        raise Invalid(f"{path}: {value}, expected at most {schema['maximum']}")
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise Invalid(f"{path}: {value}, expected more than {schema['exclusiveMinimum']}")


_KIND = {"object": dict, "array": list, "string": str, "boolean": bool}
_WANT = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
         "number": "a number", "boolean": "true or false", "null": "null"}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _has_type(value: Any, t: str) -> bool:
    if t == "null":
        return value is None
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return _is_number(value)
    return isinstance(value, _KIND[t])


def _type(value: Any, types: str | list[str], path: str) -> None:
    types = [types] if isinstance(types, str) else types
    if not any(_has_type(value, t) for t in types):
        raise Invalid(f"{path or 'document'}: {kind(value)} {short(value)}, expected "
                      + " or ".join(_WANT[t] for t in types))
    if isinstance(value, float) and not math.isfinite(value):
        raise Invalid(f"{path}: {value} is not a number udrv writes")
    if isinstance(value, int) and not isinstance(value, bool) and \
            not INT_RANGE[0] <= value <= INT_RANGE[1]:
        raise Invalid(f"{path}: {short(value)} is not a number udrv writes (beyond 64 bits)")


def _types_of(schema: dict[str, Any], root: dict[str, Any]) -> list[str]:
    """The JSON types a schema admits at its top (for the message of anyOf)."""
    if "$ref" in schema:
        sub, sub_root = _resolve(schema["$ref"], root)
        return _types_of(sub, sub_root)
    t = schema.get("type", [])
    return [t] if isinstance(t, str) else list(t)


def _any_of(value: Any, options: list[dict[str, Any]], root: dict[str, Any], path: str) -> None:
    first: Invalid | None = None
    for sub in options:
        try:
            _validate(value, sub, root, path)
            return
        except Invalid as exc:
            # the message of the option of the value's own type
            if first is None and any(_has_type(value, t) for t in _types_of(sub, root)):
                first = exc
    if first is not None:
        raise first
    wants = [_WANT[t] for sub in options for t in _types_of(sub, root)]
    raise Invalid(f"{path}: {kind(value)} {short(value)}, expected " + " or ".join(wants))


def _same(a: Any, b: Any) -> bool:
    return (type(a) is type(b) and a == b) or (_is_number(a) and _is_number(b) and a == b)


def kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "list", str: "string", bool: "boolean", int: "integer",
            float: "number"}.get(type(value), type(value).__name__)


def short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _repr(value: Any) -> str:
    return repr(value) if isinstance(value, str) else short(value)


def fill_missing(doc: Any, name: str, unknown: str) -> None:
    """Set each required field that is missing to null where it may be null,
    else to @unknown where it may be a string, through the whole document (what
    a document rebuilt from LAVA's test cases has no test case for: they carry
    numbers, and a null or a string is none)."""
    root = schema_of(name)
    _fill(doc, root, root, unknown)


def _admits(schema: dict[str, Any], root: dict[str, Any], t: str) -> bool:
    if "$ref" in schema:
        return _admits(*_resolve(schema["$ref"], root), t)
    return t in _types_of(schema, root) or any(_admits(s, root, t)
                                               for s in schema.get("anyOf", ()))


def _fill(value: Any, schema: dict[str, Any], root: dict[str, Any], unknown: str) -> None:
    if "$ref" in schema:
        sub, sub_root = _resolve(schema["$ref"], root)
        _fill(value, sub, sub_root, unknown)
        return
    for sub in schema.get("anyOf", ()):
        _fill(value, sub, root, unknown)
    if isinstance(value, dict) and "object" in _types_of(schema, root):
        props = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value and key in props:
                if _admits(props[key], root, "null"):
                    value[key] = None
                elif _admits(props[key], root, "string"):
                    value[key] = unknown
        for key, v in value.items():
            if key in props:
                _fill(v, props[key], root, unknown)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for v in value:
            _fill(v, schema["items"], root, unknown)
