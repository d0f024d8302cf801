"""The nesting bound's fast loop (`ingest.html_nesting._bounded_nesting`, the common tokens
handled inline) gives what the model alone gives (`tests/html_nesting_reference.py`, the module
before the rewrite), byte for byte: on every text file of the fixtures and the corpus, on the
hostile documents of tests/test_hostile_parse.py and on seeded mutations of them that cross
every bound (depth, active formatting elements, re-opened ones)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest import html_nesting

from . import html_nesting_reference as reference

ROOT = Path(__file__).resolve().parent.parent
TREES = (ROOT / "fixtures", ROOT.parent / "shared" / "corpus")
PIECES = re.compile(r"<!--.*?-->|<[^<>]*>?|[^<]+", re.DOTALL)
# tags to splice in: every kind of tag the model tells apart (table parts, markers, formatting
# with and without attributes, headings, foreign roots, self-closing, raw text, comments)
OPENED = "div p li ul ol dd dt table td th tr tbody caption template a b i em code nobr font"
CLOSED = "div p li ul ol dd dt table td th tr span b a i h2 body html"
SPLICED = [
    *(f"<{n}>" for n in OPENED.split(" ")),
    *(f"</{n}>" for n in CLOSED.split(" ")),
    *(f"<{n}>" for n in ("span", "h2", "h3", "button", "option", "optgroup", "form")),
    '<a href="https://github.com/x">', "<b id=1>", "<b id=2>", '<font color="red">',
    "<svg>", "</svg>", "<math>", "<svg/>", "<br/>", "<img src=x>", "<hr>", "<select>",
    "<object>", "</object>", "<marquee>", "<applet>", "<script>", "</script>", "<style>",
    "<textarea>", "<plaintext>", "<!-- c -->", "<!--->", "<!doctype html>", "<?php ?>",
    "<DIV>", "</DIV>", "<B>", "x", " y ", "<a", "</", "<x-card>", "</x-card>",
    # closed items and leaves (read as one run where the model is left as it was; else not)
    '<li><p>Jane Roe (<a href="https://github.com/jroe">jroe</a>)</p></li>', "<b>x</b>",
    "<p>a <b class=x>b</b> c</p>", "<LI>y</Li >", "<span/>z</span>", "<a href=x/>q</a>",
    "<li>a <i>b</i></li>\n<li>c</li>", "<p></p>", "<abbr>x</abbr>", "<li><p>x</li></p>",
    '<li title="</p></p>">x</li>', "<b data-x=</b>y</b>", "<ul><li>a</li></ul>",
    "<ol>\n<li><p>x <b>y</b></p></li>\n</ol>", "<h2>x</h3>", "<h4>",
    '<h3>T<a class="headerlink" href="#t">#</a></h3>', "<ul><li>a</li><li>b</ul>",
]  # fmt: skip


def documents() -> list[tuple[str, str]]:
    found = []
    for tree in TREES:
        for path in sorted(tree.rglob("*")) if tree.is_dir() else []:
            if not path.is_file() or path.suffix == ".pdf" or path.stat().st_size > 3 << 20:
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
            if "<" in text:
                found.append((str(path.relative_to(tree.parent)), text))
    return found


def hostile() -> list[str]:
    return [
        "<html><body>" + "<div>x" * 1_000 + "</div>" * 1_000,
        "<body><p>" + "".join(f"<b id={i}>" for i in range(300)) + "<p>x" * 300,
        "<ul><li>Name (handle)" * 600,
        "<div><table><td></div>" * 600,
        "<div></span>" * 1_200,
        ("<p><b>a" + "".join(f"<b{i}>" for i in range(80)) + "<div>x</div>y") * 40,
        "<body>" + "<p>para <b>bold <i>it" * 300 + "<ul><li>a<li>b</ul>" * 300,
        "<a>x<div>y" * 700,
        "<table>" * 300 + "<td><b>" * 300 + "x",
        "<svg>" + "<g/>" * 100 + "<div>" * 600,
        "<li><p>" + "<b>x</b>" * 3_000 + "<div>" * 600,  # a run that fails at its end
        "<ul>" + "<li><b>a</b></li>" * 1_000 + "<li>" * 600 + "<li>x</li>" * 300,
        "<p><b>" + "<li>x</li><p>y</p>" * 1_000,
        "<h2>" + "<h3>a</h3><ul><li>b</li></ul>" * 700,
        "<ul>" * 400 + "<ol><li><p>x</p></li></ol>" * 300,
        # "</" in attributes: no end tags (they would count start tags the budget grows with)
        '<span title="</a></a></a>">x</span>' * 1_500
        + "<body><p>"
        + "".join(f"<b id={i}>" for i in range(95))
        + "<p>x" * 200,
    ]


def mutated(text: str, rng: random.Random, big: bool) -> str:
    pieces = PIECES.findall(text[: rng.randrange(2_000, 40_000)])
    for _ in range(rng.randrange(1, 12)):
        if not pieces:
            break
        kind = rng.random()
        at = rng.randrange(len(pieces))
        if kind < 0.3:  # a run repeated: deep nesting, many formatting elements
            run = pieces[at : at + rng.randrange(1, 8)]
            if big:  # more of it left open
                run = [p for p in run if not p.startswith("</")] or [rng.choice(SPLICED)]
            pieces[at:at] = run * rng.randrange(2, 1_200 if big else 40)
        elif kind < 0.5:  # end tags dropped
            pieces = [p for p in pieces if not (p.startswith("</") and rng.random() < 0.5)]
        elif kind < 0.8:  # a tag spliced in, some of them many times
            pieces[at:at] = [rng.choice(SPLICED)] * rng.choice((1, 1, 3, 120 if big else 5))
        elif kind < 0.9:
            del pieces[at : at + rng.randrange(1, 30)]
        else:  # tag names in capitals
            pieces[at] = pieces[at].upper()
    return "".join(pieces)


def cases() -> Iterator[tuple[str, str]]:
    docs = documents()
    for i, text in enumerate(hostile()):
        yield f"hostile {i}", text
    rng = random.Random(20261202)
    sources = [text for _, text in docs] + hostile()
    for i in range(1_000):
        yield f"mutation {i}", mutated(rng.choice(sources), rng, big=i % 3 == 0)


def test_the_fast_loop_gives_what_the_model_gives_on_every_file() -> None:
    docs = documents()
    assert len(docs) >= 200
    for name, text in docs:
        assert html_nesting._bounded_nesting.__wrapped__(text) == (
            reference._bounded_nesting.__wrapped__(text)
        ), name


@pytest.mark.parametrize("part", range(4))
def test_the_fast_loop_gives_what_the_model_gives_on_hostile_and_mutated_documents(
    part: int,
) -> None:
    bounded = 0
    for i, (name, text) in enumerate(cases()):
        if i % 4 != part:
            continue
        ours = html_nesting._bounded_nesting.__wrapped__(text)
        assert ours == reference._bounded_nesting.__wrapped__(text), name
        bounded += ours != text
    assert bounded >= 15  # the bound wrote end tags in many of them: its paths are compared too


def test_a_run_holds_only_elements_whose_start_tag_only_opens_them() -> None:
    """What the run pattern assumes of its leaves (no set but the formatting elements') and
    of <p> and <li> (special, implying ends that the loop checks for before a run)."""
    for name in html_nesting._LEAF_NAMES:
        flags = html_nesting._FLAGS.get(name, html_nesting._INLINE)
        assert flags & ~(html_nesting._FORMAT | html_nesting._REOPENS | html_nesting._IMPLIES) == 0
        assert not flags & html_nesting._IMPLIES or name in ("a", "nobr"), name
        assert name not in html_nesting.RAW_TEXT_ELEMENTS | set(html_nesting.FOREIGN_ROOTS)
    run = html_nesting._run_or_token().match("<li><p>Jane (<a href=x>j</a>)</p></li>\n<b>x</b>")
    assert run is not None and run.lastindex == 1 and run.end() == 47  # the whole
    token = html_nesting._run_or_token().match("<li><p>x</li>")
    assert token is not None and token.lastindex != 1 and token.end() == 4  # one token


def test_a_run_holds_containers_of_items_one_level_deep() -> None:
    """A <section> or <div> of headings, lists and paragraphs is part of a run (the sections of
    a documentation page): special elements whose start tag only closes an open <p>, which
    the loop checks for before a run (`_BLOCK_IN_RUN` names them)."""
    for name in html_nesting._RUN_CONTAINERS:
        flags = html_nesting._FLAGS[name]
        assert flags & html_nesting._SPECIAL and name in html_nesting._CLOSE_P_ONLY, name
        assert not flags & (html_nesting._SCOPE | html_nesting._MARKER | html_nesting._FORMAT)
        assert html_nesting._BLOCK_IN_RUN.match(f"<{name}>"), name
    pattern = html_nesting._run_or_token()
    section = '<section id="s"><h3>T</h3>\n<ul>\n<li><p>J (<a href="x">j</a>)</p></li>\n</ul>\n'
    text = f"{section}</section>\n<div class=x><p>y</p></div>"
    run = pattern.match(text)
    assert run is not None and run.lastindex == 1 and run.end() == len(text)  # the whole
    for text in ("<div><div>x</div></div>", "<section><li>x</section>", "<div>x</section>"):
        token = pattern.match(text)  # a container of a container, unclosed item, mismatched
        assert token is not None and token.lastindex != 1, text
        assert token.group(0) == text[: text.index(">") + 1], text  # its start tag alone


def test_the_leaf_alternation_names_the_leaves_and_nothing_else() -> None:
    """`_alternation` factors the names by their letters: it must match each whole name, and no
    prefix or extension of one ("ab", "abbrx", "str")."""
    whole = re.compile(rf"(?:{html_nesting._alternation(html_nesting._LEAF_NAMES)})\Z")
    names = set(html_nesting._LEAF_NAMES)
    near = {n[:k] for n in names for k in range(len(n) + 1)} | {n + c for n in names for c in "ax"}
    assert {w for w in near | names if whole.match(w)} == names


def test_a_run_mixing_leaves_and_text_is_read_without_a_regex_error() -> None:
    """Python 3.11 raises SystemError for a possessive repeat over groups and alternatives
    (gh-101955): the run's repeats are atomic groups; a run of that shape is one match."""
    for text in (  # each raised it with `*+` for the run's repeat (a real blog page's shape)
        "<b>A:</b><p>x</p> <p>y</p> <b>B:</b><p>z</p>",
        "<p>x</p><b>B:</b><p>z</p>",
        "<b>A</b> <b>B</b> <p>x</p>",
    ):
        run = html_nesting._run_or_token().match(text)
        assert run is not None and run.lastindex == 1 and run.end() == len(text), text


def test_the_quiet_item_matches_only_what_the_general_item_matches() -> None:
    """The run's quick pattern for the commonest list item is tried first: wherever it matches,
    the general item pattern must match the same text (so runs end where they did)."""
    quiet = re.compile(html_nesting._quiet_item(""))
    leaf = html_nesting._leaf
    general = re.compile(
        html_nesting._block("li", f"{leaf('g0')}|{html_nesting._block('p', leaf('g1'))}", "")
    )
    pieces = [
        *("<p>", "</p>", "</li>", "</a>", "Jane ", "(", ")", "\n", '"', "'", "=", "/", " "),
        *('<a href="x">', '<a class="r e" href="https://github.com/u">', "<a href='x'>"),
        *("<a href=x>", '<a href="x"/>', "<a/>", '<a href = "x">', '<a href="x" >', "<a x=y/>"),
        *('<a href="x"', '<a href="a<b">', '<a title="</a>">', "<a\thref=x>", '<a hr"ef="x">'),
        *("<b>", "</b>", "<p >", "</p >", "</a >", "<li>", "<span>", "</span>", "<a =x>", "<A>"),
    ]
    rng = random.Random(20261203)
    matched = 0
    for _ in range(20_000):
        text = "li>" + "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        text += rng.choice(("</li>", "</li>x", ""))
        found = quiet.match(text)
        if found is not None:
            matched += 1
            other = general.match(text)
            assert other is not None and other.end() == found.end(), text
    assert matched > 500
