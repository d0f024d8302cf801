"""Cell-level helpers of the author block reader (`extractors.papers.author_block`): society grades
dropped from names, full-size segments merged, a line shared by a grid of names, wrapped lines
joined, a finished postal address told. Pure functions over cells and strings.
"""

from __future__ import annotations

from extractors.papers.patterns import (
    CONNECTOR_END_RE,
    COUNTRIES,
    GRADE_RE,
    LONE_SOCIETY_RE,
    NOT_NAME_WORDS,
    clean,
)
from extractors.papers.text import Cell, Segment
from ingest.names import fold

# A single affiliation line whose centre lies this close (fraction of the names' span) to the
# centre of a grid of names belongs to all of them ("Microsoft Research" under four names).
SHARED_CENTRE_TOLERANCE = 0.1
SHARED_OVERLAP = 0.25  # ... or lies under at least this much of two names' columns


def drop_grades(cell: Cell) -> None:
    """Society grades after names ("Qiang Yang, Fellow, IEEE") removed from the cell's text."""
    if not GRADE_RE.search(cell.text):
        return
    for seg in cell.segments:
        seg.text = GRADE_RE.sub("", seg.text)
        if LONE_SOCIETY_RE.fullmatch(seg.text):
            seg.text = ""
    cell.segments = [s for s in cell.segments if s.text] or cell.segments


def merged_plain(segments: list[Segment]) -> list[Segment]:
    """Neighbouring full-size segments as one (a bold "1" and its affiliation), so that a
    number printed before an affiliation is seen with the text it introduces."""
    out: list[Segment] = []
    for seg in segments:
        if out and not seg.sup and not out[-1].sup and not seg.column_start:
            last = out[-1]
            out[-1] = Segment(last.text + seg.text, False, last.x, last.size, last.font)
        else:
            out.append(seg)
    return out


def shared_by_grid(cell: Cell, columns: list[tuple[float, float]]) -> bool:
    """The cell sits centred under the columns' span, or straddles two or more of them."""
    left, right = columns[0][0], max(c[1] for c in columns)
    if abs(cell.center - (left + right) / 2) <= SHARED_CENTRE_TOLERANCE * (right - left):
        return True
    under = [
        c
        for c in columns
        if min(c[1], cell.x1) - max(c[0], cell.x0) >= SHARED_OVERLAP * (c[1] - c[0])
    ]
    return len(under) >= 2


def is_name_fragment(text: str) -> bool:
    return (
        len(text.split()) == 1
        and text[:1].isupper()
        and all(ch.isalpha() or ch in "-'’" for ch in text)
        and fold(text) not in NOT_NAME_WORDS
    )


def ends_with_country(text: str) -> bool:
    last = text.rsplit(",", 1)[-1]
    return fold(last).strip(" .") in COUNTRIES


def join_wrapped(first: str, second: str) -> str:
    """A wrapped affiliation's lines: a phrase that runs on (a line ending in a connector or
    punctuation, or a next line starting in lower case) joins with a space, else ", "."""
    if first.endswith("-") and second[:1].islower():
        return clean(first[:-1] + second)
    if first.endswith((",", ";")) or CONNECTOR_END_RE.search(first) or second[:1].islower():
        return clean(f"{first} {second}")
    return clean(f"{first}, {second}")
