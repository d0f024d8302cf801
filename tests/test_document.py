"""The shared document layer: every format gives the same kinds of blocks, quotes cut from the
source. Inputs here are small constructed snippets (written for these tests, not recorded), except
where a test reads a training page from `fixtures/governance-train/` (real, see its PROVENANCE)."""

from __future__ import annotations

import pytest

from extractors import document as _document
from extractors.document.model import Code, Heading, Item, Para, Record, Row, Term
from extractors.governance import generic as governance
from ingest.errors import ExtractionError
from ingest.models import Snapshot

from .conftest import ROOT

TRAIN = ROOT / "fixtures" / "governance-train"


def parse(body: str, url: str = "https://example.org/page") -> _document.Document:
    return _document.parse(Snapshot(url=url, body=body.encode()))


def kinds(document: _document.Document) -> list[str]:
    return [type(b).__name__ for b in document.blocks]


def test_markdown_blocks_keep_verbatim_quotes_and_nesting() -> None:
    doc = parse(
        "---\ntitle: Team\ndate: 2024-05-01\n---\n# Maintainers\n\n"
        "- `core`: Ada Lovelace ([@ada](https://github.com/ada)),\n  continued line\n"
        "  - Nested Person\n\n| Name | Company |\n| --- | --- |\n| Alan Turing | ACE<br>NPL |\n"
    )
    assert doc.meta["title"] == "Team" and doc.meta["date"] == "2024-05-01"
    heading, item, nested, header, row = doc.blocks
    assert heading == Heading(1, "Maintainers", 5)
    assert (
        isinstance(item, Item)
        and item.depth == 0
        and item.links == (("@ada", "https://github.com/ada"),)
    )
    assert item.quote == "`core`: Ada Lovelace ([@ada](https://github.com/ada)),\n  continued line"
    assert item.text == "core: Ada Lovelace (@ada), continued line"
    assert isinstance(nested, Item) and nested.depth == 1 and nested.parent == item.text
    assert isinstance(header, Row) and header.header and not row.header
    assert row.quote == "| Alan Turing | ACE<br>NPL |"
    assert row.cells[1].lines == ("ACE", "NPL")


def test_markdown_html_block_tables_are_read_as_tables() -> None:
    doc = parse(
        "## Members\n\n<table><tr><th>Name</th></tr><tr><td>Grace Hopper</td></tr></table>\n"
    )
    assert kinds(doc) == ["Heading", "Row", "Row"]
    assert doc.blocks[2].cells[0].text == "Grace Hopper"


def test_rst_sections_lists_tables_and_literal_blocks() -> None:
    doc = parse(
        "PEP: 9999\nTitle: Constructed Council\n\nCouncil\n=======\n\nMembers\n-------\n\n"
        "* `Ada Lovelace <https://github.com/ada>`_ (ada)\n\n"
        '.. csv-table::\n   :header: "Name", "Role"\n\n   "Alan Turing", "Chair"\n\n'
        ".. code-block:: text\n\n   Grace Hopper\n   Edsger Dijkstra\n\n"
        "Term\n   Definition text\n",
        url="https://example.org/council.rst",
    )
    assert doc.meta["title"] == "Constructed Council" and doc.title == "Constructed Council"
    headings = [b for b in doc.blocks if isinstance(b, Heading)]
    assert [(h.level, h.text) for h in headings] == [(1, "Council"), (2, "Members")]
    item = next(b for b in doc.blocks if isinstance(b, Item))
    assert item.links == (("Ada Lovelace", "https://github.com/ada"),)
    assert item.quote == "`Ada Lovelace <https://github.com/ada>`_ (ada)"
    rows = [b for b in doc.blocks if isinstance(b, Row)]
    assert [r.header for r in rows] == [True, False]
    assert rows[1].quote == '"Alan Turing", "Chair"'  # the source line, found in order
    code = next(b for b in doc.blocks if isinstance(b, Code))
    assert code.lines == ("Grace Hopper", "Edsger Dijkstra")
    term = next(b for b in doc.blocks if isinstance(b, Term))
    assert (term.term, term.text) == ("Term", "Definition text")


def test_html_nested_items_definition_lists_and_cells() -> None:
    doc = parse(
        "<html><head><title>Team</title></head><body><nav><ul><li>Home</li></ul></nav><main>"
        "<h2>Areas</h2><ul><li>Networking:<ul><li><a href='https://github.com/ada'>Ada</a></li>"
        "</ul></li></ul><dl><dt>Alan Turing</dt><dd>Chair</dd></dl>"
        "<table><tr><td>Grace Hopper</td><td>Navy<br>Yale</td></tr></table><pre>x\ny</pre>"
        "</main></body></html>"
    )
    assert doc.title == "Team"
    items = [b for b in doc.blocks if isinstance(b, Item)]
    assert [(i.text, i.depth, i.parent) for i in items] == [
        ("Networking:", 0, None),
        ("Ada", 1, "Networking:"),
    ]  # the navigation list is not read
    assert items[1].links == (("Ada", "https://github.com/ada"),)
    assert any(isinstance(b, Term) and b.term == "Alan Turing" for b in doc.blocks)
    row = next(b for b in doc.blocks if isinstance(b, Row))
    assert not row.header and row.cells[1].lines == ("Navy", "Yale")
    assert any(isinstance(b, Code) and b.lines == ("x", "y") for b in doc.blocks)


def test_owners_yaml_keeps_the_comment_of_each_entry() -> None:
    page = (TRAIN / "etcd-OWNERS.2025-06-23.33a45806.yaml").read_text()
    doc = parse(page, url="https://github.com/etcd-io/etcd/blob/main/OWNERS")
    assert doc.format == "owners"
    assert [h.text for h in doc.blocks if isinstance(h, Heading)] == [
        "approvers",
        "reviewers",
        "emeritus_approvers",
    ]
    first = next(b for b in doc.blocks if isinstance(b, Record))
    assert first.fields == {"value": "ahrtr"} and first.path == ("approvers",)
    assert first.comment and first.comment.startswith("Benjamin Wang <")
    assert first.quote in page and first.line == 4


def test_toml_records_and_their_tables() -> None:
    page = (TRAIN / "rust-leadership-council.2025-09-20.d2c40611.toml").read_text()
    doc = parse(page, url="https://github.com/rust-lang/team/blob/main/teams/council.toml")
    members = [b for b in doc.blocks if isinstance(b, Record) and b.path == ("people", "members")]
    assert members[0].fields["github"] == "cuviper" and members[0].quote in page
    assert {r["id"] for r in doc.tables["roles"]} >= {"council-rep-compiler"}


def test_codeowners_and_maintainers_files() -> None:
    owners = parse(
        "# @placeholder-owner in a comment\n* @ada @alan\n/docs/ @grace\n",
        url="https://github.com/x/y/blob/main/.github/CODEOWNERS",
    )
    assert [(type(b).__name__, b.text) for b in owners.blocks] == [
        ("Heading", "*"),
        ("Item", "@ada"),
        ("Item", "@alan"),
        ("Heading", "/docs/"),
        ("Item", "@grace"),
    ]
    page = (TRAIN / "iproute2-MAINTAINERS.2025-12-01.eede0926.txt").read_text()
    doc = parse(page, url="https://git.kernel.org/iproute2/tree/MAINTAINERS")
    items = [b for b in doc.blocks if isinstance(b, Item)]
    assert items[0].text == "Stephen Hemminger <stephen@networkplumber.org>"
    assert all("Maintainer's Full Name" not in i.text for i in items)  # the format's template


def test_data_files_are_known_by_shape_when_the_url_does_not_say() -> None:
    assert parse("approvers:\n- ada\n- alan\n").format == "yaml"
    assert parse("[people]\nmembers = ['ada']\n").format == "toml"
    assert parse("Title\nM: Ada Lovelace <ada@example.org>\nM: Al <al@example.org>\n").format == (
        "maintainers"
    )
    assert parse("# Team\n\n- Ada\n").format == "markdown"


def test_a_broken_data_file_names_the_url_and_line() -> None:
    with pytest.raises(ExtractionError) as info:
        parse("approvers:\n  - ada\n bad: [\n", url="https://example.org/OWNERS")
    assert "https://example.org/OWNERS" in str(info.value) and "line" in str(info.value)


def test_pdf_is_not_a_page_format() -> None:
    with pytest.raises(ExtractionError, match="not a page format"):
        _document.parse(Snapshot(url="https://example.org/a.pdf", body=b"%PDF-1.7\n"))


def test_every_training_page_parses_into_blocks() -> None:
    skip = {"README.md", "PROVENANCE.md", "urls.json"}
    names = sorted(p.name for p in TRAIN.iterdir() if p.is_file() and p.name not in skip)
    assert len(names) >= 24
    for name in names:
        doc = parse((TRAIN / name).read_text(), url=f"https://example.org/{name}")
        assert any(isinstance(b, Item | Row | Record | Para | Code) for b in doc.blocks), name


def test_html_paragraph_broken_by_br_is_a_list_of_its_lines() -> None:
    doc = parse(
        "<main><h2>Steering Committee</h2><p>Alice Smith (Acme Corp)<br>Bob Jones<br/>"
        "<a href='https://github.com/carol'>Carol White</a></p><p>One line<br></p>"
        "<p>Prose with no break.</p></main>"
    )
    items = [b for b in doc.blocks if isinstance(b, Item)]
    assert [i.text for i in items] == ["Alice Smith (Acme Corp)", "Bob Jones", "Carol White"]
    assert len({i.list_no for i in items}) == 1  # one list, not three
    assert items[2].links == (("Carol White", "https://github.com/carol"),)
    # a paragraph of one line (a trailing <br>) and one with no break stay paragraphs
    assert [b.text for b in doc.blocks if isinstance(b, Para)] == [
        "One line",
        "Prose with no break.",
    ]


def test_governance_reads_people_from_a_paragraph_broken_by_br() -> None:
    from extractors.governance import generic as governance

    body = (
        "<html><body><main><h1>Governance</h1><h2>Maintainers</h2><p>"
        "<a href='https://github.com/dave'>Dave Brown</a><br>\n"
        "<a href='https://github.com/erin'>Erin Green</a><br>\n</p></main></body></html>"
    )
    claims = governance.extract(
        Snapshot(url="https://example.org/governance.html", body=body.encode())
    )
    people = {(c.subject.name, c.subject.github, c.qualifiers.get("section")) for c in claims}
    assert people == {("Dave Brown", "dave", "Maintainers"), ("Erin Green", "erin", "Maintainers")}


ETCD_STYLE_MAINTAINERS = """\
# The official list of maintainers and reviewers for the project maintenance.
#
# Names should be added to this file like so:
#     Individual's name <submission email address> (@GITHUB_HANDLE) pkg:*
#
# Please keep the list sorted.

# MAINTAINERS
Benjamin Wang <benjamin.ahrtr@gmail.com> <benjamin.wang@broadcom.com> (@ahrtr) pkg:*
Fu Wei <fuweid89@gmail.com> (@fuweid) pkg:*

# REVIEWERS
Ivan Valdes <ivan@vald.es> (@ivanvc) pkg:*
Siyuan Zhang <sizhang@google.com> (@siyuanfoundation) pkg:*
"""


def test_plain_maintainers_file_lines_holding_accounts_are_lists_under_comment_titles() -> None:
    url = "https://github.com/example/project/blob/main/MAINTAINERS"
    doc = parse(ETCD_STYLE_MAINTAINERS, url=url)
    assert doc.format == "maintainers"
    titled = [(b.text, b.line) for b in doc.blocks if isinstance(b, Heading)]
    assert ("MAINTAINERS", 8) in titled and ("REVIEWERS", 12) in titled
    items = [b for b in doc.blocks if isinstance(b, Item)]
    assert [(i.line, i.list_no) for i in items] == [(9, 1), (10, 1), (13, 2), (14, 2)]
    # the format description lines hold an account each, but a comment is not an entry
    assert not any("Individual" in i.text for i in items)

    from extractors.governance import generic as governance

    claims = governance.extract(Snapshot(url=url, body=ETCD_STYLE_MAINTAINERS.encode()))
    people = {
        (c.subject.name, c.subject.github, c.qualifiers["section"])
        for c in claims
        if c.predicate == "maintainer"
    }
    assert people == {
        ("Benjamin Wang", "ahrtr", "MAINTAINERS"),
        ("Fu Wei", "fuweid", "MAINTAINERS"),
        ("Ivan Valdes", "ivanvc", "REVIEWERS"),
        ("Siyuan Zhang", "siyuanfoundation", "REVIEWERS"),
    }


def test_plain_maintainers_prose_lines_stay_a_paragraph() -> None:
    text = "Maintainers\n\nThis project is maintained by\nthe people listed in OWNERS.\n"
    doc = parse(text, url="https://github.com/example/project/blob/main/MAINTAINERS")
    assert not any(isinstance(b, Item) for b in doc.blocks)


ASCIIDOC_TEAM = """\
= Project Team

== Maintainers

* Alice Smith (https://github.com/alice[@alice]), Red Hat

== Emeritus Maintainers

* Carol White
"""


@pytest.mark.parametrize("name", ["TEAM.adoc", "TEAM"])  # by its name, else by its titles
def test_asciidoc_titles_are_headings_and_quotes_stay_verbatim(name: str) -> None:
    doc = parse(ASCIIDOC_TEAM, url=f"https://github.com/example/project/blob/main/{name}")
    assert [(h.level, h.text) for h in doc.blocks if isinstance(h, Heading)] == [
        (1, "Project Team"),
        (2, "Maintainers"),
        (2, "Emeritus Maintainers"),
    ]
    items = [b for b in doc.blocks if isinstance(b, Item)]
    assert items[0].quote == "Alice Smith (https://github.com/alice[@alice]), Red Hat"
    assert items[0].quote in ASCIIDOC_TEAM


ASCIIDOC_TABLE = """= Project Committers

== Committers

[cols="2,1,2", options="header"]
|===
|Name |GitHub |Organization

|Alice Smith
|https://github.com/alice[@alice]
|Red Hat

|Bob Jones |bjones |IBM
|===

Thanks to everyone.
"""


def test_asciidoc_tables_are_rows_where_they_stand_with_verbatim_quotes() -> None:
    doc = parse(ASCIIDOC_TABLE, url="https://github.com/example/project/blob/main/TEAM.adoc")
    kinds = [type(b).__name__ for b in doc.blocks]
    assert kinds == ["Heading", "Heading", "Row", "Row", "Row", "Para"]
    rows = [b for b in doc.blocks if isinstance(b, Row)]
    assert [r.header for r in rows] == [True, False, False]
    assert [[c.text for c in r.cells] for r in rows] == [
        ["Name", "GitHub", "Organization"],
        ["Alice Smith", "@alice", "Red Hat"],
        ["Bob Jones", "bjones", "IBM"],
    ]
    assert rows[1].cells[1].links == (("@alice", "https://github.com/alice"),)
    assert all(r.quote in ASCIIDOC_TABLE for r in rows)
    assert [r.line for r in rows] == [7, 9, 13]
    claims = governance.extract(
        Snapshot(url="https://github.com/example/project/blob/main/TEAM.adoc",
                 body=ASCIIDOC_TABLE.encode())
    )  # fmt: skip
    people = [(c.subject.name, c.subject.github) for c in claims if c.predicate == "maintainer"]
    assert people == [("Alice Smith", "alice"), ("Bob Jones", "bjones")]


def test_csv_member_file_is_a_table_with_its_header_and_verbatim_quotes() -> None:
    body = 'name,github,company\nAlice Smith,alice,"Red Hat, Inc."\n\n'
    body += 'Bob Jones,bjones,"IBM\nResearch"\n'
    doc = parse(body, url="https://github.com/example/project/blob/main/maintainers.csv")
    assert doc.format == "csv"
    rows = [b for b in doc.blocks if isinstance(b, Row)]
    assert [(r.header, r.line, r.row_no) for r in rows] == [
        (True, 1, 1),
        (False, 2, 2),
        (False, 4, 3),
    ]
    assert (
        rows[1].cells[2].text == "Red Hat, Inc."
        and rows[1].quote == 'Alice Smith,alice,"Red Hat, Inc."'
    )
    assert rows[2].cells[2].text == "IBM Research"  # a quoted line break, collapsed

    from extractors.governance import generic as governance

    snapshot = Snapshot(
        url="https://github.com/example/project/blob/main/maintainers.csv", body=body.encode()
    )
    found = {
        (c.predicate, c.subject.name, c.subject.github, c.object)
        for c in governance.extract(snapshot)
    }
    assert ("affiliation", "Alice Smith", "alice", "Red Hat, Inc.") in found
    assert ("maintainer", "Bob Jones", "bjones", "project") in found


def test_tsv_without_a_header_keeps_its_first_record() -> None:
    body = "Alice Smith\tRed Hat\t@alice\nBob Jones\tIBM\t@bjones\n"
    doc = parse(body, url="https://example.org/MAINTAINERS.tsv")
    rows = [b for b in doc.blocks if isinstance(b, Row)]
    assert [r.header for r in rows] == [False, False]  # "@alice": no header prints an account
    assert rows[0].cells[0].text == "Alice Smith"


def test_malformed_csv_names_the_file_and_line() -> None:
    body = 'name,github\n"Alice Smith,alice\n'
    with pytest.raises(ExtractionError) as error:
        parse(body, url="https://example.org/team.csv")
    assert "team.csv" in str(error.value) and "line" in str(error.value)
