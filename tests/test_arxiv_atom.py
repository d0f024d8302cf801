"""extractors/papers/atom.py (`arxiv_atom`):
goldens, affiliations, positions, error/empty feeds, hostile input."""

from __future__ import annotations

import json

import pytest

import extractors
from extractors.papers import atom as arxiv_atom
from ingest.errors import ExtractionError
from ingest.models import Snapshot
from tests.arxiv_golden import FIXTURE_DIR, GOLDEN_URLS, golden_path, render, snapshot

ASTRO = "atom-response.id_astro-ph_0601001_s0_m100_3150dca9dc76.xml"
TWO_IDS = "atom-response.id_0808.05394_1707.08567_s0_m100_42e5aa0ec3af.xml"
EMPTY = "atom-response.id_0000.0000_s0_m100_8b51d9633a68.xml"
ERROR = "atom-response.id_abc_s0_m100_b79c8dcf6bc3.xml"
SEARCH = "atom-response.q_testing_s0_m10_bc5a6c384fe9.xml"
OLD_2016 = "atom-response-2016.id_list_1111.2011v2.xml"
API = "https://export.arxiv.org/api/query?id_list=1"


def feed(*entries: str, head: str = "") -> bytes:
    return (
        f"<?xml version='1.0' encoding='UTF-8'?>{head}"
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
        + "".join(entries)
        + "</feed>"
    ).encode()


def entry(id_: str = "2101.00001v2", authors: str = "<author><name>A B</name></author>") -> str:
    return (
        f"<entry><id>http://arxiv.org/abs/{id_}</id><title>T</title>"
        "<published>2021-01-01T00:00:00Z</published><updated>2021-02-01T00:00:00Z</updated>"
        f"{authors}</entry>"
    )


def snap(body: bytes, url: str = API) -> Snapshot:
    return Snapshot(url=url, body=body)


# --------------------------------------------------------------------------------------------
# golden files


def test_every_recorded_xml_has_a_golden_url() -> None:
    assert sorted(GOLDEN_URLS) == sorted(p.name for p in FIXTURE_DIR.glob("*.xml"))


@pytest.mark.parametrize("name", list(GOLDEN_URLS))
def test_golden(name: str) -> None:
    expected = golden_path(name).read_text(encoding="utf-8")
    assert render(name) == expected, f"output for {name} differs from {golden_path(name).name}"


@pytest.mark.parametrize("name", list(GOLDEN_URLS))
def test_golden_lines_keep_the_contract(name: str) -> None:
    snapshot_ = snapshot(name)
    text = snapshot_.text()
    for line in golden_path(name).read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        assert data["extractor"] == "arxiv_atom/1" == extractors.tag(arxiv_atom)
        assert data["predicate"] in ("author_of", "affiliation")
        evidence = data["evidence"]
        assert evidence["url"] == GOLDEN_URLS[name]
        assert evidence["sha256"] == snapshot_.sha256
        assert evidence["quote"] and evidence["quote"] in text  # verbatim
        q = data["qualifiers"]
        assert isinstance(q["position"], int) and q["position"] >= 1
        if data["predicate"] == "author_of":
            assert data["object"].startswith("arXiv:") and "v" not in data["object"][-3:]
            assert len(q["published"]) == 10 and q["version"].startswith("v")
            assert data["subject"]["name"] == evidence["quote"]
        else:
            assert q["affiliation_text"] == data["object"] == evidence["quote"]
            assert q["work"].startswith("arXiv:")


# --------------------------------------------------------------------------------------------
# what the recorded responses say


def test_astro_ph_affiliations() -> None:
    claims = arxiv_atom.extract(snapshot(ASTRO))
    affiliations = [
        (c.subject.name, c.object, c.qualifiers["position"], c.evidence.locator)
        for c in claims
        if c.predicate == "affiliation"
    ]
    where = "entry 1 (arXiv:astro-ph/0601001) > author {} > affiliation 1"
    assert affiliations == [
        ("Andrew Gould", "Ohio State", 1, where.format(1)),
        ("Susan Dorsher", "Ohio State", 2, where.format(2)),
        ("B. Scott Gaudi", "CfA", 3, where.format(3)),
        ("Andrzej Udalski", "Warsaw University Observatory", 4, where.format(4)),
    ]
    first = next(c for c in claims if c.predicate == "affiliation")
    assert first.qualifiers == {
        "work": "arXiv:astro-ph/0601001",
        "date": "2006-01-02",
        "affiliation_text": "Ohio State",
        "position": 1,
    }


def test_author_positions_follow_the_feed() -> None:
    claims = arxiv_atom.extract(snapshot(TWO_IDS))
    assert [c.qualifiers["position"] for c in claims] == list(range(1, 35))
    third = claims[2]
    assert third.subject.name == "Ferdaous Chaabane"
    assert third.object == "arXiv:1707.08567"
    assert third.evidence.locator == "entry 1 (arXiv:1707.08567) > author 3"
    assert third.qualifiers == {
        "title": "Proceedings of Workshop AEW10: Concepts in Information Theory and Communications",
        "published": "2017-07-27",
        "position": 3,
        "version": "v1",
        "updated": "2017-07-27",
    }


def test_many_entries_titles_collapsed_and_doi() -> None:
    claims = arxiv_atom.extract(snapshot(SEARCH))
    works = {c.object for c in claims}
    assert len(works) == 10
    assert all("\n" not in c.qualifiers["title"] for c in claims)
    old = arxiv_atom.extract(snapshot(OLD_2016))
    assert old[0].qualifiers["title"] == (
        "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit"
    )
    assert old[0].qualifiers["doi"] == "10.1103/PhysRevB.85.115117"
    assert old[0].qualifiers["version"] == "v2" and old[0].object == "arXiv:1111.2011"


def test_entries_helper_gives_metadata_and_pdf_url() -> None:
    [paper] = arxiv_atom.entries(snapshot(ASTRO))
    assert paper.id == "astro-ph/0601001" and paper.version == "v1"
    assert paper.work == "arXiv:astro-ph/0601001"
    assert paper.pdf_url == "https://arxiv.org/pdf/astro-ph/0601001v1"
    assert paper.published == "2006-01-02" and paper.doi is None
    assert paper.journal_ref == "ActaAstron.56:1-50,2006"
    assert [a.name for a in paper.authors][:2] == ["Andrew Gould", "Susan Dorsher"]
    assert paper.authors[3].affiliations == ["Warsaw University Observatory"]
    from_bytes = arxiv_atom.entries((FIXTURE_DIR / OLD_2016).read_bytes())
    assert from_bytes[0].pdf_url == "http://arxiv.org/pdf/1111.2011v2"
    assert from_bytes[0].doi == "10.1103/PhysRevB.85.115117"


@pytest.mark.parametrize("name", [EMPTY, ERROR])
def test_error_and_empty_feeds_give_nothing(name: str) -> None:
    assert arxiv_atom.extract(snapshot(name)) == []
    assert arxiv_atom.entries(snapshot(name)) == []


# --------------------------------------------------------------------------------------------
# matching


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (GOLDEN_URLS[ASTRO], True),
        ("http://export.arxiv.org/api/query?search_query=au:x", True),
        ("https://arxiv.org/api/query?id_list=1", True),
        ("https://arxiv.org/abs/1707.08567", False),
        ("https://export.arxiv.org/api/queryX", False),
        ("https://evil.example/export.arxiv.org/api/query", False),
    ],
)
def test_matches_url(url: str, expected: bool) -> None:
    assert arxiv_atom.matches(url, None) is expected


def test_matches_content() -> None:
    for name in GOLDEN_URLS:
        assert arxiv_atom.matches("file:///x", snapshot(name, "file:///x"))
    plain_atom = b'<feed xmlns="http://www.w3.org/2005/Atom"><title>blog</title></feed>'
    assert not arxiv_atom.matches("file:///x", snap(plain_atom))
    assert not arxiv_atom.matches("file:///x", snap(b"<html>arxiv.org/schemas/atom</html>"))
    assert extractors.choose("file:///x", snapshot(ASTRO, "file:///x")) is arxiv_atom
    assert extractors.choose(GOLDEN_URLS[ASTRO]) is arxiv_atom


# --------------------------------------------------------------------------------------------
# hostile and broken input


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"<feed",
        (FIXTURE_DIR / ASTRO).read_bytes()[:2000],  # truncated mid-entry
        b"not xml at all",
    ],
)
def test_malformed_xml_raises_naming_the_url(body: bytes) -> None:
    with pytest.raises(ExtractionError) as info:
        arxiv_atom.extract(snap(body, "https://export.arxiv.org/api/query?id_list=broken"))
    assert "https://export.arxiv.org/api/query?id_list=broken" in str(info.value)
    assert info.value.url == "https://export.arxiv.org/api/query?id_list=broken"


def test_entity_declarations_are_never_expanded() -> None:
    hostile = feed(
        entry(authors="<author><name>&boom; &ext;</name></author>"),
        head='<!DOCTYPE feed [<!ENTITY boom "EXPANDED"><!ENTITY ext SYSTEM "file:///etc/passwd">]>',
    )
    with pytest.raises(ExtractionError, match="DOCTYPE"):
        arxiv_atom.extract(snap(hostile))
    laughs = feed(
        entry(authors="<author><name>&l3;</name></author>"),
        head='<!DOCTYPE feed [<!ENTITY l0 "ha"><!ENTITY l1 "&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;">'
        '<!ENTITY l2 "&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;"><!ENTITY l3 "&l2;&l2;&l2;&l2;&l2;&l2;">]>',
    )
    with pytest.raises(ExtractionError, match="DOCTYPE"):
        arxiv_atom.extract(snap(laughs))


def test_oversized_body_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arxiv_atom, "MAX_FEED_BYTES", 100)
    with pytest.raises(ExtractionError, match="larger than 100 bytes"):
        arxiv_atom.extract(snap(feed(entry())))


def test_not_a_feed_and_entries_without_abs_id() -> None:
    with pytest.raises(ExtractionError, match="not an Atom feed"):
        arxiv_atom.extract(snap(b"<rss><channel/></rss>"))
    weird = feed("<entry><id>urn:x</id><title>T</title></entry>")
    with pytest.raises(ExtractionError, match="entry 1 has no arXiv abs id"):
        arxiv_atom.extract(snap(weird))


def test_markup_in_names_is_text_and_whitespace_collapsed() -> None:
    body = feed(
        entry(
            authors="<author><name>  Jos\u00e9\n  M<b>a</b>ria   O'Neil-Smith </name>"
            "<arxiv:affiliation> AT&amp;T  Labs </arxiv:affiliation></author>"
        )
    )
    author_of, affiliation = arxiv_atom.extract(snap(body))
    assert author_of.subject.name == "Jos\u00e9 Maria O'Neil-Smith"
    assert (
        author_of.qualifiers["version"] == "v2" and author_of.qualifiers["updated"] == "2021-02-01"
    )
    assert affiliation.object == "AT&T Labs" == affiliation.qualifiers["affiliation_text"]
    assert affiliation.evidence.quote == "AT&T  Labs"
