# SPDX-License-Identifier: GPL-2.0-only
"""What the steps of scripts/check.py share: the tree, the tally, running a
command, a pytest counted from its junit file, pip from the wheel cache."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


BUILD = ROOT / "build"


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


def pytest_cmd(path: str | list[str], xml: Path) -> list[str]:
    """pytest on @path (one or a list), its results in the junit file @xml."""
    paths = [path] if isinstance(path, str) else path
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--junitxml={xml}", *paths]


def pytest(name: str, path: str, tally: Tally, env: dict[str, str],
           extra: tuple[str, ...] = ()) -> None:
    if not (ROOT / path).exists():
        return
    xml = BUILD / f"pytest-{name}.xml"
    xml.unlink(missing_ok=True)
    run([*pytest_cmd(path, xml), *extra], env=env)
    count_junit(name, xml, tally)


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


def gpiod_dbus(tally: Tally) -> None:
    """gpiocli and gpio-manager 2.2.1 (scripts/build-gpiod-dbus): udrvd's
    tests run libgpiod's own client against it."""
    tally.add("build:gpiod-dbus", run([str(ROOT / "scripts" / "build-gpiod-dbus")]) == 0)
