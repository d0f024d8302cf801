"""The workspace's local runner: the README's main job as a newcomer runs it (no PREFECT_API_URL),
quiet, reused, and cleaned up when stale."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.runner import local_server
from ingest.settings import Settings
from ingest_cli.common import invocation

from .conftest import GOVERNANCE, ROOT, STABLE_URL
from .loopback import LoopbackServer, QuietHandler

WEB = str(ROOT / "fixtures" / "web")
LATEST = GOVERNANCE / "persons_of_interest.7f149bc3.md"


def ingest(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    return subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_nightly_twice_in_a_fresh_workspace_is_quiet_and_reuses_one_runner(
    workspace: Settings,
) -> None:
    """The first nightly runs locally (no runner up), the second through the runner it started:
    the same output, the runner reused after."""
    first = ingest("nightly", "--replay", WEB)
    assert first.returncode == 0, first.stderr
    # no runner was up: the nightly ran in the command's own process, not waiting for the
    # runner's start, which it began in the background for the next command
    assert "run locally (no local runner was up" in first.stdout
    state = _wait_up(workspace)
    assert state.api_url.startswith("http://127.0.0.1:")
    assert oct(local_server.state_file(workspace).stat().st_mode & 0o777) == "0o600"
    second = ingest("nightly", "--replay", WEB)
    assert "run locally" not in second.stdout  # through the runner, now up
    assert second.returncode == 0, second.stderr
    for done in (first, second):
        assert "Traceback" not in done.stderr and "ERROR" not in done.stderr, done.stderr
        assert "CancelledError" not in done.stdout + done.stderr
        lines = done.stdout.splitlines()
        # the summary, then the run's HTML report, then what to do next (one flag per fact:
        # 13 changes, the same affiliation on several papers counted once)
        assert lines[-3].startswith("nightly refresh: ")
        assert lines[-2].startswith("report: ") and lines[-2].endswith(".html")
        command = invocation()  # as the README's `uv run ingest` (the test's own start) types it
        assert lines[-1] == f"9 flags pending: {command} review serve, or {command} review list"
    assert "0 fetched, 25 unchanged" in second.stdout
    # a re-run that found nothing new says so: the 9 flags are the backlog, not tonight's
    assert "new tonight: 9 added, 0 changed, 0 removed; still pending: 0 flags" in first.stdout
    assert "new tonight: 0 added, 0 changed, 0 removed; still pending: 9 flags" in second.stdout
    reports = sorted(workspace.reports_dir.glob("20*/*.json"), key=lambda p: p.stat().st_mtime)
    rerun = json.loads(reports[-1].read_text())
    assert sum(rerun["flags"].values()) == rerun["facts"] == 9  # the old keys, as they were
    assert rerun["new"]["facts"] == 0 and rerun["still_pending"]["facts"] == 9
    again = local_server.read_state(workspace)
    assert again is not None and again.pid == state.pid  # the same runner, not a new start
    # Prefect recorded the runner's flow run on its server, with its task runs (the first
    # nightly, run locally, had none)
    import httpx

    runs = httpx.post(f"{state.api_url}/flow_runs/filter", json={}).json()
    assert [r["state_type"] for r in runs] == ["COMPLETED"]
    tasks = httpx.post(f"{state.api_url}/task_runs/count", json={}).json()
    assert tasks >= 4
    # the logs went to the workspace's log files, not to the terminal
    assert (local_server.logs_dir(workspace) / "prefect-server.log").exists()

    status = ingest("server", "status")
    assert status.returncode == 0 and f"pid {state.pid}" in status.stdout
    stopped = ingest("server", "stop")
    assert stopped.returncode == 0 and f"stopped runner {state.pid}" in stopped.stdout
    assert not local_server.state_file(workspace).exists()
    gone = ingest("server", "status")
    assert gone.returncode == 1 and gone.stdout.startswith("not running")
    assert not _alive(state.pid) and not _alive(state.prefect_pid)


def _wait_up(workspace: Settings, timeout: float = 240) -> local_server.RunnerState:
    """The runner a command started in the background, once it answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = local_server.status(workspace)
        if state is not None:
            return state
        time.sleep(0.2)
    raise AssertionError(f"no runner answered within {timeout:.0f} s")


def test_one_off_runs_locally_first_then_through_the_runner_and_a_dead_runner_is_cleaned_up(
    workspace: Settings,
) -> None:
    """No runner up: the run in the command's own process ("run locally"), the runner started in
    the background (not waited for); once it is up, the next run is its Prefect flow run."""
    import httpx

    page = str(GOVERNANCE / "docs-main.persons_of_interest.4bc782c2.md")
    done = ingest("run", STABLE_URL, "--file", page, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "fetched" and result["claims"] == 257
    assert result["ran"] == "locally" and len(result["changes"]) == 5
    assert "Traceback" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    # the command did not wait: the runner was only starting when it returned
    starting = local_server.starting_file(workspace)
    assert starting.exists() or local_server.read_state(workspace) is not None
    # a second command while it starts runs locally too, and starts no second runner
    said = ingest("run", STABLE_URL, "--file", page)
    assert said.returncode == 0, said.stderr
    assert "run locally" in said.stdout and "unchanged" in said.stdout
    state = _wait_up(workspace)
    assert not starting.exists()  # up: the runner took its `starting` file away
    runners = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _runner_of(p, workspace)]
    assert len(runners) == 1, runners
    # up: the next run is the runner's flow run, recorded by its Prefect server
    through = ingest("run", STABLE_URL, "--file", page, "--json")
    assert through.returncode == 0, through.stderr
    assert "ran" not in json.loads(through.stdout)
    assert json.loads(through.stdout)["status"] == "unchanged"
    runs = httpx.post(f"{state.api_url}/flow_runs/filter", json={}).json()
    assert [r["state_type"] for r in runs] == ["COMPLETED"]
    # a runner killed without a word leaves a stale state file: found, removed, replaced
    os.kill(state.pid, signal.SIGKILL)
    _wait_gone(state.pid)
    assert ingest("server", "status").returncode == 1
    assert not local_server.state_file(workspace).exists()
    assert not _alive(state.prefect_pid)  # its orphaned Prefect server was ended too
    again = ingest("run", STABLE_URL, "--file", page, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["status"] == "unchanged"
    assert json.loads(again.stdout)["ran"] == "locally"
    fresh = _wait_up(workspace)
    assert fresh.pid != state.pid
    # a failed one-off: exit 1, one line naming the URL, no traceback
    missing = ingest("run", "https://example.org/none", "--file", "/dev/null")
    assert missing.returncode == 1
    assert "Traceback" not in missing.stderr


def _runner_of(proc: Path, workspace: Settings) -> bool:
    """Whether /proc/PID is a local runner of `workspace`."""
    try:
        cmdline = (proc / "cmdline").read_bytes()
        environ = (proc / "environ").read_bytes()
    except OSError:
        return False
    home = f"INGEST_HOME={workspace.home.resolve()}".encode()
    return b"flows.local_runner" in cmdline and home in environ.split(b"\0")


def test_the_plain_one_off_path_imports_no_prefect(workspace: Settings) -> None:
    """The run a command makes when no runner is up does not pay Prefect's import (~2 s)."""
    page = str(GOVERNANCE / "docs-main.persons_of_interest.4bc782c2.md")
    code = (
        "import json, sys\n"
        "from flows.one_off_core import run_locally\n"
        f"result = run_locally({{'url': {STABLE_URL!r}, 'file': {page!r}}})\n"
        "print(json.dumps([result['status'], result['claims'], result['ran'],"
        " result['pending_facts'],"
        " sorted(m for m in sys.modules if m.split('.')[0] == 'prefect')]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    # the queue's pending facts come with the result (the command's last line needs no store)
    assert json.loads(done.stdout) == ["fetched", 257, "locally", 5, []]


def test_the_plain_nightly_imports_no_prefect_first_or_again(workspace: Settings) -> None:
    """A nightly in the command's own process (no runner up) runs its arXiv stage with the plain
    steps (`flows.arxiv_steps`): neither the first run nor an unchanged re-run imports Prefect
    (~1.3 s of CPU), and both give the README's 9 flags."""
    code = (
        "import json, sys\n"
        "from flows.nightly_local import run_locally\n"
        f"result = run_locally({{'replay': {WEB!r}}})\n"
        "print(json.dumps([result['ran'], result['counts']['fetched'],"
        " result['counts']['unchanged'], sum(result['flags'].values()),"
        " sorted(m for m in sys.modules if m.split('.')[0] == 'prefect')]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    found = []
    for _run in range(2):
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        found.append(json.loads(done.stdout.splitlines()[-1]))
    ran, fetched, unchanged, flags, prefect = found[0]
    assert (ran, flags, prefect) == ("locally", 9, []) and fetched > 0
    assert found[1] == ["locally", 0, fetched + unchanged, 9, []]


def test_the_last_line_of_a_run_uses_the_count_the_run_gave(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A one-off's `pending_facts` is its last line: the command does not open the store (and
    import the database layer, 0.3 s) to count again; without it, the store is counted."""
    from ingest.storage import Store
    from ingest_cli import common

    def no_store(*_args: object, **_kwargs: object) -> Store:
        raise AssertionError("the store was opened")

    monkeypatch.setattr(Store, "open", no_store)
    common._next_steps(3)
    assert capsys.readouterr().out.startswith("3 flags pending: ")
    common._next_steps(0)
    assert capsys.readouterr().out == "nothing pending for review\n"
    with pytest.raises(AssertionError, match="the store was opened"):
        common._next_steps(None)


def test_code_fingerprint_follows_the_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "flows").mkdir()
    module = tmp_path / "flows" / "a.py"
    module.write_text("x = 1\n")
    monkeypatch.setattr(local_server, "PROJECT_ROOT", tmp_path)
    before = local_server.code_fingerprint()
    assert local_server.code_fingerprint() == before
    module.write_text("x = 22\n")
    assert local_server.code_fingerprint() != before


def test_a_state_file_nobody_answers_is_stale(workspace: Settings) -> None:
    stale = local_server.RunnerState(
        pid=2**22 - 1,
        port=1,
        token="t",
        api_url="http://127.0.0.1:1/api",
        fingerprint="f",
        started="2026-01-01T00:00:00+00:00",
    )
    local_server.write_state(workspace, stale)
    assert local_server.status(workspace) is None
    assert not local_server.state_file(workspace).exists()


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and ") Z " in stat.read_text())


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_runner_whose_workspace_is_deleted_stops(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A temporary workspace removed with its runner up leaves no runner behind for an hour."""
    import shutil

    monkeypatch.setenv("INGEST_RUNNER_CHECK", "0.5")
    started = ingest("server", "start")
    assert started.returncode == 0, started.stderr
    state = local_server.read_state(workspace)
    assert state is not None and _alive(state.pid)
    shutil.rmtree(workspace.home)
    _wait_gone(state.pid)
    assert not _alive(state.pid)
    assert not _alive(state.prefect_pid)  # its Prefect server ended with it


class _Page(QuietHandler):
    """One maintainers page at /persons_of_interest.md; anything else (robots.txt) is 404."""

    def do_GET(self) -> None:
        if self.path == "/persons_of_interest.md":
            self.send(200, LATEST.read_bytes(), {"Content-Type": "text/markdown; charset=utf-8"})
        else:
            self.send(404, b"not here")


def _dead_url() -> str:
    """A loopback port nobody listens on: every request to it is refused at once."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/gone"


def test_a_nightly_whose_sources_failed_exits_1_and_its_flow_run_fails(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every source failing exited 0 with a COMPLETED flow run: cron could not tell. Now exit 1
    (the report and queue still written) and a FAILED flow run; `--fail-on` sets the share."""
    profiles = tmp_path / "no-profiles"  # nobody to look up on arXiv, no references to check
    profiles.mkdir()
    registry = tmp_path / "sources.json"
    for key, value in {
        "INGEST_PROFILES_DIR": str(profiles),
        "INGEST_SOURCES_FILE": str(registry),
        "INGEST_ALLOW_PRIVATE": "1",
        "INGEST_MAX_ATTEMPTS": "1",
        "INGEST_HOST_DELAY": "0",
        "INGEST_ARXIV_API_URL": _dead_url(),
    }.items():
        monkeypatch.setenv(key, value)
    with LoopbackServer(_Page) as page:
        dead = [{"url": _dead_url(), "extractor": "pytorch_governance"} for _ in range(2)]
        registry.write_text(json.dumps(dead))
        failed = ingest("nightly")
        assert failed.returncode == 1, failed.stdout + failed.stderr
        assert "0 fetched, 0 unchanged, 2 failed" in failed.stdout
        assert failed.stderr.startswith("error: 2 of 2 sources failed"), failed.stderr
        assert "Traceback" not in failed.stderr
        report = json.loads(sorted(workspace.reports_dir.glob("20*.json"))[-1].read_text())
        assert report["counts"]["failed"] == 2  # the report is kept
        # no runner was up: that one ran in the command's process (no flow run); the next two
        # go through the runner it started, as Prefect flow runs
        assert "run locally" in failed.stdout
        _wait_up(workspace)

        good = {"url": f"{page.base}/persons_of_interest.md", "extractor": "pytorch_governance"}
        registry.write_text(json.dumps([good, dead[0]]))
        half = ingest("nightly")
        assert half.returncode == 0, half.stderr  # default --fail-on 1.0: only all failed
        strict = ingest("nightly", "--fail-on", "0.5")
        assert strict.returncode == 1, strict.stdout + strict.stderr
        assert "1 of 2 sources failed" in strict.stderr and "--fail-on 0.5" in strict.stderr
    state = local_server.read_state(workspace)
    assert state is not None
    import httpx

    runs = httpx.post(f"{state.api_url}/flow_runs/filter", json={"sort": "START_TIME_ASC"}).json()
    assert [r["state_type"] for r in runs] == ["COMPLETED", "FAILED"]


FAKE_PID = 999_999_999  # no such process: not "starting" for the next call, never signalled


def fake_spawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """`start_in_background` spawning nothing: the keyword arguments of each Popen call."""
    spawned: list[dict[str, object]] = []

    class Started:
        pid = FAKE_PID

        def __init__(self, args: list[str], **kwargs: object) -> None:
            spawned.append(kwargs)

    monkeypatch.setattr(local_server, "seed_database", lambda *args, **kwargs: None)
    monkeypatch.setattr(local_server.subprocess, "Popen", Started)
    return spawned


def test_a_runner_started_in_the_background_starts_at_a_lower_priority(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """start_in_background lowers the runner's priority by INGEST_RUNNER_NICE and tells it the
    command's, to take back once up; ensure (a command that waits for it) lowers nothing."""
    spawned = fake_spawn(monkeypatch)
    assert local_server.start_in_background(workspace) == FAKE_PID
    assert local_server.start_in_background(Settings(runner_nice=0)) == FAKE_PID
    lowered, same = spawned
    assert lowered["preexec_fn"] is not None and same["preexec_fn"] is None
    env, same_env = lowered["env"], same["env"]
    assert isinstance(env, dict) and isinstance(same_env, dict)
    assert env[local_server.PRIORITY_ENV] == str(os.getpriority(os.PRIO_PROCESS, 0))
    assert local_server.PRIORITY_ENV not in same_env


def test_a_runner_up_takes_the_commands_priority_back_where_it_may() -> None:
    from flows.local_runner import restore_priority

    ours = os.getpriority(os.PRIO_PROCESS, 0)
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], preexec_fn=lambda: os.nice(5)
    )
    try:
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == ours + 5
        restore_priority(str(ours), child.pid)  # never raises
        # lowering a nice value needs root, or an RLIMIT_NICE of at least 20 - the new value
        allowed = os.geteuid() == 0 or os.getrlimit(os.RLIMIT_NICE)[0] >= 20 - ours
        expected = ours if allowed else ours + 5
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == expected
        restore_priority(None, child.pid)  # started at the command's priority: nothing to do
    finally:
        child.kill()
        child.wait()
