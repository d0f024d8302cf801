"""kill -9 in the middle of a nightly run, then a rerun: nothing lost, nothing doubled."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import extractors
from ingest.documents import snapshot_from_file
from ingest.models import Source
from ingest.pipeline.process import process_snapshot
from ingest.profiles.io import load_profiles, write_profile
from ingest.review.decisions import decide
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import GOVERNANCE
from .loopback import LoopbackServer, QuietHandler, reply

PAGE = (GOVERNANCE / "persons_of_interest.7f149bc3.md").read_bytes()


class Server:
    def __init__(self) -> None:
        self.stall = threading.Event()  # set: /slow hangs until released
        self.release = threading.Event()
        self.slow_asked = threading.Event()
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                if self.path == "/slow.md":
                    outer.slow_asked.set()
                    if outer.stall.is_set():
                        outer.release.wait(120)
                    body, status = PAGE + b"\n<!-- served slowly -->\n", 200
                elif self.path == "/fast.md":
                    body, status = PAGE + b"\n<!-- the same page, served elsewhere -->\n", 200
                else:
                    body, status = b"not here", 404
                reply(self, status, body, "text/markdown")

        self.httpd = LoopbackServer(Handler).start()
        self.base = self.httpd.base

    def close(self) -> None:
        self.release.set()
        self.httpd.close()


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    yield srv
    srv.close()


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_tree(pid: int) -> None:
    for victim in [pid, *descendants(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)


def state_of(home: Path) -> dict[str, object]:
    db = sqlite3.connect(home / "ingest.db")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        snaps = db.execute("SELECT sha256 FROM snapshots").fetchall()
        for (sha,) in snaps:  # every snapshot row has its body, and the body is what it says
            body = (home / "snapshots" / sha[:2] / sha).read_bytes()
            assert hashlib.sha256(body).hexdigest() == sha
        return {
            "snapshots": len(snaps),
            "claims": db.execute("SELECT count(*) FROM claims").fetchone()[0],
            "changes": sorted(r[0] for r in db.execute("SELECT id FROM changes")),
            "decisions": db.execute("SELECT change_id, status, editor FROM decisions").fetchall(),
            "audit": db.execute("SELECT count(*) FROM audit_log").fetchone()[0],
        }
    finally:
        db.close()


def offline_profiles(folder: Path) -> None:
    """The bundled profiles with their maintainer roles only: no reference or paper that the
    nightly run would try to reach on the internet."""
    for profile in load_profiles(folder).values():
        profile.references = []
        profile.claims = [c for c in profile.claims if c.predicate == "maintainer"]
        for claim in profile.claims:
            claim.refs = []
        write_profile(folder, profile)


@pytest.mark.prefect
def test_kill_9_mid_run_then_rerun_loses_and_doubles_nothing(
    workspace: Settings, server: Server, tmp_path: Path
) -> None:
    registry = tmp_path / "sources.json"
    registry.write_text(
        json.dumps(
            [
                {
                    "url": f"{server.base}/fast.md",
                    "extractor": "pytorch_governance",
                    "authoritative": ["maintainer:PyTorch"],
                },
                {
                    "url": f"{server.base}/slow.md",
                    "extractor": "pytorch_governance",
                    "authoritative": ["maintainer:PyTorch"],
                },
            ]
        )
    )
    env = dict(
        os.environ,
        INGEST_SOURCES_FILE=str(registry),
        INGEST_ALLOW_PRIVATE="1",
        INGEST_HOST_DELAY="0",
        INGEST_ARXIV_API_URL=f"{server.base}/api/query",
        INGEST_ARXIV_DELAY="0",
        # a batch is stored once all of it is fetched: one source per batch, so the fast page
        # is stored while the slow one stalls and the kill lands between the two
        INGEST_BATCH_SIZE="1",
    )
    # an editor's decision taken before the run must survive it
    store = Store.open(workspace)
    src = Source(
        url="https://example.org/m",
        extractor="pytorch_governance",
        authoritative=["maintainer:PyTorch"],
    )
    outcome = process_snapshot(
        store,
        workspace,
        src,
        snapshot_from_file(src.url, GOVERNANCE / "persons_of_interest.7f149bc3.md", 10**8),
        load_profiles(workspace.profiles_dir),
        extractors=extractors,
    )
    decide(store, workspace.profiles_dir, outcome.changes[0]["id"], "rejected", "ed", note="no")
    store.close()
    before = state_of(workspace.home)

    server.stall.set()
    run = subprocess.Popen(
        [sys.executable, "-m", "ingest_cli.cli", "nightly"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert server.slow_asked.wait(120), "the run never reached the slow source"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # let it store what it got from the fast source
            db = sqlite3.connect(workspace.home / "ingest.db")
            done = db.execute(
                "SELECT last_sha256 FROM sources WHERE url = ?", (f"{server.base}/fast.md",)
            ).fetchone()
            db.close()
            if done and done[0]:
                break
            time.sleep(0.2)
        time.sleep(0.5)
        # as a supervisor (systemd, a container runtime) kills a job: with its children, so
        # the temporary Prefect server it started does not outlive it
        kill_tree(run.pid)
    finally:
        run.wait(30)
    assert run.returncode == -signal.SIGKILL
    during = state_of(workspace.home)
    assert during["decisions"] == before["decisions"]
    assert set(before["changes"]) <= set(during["changes"])

    server.stall.clear()
    server.release.set()
    rerun = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "nightly"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert rerun.returncode == 0, rerun.stderr
    after = state_of(workspace.home)
    assert after["decisions"] == before["decisions"]
    assert set(during["changes"]) <= set(after["changes"])
    assert len(after["changes"]) == len(set(after["changes"]))
    assert after["snapshots"] == during["snapshots"] + 1  # the slow page, stored once
    again = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "nightly"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0
    final = state_of(workspace.home)
    assert (final["snapshots"], final["claims"], final["changes"]) == (
        after["snapshots"],
        after["claims"],
        after["changes"],
    )
