"""Round 11 (r11-75), from real-probe-10's miss classes, on constructed posts (no probe names):
a Markdown body opening with a raw HTML block, "is stepping down as X and will be succeeded by
B", "adding A and B to the core maintainer team", a title's short form of a nicknamed name,
lead-ins whose items are goals or bodies, name headings under an announcing opening paragraph,
joining a company's engineering team, "will teach us", the writer's "it's time to step down",
a notes file under a dated repository folder and a transposed table of new collaborators."""

from __future__ import annotations

import extractors
from extractors.announcements import dates
from extractors.announcements import post as announcement
from ingest.models import Snapshot

URL = "https://example.org/blog/2025/03/04/news/"


def _claims(text: str, url: str = URL) -> list[tuple[str, str, str, str | None]]:
    found = announcement.extract(Snapshot(url=url, body=text.encode()))
    return [(c.subject.name, c.predicate, str(c.qualifiers.get("status")), c.subject.github)
            for c in found]  # fmt: skip


def _facts(text: str, url: str = URL) -> set[tuple[str, str, str]]:
    return {(name, predicate, status) for name, predicate, status, _ in _claims(text, url)}


def test_a_raw_html_caption_before_markdown_and_a_successor() -> None:
    text = (
        '---\ntitle: "President transition"\ndate: 2025-03-04\n---\n'
        '<p class="c"><img src="/a.jpg" alt="Two presidents"/><br />\n\n'
        "<small><em>From left to right, two presidents</em></small>\n</p>\n\n\n"
        "**TL;DR:** After 9 years, [Ines Moreau](https://example.org/im) is stepping down as "
        "President of the Example Club and will be succeeded by [Pavel Novak](https://example.org/pn)."
        "\n\n[More](https://example.org/more) on the [club](https://example.org/club).\n"
    )
    found = _facts(text)
    assert ("Ines Moreau", "maintainer", "emeritus") in found
    assert ("Pavel Novak", "maintainer", "current") in found


def test_adding_people_to_a_team_and_a_nicknamed_name_given_once() -> None:
    text = (
        '---\ntitle: "New Core Maintainer - Kuba Nowicki"\n---\n\n'
        "I am pleased to announce that we are adding Jakub (Kuba) Nowicki and Maren Holt\n"
        "to the core maintainer team!\n"
    )
    found = _claims(text, "https://example.org/news/2025/03/04/new-core-maintainer/")
    names = sorted(name for name, predicate, status, _ in found if predicate == "maintainer")
    assert names == ["Jakub (Kuba) Nowicki", "Maren Holt"], found


def test_goals_and_committees_listed_under_a_lead_in_are_no_people() -> None:
    text = (
        '---\ntitle: "Board election"\ndate: 2025-03-04\n---\n\n'
        "As the next President, I will be personally committed towards the following goals:\n\n"
        "1. **Cultivate Intentional Spaces** for learning\n2. **Improve Hybrid Events** soon\n\n"
        "The Board is divided up into committees responsible for a core function:\n\n"
        "- Event Ops\n- Membership & Volunteers\n"
    )
    assert _facts(text) == set()


def test_name_headings_under_an_announcing_opening_paragraph() -> None:
    text = (
        '---\nlayout: post\ntitle: "Introducing the core team"\n---\n\n'
        "Today I'm thrilled to announce the formation of the inaugural core development team for "
        "Example.\n\n### Lena Fischer\n\n[Lena][lena] first got involved in 2010.\n\n"
        "### Omar Haddad\n\nOmar has been involved since 2012.\n\n[lena]: https://github.com/lenaf\n"
    )
    found = _facts(text, "https://example.org/2015/05/11/introducing-the-core-team/")
    assert ("Lena Fischer", "maintainer", "current") in found
    assert ("Omar Haddad", "maintainer", "current") in found


def test_name_headings_of_people_the_opening_already_named_are_bios() -> None:
    text = (
        '---\ntitle: "Welcome"\ndate: 2025-03-04\n---\n\n'
        "We are excited to welcome two new core members: Lena Fischer and Omar Haddad.\n\n"
        "#### Lena Fischer (lenaf)\n\nA long-time contributor.\n"
    )
    names = [name for name, *_ in _claims(text)]
    assert "Lena Fischer (lenaf)" not in names
    assert "Lena Fischer" in names


def test_joining_an_engineering_team_is_employment_and_a_meetup_speaker() -> None:
    joined = (
        "---\ntitle: Welcoming Ravi Menon\ndate: 2025-03-18\n---\n\n"
        "We're so excited to share that [**Ravi Menon**](https://github.com/ravim/) is joining "
        "Example's engineering team.\n"
    )
    assert _facts(joined) == {("Ravi Menon", "affiliation", "current")}
    meetup = (
        "---\nlayout: meetup\ntitle: Plugins night\ndate: 2017-08-15\n---\n\n"
        "Austin's own Ravi Menon will teach us how to write compiler plugins.\n"
    )
    assert ("Ravi Menon", "speaker", "None") in _facts(meetup)


def test_the_writers_time_to_step_down_from_the_title_or_the_paragraph() -> None:
    titled = (
        '---\nauthor: "Ines Moreau"\ndate: 2020-03-03\n'
        "title: Stepping down as the Example Commerce project lead\n---\n\n"
        "With my goals achieved, it is time to step back and provide space for my colleagues, "
        "Pavel Novak and Maren Holt.\n"
    )
    assert ("Ines Moreau", "maintainer", "emeritus") in _facts(titled)
    paragraph = (
        "---\nlayout: post\nauthor: Ines Moreau\ntitle: Example Has A New Leader\n---\n\n"
        "But now, after three years, it's time to step down. Having me as project leader is what "
        "slows the project down.\n"
    )
    found = _facts(paragraph, "https://example.org/blog/2014/04/23/new-leader.html")
    assert ("Ines Moreau", "maintainer", "emeritus") in found


def test_a_notes_file_under_a_dated_folder_with_a_transposed_table() -> None:
    url = "https://github.com/example/notes/blob/master/2017-02/feb-22.md"
    assert announcement.matches(url, None)
    assert dates.url_date(url) == "2017-02-22"
    text = (
        "## Feb 22\n\n### Team Additions\n\nWe've added a few folks as collaborators!\n\n"
        "| Name | Lena Fischer | Omar Haddad | \n|---|---|---|\n"
        "| github | [@lenaf](https://github.com/lenaf) | [@ohaddad](https://github.com/ohaddad) |\n"
        "| twitter | [@lf](https://twitter.com/lf) | [@oh](https://twitter.com/oh) |\n"
    )
    snapshot = Snapshot(url=url, body=text.encode())
    assert extractors.choose(url, snapshot).NAME == "announcement"
    found = {(name, github) for name, predicate, status, github in _claims(text, url)
             if predicate == "maintainer" and status == "current"}  # fmt: skip
    assert found == {("Lena Fischer", "lenaf"), ("Omar Haddad", "ohaddad")}
