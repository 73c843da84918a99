#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Build the libFuzzer harnesses (clang, ASan+UBSan) and run them.

  run.py --check            what 'make check' runs: replay every reproducer in
                            tests/fuzz/regress/, then each harness from its seeds
                            for a fixed number of inputs (CHECK_RUNS) from a fixed
                            seed (CHECK_SEED), with no time limit: the same
                            inputs on every run, however busy the machine, so
                            the same commit gets the same verdict
  run.py --seconds 600      what 'make fuzz' runs: each harness for that long,
                            the corpus growing in build/fuzz/corpus/<harness>/
  run.py ... HARNESS...     only those harnesses

Each result is printed (executions, corpus size, the failure and where its
input was saved) and, with --json FILE, written as [{"name", "ok", ...}] for
scripts/check.py to count. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HARNESSES = ("parse", "layout", "cli", "interactive", "chip", "soc", "uio", "rt", "fields",
             "trace", "rtla", "peer", "cyclictest", "rate", "vfio", "policy", "state", "creds",
             "linecfg", "objects", "udrvd", "buses", "i2c_msgs", "pwm")
SETUP = ["-Dfuzz=true", "-Db_sanitize=address,undefined", "-Db_lundef=false",
         "-Dc_args=-fno-sanitize-recover=all"]
# -close_fd_mask=3: the CLI harness prints on stdout/stderr; failures still
# reach libFuzzer's own stderr (the sanitizers' report fd)
FLAGS = ["-close_fd_mask=3", "-print_final_stats=1", "-timeout=20", "-rss_limit_mb=2560",
         "-max_len=4096"]
# make check: inputs per harness from seed CHECK_SEED, about 5 s each on a
# loaded 2-core machine (half of what 10 s gave there beside other builds).
# udrvd: its seeds alone (0: the corpus replayed, no new input). udrvd runs in
# a thread of its own there, and which mutations follow the seeds differed
# from run to run (the corpus after 300 inputs: 83 to 100 entries in six runs,
# with ASLR off too); the seeds' own coverage is the same on every run
CHECK_SEED = 1
CHECK_RUNS = {"parse": 250_000, "layout": 150_000, "cli": 500, "interactive": 6_000,
              "chip": 3_000, "soc": 2_500,
              "uio": 2_000, "rt": 1_500, "fields": 500_000, "trace": 40_000, "rtla": 5_000,
              "peer": 500_000, "cyclictest": 6_000, "rate": 50_000, "vfio": 8_000,
              "policy": 15_000, "state": 400_000, "creds": 100_000,
              "linecfg": 100_000, "objects": 100_000, "udrvd": 0, "buses": 3_000,
              "i2c_msgs": 200_000, "pwm": 20_000}
STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.MULTILINE)
FAILURE = re.compile(r"^(.*(?:property failed|runtime error|ERROR: AddressSanitizer|"
                     r"ERROR: libFuzzer|SUMMARY: ).*)$", re.MULTILINE)


@dataclass
class Result:
    name: str
    ok: bool
    executions: int = 0
    seconds: float = 0.0
    corpus: int = 0
    detail: str = ""


def build(bdir: Path) -> Result:
    start = time.monotonic()
    if not shutil.which("clang"):
        return Result("build:fuzz", False, detail="clang is not installed (scripts/install-deps)")
    if not (bdir / "build.ninja").exists():
        env = dict(os.environ, CC="clang")
        cmd = ["meson", "setup", str(bdir), *SETUP]
        print("+ CC=clang " + " ".join(cmd), flush=True)
        if subprocess.call(cmd, cwd=ROOT, env=env):
            return Result("build:fuzz (meson setup)", False)
    cmd = ["ninja", "-C", str(bdir), "fuzzers"]
    print("+ " + " ".join(cmd), flush=True)
    ok = subprocess.call(cmd, cwd=ROOT) == 0
    return Result("build:fuzz", ok, seconds=time.monotonic() - start)


def binary(bdir: Path, harness: str) -> Path:
    return bdir / "tests" / "fuzz" / f"fuzz_{harness}"


def failure_lines(log: str) -> str:
    lines = [m.group(1).strip() for m in FAILURE.finditer(log)]
    return "; ".join(dict.fromkeys(lines))[:1500]


def replay(bdir: Path, harness: str) -> list[Result]:
    """Each reproducer in regress/<harness>/ must now pass."""
    results = []
    rdir = HERE / "regress" / harness
    for path in sorted(rdir.iterdir()) if rdir.is_dir() else []:
        if path.name.startswith(".") or path.suffix == ".md":
            continue
        proc = subprocess.run([str(binary(bdir, harness)), *FLAGS, str(path)],
                              capture_output=True, text=True, errors="replace")
        res = Result(f"fuzz:regress:{harness}/{path.name}", proc.returncode == 0,
                     executions=1, detail=failure_lines(proc.stderr))
        print(f"fuzz regress {harness}/{path.name}: "
              f"{'ok' if res.ok else 'FAILED: ' + res.detail}", flush=True)
        results.append(res)
    return results


def fuzz(bdir: Path, harness: str, seconds: int, runs: int, corpus: Path,
         artifacts: Path, seed: int = 0) -> Result:
    """One libFuzzer run: `seconds` (0: no limit) and `runs` (-1: no limit);
    seed 0 is libFuzzer's own random one."""
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(parents=True, exist_ok=True)
    logs = bdir / "logs"
    logs.mkdir(exist_ok=True)
    cmd = [str(binary(bdir, harness)), *FLAGS, f"-max_total_time={seconds}", f"-runs={runs}",
           f"-seed={seed}",
           f"-artifact_prefix={artifacts}/", str(corpus), str(HERE / "corpus" / harness)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    took = time.monotonic() - start
    (logs / f"{harness}.log").write_text(proc.stderr)
    stats = {k: int(v) for k, v in STAT.findall(proc.stderr)}
    res = Result(f"fuzz:{harness}", proc.returncode == 0,
                 executions=stats.get("number_of_executed_units", 0), seconds=took,
                 corpus=sum(1 for _ in corpus.iterdir()))
    if not res.ok:
        saved = re.findall(r"Test unit written to (\S+)", proc.stderr)
        res.detail = failure_lines(proc.stderr) or f"exit status {proc.returncode}"
        if saved:
            res.detail += f" (input: {saved[-1]})"
    print(f"fuzz {harness}: {res.executions} executions in {took:.1f} s, "
          f"corpus {res.corpus}: {'ok' if res.ok else 'FAILED: ' + res.detail}", flush=True)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("harness", nargs="*", metavar="HARNESS", help=", ".join(HARNESSES))
    ap.add_argument("--build", type=Path, default=ROOT / "build" / "fuzz")
    ap.add_argument("--check", action="store_true",
                    help=f"reproducers, then a fixed number of inputs per harness from "
                    f"seed {CHECK_SEED} (deterministic)")
    ap.add_argument("--seconds", type=int, default=600, help="per harness (default 600)")
    ap.add_argument("--runs", type=int, default=-1, help="at most this many inputs each")
    ap.add_argument("--json", type=Path, help="write the results here")
    args = ap.parse_args()
    harnesses = args.harness or list(HARNESSES)
    unknown = sorted(set(harnesses) - set(HARNESSES))
    if unknown:
        ap.error(f"no harness {', '.join(unknown)} (there are {', '.join(HARNESSES)})")

    start = time.monotonic()
    results = [build(args.build)]
    # the harnesses' fake trees: gone afterwards, also those of crashed runs
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    trees = tempfile.TemporaryDirectory(prefix="udrv-fuzz-", dir=shm)
    os.environ["UDRV_FUZZ_TMPDIR"] = trees.name
    if results[0].ok:
        for h in harnesses:
            results += replay(args.build, h)
        for h in harnesses:
            if args.check:
                with tempfile.TemporaryDirectory(prefix=f"udrv-fuzz-{h}-") as tmp:
                    results.append(fuzz(args.build, h, 0, CHECK_RUNS[h], Path(tmp),
                                        args.build / "artifacts" / h, CHECK_SEED))
            else:
                results.append(fuzz(args.build, h, args.seconds, args.runs,
                                     args.build / "corpus" / h,
                                     args.build / "artifacts" / h))
    trees.cleanup()
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    failed = [r for r in results if not r.ok]
    total = sum(r.executions for r in results if r.name.startswith("fuzz:") and
                ":regress:" not in r.name)
    print(f"fuzz: {len(harnesses)} harnesses, {total} executions, "
          f"{len(results) - len(failed)} passed, {len(failed)} failed, "
          f"{time.monotonic() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
