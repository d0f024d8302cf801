"""Data files of any layout walked whole (issue 24, item 1): JSON, TOML people tables, YAML teams.

The fixtures are CONSTRUCTED for these tests (invented people): tests/data/constructed.*."""

from __future__ import annotations

from pathlib import Path

import pytest

import extractors
from extractors import document as _document
from extractors.governance import generic as governance
from ingest.errors import UnsupportedFormatError
from ingest.models import Claim, Snapshot

DATA = Path(__file__).parent / "data"


def read(name: str, url: str) -> list[Claim]:
    snapshot = Snapshot(url=url, body=(DATA / name).read_bytes())
    assert extractors.choose(url, snapshot) is governance
    return governance.extract(snapshot)


def rows(claims: list[Claim]) -> list[tuple[object, ...]]:
    return [
        (c.subject.name, c.subject.github, c.qualifiers["role"], c.qualifiers.get("section"),
         c.qualifiers["status"], c.evidence.locator, c.evidence.quote)
        for c in claims
        if c.predicate == "maintainer"
    ]  # fmt: skip


def affiliations(claims: list[Claim]) -> dict[str, str]:
    return {c.subject.name: c.object for c in claims if c.predicate == "affiliation"}


def test_a_json_list_of_person_objects() -> None:
    claims = read("constructed.people.json", "https://example.org/team/maintainers.json")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "maintainer", None, "current", "document > entry 1",
         '"name": "Jane Roe",'),
        ("Max Muster", "mmuster", "maintainer", None, "current", "document > entry 2",
         '"name": "Max Muster",'),
        ("Ada Byron", None, "maintainer", None, "current", "document > entry 3",
         '"name": "Ada Byron",'),
    ]  # fmt: skip
    assert affiliations(claims) == {
        "Jane Roe": "Example Labs",
        "Max Muster": "University of Example",
    }
    body = (DATA / "constructed.people.json").read_text()
    for claim in claims:  # verbatim: the source line holding the record's name
        assert claim.evidence.quote in body


def test_json_content_without_a_json_name_is_read_as_json() -> None:
    body = (DATA / "constructed.people.json").read_bytes()
    snapshot = Snapshot(url="https://example.org/api/team", body=body)
    assert _document.format_of(snapshot) == "json"
    assert extractors.choose(snapshot.url, snapshot) is governance
    assert len(governance.extract(snapshot)) == 5


def test_a_discourse_topic_is_not_a_page() -> None:
    snapshot = Snapshot(url="https://example.org/t/1.json", body=b'{"post_stream": {"posts": []}}')
    with pytest.raises(UnsupportedFormatError):
        _document.parse(snapshot)


def test_a_toml_people_table_named_by_role_lists() -> None:
    claims = read("constructed.team.toml", "https://example.org/team.toml")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "maintainer", "maintainers", "current",
         "teams > core > maintainers > entry 1", 'maintainers = ["jroe", "mmuster"]'),
        ("Max Muster", "mmuster", "maintainer", "maintainers", "current",
         "teams > core > maintainers > entry 2", 'maintainers = ["jroe", "mmuster"]'),
        ("Ada Byron", "abyron", "maintainer", "emeritus", "emeritus",
         "teams > core > emeritus > entry 1", 'emeritus = ["abyron"]'),
    ]  # fmt: skip
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}


def test_a_yaml_file_of_nested_teams() -> None:
    claims = read("constructed.teams.yaml", "https://example.org/teams.yaml")
    assert [(n, g, s, loc, q) for n, g, _, s, _, loc, q in rows(claims)] == [
        ("Jane Roe", "jroe", "Core team", "teams > Core team > members > entry 1",
         "- name: Jane Roe"),
        ("Max Muster", "mmuster", "Core team", "teams > Core team > members > entry 2",
         "- name: Max Muster"),
        ("Ada Byron", "abyron", "Docs team", "teams > Docs team > members > entry 1",
         "- name: Ada Byron"),
    ]  # fmt: skip
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}


def test_a_yaml_people_table_named_by_team_member_lists() -> None:
    # people keyed by login, teams (a list of records) naming those keys: each member is the
    # person the key names, once a team (not the team read as a person named "Core")
    claims = read("constructed.people-table.yaml", "https://example.org/people.yaml")
    assert [(n, g, s) for n, g, _, s, _, _, _ in rows(claims)] == [
        ("Jane Roe", "jroe", "Core"),
        ("Max Muster", "mmuster", "Core"),
        ("Max Muster", "mmuster", "Docs"),
    ]
    assert affiliations(claims) == {"Jane Roe": "Example Labs"}


def test_plain_strings_under_a_key_that_says_no_role_are_nobody() -> None:
    body = b'{"repos": ["core", "docs", "cli"], "maintainers": ["jroe", "mmuster", "abyron"]}'
    snapshot = Snapshot(url="https://example.org/project.json", body=body)
    found = [(c.subject.github, c.qualifiers.get("section")) for c in governance.extract(snapshot)]
    assert found == [("jroe", "maintainers"), ("mmuster", "maintainers"), ("abyron", "maintainers")]


def test_deeply_nested_or_broken_json_is_refused_or_read_without_recursion() -> None:
    deep = Snapshot(url="https://example.org/deep.json", body=b"[" * 100000 + b"]" * 100000)
    try:
        assert governance.extract(deep) == []
    except Exception as exc:  # refused as malformed, never a RecursionError
        assert not isinstance(exc, RecursionError)
    broken = Snapshot(url="https://example.org/broken.json", body=b'{"maintainers": [')
    with pytest.raises(Exception, match="line 1"):
        _document.parse(broken)
