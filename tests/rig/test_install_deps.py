# SPDX-License-Identifier: GPL-2.0-only
"""scripts/install-deps' guard (issue 40): installing build dependencies
leaves no service enabled or running.

The guard runs a fake apt step (`install-deps --guard CMD`) on a root of its
own (UDRV_DEPS_ROOT, the guard's test root): the step does what a package's
maintainer scripts do on installation, with Debian's own tools where they
work on a root given by DPKG_ROOT:
  - enables a unit (deb-systemd-helper enable, as dh_installsystemd's
    postinst does) and an init script (update-rc.d NAME defaults);
  - starts the init script the way invoke-rc.d does: asks policy-rc.d
    (NAME start), runs the script when it says 0 or 104, not on 101.
The fake service is a `sleep` with a pid file in the root, stopped by each
test. Afterwards: no link the step made enables anything, the start was
refused, nothing runs, the policy-rc.d that was there (or none) is back byte
for byte, and a unit enabled before the install is still enabled. The same
step without the guard leaves all of that behind, and the same check says
so: the check can fail.

The real proof, Debian's packages in a fresh chroot, is scripts/install-deps-check.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "install-deps"

UNIT = "fakesvc.service"
INIT = "fakeinit"
WANTS = "etc/systemd/system/multi-user.target.wants"

UNIT_FILE = """[Unit]
Description=a service a package enables on installation
[Service]
ExecStart=/bin/sleep 600
[Install]
WantedBy=multi-user.target
"""

# An init script with an LSB header, running `sleep` with a pid file in the root.
INIT_SCRIPT = """#!/bin/sh
### BEGIN INIT INFO
# Provides:          fakeinit
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: a service a package starts on installation
### END INIT INFO
root=$(dirname "$(dirname "$(dirname "$(readlink -f "$0")")")")
pidfile=$root/run/fakeinit.pid
case "$1" in
start)
	sleep 600 </dev/null >/dev/null 2>&1 &
	echo $! >"$pidfile"
	echo started >>"$root/log"
	;;
status)
	[ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
	;;
stop)
	[ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	rm -f "$pidfile"
	echo stopped >>"$root/log"
	;;
esac
"""

# What apt's run of the packages' scripts does to services (see the module's
# docstring); FAKE_APT_STATUS: its exit status; FAKE_APT_TERM=1: install-deps
# is sent SIGTERM meanwhile (Ctrl-C, a killed make); FAKE_APT_FORCE=1: the
# service is started all the same (invoke-rc.d --force, or a script that runs
# its init script itself).
FAKE_APT = """#!/bin/sh
R=$FAKE_ROOT
export DPKG_ROOT="$R"
DPKG_MAINTSCRIPT_PACKAGE=fakesvc deb-systemd-helper enable fakesvc.service
update-rc.d fakeinit defaults
rc=0
"$R/usr/sbin/policy-rc.d" fakeinit start || rc=$?
echo "policy-rc.d fakeinit start: $rc" >>"$R/log"
case $rc in
0|104) "$R/etc/init.d/fakeinit" start ;;
*) if [ "${FAKE_APT_FORCE:-}" = 1 ]; then "$R/etc/init.d/fakeinit" start; fi ;;
esac
if [ "${FAKE_APT_TERM:-}" = 1 ]; then kill -TERM "$PPID"; fi
exit "${FAKE_APT_STATUS:-0}"
"""


def write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def running(root: Path) -> int | None:
    """The fake service's pid while it runs."""
    pidfile = root / "run" / "fakeinit.pid"
    if not pidfile.exists():
        return None
    pid = int(pidfile.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


@pytest.fixture
def root(tmp_path: Path):
    """A root holding a unit file, an init script, a unit enabled before the
    install, and a fake apt step (tmp_path/fake-apt); the fake service is
    stopped afterwards, whatever the test did."""
    r = tmp_path / "root"
    write(r / "lib/systemd/system" / UNIT, UNIT_FILE)
    write(r / "lib/systemd/system/oldsvc.service", UNIT_FILE.replace("a package enables", "old"))
    (r / WANTS).mkdir(parents=True)
    (r / WANTS / "oldsvc.service").symlink_to("/lib/systemd/system/oldsvc.service")
    write(r / "etc/init.d" / INIT, INIT_SCRIPT, 0o755)
    (r / "run").mkdir()
    write(tmp_path / "fake-apt", FAKE_APT, 0o755)
    yield r
    pid = running(r)
    if pid:
        os.kill(pid, signal.SIGTERM)


def deps(root: Path, *cmd: str, **env: str) -> subprocess.CompletedProcess[str]:
    """scripts/install-deps --guard CMD on @root."""
    return subprocess.run(["sh", str(SCRIPT), "--guard", *cmd],
                          env={**os.environ, "UDRV_DEPS_ROOT": str(root),
                               "FAKE_ROOT": str(root), **env},
                          capture_output=True, text=True, timeout=120, check=False)


def leftovers(root: Path) -> list[str]:
    """What the install left: enabling links it made, a start the policy
    allowed, the service running; the unit enabled before must stay."""
    found = []
    if (root / WANTS / UNIT).is_symlink():
        found.append(f"{WANTS}/{UNIT} enables {UNIT}")
    for rc in sorted(root.glob(f"etc/rc?.d/S*{INIT}")):
        found.append(f"{rc.relative_to(root)} enables {INIT}")
    log = (root / "log").read_text() if (root / "log").exists() else ""
    if "policy-rc.d fakeinit start: 101" not in log:
        found.append(f"the start was not refused: {log!r}")
    if running(root):
        found.append(f"{INIT} runs")
    if not (root / WANTS / "oldsvc.service").is_symlink():
        found.append("oldsvc.service, enabled before, was disabled")
    return found


@pytest.mark.parametrize("before", ["exit 0\n", "exit 101\n", None],
                         ids=["permissive", "docker's", "none"])
def test_guard_leaves_no_service(root: Path, before: str | None) -> None:
    """The install under the guard: nothing enabled or running afterwards,
    the policy-rc.d that was there (a permissive one, a container's, none)
    back as it was, and the output says what was disabled."""
    policy = root / "usr/sbin/policy-rc.d"
    if before is not None:
        write(policy, "#!/bin/sh\n" + before, 0o750)
    res = deps(root, str(root.parent / "fake-apt"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert leftovers(root) == []
    if before is None:
        assert not policy.exists() and not policy.is_symlink()
    else:
        assert policy.read_text() == "#!/bin/sh\n" + before
        assert stat.S_IMODE(policy.stat().st_mode) == 0o750
    assert not (root / "usr/sbin/policy-rc.d.udrv-saved").exists()
    assert f"{UNIT} was enabled by its package: disabled again" in res.stdout
    assert f"init script {INIT} was enabled by its package: disabled again" in res.stdout
    # disabled as an administrator disables: the stop links stay, and
    # deb-systemd-helper's record says the unit was disabled (an upgrade
    # keeps it so)
    assert sorted(p.name for p in root.glob("etc/rc?.d/K*")) == [f"K01{INIT}"] * 7
    assert (root / "var/lib/systemd/deb-systemd-helper-enabled" / f"{UNIT}.dsh-also").exists()


def test_without_the_guard_the_check_fails(root: Path) -> None:
    """The break on purpose: the same step without the guard, with a
    permissive policy-rc.d (a machine where starts happen) leaves the
    links and a running service, and leftovers() names each."""
    write(root / "usr/sbin/policy-rc.d", "#!/bin/sh\nexit 0\n", 0o755)
    subprocess.run([str(root.parent / "fake-apt")], env={**os.environ, "FAKE_ROOT": str(root)},
                   check=True, capture_output=True, timeout=120)
    found = leftovers(root)
    assert f"{WANTS}/{UNIT} enables {UNIT}" in found
    assert f"etc/rc2.d/S01{INIT} enables {INIT}" in found
    assert f"{INIT} runs" in found
    assert any(f.startswith("the start was not refused") for f in found)


def test_guard_stops_what_started_anyway(root: Path) -> None:
    """A package that starts its service past policy-rc.d: the guard stops
    it, as its init script's status said it runs, and says so."""
    res = deps(root, str(root.parent / "fake-apt"), FAKE_APT_FORCE="1")
    assert res.returncode == 0, res.stdout + res.stderr
    assert leftovers(root) == []
    assert (root / "log").read_text().splitlines()[1:] == ["started", "stopped"]
    assert f"init script {INIT} says it runs (its status exits 0): stopped" in res.stdout


def test_guard_on_failure_and_interrupt(root: Path) -> None:
    """apt failing: its status comes out, and the guard still undid the
    services and put policy-rc.d back; install-deps sent SIGTERM while apt
    runs: the same (the trap), and it exits 143."""
    policy = root / "usr/sbin/policy-rc.d"
    write(policy, "#!/bin/sh\nexit 0\n", 0o755)
    res = deps(root, str(root.parent / "fake-apt"), FAKE_APT_STATUS="3")
    assert res.returncode == 3, res.stdout + res.stderr
    assert leftovers(root) == []
    assert policy.read_text() == "#!/bin/sh\nexit 0\n"

    for rc in root.glob("etc/rc?.d/K01*"):
        rc.unlink()
    (root / "log").unlink()
    res = deps(root, str(root.parent / "fake-apt"), FAKE_APT_TERM="1")
    assert res.returncode == 143, res.stdout + res.stderr
    assert leftovers(root) == []
    assert policy.read_text() == "#!/bin/sh\nexit 0\n"


def test_guard_puts_back_what_a_killed_run_left(root: Path) -> None:
    """A run killed outright (SIGKILL: no trap) leaves its refusing policy-rc.d
    and the saved one: the next run puts the saved one back."""
    sbin = root / "usr/sbin"
    write(sbin / "policy-rc.d.udrv-saved", "#!/bin/sh\nexit 0\n", 0o755)
    write(sbin / "policy-rc.d", "#!/bin/sh\n# udrv install-deps: no service starts while "
          "packages install (scripts/install-deps)\nexit 101\n", 0o755)
    res = deps(root, "true")
    assert res.returncode == 0, res.stdout + res.stderr
    assert (sbin / "policy-rc.d").read_text() == "#!/bin/sh\nexit 0\n"
    assert not (sbin / "policy-rc.d.udrv-saved").exists()


def profile(*args: str) -> subprocess.CompletedProcess[str]:
    """scripts/install-deps with @args (apt never runs: --packages, or a bad argument)."""
    return subprocess.run(["sh", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip


def packages(*args: str) -> list[str]:
    res = profile(*args, "--packages")
    assert res.returncode == 0, res.stderr
    return res.stdout.split()


# what the toolkit's build needs (meson.build: a C compiler and its libc, meson,
# ninja, pkg-config to find libsystemd for udrvd; the bindings: Python.h and a venv)
TOOLKIT = ["gcc", "libc6-dev", "make", "meson", "ninja-build", "pkg-config", "libsystemd-dev",
           "python3", "python3-dev", "python3-venv"]  # fmt: skip


def test_the_default_profile_is_the_toolkit() -> None:
    """Issue 41: the default installs what the toolkit needs, nothing of the
    rig's tests or the lab (the whole lab was 329 packages, 2 GB); --check adds
    make check's, --lab the lab's, each a superset of the one before."""
    toolkit = packages()
    assert sorted(toolkit) == sorted(TOOLKIT)
    check = packages("--check")
    lab = packages("--lab")
    assert set(toolkit) < set(check) < set(lab)
    for pkg in ("clang", "chromium", "valgrind", "python3-pytest", "dbus", "gcc-aarch64-linux-gnu"):
        assert pkg in check and pkg not in toolkit, pkg
    for pkg in ("qemu-system-x86", "qemu-system-arm", "lava-dispatcher", "ser2net", "rt-tests"):
        assert pkg in lab and pkg not in check, pkg
    assert packages("--toolkit") == toolkit


def test_make_targets_take_their_profile() -> None:
    """make deps the toolkit's, make check (and fuzz) --check, the lab's targets --lab."""
    res = subprocess.run(["make", "-C", str(REPO), "-n", "deps", "check", "lab-check", "lab",
                          "soak"], capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    cmds = [ln.strip() for ln in res.stdout.splitlines() if "install-deps" in ln]
    assert cmds == ["scripts/install-deps", "scripts/install-deps --check",
                    "scripts/install-deps --lab"], cmds  # fmt: skip


def test_bad_arguments_exit_2() -> None:
    for args in (["--bogus"], ["--lab", "extra"]):
        res = profile(*args)
        assert res.returncode == 2, res.stdout + res.stderr
        assert f"install-deps: unknown argument '{args[-1]}'" in res.stderr, res.stderr
        assert "usage: scripts/install-deps" in res.stderr
