"""Which process runs a run, and whether it is still there: a run recorded as running whose
process is gone (kill -9, a power cut) crashed.

    identity()          "host:pid:start time" of this process (Linux's /proc start time, so a
                        pid used again by a later process is not taken for it)
    gone(identity)      True when that process no longer runs on this host; False while it
                        does, and for another host's process (nothing to tell from here)
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def identity(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}:{pid}:{_start_time(pid) or '?'}"


def gone(recorded: str | None) -> bool:
    """Whether the process `recorded` (an `identity()`) has ended; a run recorded without one
    (before processes were recorded) is taken as gone."""
    if not recorded:
        return True
    try:
        host, pid_text, started = recorded.rsplit(":", 2)
        pid = int(pid_text)
    except ValueError:
        return True
    if host != socket.gethostname():
        return False
    now = _start_time(pid)
    if now is None or _zombie(pid):
        return True
    return started not in ("?", now)


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()  # the fields after the command name


def _start_time(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[19] if fields and len(fields) > 19 else None  # field 22: starttime


def _zombie(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and bool(fields) and fields[0] == "Z"
