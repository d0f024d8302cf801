"""The nightly's Dask fan-out: fetch batches on a LocalCluster of two worker processes.

The recorded sources are checked twice against one real `prefect server start` on loopback:
with threads in the CLI's process, then with INGEST_DASK_ADDRESS=local. Both runs must find the
same; the second must have run its fetches as `fetch-batch-remote` task runs in processes other
than the CLI's, all completed, as Prefect recorded them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from ingest.settings import BUNDLED_WEB

from .conftest import ROOT
from .prefect_server import free_port, prefect_server


def nightly(env: dict[str, str], home: Path, **extra: str) -> tuple[int, dict[str, Any]]:
    """Run `ingest nightly --replay` on the recorded sources; its pid and its JSON report."""
    run = subprocess.Popen(
        [sys.executable, "-m", "ingest_cli.cli", "nightly", "--replay", str(BUNDLED_WEB)],
        env=env | {"INGEST_HOME": str(home), "INGEST_BATCH_SIZE": "3"} | extra,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, out + err[-4000:]
    (report,) = (home / "reports").glob("*.json")
    return run.pid, json.loads(report.read_text())


def findings(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "sources": {s["url"]: (s["status"], s["snapshot"], s["error"]) for s in report["sources"]},
        "changes": sorted(c["id"] for s in report["sources"] for c in s["changes"]),
        "counts": report["counts"],
        "flags": report["flags"],
    }


@pytest.mark.prefect
def test_nightly_fetch_batches_run_on_a_dask_local_cluster(tmp_path: Path) -> None:
    with prefect_server(tmp_path / "prefect") as (api, env):
        _, threads = nightly(env, tmp_path / "threads")
        cli_pid, dask = nightly(
            env,
            tmp_path / "dask",
            INGEST_DASK_ADDRESS="local",
            INGEST_DASK_WORKERS="2",
            PREFECT_LOGGING_LEVEL="INFO",  # the batches' "fetched in process N" lines
        )
        assert findings(dask) == findings(threads)
        assert threads["counts"]["fetched"] >= 20  # the recorded sources, not an empty run
        assert [s["url"] for s in dask["sources"]] == [s["url"] for s in threads["sources"]]

        with httpx.Client(base_url=api, timeout=30) as client:
            runs = client.post(
                "/task_runs/filter",
                json={"task_runs": {"name": {"like_": "fetch-batch-remote"}}, "limit": 200},
            ).json()
            local = client.post(
                "/task_runs/filter",
                json={"task_runs": {"name": {"like_": "fetch-batch-"}}, "limit": 200},
            ).json()
            assert len(runs) >= 5, runs  # ~25 sources in batches of 3, by host
            assert {r["state_type"] for r in runs} == {"COMPLETED"}
            assert len(local) > len(runs)  # the threads run's fetch-batch runs are there too
            logs = client.post(
                "/logs/filter",
                json={"logs": {"task_run_id": {"any_": [r["id"] for r in runs]}}, "limit": 200},
            ).json()
    pids = {
        int(found.group(1))
        for log in logs
        if (found := re.search(r"sources in process (\d+)", log["message"]))
    }
    assert pids and cli_pid not in pids


@pytest.mark.prefect
def test_an_unreachable_scheduler_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    closed = free_port()  # nothing listens there
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("INGEST_")}
    done = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "nightly", "--replay", str(BUNDLED_WEB)],
        env=env
        | {
            "INGEST_HOME": str(home),
            "INGEST_DASK_ADDRESS": f"tcp://127.0.0.1:{closed}",
            "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s",
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: could not start the Dask task runner for INGEST_DASK_ADDRESS=")
    assert f"127.0.0.1:{closed}" in last
    assert (home / "ingest.db").exists() and not (home / "reports").exists()
