"""Page formats read since round 10: PHP data files, front matter holding the page as Markdown
block scalars, HTML person cards of made-up heading tags (`<h7>`) in a reST raw block.

CONSTRUCTED inputs (invented people), written here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import extractors
from extractors import document as _document
from extractors.document import phpdata
from extractors.governance import generic as governance
from ingest.models import Snapshot

from .test_hostile_parse import assert_linear

PHP_FILE = """<?php
declare(strict_types=1);

// the team page reads this
return [
    'Core Team' => [
        'description' => 'The people who keep it running',
        'contributors' => [
            [
                'name' => 'Jane Roe',
                'github' => 'jroe',
                'role' => 'Creator',
                'links' => [['name' => 'Website', 'url' => 'https://jroe.example']],
            ],
            array('name' => "Max Muster", 'github' => 'mmuster', 'role' => 'Developer'),
        ],
    ],
];
"""
FRONT_MATTER_PAGE = """---
title: who we are
content:
  page_title: Who We Are
  page_content: |

    ### The Board

    #### Members of the Board of Directors

    | ![A photo of Jane Roe](jane.png) |
    |--|
    |**Jane Roe**|
    |Jane works on compilers at Example Labs and has written |
    |several libraries.                                      |

    | ![A photo of Max Muster](max.png) |
    |--|
    |**Max Muster**|
    |Max teaches programming at a university.                |
---
"""
RST_CARDS = """Team
====

Distinguished Contributors
--------------------------

.. raw:: html

    <div class="team-row">
    <div class="team-card">
        <img class="team-img" src="https://example.org/a.png" alt="Card image">
        <div class="team-card-body">
            <h6 class="team-card-text">Jane Roe</h6>
            <h7 class="team-card-text">Joined 4</h7>
            <h7 class="team-card-text"><a href="https://github.com/jroe">@jroe</a></h7>
        </div>
    </div>
    <div class="team-card">
        <img class="team-img" src="https://example.org/b.png" alt="Card image">
        <div class="team-card-body">
            <h6 class="team-card-text">Max Muster</h6>
            <h7 class="team-card-text">Joined 5</h7>
        </div>
    </div>
    <div class="team-card">
        <img class="team-img" src="https://example.org/c.png" alt="Card image">
        <div class="team-card-body">
            <h6 class="team-card-text">Ada Byron</h6>
            <h7 class="team-card-text">Founder</h7>
            <h7 class="team-card-text"><a href="https://github.com/abyron">@abyron</a></h7>
        </div>
    </div>
    </div>
"""


def people(body: str, url: str, *, verbatim: bool = True) -> list[tuple[object, ...]]:
    snapshot = Snapshot(url=url, body=body.encode())
    assert extractors.choose(url, snapshot) is governance
    found = governance.extract(snapshot)
    assert all(c.evidence.quote in body for c in found) or not verbatim  # verbatim quotes
    return sorted({(c.subject.name, c.subject.github, c.qualifiers.get("section")) for c in found})


def test_a_php_data_file_is_read_as_its_tree() -> None:
    url = "https://example.org/site/team.php"
    assert _document.format_of(Snapshot(url=url, body=PHP_FILE.encode())) == "php"
    data = phpdata.load_php(PHP_FILE)
    assert data["Core Team"]["contributors"][1]["name"] == "Max Muster"
    assigned = "<?php $team = array(1, 'a' => -2, 3.5, true, null); return $team;"
    assert phpdata.load_php(assigned) == {
        "0": 1, "a": -2, "1": 3.5, "2": True, "3": None,
    }  # fmt: skip
    assert people(PHP_FILE, url) == [  # a card's `links` are its own, not a team's members
        ("Jane Roe", "jroe", "Core Team"),
        ("Max Muster", "mmuster", "Core Team"),
    ]


@pytest.mark.parametrize(
    "body",
    [
        "<?php return [CONSTANT => 'x'];",  # an expression
        "<?php return ['a' => 'x' . 'y'];",  # concatenation
        '<?php return ["$name"];',  # interpolation
        "<?php return ['a' => 'x']; echo 'more';",  # code after the array
        "<?php return ['a' => ['b'];",  # unbalanced
        "<html><?php return ['a']; ?></html>",  # a template
        "<?php return 'x';",  # no array
    ],
)
def test_php_that_is_not_data_fails_closed(body: str) -> None:
    with pytest.raises(phpdata.Malformed):
        phpdata.load_php(body)
    assert (
        _document.format_of(Snapshot(url="https://example.org/x.php", body=body.encode())) != "php"
    )


def test_a_php_array_is_read_in_linear_time_nested_or_long() -> None:
    def flat(size: int) -> Callable[[], object]:
        body = "<?php return [" + "'name' => 'Jane Roe', " * size + "];"
        return lambda: phpdata.load_php(body)

    def unclosed(size: int) -> Callable[[], object]:
        body = "<?php return [/* " + "[ 'x' " * size

        def read() -> object:
            with pytest.raises(phpdata.Malformed):
                phpdata.load_php(body)
            return None

        return read

    assert_linear(flat, 5_000)
    assert_linear(unclosed, 5_000)
    with pytest.raises(phpdata.Malformed, match="nested too deeply"):
        phpdata.load_php("<?php return " + "[" * 100 + "]" * 100 + ";")


def test_a_page_that_is_all_front_matter_reads_its_markdown_values() -> None:
    url = "https://example.org/content/who-we-are.md"
    document = _document.parse(Snapshot(url=url, body=FRONT_MATTER_PAGE.encode()))
    lines = FRONT_MATTER_PAGE.splitlines()
    heading = next(b for b in document.blocks if getattr(b, "text", "") == "The Board")
    assert heading.line is not None and lines[heading.line - 1].strip() == "### The Board"
    assert people(FRONT_MATTER_PAGE, url) == [  # a one-column table per person: a card
        ("Jane Roe", None, "Members of the Board of Directors"),
        ("Max Muster", None, "Members of the Board of Directors"),
    ]


def test_html_cards_of_made_up_heading_tags_in_a_rest_raw_block() -> None:
    url = "https://example.org/doc/team.rst"
    found = people(RST_CARDS, url, verbatim=False)  # HTML is quoted as rendered
    assert found == [  # the card without a link stays in the run of linked cards
        ("Ada Byron", "abyron", "Distinguished Contributors"),
        ("Jane Roe", "jroe", "Distinguished Contributors"),
        ("Max Muster", None, "Distinguished Contributors"),
    ]
    snapshot = Snapshot(url=url, body=RST_CARDS.encode())
    orgs = [c.object for c in governance.extract(snapshot) if c.predicate == "affiliation"]
    assert orgs == []  # "Joined 4" is a tenure, not an employer
