# SPDX-License-Identifier: GPL-2.0-only
"""The build backend of the top of udrv's tree (pyproject.toml), which holds no
Python package: `pip install .` here says where the package is, instead of
setuptools' guess at one ("Multiple top-level packages discovered"). Every
hook fails with the same message; pip shows it and exits 1."""

from __future__ import annotations

import sys
from typing import NoReturn

MESSAGE = """\
udrv: the top of this tree is the C project (meson, make), not a Python package.
The udrv Python package is bindings/python; install it into a venv (Debian's
pip refuses to install into the system's Python: externally-managed-environment):

    python3 -m venv ~/.venvs/udrv
    ~/.venvs/udrv/bin/pip install ./bindings/python

(README, "Install"; python3-venv and python3-dev: scripts/install-deps)"""


def _refuse(*_args: object, **_kwargs: object) -> NoReturn:
    print(MESSAGE, file=sys.stderr)
    raise SystemExit(1)


get_requires_for_build_wheel = _refuse
get_requires_for_build_sdist = _refuse
get_requires_for_build_editable = _refuse
prepare_metadata_for_build_wheel = _refuse
prepare_metadata_for_build_editable = _refuse
build_wheel = _refuse
build_sdist = _refuse
build_editable = _refuse
