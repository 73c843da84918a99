# SPDX-License-Identifier: GPL-2.0-only
"""make lab-check (scripts/check.py --lab; its docstring: lab, labgrid): the
lab's pytests by board, the late tests, the labgrid path; a queue of them one
per host core."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .common import (
    BUILD,
    ROOT,
    Tally,
    count_junit,
    gpiod_dbus,
    pip_cached,
    pytest,
    pytest_cmd,
    run,
)

# labgrid (rig/lab/boards/labgrid_board.py); Debian 12's 0.4.1 predates the gRPC coordinator
LG_DEPS = ["labgrid==26.0.1"]


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


# the builds the lab boots or runs beside its boards: static (and arm64 for
# rpi3) in the guests, asan's CLI and bench as /opt/udrv-asan for the
# sanitized fault tests (rig/lab/image/initramfs.py), dev on the host
LAB_BUILDS = ("dev", "asan", "static", "arm64")


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
