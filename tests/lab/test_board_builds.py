# SPDX-License-Identifier: GPL-2.0-only
"""A board without its static udrv build does not start: it says which build
is missing and the command that makes it (on a fresh machine every rpi3 test
used to fail with `udrv: not found`). Host only: nothing boots."""

from __future__ import annotations

import dataclasses

import pytest

from rig.lab.boards import targets
from rig.lab.errors import LabError
from rig.lab.image.prepare import prepare

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
