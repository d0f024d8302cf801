"""Affiliations printed as sentences, away from the author block: IEEE's first-page footnote.

    "The authors are with the Department of Computer Science and Engineering, Hong Kong
     University of Science and Technology, Clearwater Bay, Kowloon, Hong Kong."
    "S. J. Pan and Q. Yang are with ... . A. Author is with ... ."

`attach_are_with(authors, lines)` finds such sentences in the page's lines and gives each
author without an affiliation the one their sentence names: "The authors" (or "Both authors")
names everyone; otherwise the authors whose surname the sentence's subject mentions. Pure.
"""

from __future__ import annotations

import re
from collections import Counter

from extractors._pdf_patterns import clean
from extractors._pdf_text import Cell, Line
from extractors._pdf_values import Affiliation, Author
from ingest.names import fold

# "<who> is/are (now) with (the) <affiliation>." The affiliation ends at a full stop followed by
# a space and a capital (the next sentence, "E-mail: ..."), or at the end of the text.
ARE_WITH_RE = re.compile(
    r"(?P<who>(?:The|Both|All)\s+(?:\w+\s+)?authors|"
    r"(?:[A-Z][\w.'’-]*,?\s+(?:and\s+)?){0,12}[A-Z][\w.'’-]*)\s+(?:is|are)\s+(?:now\s+)?with\s+"
    r"(?:the\s+)?(?P<aff>.+?)\.(?=\s+[A-Z(]|\s*$)",
    re.S,
)
EVERYONE_RE = re.compile(r"^(?:the|both|all)\s+(?:\w+\s+)?authors?\b", re.I)
MAX_AFFILIATION_CHARS = 300
MIN_COLUMN_LINES = 5  # lines starting at one x right of the middle: a second column
_HYPHEN_BREAK_RE = re.compile(r"(\w)-\n(\w)")


def _text(lines: list[Line]) -> str:
    """The lines' text, the left column's first, then the right's (a two-column page's footnote
    is not interleaved with the other column's body text)."""
    cells = [c for line in lines for c in line.cells]
    if not cells:
        return ""
    middle = _second_column(cells)
    left: list[str] = []
    right: list[str] = []
    for line in lines:
        parts = [c for c in line.cells if c.x0 < middle], [c for c in line.cells if c.x0 >= middle]
        for side, out in zip(parts, (left, right), strict=True):
            if side:
                out.append(" ".join(c.text for c in side))
    joined = "\n".join(left + right)
    joined = _HYPHEN_BREAK_RE.sub(r"\1\2", joined)
    return re.sub(r"\s+", " ", joined)


def _second_column(cells: list[Cell]) -> float:
    """The left edge of a second text column (where many lines start, right of the middle of
    the text); past the right edge when the page has one column."""
    left, right = min(c.x0 for c in cells), max(c.x1 for c in cells)
    starts = Counter(round(c.x0) for c in cells if c.x0 > left + 0.3 * (right - left))
    if not starts:
        return right + 1
    x, count = starts.most_common(1)[0]
    return x - 1 if count >= MIN_COLUMN_LINES else right + 1


def attach_are_with(authors: list[Author], lines: list[Line]) -> None:
    """Affiliations from "... are with ..." sentences, for the authors that have none."""
    if not authors or all(a.affiliations for a in authors):
        return
    text = _text(lines)
    if " with " not in text:
        return
    for m in ARE_WITH_RE.finditer(text):
        who = m.group("who").strip()
        aff_text = clean(m.group("aff"))
        if not aff_text or len(aff_text) > MAX_AFFILIATION_CHARS:
            continue
        owners = authors if EVERYONE_RE.match(who) else _named(authors, who)
        if not owners:
            continue
        page = lines[0].page if lines else 1
        aff = Affiliation(text=aff_text, quote=m.group("aff").strip(), page=page)
        for author in owners:
            if not author.affiliations:
                author.affiliations.append(aff)


def _named(authors: list[Author], who: str) -> list[Author]:
    """The authors whose surname appears among the sentence subject's words."""
    words = {fold(w) for w in re.findall(r"[^\W\d_][\w'’-]*", who)}
    return [a for a in authors if a.name.split() and fold(a.name.split()[-1]) in words]
