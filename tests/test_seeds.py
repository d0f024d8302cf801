"""The bundled seed profiles against the newest maintainers page: the seeds' roles are confirmed."""

from __future__ import annotations

from ingest.documents import snapshot_from_file
from ingest.models import Source
from ingest.pipeline import process_snapshot
from ingest.profiles import load_profiles
from ingest.settings import Settings
from ingest.store import Store

from .conftest import GOVERNANCE, STABLE_URL

NEWEST = "constructed.docs-2.14.persons_of_interest.pydata.html"


def test_seed_roles_are_confirmed_not_flagged(store: Store, workspace: Settings) -> None:
    source = Source(
        url=STABLE_URL, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"]
    )
    store.upsert_source(source)
    profiles = load_profiles(workspace.profiles_dir)
    outcome = process_snapshot(
        store,
        workspace,
        source,
        snapshot_from_file(STABLE_URL, GOVERNANCE / NEWEST, 10**8),
        profiles,
    )
    assert outcome.claims == 258 and not outcome.alerts
    by_profile: dict[str, list[dict]] = {}
    for change in outcome.changes:
        by_profile.setdefault(change["profile"], []).append(change)
    # Natalia: core, CUDA, emeritus NestedTensor and profiling tools are all on the page
    assert "natalia-gimelshein" not in by_profile
    # Alban: the lead role and the five module roles are confirmed; the page adds two emeritus
    alban = by_profile["alban-desmaison"]
    assert {c["kind"] for c in alban} == {"added"}
    assert {c["claim"]["qualifiers"]["status"] for c in alban} == {"emeritus"}
    # nothing in any profile is flagged removed: every seed role is still stated
    assert not [c for c in outcome.changes if c["kind"] == "removed"]
    # Soumith's profile states no maintainer roles: the page's are proposed for him
    soumith = {
        (c["claim"]["qualifiers"]["level"], c["claim"]["qualifiers"]["status"])
        for c in by_profile["soumith-chintala"]
    }
    assert ("core", "current") in soumith
    # everyone else on the page has no profile and is listed, not flagged
    assert len(outcome.unknown_people) > 150
    assert set(by_profile) == {"alban-desmaison", "soumith-chintala"}
