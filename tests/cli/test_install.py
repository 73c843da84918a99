# SPDX-License-Identifier: GPL-2.0-only
"""What `make install` (meson install) puts below PREFIX, staged with DESTDIR:
everything the README's Install section promises, at the paths udev,
systemd-sysusers, pkg-config, man and DKMS look in. The build is the one the
CLI tests run (UDRV_BIN's build directory), installed again with --destdir."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# below PREFIX ("LIBDIR": the build's libdir, lib/x86_64-linux-gnu on Debian)
PROMISED = [
    "bin/udrv", "bin/udrv-bench", "bin/udrv-report",
    "LIBDIR/libudrv.so.1", "LIBDIR/libudrv.so", "LIBDIR/libudrv.a",
    "LIBDIR/pkgconfig/libudrv.pc",
    "include/udrv/udrv.h", "include/udrv/uio.h", "include/udrv/vfio.h",
    "include/udrv/i2c.h", "include/udrv/spi.h", "include/udrv/pwm.h",
    "share/man/man1/udrv.1", "share/man/man3/libudrv.3",
    "share/man/man1/udrv-bench.1", "share/man/man1/udrv-report.1",
    "share/udrv/rig/report/__main__.py", "share/udrv/rig/results/udrv-bench-1.schema.json",
    "share/udrv/rig/bench/specs.py", "share/udrv/rig/bench/gaps/spec.py",
    "share/udrv/rig/bench/gaps/model.py", "share/udrv/rig/bench/gaps/schema.json",
    "share/doc/udrv/examples/edu/edu.c", "share/doc/udrv/examples/python/blink.py",
    "share/doc/udrv/examples/udrvd-held/udrvd-held.c",
    "share/doc/udrv/examples/responder/responder.c", "share/doc/udrv/examples/python/responder.py",
    "share/doc/udrv/examples/sensors/lm75.c", "share/doc/udrv/examples/sensors/mcp3008.c",
    "share/doc/udrv/examples/python/lm75.py", "share/doc/udrv/examples/python/mcp3008.py",
    "lib/udev/rules.d/60-udrv.rules", "lib/sysusers.d/udrv.conf",
    "src/udrv-bench-1.6.0/dkms.conf", "src/udrv-bench-1.6.0/Makefile",
    "src/udrv-bench-1.6.0/gpio-wire/Kbuild", "src/udrv-bench-1.6.0/include/udrv-kmod/gpiochip.h",
    "src/udrv-bench-1.6.0/include/uapi/udrv/uio-ticker.h",
    "src/udrv-irq-1.6.0/dkms.conf", "src/udrv-irq-1.6.0/Makefile",
    "src/udrv-irq-1.6.0/udrv-irq/Kbuild", "src/udrv-irq-1.6.0/udrv-irq/udrv-irq.h",
    "src/udrv-irq-1.6.0/udrv-irq/file.c", "src/udrv-irq-1.6.0/udrv-irq/bind.c",
    "src/udrv-irq-1.6.0/udrv-irq/event.c",
    "src/udrv-irq-1.6.0/include/udrv-kmod/gpiochip.h",
    "src/udrv-irq-1.6.0/include/uapi/udrv/udrv-irq.h",
]  # fmt: skip


@dataclass
class Staged:
    destdir: Path
    prefix: Path  # DESTDIR + PREFIX
    libdir: str


@pytest.fixture(scope="module")
def installed(udrv_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Staged:
    """UDRV_BIN's build installed into a DESTDIR."""
    build = udrv_bin.parent.parent
    meson = shutil.which("meson")
    if meson is None or not (build / "build.ninja").is_file():
        pytest.fail(f"{build} is not a meson build directory with meson on PATH")
    dest = tmp_path_factory.mktemp("destdir")
    r = subprocess.run([meson, "install", "-C", str(build), "--no-rebuild", "--quiet",
                        "--destdir", str(dest)], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    opts = json.loads(subprocess.run([meson, "introspect", "--buildoptions", str(build)],
                                     capture_output=True, text=True, check=True).stdout)
    options = {o["name"]: o["value"] for o in opts}
    return Staged(dest, dest / str(options["prefix"]).lstrip("/"), str(options["libdir"]))


@pytest.mark.parametrize("rel", PROMISED)
def test_make_install_puts_it_below_prefix(installed: Staged, rel: str) -> None:
    path = installed.prefix / rel.replace("LIBDIR", installed.libdir)
    assert path.exists(), f"{path} is not installed"


def test_the_installed_reader_reads_every_bench(installed: Staged) -> None:
    """rig.results as installed (share/udrv/rig, what udrv-report runs) has
    every bench's spec: it reads documents with each section, and no C of
    rig/bench/ came along."""
    root = installed.prefix / "share" / "udrv"
    fixtures = Path(__file__).resolve().parents[1] / "rig" / "report" / "fixtures"
    files = [str(fixtures / f"{n}.json") for n in ("lab-gaps", "lab-rate", "lab-pci",
                                                   "bench-reply-breakdown-std")]
    r = subprocess.run([sys.executable, "-m", "rig.results", "check", *files],
                       cwd=root, capture_output=True, text=True, check=False,
                       env={**os.environ, "PYTHONPATH": str(root)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count(": valid") == len(files)
    bench = root / "rig" / "bench"
    assert not [p for p in bench.rglob("*") if p.suffix in (".c", ".h", ".build")]


@pytest.mark.parametrize("tree", ["udrv-bench", "udrv-irq"])
def test_the_dkms_tree_has_its_version(installed: Staged, tree: str) -> None:
    conf = (installed.prefix / "src" / f"{tree}-1.6.0" / "dkms.conf").read_text()
    assert 'PACKAGE_VERSION="1.6.0"' in conf and "@VERSION@" not in conf, conf
    assert f'PACKAGE_NAME="{tree}"' in conf, conf


# outside PREFIX: where the system bus reads its policies for a prefix other
# than /usr (meson.build; tests/install/test_source_install.py checks it reads it)
OUTSIDE = {"etc/dbus-1/system.d/io.gpiod1.conf"}


def test_nothing_is_installed_outside_prefix(installed: Staged) -> None:
    outside = {str(p.relative_to(installed.destdir)) for p in installed.destdir.rglob("*")
               if not p.is_dir() and installed.prefix not in p.parents}  # fmt: skip
    assert outside <= OUTSIDE, outside


def test_every_example_has_its_debian_package(installed: Staged) -> None:
    """Each directory of share/doc/udrv/examples goes into a package
    (debian/*.install): dh_missing fails make deb on one that does not
    (examples/sensors did), and no test before make deb sees it."""
    debian = Path(__file__).resolve().parents[2] / "debian"
    claimed = {line.split()[0].removeprefix("usr/share/doc/udrv/examples/")
               for f in debian.glob("*.install") for line in f.read_text().splitlines()
               if line.startswith("usr/share/doc/udrv/examples/")}
    examples = installed.prefix / "share" / "doc" / "udrv" / "examples"
    dirs = {p.name for p in examples.iterdir()}
    assert dirs and dirs <= claimed, f"not in a debian/*.install: {sorted(dirs - claimed)}"
