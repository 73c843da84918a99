#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The RP1 register model catches a backend that breaks the atomic aliases
(TAP): test_soc_rp1 built with UDRV_MMIO_MUTANT_RMW (backend_mmio.c drives
the lines by a read-modify-write of RIO_OUT) must fail its store tests, and
say that it saw a plain write of RIO_OUT.

    mmio_mutants.py MUTANT   (test_soc_rp1_mutant_rmw)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from responder_mutants import caught, run  # the same TAP runner and verdict

WHAT = "RIO_OUT read, changed and written back instead of its SET/CLR aliases"
MUST_FAIL = ["test_set_value_one_store_per_edge_every_bank",
             "test_other_lines_of_the_bank_untouched",
             "test_set_values_across_banks",
             "test_active_low_swaps_set_and_clear"]
WORDS = "a plain write of RIO_OUT, which every line of the bank shares"
SKIP = "the store log needs x86-64 or AArch64: skipped"


def main() -> int:
    ran = run(sys.argv[1])
    print("1..1")
    if SKIP in ran[1]:
        print(f"ok 1 - mutant: {WHAT} # SKIP {SKIP}")
        return 0
    return 0 if caught(1, "mutant", WHAT, ran, MUST_FAIL, WORDS) else 1

if __name__ == "__main__":
    sys.exit(main())
