# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's command line: arguments, messages, exit status. No tracebacks."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .compare import NOISE
from .errors import InputError, OutputError
from .load import load_all

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_ERROR = 2  # a bad results file, bad arguments, or an output that cannot be written
SHOW_CHANGES = 10

DESCRIPTION = """\
Turn udrv result files into one self-contained HTML page (plots embedded,
open it in any browser) plus the plots as PNG files: latency histograms
(OSADL style: count on a log axis, one panel per measurement, one line per
kernel x load, maxima marked, percentiles in the legend), the wake-up
breakdown of the GPIO loopback bench (write -> hardirq -> wake per wait
method), toggle rates per mechanism on a log axis with the raw loop and
libgpiod beside udrv, the tables 'make lab' prints, and the metadata (kernel,
preemption model, board, real-time settings in force, load, sample counts,
lost events, udrv version).

FILE is a udrv-lab/1 file ('make lab' writes build/lab/results.json) or a
udrv-bench/1 file ('udrv-bench NAME --json > FILE'); bench files of the same
system and load join into one run. FILE@KERNEL[/LOAD][,...] keeps some runs
of a file (LOAD 'idle' = 'none'), e.g. results.json@rt/idle.

With --compare A B: a comparison page instead: side-by-side panels, the
ratios B/A of each row's p50, average, p99, p99.9 and maximum, and the
changes beyond the noise highlighted (red: B slower, green: B faster). Runs
pair by kernel and load (std idle with std idle); with one run on each side
they pair whatever they are (results.json@std/idle results.json@rt/idle).

Exit status: 0 written; 2 a results file is missing or bad, a bad argument,
or the output cannot be written (one line on stderr says which and what to
do); 1 an internal error."""

EPILOG = """\
examples:
  udrv-report build/lab/results.json             build/lab/report.html + build/lab/report/*.png
  udrv-report irq.json uio.json -o bench.html    single bench documents
  udrv-report --compare before.json after.json -o change.html
  udrv-report --compare results.json@std/idle results.json@rt/idle

Docs: docs/rig/report.md, docs/rig/results.md"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="udrv-report", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="results files (see above)")
    p.add_argument("-o", "--out", metavar="HTML",
                   help="the page to write (default: report.html, or compare.html with "
                        "--compare, next to the first FILE)")
    p.add_argument("--png-dir", metavar="DIR",
                   help="where the PNGs go (default: the page's path without .html)")
    p.add_argument("--compare", action="store_true",
                   help="compare two files (or runs): A B")
    p.add_argument("--noise", type=float, default=None, metavar="FRACTION",
                   help="with --compare: ratios within 1 +- FRACTION are noise (default 0.03)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing when it works")
    p.add_argument("--version", action="version", version=f"udrv-report {__version__}")
    return p


def _error(message: str) -> int:
    print(f"udrv-report: {message}", file=sys.stderr)
    return EXIT_ERROR


def _default_out(first: str, compare: bool) -> Path:
    path = first.rpartition("@")[0] if "@" in first and not Path(first).exists() else first
    return Path(path).parent / ("compare.html" if compare else "report.html")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else _default_out(args.files[0], args.compare)
    if out.suffix.lower() not in (".html", ".htm"):
        return _error(f"{out}: the page must end in .html (the PNGs go to --png-dir)")
    if args.compare:
        if len(args.files) != 2:
            return _error(f"--compare takes two files (A B), got {len(args.files)}")
        noise = NOISE if args.noise is None else args.noise
        if not 0 <= noise < 1:
            return _error(f"--noise {noise}: give a fraction between 0 and 1 (0.03 = 3%)")
        a, b = args.files
        runs_a, runs_b = load_all([a]), load_all([b])  # bad files are told before drawing
        from . import build  # needs matplotlib

        result = build.render_compare_runs(a, runs_a, b, runs_b, out, args.png_dir, noise)
    else:
        if args.noise is not None:
            return _error("--noise only applies with --compare")
        runs = load_all(args.files)
        from . import build

        result = build.render_runs(runs, out, args.png_dir)
    if not args.quiet:
        pdir = result.pngs[0].parent if result.pngs else "-"
        print(f"udrv-report: wrote {result.html} ({len(result.pngs)} plots in {pdir})")
        if args.compare:
            print(f"udrv-report: {len(result.changes)} rows differ beyond the noise"
                  + (":" if result.changes else ""))
        for change in result.changes[:SHOW_CHANGES]:
            print(f"  {change}")
        if len(result.changes) > SHOW_CHANGES:
            print(f"  ... and {len(result.changes) - SHOW_CHANGES} more in the page")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return run(args)
    except (InputError, OutputError) as exc:
        return _error(str(exc))
    except ImportError as exc:
        return _error(f"cannot draw: {exc}; install matplotlib "
                      "(Debian: apt-get install python3-matplotlib)")
    except Exception as exc:
        if os.environ.get("UDRV_REPORT_DEBUG"):
            raise
        print(f"udrv-report: internal error: {type(exc).__name__}: {exc} (run again with "
              "UDRV_REPORT_DEBUG=1 for the traceback, and report it with the results file)",
              file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("udrv-report: interrupted", file=sys.stderr)
        return 130
