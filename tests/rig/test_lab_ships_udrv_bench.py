# SPDX-License-Identifier: GPL-2.0-only
"""The lab ships udrv-bench beside udrv, without booting: the guest image's
files (rig/lab/image/initramfs.py), labgrid's deployment (rig/lab/boards/labgrid_board.py)
and the LAVA bundle (rig/lava/job.py), on a fake static build."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from rig.lab import catalogue
from rig.lab.boards.labgrid_board import DEPLOY
from rig.lab.errors import LabError
from rig.lab.image import initramfs
from rig.lava import job as lava

PROGRAMS = {"tools/udrv": "udrv", "rig/bench/udrv-bench": "udrv-bench"}


def fake_build(root: Path, name: str = "static", skip: str = "") -> Path:
    """ROOT/build/NAME with the programs (but SKIP), as a meson build lays them out."""
    build = root / "build" / name
    for rel in PROGRAMS:
        if rel != skip:
            (build / rel).parent.mkdir(parents=True, exist_ok=True)
            (build / rel).write_bytes(b"\x7fELF " + rel.encode())
    return build


def test_guest_image_has_both_programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalogue, "REPO_ROOT", tmp_path)
    build = fake_build(tmp_path, catalogue.RPI3.static_build)
    files = initramfs.default_extra_files(catalogue.RPI3)  # no host programs, no asan build
    for rel, name in PROGRAMS.items():
        assert files[f"/usr/bin/{name}"] == build / rel


def test_labgrid_deploys_both_programs() -> None:
    assert {DEPLOY[name]: name for name in PROGRAMS.values()} == PROGRAMS


def test_lava_bundle_has_both_programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lava, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(lava, "work_dir", lambda: tmp_path)
    fake_build(tmp_path)
    with tarfile.open(lava.bundle("amd64")) as tar:
        names = tar.getnames()
    assert names == ["usr/bin/udrv", "usr/bin/udrv-bench", "usr/bin/udrv-lava-bench"]


def test_lava_bundle_needs_udrv_bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lava, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(lava, "work_dir", lambda: tmp_path)
    fake_build(tmp_path, skip="rig/bench/udrv-bench")
    with pytest.raises(LabError, match="udrv-bench does not exist: run `make static` first"):
        lava.bundle("amd64")
