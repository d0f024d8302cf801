"""Shapes of the fifth real probe (issue 24, round 9): maintainer and team pages of 12 projects
outside every corpus and fixture, read as a user would give them (their public URLs), scored
against hand gold.

Real files: `fixtures/governance/real-probe-5/` (provenance in its PROVENANCE.md, gold in
`gold/`, URLs in `urls.json`). Measured blind on main (3db8233) before any fix: people P 0.989
R 0.887, section P 0.992 R 0.672, affiliation P 0.963 R 1.000 (its first 11 pages; the 12th,
OpenTelemetry's, was added after the fixes and read on first contact: affiliation R 0.978). The
unit tests below use small CONSTRUCTED inputs (invented people), one for each shape that gave
nothing or the wrong thing on first contact:

- a `.md` whose title is setext-underlined ("Maintainers\\n===") and whose tables have no outer
  pipes and reference-style links (`[jroe][jroe]`): Markdown, not reST (it read as reST and
  gave nobody);
- a line all in bold right above a table or list (`**Release Managers**`): that list's label;
- `Name ([alias](https://github.com/login))`: the handle is the login the link names;
- `### Area` headings each over one line of bare logins (`jroe, mmuster`) that the page links
  elsewhere: the people of that area;
- a card's title line (`<p>Coordinator</p>`, "Jane Roe, Coordinator"): a title, no employer;
- `Name ([login](url) mail@example.org` (its closing parenthesis lost): still Name.
"""

from __future__ import annotations

import json
from pathlib import Path

from extractors.governance import generic as governance
from ingest.models import Claim, Snapshot
from ingest.sniff import sniff_format

from .helpers import assert_probe_above, assert_probe_pages_read
from .helpers import maintainer_rows as rows

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "fixtures" / "governance" / "real-probe-5"
URLS = json.loads((PROBE / "urls.json").read_text(encoding="utf-8"))
# after the fixes, all 12 pages: people P 1.000 R 1.000, section P 1.000 R 1.000, affiliation
# P 1.000 R 0.986; floors a little below
FLOORS = {
    "people_precision": 0.98,
    "people_recall": 0.98,
    "section_precision": 0.98,
    "section_recall": 0.98,
    "affiliation_precision": 0.98,
    "affiliation_recall": 0.98,
}


def read(body: str, url: str) -> list[Claim]:
    return governance.extract(Snapshot(url=url, body=body.encode("utf-8")))


def test_the_fifth_probe_scores_above_its_floors_with_ingest_evaluate() -> None:
    assert len(URLS) == 12
    assert_probe_above(PROBE, FLOORS)


def test_every_page_of_the_fifth_probe_yields_claims_and_every_gold_handle() -> None:
    assert_probe_pages_read(PROBE, URLS)


SETEXT_PIPE_TABLES = """\
Maintainers
===========

**Active Maintainers**

| Name | GitHub | Chat | email
|------|--------|------|----------------------
| Jane Roe | [jroe][jroe] | jane | <jane@example.org>

**Release Managers**

| Name | GitHub | Chat | email
|------|--------|------|----------------------
| Max Muster | [mmuster][mmuster] | max | <max@example.org>
| Erika Mustermann |  | erika | <erika@example.org>

[jroe]: https://github.com/jroe
[mmuster]: https://github.com/mmuster
"""


def test_a_setext_titled_md_with_pipe_tables_is_markdown_and_bold_lines_label_them() -> None:
    body = SETEXT_PIPE_TABLES.encode()
    assert sniff_format(body, "", "https://example.org/MAINTAINERS.md") == "markdown"
    assert sniff_format(b"Title\n=====\n\nSome `text <https://example.org>`_.\n") == "rst"
    claims = read(SETEXT_PIPE_TABLES, "https://github.com/pebble/pebble/blob/main/MAINTAINERS.md")
    assert rows(claims) == [
        ("Jane Roe", "jroe", "Active Maintainers", "current"),
        ("Max Muster", "mmuster", "Release Managers", "current"),
        ("Erika Mustermann", None, "Release Managers", "current"),
    ]


def test_a_bold_line_that_is_a_name_or_leads_nothing_is_no_label() -> None:
    page = "# Team\n\n**Jane Roe**\n\n- Max Muster ([mmuster](https://github.com/mmuster))\n"
    page += "- Erika Mustermann ([emu](https://github.com/emu))\n"
    claims = read(page, "https://github.com/pebble/pebble/blob/main/TEAM.md")
    assert {r[2] for r in rows(claims)} == {"Team"}


AREA_LOGINS = """\
The maintainers and their areas.

* Jane Roe ([jane](https://github.com/jroe)) jane@example.org
* Max Muster ([mmuster](https://github.com/mmuster) max@example.org

## Areas of expertise

### Parser
jroe, mmuster

### Release notes
see the wiki, then ask
"""


def test_a_link_texts_alias_and_area_lines_of_bare_logins_the_page_links() -> None:
    claims = read(AREA_LOGINS, "https://github.com/pebble/pebble/blob/main/MAINTAINERS.md")
    assert rows(claims) == [
        ("Jane Roe", "jroe", None, "current"),
        ("Max Muster", "mmuster", None, "current"),
        ("jroe", "jroe", "Parser", "current"),
        ("mmuster", "mmuster", "Parser", "current"),
    ]
    parser = [c for c in claims if c.qualifiers.get("section") == "Parser"]
    assert {c.qualifiers.get("scope") for c in parser} == {"Parser"}
    # words that are no login the page links are nobody ("jroe, someone" under a heading)
    unknown = AREA_LOGINS.replace("jroe, mmuster", "jroe, someone")
    claims = read(unknown, "https://github.com/pebble/pebble/blob/main/MAINTAINERS.md")
    assert [r for r in rows(claims) if r[2] == "Parser"] == []


def test_a_cards_title_line_is_no_employer() -> None:
    page = "<h1>Team</h1>\n<div><h3>Jane Roe</h3><p>Coordinator</p></div>\n"
    page += "<div><h3>Max Muster</h3><p>Community Officer</p></div>\n"
    page += "<div><h3>Erika Mustermann</h3><p>Example Labs</p></div>\n"
    claims = read(page, "https://pebble.example.org/about/")
    orgs = {(c.subject.name, c.object) for c in claims if c.predicate == "affiliation"}
    assert ("Jane Roe", "Coordinator") not in orgs
    assert ("Max Muster", "Community Officer") not in orgs
    assert len(rows(claims)) == 3
