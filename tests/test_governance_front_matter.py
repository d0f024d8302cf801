"""Front matter and person cards walked by the generic data walker (issue 24, item 1).

Real files (`fixtures/governance-data/`, provenance in its PROVENANCE.md, gold in `gold/`), run
end to end through `ingest extract FILE --url URL` as a user would: a Docker-style
MAINTAINERS.toml (people in a table keyed by login, role lists naming those keys, capitalised
`Name` / `GitHub` keys), a Layer5 member card (YAML front matter of an .mdx page: `position`,
`github`, `status: Inactive`) and a Bevy community card (a TOML file that is one person's card).
The other files are CONSTRUCTED (invented people): tests/data/constructed.*."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import extractors
from extractors.document import markdown as _markdown
from extractors.document import tree as _tree
from extractors.governance import generic as governance
from ingest.models import Claim, Snapshot
from ingest_cli.cli import main
from ingest_cli.evaluate.governance import score, sets_for

from .helpers import maintainer_rows as rows

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "fixtures" / "governance-data"
DATA = Path(__file__).parent / "data"
URLS = json.loads((REAL / "urls.json").read_text(encoding="utf-8"))


def extract_cli(path: Path, url: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["extract", str(path), "--url", url])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines() if line.strip()]


def people(claims: list[dict[str, object]]) -> list[tuple[object, ...]]:
    out = []
    for c in claims:
        if c["predicate"] != "maintainer":
            continue
        subject, q = c["subject"], c["qualifiers"]
        assert isinstance(subject, dict) and isinstance(q, dict)
        out.append((subject.get("name"), subject.get("github"), q.get("section"), q["status"]))
    return out


def gold(name: str) -> list[tuple[object, ...]]:
    rows = json.loads((REAL / "gold" / f"{name}.json").read_text(encoding="utf-8"))
    return [(r["name"], r["handle"], r["section"], r["status"]) for r in rows]


def test_every_real_data_file_gives_its_gold_people_through_ingest_extract() -> None:
    assert len(URLS) == 3
    for name, url in URLS.items():
        claims = extract_cli(REAL / name, url)
        assert people(claims) == gold(name), name
        body = (REAL / name).read_text(encoding="utf-8")
        for claim in claims:  # verbatim evidence: a line of the file
            evidence = claim["evidence"]
            assert isinstance(evidence, dict) and evidence["quote"] in body


def test_the_real_set_scores_perfectly_with_ingest_evaluate() -> None:
    totals = score(sets_for(None, REAL)).total.figures()
    for figure in ("people", "section"):
        assert totals[f"{figure}_precision"] == 1.0
        assert totals[f"{figure}_recall"] == 1.0


def test_a_card_role_field_is_its_role_and_an_inactive_status_is_emeritus() -> None:
    name = "layer5-member-abhishek-kumar.undated.267a23ac.mdx"
    [claim] = extract_cli(REAL / name, URLS[name])
    assert claim["qualifiers"]["role"] == "maintainer"  # type: ignore[index]
    assert claim["qualifiers"]["status"] == "emeritus"  # type: ignore[index]
    assert claim["evidence"]["quote"] == "name: Abhishek Kumar"  # type: ignore[index]


def read(name: str, url: str) -> list[Claim]:
    snapshot = Snapshot(url=url, body=(DATA / name).read_bytes())
    assert extractors.choose(url, snapshot) is governance
    return governance.extract(snapshot)


def affiliations(claims: list[Claim]) -> dict[str, str]:
    return {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}


def test_json_people_with_the_handle_under_socials_links_or_social() -> None:
    claims = read("constructed.team-socials.json", "https://example.org/team.json")
    assert rows(claims) == [
        ("Jane Roe", "jroe", None, "current"),  # a profile URL under `socials`
        ("Max Muster", "mmuster", None, "current"),  # a bare handle under `links`
        ("Ann Lee", "alee", None, "current"),  # "@alee" under `social`
    ]
    assert affiliations(claims) == {
        "Jane Roe": "Example Labs",
        "Max Muster": "Acme Corp",
        "Ann Lee": "Initech",
    }


def test_toml_cards_in_arrays_of_tables() -> None:
    claims = read("constructed.council.toml", "https://example.org/teams/council.toml")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "people", "current"),
        ("Max Muster", "mmuster", "people", "current"),
        ("Ann Lee", "alee", "alumni", "emeritus"),
    ]
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}


def test_hugo_toml_front_matter_list_of_people_and_the_body_read_as_before() -> None:
    claims = read("constructed.hugo-team-front-matter.md", "https://example.org/community/sc/")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "members", "current"),
        ("Max Muster", "mmuster", "members", "current"),
        ("John Smith", "jsmith", "Emeritus", "emeritus"),  # the body, as before
        ("Ann Lee", "alee", "Emeritus", "emeritus"),
    ]  # the page's authors ("Web Team") are not listed: they wrote the page
    assert affiliations(claims) == {"Jane Roe": "Example Labs", "Max Muster": "Acme Corp"}
    text = (DATA / "constructed.hugo-team-front-matter.md").read_text()
    document = _markdown.document(text)
    assert document.title == "Steering Committee"  # TOML front matter's title, as YAML's
    first = next(c for c in claims if c.subject.name == "Jane Roe")
    assert first.evidence.quote == 'name = "Jane Roe"'
    assert text.splitlines()[6] == first.evidence.quote  # its own line of the file


def test_a_page_whose_toml_front_matter_is_one_persons_card() -> None:
    claims = read("constructed.hugo-person-card.md", "https://example.org/authors/jroe/")
    assert rows(claims) == [("Jane Roe", "jroe", "Maintainer", "current")]
    assert claims[0].qualifiers["role"] == "maintainer"
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}  # `organizations = [{name}]`


def test_a_card_page_titled_with_the_persons_name_names_that_person() -> None:
    # a page per person (Hugo): the front matter's `title` is who it is about, not a project
    url = "https://github.com/example/site/blob/main/jroe.md"
    claims = read("constructed.hugo-title-card.md", url)
    assert rows(claims) == [("Jane Roe", "jroe", "Steering Committee", "current")]
    projects = {c.object for c in claims if c.predicate == "maintainer"}
    assert projects == {"example"}  # the owner of a "site" repository, not the person
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}


def test_a_posts_front_matter_authors_are_nobody() -> None:
    text = (DATA / "constructed.blog-post-with-author.md").read_text()
    document = _markdown.document(text)
    assert document.title == "Release 2.0"
    assert not any(type(b).__name__ == "Record" for b in document.blocks)
    snapshot = Snapshot(url="https://example.org/blog/release-2.md", body=text.encode())
    assert extractors.choose(snapshot.url, snapshot) is not governance


def test_what_is_a_card() -> None:
    assert _tree.is_card({"name": "Jane Roe", "github": "jroe"})
    assert _tree.is_card({"Name": "Jane Roe", "Position": "Maintainer"})
    assert _tree.is_card({"name": "Jane Roe", "socials": [{"link": "https://github.com/jroe"}]})
    assert not _tree.is_card({"name": "repair", "description": "Back up the state file"})
    assert not _tree.is_card({"title": "Governance", "date": "2024-01-01"})
    team = {"name": "council", "email": "c@example.org", "members": [{"name": "Jane Roe"}]}
    assert not _tree.is_card(team)  # a team holding its members is no one's card


def test_a_front_matter_alias_bomb_is_not_walked() -> None:
    """Nine lists of nine aliases, seven deep: a few lines that walk to 4.8 million values
    (7 s before the bound); the page's body is still read."""
    import time

    text = (DATA / "constructed.front-matter-alias-bomb.md").read_text()
    start = time.perf_counter()
    document = _markdown.document(text)
    assert time.perf_counter() - start < 1.0
    assert not any(type(b).__name__ == "Record" for b in document.blocks)
    assert [type(b).__name__ for b in document.blocks] == ["Heading"]
    assert _tree.small({"a": [1, 2]}) and not _tree.small({"a": list(range(10))}, limit=5)
