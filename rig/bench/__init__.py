# SPDX-License-Identifier: GPL-2.0-only
"""rig.bench: udrv-bench's benches, one folder each (rig/bench/<bench>/).

A bench's folder holds its C and its spec (spec.py, SPEC: rig.bench.base.BenchSpec):
the bench's name, the typed model of its own section of the udrv-bench/1
document (model.py, where it has one), its text table, its report section and
its part of the document schema (schema.json). rig.bench.specs.SPECS lists
them; rig.results and rig.report iterate it, so a new bench is its folder and
one line there.
"""
