"""Round 9 (r9-61), real-probe-7's miss classes read generically: a team list written as code
in a literal block, one-word entries in a list of people (weighed by the learned model, not a
rule), and "X is the <seat>" under the seat's own heading."""

from __future__ import annotations

from extractors.document.model import Code
from extractors.governance import generic as governance
from extractors.governance import literal
from extractors.people import entries, prose
from extractors.people.features import Candidate, person_features
from extractors.people.labels import Labels
from ingest.models import Claim, Snapshot


def read_page(text: str, url: str) -> list[Claim]:
    snapshot = Snapshot(url=url, headers={"content-type": "text/markdown"}, body=text.encode())
    return governance.extract(snapshot)


TEAM_CODE = """# Team

People with **merge rights**, see [the guide](https://example.org/guide) and [the forum](https://example.org/forum).

```julia
team = [
    (github="jroe", org="Example Labs", subtext="Project Lead"),
    (github="mmuster", org="", subtext=""),
    (github="avery", org="Sample University", subtext="(retired)"),
]
foreach(person -> println(person.github), team)
```
"""


def test_records_written_as_code_are_read_one_a_line() -> None:
    code = Code("", tuple(TEAM_CODE.split("```julia\n")[1].split("```")[0].splitlines()))
    rows = literal.records(code)
    assert [r.fields["github"] for _line, r in rows] == ["jroe", "mmuster", "avery"]
    assert rows[0][1].fields["org"] == "Example Labs" and rows[1][1].fields["org"] is None


def test_a_code_block_that_mentions_a_name_now_and_then_is_no_team() -> None:
    code = Code("", ('x = f(name="a", id=1)', 'print(user="jroe", end="")', "y = 2"))
    assert literal.records(code) == []


def test_a_team_list_in_a_code_block_gives_its_people_and_employers() -> None:
    claims = read_page(TEAM_CODE, "https://github.com/example/proj/blob/main/docs/team.md")
    people = {c.subject.github for c in claims if c.predicate == "maintainer"}
    assert people == {"jroe", "mmuster", "avery"}
    orgs = {(c.subject.github, c.object) for c in claims if c.predicate == "affiliation"}
    assert orgs == {("jroe", "Example Labs"), ("avery", "Sample University")}


def test_a_one_word_entry_is_proposed_flagged_only_when_asked() -> None:
    assert entries.read("atrons", propose=True) == []
    (one,) = entries.read("atrons", propose=True, lone=True)
    assert one.lone and one.name == "atrons" and not entries.names_somebody([one])
    assert entries.read("Documentation", propose=True, lone=True) == []  # a page's word
    c = Candidate("atrons", None, None, "atrons", "li", "Contributors", lone=True,
                  list_people_share=0.9)  # fmt: skip
    features = person_features(c)
    assert features["name:lone"] == 1.0 and features["name:lone_people"] == 0.9


def test_one_word_names_in_a_list_of_people_are_kept_by_the_model() -> None:
    names = ["Jane Roe", "Max Muster", "Ankit", "Erika Mustermann", "atrons", "John Smith"]
    page = "# Team\n\n## Contributors\n\n" + "".join(f"- {n}\n" for n in names)
    claims = read_page(page, "https://github.com/example/proj/blob/main/TEAM.md")
    assert {c.subject.name for c in claims if c.predicate == "maintainer"} == set(names)


def test_x_is_the_seat_under_the_seats_heading_names_its_holder() -> None:
    body = "Jane Roe is the Benevolent Dictator for Life (BDFL)"
    found = prose.role_is(body, Labels(()), None, "Benevolent Dictator for Life")
    assert [(p.name, role) for p, role in found] == [("Jane Roe", "Benevolent Dictator for Life")]
    assert prose.role_is(body, Labels(()), None, "History") == []  # not that seat's heading
