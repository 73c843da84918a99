#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The responder's priority tests can fail (TAP): test_responder built with
each mutant of lib/responder/responder_priv.h (UDRV_RESPONDER_MUTANT) must fail the
tests that guard against that bug, and say why.

    responder_mutants.py MUTANT1 MUTANT2 MUTANT3   (the executables, in order)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

# mutant number -> (what it breaks, tests that must fail, words in their output)
EXPECT = {
    1: ("its own priority set before the threads are raised, the threads put back first",
        ["test_run_raises_and_restores", "test_run_signal_restores"],
        "fake_sched_inversions == "),
    2: ("the threads never put back",
        ["test_run_raises_and_restores", "test_run_error_restores",
         "test_run_signal_restores", "test_warm_up"],
        "prio == 81, expected want_prio == 50"),
    3: ("the threads raised just below the caller",
        ["test_run_raises_and_restores", "test_run_error_restores"],
        "s.inverted == "),
}  # fmt: skip


def run(exe: str) -> tuple[dict[str, bool], str]:
    # a cross build runs its tests under the cross file's exe_wrapper
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", ""))
    res = subprocess.run([*wrapper, exe], capture_output=True, text=True, timeout=100, check=False)
    results = {m.group(2): m.group(1) is None
               for m in re.finditer(r"^(not )?ok \d+ - (\w+)$", res.stdout, re.MULTILINE)}
    return results, res.stdout


def caught(n: int, name: str, what: str, ran: tuple[dict[str, bool], str],
           tests: list[str], words: str) -> bool:
    """TAP line @n for mutant @name, which breaks @what: caught when every one
    of @tests failed in @ran (run()'s) and its output says @words; if not,
    the tests that did fail and the whole output as comments."""
    results, out = ran
    ok = [t for t in tests if results.get(t) is False] == tests and words in out
    if not ok:
        print(f"# {name} ({what}): the tests that fail: "
              f"{sorted(t for t, good in results.items() if not good)}; "
              f"expected at least {tests} saying '{words}'")
        print("".join(f"#   {line}\n" for line in out.splitlines()), end="")
    print(f"{'' if ok else 'not '}ok {n} - {name}: {what}: caught")
    return ok


def main() -> int:
    exes = sys.argv[1:]
    print(f"1..{len(exes)}")
    failed = 0
    for i, exe in enumerate(exes, 1):
        what, tests, words = EXPECT[i]
        ran = run(exe)
        if "skipped: this process may not use SCHED_FIFO" in ran[1]:
            print(f"ok {i} - mutant {i} # SKIP no SCHED_FIFO here")
            continue
        failed += not caught(i, f"mutant {i}", what, ran, tests, words)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
