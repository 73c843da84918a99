# SPDX-License-Identifier: GPL-2.0-only
"""`python3 -m rig.lava run` runs a job again when it failed for LAVA's own
reason (no boot, no login, a dispatcher that could not end the job), never
when a bench failed, and keeps each failed attempt's log."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from lava_helpers import log_lines, write_log

from rig.lava import __main__ as cli
from rig.lava import job as lava

JOB_ERROR = {"case": "job", "definition": "lava", "error_type": "Job", "result": "fail",
             "error_msg": "auto-login-action timed out after 97 seconds"}


def result_line(msg: dict[str, object]) -> str:
    return json.dumps({"dt": "2026-11-24T08:26:09.6", "lvl": "results", "msg": msg})


def test_the_captured_passing_log_has_no_lava_error(tmp_path: Path) -> None:
    assert lava.lava_error(write_log(tmp_path, log_lines())) is None


@pytest.mark.parametrize("kind", ["Infrastructure", "Job", "Bug"])
def test_lava_own_errors_are_named(tmp_path: Path, kind: str) -> None:
    log = write_log(tmp_path, [*log_lines(), result_line({**JOB_ERROR, "error_type": kind})])
    assert lava.lava_error(log) == f"{kind}: auto-login-action timed out after 97 seconds"


def test_a_test_error_is_not_lava_s(tmp_path: Path) -> None:
    log = write_log(tmp_path, [*log_lines(), result_line({**JOB_ERROR, "error_type": "Test"})])
    assert lava.lava_error(log) is None
    assert lava.lava_error(tmp_path / "missing.log") is None


def run_args(out: Path, retries: int) -> argparse.Namespace:
    return cli.parser().parse_args(["run", "--out", str(out), "--retries", str(retries)])


def fake_lava_run(outcomes: list[tuple[int, str | None]], calls: list[str]):  # type: ignore[no-untyped-def]
    """lava_run's stand-in: each call writes a log ending with the next outcome."""

    def run(job: str, device: str, out: Path, *, job_id: str, timeout: float) -> int:
        status, kind = outcomes[len(calls)]
        calls.append(job_id)
        lines = log_lines()
        if kind is not None:
            lines = [*lines, result_line({**JOB_ERROR, "error_type": kind})]
        out.mkdir(parents=True, exist_ok=True)
        write_log(out, lines)
        return status

    return run


@pytest.mark.parametrize(("outcomes", "retries", "want_calls", "want_status"), [
    ([(1, "Job"), (0, None)], 1, 2, 0),              # no login the first time: again, passes
    ([(1, "Infrastructure"), (1, "Bug")], 1, 2, 1),  # LAVA's twice: gives up after one retry
    ([(1, "Test"), (0, None)], 1, 1, 1),             # a failed bench: never again
    ([(1, "Job"), (0, None)], 0, 1, 1),              # --retries 0
])  # fmt: skip
def test_run_again_only_for_lava_s_own_failures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcomes: list[tuple[int, str | None]],
        retries: int, want_calls: int, want_status: int) -> None:  # fmt: skip
    calls: list[str] = []
    monkeypatch.setattr(lava, "lava_run", fake_lava_run(outcomes, calls))
    # the retries alone: no lab image (build/static, a Debian kernel) behind the job
    monkeypatch.setattr(lava, "render_job", lambda spec: "job")
    monkeypatch.setattr(lava, "render_device", lambda d: "device")
    out = tmp_path / "out"
    assert cli.cmd_run(run_args(out, retries)) == want_status
    assert len(calls) == want_calls and len(set(calls)) == want_calls, calls  # a new job id each
    kept = sorted(p.name for p in out.glob("lava-attempt*.log"))
    assert kept == [f"lava-attempt{k}.log" for k in range(1, want_calls)]
