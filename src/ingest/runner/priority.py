"""How low a runner started in the background runs (`local_server.start_in_background`), and
taking its priority back once it is up (`flows.local_runner.restore_priority`).

A nice value alone does not do it on Linux: with autogroups (`kernel.sched_autogroup_enabled`,
on by default in most distributions' kernels) every session is a scheduling group of its own,
and a thread's nice value counts only against the threads of its own group (sched(7), "The
autogroup feature"). The runner starts in a session of its own (`start_new_session`: Ctrl-C in
the terminal spares it), so its nice 10 weighed nothing against the command running meanwhile:
the runner and its Prefect server, two processes starting, took a third of the core the command
ran on (a one-off `ingest run` after a nightly: 1.09 s of wall time for 0.72 s of CPU). The
session's group has a nice value too (`/proc/PID/autogroup`), set here as well: raising it is
always allowed, and so is bringing it back down to 0 (only a negative one needs privilege).
It is low only while a command runs in its own process beside the starting runner
(`local_server.kept_low`): a group at nice 10 weighs a tenth of one at 0, and a runner left low
on a busy machine took minutes to start. Without autogroups (the file is missing, or the
kernel ignores it) only the nice value acts, until the runner is up.
"""

from __future__ import annotations

import os
import re
import time
from contextlib import suppress
from pathlib import Path

_GROUP_NICE = re.compile(rb"nice\s+(-?\d+)")
MAX_NICE = 19
# a process without CAP_SYS_ADMIN may set a group's nice value once per 100 ms (EAGAIN)
_RETRIES, _RETRY_AFTER = 3, 0.11


def _autogroup(pid: int | None) -> Path:
    return Path(f"/proc/{'self' if pid is None else pid}/autogroup")


def group_nice(pid: int | None = None) -> int | None:
    """The nice value of the autogroup of `pid` (this process by default); None without one."""
    try:
        found = _GROUP_NICE.search(_autogroup(pid).read_bytes())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def set_group_nice(value: int, pid: int | None = None, *, retry: bool = False) -> bool:
    """Set the nice value of the autogroup of `pid` (this process by default); whether it took.
    With `retry`, a refusal for the rate limit is tried again (up to ~0.3 s)."""
    value = max(-20, min(MAX_NICE, value))
    for attempt in range(_RETRIES if retry else 1):
        try:
            group = os.open(_autogroup(pid), os.O_WRONLY)  # never created: /proc has it or not
            try:
                os.write(group, str(value).encode())
            finally:
                os.close(group)
            return True
        except BlockingIOError:
            if attempt + 1 < (_RETRIES if retry else 1):
                time.sleep(_RETRY_AFTER)
        except OSError:
            return False
    return False


def lower(steps: int, group: int | None) -> None:
    """In the runner's process before it runs (a `preexec_fn`, after its new session began):
    `steps` nice steps lower, and its session's autogroup `steps` below the command's, `group`
    (None: the command has no autogroup, nothing more to do). Never raises: a priority left as
    it was only costs time."""
    with suppress(OSError):
        os.nice(steps)
    if group is not None:
        set_group_nice(group + steps)


def hasten(pid: int) -> None:
    """A runner started low that a command now waits for (`local_server.ensure`): its session's
    autogroup back at this process's group nice value, the lever that counts against this
    process and the rest of the machine (its own nice value and its Prefect server's only weigh
    against each other); it retakes its priority once up, as it would have."""
    group = group_nice()
    if group is not None and group_nice(pid) != group:
        set_group_nice(group, pid, retry=True)
