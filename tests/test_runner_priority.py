"""A runner started in the background runs below the command's priority against the whole
machine, not only within its own session (`ingest.runner.priority`): with autogroups a nice value
counts only inside its session's scheduling group, and the runner starts a session of its own."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.runner import local_server, priority
from ingest.settings import Settings

from .test_local_runner import fake_spawn

ROOT = Path(__file__).resolve().parent.parent
OURS = priority.group_nice()
needs_autogroups = pytest.mark.skipif(
    OURS is None, reason="this kernel has no autogroups (/proc/self/autogroup)"
)


def _sleeper(steps: int, group: int | None) -> subprocess.Popen[bytes]:
    """A child in a session of its own, lowered as `_spawn` lowers the runner."""
    return subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"],
        start_new_session=True,
        preexec_fn=functools.partial(priority.lower, steps, group),
    )


def test_the_group_nice_value_is_read_from_proc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "group").write_text("/autogroup-4 nice 3\n")
    (tmp_path / "odd").write_text("/autogroup-4\n")
    files = {1: tmp_path / "group", 2: tmp_path / "missing", 3: tmp_path / "odd"}
    monkeypatch.setattr(priority, "_autogroup", lambda pid: files[pid])
    assert priority.group_nice(1) == 3
    assert priority.group_nice(2) is None  # a kernel without autogroups
    assert priority.group_nice(3) is None
    assert priority.set_group_nice(5, 2) is False  # nothing to set: said, not raised


@needs_autogroups
def test_a_runner_in_its_own_session_has_its_group_lowered_too() -> None:
    assert OURS is not None
    child = _sleeper(7, OURS)
    try:
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == os.getpriority(os.PRIO_PROCESS, 0) + 7
        assert priority.group_nice(child.pid) == min(OURS + 7, priority.MAX_NICE)
        assert priority.group_nice() == OURS  # the command's own group is left alone
        priority.hasten(child.pid)  # a command now waits for it: its group back at ours
        assert priority.group_nice(child.pid) == OURS
    finally:
        child.kill()
        child.wait()


def test_lowering_without_autogroups_still_lowers_the_nice_value() -> None:
    child = _sleeper(4, None)
    try:
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == os.getpriority(os.PRIO_PROCESS, 0) + 4
        if OURS is not None:  # a new session starts at group nice 0, untouched here
            assert priority.group_nice(child.pid) == 0
    finally:
        child.kill()
        child.wait()


@needs_autogroups
def test_a_runner_up_takes_its_groups_priority_back() -> None:
    """restore_priority, in a process started low as the runner is: its group back at the
    command's value (raising a group's nice value back to 0 needs no privilege)."""
    assert OURS is not None
    probe = (
        "import os\n"
        "from ingest.runner import priority\n"
        "from flows.local_runner import restore_priority\n"
        "before = priority.group_nice()\n"
        f"restore_priority(None, os.getpid(), {str(OURS)!r})\n"
        "print(before, priority.group_nice())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        start_new_session=True,
        preexec_fn=functools.partial(priority.lower, 6, OURS),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    before, after = (int(value) for value in done.stdout.split())
    assert before == min(OURS + 6, priority.MAX_NICE)
    assert after == (OURS if OURS >= 0 or os.geteuid() == 0 else before)


def test_start_in_background_tells_the_runner_the_commands_group(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned = fake_spawn(monkeypatch)
    monkeypatch.setattr(priority, "group_nice", lambda pid=None: 2)
    local_server.start_in_background(workspace)
    monkeypatch.setattr(priority, "group_nice", lambda pid=None: None)
    local_server.start_in_background(workspace)
    grouped, ungrouped = (kwargs["env"] for kwargs in spawned)
    assert isinstance(grouped, dict) and isinstance(ungrouped, dict)
    assert grouped[local_server.GROUP_PRIORITY_ENV] == "2"
    assert local_server.GROUP_PRIORITY_ENV not in ungrouped
    lower = spawned[0]["preexec_fn"]
    assert isinstance(lower, functools.partial) and lower.func is priority.lower
    assert lower.args == (workspace.runner_nice, 2)


@needs_autogroups
def test_a_starting_runner_is_kept_low_only_while_a_command_runs_here(
    workspace: Settings,
) -> None:
    """kept_low: the starting runner's group below ours for the length of the command, given
    back when it ends, failed or not (a group left low took minutes to start on a busy
    machine); nothing to do when no runner is starting."""
    assert OURS is not None
    with local_server.kept_low(workspace):  # nothing starting: nothing done, nothing raised
        pass
    child = subprocess.Popen(  # named as the runner is, for local_server._starting
        [sys.executable, "-c", "import time; time.sleep(30)", "flows.local_runner"],
        start_new_session=True,
    )
    try:
        local_server.server_dir(workspace).mkdir(parents=True, exist_ok=True)
        local_server.starting_file(workspace).write_text(str(child.pid))
        low = min(OURS + workspace.runner_nice, priority.MAX_NICE)
        with local_server.kept_low(workspace):
            assert priority.group_nice(child.pid) == low
        assert priority.group_nice(child.pid) == OURS
        with pytest.raises(RuntimeError), local_server.kept_low(workspace):
            assert priority.group_nice(child.pid) == low
            raise RuntimeError("the command failed")
        assert priority.group_nice(child.pid) == OURS
        with local_server.kept_low(Settings(runner_nice=0)):  # not lowered at all
            assert priority.group_nice(child.pid) == OURS
    finally:
        child.kill()
        child.wait()
