"""An accepted change written into a profile (ingest.review.apply): pure, Profile in and out."""

from __future__ import annotations

from datetime import date

from ingest.models import Change, Profile
from ingest.review.apply import apply_change, apply_fact

URL = "https://example.org/governance"
OTHER = "https://example.org/announcement"
TODAY = date(2026, 12, 1)


def profile() -> Profile:
    return Profile.model_validate(
        {
            "id": "ada",
            "name": "Ada Lovelace",
            "claims": [{"id": "c1", "predicate": "maintainer", "object": "Engine", "refs": []}],
            "references": [
                {"id": "r1", "url": URL, "title": "Old title", "accessed": "2026-01-01"}
            ],
        }
    )


def added(source_url: str = URL) -> Change:
    claim = {"predicate": "maintainer", "object": "Loom", "qualifiers": {"level": "core"}}
    return Change(id="x", profile="ada", kind="added", claim=claim, source_url=source_url)


def test_an_added_claim_gets_the_next_id_and_cites_the_known_reference() -> None:
    before = profile()
    after = apply_change(before, added(), {"url": URL, "title": "New title"}, TODAY)
    new = after.claims[-1]
    assert (new.id, new.object, new.refs) == ("c2", "Loom", ["r1"])
    assert after.references[0].accessed == "2026-12-01"
    assert after.references[0].title == "Old title"  # a known title is kept
    assert after.updated == "2026-12-01"
    assert [c.id for c in before.claims] == ["c1"]  # the input is not changed


def test_a_fact_from_two_sources_is_one_claim_citing_both() -> None:
    infos = [{"url": URL}, {"url": OTHER, "title": "Announcement", "publisher": "Example"}]
    after = apply_fact(profile(), [added(), added(OTHER)], infos, TODAY)
    assert [c.id for c in after.claims] == ["c1", "c2"]
    assert after.claims[-1].refs == ["r1", "r2"]
    assert (after.references[1].url, after.references[1].title) == (OTHER, "Announcement")


def test_a_removal_drops_the_profile_claim() -> None:
    change = Change(id="y", profile="ada", kind="removed", previous={"id": "c1"}, source_url=URL)
    assert apply_change(profile(), change, {"url": URL}, TODAY).claims == []
