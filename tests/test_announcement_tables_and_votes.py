"""Round 10 (r10-70), from real-probe-9's miss classes, on constructed posts (no probe names):
a table of people whose header row is blank under an announcing heading, "happy to add A and B
as committers", "voted in by the other board members", "elected A the new Project Lead", and
release notes read in their repository as announcements (which name no one as gaining a role)."""

from __future__ import annotations

from extractors.announcements import post as announcement
from ingest.models import Snapshot

URL = "https://example.org/blog/2025/03/04/news/"


def _facts(text: str, url: str = URL) -> set[tuple[str, str, str]]:
    claims = announcement.extract(Snapshot(url=url, body=text.encode()))
    return {(c.subject.name, c.predicate, str(c.qualifiers.get("status"))) for c in claims}


def test_a_blank_header_table_of_people_under_an_announcing_heading() -> None:
    text = (
        '---\ntitle: "Welcome to the Core Team"\ndate: 2025-03-04\n---\n\n'
        "We are delighted to welcome three new members to the Core Team.\n\n# New members\n\n"
        "| | | |\n|---|---|---|\n| ![](a.png) | Marta Oliveira Santos | Website |\n"
        "| ![](b.png) | Kenji Watanabe | Docs |\n"
    )
    found = _facts(text)
    assert ("Marta Oliveira Santos", "maintainer", "current") in found
    assert ("Kenji Watanabe", "maintainer", "current") in found


def test_added_as_committers_and_voted_in_by_the_board() -> None:
    text = (
        '---\ntitle: "New committers and board members"\ndate: 2025-03-04\n---\n\n'
        "The Example PMC is happy to add Ada Brandt and Lior Segal as committers.\n\n"
        "Both candidates, Rosa Kim and Tomas Berg, were unanimously voted in by the other board "
        "members!\n\nThe committers have elected Noor Haddad the new Project Lead.\n"
    )
    found = _facts(text)
    for name in ("Ada Brandt", "Lior Segal", "Rosa Kim", "Tomas Berg", "Noor Haddad"):
        assert (name, "maintainer", "current") in found, (name, found)


def test_release_notes_in_a_repository_are_read_and_their_contributors_are_no_event() -> None:
    url = "https://github.com/example/tool/blob/main/docs/release-notes/release-notes-v1.2.md"
    assert announcement.matches(url, None)
    text = (
        "# Tool Release Notes (v1.2)\n\n## Contributors (This Release)\n\n"
        "+ Ada Brandt ([abrandt](https://github.com/abrandt))\n"
        "+ Lior Segal ([lsegal](https://github.com/lsegal))\n"
    )
    assert _facts(text, url) == set()
