# SPDX-License-Identifier: GPL-2.0-only
"""The lab's boards and the ways to reach them: the targets table
(targets.py), the board interface every transport gives (api.py), QEMU
(qemu.py), the host side of the guest agent's channel (agent.py), labgrid
(labgrid_board.py, labgrid_env.py, lg_place.py, envs/) and the localhost
labgrid farm (farm.py)."""
