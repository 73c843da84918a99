# SPDX-License-Identifier: GPL-2.0-only
"""The refusals of test_udrvd.py, test_devices.py, test_edge_events.py,
test_line_changes.py, test_hotplug.py, test_credentials.py, test_quotas.py
and test_buses.py
(and test_state.c's, for the state file) fail when their check is removed:
udrvd is built again from a copy of daemon/ (udrvd.c, model/, bus/) with one
check taken out, and the test that covers that check must fail against it (and
only tests that the check explains: of the test files that hold them in make
check, of all of them with UDRV_MUTANTS=full). A refusal test that passes anyway tests
something else."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.daemon.conftest import BUILD
from tests.support.udrv_runner import REPO, required

# name: (file, text, replacement, the tests that must fail)
MUTANTS = {
    "no policy check on RequestLines": (
        "model/requests.c",
        "if (udrvd_policy_gpio(chip->h->policy, who, &id, line_perms(chip, cfg, i), msg))",
        "if (0)",
        {"test_the_line_beside_is_refused_naming_the_rule", "test_no_rule_no_access",
         "test_reconfigure_refusals", "test_a_revoked_grant_releases_the_request",
         "test_read_cannot_make_an_output_an_input",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_counts_from_the_callers_process",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid"}),
    "no policy check on SetValues": (
        "bus/request.c", "int err = check_caller(r, m, UDRVD_DRIVE, error);",
        "int err = check_caller(r, m, 0, error);",
        {"test_set_values_needs_drive"}),
    "no policy check on GetFd": (
        "bus/request.c", "int err = check_caller(r, m, UDRVD_GPIO_PERMS, error);",
        "int err = check_caller(r, m, 0, error);",
        {"test_the_fd_needs_all_on_every_line_and_the_owner"}),
    "no owner check on a request": (
        "model/requests.c", "\tif (who->uid == r->owner)\n\t\treturn 0;",
        "\tif (1)\n\t\treturn 0;",
        {"test_another_user_cannot_drive_or_release",
         "test_the_fd_needs_all_on_every_line_and_the_owner"}),
    "UnixGroupIDs not read (the user database's groups instead)": (
        "bus/creds.c", '\tif (strcmp(key, "UnixGroupIDs"))', "\tif (1)",
        {"test_a_group_counts_from_the_callers_process",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_another_user_is_refused_naming_the_rules",
         "test_a_stale_spi_node_is_checked_as_the_device_it_is",
         "test_a_whole_bus_fd_gives_every_address",
         "test_another_user_is_refused_the_spi_device",
         "test_granted_addresses_are_served"}),
    "the bus's groups but the first not used": (
        "bus/caller.c", "\tudrvd_caller_set(c, ids->uid, ids->groups, ids->ngroups);",
        "\tudrvd_caller_set(c, ids->uid, ids->groups, ids->ngroups ? 1 : 0);",
        {"test_a_group_counts_from_the_callers_process",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_another_user_is_refused_naming_the_rules",
         "test_a_stale_spi_node_is_checked_as_the_device_it_is",
         "test_a_whole_bus_fd_gives_every_address",
         "test_another_user_is_refused_the_spi_device",
         "test_granted_addresses_are_served"}),
    "a cached caller found by another connection's name": (
        "bus/caller.c", "\t\tif (known[i].name[0] && !strcmp(known[i].name, name))",
        "\t\tif (known[i].name[0])",
        {"test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_counts_from_the_callers_process",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_a_name_two_devices_share_grants_neither",
         "test_a_restore_rule_brings_the_line_back", "test_a_revoked_grant_releases_the_request",
         "test_a_revoked_watch_rule_stops_the_events",
         "test_a_user_over_its_request_quota_is_refused",
         "test_a_vfio_grant_needs_every_device_of_the_group",
         "test_an_administrator_releases_any_request",
         "test_another_user_cannot_drive_or_release",
         "test_another_user_is_refused_naming_the_rules", "test_chips_and_lines_on_the_bus",
         "test_edges_go_only_to_watchers_the_policy_allows", "test_get_values_needs_read",
         "test_line_state_only_to_callers_with_a_rule", "test_no_rule_no_access",
         "test_read_cannot_make_an_output_an_input", "test_the_example_drives_a_held_line",
         "test_the_fd_needs_all_on_every_line_and_the_owner",
         "test_the_state_is_written_only_when_what_it_keeps_changes", "test_vfio_refusals",
         "test_watchers_over_the_quota_or_a_full_line_are_refused",
         "test_a_stale_spi_node_is_checked_as_the_device_it_is",
         "test_a_whole_bus_fd_gives_every_address",
         "test_another_user_is_refused_the_spi_device",
         "test_granted_addresses_are_served",
         "test_every_message_s_address_is_checked"}),
    "no policy check on ReconfigureLines": (
        "bus/request.c", "\t\terr = udrvd_req_check_lines(r->chip, &cfg, &who.caller, &e);",
        "\t\terr = 0;",
        {"test_reconfigure_refusals"}),
    "no refusal from io.udrv1.Devices (OpenUio, OpenVfio, OpenSpi, OpenI2cBus)": (
        "bus/devices.c", "\treturn sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);",
        "\treturn 0;",
        {"test_another_user_is_refused_naming_the_rules",
         "test_a_device_the_rule_does_not_name_is_refused", "test_vfio_refusals",
         "test_a_stale_node_is_checked_as_the_device_it_is",
         "test_a_name_two_devices_share_grants_neither",
         "test_a_revoked_spi_rule_refuses_the_next_open",
         "test_a_stale_spi_node_is_checked_as_the_device_it_is",
         "test_a_whole_bus_fd_gives_every_address",
         "test_an_spi_name_two_devices_share_grants_neither",
         "test_another_user_is_refused_the_spi_device",
         "test_the_granted_user_transfers_through_the_spi_fd"}),
    "a VFIO device handed out without a look at its IOMMU group": (
        "bus/devices.c",
        "\telse if (udrvd_vfio_group_check(d->held.policy, &who.caller, bdf, &e) < 0)",
        "\telse if (0)",
        {"test_a_vfio_grant_needs_every_device_of_the_group"}),
    "an IOMMU group that cannot be listed passes": (
        "model/sysfs_devices.c", "\tif (!dp)\n\t\treturn udrvd_fail(",
        "\tif (!dp)\n\t\treturn 0 && udrvd_fail(",
        {"test_a_vfio_grant_needs_every_device_of_the_group"}),
    "every device of the group taken for a bridge that needs no rule": (
        "model/sysfs_devices.c",
        "\treturn !udrv_pci_class(bdf, &code) && udrv_pci_class_is_bridge(code);",
        "\treturn true;",
        {"test_a_vfio_grant_needs_every_device_of_the_group"}),
    "a UIO rule checked against the device asked for, not the node's dev_t": (
        "bus/devices.c",
        "\tstruct udrvd_uio_dev dev = { id.node, id.name, id.device, id.same_name };",
        "\tstruct udrvd_uio_dev dev = { udrv_uio_devname(uio), udrv_uio_name(uio), id.device,"
        " id.same_name };",
        {"test_a_stale_node_is_checked_as_the_device_it_is"}),
    "a stale UIO node handed out as the device asked for": (
        "bus/devices.c", "\tif (id.num != num)", "\tif (0)",
        {"test_a_stale_node_is_checked_as_the_device_it_is"}),
    "a UIO node that is no character device taken": (
        "model/sysfs_devices.c", "\tif (!S_ISCHR(sb.st_mode)) {", "\tif (0) {",
        {"test_a_node_that_is_no_uio_device_is_refused"}),
    "a character device of another subsystem taken for a UIO device": (
        "model/sysfs_devices.c", " || strcmp(sub, \"uio\")) {", ") {",
        {"test_a_node_that_is_no_uio_device_is_refused"}),
    "a UIO name several devices have still grants": (
        "model/policy_check.c",
        "\treturn !strcmp(r->name, q->uio->name) && q->uio->same_name == 1;",
        "\treturn !strcmp(r->name, q->uio->name);",
        {"test_a_name_two_devices_share_grants_neither"}),
    "a uio device: rule matched against the name": (
        "model/policy_check.c", "\t\treturn *q->uio->device && !strcmp(r->name, q->uio->device);",
        "\t\treturn !strcmp(r->name, q->uio->name);",
        {"test_a_name_two_devices_share_grants_neither"}),
    "a watcher not checked against the policy": (
        "bus/watch.c",
        "\treturn !udrvd_policy_gpio(l->chip->h->policy, who, &id, UDRVD_WATCH, msg);",
        "\treturn true;",
        {"test_edges_go_only_to_watchers_the_policy_allows",
         "test_a_revoked_watch_rule_stops_the_events",
         # their reads of a line without a watch rule make no watcher
         "test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing"}),
    "EdgeEvent broadcast, not sent to the watcher alone": (
        "bus/watch.c",
        "\t\t\tr = sd_bus_message_set_destination(s, w->conn->name);", "\t\t\tr = 0;",
        {"test_edges_go_only_to_watchers_the_policy_allows",
         "test_a_revoked_watch_rule_stops_the_events"}),
    "a watcher checked only when it starts watching": (
        "bus/watch.c", "\t\tif (!may_watch(l, &who))\n\t\t\tcontinue;\n", "",
        {"test_a_revoked_watch_rule_stops_the_events"}),
    "a watcher gone before udrvd's match not dropped": (
        "bus/watch.c",
        "\tif (sd_bus_message_is_method_error(m, NULL))\n\t\tconn_drop(c->d, c->name);",
        "", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing"}),
    "the end of a watching connection not heard": (
        "bus/watch.c", "\t\tif (!strcmp(c->name, name)) {\n\t\t\tconn_drop(d, name);",
        "\t\tif (!strcmp(c->name, name)) {", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing",
         "test_watchers_cost_udrvd_one_match",
         "test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "udrvd's match kept with no watcher left": (
        "bus/watch.c",
        "\tif (!d->watching)\n\t\td->watchers_gone = sd_bus_slot_unref(d->watchers_gone);",
        "", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing",
         "test_watchers_cost_udrvd_one_match",
         "test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no per-user watcher quota": (
        "bus/watch.c", "\tif (mine >= UDRVD_USER_WATCHERS)", "\tif (0)",
        {"test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no limit of a line's watchers": (
        "bus/watch.c", "\tif (n >= UDRVD_WATCHERS_MAX)", "\tif (0)",
        {"test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no per-user request quota": (
        "model/requests.c", "\tif (held >= UDRVD_USER_REQUESTS)", "\tif (0)",
        {"test_a_user_over_its_request_quota_is_refused"}),
    "line changes by others not signalled": (
        "model/line_watch.c", "\t\t\tw->changed(w->data, off);", "\t\t\t;",
        {"test_another_process_s_change_is_signalled"}),
    "a chip that goes away keeps its objects and requests": (
        "model/hotplug.c", "\t\th->went(h->data, ev->name);", "\t\t;",
        {"test_a_chip_that_goes_takes_its_requests"}),
    "a change signalled on the wrong line": (
        "model/line_watch.c", "\t\t\tw->changed(w->data, off);",
        "\t\t\tw->changed(w->data, (off + 3) % w->nlines);",
        {"test_another_process_s_change_is_signalled"}),
    "GetValues without read": (
        "bus/request.c", "int err = check_caller(r, m, UDRVD_READ, error);",
        "int err = check_caller(r, m, 0, error);",
        {"test_get_values_needs_read"}),
    "no revocation at SIGHUP": (
        "model/broker.c", "\tudrvd_reqs_revoke(h);\n", "",
        {"test_a_revoked_grant_releases_the_request"}),
    "revocation checks no line": (
        "model/requests.c", "\t\tif (udrvd_policy_gpio(r->h->policy, &owner, &id,\n"
        "\t\t\t\t      udrvd_settings_perms(&r->settings[i]), msg))",
        "\t\tif (0)",
        {"test_a_revoked_grant_releases_the_request"}),
    "a restore not checked against the allow rules": (
        "model/restore.c", "\t\tif (still_granted(chip, s, i, &owner, msg)) {", "\t\tif (0) {",
        {"test_a_revoked_grant_is_not_restored"}),
    "anyone releases a request": (
        "bus/request.c", "\telse if (who.caller.uid != r->owner)\n", "\telse if (0)\n",
        {"test_another_user_cannot_drive_or_release",
         "test_an_administrator_releases_any_request"}),
    "admin not checked on each line": (
        "model/requests.c", "\t\tif (udrvd_policy_gpio(r->h->policy, who, &id, UDRVD_ADMIN, msg))\n"
        "\t\t\treturn false;\n", "",
        {"test_another_user_cannot_drive_or_release",
         "test_an_administrator_releases_any_request"}),
    "read makes an output an input": (
        "model/perms.c",
        "\tif (s->direction != UDRV_DIR_OUTPUT && (!now || now->direction != UDRV_DIR_INPUT))",
        "\tif (0)",
        {"test_read_cannot_make_an_output_an_input"}),
    "a line's state shown to everyone": (
        "model/chips.c", "\treturn udrvd_policy_gpio_names(l->chip->h->policy, who, &id);",
        "\treturn true;",
        {"test_line_state_only_to_callers_with_a_rule", "test_the_example_drives_a_held_line"}),
    "every request listed to everyone": (
        "bus/objects.c", "\t\t\tif (!udrvd_req_shown(q, d->viewer))\n\t\t\t\tcontinue;\n", "",
        {"test_line_state_only_to_callers_with_a_rule"}),
    "a request's properties read by everyone": (
        "bus/request.c", "\treturn yes ? 0 : sd_bus_error_setf(",
        "\treturn 1 ? 0 : sd_bus_error_setf(",
        {"test_line_state_only_to_callers_with_a_rule"}),
    "the state keeps what no restore rule covers": (
        "model/restore.c",
        "\t\tif (!udrvd_policy_restores(r->h->policy, &id))\n\t\t\tcontinue;\n", "",
        {"test_the_state_is_written_only_when_what_it_keeps_changes"}),
    "the state written though it holds that already": (
        "model/restore.c", "\t} else if (h->state_text && strlen(h->state_text) == len &&\n"
        "\t\t   !memcmp(h->state_text, text, len)) {", "\t} else if (0) {",
        {"test_the_state_is_written_only_when_what_it_keeps_changes"}),
    "state writes not rate-limited": (
        "model/restore.c", "\t\tdue = h->state_written_us + UDRVD_STATE_INTERVAL_US;", "\t\t;",
        {"test_the_state_is_written_only_when_what_it_keeps_changes"}),
    "no policy check on OpenSpi and OpenI2cBus": (
        "bus/devices.c", "\t\treturn refuse(error, msg);\n\tif (id.bus != bus || id.cs != cs)",
        "\t\treturn 0;\n\tif (id.bus != bus || id.cs != cs)",
        {"test_the_granted_user_transfers_through_the_spi_fd",
         "test_another_user_is_refused_the_spi_device",
         "test_a_revoked_spi_rule_refuses_the_next_open",
         "test_a_stale_spi_node_is_checked_as_the_device_it_is",
         "test_an_spi_name_two_devices_share_grants_neither",
         "test_a_whole_bus_fd_gives_every_address"}),
    "a stale SPI or I2C node handed out as the device asked for": (
        "bus/devices.c", "\tif (id.bus != bus || id.cs != cs)", "\tif (0)",
        {"test_a_stale_spi_node_is_checked_as_the_device_it_is"}),
    "an SPI or I2C node that is no character device taken": (
        "model/sysfs_buses.c", "\tif (!S_ISCHR(sb.st_mode)) {", "\tif (0) {",
        {"test_spi_nodes_that_are_no_spidev_are_refused"}),
    "a character device of another class taken for spidev or i2c-dev": (
        "model/sysfs_buses.c", "\t    strcmp(sub, class)) {", "\t    0) {",
        {"test_spi_nodes_that_are_no_spidev_are_refused"}),
    "an SPI or I2C name several devices have still grants": (
        "model/policy_check.c", "\t\treturn name_is(r, q) && q->dev->same_name == 1;",
        "\t\treturn name_is(r, q);",
        {"test_an_spi_name_two_devices_share_grants_neither"}),
    "an SPI device: rule matched without its chip select": (
        "model/policy_check.c",
        "\t\treturn *q->dev->device && !strcmp(r->name, q->dev->device) &&\n"
        "\t\t       (!spi || r->cs == q->dev->cs);",
        "\t\treturn *q->dev->device && !strcmp(r->name, q->dev->device);",
        {"test_the_granted_user_transfers_through_the_spi_fd"}),
    "no policy check on an I2C address": (
        "model/i2c_serve.c",
        "\tif (udrvd_policy_i2c(policy, caller, &dev, addr, ten, msg))", "\tif (0)",
        {"test_every_message_s_address_is_checked",
         "test_reserved_and_ten_bit_addresses_need_a_rule_that_names_them",
         "test_a_revoked_i2c_rule_refuses_the_next_transfer"}),
    "only a transfer's first message checked": (
        "model/i2c_serve.c", "\tfor (size_t i = 0; !err && i < n; i++)\n\t\terr = check_addr(",
        "\tfor (size_t i = 0; !err && i < 1; i++)\n\t\terr = check_addr(",
        {"test_every_message_s_address_is_checked"}),
    "a 7-bit rule grants the 10-bit address of that number": (
        "model/policy_check.c", "if (bus_rule_on_bus(r, &q) && r->ten == ten && addr >= r->lo",
        "if (bus_rule_on_bus(r, &q) && addr >= r->lo",
        {"test_reserved_and_ten_bit_addresses_need_a_rule_that_names_them"}),
    "an address a kernel driver uses not refused as access": (
        "model/i2c_serve.c", "err == -EBUSY ? -EACCES : err", "err",
        {"test_an_address_the_kernel_drives_is_refused"}),
    "a message's flags not checked": (
        "model/i2c_serve.c", "\t\tif (m->flags & ~(unsigned int)UDRVD_I2C_FLAGS)", "\t\tif (0)",
        {"test_bad_transfers_are_refused_before_the_bus"}),
    "no bound on a transfer's bytes together": (
        "model/i2c_serve.c", "\tif (total > UDRVD_I2C_TOTAL_MAX)", "\tif (0)",
        {"test_bad_transfers_are_refused_before_the_bus"}),
    "an SMBus call at a reserved address": (
        "model/i2c_serve.c", "\tif (addr < 0x03 || addr > 0x77)", "\tif (0)",
        {"test_bad_transfers_are_refused_before_the_bus"}),
    "a stale I2C node taken for the bus asked for": (
        "model/i2c_serve.c", "\tif (id->bus != udrv_i2c_bus(i2c))", "\tif (0)",
        {"test_a_stale_i2c_node_is_checked_as_the_bus_it_is"}),
}


# The checks of the state file (daemon/model/state.c), seen by the unit tests of
# tests/daemon/test_state.c: name: (file, text, replacement, the tests that must fail)
UNIT_MUTANTS = {
    "the temporary state file opened through a planted link": (
        "model/state.c", "\tif (unlinkat(dirfd, tmp, 0) && errno != ENOENT)\n\t\treturn -errno;\n"
        "\tfd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);",
        "\tfd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);",
        {"test_a_planted_link_is_not_followed"}),
    "the state read through a link": (
        "model/state.c", "O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC", "O_RDONLY | O_CLOEXEC",
        {"test_a_planted_link_is_not_followed"}),
    "the state file readable by all": (
        "model/state.c", "O_NOFOLLOW | O_CLOEXEC, 0600);", "O_NOFOLLOW | O_CLOEXEC, 0644);",
        {"test_modes"}),
    "a state folder others can write used": (
        "model/state.c", "\tif ((sb.st_uid != geteuid() && sb.st_uid != 0) || "
        "(sb.st_mode & (S_IWGRP | S_IWOTH))) {", "\tif (0) {",
        {"test_a_folder_or_file_others_can_write_is_refused"}),
    "a state file others can write read": (
        "model/state.c",
        "\tif (S_ISREG(sb.st_mode) && (sb.st_uid == geteuid() || sb.st_uid == 0) &&\n"
        "\t    !(sb.st_mode & (S_IWGRP | S_IWOTH)))\n", "\tif (1)\n",
        {"test_a_folder_or_file_others_can_write_is_refused"}),
}


def mutated_daemon(tmp: Path, file: str, text: str, replacement: str) -> Path:
    src = tmp / "daemon"
    shutil.copytree(REPO / "daemon", src)
    code = (src / file).read_text()
    assert code.count(text) == 1, f"{file} no longer holds the checked text: update MUTANTS"
    (src / file).write_text(code.replace(text, replacement))
    return src


def cc_flags(src: Path) -> list[str]:
    """udrvd's compile flags, its headers from @src."""
    flags = subprocess.run(["pkg-config", "--cflags", "libsystemd"], check=True,
                           capture_output=True, text=True).stdout.split()  # fmt: skip
    return ["-std=c11", "-D_GNU_SOURCE", '-DUDRV_VERSION="mutant"',
            '-DUDRVD_POLICY_FILE="/etc/udrv/udrvd.conf"', f"-I{REPO / 'include'}",
            f"-I{REPO / 'lib'}", f"-I{src / 'model'}", f"-I{src / 'bus'}", *flags]  # fmt: skip


def object_name(file: str) -> str:
    """The object of daemon/@file ("bus/chip.c": bus-chip.o): model/ and
    bus/ may hold files of the same name."""
    return file.removesuffix(".c").replace("/", "-") + ".o"


def daemon_objects(tmp: Path) -> Path:
    """daemon/'s C files (udrvd.c, model/, bus/) compiled once, unmutated: a
    mutant compiles its own file again and links it with the others."""
    out = tmp / "objects"
    out.mkdir()
    daemon = REPO / "daemon"
    for c in sorted(daemon.rglob("*.c")):
        name = object_name(c.relative_to(daemon).as_posix())
        subprocess.run(["cc", *cc_flags(daemon), "-c", str(c), "-o", str(out / name)],
                       check=True)  # fmt: skip
    return out


def build_mutant(tmp: Path, file: str, text: str, replacement: str, objects: Path) -> Path:
    src = mutated_daemon(tmp, file, text, replacement)
    lib = required(BUILD / "lib" / "libudrv.a", "libudrv.a")
    libs = subprocess.run(["pkg-config", "--libs", "libsystemd"], check=True,
                          capture_output=True, text=True).stdout.split()  # fmt: skip
    mutated = tmp / object_name(file)
    subprocess.run(["cc", *cc_flags(src), "-c", str(src / file), "-o", str(mutated)], check=True)
    others = [str(o) for o in sorted(objects.glob("*.o")) if o.name != mutated.name]
    out = tmp / "udrvd"
    subprocess.run(["cc", *others, str(mutated), str(lib), *libs, "-lm", "-o", str(out)],
                   check=True)  # fmt: skip
    return out


SUITE = ["tests/daemon/test_udrvd.py", "tests/daemon/test_devices.py",
         "tests/daemon/test_edge_events.py", "tests/daemon/test_line_changes.py",
         "tests/daemon/test_hotplug.py", "tests/daemon/test_credentials.py",
         "tests/daemon/test_quotas.py", "tests/daemon/test_buses.py"]  # fmt: skip



def defined_tests(path: str) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", (REPO / path).read_text(), re.MULTILINE))


def suite_of(name: str) -> list[str]:
    """The files of SUITE that hold the tests mutant @name must fail, which
    run against it: a check is seen where its tests are, and the rest of
    those files must pass (make check's time). UDRV_MUTANTS=full: all of
    SUITE against each mutant, for whoever changes MUTANTS or a check."""
    if os.environ.get("UDRV_MUTANTS") == "full":
        return SUITE
    return [f for f in SUITE if defined_tests(f) & MUTANTS[name][3]]


# Mutants whose suites run at once. A suite mostly waits: on its clients, and
# for a mutant, on the guards (tests/daemon/conftest.py's GUARD_S) of the tests
# it makes fail; four at once on two cores leave each operation well inside
# those guards, and take a third of the time of one after the other.
AT_ONCE = 4


class Outcome(NamedTuple):
    failed: set[str]  # the tests of SUITE that failed
    left: list[int]  # pids of the mutant's udrvd still running after the suite
    report: str  # the end of pytest's report


def running(exe: Path) -> list[int]:
    """The processes whose executable is @exe."""
    pids = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(proc / "exe") == str(exe):
                pids.append(int(proc.name))
        except OSError:  # gone, or a kernel thread
            pass
    return pids


def run_mutant(name: str, tmp: Path, objects: Path) -> Outcome:
    """suite_of(@name) against udrvd built with mutant @name; a udrvd the
    suite left running is named and killed."""
    file, text, replacement, _ = MUTANTS[name]
    udrvd = build_mutant(tmp, file, text, replacement, objects)
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"--basetemp={tmp / 'pytest'}", *suite_of(name)],
                         cwd=REPO, env={**os.environ, "UDRVD_BIN": str(udrvd)},
                         capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    failed = {ln.split("::")[1].split()[0] for ln in res.stdout.splitlines()
              if ln.startswith("FAILED ")}  # fmt: skip
    left = running(udrvd)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return Outcome(failed, left, res.stdout[-3000:])


Run = Future[Outcome]  # run_mutant() in a worker


@pytest.fixture(scope="module")
def mutant_runs(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Run]]:  # fmt: skip
    """The runs of the mutants this session selected, AT_ONCE at a time, each
    in a folder of its own (its own --basetemp: pytest removes old ones)."""
    names = [item.callspec.params["name"] for item in request.session.items
             if getattr(item, "originalname", "") == "test_a_removed_check_is_seen"]  # fmt: skip
    objects = daemon_objects(tmp_path_factory.mktemp("daemon"))
    with ThreadPoolExecutor(AT_ONCE) as pool:
        runs = {name: pool.submit(run_mutant, name, tmp_path_factory.mktemp("mutant"), objects)
                for name in names}  # fmt: skip
        yield runs
        for run in runs.values():
            run.cancel()


def test_each_mutants_tests_are_in_the_suite() -> None:
    """A test a mutant must fail that no file of SUITE holds would take its
    file out of the run (a renamed test): it must be there."""
    held = set().union(*(defined_tests(f) for f in SUITE))
    for name, (_, _, _, want) in MUTANTS.items():
        assert want <= held, f"{name}: no test {sorted(want - held)} in SUITE"


@pytest.mark.parametrize("name", MUTANTS)
def test_a_removed_check_is_seen(name: str, mutant_runs: dict[str, Run]) -> None:
    """The tests the check explains fail, and no others of their files (of
    SUITE: UDRV_MUTANTS=full); and the suite's tests leave no udrvd running,
    failed or not (tests/support/reaper.py)."""
    out = mutant_runs[name].result()
    assert out.failed == MUTANTS[name][3], f"{name}: failed {sorted(out.failed)}\n{out.report}"
    assert not out.left, f"{name}: the suite left udrvd running: pids {out.left}\n{out.report}"


@pytest.mark.parametrize("name", UNIT_MUTANTS)
def test_a_removed_state_check_is_seen(name: str, tmp_path: Path) -> None:
    file, text, replacement, expected = UNIT_MUTANTS[name]
    src = mutated_daemon(tmp_path, file, text, replacement)
    lib = required(BUILD / "lib" / "libudrv.a", "libudrv.a")
    harness = required(BUILD / "tests" / "lib" / "libharness.a", "libharness.a")
    exe = tmp_path / "test_state"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", f"-I{REPO / 'include'}",
                    f"-I{REPO / 'lib'}", f"-I{REPO / 'tests' / 'lib'}", f"-I{src / 'model'}",
                    str(REPO / "tests" / "daemon" / "test_state.c"), str(src / "model" / "state.c"),
                    str(src / "model" / "words.c"), str(harness), str(lib), "-lm", "-lpthread",
                    "-o", str(exe)], check=True)  # fmt: skip
    res = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    failed = {ln.split(" - ", 1)[1].strip() for ln in res.stdout.splitlines()
              if ln.startswith("not ok ")}  # fmt: skip
    assert failed == expected, f"{name}: failed {sorted(failed)}\n{res.stdout[-3000:]}"
