# SPDX-License-Identifier: GPL-2.0-only
"""The two installs a user makes of the toolkit, staged in a folder of their
own (nothing of this machine changes):

- source: the README's `make PREFIX=/usr/local` as a user (uid 65534, in a
  build folder of its own), then `make install PREFIX=/usr/local DESTDIR=...`
  as root;
- deb: the packages a user installs with apt (libudrv1, udrv, udrvd of
  build/deb, `make deb`) unpacked by dpkg-deb, as dpkg unpacks them (their
  maintainer scripts' work, the groups, is the tests' to check).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.udrv_runner import REPO

USER = 65534  # nobody: the user who builds
PREFIX = "/usr/local"
BUILD_S = 1800.0  # a guard: the release build takes 30 s on 2 cores
# the toolkit's packages: the library, the CLI, the daemon
DEBS = ("libudrv1", "udrv", "udrvd")


@dataclass
class Install:
    kind: str  # "source" or "deb"
    prefix: str  # where the programs are: /usr/local or /usr
    dest: Path  # the staged root
    build: Path | None = None  # the source install's build folder
    built: str = ""  # make's output
    out: str = ""  # make install's output

    def at(self, path: str) -> Path:
        """@path (absolute, as installed) inside the staged root."""
        return self.dest / path.lstrip("/")

    def find(self, name: str) -> str:
        """The one installed file called @name, as an absolute path (not staged)."""
        found = [p for p in self.dest.rglob(name) if p.is_file()]
        assert len(found) == 1, found
        return "/" + str(found[0].relative_to(self.dest))


def make(*args: str, uid: int = 0, cwd: Path = REPO, home: Path | None = None,
         ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    cmd = ["make", "--no-print-directory", "-C", str(cwd), *args]
    env = dict(os.environ)
    if uid:
        cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *cmd]
        env["HOME"] = str(home)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_S, env=env,
                          check=False)  # fmt: skip


@pytest.fixture(scope="session")
def source_install() -> Iterator[Install]:
    if os.geteuid() != 0:
        pytest.fail("the source install's tests run as root (make install, setpriv)")
    with tempfile.TemporaryDirectory(prefix="udrv-install-") as tmp:
        top = Path(tmp)
        os.chmod(top, 0o755)
        build = top / "build"
        build.mkdir()
        os.chown(build, USER, USER)
        built = make(f"BUILD={build}", f"PREFIX={PREFIX}", uid=USER, home=build)
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
        res = make("install", f"BUILD={build}", f"PREFIX={PREFIX}", f"DESTDIR={top / 'dest'}")
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
        yield Install("source", PREFIX, top / "dest", build, built.stdout, res.stdout + res.stderr)


def packages(debdir: Path) -> list[Path]:
    """build/deb's packages of DEBS for this machine's architecture."""
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True, timeout=30).stdout.strip()  # fmt: skip
    found = []
    for name in DEBS:
        debs = sorted(debdir.glob(f"{name}_*_{arch}.deb"))
        if len(debs) != 1:
            pytest.fail(f"{debdir}: {len(debs)} {name} packages for {arch}, want one: "
                        "make deb (a clean build/deb) first")  # fmt: skip
        found.append(debs[0])
    return found


@pytest.fixture(scope="session")
def deb_install() -> Iterator[Install]:
    debdir = Path(os.environ.get("UDRV_DEB_DIR", REPO / "build" / "deb"))
    debs = packages(debdir)
    with tempfile.TemporaryDirectory(prefix="udrv-deb-") as tmp:
        dest = Path(tmp) / "dest"
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", str(deb), str(dest)], check=True, timeout=120)
        os.chmod(tmp, 0o755)  # the test's users run the staged programs
        yield Install("deb", "/usr", dest)
