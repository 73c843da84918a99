# SPDX-License-Identifier: GPL-2.0-only
"""udrvd's unit (daemon/udrvd.service as meson builds it) is sandboxed to what
udrvd uses: systemd-analyze security --offline rates it 2.0 or less, its
device list is closed and names exactly the devices udrvd opens (GPIO chips,
UIO devices, VFIO's groups and container; not /dev/gpiomem, not
/dev/udrv-irq, which its gpio group would otherwise reach), and the settings
the security review asked for are there. The same check fails on a copy of
the unit without them, and on one whose device list allows more."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.daemon.conftest import BUILD
from tests.support.udrv_runner import required

MAX_EXPOSURE = 2.0
DEVICES = ["char-gpiochip rw", "char-uio rw", "char-vfio rw", "char-i2c rw", "char-spi rw",
           "/dev/vfio/vfio rw"]
SETTINGS = {
    "DevicePolicy": "closed", "User": "udrvd", "SupplementaryGroups": "gpio uio vfio i2c spi",
    "StateDirectory": "udrvd", "StateDirectoryMode": "0700", "UMask": "0077",
    "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes", "RestrictNamespaces": "yes",
    "RestrictAddressFamilies": "AF_UNIX", "PrivateNetwork": "yes",
    "SystemCallArchitectures": "native", "ProtectProc": "invisible",
}  # fmt: skip


def unit() -> Path:
    return required(BUILD / "daemon" / "udrvd.service", "the built unit")


def service_settings(text: str) -> dict[str, list[str]]:
    """The [Service] section's settings, each with every value it is given."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def exposure(path: Path) -> float:
    """systemd-analyze security --offline's overall exposure of @path."""
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze not found: install systemd (Debian 12's 252 rates units "
                    "offline)", pytrace=False)  # fmt: skip
    res = subprocess.run([exe, "security", "--offline=true", "--no-pager", str(path)],
                         capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", res.stdout)
    assert m, f"no exposure in systemd-analyze's output:\n{res.stdout}{res.stderr}"
    return float(m.group(1))


def findings(path: Path) -> list[str]:
    """What keeps @path from being udrvd's sandboxed unit; [] when nothing."""
    problems = []
    level = exposure(path)
    if level > MAX_EXPOSURE:
        problems.append(f"exposure {level} > {MAX_EXPOSURE}")
    s = service_settings(path.read_text())
    if sorted(s.get("DeviceAllow", [])) != sorted(DEVICES):
        problems.append(f"DeviceAllow= {s.get('DeviceAllow', [])}, not {DEVICES}")
    for key, want in SETTINGS.items():
        if s.get(key, [None])[-1] != want:
            problems.append(f"{key}={s.get(key, ['(unset)'])[-1]}, not {want!r}")
    if "@system-service" not in s.get("SystemCallFilter", []):
        problems.append("no SystemCallFilter=@system-service")
    return problems


def test_the_unit_is_sandboxed() -> None:
    assert findings(unit()) == []
    assert exposure(unit()) <= MAX_EXPOSURE


def test_a_unit_without_the_sandbox_fails_the_check(tmp_path: Path) -> None:
    """The unit as it was before: the same service, the same user and groups,
    without the sandbox: an exposure above 2.0, and each setting named."""
    keep = ("[", "Description=", "Documentation=", "After=", "Conflicts=", "Type=", "BusName=",
            "ExecStart=", "ExecReload=", "StateDirectory=", "User=", "SupplementaryGroups=",
            "NoNewPrivileges=", "ProtectSystem=", "ProtectHome=", "PrivateTmp=",
            "PrivateNetwork=", "RestrictAddressFamilies=", "CapabilityBoundingSet=",
            "WantedBy=")  # fmt: skip
    text = "\n".join(ln for ln in unit().read_text().splitlines() if ln.startswith(keep))
    copy = tmp_path / "udrvd.service"
    copy.write_text(text + "\n")
    got = findings(copy)
    assert any(p.startswith("exposure ") for p in got), got
    assert exposure(copy) > MAX_EXPOSURE
    for key in ("DeviceAllow=", "DevicePolicy=", "LockPersonality=", "MemoryDenyWriteExecute=",
                "RestrictNamespaces=", "UMask=", "StateDirectoryMode=",
                "no SystemCallFilter"):  # fmt: skip
        assert any(p.startswith(key) for p in got), (key, got)


@pytest.mark.parametrize("change", [
    ("DeviceAllow=char-uio rw", "DeviceAllow=char-uio rw\nDeviceAllow=char-misc rw"),
    ("DeviceAllow=char-uio rw", "DeviceAllow=char-uio rw\nDeviceAllow=/dev/gpiomem rw"),
    ("DevicePolicy=closed", "DevicePolicy=auto"),
])  # fmt: skip
def test_a_device_list_that_gives_more_fails_the_check(change: tuple[str, str],
                                                       tmp_path: Path) -> None:  # fmt: skip
    """The misc devices (udrv-irq is one) and gpiomem stay out."""
    text = unit().read_text()
    assert text.count(change[0]) == 1, change
    copy = tmp_path / "udrvd.service"
    copy.write_text(text.replace(change[0], change[1]))
    got = findings(copy)
    assert got and all(p.startswith(("DeviceAllow=", "DevicePolicy=")) for p in got), got
