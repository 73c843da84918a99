# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.report: the udrv-report command."""

import sys

from .cli import main

sys.exit(main())
