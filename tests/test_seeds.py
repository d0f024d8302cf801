"""The bundled seed profiles against the newest maintainers page: the seeds' roles are confirmed."""

from __future__ import annotations

import extractors
from ingest.documents import snapshot_from_file
from ingest.models import Source
from ingest.pipeline.process import process_snapshot
from ingest.profiles.io import load_profiles
from ingest.settings import Settings
from ingest.storage import Store

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
        extractors=extractors,
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


ANNOUNCEMENTS = [
    (
        "constructed-dev-discuss-2280-core-maintainers.json",
        "https://dev-discuss.pytorch.org/t/"
        "alban-desmaison-and-piotr-bialecki-are-now-pytorch-core-maintainers/2280.json",
    ),
    (
        "constructed-dev-discuss-lead-core-maintainer-change.html",
        "https://dev-discuss.pytorch.org/t/lead-core-maintainer-change/3321",
    ),
    (
        "constructed-pytorch-blog-gtc-2026.html",
        "https://pytorch.org/blog/pytorch-at-nvidia-gtc-2026/",
    ),
    (
        "constructed-pytorch-blog-conference-europe-2026.html",
        "https://pytorch.org/blog/pytorch-conference-europe-2026/",
    ),
]


def test_seed_announcements_confirm_the_seed_profiles(store: Store, workspace: Settings) -> None:
    from pathlib import Path

    from ingest.pipeline.registry import source_for

    folder = Path(GOVERNANCE).parent / "announcements"
    seen = {}
    for name, url in ANNOUNCEMENTS:
        source = source_for(url, [], extractors=extractors)
        assert source.extractor is None  # a post's content decides which extractor reads it
        outcome = process_snapshot(
            store,
            workspace,
            source,
            snapshot_from_file(url, folder / name, 10**8),
            load_profiles(workspace.profiles_dir),
            extractors=extractors,
        )
        seen[name] = outcome
        assert outcome.claims and not outcome.alerts
        assert (outcome.extractor or "").startswith("announcement/")
    # Alban and Piotr core since 2024-07, Alban lead since 2026-05, the GTC talk, the Paris
    # conference: all stated by the bundled profiles, so nothing is flagged for Alban or Natalia
    flagged = {c["profile"] for o in seen.values() for c in o.changes}
    assert "alban-desmaison" not in flagged and "natalia-gimelshein" not in flagged
    assert seen[ANNOUNCEMENTS[0][0]].unknown_people == ["Piotr Bialecki (ptrblck)"]
    # the lead passing from Soumith is news for his profile, which states no lead role
    [soumith] = seen[ANNOUNCEMENTS[1][0]].changes
    assert soumith["profile"] == "soumith-chintala" and soumith["kind"] == "added"
    assert soumith["claim"]["qualifiers"]["until"] == "2026-05-07"
