"""The nightly refresh as the README runs it: a real Prefect flow over the replay archive."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import extractors
from ingest.pipeline.registry import load_registry, plan
from ingest.profiles.io import load_profiles
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import ROOT, STABLE_URL


def nightly(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "nightly", *args],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_plan_covers_registry_and_profile_references(workspace: Settings) -> None:
    todo = plan(
        load_registry(workspace.sources_file),
        load_profiles(workspace.profiles_dir),
        extractors=extractors,
    )
    assert [s.url for s in todo.sources] == [
        STABLE_URL,
        "https://pytorch.org/feed.xml",
        "https://dev-discuss.pytorch.org/latest.rss",
    ]
    reachability = dict(todo.reachability)
    # cited, no extractor reads it: only checked for an answer
    assert "https://pytorch.org/assets/pytorch2-2.pdf" in reachability
    assert all("no extractor" in why for why in reachability.values())
    # arXiv references are the arXiv stage's
    assert not any("arxiv.org" in url for url in reachability)


def governance(report: dict) -> dict:
    return next(s for s in report["sources"] if s["url"] == STABLE_URL)


@pytest.mark.prefect
def test_nightly_replay_time_travel_writes_reports_and_queue(workspace: Settings) -> None:
    web = str(ROOT / "fixtures" / "web")
    old = nightly("--replay", web, "--as-of", "2024-06-01")
    assert old.returncode == 0, old.stderr
    report = json.loads((workspace.reports_dir / "2024-06-01.json").read_text())
    source = governance(report)
    # arXiv answers were recorded in 2026: in 2024 the replay has none, and says so
    arxiv = [s for s in report["sources"] if s is not source]
    assert arxiv and all(s["status"] == "skipped" for s in arxiv)
    assert all("no recorded response in force on 2024-06-01" in s["error"] for s in arxiv)
    assert source["final_url"] == STABLE_URL  # 2024: the stable URL served the 2.2 page itself
    assert source["claims"] == 184 and source["status"] == "fetched"
    md = (workspace.reports_dir / "2024-06-01.md").read_text()
    assert "People not in the wiki" in md and "Flags for review" in md
    # the 2024 page does not list Natalia as a core maintainer yet: her core role is flagged for
    # removal; Alban's lead role, announced in 2026, is not removed by a page written in 2024
    store = Store.open(workspace)
    pending = store.list_changes(status="pending")
    assert any(
        c.profile == "natalia-gimelshein"
        and c.kind == "removed"
        and c.previous["qualifiers"]["level"] == "core"
        for c in pending
    )
    assert not any(
        c.profile == "alban-desmaison"
        and c.kind == "removed"
        and c.previous["qualifiers"].get("level") == "lead"
        for c in pending
    )

    new = nightly("--replay", web)
    assert new.returncode == 0, new.stderr
    latest = json.loads(sorted(workspace.reports_dir.glob("20*.json"))[-1].read_text())
    source = governance(latest)
    assert source["final_url"].endswith("/docs/2.14/community/persons_of_interest.html")
    assert source["claims"] == 258
    # today's page lists Natalia as core again: the removal is withdrawn, not left pending
    pending = store.list_changes(status="pending")
    assert not any(
        c.kind == "removed" and c.previous["predicate"] == "maintainer"
        for c in pending
        if c.profile in ("natalia-gimelshein", "alban-desmaison")
    )
    store.close()
    again = nightly("--replay", web)
    assert again.returncode == 0
    rerun = json.loads(sorted(workspace.reports_dir.glob("20*.json"))[-1].read_text())
    assert governance(rerun)["status"] == "unchanged"


@pytest.mark.prefect
def test_every_source_failed_exits_1_in_process_too(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Against a configured Prefect server (the flow in the command's own process), as through
    the local runner (tests/test_local_runner.py): the report is written, the command exits 1."""
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/gone"
    registry = tmp_path / "sources.json"
    registry.write_text(json.dumps([{"url": dead, "extractor": "pytorch_governance"}]))
    (tmp_path / "none").mkdir()
    for key, value in {
        "INGEST_PROFILES_DIR": str(tmp_path / "none"),
        "INGEST_SOURCES_FILE": str(registry),
        "INGEST_ALLOW_PRIVATE": "1",
        "INGEST_MAX_ATTEMPTS": "1",
        "INGEST_ARXIV_API_URL": dead,
    }.items():
        monkeypatch.setenv(key, value)
    done = nightly()
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("error: 1 of 1 sources failed (--fail-on 1)"), done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[-1] == "nothing pending for review"
    report = json.loads(sorted(workspace.reports_dir.glob("20*.json"))[-1].read_text())
    assert report["counts"]["failed"] == 1
