# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.results check|tables|markdown|compare (see rig/results/__init__.py)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from . import compare, compose, page, text
from .errors import ResultsError
from .read import load

EXIT_BAD = 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m rig.results",
        description="Check udrv results documents (udrv-bench/1, udrv-lab/1; the schema "
                    "files in rig/results/, docs/rig/results.md), print their tables for a "
                    "terminal or as Markdown, compare two. Exit status: 0 done; 2 a file is "
                    "missing or not a valid results document (one line says why).")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate: schema and the numbers adding up")
    c.add_argument("files", nargs="+", metavar="FILE")
    for name, what in (("tables", "the tables `make lab` prints"),
                       ("markdown", "the same tables as Markdown, for the docs")):
        t = sub.add_parser(name, help=what)
        t.add_argument("file", metavar="FILE")
        t.add_argument("--board", action="append", metavar="NAME",
                       help="only this board's tables (repeatable; default: every board)")
        t.add_argument("--table", action="append", metavar="NAME", choices=text.TABLES,
                       help=f"only this table ({', '.join(text.TABLES)}; repeatable; "
                       "default: every table the document has)")
    g = sub.add_parser("page", help="fill a Markdown page's generated blocks",
                       description="Fill each block of PAGE between '<!-- generated: "
                       "python3 -m rig.results markdown FILE [--board B] [--table T] -->' "
                       "and '<!-- end generated -->' with what that command prints (FILE "
                       "relative to the checkout), so a measured table in the docs is always "
                       "the one its results document holds. Exit status 1 with --check when "
                       "the page differs.")
    g.add_argument("page", metavar="PAGE")
    g.add_argument("--check", action="store_true",
                   help="change nothing; list the blocks that differ and exit 1")
    s = sub.add_parser("schema", help="compose udrv-bench-1.schema.json from its parts",
                       description="Write rig/results/udrv-bench-1.schema.json composed of "
                       "udrv-bench-1.base.json and each bench's rig/bench/<bench>/schema.json "
                       "(rig.bench.specs.SPECS order). Exit status 1 with --check when the "
                       "checked-in file differs from the composition.")
    s.add_argument("--compose", action="store_true", required=True,
                   help="compose the schema file (the one thing this command does)")
    s.add_argument("--check", action="store_true",
                   help="change nothing; exit 1 if the file is not the composition")
    m = sub.add_parser("compare", help="the rows of B beyond the noise against A")
    m.add_argument("a", metavar="A")
    m.add_argument("b", metavar="B")
    m.add_argument("--noise", type=float, default=compare.NOISE, metavar="FRACTION",
                   help=f"ratios within 1 +- FRACTION are noise (default {compare.NOISE})")
    m.add_argument("--metric", action="append", default=[], metavar="NAME",
                   choices=list(compare.METRIC_NAMES.values()),
                   help="judge only this statistic (p50, avg, p99, p99.9; repeat for more; "
                        "default all)")
    return p


def run(args: argparse.Namespace) -> int:
    if args.command == "check":
        for f in args.files:
            r = load(f)
            print(f"{f}: {r.schema}, {len(r.runs)} runs, "
                  f"{sum(len(x.docs) for x in r.runs)} bench documents: valid")
        return 0
    if args.command == "compare":
        if not 0 <= args.noise < 1:
            print(f"rig.results: --noise {args.noise}: give a fraction between 0 and 1",
                  file=sys.stderr)
            return EXIT_BAD
        a, b = load(args.a), load(args.b)
        from .model import label_runs

        label_runs(a.runs + b.runs)
        only = tuple(k for k, v in compare.METRIC_NAMES.items() if v in args.metric)
        found = compare.changes(a.runs, b.runs, args.noise, only)
        total = len(compare.common_rows(a.runs, b.runs))
        print(f"{len(found)} of {total} rows both measured differ beyond the noise "
              f"(\u00b1{args.noise:.0%}"
              + (f", in {', '.join(args.metric)}" if args.metric else "") + ")"
              + (":" if found else ""))
        for c in found:
            print(f"  {compare.change_text(c)}")
        return 0
    if args.command == "schema":
        return _schema(args.check)
    if args.command == "page":
        return page.fill(args.page, args.check, block_lines)
    tables = text.tables(load(args.file), args.board, args.table)
    if args.command == "tables":
        for t in tables:
            print()
            print("\n".join(text.render(t)))
    else:
        print(f"<!-- python3 -m rig.results markdown {args.file} -->")
        print("\n".join(markdown_tables(tables)))
    return 0


def _schema(check: bool) -> int:
    try:
        same = compose.write(check=check)
    except compose.ComposeError as exc:
        print(f"rig.results: {exc}", file=sys.stderr)
        return EXIT_BAD
    target = compose.TARGET.relative_to(compose.HERE.parent.parent)
    if same:
        print(f"{target}: the composition of its parts")
        return 0
    if check:
        print(f"{target}: not the composition of udrv-bench-1.base.json and "
              "rig/bench/*/schema.json: run python3 -m rig.results schema --compose")
        return 1
    print(f"{target}: written")
    return 0


def markdown_tables(tables: list[text.TextTable]) -> list[str]:
    lines: list[str] = []
    for t in tables:
        lines += ["", *text.markdown(t)]
    return lines


def block_lines(command: str, root: Path) -> list[str]:
    """What one block's command prints (its arguments as `markdown` takes them)."""
    args = parser().parse_args(["markdown", *shlex.split(command)])
    tables = text.tables(load(str(root / args.file)), args.board, args.table)
    if not tables:
        raise ResultsError(args.file, f"no table for: {command}")
    return markdown_tables(tables)[1:]


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return run(args)
    except ResultsError as exc:
        print(f"rig.results: {exc}", file=sys.stderr)
        return EXIT_BAD


if __name__ == "__main__":
    sys.exit(main())
