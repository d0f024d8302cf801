"""Round 11 (r11-74), real-probe-10's miss classes read generically (constructed pages, names made
up): lines of person entries that Markdown joins into one paragraph, a nickname in single quotes,
a record's note that is a motto rather than an organisation, a data file named as a past list, a
role list whose other seats are printed open."""

from __future__ import annotations

from extractors.governance import generic as governance
from extractors.governance import seats
from extractors.people import names, orgs
from ingest.models import Claim, Snapshot


def read(text: str, url: str) -> list[Claim]:
    return governance.extract(Snapshot(url=url, body=text.encode()))


def people(claims: list[Claim]) -> list[tuple[str, str | None, str | None, str]]:
    return [
        (c.subject.name, c.subject.github, c.qualifiers.get("section"), c.qualifiers["status"])
        for c in claims
        if c.predicate == "maintainer"
    ]


def affiliations(claims: list[Claim]) -> dict[str, str]:
    return {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}


OWNER_LINES = """# https://example.org/widget/parser

Jane Roe, Example Labs <jane@example.org> (@jroe)

# https://example.org/widget/codegen

Max Muster, Acme Corp <max@example.org> (@mmuster)
Ana Silva, Example Labs <ana@example.org> (@asilva)
Li Wei, Acme Corp <li@example.org> (@liwei)
"""


def test_lines_of_entries_joined_into_one_paragraph_are_each_a_person() -> None:
    claims = read(OWNER_LINES, "https://example.org/widget/blob/main/COMPONENT-OWNERS")
    codegen = "https://example.org/widget/codegen"
    assert people(claims) == [
        ("Jane Roe", "jroe", "https://example.org/widget/parser", "current"),
        ("Max Muster", "mmuster", codegen, "current"),
        ("Ana Silva", "asilva", codegen, "current"),
        ("Li Wei", "liwei", codegen, "current"),
    ]
    assert affiliations(claims) == {
        "Jane Roe": "Example Labs",
        "Max Muster": "Acme Corp",
        "Ana Silva": "Example Labs",
        "Li Wei": "Acme Corp",
    }


PROSE_LINES = """# Widget

Widget's steering council is [Jane Roe](https://github.com/jroe),
[Max Muster](https://github.com/mmuster) and
[Ana Silva](https://github.com/asilva).
"""


def test_a_sentence_broken_over_lines_is_still_read_as_one_sentence() -> None:
    claims = read(PROSE_LINES, "https://example.org/widget/blob/main/GOVERNANCE.md")
    # the lines link accounts but are not each one person's entry: one sentence, read as before
    assert [(n, h) for n, h, *_ in people(claims)] == [
        ("Jane Roe", "jroe"),
        ("Max Muster", "mmuster"),
        ("Ana Silva", "asilva"),
    ]


def test_a_nickname_in_single_quotes_is_part_of_a_name() -> None:
    assert names.looks_like_name("Christopher J. 'CJ' Wright")
    assert names.looks_like_name("Jane O'Brien")
    assert not names.looks_like_name("'CJ'")


def test_a_record_note_is_an_organisation_only_when_it_prints_as_one() -> None:
    assert orgs.note_org("Internet Archive")
    assert not orgs.note_org("Pass the Courvoisi'!")
    assert not orgs.note_org("Talk--; Code++;")
    assert not orgs.note_org("React | Graphql | Typescript")
    text = (
        '{"tsc": [{"name": "Jane Roe", "github_username": "jroe", "bio": "Internet Archive"},'
        ' {"name": "Max Muster", "github_username": "mmuster", "bio": "Talk--; Code++;"},'
        ' {"name": "Ana Silva", "github_username": "asilva", "bio": null}]}'
    )
    claims = read(text, "https://example.org/site/blob/main/src/_data/team.json")
    assert [name for name, *_ in people(claims)] == ["Jane Roe", "Max Muster", "Ana Silva"]
    assert affiliations(claims) == {"Jane Roe": "Internet Archive"}


ROSTER = """github_username,email,name
jroe,jane@example.org,Jane Roe
mmuster,max@example.org,Max Muster
asilva,ana@example.org,Ana Silva
"""


def test_a_data_file_named_as_a_past_list_gives_its_people_emeritus() -> None:
    past = read(ROSTER, "https://example.org/governance/blob/main/emeritus.csv")
    assert [p[3] for p in people(past)] == ["emeritus"] * 3
    current = read(ROSTER, "https://example.org/governance/blob/main/core.csv")
    assert [p[3] for p in people(current)] == ["current"] * 3


SEATS = """# Code teams

## Parser team

### Members

1) [Jane Roe](https://github.com/jroe)
1) Open!
1) Open!

## Codegen team

### Members

1) [Max Muster](https://github.com/mmuster)
1) Vacant
1) Open!

## Docs team

### Members

1) Open!
1) Open!
"""


def test_open_seats_do_not_make_a_list_of_people_read_as_a_list_of_nobody() -> None:
    assert seats.open_seat("Open!") and seats.open_seat("Vacant") and seats.open_seat("(TBD)")
    assert not seats.open_seat("Open Source Team") and not seats.open_seat("Jane Roe")
    claims = read(SEATS, "https://example.org/governance/blob/main/CODE_TEAMS_ROSTER.md")
    assert [(n, h, s) for n, h, s, _st in people(claims)] == [
        ("Jane Roe", "jroe", "Members"),
        ("Max Muster", "mmuster", "Members"),
    ]


RAW_PAGE = """.. title: Contributors

.. raw:: html

    <h1>Maintainers</h1>
    <ul>
        <li><a href="https://github.com/jroe">Jane Roe</a></li>
        <li><a href="https://github.com/mmuster">Max Muster</a></li>
        <li><a href="https://github.com/asilva">Ana Silva</a></li>
    </ul>
    <h1>Issues &amp; Discussions</h1>
    <ul>
        <li>Li Wei</li>
        <li><a href="https://github.com/kim-h">@kim-h</a></li>
        <li><a href="https://github.com/olsen">@olsen</a></li>
    </ul>
"""


def test_a_page_written_as_one_raw_html_block_keeps_its_headings() -> None:
    from extractors.document import rst

    blocks = rst.document(RAW_PAGE).blocks
    assert [b.text for b in blocks if type(b).__name__ == "Heading"] == [
        "Maintainers",
        "Issues & Discussions",
    ]
    titled = "Team\n====\n\n.. raw:: html\n\n    <h6>Jane Roe</h6>\n"  # a card's name heading
    assert not [b for b in rst.document(titled).blocks if b.text == "Jane Roe"]


def test_issue_reporters_and_special_mentions_are_credits_not_roles() -> None:
    claims = read(RAW_PAGE, "https://example.org/site/blob/main/pages/contributors.rst")
    assert [(n, h, s) for n, h, s, _st in people(claims)] == [
        ("Jane Roe", "jroe", "Maintainers"),
        ("Max Muster", "mmuster", "Maintainers"),
        ("Ana Silva", "asilva", "Maintainers"),
    ]
    from extractors.governance import quiet

    assert quiet.heading("Special Mentions", "https://example.org/team", [])
    assert not quiet.heading("Issue triage team", "https://example.org/team", [])
