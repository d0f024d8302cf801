"""References: `accessed` refreshed on a real access; flagged after three failed checks."""

from __future__ import annotations

import json
from datetime import date

import extractors
from ingest.errors import HTTPStatusError
from ingest.fetch.client import FetchResult
from ingest.models import Snapshot, Source
from ingest.pipeline.process import process_snapshot, record_failure
from ingest.profiles.io import load_profiles
from ingest.profiles.references import flag_unreachable, record_reachable
from ingest.review.decisions import decide
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import GOVERNANCE, STABLE_URL

UNREACHABLE_AFTER = Settings().unreachable_after
LICENSE = "https://github.com/pytorch/pytorch/blob/main/LICENSE"


def accessed_of(workspace: Settings, pid: str, url: str) -> set[str | None]:
    data = json.loads((workspace.profiles_dir / f"{pid}.json").read_text())
    return {r.get("accessed") for r in data["references"] if r.get("url") == url}


def fail(store: Store, url: str, times: int) -> None:
    for _ in range(times):
        record_failure(store, Source(url=url), HTTPStatusError(url, 404))


def test_a_real_access_refreshes_accessed_and_a_replay_does_not(
    store: Store, workspace: Settings
) -> None:
    from ingest.documents import snapshot_from_file

    source = Source(
        url=STABLE_URL, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"]
    )
    snap = snapshot_from_file(STABLE_URL, GOVERNANCE / "persons_of_interest.7f149bc3.md", 10**8)
    profiles = load_profiles(workspace.profiles_dir)
    # replay/--file: no access
    process_snapshot(store, workspace, source, snap, profiles, extractors=extractors)
    assert accessed_of(workspace, "alban-desmaison", STABLE_URL) == {"2026-10-21"}
    process_snapshot(
        store, workspace, source, snap, profiles, accessed=date(2026, 11, 29), extractors=extractors
    )
    assert accessed_of(workspace, "alban-desmaison", STABLE_URL) == {"2026-11-29"}
    assert accessed_of(workspace, "natalia-gimelshein", STABLE_URL) == {"2026-11-29"}
    audit = [e for e in store.audit_entries() if e["action"] == "accessed-refreshed"]
    assert {e["profile"] for e in audit} >= {"alban-desmaison", "natalia-gimelshein"}


def test_a_broken_page_refreshes_nothing(store: Store, workspace: Settings) -> None:
    source = Source(url=STABLE_URL, extractor="pytorch_governance")
    login = Snapshot(
        url=STABLE_URL,
        headers={"content-type": "text/html"},
        body=b"<html><title>Sign in</title><form><input type=password></form>",
    )
    outcome = process_snapshot(
        store,
        workspace,
        source,
        login,
        load_profiles(workspace.profiles_dir),
        accessed=date(2026, 11, 29),
        extractors=extractors,
    )
    assert outcome.alerts
    assert accessed_of(workspace, "alban-desmaison", STABLE_URL) == {"2026-10-21"}


def test_a_reference_is_flagged_after_three_failures_not_one(
    store: Store, workspace: Settings
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    fail(store, LICENSE, UNREACHABLE_AFTER - 1)
    assert flag_unreachable(store, profiles, UNREACHABLE_AFTER) == []
    fail(store, LICENSE, 1)
    flags = flag_unreachable(store, profiles, UNREACHABLE_AFTER)
    assert {f["profile"] for f in flags} == {"alban-desmaison", "natalia-gimelshein"}
    flag = flags[0]
    assert flag["kind"] == "changed" and flag["claim"]["predicate"] == "reference"
    assert flag["claim"]["qualifiers"]["status"] == "unreachable"
    assert "404" in flag["claim"]["qualifiers"]["reason"]
    assert flag["previous"]["url"] == LICENSE
    # a fourth failure does not queue it twice
    fail(store, LICENSE, 1)
    flag_unreachable(store, profiles, UNREACHABLE_AFTER)
    assert len([c for c in store.list_changes(status="pending") if c.source_url == LICENSE]) == 2


def test_an_answer_resets_the_count_and_retires_the_flag(store: Store, workspace: Settings) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    fail(store, LICENSE, UNREACHABLE_AFTER)
    flag_unreachable(store, profiles, UNREACHABLE_AFTER)
    ok = FetchResult(
        status="fetched",
        snapshot=Snapshot(url=LICENSE, body=b"BSD"),
        url=LICENSE,
        final_url=LICENSE,
        http_status=200,
    )
    outcome = record_reachable(store, workspace.profiles_dir, LICENSE, ok, None)
    assert outcome.status == "fetched"
    assert store.source_state(LICENSE)["fail_streak"] == 0
    assert not [c for c in store.list_changes(status="pending") if c.source_url == LICENSE]
    fail(store, LICENSE, 1)  # one blip after an answer is not enough
    assert flag_unreachable(store, profiles, UNREACHABLE_AFTER) == []


def test_accepting_an_unreachable_flag_marks_the_reference(
    store: Store, workspace: Settings
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    fail(store, LICENSE, UNREACHABLE_AFTER)
    flags = flag_unreachable(store, profiles, UNREACHABLE_AFTER)
    flag = next(f for f in flags if f["profile"] == "alban-desmaison")
    decide(store, workspace.profiles_dir, flag["id"], "accepted", "ed", today=date(2026, 11, 29))
    data = json.loads((workspace.profiles_dir / "alban-desmaison.json").read_text())
    ref = next(r for r in data["references"] if r.get("url") == LICENSE)
    assert ref["status"] == "unreachable" and ref["unreachable_since"] == "2026-11-29"


def test_accepting_a_recording_of_june_cites_june_and_the_snapshot(
    store: Store, workspace: Settings
) -> None:
    """Issue 22: accepting a change whose evidence is a recording of June wrote today as the
    reference's `accessed` and bumped the existing reference too; the reference kept neither the
    snapshot's date and hash nor the quote."""
    from .helpers import page

    replayed = page(
        ("Lead Core Maintainer", "", [("Alban Desmaison", "albanD")]),
        ("Core Maintainers", "", [("Soumith Chintala", "soumith"), ("Edward Yang", "ezyang")]),
        ("Module-level maintainers", "Loom (torch.loom)", [("Alban Desmaison", "albanD")]),
        url=STABLE_URL,
    )
    replayed.headers.update({"x-ingest-replay": "hit", "x-ingest-replay-date": "2026-06-10"})
    source = Source(url=STABLE_URL, extractor="pytorch_governance", title="Maintainers")
    store.upsert_source(source)
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_snapshot(store, workspace, source, replayed, profiles, extractors=extractors)
    loom = next(
        c
        for c in outcome.changes
        if c["profile"] == "alban-desmaison" and c["kind"] == "added" and "Loom" in json.dumps(c)
    )
    decide(store, workspace.profiles_dir, loom["id"], "accepted", "ed", today=date(2026, 12, 1))
    data = json.loads((workspace.profiles_dir / "alban-desmaison.json").read_text())
    ref = next(r for r in data["references"] if r.get("url") == STABLE_URL)
    assert ref["accessed"] == "2026-10-21"  # seen then for real: not bumped to June, nor today
    assert ref["snapshot_sha256"] == replayed.sha256 and ref["snapshot_date"] == "2026-06-10"
    assert ref["quote"] == loom["claim"]["evidence"]["quote"]
    assert data["updated"] == "2026-12-01"
