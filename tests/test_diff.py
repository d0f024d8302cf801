"""The diff rules of DESIGN.md, on hand-made claims and profiles (pure functions)."""

from __future__ import annotations

from ingest.diff import DiffInput, detect_renames, diff
from ingest.models import Profile, ProfileClaim, Reference, Source

from .helpers import claim

URL = "https://example.org/m"
SOURCE = Source(url=URL, authoritative=["maintainer:PyTorch"])


def profile(*claims: ProfileClaim, refs: list[Reference] | None = None) -> Profile:
    return Profile(
        id="ada-lovelace",
        name="Ada Lovelace",
        accounts={"github": "AdaL"},
        claims=list(claims),
        references=refs or [],
    )


def pc(
    cid: str,
    level: str,
    section: str | None = None,
    scope: str | None = None,
    status: str | None = "current",
    predicate: str = "maintainer",
    obj: str = "PyTorch",
    refs: list[str] | None = None,
) -> ProfileClaim:
    q = {"level": level}
    if section:
        q["section"] = section
    if scope:
        q["scope"] = scope
    if status:
        q["status"] = status
    return ProfileClaim(id=cid, predicate=predicate, object=obj, qualifiers=q, refs=refs or [])


def run(p: Profile, claims, allow_removals: bool = True, renames=None):
    return diff(
        DiffInput(
            source=SOURCE,
            snapshot_sha256="0" * 64,
            resolved=[(p.id, c) for c in claims],
            profiles={p.id: p},
            allow_removals=allow_removals,
            renames=renames or {},
        )
    )


def test_matching_statement_flags_nothing() -> None:
    p = profile(pc("c1", "module", "Optimizers (torch.optim)", "torch.optim"))
    assert (
        run(p, [claim("Ada Lovelace", "adal", "module", "Optimizers (torch.optim)", "torch.optim")])
        == []
    )


def test_scope_only_or_section_only_profiles_match() -> None:
    page_claims = [
        claim("Ada Lovelace", "adal", "module", "Optimizers (torch.optim)", "torch.optim"),
        claim("Ada Lovelace", "adal", "module", "CUDA", "CUDA"),
        claim(
            "Ada Lovelace",
            "adal",
            "module",
            "NestedTensor (torch.nested)",
            "torch.nested",
            status="emeritus",
        ),
    ]
    p = profile(
        pc("c1", "module", scope="torch.optim"),
        pc("c2", "module", section="CUDA"),
        pc("c3", "module", scope="NestedTensor", status="emeritus"),
    )
    assert run(p, page_claims) == []


def test_new_fact_is_added_with_the_candidate_claim() -> None:
    p = profile()
    [change] = run(p, [claim("Ada Lovelace", "adal", "core", "Core Maintainers")])
    assert change.kind == "added" and change.previous is None
    assert change.claim["qualifiers"]["level"] == "core"
    assert change.profile == "ada-lovelace" and change.source_url == URL


def test_status_change_is_one_changed_flag() -> None:
    p = profile(pc("c1", "module", "CUDA", "CUDA"))
    [change] = run(p, [claim("Ada Lovelace", "adal", "module", "CUDA", "CUDA", status="emeritus")])
    assert change.kind == "changed"
    assert change.previous["id"] == "c1"
    assert change.claim["qualifiers"]["status"] == "emeritus"


def test_missing_authoritative_fact_is_removed_unless_guarded() -> None:
    p = profile(pc("c1", "core", "Core Maintainers"), pc("c2", "module", "CUDA", "CUDA"))
    changes = run(p, [claim("Ada Lovelace", "adal", "module", "CUDA", "CUDA")])
    assert [(c.kind, c.previous["id"]) for c in changes] == [("removed", "c1")]
    assert changes[0].claim["evidence"]["quote"] == ""
    assert (
        run(p, [claim("Ada Lovelace", "adal", "module", "CUDA", "CUDA")], allow_removals=False)
        == []
    )


def test_facts_outside_the_sources_authority_are_left_alone() -> None:
    p = profile(
        pc("c1", "lead", predicate="position", obj="Meta", section=None),
        pc("c2", "core", "Core Maintainers", obj="TensorFlow"),
    )
    assert run(p, []) == []


def test_a_fact_citing_the_source_is_removed_when_gone() -> None:
    ref = Reference(id="r1", url=URL, title="page")
    p = profile(
        pc("c1", "lead", predicate="speaker", obj="Some Event", section=None, refs=["r1"]),
        refs=[ref],
    )
    [change] = run(p, [])
    assert change.kind == "removed" and change.previous["id"] == "c1"


def test_renamed_heading_gives_one_changed_flag() -> None:
    p = profile(pc("c1", "module", "Apple M1/MPS", "Apple M1/MPS"))
    [change] = run(
        p, [claim("Ada Lovelace", "adal", "module", "Apple M1/MPS/Metal", "Apple M1/MPS/Metal")]
    )
    assert change.kind == "changed"
    assert change.claim["qualifiers"]["section"] == "Apple M1/MPS/Metal"


def test_rename_detected_from_page_history() -> None:
    old = [claim(n, n.lower(), "module", "Performance Tools") for n in ("Ada", "Bob", "Cy")]
    new = [
        claim(n, n.lower(), "module", "Profiling and Monitoring Tools")
        for n in ("Ada", "Bob", "Dee")
    ]
    renames = detect_renames(old, new)
    assert renames == {"Performance Tools": "Profiling and Monitoring Tools"}
    p = profile(pc("c1", "module", "Performance Tools", "Performance Tools"))
    new_claim = claim(
        "Ada Lovelace",
        "adal",
        "module",
        "Profiling and Monitoring Tools",
        "Profiling and Monitoring Tools",
    )
    [change] = run(p, [new_claim], renames=renames)
    assert change.kind == "changed"
    # without the history the two headings share too little to pair: added + removed
    assert sorted(c.kind for c in run(p, [new_claim])) == ["added", "removed"]


def test_unrelated_move_is_added_and_removed() -> None:
    p = profile(pc("c1", "module", "Distributed", "Distributed"))
    kinds = sorted(
        c.kind
        for c in run(
            p, [claim("Ada Lovelace", "adal", "module", "Sparse (torch.sparse)", "torch.sparse")]
        )
    )
    assert kinds == ["added", "removed"]


def test_change_ids_are_stable_and_distinct() -> None:
    p = profile(pc("c1", "module", "CUDA", "CUDA"))
    claims = [
        claim("Ada Lovelace", "adal", "core", "Core Maintainers"),
        claim("Ada Lovelace", "adal", "module", "CUDA", "CUDA", status="emeritus"),
    ]
    first = [c.id for c in run(p, claims)]
    again = [c.id for c in run(p, list(reversed(claims)))]
    assert sorted(first) == sorted(again)
    assert len(set(first)) == 2


def test_duplicate_listing_is_flagged_once() -> None:
    c = claim("Ada Lovelace", "adal", "core", "Core Maintainers")
    assert len(run(profile(), [c, c])) == 1


def test_profile_without_level_is_matched_by_its_heading() -> None:
    p = profile(
        ProfileClaim(
            id="c1",
            predicate="maintainer",
            object="PyTorch",
            qualifiers={"section": "Core Maintainers"},
        ),
        ProfileClaim(
            id="c2", predicate="maintainer", object="pytorch", qualifiers={"scope": "torch.optim"}
        ),
    )
    page_claims = [
        claim("Ada Lovelace", "adal", "core", "Core Maintainers"),
        claim("Ada Lovelace", "adal", "module", "Optimizers (torch.optim)", "torch.optim"),
    ]
    assert run(p, page_claims) == []
    # a lead role is not the same fact as a core one
    lead = claim("Ada Lovelace", "adal", "lead", "Lead Core Maintainer")
    assert sorted(c.kind for c in run(p, [lead, page_claims[1]])) == ["added", "removed"]


def test_affiliation_matches_across_spellings_of_the_organisation() -> None:
    from ingest.models import Claim, Evidence, Subject

    def aff(org: str, text: str, work: str = "arXiv:1912.01703v2") -> Claim:
        return Claim(
            subject=Subject(name="Ada Lovelace"),
            predicate="affiliation",
            object=org,
            qualifiers={"work": work, "date": "2019-12-03", "affiliation_text": text},
            evidence=Evidence(url=URL, sha256="0" * 64, locator="p1", quote=text),
            extractor="test/1",
        )

    p = profile(
        ProfileClaim(
            id="c1",
            predicate="affiliation",
            object="Oxford University",
            qualifiers={"work": "arXiv:1912.01703", "affiliation_text": "listed with Oxford"},
        )
    )
    assert run(p, [aff("University of Oxford", "University of Oxford")]) == []
    assert run(p, [aff("Department of CS", "Department of CS, Oxford University, UK")]) == []
    # another organisation on the same paper is an addition, not a change
    [change] = run(
        p, [aff("University of Oxford", "University of Oxford"), aff("Google", "Google Brain")]
    )
    assert change.kind == "added" and change.claim["object"] == "Google"
    # the same organisation on another paper is another fact
    [change] = run(p, [aff("University of Oxford", "University of Oxford", "arXiv:2001.00001")])
    assert change.kind == "added"


def test_a_dated_core_membership_holds_while_the_page_lists_the_lead() -> None:
    p = profile(pc("c1", "core", "Core Maintainers"), pc("c2", "lead", "Lead Core Maintainer"))
    p.claims[0].qualifiers["since"] = "2024-07-16"
    lead = claim("Ada Lovelace", "adal", "lead", "Lead Core Maintainer")
    assert run(p, [lead]) == []
    # without a date (a page-derived membership) the page's word is final
    del p.claims[0].qualifiers["since"]
    assert [c.kind for c in run(p, [lead])] == ["removed"]


def test_ended_roles_are_history_and_events_match_by_words() -> None:
    from ingest.models import Claim, Evidence, Subject

    former = pc("c1", "lead", "Lead Core Maintainer", status="former")
    former.qualifiers["until"] = "2026-05-07"
    talk = ProfileClaim(
        id="c2", predicate="speaker", object="NVIDIA GTC 2026", qualifiers={"date": "2026-03-16"}
    )
    p = profile(former, talk)
    gtc = Claim(
        subject=Subject(name="Ada Lovelace"),
        predicate="speaker",
        object="GTC 2026",
        qualifiers={"date": "2026-03-16"},
        evidence=Evidence(url=URL, sha256="0" * 64, locator="p1", quote="q"),
        extractor="test/1",
    )
    assert run(p, [gtc]) == []  # the page no longer naming a past lead removes nothing


def test_a_role_announced_after_the_page_was_written_is_not_removed_by_it() -> None:
    p = profile(pc("c1", "lead", "Lead Core Maintainer"))
    p.claims[0].qualifiers["since"] = "2026-05-07"
    inp = DiffInput(
        source=SOURCE,
        snapshot_sha256="0" * 64,
        resolved=[],
        profiles={p.id: p},
        document_date="2024-01-30",
    )
    assert diff(inp) == []
    inp.document_date = "2026-06-05"
    assert [c.kind for c in diff(inp)] == ["removed"]
