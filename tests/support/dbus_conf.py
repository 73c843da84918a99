# SPDX-License-Identifier: GPL-2.0-only
"""The system bus configuration the udrvd tests run a private dbus-daemon with
(tests/daemon on the host, tests/lab/test_udrvd_lab.py in the guest)."""

from __future__ import annotations

import re
from pathlib import Path

DEBIAN_SYSTEM_CONF = Path("/usr/share/dbus-1/system.conf")


def system_bus_conf(listen: str, include: str | None) -> str:
    """Debian's own system bus configuration (deny by default: no name may be
    owned, no method called, but what a policy file allows), listening on
    @listen (a D-Bus address, "unix:path=..."), with @include as its only
    policy file; no user switch, pid file, syslog or service helper."""
    text = DEBIAN_SYSTEM_CONF.read_text()
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = re.sub(r"\s*<(user|pidfile|servicehelper)>[^<]*</\1>", "", text)
    text = re.sub(r"\s*<(fork|syslog|standard_system_servicedirs)/>", "", text)
    text = re.sub(r"\s*<include(dir)?\b[^>]*>[^<]*</include(dir)?>", "", text)
    text = re.sub(r"<listen>[^<]*</listen>", f"<listen>{listen}</listen>", text)
    if include:
        text = text.replace("</busconfig>", f"<include>{include}</include>\n</busconfig>")
    return text
