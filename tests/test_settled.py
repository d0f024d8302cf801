"""An unchanged source costs a conditional request and nothing else (ingest.pipeline.settled):
the nightly's fast path gives the full path's outcome, and anything the diff depends on sends it
the full way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import extractors
import ingest.pipeline.batches
from flows.tasks import process_batch
from ingest.documents import snapshot_from_file
from ingest.fetch.client import FetchResult
from ingest.models import Profile, Source
from ingest.pipeline.batches import FetchAnswer
from ingest.profiles.io import load_profiles
from ingest.review.decisions import decide
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import ROOT

pytestmark = pytest.mark.postgres

URL = "https://docs.example.org/community/persons_of_interest.md"
PAGE = ROOT / "fixtures" / "governance" / "persons_of_interest.7f149bc3.md"
SOURCE = Source(url=URL, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"])


@pytest.fixture
def full_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs that went the full way (extract or reuse claims, diff, enqueue)."""
    seen: list[str] = []
    real = ingest.pipeline.batches.source_fetched

    def spy(store: Store, settings: Settings, source: Source, *args: Any, **kwargs: Any) -> Any:
        seen.append(source.url)
        return real(store, settings, source, *args, **kwargs)

    monkeypatch.setattr(ingest.pipeline.batches, "source_fetched", spy)
    return seen


def fetched(path: Path = PAGE) -> FetchResult:
    snap = snapshot_from_file(URL, path, 10**8)
    return FetchResult("fetched", snap, URL, URL, 200, etag='"v1"')


def not_modified() -> FetchResult:
    return FetchResult("unchanged", None, URL, URL, 304, etag='"v1"')


def check(
    store: Store, settings: Settings, profiles: dict[str, Profile], answer: FetchAnswer
) -> dict[str, Any]:
    (outcome,) = process_batch.fn(store, settings, [(SOURCE, None)], [answer], profiles, None, "r")
    found = outcome.to_json()
    found["changes"] = sorted((c["id"], c["kind"], c["status"]) for c in found["changes"])
    return found


def test_unchanged_source_skips_the_work_and_gives_the_same_outcome(
    workspace: Settings, store: Store, full_checks: list[str]
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    first = check(store, workspace, profiles, fetched())
    assert first["status"] == "fetched" and first["changes"]  # the seeds differ from the page
    assert full_checks == [URL]

    # the fast path reads the pending changes it lists with one query, not one each
    one_by_one = store.get_change
    store.get_change = lambda *a, **k: pytest.fail("a change read alone")  # type: ignore[method-assign]
    fast = check(store, workspace, profiles, not_modified())
    store.get_change = one_by_one  # type: ignore[method-assign]
    assert full_checks == [URL]  # no second full check
    store.update_source_state(URL, settled=None)  # forget: the full way, for comparison
    full = check(store, workspace, profiles, not_modified())
    assert full_checks == [URL, URL]
    assert fast == full
    assert fast["status"] == "unchanged" and fast["changes"] == first["changes"]
    assert fast["claims"] == first["claims"] > 200
    assert fast["unknown_people"] == first["unknown_people"]

    state = store.source_state(URL)
    assert state is not None
    assert state["last_status"] == "unchanged" and state["fail_streak"] == 0
    with store.begin() as conn:
        rows = conn.exec_driver_sql("SELECT status, http_status FROM fetches").fetchall()
    assert [tuple(r) for r in rows] == [("fetched", 200), ("unchanged", 304), ("unchanged", 304)]


def test_a_decision_or_a_profile_edit_sends_it_the_full_way(
    workspace: Settings, store: Store, full_checks: list[str]
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    first = check(store, workspace, profiles, fetched())
    rejected = first["changes"][0][0]
    decide(store, workspace.profiles_dir, rejected, "rejected", "ed", note="not so")
    after = check(store, workspace, profiles, not_modified())
    assert full_checks == [URL, URL]  # the rejection changed a status the record names
    assert rejected not in {c[0] for c in after["changes"]}
    assert check(store, workspace, profiles, not_modified()) == after
    assert full_checks == [URL, URL]  # settled again

    # a reference's `accessed` date is not what the diff reads: still the fast way
    pid = next(p for p in profiles if profiles[p].references)
    refs = [r.model_copy(update={"accessed": "2030-01-01"}) for r in profiles[pid].references]
    dated = profiles | {pid: profiles[pid].model_copy(update={"references": refs})}
    check(store, workspace, dated, not_modified())
    assert full_checks == [URL, URL]
    # any other edit is
    renamed = profiles | {pid: profiles[pid].model_copy(update={"aliases": ["Someone Else"]})}
    check(store, workspace, renamed, not_modified())
    assert full_checks == [URL, URL, URL]


def test_a_new_extractor_version_or_a_bad_snapshot_sends_it_the_full_way(
    workspace: Settings, store: Store, full_checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    check(store, workspace, profiles, fetched())
    module = extractors.REGISTRY["pytorch_governance"]
    monkeypatch.setattr(module, "VERSION", module.VERSION + 1)
    again = check(store, workspace, profiles, not_modified())
    assert full_checks == [URL, URL]
    assert again["extractor"] == f"pytorch_governance/{module.VERSION}"
    check(store, workspace, profiles, not_modified())
    assert full_checks == [URL, URL]  # settled on the new version

    # the same bytes answered 200 without validators: unchanged, fast
    check(store, workspace, profiles, FetchResult("unchanged", fetched().snapshot, URL, URL, 200))
    assert full_checks == [URL, URL]
