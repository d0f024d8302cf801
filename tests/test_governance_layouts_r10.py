"""Round 10 (r10-68), real-probe-9's miss classes read generically (constructed pages, names made
up): contact values labelled by their kind ("jroe (GitHub)"), `P:` entries of a MAINTAINERS file,
TOML with a bare-word value, a `.md` file with setext titles, reST field lists, a term of office
after a name, "(independent)" after a printed handle, a family name first in capitals, a
membership class in an Organization column, a "(retired)" note field, "X was the <seat>"."""

from __future__ import annotations

from extractors.governance import generic as governance
from extractors.people import contacts, entries, names
from ingest.models import Claim, Snapshot
from ingest.sniff import sniff_format


def read(text: str, url: str) -> list[Claim]:
    return governance.extract(Snapshot(url=url, body=text.encode()))


def people(claims: list[Claim]) -> list[tuple[str, str | None, str | None]]:
    return [
        (c.subject.name, c.subject.github, c.qualifiers.get("section"))
        for c in claims
        if c.predicate == "maintainer"
    ]


def affiliations(claims: list[Claim]) -> dict[str, str]:
    return {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}


LLVM_STYLE = """# Widget maintainers

## Active maintainers

### Lead maintainers

#### All areas not covered by others
Jane Roe \\
jane@example.org (email), jroe (GitHub), jroe (Discourse)

### Component maintainers

#### Parser
Max Muster \\
max@example.org (email), MMuster (GitHub)

Ana Silva \\
ana@example.org (email)

## Inactive maintainers

#### Codegen
Li Wei \\
li@example.org (email), liwei (GitHub)
"""


def test_labelled_contact_values_give_handle_and_mail_and_the_cards_are_read() -> None:
    text, github, email = contacts.labelled("a@example.org (email), jroe (GitHub), jr (Discourse)")
    assert (text.strip(), github, email) == ("", "jroe", "a@example.org")
    claims = read(LLVM_STYLE, "https://github.com/example/widget/blob/main/Maintainers.md")
    assert people(claims) == [
        ("Jane Roe", "jroe", "All areas not covered by others"),
        ("Max Muster", "mmuster", "Parser"),
        ("Ana Silva", None, "Parser"),  # an e-mail address marks the card as well as a profile
        ("Li Wei", "liwei", "Codegen"),
    ]
    status = [c.qualifiers["status"] for c in claims if c.predicate == "maintainer"]
    assert status == ["current", "current", "current", "emeritus"]


P_ENTRIES = """Fields
======

P: Person
M: Mail patches to this address

Drivers
=======

P: Jane Roe
M: jane@example.org
S: Maintained: foo, bar,
               baz

P: Max Muster
M: max@example.org
S: Supported: qux
"""


def test_maintainers_entries_whose_person_is_a_p_line() -> None:
    claims = read(P_ENTRIES, "https://github.com/example/ups/blob/main/MAINTAINERS")
    assert people(claims) == [("Jane Roe", None, "Drivers"), ("Max Muster", None, "Drivers")]
    assert "Person" not in {c.subject.name for c in claims}  # the legend names nobody


BARE_TOML = """[Org]
\t[Org."Core maintainers"]
\t\tpeople = ["jroe", "mmuster"]

[people]
\t[people.jroe]
\tName = "Jane Roe"
\tGitHub = jroe

\t[people.mmuster]
\tName = "Max Muster"
\tGitHub = "mmuster"
"""


def test_toml_with_a_bare_word_value_is_read() -> None:
    claims = read(BARE_TOML, "https://github.com/example/lib/blob/main/MAINTAINERS")
    assert people(claims) == [
        ("Jane Roe", "jroe", "Core maintainers"),
        ("Max Muster", "mmuster", "Core maintainers"),
    ]


SETEXT_MD = """Example Governance Committee
============================

The [charter](charter.md) says how it works.

Members
-------

| Name       | Company     | Email            | GitHub Alias |
|------------|-------------|------------------|--------------|
| Jane Roe   | Example Labs| jane@example.org | JRoe         |
| Max Muster | Independent | max@example.org  | mmuster      |

Next steps
----------

- write things down
"""


def test_a_markdown_file_with_setext_titles_is_read_as_markdown() -> None:
    body = SETEXT_MD.encode()
    assert sniff_format(body, "", "https://github.com/example/x/blob/main/GOVERNANCE.md") == (
        "markdown"
    )
    assert sniff_format(body, "", "https://example.org/governance.rst") == "rst"
    claims = read(SETEXT_MD, "https://github.com/example/x/blob/main/GOVERNANCE.md")
    assert people(claims) == [("Jane Roe", "jroe", "Members"), ("Max Muster", "mmuster", "Members")]
    assert affiliations(claims) == {"Jane Roe": "Example Labs", "Max Muster": "Independent"}


FIELD_LIST = """Team
====

Core developers
---------------

:Jane Roe: Example Labs
:Max Muster: ACME Corp
:Ana Silva: Initech
"""


def test_a_rest_field_list_under_a_heading_is_a_list_of_people() -> None:
    claims = read(FIELD_LIST, "https://github.com/example/x/blob/main/docs/team.rst")
    assert [n for n, _h, _s in people(claims)] == ["Jane Roe", "Max Muster", "Ana Silva"]
    assert affiliations(claims)["Max Muster"] == "ACME Corp"


CHAIR_AND_COUNCIL = """# Council

## Committee Chair

- **Jane Roe**
  Term: March 28, 2024 – Present

## Members

- Max Muster, @mmuster (independent)
- Ana Silva, @asilva ([Example Labs](https://example.org/))
- KIMURA Hanako, @hkimura (Example Labs)
"""


def test_term_fields_independent_and_a_family_name_first_in_capitals() -> None:
    assert contacts.without_term("Jane Roe Term: March 2024 – Present") == "Jane Roe"
    assert names.looks_like_name("KIMURA Hanako") and not names.looks_like_name("OSS Fuzzing")
    claims = read(CHAIR_AND_COUNCIL, "https://github.com/example/x/blob/main/COUNCIL.md")
    assert people(claims) == [
        ("Jane Roe", None, "Committee Chair"),
        ("Max Muster", "mmuster", "Members"),  # "(independent)" is no login
        ("Ana Silva", "asilva", "Members"),
        ("KIMURA Hanako", "hkimura", "Members"),
    ]
    assert affiliations(claims)["Max Muster"] == "independent"


def test_a_membership_class_is_no_affiliation_and_a_retired_note_is_emeritus() -> None:
    table = (
        "# Board\n\n## Representatives\n\n| Representative | Organization | GitHub |\n"
        "| --- | --- | --- |\n| Jane Roe | Example Labs | @jroe |\n"
        "| Max Muster | General Members | @mmuster |\n| Ana Silva | Initech | @asilva |\n"
    )
    claims = read(table, "https://github.com/example/x/blob/main/BOARD.md")
    assert affiliations(claims) == {"Jane Roe": "Example Labs", "Ana Silva": "Initech"}
    assert entries.PAST_NOTE.search("Original Creator (retired)")
    assert not entries.PAST_NOTE.search("Project Lead")


def test_x_was_the_seat_under_that_seats_heading_names_its_holder() -> None:
    page = (
        "# People\n\n## Benevolent Dictator for Life (retired 2022)\n\n"
        "Jane Roe ([@jroe](https://github.com/jroe)) was the Benevolent Dictator for Life "
        "(BDFL). She stepped down in 2022.\n\n## Maintainers\n\n"
        "Max Muster was the first maintainer of the parser.\n\n- Ana Silva (@asilva)\n"
        "- Li Wei (@liwei)\n"
    )
    claims = read(page, "https://github.com/example/x/blob/main/PEOPLE.md")
    found = people(claims)
    assert ("Jane Roe", "jroe", "Benevolent Dictator for Life (retired 2022)") in found
    assert "Max Muster" not in {n for n, _h, _s in found}  # history under another heading
