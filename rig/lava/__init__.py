# SPDX-License-Identifier: GPL-2.0-only
"""udrv's benches in a LAVA lab (docs/rig/lava.md): jobs, device configs and
lava-run (job.py), the results of a LAVA job as a udrv-lab/1 document
(results.py); beside them the on-board recorder (udrv-lava-bench), the test
definition (udrv-bench.yaml) and the job templates (templates/).  Run it as
`python3 -m rig.lava ...`."""
