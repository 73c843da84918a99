#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run udrv's tests and print one summary line: ``N passed, N failed``.

  check.py          make check: everything that runs on this machine (below,
                    all but the lab and labgrid steps); ~20 min on a fresh
                    Debian 12 with 2 cores
  check.py --lab    make lab-check: the lab and labgrid steps (real kernels
                    in QEMU, ~30 min), after the builds they use (dev,
                    asan, static, arm64) and the peers
.ci/run runs both and adds up their tallies.

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
             there (gpiozero 2.0.1), test_gpiozero.py again with gpiozero
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
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"

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
# what the python step builds and type-checks with (PyPI, into build/venv)
PY_BUILD_DEPS = ["meson-python==0.22.1", "meson==1.12.1", "ninja==1.13.2", "mypy==2.4.1"]
# what tests/python needs in the test venv beside Debian's pytest: gpiozero 2
# for udrv.gpiozero's tests (PyPI's, Raspberry Pi OS's); and the gpiozero of
# Debian 12's python3-gpiozero, 1.6.2, for test_gpiozero.py's second run (its
# own venv, build/py-test-gpiozero1)
PY_TEST_DEPS = ["gpiozero==2.0.1", "colorzero==2.0"]
PY_TEST_GPIOZERO_1 = ["gpiozero==1.6.2", "colorzero==2.0"]
# labgrid (rig/lab/boards/labgrid_board.py); Debian 12's 0.4.1 predates the gRPC coordinator
LG_DEPS = ["labgrid==26.0.1"]


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, name: str, ok: bool) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(name)


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> int:
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=cwd, env=env)


def build(name: str, tally: Tally) -> bool:
    bdir = BUILD / name
    if not (bdir / "build.ninja").exists() and run(["meson", "setup", str(bdir), *BUILDS[name]]):
        tally.add(f"build:{name} (meson setup)", False)
        return False
    ok = run(["ninja", "-C", str(bdir)]) == 0
    tally.add(f"build:{name}", ok)
    return ok


def count_tap(name: str, log: Path, tally: Tally) -> None:
    """Count TAP subtests from meson's testlog.json."""
    for line in log.read_text().splitlines():
        test = json.loads(line)
        results = [
            ln for ln in test.get("stdout", "").splitlines()
            if ln.startswith(("ok ", "not ok "))
        ]
        if not results:  # crashed before reporting: one failure
            tally.add(f"unit:{name}:{test['name']}", test["result"] == "OK")
            continue
        for ln in results:
            tally.add(f"unit:{name}:{test['name']}: {ln}", ln.startswith("ok "))


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
                         "scripts/fetch-libgpiod", "scripts/abi-check", "scripts/check-boundary",
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


def pytest_cmd(path: str, xml: Path) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--junitxml={xml}", path]


def pytest(name: str, path: str, tally: Tally, env: dict[str, str],
           extra: tuple[str, ...] = ()) -> None:
    if not (ROOT / path).exists():
        return
    xml = BUILD / f"pytest-{name}.xml"
    xml.unlink(missing_ok=True)
    run([*pytest_cmd(path, xml), *extra], env=env)
    count_junit(name, xml, tally)


# The lab's pytests, one per group of boards (conftest's UDRV_LAB_SHARD;
# "none": the tests that boot no board), longest first: lab_queue runs one per
# host core and gives the next to the first core free. Their lengths in one
# run of the old two shards (std,rpi3,std-q35,none: 2692 s; the rest: 1991 s,
# each test's setup and call in its junit file): std 1834 s (std+py 441 s of
# it), rt 1480 s, std-q35 627 s, rt-q35 300 s, rt-smp 212 s, none 163 s,
# rpi3 115 s
LAB_SHARDS = ("std", "rt", "std-q35,rt-q35", "rt-smp,std-smp,rpi3,none")


@dataclass
class LabJob:
    """One pytest of the lab step: `cmds` run one after the other (all but the
    last prepare; the last is the pytest writing `xml`), output in a log."""

    name: str
    cmds: list[list[str]]
    xml: Path
    env: dict[str, str] = field(default_factory=dict)


def lab_job(job: LabJob, env: dict[str, str]) -> tuple[LabJob, int, str]:
    """Run one job; its exit status and its log's text."""
    log = BUILD / f"{job.xml.stem}.log"
    job.xml.unlink(missing_ok=True)
    status = 0
    with log.open("w") as out:
        for cmd in job.cmds:
            out.write(f"+ {' '.join(cmd)}\n")
            out.flush()
            status = subprocess.run(cmd, cwd=ROOT, env={**env, **job.env}, stdout=out,
                                    stderr=subprocess.STDOUT, check=False).returncode
            if status:
                break
    return job, status, log.read_text(errors="replace")


def lab_queue(jobs: list[LabJob], tally: Tally, env: dict[str, str]) -> None:
    """The lab's pytests LAB_JOBS at a time (one QEMU per host core: a TCG guest
    under -icount is one host thread), longest first; each job's log printed
    when it ends (the lab step took 13 min in one pytest)."""
    for job in jobs:
        extra = " ".join(f"{k}={v}" for k, v in job.env.items())
        print(f"+ [{job.name}] {extra} {' '.join(job.cmds[-1])}", flush=True)
    width = int(env.get("UDRV_LAB_JOBS", "0") or 0) or max(1, len(os.sched_getaffinity(0)))
    with ThreadPoolExecutor(max_workers=width) as pool:
        for job, status, text in pool.map(lambda j: lab_job(j, env), jobs):
            print(f"---- lab {job.name} (exit {status}) ----")
            print(text, flush=True)
            count_junit(job.name, job.xml, tally)


# the tests marked `late` (tests/lab/conftest.py) boot boards of their own
# under a wall-clock boot timeout (lava-run's login, the farm's prompt): they
# run after the shards, whose session boards stay up until their pytest ends
# and, under -icount sleep=off, keep a host core busy each even when idle
# (uio-ticker's 1 kHz timer); a board booted beside four of them missed
# LAVA's 120 s login
LATE = "late"
# the tests marked `deb` need the Debian packages (make deb): scripts/deb-test
# --lab runs them, on a machine it may install packages on
DEB = "deb"


# the agent's host-side tests (a pipe, no guest): the labgrid:host job runs
# them after the shards; beside the two shards' boards their 60 s guards ran
# out in two fresh runs of two (a RUN's setsid seen in state R for 60 s: not
# understood yet)
AGENT_HOST = "tests/lab/test_labgrid_host.py"


def shard_jobs(tally: Tally) -> list[LabJob]:
    """tests/lab in LAB_SHARDS (conftest's UDRV_LAB_SHARD), without the late
    tests and the agent's host-side ones; a board in no shard is a failure
    (its tests would be deselected by every shard)."""
    sys.path.insert(0, str(ROOT))
    from rig.lab.catalogue import TARGETS

    named = [b for shard in LAB_SHARDS for b in shard.split(",")]
    for board in sorted({*TARGETS, "none"} - set(named)):
        tally.add(f"lab: board {board} is in no shard of scripts/check.py's LAB_SHARDS", False)
    jobs = []
    for i, shard in enumerate(LAB_SHARDS):
        xml = BUILD / f"pytest-lab{i}.xml"
        cmd = [*pytest_cmd("tests/lab", xml), "-m", f"not {LATE} and not {DEB}",
               f"--ignore={AGENT_HOST}"]
        jobs.append(LabJob(f"lab[{shard}]", [cmd], xml, {"UDRV_LAB_SHARD": shard}))
    return jobs


def late_jobs() -> list[LabJob]:
    """The late tests, in a pytest of their own."""
    xml = BUILD / "pytest-lab-late.xml"
    return [LabJob("lab[lava]", [[*pytest_cmd("tests/lab", xml), "-m", f"{LATE} and not {DEB}"]],
                   xml)]


# the tests run through labgrid on a board: those marked lg_BOARD (test_lab_smoke
# the transport and the feature skips, test_labgrid_board the console's tty
# given back, console lines, and on std the deployment of udrv (35 s); a few
# real ones per board: the whole step took 64 s without the deployment)


def lg_venv() -> Path | None:
    """build/lg-venv with LG_DEPS (from the cache build/py-deps)."""
    venv = BUILD / "lg-venv"
    pip = [str(venv / "bin" / "pip"), "-q", "--disable-pip-version-check"]
    if not (venv / "bin" / "pip").exists() and run([sys.executable, "-m", "venv", str(venv)]):
        return None
    return venv if pip_cached(pip, LG_DEPS) else None


def labgrid_jobs(python: str, boards: tuple[str, ...] = ("std", "rt", "rpi3")) -> list[LabJob]:
    """The lab tests through labgrid (docs/rig/lab.md, "the lab tests on a labgrid
    target"), under build/lg-venv's `python`: the host side, the localhost farm
    (rig/lab/farm.py: coordinator + exporter + a std board, the suite and the lab
    tests through its place), then each board of `boards` as a labgrid env
    (python3 -m rig.lab lg-env) with its lg_BOARD tests through it."""
    host = BUILD / "pytest-lg-host.xml"
    farm = BUILD / "pytest-lg-farm.xml"
    jobs = [LabJob("labgrid:farm", [[python, *pytest_cmd("tests/lab/test_labgrid_farm.py",
                                                         farm)[1:]]], farm),
            LabJob("labgrid:host", [[python, *pytest_cmd("tests/lab/test_labgrid_host.py",
                                                         host)[1:]]], host)]  # fmt: skip
    for board in boards:
        yaml = BUILD / "lab" / "lg-env" / f"{board}.yaml"
        xml = BUILD / f"pytest-lg-{board}.xml"
        make_env = [sys.executable, "-m", "rig.lab", "lg-env", "-q", "--kernel", board,
                    "-o", str(yaml)]
        test = [python, *pytest_cmd("tests/lab", xml)[1:], "--lg-env", str(yaml),
                "-m", f"lg_{board}"]
        jobs.insert(len(jobs) - 1, LabJob(f"labgrid[{board}]", [make_env, test], xml))
    return jobs


def lab(tally: Tally, env: dict[str, str], built: dict[str, bool]) -> None:
    """The lab step: the shards, then the late tests and the labgrid path."""
    lab_queue(shard_jobs(tally), tally, env)
    jobs = late_jobs()
    host = BUILD / "pytest-lab-agent.xml"
    agent = LabJob("lab[agent]", [pytest_cmd(AGENT_HOST, host)], host)
    if env.get("UDRV_LABGRID", "1") == "0":
        print("labgrid tests skipped: UDRV_LABGRID=0")
        jobs.append(agent)
    elif not built["arm64"]:
        tally.add("labgrid: no arm64 build for the rpi3 board", False)
        jobs.append(agent)
    else:
        venv = lg_venv()
        if venv is None:
            tally.add("labgrid: cannot install labgrid into build/lg-venv (PyPI, python3-venv)",
                      False)  # fmt: skip
            jobs.append(agent)
        else:
            lg = labgrid_jobs(str(venv / "bin" / "python"))
            jobs = lg[:1] + jobs + lg[1:]  # the farm (longest) first
    lab_queue(jobs, tally, env)


def count_junit(name: str, xml: Path, tally: Tally) -> None:
    if not xml.exists():
        tally.add(f"{name}: pytest did not run", False)
        return
    for case in ET.parse(xml).getroot().iter("testcase"):
        bad = case.find("failure") is not None or case.find("error") is not None
        if case.find("skipped") is not None:
            continue
        tally.add(f"{name}:{case.get('classname')}::{case.get('name')}", not bad)


def pip_cached(pip: list[str], reqs: list[str]) -> bool:
    """Install reqs from the wheels cached in build/py-deps; download them
    from PyPI into it first when they are not all there (the first run)."""
    cache = BUILD / "py-deps"
    cache.mkdir(exist_ok=True)
    offline = [*pip, "install", "--no-index", "--find-links", str(cache), *reqs]
    if subprocess.call(offline, cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL) == 0:
        return True
    return run([*pip, "download", "-d", str(cache), *reqs]) == 0 and run(offline) == 0


def py_build_deps() -> Path | None:
    """build/venv with PY_BUILD_DEPS (from the cache build/py-deps)."""
    venv = BUILD / "venv"
    pip = [str(venv / "bin" / "pip"), "-q", "--disable-pip-version-check"]
    if not (venv / "bin" / "pip").exists() and run([sys.executable, "-m", "venv", str(venv)]):
        return None
    return venv if pip_cached(pip, PY_BUILD_DEPS) else None


def python_bindings(tally: Tally, env: dict[str, str]) -> None:
    """The wheel of bindings/python/, a fresh venv with it (Debian's pytest from the
    system site packages), tests/python there, mypy --strict."""
    venv = py_build_deps()
    if venv is None:
        tally.add("python: cannot install meson-python/mypy into build/venv (PyPI, "
                  "python3-venv)", False)
        return
    wheels = BUILD / "py-wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    benv = {**env, "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}"}
    ok = run([str(venv / "bin" / "pip"), "wheel", "-q", "--no-build-isolation", "--no-deps",
              f"--config-settings=build-dir={BUILD / 'py-build'}",
              "--config-settings=setup-args=-Dwerror=true", "-w", str(wheels),
              "./bindings/python"], env=benv) == 0
    tally.add("python:wheel", ok)
    if not ok:
        return
    [wheel] = wheels.glob("udrv-*.whl")
    test = test_venv("py-test", wheel, PY_TEST_DEPS)
    tally.add("python:install", test is not None)
    if test is not None:
        python_tests("python", test, "tests/python", PY_TEST_DEPS, tally, env)
        gz1 = test_venv("py-test-gpiozero1", wheel, PY_TEST_GPIOZERO_1)
        tally.add("python:install gpiozero 1", gz1 is not None)
        if gz1 is not None:
            python_tests("python-gpiozero1", gz1, "tests/python/test_gpiozero.py",
                         PY_TEST_GPIOZERO_1, tally, env)
        python_asan(tally, env, venv)
    mypy = [str(venv / "bin" / "mypy"), "--strict", "--cache-dir", str(BUILD / "mypy-cache"),
            "bindings/python/udrv", "examples/python"]
    tally.add("python:mypy", run(mypy, env={**env, "MYPYPATH": str(ROOT / "bindings/python")})
              == 0)
    # the stubs against the extension itself (installed beside mypy for that)
    ok = run([str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--no-deps",
              "--force-reinstall", str(wheel)]) == 0
    tally.add("python:stubtest", ok and run(
        [str(venv / "bin" / "python"), "-m", "mypy.stubtest", "--mypy-config-file",
         str(ROOT / "bindings" / "python" / "pyproject.toml"), "udrv._udrv"],
        env={k: v for k, v in env.items() if k != "MYPYPATH"}) == 0)
    python_sdist(tally, venv)


def test_venv(name: str, wheel: Path, deps: list[str]) -> Path | None:
    """A fresh venv build/@name (Debian's pytest from the system site
    packages) with the udrv @wheel and @deps (from the cache build/py-deps)."""
    test = BUILD / name
    ok = run([sys.executable, "-m", "venv", "--clear", "--system-site-packages", str(test)]) == 0
    tpip = [str(test / "bin" / "pip"), "-q", "--disable-pip-version-check"]
    ok = ok and run([*tpip, "install", "--no-index", "--no-deps", str(wheel)]) == 0
    return test if ok and pip_cached(tpip, deps) else None


def python_tests(name: str, venv: Path, path: str, deps: list[str], tally: Tally,
                 env: dict[str, str]) -> None:
    """pytest @path in @venv, on the installed package (not bindings/python/udrv
    of the source tree); the gpiozero of @deps named to test_gpiozero.py."""
    xml = BUILD / f"pytest-{name}.xml"
    xml.unlink(missing_ok=True)
    gpiozero = next(d.split("==")[1] for d in deps if d.startswith("gpiozero=="))
    status = run([str(venv / "bin" / "python"), *pytest_cmd(path, xml)[1:]],
                 env={**env, "UDRV_TEST_GPIOZERO": gpiozero})
    count_junit(name, xml, tally)
    if status not in (0, 1):  # interrupted or crashed: tests may be missing
        tally.add(f"{name}: pytest exited {status}", False)


def python_sdist(tally: Tally, venv: Path) -> None:
    """The sdist of bindings/python (meson-python's build_sdist: meson dist,
    libudrv's sources copied in by build-aux/dist.py) installed offline into a
    fresh venv: pip builds it in its own isolated build environment from the
    wheels of build/py-deps alone (--no-index), and the package imports."""
    dist = BUILD / "py-sdist"
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir()
    make = f"import mesonpy; print(mesonpy.build_sdist({str(dist)!r}))"
    ok = run([str(venv / "bin" / "python"), "-c", make], cwd=ROOT / "bindings" / "python") == 0
    sdists = sorted(dist.glob("udrv-*.tar.gz"))
    fresh = BUILD / "py-sdist-venv"
    ok = ok and len(sdists) == 1 and run([sys.executable, "-m", "venv", "--clear",
                                          str(fresh)]) == 0  # fmt: skip
    ok = ok and run([str(fresh / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                     "--no-index", "--find-links", str(BUILD / "py-deps"), str(sdists[0])]) == 0
    check = "import udrv; print('python:sdist: udrv', udrv.__version__, 'from', udrv.__file__)"
    tally.add("python:sdist", ok and run([str(fresh / "bin" / "python"), "-c", check],
                                         cwd=BUILD) == 0)  # fmt: skip


def python_asan(tally: Tally, env: dict[str, str], venv: Path) -> None:
    """tests/python again on the extension built with ASan and UBSan
    (build/py-asan; the sanitizers' runtimes preloaded into Python)."""
    bdir = BUILD / "py-asan"
    benv = {**env, "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}"}
    if not (bdir / "build.ninja").exists() and run(
            ["meson", "setup", str(bdir), "bindings/python", "-Dwerror=true",
             "-Db_sanitize=address,undefined",
             "-Db_lundef=false", "-Dbuildtype=debug",
             "-Dc_args=-fno-sanitize-recover=all"], env=benv):
        tally.add("python:asan (meson setup)", False)
        return
    ok = run(["ninja", "-C", str(bdir)], env=benv) == 0
    tally.add("python:asan build", ok)
    if not ok:
        return
    pkg = BUILD / "py-asan-pkg" / "udrv"
    shutil.rmtree(pkg.parent, ignore_errors=True)
    shutil.copytree(ROOT / "bindings" / "python" / "udrv", pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for so in bdir.glob("_udrv*.so"):
        shutil.copy2(so, pkg)
    libs = [subprocess.run(["gcc", f"-print-file-name={lib}"], capture_output=True, text=True,
                           check=False).stdout.strip() for lib in ("libasan.so", "libubsan.so")]
    xml = BUILD / "pytest-python-asan.xml"
    xml.unlink(missing_ok=True)
    cmd = pytest_cmd("tests/python", xml)
    status = run([str(BUILD / "py-test" / "bin" / "python"), *cmd[1:]], env={
        **env, "PYTHONPATH": str(pkg.parent), "LD_PRELOAD": " ".join(libs),
        "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "halt_on_error=1"})
    count_junit("python-asan", xml, tally)
    if status not in (0, 1):
        tally.add(f"python-asan: pytest exited {status}", False)


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


def gpiod_dbus(tally: Tally) -> None:
    """gpiocli and gpio-manager 2.2.1 (scripts/build-gpiod-dbus): udrvd's
    tests run libgpiod's own client against it."""
    tally.add("build:gpiod-dbus", run([str(ROOT / "scripts" / "build-gpiod-dbus")]) == 0)


def peers(built: dict[str, bool], tally: Tally) -> None:
    """The libgpiod 2.3 peer in the builds the benches and the lab run: without
    it the libgpiod-2.3 rows would be left out with a note, and every test
    would still pass."""
    for name in ("dev", "static", "arm64"):
        if not built.get(name):
            continue
        peer = BUILD / name / "rig" / "bench" / "peers" / "udrv-bench-peer"
        if not peer.exists():
            print(f"check: no {peer}: scripts/fetch-libgpiod (scripts/install-deps --check) "
                  f"fetches libgpiod 2.3's sources; then meson setup --reconfigure {BUILD / name}",
                  file=sys.stderr)
        tally.add(f"peer:{name}", peer.exists())


# the builds the lab boots or runs beside its boards: static (and arm64 for
# rpi3) in the guests, asan's CLI and bench as /opt/udrv-asan for the
# sanitized fault tests (rig/lab/image/initramfs.py), dev on the host
LAB_BUILDS = ("dev", "asan", "static", "arm64")


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


def lab_check(tally: Tally, built: dict[str, bool], env: dict[str, str]) -> None:
    """make lab-check: the lab and labgrid steps (the boards run libgpiod's
    gpio-manager and gpiocli beside udrvd: scripts/build-gpiod-dbus)."""
    gpiod_dbus(tally)
    if not built["static"]:
        tally.add("lab: no static build to boot", False)
    elif env.get("UDRV_LAB_SHARDS", "2") == "1" or env.get("UDRV_LAB_KERNELS"):
        pytest("lab", "tests/lab", tally, env)
    else:
        lab(tally, env, built)


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
