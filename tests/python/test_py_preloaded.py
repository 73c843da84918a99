# SPDX-License-Identifier: GPL-2.0-only
"""tests/support/preloaded.py itself: a test that deadlocks in the child
Python fails, with the child's stacks, instead of make check waiting for
ever (a collection in gpiozero's reserve_pins() once hung it for the 90
minutes of CI)."""

from __future__ import annotations

import threading

import pytest

from tests.support import preloaded
from tests.support.preloaded import Child


def _answers(_child: object) -> None:  # run in the child
    pass


def _deadlocks(_child: object) -> None:  # run in the child
    lock = threading.Lock()
    lock.acquire()
    lock.acquire()


def test_a_deadlocked_test_fails_with_the_child_s_stacks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    child = Child([])
    try:
        child.run(__name__, "_answers", {})  # started, this module imported
        monkeypatch.setattr(preloaded, "HUNG_S", 1)
        with pytest.raises(pytest.fail.Exception) as failed:
            child.run(__name__, "_deadlocks", {})
        report = str(failed.value)
        assert report.startswith("the preloaded Python hung for 1 s in _deadlocks:"), report
        # faulthandler's dump on SIGABRT: the serving loop's stack at least
        assert "Fatal Python error: Aborted" in report and "in _serve" in report, report
        child.run(__name__, "_answers", {})  # a new child serves the next test
    finally:
        child.close()
