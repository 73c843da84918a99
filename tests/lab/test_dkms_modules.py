# SPDX-License-Identifier: GPL-2.0-only
"""The lab's modules from DKMS (UDRV_LAB_MODULES=dkms, rig/lab/image/modules.py)
and the DKMS tree's dkms.conf (rig/kernel/dkms.conf.in, the udrv-bench-dkms
package) against the Kbuild files. Host only: nothing boots; booting with
DKMS's builds is scripts/deb-test --lab's part."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from rig.lab.errors import LabError, ModuleBuildError
from rig.lab.image import modules
from rig.lab.image.kernel import Kernel
from rig.lab.paths import REPO_ROOT, module_source

pytestmark = pytest.mark.lg_feature(["qemu"])

RELEASE = "6.1.0-99-amd64"


def kernel() -> Kernel:
    return cast(Kernel, SimpleNamespace(release=RELEASE))


@pytest.mark.parametrize(("env", "want"), [(None, "build"), ("build", "build"), ("dkms", "dkms")])
def test_module_source(monkeypatch: pytest.MonkeyPatch, env: str | None, want: str) -> None:
    if env is None:
        monkeypatch.delenv("UDRV_LAB_MODULES", raising=False)
    else:
        monkeypatch.setenv("UDRV_LAB_MODULES", env)
    assert module_source() == want


@pytest.mark.parametrize("bad", ["", "DKMS", "dkms ", "none"])
def test_module_source_is_strict(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("UDRV_LAB_MODULES", bad)
    with pytest.raises(LabError, match=r"UDRV_LAB_MODULES=.*: say build or dkms"):
        module_source()


def test_dkms_builds_are_taken_from_their_directory(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setattr(modules, "dkms_modules_dir", lambda release: tmp_path / release)
    monkeypatch.setenv("UDRV_LAB_MODULES", "dkms")
    (tmp_path / RELEASE).mkdir()
    for mod in modules.discover():
        for name in modules.kbuild_objects(mod.src) if mod.dkms else ():
            (tmp_path / RELEASE / f"{name}.ko").write_bytes(b"\x7fELF")
    mods = modules.build_all(kernel(), quiet=True)
    assert sorted(ko.name for m in mods for ko in m.kos) == \
        ["gpio-reply.ko", "gpio-wire.ko", "i2c-fixture.ko", "irqlat.ko", "pwm-fixture.ko",
         "spi-fixture.ko", "udrv-irq.ko", "uio-ticker.ko"]
    assert all(ko.parent == tmp_path / RELEASE for m in mods for ko in m.kos)


def test_a_module_dkms_did_not_build_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setattr(modules, "dkms_modules_dir", lambda release: tmp_path / release)
    monkeypatch.setenv("UDRV_LAB_MODULES", "dkms")
    with pytest.raises(ModuleBuildError) as err:
        modules.build_all(kernel(), quiet=True)
    msg = str(err.value)
    # the toolkit's helper comes first (kernel/), from its own package
    assert f"DKMS has not built udrv-irq for {RELEASE}" in msg
    assert f"apt install udrv-irq-dkms linux-headers-{RELEASE}" in msg
    rig = modules.discover(REPO_ROOT / "rig" / "kernel")
    with pytest.raises(ModuleBuildError, match=f"apt install udrv-bench-dkms linux-headers-"
                       f"{RELEASE}"):
        modules.from_dkms(kernel(), rig[0], quiet=True)


@pytest.mark.parametrize("tree", ["kernel", "rig/kernel"])
def test_dkms_conf_builds_what_the_kbuild_files_make(tree: str) -> None:
    """Every module a Kbuild of the tree makes is in its dkms.conf, from its
    directory, and nothing else: a module added under kernel/ or rig/kernel/
    and not to its dkms.conf (or the other way round) fails here, not at a
    user's `dkms install`."""
    conf = (REPO_ROOT / tree / "dkms.conf.in").read_text()
    names = dict(re.findall(r'^BUILT_MODULE_NAME\[(\d+)\]="([\w-]+)"$', conf, re.MULTILINE))
    places = dict(re.findall(r'^BUILT_MODULE_LOCATION\[(\d+)\]="([\w-]+)/"$', conf, re.MULTILINE))
    assert names and names.keys() == places.keys(), conf
    in_conf = sorted((places[i], names[i]) for i in names)
    built = sorted((m.name, ko) for m in modules.discover(REPO_ROOT / tree) if m.dkms
                   for ko in modules.kbuild_objects(m.src))
    assert in_conf == built
