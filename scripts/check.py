#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run udrv's tests and print one summary line: ``N passed, N failed``.

  check.py          make check: everything that runs on this machine (below,
                    all but the lab and labgrid steps); ~20 min on a fresh
                    Debian 12 with 2 cores
  check.py --lab    make lab-check: the lab and labgrid steps (real kernels
                    in QEMU, ~30 min), after the builds they use (dev,
                    asan, static, arm64) and the peers
.ci/run runs both and adds up their tallies. The longer steps are modules of
their own in scripts/check_steps/: common.py (the tally, a pytest counted from its
junit file, the wheel cache), python_step.py (python) and lab_step.py (lab,
labgrid).

Steps (each counted; a step that cannot run counts as one failure):
  build      meson builds with -Werror: dev (debug checks), asan (ASan+UBSan),
             static (release, fully static: what the lab boots), and the
             cross builds arm64 and armhf (static, cross/*.ini)
  peer       udrv-bench-peer (libgpiod 2.3) built in dev, static and arm64:
             the benches' libgpiod-2.3 rows need it
  unit       the C unit tests (TAP) in each of those builds; the ARM ones run
             under qemu-user (the cross files' exe_wrapper)
  abi        scripts/abi-check: build/dev's libudrv.so.1 against the committed
             baseline abi/libudrv.so.1.abi (one line per verdict: soname,
             removed, nodes, changed), and pytest tests/abi: copies of the
             library broken on purpose fail the check, each for its reason
  lint       ruff on the Python code
  docs       pytest tests/docs: every relative link of the Markdown files and
             every docs/ file named in the tree exists, sources are cited by
             name (docs/references.md), README.md stays short; every man
             page cited exists (a public function's: its link page to
             libudrv(3)), SYNOPSIS lines are commands; the ABI's version
             nodes in the docs are lib/libudrv.map's; the README's C snippet
             compiles and runs on a fake chip (its Python snippet: the python
             step); debian/control's bounds hold for Debian 12's packages
  boundary   scripts/check-boundary: the toolkit includes nothing of the rig
             or tools/, the rig nothing of tools/ and tools/ nothing of the
             rig, the bindings and examples import no rig package, and
             build/dev's udrv has no symbol of the bench library (one line
             per verdict); tests/rig/test_check_boundary.py sees each break
  cli        pytest tests/cli: the udrv binary on fake sysfs trees
  daemon     pytest tests/daemon: udrvd (build/dev/daemon/udrvd) on a private
             dbus-daemon with fake GPIO chips (tests/daemon/fake_cdev.c,
             preloaded), clients (gdbus, libgpiod's gpiocli 2.2.1 built by
             scripts/build-gpiod-dbus) run as other users by setpriv, and
             udrvd rebuilt with each check taken out (the refusal tests must
             fail)
  install    pytest tests/install: the README's source install (make as a
             user, make install PREFIX=/usr/local as root into a DESTDIR):
             nothing built as root, each file where its reader (the system
             bus, systemd, udev, systemd-sysusers, udrvd) reads it, the
             installed udrvd serving the installed udrv on a private bus
             (the same of the packages, -m deb: scripts/deb-test runs it)
  rig        pytest tests/rig: the rig's host logic: udrv-bench on fake
             trees (bench/), the suite's plan and tables, the soak,
             udrv-report on the fixture results (report/: every figure
             checked by rig/report/figcheck.py, the page opened in headless
             chromium), the LAVA recorder (rig/lava/udrv-lava-bench, with
             busybox's awk) and the converter on a captured lava-run log
             (the real lava-run is a lab test: tests/lab/test_lava.py)
  python     the Python bindings (bindings/python/): the wheel built by meson-python
             (PyPI, cached in build/py-deps: no network once it is warm),
             installed into a fresh venv build/py-test, tests/python run
             there (gpiozero 2.0.1), test_gpiozero*.py again with gpiozero
             1.6.2 (Debian 12's; build/py-test-gpiozero1), tests/python
             again on the extension built with ASan+UBSan (build/py-asan);
             mypy --strict on the package and examples/python, mypy.stubtest
             on the extension's stubs; the sdist installed offline into a
             fresh venv (build/py-sdist-venv)
  fuzz       the libFuzzer harnesses (tests/fuzz, clang, ASan+UBSan): each
             reproducer in tests/fuzz/regress replayed, then each harness a
             fixed number of inputs from its seeds and a fixed seed, beside
             the rig step (skip with UDRV_FUZZ=0)
  lab        (--lab) pytest tests/lab: real kernels in QEMU, in four
             pytests by board (LAB_SHARDS; each board shut down after its
             last test), then the tests marked `late` (the real lava-run)
             and the labgrid path below, each phase a queue of UDRV_LAB_JOBS
             pytests at once (default: one per host core; a TCG guest under
             -icount is one host thread), longest first; UDRV_LAB_SHARDS=1
             runs tests/lab in one pytest instead
  labgrid    (--lab) labgrid 26 in build/lg-venv (PyPI, cached in build/py-deps), the
             host side of the labgrid path (tests/lab/test_labgrid_host.py),
             the localhost farm (tests/lab/test_labgrid_farm.py: coordinator,
             exporter, a place, the suite and the lab tests through it), and
             for std, rt and rpi3 the board as a labgrid env (python3 -m rig.lab
             lg-env) with the tests marked lg_BOARD through it (pytest --lg-env
             -m lg_std...): the transport, the feature skips and a few real tests
             per board (part of the lab step's queue; skip with UDRV_LABGRID=0).
             The markers are declared in the test files (tests/lab/conftest.py
             registers them): a new test file needs no edit here
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from check_steps.common import BUILD, ROOT, Tally, count_tap, gpiod_dbus, pytest, run
from check_steps.lab_step import LAB_BUILDS, lab_check
from check_steps.python_step import python_bindings

# every build of make check with -Werror (a user's build has no -Werror: a
# newer compiler's new warning must not stop make install)
BUILDS: dict[str, list[str]] = {
    "dev": ["-Dwerror=true"],
    "asan": [
        "-Dwerror=true",
        "-Db_sanitize=address,undefined",
        "-Db_lundef=false",
        "-Dc_args=-fno-sanitize-recover=all",
    ],
    "static": [
        "-Dwerror=true",
        "-Dstatic_tools=true",
        "-Ddefault_library=static",
        "-Dbuildtype=release",
    ],
}
for _arch in ("arm64", "armhf"):
    BUILDS[_arch] = [f"--cross-file=cross/{_arch}.ini", *BUILDS["static"]]
RUFF_VERSION = "0.17.6"


def build(name: str, tally: Tally) -> bool:
    bdir = BUILD / name
    if not (bdir / "build.ninja").exists() and run(["meson", "setup", str(bdir), *BUILDS[name]]):
        tally.add(f"build:{name} (meson setup)", False)
        return False
    ok = run(["ninja", "-C", str(bdir)]) == 0
    tally.add(f"build:{name}", ok)
    return ok


def unit(name: str, tally: Tally) -> None:
    bdir = BUILD / name
    log = bdir / "meson-logs" / "testlog.json"
    log.unlink(missing_ok=True)
    run(["meson", "test", "-C", str(bdir), "--print-errorlogs"])
    if not log.exists():
        tally.add(f"unit:{name} (no test log)", False)
        return
    count_tap(name, log, tally)


def ruff() -> list[str] | None:
    """A ruff command: installed, or in a venv under build/ (from PyPI)."""
    if shutil.which("ruff"):
        return ["ruff"]
    venv = BUILD / "venv"
    exe = venv / "bin" / "ruff"
    pip = [str(venv / "bin" / "pip"), "install", "-q", f"ruff=={RUFF_VERSION}"]
    if not exe.exists() and (run([sys.executable, "-m", "venv", str(venv)]) or run(pip)):
        return None
    return [str(exe)]


def lint(tally: Tally) -> None:
    cmd = ruff()
    if cmd is None:
        tally.add("lint: cannot install ruff (python3-venv, PyPI)", False)
        return
    paths = [p for p in ("rig", "tests", "scripts", "rig/report/udrv-report",
                         "scripts/fetch-peers", "scripts/abi-check", "scripts/check-boundary",
                         "bindings/python", "man/links.py",
                         "examples/python")
             if (ROOT / p).exists()]
    tally.add("lint:ruff", run([*cmd, "check", *paths]) == 0)


def boundary(tally: Tally) -> None:
    """scripts/check-boundary on this tree and build/dev: one tally line per
    verdict."""
    cmd = [sys.executable, str(ROOT / "scripts" / "check-boundary"), "--build",
           str(BUILD / "dev")]
    print("+ " + " ".join(cmd), flush=True)
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    print(res.stdout + res.stderr, end="", flush=True)
    verdicts = re.findall(r"^check-boundary: ([\w-]+): (ok|FAIL|skipped)\b", res.stdout,
                          re.MULTILINE)
    for name, state in verdicts:
        tally.add(f"boundary:{name}", state != "FAIL")
    if not verdicts or res.returncode not in (0, 1):
        tally.add(f"boundary: scripts/check-boundary did not run (status {res.returncode})",
                  False)


# the tests run through labgrid on a board: those marked lg_BOARD (test_lab_smoke
# the transport and the feature skips, test_labgrid_board the console's tty
# given back, console lines, and on std the deployment of udrv (35 s); a few
# real ones per board: the whole step took 64 s without the deployment)


FUZZ_JSON = BUILD / "fuzz-check.json"


def fuzz_start() -> subprocess.Popen[bytes]:
    """tests/fuzz/run.py --check, in the background (its output in
    build/fuzz-check.log): a fixed number of inputs from a fixed seed, so its
    verdict does not depend on what runs beside it (the rig step: one core
    each on 2 cores, 150 s less)."""
    FUZZ_JSON.unlink(missing_ok=True)
    cmd = [sys.executable, "tests/fuzz/run.py", "--check", "--json", str(FUZZ_JSON)]
    print(f"+ {' '.join(cmd)} > build/fuzz-check.log (beside the next steps)", flush=True)
    with (BUILD / "fuzz-check.log").open("wb") as log:
        return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def fuzz_end(proc: subprocess.Popen[bytes], tally: Tally) -> None:
    """Wait for fuzz_start's run, print its output: every reproducer and
    every harness is a step."""
    proc.wait()
    print("---- fuzz (tests/fuzz/run.py --check) ----")
    print((BUILD / "fuzz-check.log").read_text(errors="replace"), end="", flush=True)
    if not FUZZ_JSON.exists():
        tally.add("fuzz: tests/fuzz/run.py did not run", False)
        return
    for r in json.loads(FUZZ_JSON.read_text()):
        detail = f": {r['detail'][:300]}" if r["detail"] and not r["ok"] else ""
        tally.add(f"{r['name']}{detail}", r["ok"])


def abi(tally: Tally, env: dict[str, str]) -> None:
    """The ABI check (docs/abi.md): one tally line per verdict of
    scripts/abi-check, then the proof that it sees a break (tests/abi)."""
    lib = BUILD / "dev" / "lib" / "libudrv.so.1"
    print(f"+ scripts/abi-check {lib}", flush=True)
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "abi-check"), str(lib)],
                         cwd=ROOT, capture_output=True, text=True)
    print(res.stdout + res.stderr, end="", flush=True)
    verdicts = re.findall(r"^abi-check: (\w+): (ok|FAIL|skipped)\b", res.stdout, re.MULTILINE)
    for name, state in verdicts:
        tally.add(f"abi:{name}", state != "FAIL")
    if not verdicts or res.returncode not in (0, 1):
        tally.add(f"abi: scripts/abi-check did not run (status {res.returncode})", False)
    pytest("abi", "tests/abi", tally, env)


# the peers (rig/bench/peers/) and the library whose sources each needs
PEERS = (("udrv-bench-peer", "libgpiod 2.3"), ("udrv-bench-lgpio", "lgpio 0.2.2.0"))


def peers(built: dict[str, bool], tally: Tally) -> None:
    """The peers in the builds the benches and the lab run (libgpiod 2.3's,
    lgpio's): without one its rows would be left out with a note, and every
    test would still pass."""
    for name in ("dev", "static", "arm64"):
        if not built.get(name):
            continue
        for prog, lib in PEERS:
            peer = BUILD / name / "rig" / "bench" / "peers" / prog
            if not peer.exists():
                print(f"check: no {peer}: scripts/fetch-peers (scripts/install-deps --check) "
                      f"fetches {lib}'s sources; then meson setup --reconfigure "
                      f"{BUILD / name}", file=sys.stderr)
            tally.add(f"peer:{name}:{prog}", peer.exists())


class Steps:
    """How long each step took: printed at the end (make check's budget)."""

    def __init__(self) -> None:
        self.start = self.last = time.monotonic()
        self.took: list[tuple[str, float]] = []

    def done(self, name: str) -> None:
        now = time.monotonic()
        self.took.append((name, now - self.last))
        self.last = now

    def print(self) -> None:
        print("check: time per step: " + ", ".join(f"{n} {t:.0f} s" for n, t in self.took)
              + f"; total {time.monotonic() - self.start:.0f} s")


def host(tally: Tally, built: dict[str, bool], env: dict[str, str], steps: Steps) -> None:
    """make check: everything but the lab."""
    for name, ok in built.items():
        if ok:
            unit(name, tally)
    steps.done("unit")
    lint(tally)
    pytest("docs", "tests/docs", tally, env)
    steps.done("lint+docs")
    if built["dev"]:
        abi(tally, env)
        boundary(tally)
        pytest("cli", "tests/cli", tally, env)
        steps.done("abi+boundary+cli")
        gpiod_dbus(tally)
        pytest("daemon", "tests/daemon", tally, env)
        steps.done("daemon")
        # the packages' half (-m deb): scripts/deb-test, after make deb
        pytest("install", "tests/install", tally, env, ("-m", "not deb"))
        steps.done("install")
    fuzzing = fuzz_start() if env.get("UDRV_FUZZ", "1") != "0" else None
    if fuzzing is None:
        print("fuzz steps skipped: UDRV_FUZZ=0")
    if built["dev"]:
        pytest("rig", "tests/rig", tally, env)
        steps.done("rig")
    if fuzzing is not None:
        fuzz_end(fuzzing, tally)
        steps.done("fuzz (beside rig)")
    python_bindings(tally, env)
    steps.done("python")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lab", action="store_true",
                    help="the lab and labgrid steps only (make lab-check)")
    args = ap.parse_args()
    # Ctrl-C as on a terminal, however make check was started: a job that a
    # shell without job control puts in the background inherits SIGINT
    # ignored, exec keeps that, and the tests that press Ctrl-C on a Python
    # program (the binding's waits, rig.lab farm) would wait for ever. A
    # handler (not SIG_IGN) is reset to the default in every child.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    tally = Tally()
    steps = Steps()
    BUILD.mkdir(exist_ok=True)
    built = {name: build(name, tally) for name in BUILDS
             if not args.lab or name in LAB_BUILDS}
    peers(built, tally)
    steps.done("build")
    env = dict(os.environ)
    env.setdefault("UDRV_BIN", str(BUILD / "dev" / "tools" / "udrv"))
    env.setdefault("UDRV_BENCH_BIN", str(BUILD / "dev" / "rig" / "bench" / "udrv-bench"))
    if args.lab:
        lab_check(tally, built, env)
        steps.done("lab")
    else:
        host(tally, built, env, steps)
    steps.print()
    for name in tally.failures:
        print(f"FAILED {name}")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
