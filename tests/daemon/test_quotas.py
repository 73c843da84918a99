# SPDX-License-Identifier: GPL-2.0-only
"""udrvd's per-user request quota (udrvd(8), LIMITS): it holds at most 256
requests for one uid; one more is refused with LimitsExceeded naming the
quota, while another user still requests, and a release makes room. (The
per-user watcher quota and a line's 64 watchers: test_edge_events.py.)"""

from __future__ import annotations

from pathlib import Path

from tests.daemon.conftest import chip_file, serving
from tests.support.fakes import FakeTree

CHIP2, CHIP3 = "/io/gpiod1/chips/gpiochip2", "/io/gpiod1/chips/gpiochip3"
ALICE, BOB = 1, 2
QUOTA = 256


def test_a_user_over_its_request_quota_is_refused(udrvd_bin: Path, fake_cdev: Path, bus: str,
                                                  tree: FakeTree, tmp_path: Path,
                                                  client: Path) -> None:  # fmt: skip
    # the quota counts requests on every chip: 250 on fake-c, 6 on fake-d
    chip_file(tree, 2, "fake-c", [""] * 250)
    chip_file(tree, 3, "fake-d", [""] * 10)
    policy = "allow uid:1 drive gpio * *\nallow uid:2 drive gpio * *\n"
    with serving(udrvd_bin, fake_cdev, bus, tree, tmp_path, policy) as d:
        for chip, n in ((CHIP2, 250), (CHIP3, QUOTA - 250)):
            res = d.run_as([str(client), "requests", chip, "0", str(n)], uid=ALICE)
            assert (res.returncode, res.stdout) == (0, f"requested {n}\n"), res.stderr
        res = d.run_as([str(client), "requests", CHIP3, "6", "1"], uid=ALICE)
        assert res.returncode == 1 and res.stdout == "requested 0\n", res.stdout
        assert "LimitsExceeded: uid 1 holds 256 requests, the per-user request quota (256): " \
            "release one first" in res.stderr, res.stderr
        assert not d.lines(3)[6].used
        # another user is not counted with alice
        res = d.run_as([str(client), "requests", CHIP3, "7", "1"], uid=BOB)
        assert res.returncode == 0, res.stderr
        # a release makes room: the first request (request0) is alice's line 0
        res = d.call("/io/gpiod1/requests/request0", "io.gpiod1.Request.Release", uid=ALICE)
        assert res.returncode == 0, res.stderr
        res = d.run_as([str(client), "requests", CHIP3, "6", "1"], uid=ALICE)
        assert res.returncode == 0, res.stderr
        assert d.lines(3)[6].used
