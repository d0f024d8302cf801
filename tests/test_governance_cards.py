"""Repeated sibling structures read as records by what their fields hold (issue 24): a table
whose cells are person cards (photo cells between them), each card a name, a login, a role line
and social links; a nickname printed inside a name.

The real page is Apache Kafka's committers page, `fixtures/governance-train/kafka-committers.*`
(provenance in `fixtures/governance-train/PROVENANCE.md`, gold in its `gold/`); the small pages
are CONSTRUCTED (invented people, real-looking URLs)."""

from __future__ import annotations

import json
from pathlib import Path

from extractors.governance import generic as governance
from extractors.people import entries as _entries
from ingest.models import Snapshot

TRAIN = Path(__file__).resolve().parent.parent / "fixtures" / "governance-train"
KAFKA = "kafka-committers.2024-10-02.5e972236.html"


def _people(body: bytes, url: str) -> list[tuple[str, str | None]]:
    claims = governance.extract(Snapshot(url=url, body=body))
    return [(c.subject.name, c.subject.github) for c in claims if c.predicate == "maintainer"]


def test_kafka_cards_two_a_row_give_every_committer_with_the_printed_login() -> None:
    gold = json.loads((TRAIN / "gold" / f"{KAFKA}.json").read_text(encoding="utf-8"))
    found = _people((TRAIN / KAFKA).read_bytes(), "https://kafka.apache.org/committers")
    assert found == [(row["name"], row["handle"]) for row in gold]  # in page order, none else


CARD = (
    "<td><img src='{h}.jpg'></td><td>{n}<br><div hidden>{h}<br></div>Committer<br>"
    "<a href='https://www.linkedin.com/in/{h}-x'>/in/{h}-x</a><br>"
    "<a href='https://twitter.com/{t}'>@{t}</a></td>"
)


def test_a_card_is_one_person_and_a_twitter_account_is_not_a_github_login() -> None:
    people = [("jroe", "Jane Roe", "janetweets"), ("mmuster", "Max Muster", "maxm"),
              ("abyron", "Ada Byron", "ada"), ("aturing", "Alan Turing", "alan")]  # fmt: skip
    cells = [CARD.format(h=h, n=n, t=t) for h, n, t in people]
    body = (
        "<html><body><h1>The committers</h1><table>"
        f"<tr>{cells[0]}{cells[1]}</tr><tr>{cells[2]}{cells[3]}</tr></table></body></html>"
    )
    found = _people(body.encode(), "https://example.org/committers")
    assert found == [(n, h) for h, n, _t in people]


def test_several_names_a_line_in_one_cell_are_still_several_people() -> None:
    body = (
        "<html><body><h2>Maintainers</h2><table><tr><th>Area</th><th>Maintainers</th></tr>"
        "<tr><td>Storage</td><td>Jane Roe<br>Max Muster<br>Ada Byron</td></tr>"
        "<tr><td>Network</td><td>Alan Turing<br>Grace Hopper</td></tr></table></body></html>"
    )
    found = _people(body.encode(), "https://example.org/maintainers")
    assert [n for n, _h in found] == [
        "Jane Roe", "Max Muster", "Ada Byron", "Alan Turing", "Grace Hopper"
    ]  # fmt: skip


def test_a_nickname_between_the_words_of_a_name_is_part_of_it() -> None:
    (entry,) = _entries.read("Jiangjie (Becket) Qin")
    assert (entry.name, entry.affiliation) == ("Jiangjie (Becket) Qin", None)
    (entry,) = _entries.read("Jane Roe (Red Hat)")
    assert (entry.name, entry.affiliation) == ("Jane Roe", "Red Hat")


def test_a_heading_with_a_list_under_it_is_a_group_not_a_person() -> None:
    """CONSTRUCTED: person headings with bios, then a group's heading that reads like a name
    ("Finance Subcommittee") with its members listed under it (NumPy's and Matplotlib's
    "NumFOCUS Subcommittee" pages, `fixtures/governance-train/`)."""
    body = (
        "# Steering Council\n\n## Jane Roe\n\nJane works on the parser.\n\n"
        "## Max Muster\n\nMax works on the docs.\n\n## Finance Subcommittee\n\n"
        "- Ada Byron\n- Alan Turing\n"
    )
    found = governance.extract(
        Snapshot(url="https://github.com/example/example/blob/main/PEOPLE.md", body=body.encode())
    )
    rows = [(c.subject.name, c.qualifiers.get("section")) for c in found]
    assert ("Finance Subcommittee", "Steering Council") not in rows
    assert ("Ada Byron", "Finance Subcommittee") in rows and (
        "Alan Turing",
        "Finance Subcommittee",
    ) in rows
    assert ("Jane Roe", "Steering Council") in rows


def test_an_area_with_its_description_and_people_under_it_is_not_a_person() -> None:
    """CONSTRUCTED, in the shape of vLLM's committers page ("- Batch Runner: The
    OpenAI-compatible batch runner" with "- @simon-mo" nested under it)."""
    body = (
        "# Committers\n\n## Areas\n\n"
        "- Query Planner: The planner and its cost model\n"
        "    - Jane Roe (@jroe), Max Muster (@mmuster)\n"
        "- Storage Engine: Pages, logs and recovery\n    - Ada Byron (@abyron)\n"
        "- `cmd`\n    - `tool`: Alan Turing (<alan@example.org> / @aturing)\n"
    )
    url = "https://github.com/example/example/blob/main/COMMITTERS.md"
    found = governance.extract(Snapshot(url=url, body=body.encode()))
    rows = [
        (c.subject.name, c.qualifiers.get("scope")) for c in found if c.predicate == "maintainer"
    ]
    names = [n for n, _s in rows]
    assert not {"Query Planner", "Storage Engine", "cmd"} & set(names)  # (Prometheus: `cmd`)
    assert "Alan Turing" in names
    assert ("Jane Roe", "Query Planner") in rows and ("Ada Byron", "Storage Engine") in rows


def test_a_card_of_a_heading_a_title_line_and_a_profile_link_is_one_person() -> None:
    # <div><img><h3>Name</h3><p>Job title, Employer</p><a href=github>GitHub</a></div>
    card = (
        "<div class='c'><img src='{h}.png'><h3>{n}</h3><p>{t}, {o}</p>"
        "<a href='https://github.com/{h}'>GitHub</a></div>"
    )
    people = [("jroe", "Jane Roe", "Principal Engineer", "Example Labs Ltd"),
              ("mmuster", "Max Muster", "Reader", "University of Example")]  # fmt: skip
    body = (
        "<html><body><h1>Team</h1><h2>Maintainers</h2><div class='grid'>"
        + "".join(card.format(h=h, n=n, t=t, o=o) for h, n, t, o in people)
        + "</div></body></html>"
    )
    claims = governance.extract(Snapshot(url="https://example.org/team", body=body.encode()))
    found = [(c.subject.name, c.subject.github) for c in claims if c.predicate == "maintainer"]
    assert found == [(n, h) for h, n, _t, _o in people]
    orgs = {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}
    assert orgs == {n: o for _h, n, _t, o in people}  # the employer, not the job title


def test_a_definition_list_of_names_gives_each_the_organisation_its_description_prints() -> None:
    body = (
        "<html><body><main><h1>Orbitflow Steering Council</h1><dl>"
        "<dt>Jane Roe</dt><dd>Chair, Example Labs</dd>"
        "<dt>Max Muster</dt><dd>University of Example</dd>"
        "<dt>Ada Byron</dt><dd>Works on the parser.</dd></dl></main></body></html>"
    )
    claims = governance.extract(Snapshot(url="https://orbitflow.dev/sc", body=body.encode()))
    names = [c.subject.name for c in claims if c.predicate == "maintainer"]
    assert names == ["Jane Roe", "Max Muster", "Ada Byron"]
    orgs = {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}
    assert orgs == {"Jane Roe": "Example Labs", "Max Muster": "University of Example"}


def test_card_fields_set_apart_by_style_and_one_former_member_alone_under_a_heading() -> None:
    card = (
        "<div class='member'><img src='{h}.png' alt='Avatar of @{h}'><div class='info'>"
        "<span class='name'>{n}</span><a href='https://github.com/{h}'>@{h}</a>{extra}</div></div>"
    )
    members = [("jroe", "Jane Roe", "<span>Team leader</span>"), ("mmuster", "Max Muster", "")]
    grid = "".join(card.format(h=h, n=n, extra=x) for h, n, x in members)
    alumni = card.format(h="abyron", n="Ada Byron", extra="")
    body = (
        "<html><body><main><h1>Compiler team</h1><h2>Members</h2>"
        f"<div>{grid}</div><h2>Alumni</h2><div>{alumni}</div></main></body></html>"
    )
    claims = governance.extract(
        Snapshot(url="https://example.org/teams/compiler", body=body.encode())
    )
    found = [(c.subject.name, c.subject.github, c.qualifiers["status"], c.qualifiers.get("level"))
             for c in claims if c.predicate == "maintainer"]  # fmt: skip
    assert found == [
        (
            "Jane Roe",
            "jroe",
            "current",
            "lead",
        ),  # "<span>Jane Roe</span><a>@jroe</a><span>Team leader"
        ("Max Muster", "mmuster", "current", None),
        ("Ada Byron", "abyron", "emeritus", None),  # the one card under "Alumni"
    ]
