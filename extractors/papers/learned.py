"""The learned header reader: page-1 lines labelled by `extractors.papers.linemodel`, then names
read from the author lines and affiliations from the affiliation lines, linked by markers, else
by the layout.

    read_header(lines, labelled, known=None) -> list[Author]
    affiliation_score(aff_text, lines, labelled) -> float     raw score for `confidence`

`pdf.parse_paper` calls `read_header` when the template rules find no author block, so a page
with names is never read as nothing; with `known` (arXiv metadata) the names are looked for in
the page's text, the model's author lines first. Linking, in order: markers on the names keyed
by affiliations' leading markers; one affiliation for everyone; as many side-by-side cells of
affiliations as of names (column by column); else none (the authors stand without).
"""

from __future__ import annotations

import re

from extractors.papers.names import read_names
from extractors.papers.patterns import (
    NAME_SEPARATOR_RE,
    clean,
    fix_accents,
    is_name_like,
    marker_keys,
)
from extractors.papers.text import Cell, Line, join_segments
from extractors.papers.values import Affiliation, Author
from ingest.names import fold, same_person_name

Labelled = list[tuple[str, dict[str, float]]]
LEAD_RE = re.compile(r"^\s*(\d{1,2}|[*∗†‡§¶⋄◇♠♣♦♥#$+])\s*(?=\S)")
MAX_HEADER_LINES = 60  # lines of page 1 read for names (the header, not the references)
MIN_LINE_CHARS = 6  # a line shorter than this does not vouch for an affiliation
RUN_ON_AUTHOR = 0.25  # P(author) that makes the line after an author line one too
PAIRED_WORDS = 4  # capitalised words without separators, at least: names of two words each


def _pairs(text: str) -> list[str]:
    """ "Lingxiao Ma Lei Wang Wenhui Wang": an even run of capitalised words, two by two."""
    words = text.split()
    if len(words) < PAIRED_WORDS or len(words) % 2 or not all(w[:1].isupper() for w in words):
        return [text]
    return [" ".join(words[i : i + 2]) for i in range(0, len(words), 2)]


def _names_in(cell: Cell, known: list[str]) -> list[Author]:
    found = read_names(cell.segments, known)
    if found and all(len(a.name.split()) < PAIRED_WORDS for a in found):
        return found
    out: list[Author] = []
    for raw in NAME_SEPARATOR_RE.split(cell.plain):
        for part in _pairs(clean(raw)):
            name = fix_accents(part)
            if is_name_like(name) or (known and any(same_person_name(name, k) for k in known)):
                out.append(Author(name=name, quote=part.strip(" ,;"), x0=cell.x0, x1=cell.x1))
    return out


def smooth(labelled: Labelled) -> Labelled:
    """A line after an author line that the model finds author-like enough is one too (a
    byline wrapped onto its next line)."""
    out = list(labelled)
    for i in range(1, len(out)):
        label, probs = out[i]
        if out[i - 1][0] == "author" and label == "other" and probs["author"] >= RUN_ON_AUTHOR:
            out[i] = ("author", probs)
    return out


def _known_names(lines: list[Line], known: list[str]) -> list[Author]:
    """Metadata names found in the page's lines, in metadata order."""
    out: list[Author] = []
    for name in known:
        for line in lines:
            text = line.text
            if f" {fold(name)} " in f" {fold(text)} " or (
                len(name) > 8 and fold(name).replace(" ", "") in fold(text).replace(" ", "")
            ):  # or printed without its spaces ("VarunGulshan,PhD;")
                cell = next((c for c in line.cells if fold(name) in fold(c.text)), line.cells[0])
                out.append(Author(name=name, quote=name, x0=cell.x0, x1=cell.x1, page=line.page))
                break
    return out


def _leading_key(cell: Cell) -> tuple[list[str], str]:
    """(marker keys the cell starts with, its text after them)."""
    segs = cell.segments
    keys: list[str] = []
    i = 0
    while i < len(segs) and segs[i].sup:
        keys += marker_keys(segs[i].text)
        i += 1
    rest = join_segments(segs[i:])
    if not keys:
        m = LEAD_RE.match(rest)
        if m:
            keys, rest = marker_keys(m.group(1)), rest[m.end() :]
    return keys, rest


def _affiliations(lines: list[Line], labelled: Labelled) -> list[tuple[list[str], Affiliation]]:
    """Blocks of adjacent affiliation lines (a leading marker starts a new one), cell by cell."""
    out: list[tuple[list[str], Affiliation]] = []
    open_blocks: dict[int, tuple[list[str], Affiliation]] = {}  # column -> the open block
    previous = -2
    for i, (line, (label, _)) in enumerate(zip(lines, labelled, strict=True)):
        if label != "affiliation":
            continue
        if i != previous + 1:
            open_blocks = {}
        previous = i
        for col, cell in enumerate(line.cells):
            keys, rest = _leading_key(cell)
            text = clean(rest).strip(" ,;")
            if not text:
                continue
            current = open_blocks.get(col)
            if current is None or keys:
                aff = Affiliation(text=text, quote=cell.text.strip(), page=line.page)
                aff.index = len(out) + 1
                current = (keys, aff)
                out.append(current)
                open_blocks[col] = current
            else:
                current[1].text = f"{current[1].text}, {text}"
                current[1].quote = f"{current[1].quote}\n{cell.text.strip()}"
    return out


def read_header(
    lines: list[Line], labelled: Labelled, known: list[str] | None = None
) -> list[Author]:
    """Authors (with markers, affiliations) of page 1's header as the line model labels it."""
    lines, labelled = lines[:MAX_HEADER_LINES], smooth(labelled[:MAX_HEADER_LINES])
    authors: list[Author] = []
    if known:
        authors = _known_names(lines, known)
    else:
        seen: set[str] = set()
        for line, (label, _) in zip(lines, labelled, strict=True):
            if label != "author":
                continue
            for cell in line.cells:
                for author in _names_in(cell, []):
                    if fold(author.name) not in seen:
                        seen.add(fold(author.name))
                        author.page = line.page
                        authors.append(author)
    if not authors:
        return []
    affs = _affiliations(lines, labelled)
    keyed = {k: aff for keys, aff in affs for k in keys}
    if keyed and any(a.markers for a in authors):
        for author in authors:
            author.affiliations = [keyed[k] for k in author.markers if k in keyed]
    elif len(affs) == 1:
        for author in authors:
            author.affiliations = [affs[0][1]]
    elif affs and len(affs) == len(authors) and not keyed:
        for author, (_, aff) in zip(authors, affs, strict=True):
            author.affiliations = [aff]
    return authors


def affiliation_score(text: str, lines: list[Line], labelled: Labelled) -> float:
    """The model's mean P(affiliation) over the lines an affiliation text was read from (0.3
    when none of page 1's lines is part of it: a later page's list)."""
    target = f" {fold(text)} "
    scores = []
    for line, (_, probs) in zip(lines, labelled, strict=True):
        plain = fold(" ".join(c.plain for c in line.cells))
        if len(plain) >= MIN_LINE_CHARS and (f" {plain} " in target or target in f" {plain} "):
            scores.append(probs.get("affiliation", 0.0) + probs.get("author", 0.0) * 0.5)
    return min(sum(scores) / len(scores), 1.0) if scores else 0.3
