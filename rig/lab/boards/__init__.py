# SPDX-License-Identifier: GPL-2.0-only
"""The lab's drivers: a board booted from an image prepared before, and the
ways to reach it: the board interface every transport gives and what a board
boots (api.py), QEMU (qemu.py), the host side of the guest agent's channel
(agent.py), labgrid (labgrid_board.py, labgrid_env.py, lg_place.py, envs/).
Nothing here prepares an image (rig/lab/image/) or combines the two
(rig/lab/strategy.py, rig/lab/farm.py): scripts/check-boundary, lab-layers."""
