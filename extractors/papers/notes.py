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

from extractors.papers.patterns import clean
from extractors.papers.text import Cell, Line
from extractors.papers.values import Affiliation, Author
from ingest.names import fold

# "<who> is/are with (the) <affiliation>." ("is now with" says where they went since: not
# an affiliation.) The affiliation ends at a full stop followed by
# a space and a capital (the next sentence, "E-mail: ..."), or at the end of the text.
ARE_WITH_RE = re.compile(
    r"(?P<who>(?:The|Both|All)\s+(?:\w+\s+)?authors|"
    r"(?:[A-Z][\w.'’-]*,?\s+(?:and\s+)?){0,12}[A-Z][\w.'’-]*)\s+(?:is|are)\s+with\s+"
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
    """The authors whose surname appears among the sentence subject's words; where the subject
    gives that surname initials ("S. Ma, L. Ma and H. Wang"), only the authors whose first name
    starts with one of them."""
    words = {fold(w) for w in re.findall(r"[^\W\d_][\w'’-]*", who)}
    out: list[Author] = []
    for author in authors:
        parts = author.name.split()
        if not parts or fold(parts[-1]) not in words:
            continue
        pattern = r"\b([A-Z])\.(?:\s*-?[A-Z]\.)*\s*" + re.escape(parts[-1]) + r"\b"
        initials = {fold(i) for i in re.findall(pattern, who)}
        if initials and fold(parts[0][:1]) not in initials:
            continue
        out.append(author)
    return out


# --- "Unit (A Author PhD, Prof B Author MD), Unit (...), Parent, City, Country; ..." ----------

# Titles and degrees around a name in a parenthesis: "Prof A C Hayward MD", "E J Tweed MFPH".
TITLE_WORDS = {"prof", "dr", "professor", "mr", "mrs", "ms", "sir"}
DEGREE_RE = re.compile(r"^(?:[A-Z]{2,}[a-z]*[A-Z]*|Ph\.?D|M\.?D|D[A-Z][a-z]+[A-Z]*|M[A-Z]\w*)$")
PEOPLE_RE = re.compile(r"\b[A-Z][a-z]+\b")  # a parenthesis that names someone
LABEL_RE = re.compile(r"^(?:author\s+)?affiliations?\s*:\s*", re.I)
MIN_COLUMN_CELLS = 5  # cells stacked at one left edge: a margin column
PARAGRAPH_GAP = 1.3  # times the column's usual line spacing: a paragraph break
# What joins one unit to the last: ", and the Institute ...", "andMedical Research Council"
_LEAD_RE = re.compile(r"^(?:[,;\s]|and(?:\s+the\b)?(?=\s|[A-Z]))+")


def attach_parenthesised(authors: list[Author], lines: list[Line]) -> None:
    """Affiliations from a paragraph that names each unit's people in parentheses after it (The
    Lancet's margin): units before one ";" that share a trailing parent ("University College
    London, London, UK") each get it; people are matched by surname and first initial."""
    if not authors or any(a.affiliations for a in authors):
        return
    units = []
    for column in _columns(lines):  # the column that names people in two units or more
        found = [unit for paragraph in column for unit in _units(paragraph)]
        if sum(1 for _, people in found if any(_person(p, authors) for p in people)) >= 2:
            units += found
    page = lines[0].page if lines else 1
    for text, people in units:
        aff = Affiliation(text=text, quote=text, page=page)
        for person in people:
            author = _person(person, authors)
            if author is not None and all(a.text != text for a in author.affiliations):
                author.affiliations.append(aff)


def _columns(lines: list[Line]) -> list[list[str]]:
    """For each left edge many cells share (a column), its paragraphs' texts, top to bottom."""
    columns: dict[int, list[Cell]] = {}
    for line in lines:
        for cell in line.cells:
            columns.setdefault(round(cell.x0), []).append(cell)
    found: list[list[str]] = []
    for cells in columns.values():
        if len(cells) < MIN_COLUMN_CELLS or "(" not in "".join(c.text for c in cells):
            continue
        out: list[str] = []
        found.append(out)
        cells.sort(key=lambda c: -c.y)
        gaps = sorted(a.y - b.y for a, b in zip(cells, cells[1:], strict=False))
        leading = gaps[len(gaps) // 2] if gaps else 0.0
        paragraph = [cells[0].text]
        for above, cell in zip(cells, cells[1:], strict=False):
            if above.y - cell.y > PARAGRAPH_GAP * leading:
                out.append(_HYPHEN_BREAK_RE.sub(r"\1\2", "\n".join(paragraph)))
                paragraph = []
            paragraph.append(cell.text)
        out.append(_HYPHEN_BREAK_RE.sub(r"\1\2", "\n".join(paragraph)))
        out[:] = [re.sub(r"\s+", " ", p.replace("/\n", "/")) for p in out]
    return found


def _units(text: str) -> list[tuple[str, list[str]]]:
    """(unit with its shared parent, people in its parenthesis) for each unit of the text."""
    out: list[tuple[str, list[str]]] = []
    for segment in _top_level_split(text):
        # a parenthesis of people: "(17)" in a DOI is not one
        found = [m for m in re.finditer(r"\(([^()]*)\)", segment) if PEOPLE_RE.search(m.group(1))]
        if not found:
            continue
        after = segment[found[-1].end() :]
        # the units' shared parent follows a comma; after a full stop the paragraph has ended
        parent = "" if after.lstrip().startswith(".") else _LEAD_RE.sub("", after).strip(" ,.;")
        start = 0
        for m in found:
            unit = _LEAD_RE.sub("", segment[start : m.start()]).strip(" ,.;")
            unit = LABEL_RE.sub("", unit)  # "Author Affiliations: Department of ..."
            start = m.end()
            if not unit:
                continue
            full = clean(f"{unit}, {parent}" if parent else unit)
            out.append((full, [p.strip() for p in m.group(1).split(",") if p.strip()]))
    return out


def _top_level_split(text: str) -> list[str]:
    """`text` split at the semicolons outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ";" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


def _person(text: str, authors: list[Author]) -> Author | None:
    """The author a parenthesised name stands for ("Prof A C Hayward MD" -> Andrew C Hayward)."""
    words = [w.strip(".") for w in text.split()]
    words = [w for w in words if w and fold(w) not in TITLE_WORDS and not DEGREE_RE.match(w)]
    if not words:
        return None
    surname, initial = fold(words[-1]), fold(words[0])[:1]
    for author in authors:
        parts = author.name.split()
        # "(Smith, Jones)": surnames alone; "(J A Smith)": and the first initial
        if (
            parts
            and fold(parts[-1]) == surname
            and (len(words) == 1 or fold(parts[0])[:1] == initial)
        ):
            return author
    return None
