# SPDX-License-Identifier: GPL-2.0-only
"""rig.results: the one reader of udrv's results documents (docs/rig/results.md).

The schema files beside this package are the contract: udrv-bench-1.schema.json
(what `udrv-bench NAME --json` writes) and udrv-lab-1.schema.json (what the
lab suite, its labgrid form and the LAVA converter write). This package

  - reads and checks them: load(path), bench_document(text, source),
    checked(source, doc): the schema, then what a schema cannot say (buckets
    adding up to the count, sent = received + lost, ...); every problem is a
    ResultsError naming the source, the place and what to do;
  - models them (model.Results, Run, Doc, Row, Stats);
  - compares two (compare.changes, what udrv-report's comparison page shows);
  - prints their tables (text.tables: what `make lab` prints; as Markdown too),
    with ratio_label(), the one "x1.015 vs raw".

    python3 -m rig.results check FILE...       exit 0 valid, 2 not (one line each)
    python3 -m rig.results tables FILE         the tables, as the suite prints them
    python3 -m rig.results markdown FILE       the same tables as Markdown (docs)
    python3 -m rig.results compare A B         the rows of B that changed beyond the noise
    python3 -m rig.results schema --compose    write udrv-bench-1.schema.json from its
                                               base and the benches' parts (rig.bench)

Used by the suite (rig/lab/suite/), the soak, the LAVA converter, udrv-report
and the tests; nothing else parses a results document.
"""

from __future__ import annotations

from .check import SUPPORTED
from .errors import ResultsError
from .model import Results
from .pybench import PyBench
from .read import bench_document, checked, load, load_pybench, model, parse_json, pybench_document
from .text import ratio_label

__all__ = ["SUPPORTED", "PyBench", "Results", "ResultsError", "bench_document", "checked",
           "load", "load_pybench", "model", "parse_json", "pybench_document", "ratio_label"]
