"""The learned header reader: page-1 lines labelled by `extractors.papers.linemodel`, then names
read from the author lines and affiliations from the affiliation lines, linked by markers, else
by the layout.

    read_header(lines, labelled, known=None) -> list[Author]
    affiliation_score(aff_text, lines, labelled) -> float     raw score for `confidence`

    support(authors, lines, labelled) -> float   how far the model backs a reading's names

`pdf.parse_paper` calls `read_header` when the template rules find no author block, or find
names the model backs weakly (`support`); a page with names is never read as nothing: when the
labelled path gives no name (or only names below a long byline it missed), `best_byline` makes
the header's line of most names an author line. Names printed without spaces ("VarunGulshan,
PhD;") are split at their capitals, degrees dropped. With `known` (arXiv metadata) the names
are looked for in the page's text, the model's author lines first. Linking, in order: markers
on the names keyed by affiliations' leading markers; one affiliation for everyone; as many
side-by-side cells of affiliations as of names (column by column); else none (the authors stand
without). `pdf` then adds affiliations from "... are with ..." footnotes.
"""

from __future__ import annotations

import re

from extractors.papers.linefeatures import ABSTRACT_RE
from extractors.papers.names import read_names
from extractors.papers.patterns import (
    NAME_SEPARATOR_RE,
    clean,
    fix_accents,
    is_name_like,
    marker_keys,
    without_degrees,
)
from extractors.papers.text import Cell, Line, join_segments
from extractors.papers.values import Affiliation, Author
from ingest.names import fold, same_person_name

Labelled = list[tuple[str, dict[str, float]]]
LEAD_RE = re.compile(r"^\s*(\d{1,2}|[*∗†‡§¶⋄◇♠♣♦♥#$+])\s*(?=\S)")
MAX_HEADER_LINES = 60  # lines of page 1 read for names (the header, not the references)
MIN_LINE_CHARS = 6  # a line shorter than this does not vouch for an affiliation
RUN_ON_AUTHOR = 0.25  # P(author) that makes the line after an author line one too
# capitalised words glued together, initials allowed: "VarunGulshan", "MartinC.Stumpe"
GLUED_NAME_RE = re.compile(r"^(?:[A-Z][a-z'’-]+|[A-Z]\.)(?:[A-Z][a-z'’-]+|[A-Z]\.)+$")
BYLINE_BY_RE = re.compile(r"^\s*by\s+(?=[A-Z])", re.I)  # a journal's "By A, B and C"
PAIRED_WORDS = 4  # capitalised words without separators, at least: names of two words each
MIN_BYLINE_NAMES = 3  # names a fallback byline above the path's author lines must print
MIN_NAMES_LINE = 0.5  # share of a fallback byline's comma/"and" parts that must be names


def _spaced(text: str) -> str:
    """A name printed without its spaces ("MartinC.Stumpe": JAMA's byline) with them put back,
    at each capital after a lower-case letter or a full stop; other texts as they are."""
    if " " in text or not GLUED_NAME_RE.match(text):
        return text
    return re.sub(r"(?<=[a-z.])(?=[A-Z])", " ", text)


def _parts(text: str) -> list[str]:
    """A line's candidate names: its comma/semicolon/"and" parts (after a leading "By")
    without degrees, de-glued, paired words split two by two."""
    out: list[str] = []
    for raw in NAME_SEPARATOR_RE.split(BYLINE_BY_RE.sub("", text)):
        part = without_degrees(_spaced(clean(raw).strip(" ,;")))
        out += [q for q in _pairs(part) if q]
    return out


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
    for text, keys in _marked_runs(cell):
        parts = _parts(text)
        for i, part in enumerate(parts):
            name = fix_accents(part)
            if is_name_like(name) or (known and any(same_person_name(name, k) for k in known)):
                quote = part.replace(" ", "") if part.replace(" ", "") in cell.plain else part
                markers = list(keys) if i == len(parts) - 1 else []
                out.append(Author(name=name, quote=quote, markers=markers, x0=cell.x0, x1=cell.x1))
    return out


def _marked_runs(cell: Cell) -> list[tuple[str, list[str]]]:
    """The cell's text cut after each run of raised markers ("Neil Houlsby ¹ Andrei Giurgiu ¹*
    ..."): (text, the markers after it); the whole text when nothing is raised."""
    runs: list[tuple[str, list[str]]] = []
    text, keys = "", []
    for seg in cell.segments:
        if seg.sup:
            keys += marker_keys(seg.text)
            continue
        if keys:
            runs.append((text, keys))
            text, keys = "", []
        text += seg.text
    if text.strip() or keys:
        runs.append((text, keys))
    return runs or [(cell.plain, [])]


def smooth(labelled: Labelled) -> Labelled:
    """A line after an author line that the model finds author-like enough is one too (a
    byline wrapped onto its next line)."""
    out = list(labelled)
    for i in range(1, len(out)):
        label, probs = out[i]
        if out[i - 1][0] == "author" and label == "other" and probs["author"] >= RUN_ON_AUTHOR:
            out[i] = ("author", probs)
    return out


def _found_names(lines: list[Line], labelled: Labelled) -> list[Author]:
    """Names of the author lines, each once, in page order."""
    out: list[Author] = []
    seen: set[str] = set()
    for line, (label, _) in zip(lines, labelled, strict=True):
        if label != "author":
            continue
        for cell in line.cells:
            for author in _names_in(cell, []):
                if fold(author.name) not in seen:
                    seen.add(fold(author.name))
                    author.page = line.page
                    out.append(author)
    return out


def _name_share(line: Line) -> float:
    """Share of a line's comma/"and" parts (paired words split two by two) that are names."""
    parts = _parts(" ".join(c.plain for c in line.cells))
    return sum(is_name_like(fix_accents(q)) for q in parts) / len(parts) if parts else 0.0


def best_byline(lines: list[Line], labelled: Labelled) -> Labelled:
    """The labelling with the header's best byline made an author line (and the lines after it
    while they are author-like enough): of the lines mostly of names, one printing three names
    or more, then the one the model finds most author-like. For a page whose path has no
    author line that gives a name: a page with a byline is never read as nothing."""
    end = next((i for i, ln in enumerate(lines) if ABSTRACT_RE.match(ln.text)), len(lines))
    candidates = [
        i
        for i, line in enumerate(lines[:end])
        if labelled[i][0] in ("other", "note") and _name_share(line) >= MIN_NAMES_LINE
    ]
    if not candidates:
        return labelled

    def names(i: int) -> int:
        return min(sum(len(_names_in(c, [])) for c in lines[i].cells), MIN_BYLINE_NAMES)

    best = max(candidates, key=lambda i: (names(i), labelled[i][1].get("author", 0.0), -i))
    out = list(labelled)
    out[best] = ("author", labelled[best][1])
    for i in range(best + 1, len(out)):
        authorish = out[i][1].get("author", 0.0) >= RUN_ON_AUTHOR
        if out[i][0] != "other" or not (authorish or _name_share(lines[i]) >= MIN_NAMES_LINE):
            break
        out[i] = ("author", out[i][1])
    return out


def _earlier(lines: list[Line], byline: Labelled, labelled: Labelled) -> bool:
    """The fallback byline comes before every author line of the path and prints three names
    or more (a long byline the path missed, above names it took from elsewhere)."""
    added = [i for i, (a, b) in enumerate(zip(byline, labelled, strict=True)) if a[0] != b[0]]
    first = next((i for i, (label, _) in enumerate(labelled) if label == "author"), len(labelled))
    names = sum(len(_names_in(c, [])) for i in added for c in lines[i].cells)
    return bool(added) and added[-1] < first and names >= MIN_BYLINE_NAMES


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


def _first_name_line(lines: list[Line], authors: list[Author]) -> int:
    """Index of the first line that prints one of the names (spaces aside); 0 when none does."""
    names = [fold(a.name).replace(" ", "") for a in authors]
    for i, line in enumerate(lines):
        text = fold(line.text).replace(" ", "")
        if any(name in text for name in names):
            return i
    return 0


def _affiliations(
    lines: list[Line], labelled: Labelled, first: int = 0
) -> list[tuple[list[str], Affiliation]]:
    """Blocks of adjacent affiliation lines (a leading marker starts a new one), cell by cell,
    from line `first` on (the byline: a masthead above it is not an affiliation)."""
    out: list[tuple[list[str], Affiliation]] = []
    open_blocks: dict[int, tuple[list[str], Affiliation]] = {}  # column -> the open block
    previous = -2
    for i, (line, (label, _)) in enumerate(zip(lines, labelled, strict=True)):
        if label != "affiliation" or i < first:
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
        authors = _found_names(lines, labelled)
        byline = best_byline(lines, labelled)
        if byline is not labelled and (not authors or _earlier(lines, byline, labelled)):
            labelled = byline
            authors = _found_names(lines, labelled)
    if not authors:
        return []
    affs = _affiliations(lines, labelled, _first_name_line(lines, authors))
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


def support(authors: list[Author], lines: list[Line], labelled: Labelled) -> float:
    """How far the line model backs a reading's names: the mean, over the authors, of the
    highest P(author) among page 1's lines that print the name (spaces aside); 0 for a name
    no line prints whole."""
    if not authors:
        return 0.0
    texts = [fold(line.text).replace(" ", "") for line in lines]
    total = 0.0
    for author in authors:
        name = fold(author.name).replace(" ", "")
        total += max(
            (p.get("author", 0.0) for t, (_, p) in zip(texts, labelled, strict=True) if name in t),
            default=0.0,
        )
    return total / len(authors)


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
