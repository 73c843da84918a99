# SPDX-License-Identifier: GPL-2.0-only
"""rig/lab/image/apt.py's resolved.json, written by boards that the suite
prepares in threads of one process (`make lab` runs std and rt side by side):
every thread's entry lands, and none trips on another's temporary file (a
fresh make lab once failed with FileNotFoundError on resolved.tmpPID, two
threads sharing the pid's name)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from rig.lab.image import apt


def test_threads_saving_resolutions_lose_nothing(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UDRV_LAB_DIR", str(tmp_path))
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def save(n: int) -> None:
        pk = apt.KernelPackages(f"board{n}", f"6.1.0-{n}", "image", "headers", (), {})
        start.wait()
        try:
            for _ in range(25):
                apt._save_resolved(pk, "lists")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    data = json.loads((tmp_path / "cache" / "resolved.json").read_text())
    assert sorted(data) == [f"board{n}" for n in range(8)]
    assert not list((tmp_path / "cache").glob("resolved.json.tmp*"))
