# SPDX-License-Identifier: GPL-2.0-only
"""The labgrid farm on localhost (rig/lab/farm.py) and the suite through its place.

A coordinator and an exporter on 127.0.0.1 and a std QEMU board whose console
is the exporter's serial port, started and stopped here: the suite reserves the
place and runs through it (rig/lab/suite/labgrid.py, rig/lab/boards/lg_place.py), the lab tests run
through it (pytest --lg-env), a place someone else holds is waited for and not
taken, a stopped exporter is a clear error, and nothing listens beyond loopback.

Runs under the lab's labgrid venv (make lab-check's labgrid step: build/lg-venv/bin/
python -m pytest tests/lab/test_labgrid_farm.py); elsewhere it is skipped.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rig.results.check import check_lab

pytest.importorskip("labgrid", reason="runs under build/lg-venv/bin/python (make lab-check's "
                    "labgrid step)")  # fmt: skip

from rig.lab.errors import ToolMissing
from rig.lab.farm import EXPORTER, Farm, FarmError

LAB_BOARD = "std"  # scripts/check.py's shards: the farm boots a std board of its own
pytestmark = pytest.mark.lg_feature("qemu")  # it boots QEMU itself: not on a labgrid target
REPO = Path(__file__).resolve().parents[2]
PLACE = "udrv-std"
OTHER = {"LG_USERNAME": "other", "LG_HOSTNAME": "elsewhere"}  # another client of the farm
LOOPBACK = ("127.0.0.1", "[::ffff:127.0.0.1]")


@pytest.fixture(scope="module")
def farm() -> Iterator[Farm]:
    with Farm(["std"], quiet=True) as f:
        yield f


def lab(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """python3 -m rig.lab ARGS (under the venv's python: it has labgrid)."""
    return subprocess.run([sys.executable, "-m", "rig.lab", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)  # fmt: skip


def suite(farm: Farm, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return lab("suite", "--lg-env", str(farm.env_file("std")), "--quick", "--out", str(out),
               *args)  # fmt: skip


def holder(farm: Farm) -> str:
    m = re.search(r"^\s*acquired: (.+)$", farm.client("-p", PLACE, "show"), re.MULTILINE)
    assert m, "labgrid-client show has no 'acquired:' line"
    return m[1].strip()


def listening(pids: set[int]) -> list[tuple[str, int]]:
    """(local address, pid) of the TCP sockets `pids` listen on (ss -ltnp)."""
    out = subprocess.run(["ss", "-Hltnp"], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        for pid in map(int, re.findall(r"pid=([0-9]+)", line)):
            if pid in pids:
                found.append((line.split()[3].rsplit(":", 1)[0], pid))
    return found


def group(leader: int) -> set[int]:
    """The processes of a process group (the exporter and its ser2net)."""
    pids = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.getpgid(int(d.name)) == leader:
                    pids.add(int(d.name))
            except ProcessLookupError:
                pass
    return pids


def test_the_place_and_only_loopback(farm: Farm) -> None:
    show = farm.client("-p", PLACE, "show")
    assert "board=std" in show and "kernel=std" in show and f"{EXPORTER}/{PLACE}/*" in show
    assert farm.client("resources").split() == [f"{EXPORTER}/{PLACE}/NetworkSerialPort"]
    farm.acquire(PLACE, env=OTHER)  # the exporter starts ser2net now
    try:
        assert farm.exporter is not None and farm.coordinator is not None
        pids = group(farm.exporter.pid) | {farm.coordinator.pid}
        socks = listening(pids)
        names = {Path(f"/proc/{pid}/comm").read_text().strip() for _, pid in socks}
        assert {"ser2net", "labgrid-coordin"} <= names, socks
        assert all(addr in LOOPBACK for addr, _ in socks), f"listening beyond loopback: {socks}"
    finally:
        farm.client("-p", PLACE, "release", env=OTHER)


def test_ser2net_wrapper_binds_loopback_and_refuses_what_it_does_not_know(
        farm: Farm, tmp_path: Path) -> None:  # fmt: skip
    """What the previous test's check sees: the real ser2net with the exporter's
    arguments listens on every address; the farm's wrapper on 127.0.0.1 only."""
    pty = farm.boards["std"].pty
    port = 20000 + os.getpid() % 20000
    args = ["-d", "-n", "-Y", f"connection: &con01#  accepter: telnet(rfc2217,mode=server),"
            f"tcp,{port}", "-Y", f"  connector: serialdev(nouucplock=true),{pty},115200n81,local"]
    wrapper = str(farm.workdir / "bin" / "ser2net")
    seen = {}
    for name, exe in (("wrapper", wrapper), ("real", "/usr/sbin/ser2net")):
        proc = subprocess.Popen([exe, *args], start_new_session=True)
        try:
            deadline = time.monotonic() + 10
            while not listening({proc.pid}) and time.monotonic() < deadline:
                time.sleep(0.1)
            seen[name] = {addr for addr, _ in listening({proc.pid})}
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
    assert seen["wrapper"] == {"127.0.0.1"}, seen
    assert seen["real"] and not seen["real"] <= set(LOOPBACK), seen  # "*" or 0.0.0.0
    odd = subprocess.run([wrapper, "-Y", "connection: &c#  accepter: tcp,2000"],
                         capture_output=True, text=True, timeout=10)  # fmt: skip
    assert odd.returncode != 0 and "refusing to listen beyond loopback" in odd.stderr


def test_suite_through_the_place(farm: Farm, tmp_path: Path) -> None:
    out = tmp_path / "farm.json"
    r = suite(farm, out, "--benches", "toggle,irq,uio,timer,kernel,gaps", "--loads", "none")
    assert r.returncode == 0, r.stderr[-3000:]
    assert f"place {PLACE}: acquired (coordinator {farm.address}" in r.stderr
    assert f"place {PLACE}: released" in r.stderr
    assert holder(farm) == "None", "the suite left the place acquired"
    assert "Reservation" not in farm.client("reservations"), "the reservation was not cancelled"
    doc = json.loads(out.read_text())
    check_lab(doc)
    plain = [run for run in doc["runs"] if "variant" not in run]
    assert [(run["board"], run["kernel"], run["load"]) for run in plain] == [("std", "std", "none")]
    assert [d["bench"] for d in plain[0]["documents"]] == ["toggle", "irq", "uio", "timer",
                                                           "kernel", "gaps"]  # fmt: skip
    assert [run.get("variant") for run in doc["runs"]] == [None, "rt-runtime -1"]
    lg = doc["labgrid"]
    assert (lg["place"], lg["coordinator"], lg["flavour"]) == (PLACE, farm.address, "std")
    assert lg["skipped"] == dict.fromkeys(("reply", "rate", "pci", "i2c", "spi", "pwm"),
                                          "not in --benches")
    for title in ("Toggle rate on the std board", "Latency min/avg/max", "Scheduler gaps"):
        assert title in r.stdout
    # udrv-report renders it beside a make lab run
    assert (tmp_path / "report.html").is_file(), "the suite wrote no report"
    cmp = subprocess.run([sys.executable, str(REPO / "rig" / "report" / "udrv-report"), "--quiet",
                          "--compare", str(out),
                          str(REPO / "tests" / "rig" / "report" / "fixtures" / "lab-quick-a.json"),
                          "-o", str(tmp_path / "compare.html")],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert cmp.returncode == 0, cmp.stderr


def test_lab_tests_through_the_place(farm: Farm) -> None:
    """pytest --lg-env on the farm's place, held by python3 -m rig.lab lg-reserve."""
    env = str(farm.env_file("std"))
    r = lab("lg-reserve", "--lg-env", env, "--", sys.executable, "-m", "pytest", "-q",
            "-p", "no:cacheprovider", "--lg-env", env, "tests/lab/test_lab_smoke.py",
            "tests/lab/test_gpio_cdev.py")  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    tally = r.stdout.strip().splitlines()[-1]
    assert re.search(r"\b[0-9]+ passed", tally) and "failed" not in tally, tally
    assert "skipped" in tally, f"the QEMU-only and rt tests should skip on this target: {tally}"
    assert holder(farm) == "None"


def release_when_reserved(farm: Farm, limit_s: float = 120) -> None:
    """The other holder releases the place once a reservation waits for it."""
    end = time.monotonic() + limit_s
    while "Reservation" not in farm.client("reservations") and time.monotonic() < end:
        time.sleep(0.2)
    farm.client("-p", PLACE, "release", env=OTHER)


def test_a_held_place_is_waited_for_and_not_taken(farm: Farm, tmp_path: Path) -> None:
    farm.acquire(PLACE, env=OTHER)
    try:
        t0 = time.monotonic()
        r = suite(farm, tmp_path / "busy.json", "--benches", "timer", "--loads", "none",
                  "--lg-wait", "3")  # fmt: skip
        took = time.monotonic() - t0
        assert r.returncode == 125, r.stderr
        assert "held by elsewhere/other" in r.stderr and "gave up without taking it" in r.stderr
        assert took >= 3, f"gave up after {took:.1f}s, before its --lg-wait"
        assert holder(farm) == "elsewhere/other", "the suite took the place from its holder"
        assert "Reservation" not in farm.client("reservations")
        # the holder lets go once the suite waits (its reservation is there,
        # whenever that is on a busy host): it gets the place then
        releaser = threading.Thread(target=release_when_reserved, args=(farm,))
        releaser.start()
        out = tmp_path / "waited.json"
        r = suite(farm, out, "--benches", "timer", "--loads", "none", "--lg-wait", "120")
        releaser.join()
        assert r.returncode == 0, r.stderr[-3000:]
        assert json.loads(out.read_text())["labgrid"]["waited_s"] > 0
    finally:
        if holder(farm) == "elsewhere/other":
            farm.client("-p", PLACE, "release", env=OTHER)


def during_a_bench(farm: Farm, out: Path, act: Callable[[subprocess.Popen[str]], None],
                   ) -> tuple[int, str, float]:  # fmt: skip
    """Start the suite (gaps, a few guest seconds), `act` once its bench runs;
    (exit status, stderr, seconds from `act` to the exit)."""
    cmd = [sys.executable, "-m", "rig.lab", "suite", "--lg-env", str(farm.env_file("std")),
           "--quick", "--benches", "gaps", "--loads", "none", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    assert proc.stderr is not None
    err, t0 = [], time.monotonic()
    try:
        for line in proc.stderr:
            err.append(line)
            if "udrv-bench gaps" in line:
                time.sleep(0.5)
                t0 = time.monotonic()
                act(proc)
                break
        err.append(proc.communicate(timeout=90)[1])
    finally:
        proc.kill()
    return proc.returncode, "".join(err), time.monotonic() - t0


def test_sigterm_during_a_bench_releases_the_place(farm: Farm, tmp_path: Path) -> None:
    """The suite killed politely mid-bench (SIGTERM, as a CI runner does) gives
    the place back and cancels its reservation."""
    status, err, took = during_a_bench(farm, tmp_path / "x.json",
                                       lambda p: p.send_signal(signal.SIGTERM))  # fmt: skip
    assert status == 130 and took < 30, err
    assert f"place {PLACE}: released" in err, err
    assert holder(farm) == "None" and "Reservation" not in farm.client("reservations")
    # the board is still usable: the next test's first suite runs a bench on it


def test_a_stopped_exporter_is_a_clear_error(farm: Farm, tmp_path: Path) -> None:
    """Mid-run: the console connection ends (BoardDead), seconds later, not a
    hang; before a run: the place's resources are missing. Last: the fixture's
    exporter is started again afterwards."""
    status, err, took = during_a_bench(farm, tmp_path / "x.json", lambda _: farm.stop_exporter())
    assert status == 1 and "the console connection ended" in err, err
    assert took < 30, f"{took:.0f}s to notice the stopped exporter"
    assert holder(farm) == "None"
    r = suite(farm, tmp_path / "y.json", "--benches", "timer", "--loads", "none")
    assert r.returncode == 125 and "is its exporter running?" in r.stderr, r.stderr
    assert holder(farm) == "None" and "Reservation" not in farm.client("reservations")
    farm.start_exporter()


def descendants(pid: int) -> set[int]:
    children: dict[int, set[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except (OSError, ValueError):
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, set()).add(int(d.name))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), ()):
            out.add(c)
            todo.append(c)
    return out


def foreground_ctrl_c() -> None:
    """In the child before exec: SIGINT as in a terminal's foreground job,
    also where these tests run with it ignored (a background job of a shell
    without job control): Python then raises KeyboardInterrupt on it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_farm_up_two_boards_then_ctrl_c(tmp_path: Path) -> None:
    """Two boards booting at once (each one's prompt reaches the farm, also the
    one printed while it waited for the other), then SIGINT stops everything."""
    env_dir = tmp_path / "envs"
    proc = subprocess.Popen([sys.executable, "-m", "rig.lab", "farm", "up",
                             "--env-dir", str(env_dir), "--board", "std", "--board", "rpi3"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=foreground_ctrl_c)
    assert proc.stdout is not None
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl-C stops the farm" in line:
                break
        assert (env_dir / "std.yaml").is_file() and (env_dir / "rpi3.yaml").is_file(), lines
        assert sum(line.startswith("place udrv-") for line in lines) == 2, lines
        kids = descendants(proc.pid)
        assert len(kids) >= 4, kids  # coordinator, exporter, two QEMUs
        m = re.search(r"logs and state: (\S+)", "".join(lines))
        assert m, "".join(lines)
        workdir = Path(m[1])
        assert workdir.is_dir()
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
    finally:
        proc.kill()
    assert proc.returncode == 130, proc.stderr.read() if proc.stderr else ""
    alive = [p for p in kids if Path(f"/proc/{p}").exists()]
    assert alive == [], f"left running after Ctrl-C: {alive}"
    assert not any(env_dir.iterdir()), "env files left behind"
    assert not workdir.exists(), f"{workdir} left behind"


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_farm_run_sigterm_stops_what_the_command_started(tmp_path: Path) -> None:
    """SIGTERM to `farm run` (a CI runner's timeout) ends the command's whole
    process group, background children too, not only its sh."""
    mark = tmp_path / "started"
    proc = subprocess.Popen([sys.executable, "-m", "rig.lab", "farm", "run", "--",
                             f"sleep 600 & sleep 601 & touch {mark}; wait"],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while not mark.exists():
            assert proc.poll() is None and time.monotonic() < deadline, \
                proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)
        sleeps = [p for p in descendants(proc.pid) if _cmdline(p).startswith(b"sleep\0")]
        assert len(sleeps) == 2, sleeps
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    finally:
        proc.kill()
    alive = [p for p in sleeps if _cmdline(p)]  # a zombie's cmdline is empty
    assert alive == [], f"the command's children outlived farm run: {alive}"


def test_farm_errors_before_booting(tmp_path: Path) -> None:
    with pytest.raises(ToolMissing, match="apt-get install ser2net"):
        Farm(["std"], ser2net=str(tmp_path / "no-ser2net"), quiet=True).start()
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        farm = Farm(["std"], port=taken, quiet=True)
        t0 = time.monotonic()
        with pytest.raises(FarmError, match="the port is taken"):
            farm.start()
    assert time.monotonic() - t0 < 30 and farm.boards == {}, "it booted before failing"
    assert not farm.workdir.exists()
