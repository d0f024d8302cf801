"""Crashes are visible (issue 22): a nightly whose local runner died is marked crashed, in
ingest's database and in Prefect, and the next run and its report say so; a killed `ingest
nightly` cancels its run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ingest.runner import local_server
from ingest.settings import Settings

from .test_crash_recovery import Server, offline_profiles


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    yield srv
    srv.close()


def _env(server: Server, tmp_path: Path) -> dict[str, str]:
    registry = tmp_path / "sources.json"
    registry.write_text(
        json.dumps(
            [
                {
                    "url": f"{server.base}/{name}.md",
                    "extractor": "pytorch_governance",
                    "authoritative": ["maintainer:PyTorch"],
                }
                for name in ("fast", "slow")
            ]
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    return env | {
        "INGEST_SOURCES_FILE": str(registry),
        "INGEST_ALLOW_PRIVATE": "1",
        "INGEST_HOST_DELAY": "0",
        "INGEST_ARXIV_API_URL": f"{server.base}/api/query",
        "INGEST_ARXIV_DELAY": "0",
        "INGEST_BATCH_SIZE": "1",
    }


def _nightly(env: dict[str, str]) -> subprocess.Popen[str]:
    """`ingest nightly` through the local runner: started first (`ingest server start`), as a
    nightly with no runner up runs in its own process instead (these tests are the runner's)."""
    started = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "server", "start"],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert started.returncode == 0, started.stderr
    return subprocess.Popen(
        [sys.executable, "-m", "ingest_cli.cli", "nightly"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _runs(home: Path) -> list[dict[str, Any]]:
    db = sqlite3.connect(home / "ingest.db")
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute("SELECT * FROM runs ORDER BY started")]
    finally:
        db.close()


def _flow_runs(api_url: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = httpx.post(f"{api_url}/flow_runs/filter", json={}).json()
    return sorted(runs, key=lambda r: r["created"])


def _wait_for(what: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s: {what}")


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and ") Z " in stat.read_text())


def test_a_run_whose_runner_died_is_marked_crashed_and_the_next_run_says_so(
    workspace: Settings, server: Server, tmp_path: Path
) -> None:
    offline_profiles(workspace.profiles_dir)
    env = _env(server, tmp_path)
    server.stall.set()
    run = _nightly(env)
    try:
        assert server.slow_asked.wait(120), "the run never reached the slow source"
        state = local_server.read_state(workspace)
        assert state is not None
        os.kill(state.pid, signal.SIGKILL)  # the runner dies; the command is told
        _out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 1
    [line] = [x for x in err.splitlines() if x.startswith("error: ")]
    assert "runner" in line and "(log: " in line, err
    _wait_for(lambda: not _alive(state.prefect_pid))
    [dead] = _runs(workspace.home)
    assert dead["status"] == "running" and dead["finished"] is None and dead["flow_run_id"]

    server.stall.clear()
    server.release.set()
    again = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "nightly"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    # the next run says so, on the terminal and in its report
    said = [x for x in again.stdout.splitlines() if dead["id"] in x]
    assert said and "did not finish" in said[0] and "crashed" in said[0], again.stdout
    report_file = again.stdout.splitlines()[-2].removeprefix("report: ")
    report = json.loads(Path(report_file).with_suffix(".json").read_text())
    assert [r["run_id"] for r in report["previous_crashed"]] == [dead["id"]]
    assert "did not finish" in Path(report_file).with_suffix(".md").read_text()
    # in ingest's database and in Prefect
    crashed, done = _runs(workspace.home)
    assert crashed["id"] == dead["id"] and crashed["status"] == "crashed"
    assert done["status"] == "completed"
    # no runner was up: the next run ran in the command's own process (no flow run), and the
    # runner it started crashed the dead runner's flow run in Prefect as it came up
    assert "run locally" in again.stdout and done["flow_run_id"] is None
    fresh = _wait_for(lambda: local_server.status(workspace), timeout=240)
    assert fresh.pid != state.pid
    states = _wait_for(
        lambda: (
            {r["id"]: r["state_type"] for r in _flow_runs(fresh.api_url)}
            if "CRASHED" in {r["state_type"] for r in _flow_runs(fresh.api_url)}
            else None
        )
    )
    assert states[dead["flow_run_id"]] == "CRASHED"


def test_a_killed_nightly_command_cancels_its_run(
    workspace: Settings, server: Server, tmp_path: Path
) -> None:
    offline_profiles(workspace.profiles_dir)
    env = _env(server, tmp_path)
    server.stall.set()
    run = _nightly(env)
    try:
        assert server.slow_asked.wait(120), "the run never reached the slow source"
        run.kill()  # kill -9 of `ingest nightly` itself; the runner lives on
        run.wait(30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    state = local_server.read_state(workspace)
    assert state is not None
    time.sleep(1.0)
    server.release.set()  # the stalled fetch ends; the run must stop rather than go on
    [row] = _wait_for(lambda: [r for r in _runs(workspace.home) if r["status"] != "running"])
    assert row["status"] == "cancelled", row
    [flow_run] = _wait_for(
        lambda: [r for r in _flow_runs(state.api_url) if r["state_type"] == "CANCELLED"]
    )
    assert flow_run["id"] == row["flow_run_id"]
    assert not list(workspace.reports_dir.glob("20*.json"))  # it went no further: no report
    assert local_server.status(workspace) is not None  # the runner serves the next command
