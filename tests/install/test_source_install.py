# SPDX-License-Identifier: GPL-2.0-only
"""The README's source install, staged (tests/install/staged.py): `make
PREFIX=/usr/local` as a user, then `make install PREFIX=/usr/local DESTDIR=...`
as root (issue 41, items 1 and 9): install builds nothing as root and leaves
nothing of root's in the build; in a checkout that is not root's, with no
build, it refuses and says what to run first; an older root-owned build is
named with the way out; an administrator's policy survives a new install.
Where the installed files are and what they serve: test_installed_files.py."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from tests.install.staged import PREFIX, USER, Install, make
from tests.support.udrv_runner import REPO

ALICE = 1


def owned_by_root(top: Path) -> list[str]:
    return [str(p) for p in [top, *top.rglob("*")] if p.lstat().st_uid == 0]


def test_install_builds_nothing_as_root(source_install: Install) -> None:
    out = source_install.out
    assert "Compiling" not in out and "Linking" not in out, out
    assert "Compiling C object" in source_install.built
    assert owned_by_root(source_install.build) == []


def users_checkout(tmp_path: Path) -> Path:
    """What make and make install run, in a checkout of USER's."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "daemon").mkdir()
    for rel in ("Makefile", "scripts/make-install", "daemon/udrvd.conf"):
        shutil.copy2(REPO / rel, checkout / rel)
    for p in [checkout, *checkout.rglob("*")]:
        os.chown(p, USER, USER)
    return checkout


def test_root_builds_nothing_in_a_users_checkout(tmp_path: Path) -> None:
    """A checkout of a user's with no release build: sudo make install refuses,
    names the command to run first, and creates nothing."""
    checkout = users_checkout(tmp_path)
    res = make("install", f"PREFIX={PREFIX}", f"DESTDIR={tmp_path / 'dest'}", cwd=checkout)
    assert res.returncode != 0, res.stdout
    assert "build/release is not built for PREFIX=/usr/local; as root it builds nothing" \
        in res.stderr, res.stderr  # fmt: skip
    assert "\n  make PREFIX=/usr/local\nthen: sudo make install PREFIX=/usr/local" \
        in res.stderr, res.stderr  # fmt: skip
    assert owned_by_root(checkout) == [] and not (tmp_path / "dest").exists()


def test_make_says_what_to_do_with_roots_old_build() -> None:
    """The build/release an older sudo make install left, root's: make says
    how to get rid of it."""
    with tempfile.TemporaryDirectory(prefix="udrv-install-") as tmp:
        os.chmod(tmp, 0o755)  # USER enters it (pytest's tmp_path is root's alone)
        checkout = users_checkout(Path(tmp))
        (checkout / "build" / "release").mkdir(parents=True)
        os.chown(checkout / "build", USER, USER)
        res = make(f"PREFIX={PREFIX}", uid=USER, cwd=checkout, home=checkout)
    assert res.returncode != 0, res.stdout
    assert "make: build/release is not yours (an older 'sudo make install' built it as root): " \
        "remove it (sudo rm -rf build/release), then make PREFIX=/usr/local" in res.stderr, \
        res.stderr  # fmt: skip


def test_a_policy_there_is_kept(source_install: Install) -> None:
    """make install again: the administrator's policy stays, and it says so."""
    policy = source_install.at("/etc/udrv/udrvd.conf")
    empty = policy.read_text()
    mine = empty + f"allow uid:{ALICE} read gpio fake-a LOCK\n"
    policy.write_text(mine)
    try:
        res = make("install", f"BUILD={source_install.build}", f"PREFIX={PREFIX}",
                   f"DESTDIR={source_install.dest}")  # fmt: skip
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
        assert policy.read_text() == mine
        assert f"make install: {policy}: kept yours" in res.stdout, res.stdout[-3000:]
    finally:
        policy.write_text(empty)
    assert owned_by_root(source_install.build) == []
