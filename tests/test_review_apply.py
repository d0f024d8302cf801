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


def test_in_place_changes_the_profile_given_to_what_the_pure_call_returns() -> None:
    """`in_place=True` (a caller that owns its copy: a bulk accept, 100 facts on one profile)
    gives what the pure call gives, on the object given; the pure call leaves its input."""
    infos = [{"url": URL}, {"url": OTHER, "title": "Announcement"}]
    given, owned = profile(), profile()
    pure = apply_fact(given, [added(), added(OTHER)], infos, TODAY)
    assert given == profile() and pure != given
    assert apply_fact(owned, [added(), added(OTHER)], infos, TODAY, in_place=True) is owned
    assert owned == pure


def test_a_removal_drops_the_profile_claim() -> None:
    change = Change(id="y", profile="ada", kind="removed", previous={"id": "c1"}, source_url=URL)
    assert apply_change(profile(), change, {"url": URL}, TODAY).claims == []


def test_an_affiliation_from_three_papers_is_one_claim_each_paper_finds_again() -> None:
    from ingest.facts import same_fact

    def printed_on(paper: str) -> Change:
        claim = {
            "predicate": "affiliation",
            "object": "Facebook AI Research",
            "qualifiers": {"work": f"arXiv:{paper}", "affiliation_text": "Facebook AI Research"},
        }
        url = f"https://arxiv.org/pdf/{paper}"
        return Change(id=paper, profile="ada", kind="added", claim=claim, source_url=url)

    papers = ("1511.06434", "1701.07875", "1912.01703")
    group = [printed_on(p) for p in papers]
    after = apply_fact(profile(), group, [{"url": c.source_url} for c in group], TODAY)
    (claim,) = [c for c in after.claims if c.predicate == "affiliation"]
    assert claim.qualifiers["work"] == "arXiv:1511.06434"
    assert claim.qualifiers["works"] == [f"arXiv:{p}" for p in papers]
    assert len(claim.refs) == 3
    # the next reading of each paper states this very claim (no new flag, no removal)
    for change in [*group, printed_on("1912.01703v2")]:
        q = (change.claim or {})["qualifiers"]
        assert same_fact("affiliation", "Facebook AI Research", q, *_of(claim))
    other_paper = {"work": "arXiv:2311.16098"}
    assert not same_fact("affiliation", "Facebook AI Research", other_paper, *_of(claim))


def _of(claim: object) -> tuple[str, str, dict[str, object]]:
    return claim.predicate, claim.object, claim.qualifiers  # type: ignore[attr-defined]


# -- what a reference records of the evidence (issue 22) -----------------------------------------

JUNE = {
    "url": OTHER,
    "title": "Announcement",
    "accessed": "2026-06-10",
    "snapshot_sha256": "ab" * 32,
    "snapshot_date": "2026-06-10",
    "quote": "Ada Lovelace (ada) joins the Loom maintainers",
}


def test_a_new_reference_is_accessed_the_day_its_evidence_was_seen_and_keeps_it() -> None:
    """Accepting June's recording wrote today as `accessed` and kept neither the snapshot nor
    the quote."""
    after = apply_change(profile(), added(OTHER), JUNE, TODAY)
    ref = after.references[-1]
    assert (ref.url, ref.accessed) == (OTHER, "2026-06-10")
    assert (ref.snapshot_sha256, ref.snapshot_date, ref.quote) == (
        "ab" * 32,
        "2026-06-10",
        "Ada Lovelace (ada) joins the Loom maintainers",
    )
    assert after.updated == "2026-12-01"  # the profile's own edit is today's
    assert "snapshot_sha256" in after.to_json()["references"][-1]


def test_older_evidence_does_not_bump_a_reference_newer_evidence_does() -> None:
    old = {**JUNE, "url": URL}
    after = apply_change(profile(), added(), old, TODAY)
    ref = after.references[0]
    assert ref.accessed == "2026-06-10"  # seen later than its January access: bumped to June
    seen = Profile.model_validate(
        {**profile().to_json(), "references": [{"id": "r1", "url": URL, "accessed": "2026-10-21"}]}
    )
    after = apply_change(seen, added(), old, TODAY)
    ref = after.references[0]
    assert ref.accessed == "2026-10-21"  # not bumped to June, nor to today
    assert (ref.snapshot_date, ref.quote) == ("2026-06-10", old["quote"])  # what was seen, when
    newer = {**old, "accessed": "2026-11-30", "snapshot_date": "2026-11-30", "quote": "Ada (ada)"}
    ref = apply_change(after, added(), newer, TODAY).references[0]
    assert (ref.accessed, ref.snapshot_date, ref.quote) == ("2026-11-30", "2026-11-30", "Ada (ada)")
    older = {**old, "accessed": "2025-01-01", "snapshot_date": "2025-01-01", "quote": "old"}
    ref = apply_change(after, added(), older, TODAY).references[0]
    assert (ref.accessed, ref.snapshot_date, ref.quote) == (
        "2026-10-21",
        "2026-06-10",
        old["quote"],
    )


def test_an_old_profile_file_without_the_new_reference_fields_still_reads() -> None:
    ref = profile().references[0]
    assert ref.snapshot_sha256 is None and ref.snapshot_date is None and ref.quote is None
    assert set(profile().to_json()["references"][0]) == {"id", "url", "title", "accessed"}
