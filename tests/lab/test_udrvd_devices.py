# SPDX-License-Identifier: GPL-2.0-only
"""udrvd hands one UIO device and one VFIO device to the user its policy
names (io.udrv1.Devices), on real kernels: the q35 board (Intel IOMMU,
vfio-pci, edu, uio-ticker) with the Python image variant's D-Bus and udrvd
(q35_py_board: std-q35 and rt-q35).

The device nodes are root's, mode 0600, as devtmpfs makes them: the user
cannot open them itself (seen first), yet through udrvd's fds it waits for
uio-ticker's interrupts, and reads and writes edu's registers and maps DMA
memory through the VFIO container (tests/daemon/client.c, which takes the
fds with udrv_uio_open_fd() and udrv_vfio_open_fds()). A user without a
rule is refused, the rule named. udrvd keeps nothing open: once the client
has exited, root opens the same VFIO group, which VFIO gives one process at a
time.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator

import pytest
from guest import Udrv, as_user, guest_users, sh
from test_vfio_edu import EDU, bind, driver

from rig.lab import Board
from rig.lab.brokers import BUS, POLICY, STATE, Broker
from rig.lab.image import dbusguest

pytestmark = [pytest.mark.skipif(dbusguest.missing() is not None,
                                 reason=str(dbusguest.missing())),
              pytest.mark.lg_feature(["udrvd", "uio-ticker", "iommu", "edu"])]  # fmt: skip

MEMBER, OUTSIDER = "udrvuser", "otheruser"
UIDS = {MEMBER: 1100, OUTSIDER: 1101}
RULES = f"allow user:{MEMBER} open uio uio-ticker\nallow user:{MEMBER} open vfio {EDU}\n"
TICKER_MAGIC = 0x314B5455  # UIO_TICKER_MAGIC (rig/kernel/include/uapi/udrv/uio-ticker.h)
EDU_IDENT = 0x010000ED  # edu's identification register (BAR 0, 0x00): version 1.0
PERIOD_US = 1000


@pytest.fixture
def broker(q35_py_board: Board) -> Iterator[Broker]:
    """Two users (no groups but their own), udrvd with RULES, the ticker
    ticking and edu 00:01.0 on vfio-pci; afterwards all of it undone."""
    b = q35_py_board
    b.put_bytes(RULES.encode(), POLICY)
    assert sh(b, f"mkdir -p /var/lib/udrvd && rm -f {STATE}").status == 0
    ticker = json.loads(sh(b, "udrv uio info --json uio-ticker").stdout)[0]["device"]
    period = f"/sys/class/uio/{ticker}/device/period_us"
    assert sh(b, f"echo {PERIOD_US} > {period}").status == 0
    bind(b, EDU, "vfio-pci")
    udrvd = Broker(b, "udrvd")
    try:
        with guest_users(b, UIDS):
            yield udrvd.start()
    finally:
        udrvd.stop()
        sh(b, f"echo 0 > {period}")
        if driver(b, EDU) != "uio_pci_generic":
            bind(b, EDU, "uio_pci_generic")


def client(board: Board, user: str, *args: str) -> Udrv:
    """tests/daemon/client.c's job @args run by @user, on udrvd's bus."""
    return as_user(board, user, shlex.join([dbusguest.GUEST_CLIENT, *args]),
                   env=f"DBUS_SYSTEM_BUS_ADDRESS={BUS}")


def test_uio_through_udrvd(broker: Broker) -> None:
    b = broker.board
    # the node is root's: the user cannot open it itself
    own = as_user(b, MEMBER, "udrv uio wait -n 1 --timeout 1s uio-ticker")
    assert own.status == 1 and "Permission denied" in own.stderr, own
    r = client(b, MEMBER, "uio", "uio-ticker", "5")
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    assert re.fullmatch(rf"uio uio\d+ uio-ticker 0x{TICKER_MAGIC:08x}\nirqs 5\n", r.stdout), r
    refused = client(b, OUTSIDER, "uio", "uio-ticker")
    assert refused.status == 1
    assert f"AccessDenied: the policy refuses uid {UIDS[OUTSIDER]} (gid " in refused.stderr
    # the device as the node udrvd opened names it: uioN, its name, its parent
    # (the platform device uio-ticker registers)
    assert re.search(r"'open' on uio device uio\d+ \(uio-ticker at uio-ticker\); no rule in "
                     r"/etc/udrv/udrvd\.conf names the caller for such devices",
                     refused.stderr), refused.stderr  # fmt: skip


def test_vfio_through_udrvd(broker: Broker) -> None:
    b = broker.board
    own = as_user(b, MEMBER, f"udrv pci peek {EDU} 0x0")
    assert own.status == 1 and "Permission denied" in own.stderr, own
    r = client(b, MEMBER, "vfio", EDU)
    assert r.status == 0, f"{r.stderr}\nudrvd: {broker.log()}"
    lines = r.stdout.splitlines()
    assert re.fullmatch(rf"vfio {EDU} 1234:11e8 \d+", lines[0]), r.stdout
    assert lines[1:3] == [f"bar0 0x{EDU_IDENT:08x}", "liveness 0xedcba987"], r.stdout
    assert re.fullmatch(r"dma iova 0x[0-9a-f]+", lines[3]), r.stdout
    # udrvd kept nothing: the group, one process's at a time, is free for root
    peek = sh(b, f"udrv pci peek --json {EDU} 0x0")
    assert peek.status == 0 and peek.json()[0]["value"] == EDU_IDENT, peek
    refused = client(b, OUTSIDER, "vfio", EDU)
    assert refused.status == 1
    assert f"'open' on vfio device {EDU}; no rule" in refused.stderr, refused.stderr
