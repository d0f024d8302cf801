"""Issue 25's held-out failure kinds, one CONSTRUCTED post each (fixtures/announcements/
constructed-*; made-up people and projects, phrased like real project posts): each must route to
the announcement reader and give the person, predicate, status and date the post announces."""

from __future__ import annotations

from pathlib import Path

import pytest

import extractors
from extractors.announcements import post as announcement
from ingest.models import Claim, Snapshot
from tests.announcement_golden import GOLDEN_URLS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "announcements"


def claims_of(file: str) -> list[Claim]:
    snapshot = Snapshot(url=GOLDEN_URLS[file], body=(FIXTURES / file).read_bytes())
    assert extractors.choose(snapshot.url, snapshot).NAME == "announcement"
    return announcement.extract(snapshot)


def facts(claims: list[Claim]) -> set[tuple[str, str, str, str | None]]:
    out = set()
    for c in claims:
        q = c.qualifiers
        when = q.get("date") or q.get("since") or q.get("until")
        out.add((c.subject.name, c.predicate, str(q.get("status") or "current"), when))
    return out


def test_list_under_a_lead_in_gives_the_body_not_the_lead_in_and_company() -> None:
    claims = claims_of("constructed-apache-blog-new-pmc-members.md")
    got = facts(claims)
    for name in ("Priya Raman", "Tomás Ibarra", "Helen Okafor", "Yusuf Demir", "Lena Brandt"):
        assert (name, "maintainer", "current", "2025-06-12") in got
    roles = {c.subject.name: c.qualifiers["role"] for c in claims}
    assert roles["Priya Raman"] == "Project Management Committee member"  # not "(Acme Data)"
    assert roles["Lena Brandt"] == "committer"  # "two new committers", not "The PMC (Contoso)"
    assert len(claims) == 5


def test_members_joined_inside_a_release_post_dated_by_the_post() -> None:
    got = facts(claims_of("constructed-release-post-new-committers.md"))
    assert got == {
        ("Andrew Lamb", "maintainer", "current", "2025-09-03"),
        ("Jiayu Chen", "maintainer", "current", "2025-09-03"),
        # "over the last year" is a span of time, not the year before the post
        ("Oleksandr Petrenko", "maintainer", "current", "2025-09-03"),
    }


def test_board_results_officers_and_outgoing_directors() -> None:
    claims = claims_of("constructed-foundation-board-election-results.md")
    got = facts(claims)
    for name in ("Alicia Moreno", "Kenji Watanabe", "Rebecca Stone", "Farid Haddad",
                 "Sofia Lindqvist"):  # fmt: skip
        assert (name, "maintainer", "current", "2025-03-20") in got
    for name in ("Martin Keller", "Grace Liu"):
        assert (name, "maintainer", "emeritus", "2025-03-20") in got
    levels = {c.subject.name: c.qualifiers["level"] for c in claims}
    assert levels["Alicia Moreno"] == "lead" and levels["Kenji Watanabe"] == "member"
    assert not {c.subject.name for c in claims} & {"Alicia", "Kenji"}  # first names resolved


def test_first_person_step_down_is_the_front_matter_author() -> None:
    claims = claims_of("constructed-discourse-stepping-down-first-person.md")
    assert facts(claims) == {("Daniel Novak", "maintainer", "emeritus", "2025-05-02")}
    assert claims[0].qualifiers["role"].startswith("release manager")


def test_mbox_message_full_name_from_the_header() -> None:
    got = facts(claims_of("constructed-mbox-new-committer.mbox"))
    assert got == {("Jonas Weber", "maintainer", "current", "2025-02-13")}


def test_keynote_bullets_title_speaker_bullets_and_prose_speaker() -> None:
    claims = claims_of("constructed-kubecon-keynotes.md")
    got = {(c.subject.name, c.predicate) for c in claims}
    assert got == {
        ("Nadia Petrova", "keynote"),
        ("Samuel Okonkwo", "keynote"),
        ("Claire Dubois", "keynote"),
        ("Marco Bianchi", "keynote"),
        ("Rahul Mehta", "speaker"),  # "Title: Speaker"
        ("Julia Svensson", "speaker"),
    }
    assert {c.object for c in claims} == {"ExampleCon Europe 2026"}


@pytest.mark.parametrize("file", [f for f in GOLDEN_URLS if f.startswith("constructed-")])
def test_every_constructed_post_routes_to_the_announcement_reader(file: str) -> None:
    snapshot = Snapshot(url=GOLDEN_URLS[file], body=(FIXTURES / file).read_bytes())
    assert extractors.choose(snapshot.url, snapshot).NAME == "announcement"


def test_bare_handles_get_the_names_the_post_prints_with_them() -> None:
    claims = claims_of("constructed-handles-new-reviewers.md")
    got = {(c.subject.github, c.subject.name, c.predicate, c.qualifiers["status"]) for c in claims}
    assert got == {
        ("friedbob", "Lee 'friedbob' Lowder", "maintainer", "current"),  # nickname, not handle
        ("sarahk", "Sarah Kim", "maintainer", "current"),
        ("tkowalczyk", "Tomasz Kowalczyk", "maintainer", "current"),
    }
    assert {c.qualifiers["date"] for c in claims} == {"2025-11-04"}


def test_grid_of_linked_names_under_a_lead_in_is_a_list() -> None:
    claims = claims_of("constructed-html-br-list-new-maintainers.html")
    got = {(c.subject.name, c.subject.github, c.qualifiers["level"]) for c in claims}
    assert {
        ("Kaito Matsuda", "kmatsuda", "core"),
        ("Erik Hansen", "ehansen", "core"),
        ("Lucie Bernard", "lbernard", "core"),
    } <= got
    assert {c.qualifiers["date"] for c in claims} == {"2025-10-07"}


def test_a_long_list_of_bare_handles_reads_the_post_for_their_names_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The names printed with handles are gathered on the first bare handle and kept for the
    post: 300 handles do not rescan every block 300 times (quadratic on a long post)."""
    from extractors.announcements import lists

    handles = [f"user{i:03d}" for i in range(300)]
    body = (
        '---\ntitle: "Welcome our new reviewers"\ndate: 2025-11-04\n---\n\n'
        "We're happy to announce that the following contributors have joined the reviewers"
        " team:\n\n"
        + "".join(f"- @{h}\n" for h in handles)
        + "\n"
        + " ".join(f"Person Number{i:03d} (@{h}) works on part {i}." for i, h in enumerate(handles))
        + "\n"
    )
    scans = 0
    pattern = lists.HANDLE_NAME

    class Counting:
        def finditer(self, text: str):  # type: ignore[no-untyped-def]
            nonlocal scans
            scans += 1
            return pattern.finditer(text)

    monkeypatch.setattr(lists, "HANDLE_NAME", Counting())
    snapshot = Snapshot(url="https://example.org/blog/new-reviewers.md", body=body.encode())
    claims = announcement.extract(snapshot)
    names = {c.subject.github: c.subject.name for c in claims}
    assert names["user000"] == "Person Number000" and names["user299"] == "Person Number299"
    assert scans <= 310  # once per block of the post (302), not once per handle (300 x 302)
