# SPDX-License-Identifier: GPL-2.0-only
"""A board without its static udrv build does not start: it says which build
is missing and the command that makes it (on a fresh machine every rpi3 test
used to fail with `udrv: not found`). Host only: nothing boots."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rig.lab import catalogue
from rig.lab.boards.qemu import QemuBoard
from rig.lab.errors import LabError
from rig.lab.image import apt, modules
from rig.lab.image.kernel import fetch
from rig.lab.image.prepare import prepare

ELF_MACHINES = {"amd64": 62, "arm64": 183}  # e_machine (its low byte, offset 18)

pytestmark = pytest.mark.lg_feature(["qemu"])


@pytest.mark.parametrize("target", ["std", "rpi3"])
def test_missing_static_build_names_the_command(monkeypatch: pytest.MonkeyPatch,
                                                target: str) -> None:
    t = catalogue.TARGETS[target]
    gone = dataclasses.replace(t.machine, static_build="no-such-build")
    monkeypatch.setitem(catalogue.TARGETS, target, dataclasses.replace(t, machine=gone))
    with pytest.raises(LabError) as err:
        prepare(target)
    msg = str(err.value)
    assert f"the {target} board cannot start without udrv" in msg
    assert "build/no-such-build/tools/udrv does not exist" in msg
    assert "run `make no-such-build` first" in msg


@dataclasses.dataclass(frozen=True)
class _Kernel:
    spec: catalogue.Target
    release: str = "6.1.0-0-rt-amd64"
    vmlinuz: Path = Path("/nonexistent/vmlinuz")
    dtb: Path | None = None


@dataclasses.dataclass(frozen=True)
class _Image:
    kernel: _Kernel
    initramfs: Path = Path("/nonexistent/initrd")


def test_a_board_boots_only_an_image_prepared_for_it() -> None:
    """QemuBoard drives what the strategy prepared (rig/lab/strategy.py); an image
    made for another target is refused before QEMU starts."""
    with pytest.raises(LabError, match="the std board cannot boot an image prepared for rt"):
        QemuBoard(_Image(_Kernel(catalogue.lookup("rt"))), "std")


def test_rpi3_modules_cross_build_for_its_arm64_kernel() -> None:
    """The rpi3 "deb" variant's rig/kernel/ modules: built against Debian's
    arm64 headers with aarch64-linux-gnu-gcc-12 and the host's kbuild
    programs (an arm64 fixdep could not run here)."""
    kernel = fetch("rpi3", quiet=True)
    fixdep = (kernel.headers_dir / "scripts" / "basic" / "fixdep").resolve()
    assert fixdep.read_bytes()[18] == ELF_MACHINES[apt.host_arch()], fixdep
    assert modules.cross_compile(kernel) == "aarch64-linux-gnu-"
    mods = modules.build_all(kernel, quiet=True)
    assert {m.name for m in mods} >= {"gpio-wire", "uio-ticker"}
    for ko in (ko for m in mods for ko in m.kos):
        data = ko.read_bytes()
        assert data[18] == ELF_MACHINES["arm64"], f"{ko} is not an aarch64 object"
        assert f"vermagic={kernel.release} ".encode() in data, ko


def _fake_archive(monkeypatch: pytest.MonkeyPatch, host_kbuild: str) -> None:
    """An archive where linux-headers-6.1.0-56-arm64 names kbuild 6.1.192-3 and
    the host (amd64) carries `host_kbuild`: apt-cache answers, nothing else."""
    deps = {
        "linux-image-arm64": ["linux-image-6.1.0-56-arm64"],
        "linux-headers-6.1.0-56-arm64": ["linux-headers-6.1.0-56-common", "linux-kbuild-6.1"],
    }
    monkeypatch.setattr(apt, "host_arch", lambda: "amd64")
    monkeypatch.setattr(apt, "depends", lambda package, arch: deps[package])

    def versions(packages: tuple[str, ...], arch: str) -> dict[str, str]:
        have = host_kbuild if arch == "amd64" else "6.1.192-3"
        return {p: have if p == "linux-kbuild-6.1" else "6.1.192-3" for p in packages}

    monkeypatch.setattr(apt, "versions", versions)


@pytest.mark.parametrize("host_kbuild", ["6.1.192-3", "6.1.192-2", "6.1.192-4"])
def test_host_kbuild_of_the_same_kernel_stands_in(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  host_kbuild: str) -> None:
    """For the hours Debian's security archive carries a kernel update for arm64
    and not yet for amd64 (6.1.192-3 beside -2), the rpi3 board's modules still
    build: the host's kbuild of the same upstream kernel is used, and said."""
    _fake_archive(monkeypatch, host_kbuild)
    pk = apt._resolve_now(catalogue.TARGETS["rpi3"])
    assert pk.host_packages == ("linux-kbuild-6.1",)
    assert pk.versions["linux-kbuild-6.1"] == host_kbuild
    assert pk.with_arch()[-1] == ("linux-kbuild-6.1", "amd64")
    said = capsys.readouterr().err
    if host_kbuild == "6.1.192-3":
        assert said == ""
    else:
        assert f"using the host's (amd64) {host_kbuild}, built from the same kernel 6.1.192" in said


def test_host_kbuild_of_another_kernel_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_archive(monkeypatch, "6.1.191-1")
    with pytest.raises(apt.PackageError) as err:
        apt._resolve_now(catalogue.TARGETS["rpi3"])
    assert ("linux-headers-6.1.0-56-arm64 (arm64) needs linux-kbuild-6.1 6.1.192-3, the host's "
            "(amd64) is 6.1.191-1, another kernel release") in str(err.value)


@pytest.mark.parametrize(("version", "upstream"), [
    ("6.1.192-3", "6.1.192"), ("1:6.1.192-3", "6.1.192"), ("6.1.192-3~bpo11+1", "6.1.192"),
    ("6.12.57-1+deb13u1", "6.12.57"), ("6.1.192", "6.1.192"),
])
def test_upstream_version(version: str, upstream: str) -> None:
    assert apt.upstream_version(version) == upstream
