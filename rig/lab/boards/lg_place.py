# SPDX-License-Identifier: GPL-2.0-only
"""Reserve and lock a labgrid target's place for the time of a run.

    with Place.of(env, "main", wait_s=600):     # nothing to do for a local target
        board = LabgridBoard(env=env, lg_target="main")
        ...

A target whose resources hold a RemotePlace lives on a coordinator
(`options: coordinator_address:` of the environment, else LG_COORDINATOR,
else labgrid's 127.0.0.1:20408).  The place is reserved through the
coordinator (`labgrid-client reserve name=PLACE`: the coordinator allocates
it when nobody holds it, in the order reservations came), then acquired with
that reservation's token, released and the reservation cancelled afterwards,
also on an error or Ctrl-C.  A place someone else holds is waited for, up to
`wait_s`, then PlaceBusy says who holds it; it is never taken from them.

labgrid's client runs as `python -m labgrid.remote.client` of the Python that
runs us (the lab's labgrid venv, build/lg-venv).  `python3 -m rig.lab lg-reserve
--lg-env FILE -- CMD` wraps any command (pytest --lg-env) in the same.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import LabError
from ..paths import REPO_ROOT
from .labgrid_board import LG_VENV, LabgridError, import_labgrid, load_environment

DEFAULT_COORDINATOR = "127.0.0.1:20408"
CLIENT_S = 60.0
WAIT_S = 600.0
NOTE_EVERY_S = 30.0


class PlaceBusy(LabError):
    """The place stayed held by someone else for the whole wait."""


class PlaceError(LabError):
    """The coordinator, the place or its resources cannot be used."""


def remote_place(env: Any, lg_target: str) -> str | None:
    """The name of the RemotePlace among the target's resources, or None."""
    import_labgrid()
    factory = importlib.import_module("labgrid.factory").target_factory
    conf = env.config.get_targets().get(lg_target) or {}
    resources, _ = factory.normalize_config(conf)
    names = list(resources.get("RemotePlace", {}))
    if len(names) > 1:
        raise PlaceError(f"target {lg_target!r} has {len(names)} RemotePlaces "
                         f"({', '.join(names)}); the lab reserves one")  # fmt: skip
    return names[0] if names else None


def coordinator_of(env: Any) -> str:
    default = os.environ.get("LG_COORDINATOR", DEFAULT_COORDINATOR)
    return str(env.config.get_option("coordinator_address", default))


def client_env() -> dict[str, str]:
    """The environment for labgrid-client: without LG_ENV / LG_PLACE / LG_TOKEN,
    which it would read (and check our place against) besides -x and -p."""
    return {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "LG_PLACE", "LG_TOKEN")}


def client(address: str, *args: str, timeout: float = CLIENT_S) -> str:
    """labgrid-client -x ADDRESS ARGS...: its stdout, or PlaceError in its words."""
    cmd = [sys.executable, "-m", "labgrid.remote.client", "-x", address, *args]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False,
                           env=client_env())  # fmt: skip
    except subprocess.TimeoutExpired:
        raise PlaceError(f"labgrid-client {' '.join(args)}: no answer from the coordinator "
                         f"{address} within {timeout:.0f}s") from None  # fmt: skip
    if r.returncode != 0:
        why = (r.stderr or r.stdout).strip().splitlines()
        text = why[-1] if why else f"exit {r.returncode}"
        if "onnect" in text or "UNAVAILABLE" in text:
            text += f" (is labgrid-coordinator running at {address}?)"
        raise PlaceError(f"labgrid-client -x {address} {' '.join(args)}: {text}")
    return r.stdout


def holder(address: str, place: str) -> str | None:
    """Who holds the place ("host/user"), None when nobody; PlaceError when
    the coordinator has no such place."""
    try:
        out = client(address, "-p", place, "show")
    except PlaceError as exc:
        if "matches nothing" not in str(exc):
            raise
        raise PlaceError(f"the coordinator {address} has no place {place!r} "
                         f"(labgrid-client -x {address} places)") from None
    m = re.search(r"^\s*acquired: (.+)$", out, re.MULTILINE)
    who = m[1].strip() if m else "None"
    return None if who == "None" else who


class Place:
    """A reservation of one place, acquired (module docstring)."""

    def __init__(self, address: str, name: str, wait_s: float = WAIT_S, quiet: bool = False):
        self.address = address
        self.name = name
        self.wait_s = wait_s
        self.quiet = quiet
        self.token = ""
        self.acquired = False
        self.waited_s = 0.0

    @staticmethod
    @contextmanager
    def of(env: Any, lg_target: str, wait_s: float = WAIT_S,
           quiet: bool = False) -> Iterator[Place | None]:  # fmt: skip
        """Hold the target's place for the block (None for a local target)."""
        name = remote_place(env, lg_target)
        if name is None:
            yield None
            return
        place = Place(coordinator_of(env), name, wait_s, quiet)
        place.take()
        try:
            yield place
        finally:
            place.give_back()

    def _say(self, text: str) -> None:
        if not self.quiet:
            print(f"lab: place {self.name}: {text}", file=sys.stderr, flush=True)

    def take(self) -> None:
        """Reserve, wait for the allocation (up to wait_s), acquire."""
        who = holder(self.address, self.name)  # also: does the place exist?
        out = client(self.address, "reserve", "--shell", f"name={self.name}")
        m = re.search(r"LG_TOKEN=([A-Za-z0-9]+)", out)
        if not m:
            raise PlaceError(f"labgrid-client reserve gave no token: {out.strip()!r}")
        self.token = m[1]
        try:
            if who is not None:
                self._say(f"held by {who}; waiting up to {self.wait_s:.0f}s "
                          f"(reservation {self.token})")  # fmt: skip
            self._wait()
            try:
                acquire(lambda: client(self.address, "-p", f"+{self.token}", "acquire"),
                        self._say)  # fmt: skip
            except PlaceError as exc:
                if "no matching remote resource" in str(exc):
                    raise PlaceError(f"place {self.name}: its resources are not on the "
                                     f"coordinator {self.address}; is its exporter running? "
                                     f"(labgrid-client -x {self.address} resources)\n{exc}") \
                        from None  # fmt: skip
                raise
            self.acquired = True
            self._say(f"acquired (coordinator {self.address}, reservation {self.token})")
        except BaseException:
            self.give_back()
            raise

    def _wait(self) -> None:
        """Until the coordinator allocates the reservation, or PlaceBusy."""
        t0 = time.monotonic()
        cmd = [sys.executable, "-m", "labgrid.remote.client", "-x", self.address, "wait",
               self.token]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=client_env())  # fmt: skip
        try:
            while True:
                left = self.wait_s - (time.monotonic() - t0)
                try:
                    _, err = proc.communicate(timeout=max(0.0, min(NOTE_EVERY_S, left)))
                    break
                except subprocess.TimeoutExpired:
                    pass
                if time.monotonic() - t0 >= self.wait_s:
                    who = holder(self.address, self.name) or "nobody now (a reservation ahead)"
                    raise PlaceBusy(
                        f"place {self.name} on {self.address} is held by {who}: waited "
                        f"{self.wait_s:.0f}s for it and gave up without taking it. Try again "
                        f"later, wait longer (--lg-wait), or ask its holder to release it "
                        f"(labgrid-client -x {self.address} -p {self.name} release)")
                self._say(f"still waiting ({time.monotonic() - t0:.0f}s)")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.waited_s = time.monotonic() - t0
        if proc.returncode != 0:
            raise PlaceError(f"labgrid-client wait {self.token}: "
                             f"{err.decode(errors='replace').strip()}")  # fmt: skip

    def give_back(self) -> None:
        """Release the place if we acquired it and cancel the reservation;
        errors here are reported, not raised (the run's own outcome counts)."""
        steps = []
        if self.acquired:
            steps.append(("-p", f"+{self.token}", "release"))
        if self.token:
            steps.append(("cancel-reservation", self.token))
        for step in steps:
            try:
                client(self.address, *step)
            except LabError as exc:
                print(f"lab: place {self.name}: {exc}", file=sys.stderr)
        if self.acquired:
            self._say("released")
        self.acquired = False
        self.token = ""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


# The exporter starts ser2net when a place is acquired and must answer the
# coordinator within its 10 s; on a host whose cores are busy (boards under
# TCG) the first start can miss that, and the coordinator refuses the acquire
# with this message.  The place is not held by anyone then: try again.
ACQUIRE_TRIES = 3
ACQUIRE_REFUSED = "Failed to acquire resources"


def acquire(call: Callable[[], object], say: Callable[[str], None]) -> None:
    """`call` (a labgrid-client acquire), again after 2 s when the exporter
    did not get the resources ready in time (ACQUIRE_REFUSED)."""
    for attempt in range(1, ACQUIRE_TRIES + 1):
        try:
            call()
            return
        except LabError as exc:
            if ACQUIRE_REFUSED not in str(exc) or attempt == ACQUIRE_TRIES:
                raise
            say(f"the exporter did not get the resources ready in time (attempt {attempt} "
                f"of {ACQUIRE_TRIES}); trying again")  # fmt: skip
            time.sleep(2)


def on_signals_stop() -> None:
    """SIGTERM and SIGHUP end the run as Ctrl-C does: the with blocks release
    the place and stop what was started."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _interrupt)


def ensure_labgrid() -> None:
    """Run again under the lab's labgrid venv when this Python has no labgrid
    (`python3 -m rig.lab suite --lg-env ...` works from any Python); else
    LabgridError saying how to get it."""
    try:
        import_labgrid()
    except LabgridError:
        python = LG_VENV / "bin" / "python"
        if not python.is_file() or not sys.argv[0].endswith("__main__.py"):
            raise
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT),
                                                         env.get("PYTHONPATH")) if p)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(python, [str(python), "-m", "rig.lab", *sys.argv[1:]], env)


def reserve_and_run(env_file: str | Path, lg_target: str, wait_s: float, command: list[str]) -> int:
    """`python3 -m rig.lab lg-reserve`: hold the target's place while COMMAND runs
    (with LG_ENV set to the environment); COMMAND's exit status."""
    env = load_environment(env_file)
    if remote_place(env, lg_target) is None:
        raise PlaceError(f"target {lg_target!r} of {env_file} has no RemotePlace: "
                         "nothing to reserve")
    on_signals_stop()
    with Place.of(env, lg_target, wait_s):
        run_env = {**os.environ, "LG_ENV": str(env_file)}
        return subprocess.run(command, env=run_env, check=False).returncode


def cmd_lg_reserve(args: argparse.Namespace) -> int:
    ensure_labgrid()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise LabError("no command given: python3 -m rig.lab lg-reserve --lg-env FILE -- CMD...")
    return reserve_and_run(args.lg_env, args.lg_target, args.lg_wait, command)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`python3 -m rig.lab lg-reserve`."""
    r = sub.add_parser(
        "lg-reserve", help="hold a labgrid target's place while a command runs",
        description="Reserve the RemotePlace of the environment's target through its "
        "coordinator, wait for it (a place someone else holds is waited for, never taken), "
        "acquire it, run CMD (LG_ENV set to the environment), release it and cancel the "
        "reservation, also on Ctrl-C; exit with CMD's status. For `pytest --lg-env`, which "
        "expects the place acquired.",
        epilog="example:\n  python3 -m rig.lab lg-reserve --lg-env remote.yaml -- \\\n"
        "      build/lg-venv/bin/python -m pytest --lg-env remote.yaml tests/lab",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    r.add_argument("--lg-env", required=True, metavar="FILE", help="the labgrid environment")
    r.add_argument("--target", dest="lg_target", default="main", help="its target (default main)")
    r.add_argument("--lg-wait", type=float, default=WAIT_S, metavar="S",
                   help=f"wait up to S seconds for the place (default {WAIT_S:.0f})")
    r.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD...")
    r.set_defaults(func=cmd_lg_reserve)
