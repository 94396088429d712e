"""Who holds an outbox row's lease (`Outbox.claimed_by`): this process, named so that another
process on the same host can tell whether it still runs.

The name is the host, the boot, the pid namespace, the pid and the process's start time (from
/proc). A process that finds a row leased by a process of its own host, boot and pid namespace
asks the kernel whether that pid still runs and started at that time: if not (killed, crashed,
the pid taken by another program since), the row is taken again at once rather than after the
lease (`sending.claim`). Whatever cannot be told, it is not: a row leased on another host, in
another container, before a reboot, or on a system without /proc waits out its lease as
before, so a live sender is never taken for a dead one.
"""

from __future__ import annotations

import functools
import os
import socket
from pathlib import Path


@functools.cache
def _place() -> str:
    """Where a pid means one process: the host, the boot and the pid namespace ("" where this
    cannot be known)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""
    host = socket.gethostname()
    if not boot or not host or any(c.isspace() for c in host + boot + namespace):
        return ""
    return f"{host} {boot} {namespace}"


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (the state first, the start time
    at 19), or None when it cannot be read."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command's name (in parentheses) may hold blanks and parentheses itself.
    fields = text[text.rfind(")") + 1 :].split()
    return fields if len(fields) > 19 else None


@functools.cache
def _me(pid: int) -> str:
    place = _place()
    fields = _stat(pid)
    if not place or fields is None:
        return ""
    return f"{place} {pid} {fields[19]}"


def me() -> str:
    """This process's name ("" where it cannot be told apart: its leases are waited out)."""
    return _me(os.getpid())


def gone(claimant: str) -> bool:
    """Whether the process `claimant` names has ended for sure: it ran on this host, in this
    boot and pid namespace, and its pid now runs nothing, a zombie, or a process started at
    another time. False whenever that cannot be told."""
    place = _place()
    where, _, rest = claimant.rpartition(" ")  # ("<place> <pid>", "<start>")
    where, _, pid_text = where.rpartition(" ")
    if not place or where != place or not pid_text.isdigit() or not rest.isdigit():
        return False
    pid = int(pid_text)
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # a process of another user has that pid: its start time tells
    except OSError:
        return False
    fields = _stat(pid)
    if fields is None:
        return False  # hidden (/proc mounted with hidepid): not known to be gone
    return fields[0] in ("Z", "X") or fields[19] != rest
