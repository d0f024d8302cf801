"""The diff rules of DESIGN.md, on hand-made claims and profiles (pure functions)."""

from __future__ import annotations

from ingest.diff.changes import DiffInput, detect_renames, diff
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


# --------------------------------------------------------------------------------------------
# moves between the lists of another project's page (issue 11): CONSTRUCTED claims and profiles,
# an invented project and invented people

PROJECT = "Glimmer"
GSOURCE = Source(url=URL, authoritative=[f"maintainer:{PROJECT}"])


def gclaim(
    name: str,
    section: str,
    role: str = "maintainer",
    status: str = "current",
    scope: str | None = None,
):
    from ingest.models import Claim, Evidence, Subject

    q = {"role": role, "section": section, "status": status}
    if scope:
        q["scope"] = scope
    return Claim(
        subject=Subject(name=name),
        predicate="maintainer",
        object=PROJECT,
        qualifiers=q,
        evidence=Evidence(url=URL, sha256="0" * 64, locator=f"'{section}' > li", quote=name),
        extractor="test/1",
    )


def gprofile(pid: str, name: str, *claims: tuple[str, str, str, str | None]) -> Profile:
    """A profile whose claims (section, role, status, scope) cite the page."""
    made = []
    for i, (section, role, status, scope) in enumerate(claims, 1):
        q = {"role": role, "section": section, "status": status}
        if scope:
            q["scope"] = scope
        made.append(
            ProfileClaim(
                id=f"c{i}", predicate="maintainer", object=PROJECT, qualifiers=q, refs=["r1"]
            )
        )
    return Profile(
        id=pid,
        name=name,
        claims=made,
        references=[Reference(id="r1", url=URL, title="team page")],
    )


def gplan(profiles: list[Profile], claims, page_text: str | None = None, others=(), **kw):
    """The diff of a page stating `claims` about the profiles (and `others` about people the
    wiki has no profile for)."""
    from ingest.diff.changes import plan
    from ingest.diff.resolve import Resolver

    by_id = {p.id: p for p in profiles}
    resolver = Resolver(by_id)
    resolved = [(resolver.resolve(c.subject), c) for c in claims]
    return plan(
        DiffInput(
            source=GSOURCE,
            snapshot_sha256="0" * 64,
            resolved=[(pid, c) for pid, c in resolved if pid],
            profiles=by_id,
            page_claims=[*claims, *others],
            page_text=page_text,
            **kw,
        )
    )


def kinds(changes) -> list[tuple[str, str]]:
    return sorted((c.profile, c.kind) for c in changes)


def test_a_move_to_the_emeritus_list_is_one_changed_flag() -> None:
    ann = gprofile("ann", "Ann Aho", ("Maintainers", "maintainer", "current", None))
    bo = gprofile("bo", "Bo Berg", ("Emeritus Maintainers", "maintainer", "emeritus", None))
    page = [
        gclaim("Ann Aho", "Emeritus Maintainers", status="emeritus"),
        gclaim("Bo Berg", "Maintainers"),
    ]
    changes = gplan([ann, bo], page, others=[gclaim("Cy Chu", "Maintainers")]).changes
    assert kinds(changes) == [("ann", "changed"), ("bo", "changed")]
    ann_change = next(c for c in changes if c.profile == "ann")
    assert ann_change.previous["id"] == "c1"
    assert ann_change.claim["qualifiers"]["section"] == "Emeritus Maintainers"
    # the page's own words for the past role ("emeritus member") are the same role family
    dee = gprofile("dee", "Dee Dunn", ("Membership", "WG member", "current", None))
    moved = [gclaim("Dee Dunn", "Emeritus Members", role="emeritus WG member", status="emeritus")]
    [change] = gplan(
        [dee], moved, others=[gclaim("Cy Chu", "Membership", role="WG member")]
    ).changes
    assert change.kind == "changed" and change.previous["id"] == "c1"


def test_a_move_between_two_printed_lists_with_the_same_status_is_changed() -> None:
    ann = gprofile("ann", "Ann Aho", ("Core team", "maintainer", "current", None))
    page = [gclaim("Ann Aho", "Release team")]
    others = [gclaim("Cy Chu", "Core team")]  # the old list is still on the page
    [change] = gplan([ann], page, others=others).changes
    assert change.kind == "changed" and change.claim["qualifiers"]["section"] == "Release team"


def test_a_renamed_heading_is_one_changed_flag_per_person_that_takes_the_new_heading() -> None:
    """Issue 21: a heading renamed with its members was silence, and the profile kept the old
    heading for ever; each person's statement is now one `changed` flag whose accept makes the
    profile say what the page says."""
    ann = gprofile("ann", "Ann Aho", ("maintainers", "maintainer", "current", None))
    bo = gprofile("bo", "Bo Berg", ("maintainers", "maintainer", "current", None))
    page = [gclaim("Ann Aho", "other Maintainers"), gclaim("Bo Berg", "other Maintainers")]
    text = "## Lead\n\n## other Maintainers\n\n- Ann Aho\n- Bo Berg\n"
    changes = gplan([ann, bo], page, page_text=text).changes
    assert sorted((c.profile, c.kind) for c in changes) == [("ann", "changed"), ("bo", "changed")]
    assert {c.claim["qualifiers"]["section"] for c in changes} == {"other Maintainers"}
    assert {c.previous["id"] for c in changes} == {"c1"}
    # the page's history saying so is enough too (the old heading still quoted in prose): no
    # layout alert for the old heading, still one flag each
    renames = {"maintainers": "other Maintainers"}
    still = text + "\nOur maintainers are listed above.\n"
    result = gplan([ann, bo], page, page_text=still, renames=renames)
    assert [c.kind for c in result.changes] == ["changed", "changed"] and result.alerts == []
    # a status move under the renamed heading is one flag too, stating both differences
    page[1] = gclaim("Bo Berg", "other Maintainers", status="emeritus")
    bo_change = next(c for c in gplan([ann, bo], page, page_text=text).changes if c.profile == "bo")
    assert bo_change.kind == "changed"
    assert bo_change.claim["qualifiers"]["status"] == "emeritus"


def test_a_renamed_area_is_a_change_not_a_rename() -> None:
    ann = gprofile("ann", "Ann Aho", ("C++ API", "maintainer", "current", "C++ API"))
    page = [gclaim("Ann Aho", "C++ API (libtorch)", scope="C++ API (libtorch)")]
    [change] = gplan([ann], page).changes
    assert change.kind == "changed"


def test_another_represented_team_is_one_changed_flag() -> None:
    ann = gprofile("ann", "Ann Aho", ("members", "council rep", "current", "Library team"))
    [change] = gplan(
        [ann], [gclaim("Ann Aho", "members", "council rep", scope="Launching pad")]
    ).changes
    assert change.kind == "changed" and change.claim["qualifiers"]["scope"] == "Launching pad"
    # leaving for the alumni list, which names no team: one move too
    alumni = [gclaim("Ann Aho", "alumni", "council rep", status="emeritus")]
    [change] = gplan([ann], alumni, others=[gclaim("Bo Berg", "members", "council rep")]).changes
    assert change.kind == "changed" and change.previous["id"] == "c1"


def test_another_role_is_added_and_removed_not_moved() -> None:
    ann = gprofile("ann", "Ann Aho", ("maintainers", "maintainer", "current", None))
    page = [gclaim("Ann Aho", "Lead Maintainers", role="lead maintainer")]
    others = [gclaim("Bo Berg", "maintainers")]
    assert kinds(gplan([ann], page, others=others).changes) == [
        ("ann", "added"),
        ("ann", "removed"),
    ]
    # a title on the same role is a change of the role, one flag
    chair = [gclaim("Ann Aho", "maintainers", role="maintainer; chair")]
    [change] = gplan([ann], chair).changes
    assert change.kind == "changed"


def test_a_list_still_printed_but_not_read_raises_a_layout_alert_and_removes_nothing() -> None:
    ann = gprofile("ann", "Ann Aho", ("Emeritus Members", "WG member", "emeritus", None))
    bo = gprofile("bo", "Bo Berg", ("Membership", "WG member", "current", None))
    page = [gclaim("Bo Berg", "Membership", role="WG member")]
    text = "## Membership\n\n| Bo Berg |\n\n<details><summary>Emeritus Members</summary>\n..."
    result = gplan([ann, bo], page, page_text=text)
    assert result.changes == []
    assert result.alerts == [
        f"layout: '{URL}' still prints the list 'Emeritus Members' but no one was read from it; "
        "no removals flagged"
    ]
    # once the page drops that list, its people are removed
    result = gplan([ann, bo], page, page_text="## Membership\n\n| Bo Berg |\n")
    assert kinds(result.changes) == [("ann", "removed")] and result.alerts == []


def test_a_pipeline_run_reports_the_unread_list(store, workspace) -> None:
    from ingest.models import Snapshot
    from ingest.pipeline.process import process_claims
    from ingest.profiles.io import write_profile

    ann = gprofile("ann", "Ann Aho", ("Emeritus Members", "WG member", "emeritus", None))
    bo = gprofile("bo", "Bo Berg", ("Membership", "WG member", "current", None))
    for p in (ann, bo):
        write_profile(workspace.profiles_dir, p)
    text = "## Membership\n\n- Bo Berg\n\n## Emeritus Members\n\n<table>...</table>\n"
    snap = Snapshot(url=URL, headers={"content-type": "text/markdown"}, body=text.encode())
    store.upsert_source(GSOURCE)
    outcome = process_claims(
        store,
        workspace,
        GSOURCE,
        snap,
        [gclaim("Bo Berg", "Membership", role="WG member")],
        {"ann": ann, "bo": bo},
        status="fetched",
        extractor="test",
        tag="test/1",
    )
    assert outcome.changes == []
    assert [a for a in outcome.alerts if "Emeritus Members" in a]
    assert (store.source_state(URL) or {}).get("last_sha256") is None  # not a healthy snapshot
