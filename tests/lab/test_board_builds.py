# SPDX-License-Identifier: GPL-2.0-only
"""A board without its static udrv build does not start: it says which build
is missing and the command that makes it (on a fresh machine every rpi3 test
used to fail with `udrv: not found`). Host only: nothing boots."""

from __future__ import annotations

import dataclasses

import pytest

from rig.lab.boards import targets
from rig.lab.errors import LabError
from rig.lab.image import apt, modules
from rig.lab.image.kernel import fetch
from rig.lab.image.prepare import prepare

ELF_MACHINES = {"amd64": 62, "arm64": 183}  # e_machine (its low byte, offset 18)

pytestmark = pytest.mark.lg_feature(["qemu"])


@pytest.mark.parametrize("flavour", ["std", "rpi3"])
def test_missing_static_build_names_the_command(monkeypatch: pytest.MonkeyPatch,
                                                flavour: str) -> None:
    t = targets.TARGETS[flavour]
    gone = dataclasses.replace(t.machine, static_build="no-such-build")
    monkeypatch.setitem(targets.TARGETS, flavour, dataclasses.replace(t, machine=gone))
    with pytest.raises(LabError) as err:
        prepare(flavour)
    msg = str(err.value)
    assert f"the {flavour} board cannot start without udrv" in msg
    assert "build/no-such-build/tools/udrv does not exist" in msg
    assert "run `make no-such-build` first" in msg


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
