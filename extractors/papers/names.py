"""Names in the author block: a line's tokens (text and markers), its names with their markers,
"NAME, Affiliation" bylines and "Name, Affiliation; Name and Name, Affiliation" groups.

Names are told by their shape (`_pdf_patterns.is_name_like`: capitalised words, particles,
initials, no institution words) or by the arXiv metadata's known names. Markers come raised
(superscript segments), inline (symbols), or as numbers glued to the name ("Fries1,2,*"). Pure:
segments in, values out.
"""

from __future__ import annotations

import re

from extractors.papers.cells import is_name_fragment
from extractors.papers.patterns import (
    GLUED_NUMBER_RE,
    INLINE_MARKER_RE,
    NAME_NUMBER_RE,
    NAME_SEPARATOR_RE,
    SPACED_NUMBER_RE,
    clean,
    is_institution,
    is_name_like,
    marker_keys,
    without_degrees,
)
from extractors.papers.text import WORD_GAP, Line, Segment, join_segments
from extractors.papers.values import Affiliation, Author
from ingest.names import same_person_name


def tokens_of(
    segments: list[Segment],
    *,
    glued_numbers: bool,
    name_numbers: bool = False,
    spaced_numbers: bool = False,
    named: set[str] | frozenset[str] = frozenset(),
) -> list[tuple[str, str, float]]:
    """("M", marker, x) and ("T", text, x) tokens; x where the token starts (estimated
    within a segment by its share of the characters). Numbers glued to names, glued to an
    affiliation's start, or set before it with a space (only those in `named`: numbers the names
    carry) are markers."""

    def named_number(m: re.Match[str]) -> str:
        return "\x01" + m.group(1) + "\x02" if m.group(1) in named else m.group(0)

    tokens: list[tuple[str, str, float]] = []
    for i, seg in enumerate(segments):
        if seg.sup and glued_numbers and _inside_word(segments, i):
            tokens.append(("T", seg.text, seg.x))  # "NLP²CT Lab": part of a word
            continue
        if seg.sup:
            tokens.append(("M", seg.text, seg.x))
            continue
        text = seg.text
        previous = segments[i - 1] if i > 0 else None
        if (  # two runs printed apart that pypdf gave no space between
            previous is not None
            and not previous.sup
            and text[:1].strip()
            and previous.text[-1:].strip()
            and seg.x - previous.end > WORD_GAP * max(seg.size, previous.size)
        ):
            text = " " + text
        if name_numbers:
            text = NAME_NUMBER_RE.sub(lambda m: "\x01" + m.group(1) + "\x02", text)
        if glued_numbers:
            text = GLUED_NUMBER_RE.sub(lambda m: "\x01" + m.group(1) + "\x02", text)
        if spaced_numbers:
            text = SPACED_NUMBER_RE.sub(named_number, text)
        pos = 0
        step = (seg.end - seg.x) / max(len(text), 1)
        for m in re.finditer(f"\x01([\\d,\\s]+)\x02|{INLINE_MARKER_RE.pattern}", text):
            if m.start() > pos:
                tokens.append(("T", text[pos : m.start()], seg.x + pos * step))
            tokens.append(("M", m.group(1) or m.group(0), seg.x + m.start() * step))
            pos = m.end()
        if pos < len(text):
            tokens.append(("T", text[pos:], seg.x + pos * step))
    return tokens


def _inside_word(segments: list[Segment], i: int) -> bool:
    """The raised segment `i` sits between two letters with no space: a superscript in a word."""
    before = segments[i - 1].text if i > 0 else ""
    after = segments[i + 1].text if i + 1 < len(segments) else ""
    return (
        segments[i].text.strip().isdigit()
        and len(segments[i].text.strip()) == 1
        and before[-1:].isupper()
        and after[:1].isupper()
        and not segments[i - 1].sup
        and not segments[i + 1].sup
    )


def read_names(segments: list[Segment], known: list[str]) -> list[Author] | None:
    """The names of a names cell, with their markers; None when the cell is not names."""
    items: list[Author] = []
    raw: list[str] = []
    buffer = ""

    def flush() -> bool:
        nonlocal buffer
        for raw_part in NAME_SEPARATOR_RE.split(buffer):
            part = without_degrees(clean(raw_part))
            if not part:
                continue  # a degree after a name ("Jane Doe, MD, PhD") is not a name
            # the end of a name broken across lines: "Lee" of "...Germain / Lee4"
            fragment = not items and is_name_fragment(part)
            if not fragment and not is_name(part, known):
                return False
            items.append(Author(name=part, quote=raw_part.strip(" ,;:")))
            raw.append(part)
        buffer = ""
        return True

    if join_segments(segments).rstrip().endswith(":"):
        return None  # a label ("SUBJECT AREAS:", "Editor:")
    tokens = tokens_of(segments, glued_numbers=False, name_numbers=True)
    if len(tokens) > 1 and tokens[0][0] == "M" and tokens[1][1].strip()[:1].isupper():
        return None  # "¹ South African Astronomical Observatory": a marker leads affiliations
    for kind, text, _x in tokens:
        if kind == "T":
            buffer += text
            continue
        if not flush():
            return None
        keys = marker_keys(text)
        if items and keys:
            items[-1].markers.extend(keys)
    if not flush() or not items:
        return None
    if len(items) == 1 and len(items[0].name.split()) == 1:
        return None  # a lone word is not a names line
    x0 = segments[0].x
    x1 = max(s.end for s in segments)
    for item in items:
        item.x0, item.x1 = x0, x1
    return items


def is_name(text: str, known: list[str]) -> bool:
    """A person's name: one of the known names (arXiv metadata), or name-like."""
    if known and any(same_person_name(text, k) for k in known):
        return True
    return is_name_like(text)


def name_and_affiliation(
    segments: list[Segment], known: list[str]
) -> tuple[list[Author], str, str] | None:
    """ACM's 'NAME, Affiliation, Country' line (or 'NAME and NAME, Affiliation') ->
    (authors, affiliation text, quote)."""
    text = "".join(s.text for s in segments if not s.sup)
    head, sep, rest = text.partition(",")
    heads = [p for p in NAME_SEPARATOR_RE.split(head) if clean(p)]
    if not sep or not heads or not all(is_name(clean(p), known) for p in heads):
        return None
    if not rest.strip():
        return None
    rest_parts = [clean(p) for p in NAME_SEPARATOR_RE.split(rest) if clean(p)]
    if rest_parts and all(is_name(p, known) for p in rest_parts):
        return None
    fonts_differ = len({s.font for s in segments if s.text.strip() and not s.sup}) > 1
    if not (is_institution(rest) or fonts_differ):
        return None
    x0, x1 = segments[0].x, max(s.end for s in segments)
    authors = [Author(name=clean(p), quote=p.strip(" ,"), x0=x0, x1=x1) for p in heads]
    return authors, clean(rest), rest.strip(" ,")


def semicolon_byline(block: list[Line], known: list[str] | None = None) -> list[Author]:
    """A byline of "Name, Affiliation; Name and Name, Affiliation; ..." wrapped over lines (the
    USENIX cover page): its authors, each group's names sharing its affiliation; [] when the
    block's first lines are not such a byline."""
    lines: list[Line] = []
    for line in block:
        if "," not in line.text and ";" not in line.text:
            break
        lines.append(line)
    text = " ".join(line.text for line in lines)
    groups = [g.strip() for g in text.split(";") if g.strip()]
    if len(groups) < 2:
        return []
    authors: list[Author] = []
    for group in groups:
        head, sep, rest = group.partition(",")
        names = [clean(p) for p in NAME_SEPARATOR_RE.split(head) if clean(p)]
        if not sep or not names or not all(is_name(n, known or []) for n in names):
            return []
        if not is_institution(rest):
            return []
        page = lines[0].page
        aff = Affiliation(text=clean(rest), quote=rest.strip(" ,"), page=page, index=1)
        authors += [Author(name=n, quote=n, affiliations=[aff], page=page) for n in names]
    return authors
