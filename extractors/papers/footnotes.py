"""Footnotes that resolve the author block's markers: "¹Google Inc., Mountain View, USA."

An author's marker that no affiliation in the block carries is looked up in the lines below the
block: a footnote keyed by it (raised, glued, spaced "1 Department ..." or printed as a cell of
its own) is an affiliation when it reads as one (institution words, or a short capitalised
phrase), up to where a note begins ("Correspondence to", "Work done while ..."); a footnote that
wraps runs on to its next line. A footnote keyed to one author that holds an email gives that
author's email. Pure: lines in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from extractors.papers.emails import EMAIL_RE
from extractors.papers.patterns import (
    IGNORE_RE,
    SPACED_NUMBER_RE,
    SYMBOL_MARKERS,
    URL_RE,
    clean,
    is_institution,
    is_prose,
    marker_keys,
)
from extractors.papers.text import Cell, Line
from extractors.papers.values import Affiliation, Author, Piece

# A footnote marker printed as a cell of its own: "1", "a", "*", "†".
LOOSE_MARKER_RE = re.compile(rf"\d{{1,2}}|[a-z]|[{re.escape(SYMBOL_MARKERS)}]")
# Where a footnote's affiliation ends and a note runs on: "Google Inc., USA. Correspondence to"
FOOTNOTE_NOTE_RE = re.compile(
    r"[.;]\s+(?:correspon|proceedings\b|copyright|preprint|work\b|equal\b|under review|"
    r"code\b|e-?mail|contact\b|project\b|accepted\b|published\b|submitted\b|received\b).*$",
    re.I | re.S,
)
# The next entry of a run-on numbered footnote: "..., USA. 2Department of ..."
NEXT_ENTRY_RE = re.compile(r"(?<=[.;])\s+(\d{1,2})\s?(?=[A-Z][a-z])")
ENTRY_END_MISSING = ("",)  # an entry split off a run-on footnote runs on unless it ends in "."
# A footnote saying where an author is now or worked then: a note, not the printed affiliation.
MOVED_NOTE_RE = re.compile(
    r"^\s*(?:(?:is\s+)?(?:now|currently)\s+(?:at|with)\b|work\s+(?:was\s+)?(?:done|performed)|"
    r"while\s+(?:at|visiting|interning)\b|on\s+leave\b|(?:a\s+)?visiting\b|intern(?:ship)?\s+at\b)",
    re.I,
)
FOOTNOTE_AFFILIATION_WORDS = 10  # a keyed footnote of at most this many words may be a name
# A footnote's next line starts this close to its left edge (in sizes: the first line may be
# indented by its marker) and lies at most this many sizes below.
FOOTNOTE_ALIGN = 1.2
FOOTNOTE_LEADING = 1.6


def read_footnotes(
    below: list[Line],
    authors: list[Author],
    keyed: dict[str, Affiliation],
    wanted: set[str],
    pieces_of: Callable[[Cell], list[Piece]],
) -> list[tuple[str, Author]]:
    """Affiliations for the `wanted` marker keys (added to `keyed`) from the footnotes in
    `below`; returns (email, author) for footnotes keyed to a single author."""
    emails_found: list[tuple[str, Author]] = []
    for number, line in enumerate(below):
        loose: list[str] = []  # a marker printed apart, before its footnote: "1   Dept."
        for cell in line.cells:
            if LOOSE_MARKER_RE.fullmatch(cell.text):
                loose = marker_keys(cell.text)
                continue
            pieces = pieces_of(cell)
            if loose and pieces and not pieces[0].keys:
                pieces[0].keys = loose
            loose = []
            spaced = SPACED_NUMBER_RE.match(cell.text)
            rest = cell.text[spaced.end() :] if spaced else ""
            if (  # "1 Department of ..." set with a space
                spaced
                and spaced.group(1) in wanted
                and not any(p.keys for p in pieces)
                and is_institution(rest)
            ):
                share = spaced.end() / max(len(cell.text), 1)
                x = cell.x0 + share * (cell.x1 - cell.x0)
                pieces = [Piece([spaced.group(1)], rest, rest, x)]
            split = _numbered(pieces, wanted)
            ends = ("-", ",") if len(split) == len(pieces) else ("-", ",", *ENTRY_END_MISSING)
            pieces = split
            if pieces and pieces[-1].keys and _ends_open(pieces[-1].text, ends):
                _run_on(pieces[-1], cell, below[number + 1 : number + 4])
            for piece in pieces:
                text = NEXT_ENTRY_RE.split(piece.text)[0]  # up to the next numbered entry
                text = clean(FOOTNOTE_NOTE_RE.sub("", text)).rstrip(".")
                emails = EMAIL_RE.findall(piece.text)
                owners = [a for a in authors if piece.keys and piece.keys[0] in a.markers]
                if emails and len(owners) == 1:
                    emails_found.append((emails[0].lower(), owners[0]))
                if (
                    "@" not in text
                    and piece.keys
                    and piece.keys[0] in wanted
                    and _footnote_affiliation(text)
                    and not IGNORE_RE.search(text)
                ):
                    quote = FOOTNOTE_NOTE_RE.sub("", piece.quote).strip()
                    aff = Affiliation(text=text, quote=quote, page=cell.page)
                    for k in piece.keys:
                        keyed.setdefault(k, aff)
                        wanted.discard(k)
    return emails_found


def _numbered(pieces: list[Piece], wanted: set[str]) -> list[Piece]:
    """A run-on footnote of numbered entries ("1Division of Biology, ..., USA. 2Department of
    ..., UK. 3Laboratory", and its next line "of ..., Switzerland. 4Department ..."): each
    entry whose number is a wanted key its own piece."""
    out: list[Piece] = []
    for piece in pieces:
        cuts = [m for m in NEXT_ENTRY_RE.finditer(piece.text) if m.group(1) in wanted]
        if not cuts:
            out.append(piece)
            continue
        starts = [0, *(m.end() for m in cuts)]
        ends = [*(m.start() for m in cuts), len(piece.text)]
        keys = [piece.keys, *([m.group(1)] for m in cuts)]
        for key, start, end in zip(keys, starts, ends, strict=True):
            text = piece.text[start:end]
            out.append(Piece(keys=key, text=text, quote=text.strip(), x=piece.x))
    return out


def _ends_open(text: str, ends: tuple[str, ...]) -> bool:
    """The footnote's text ends mid-entry: on one of `ends` ("" for any but a full stop)."""
    text = text.rstrip()
    if "" in ends:
        return bool(text) and not text.endswith(".")
    return text.endswith(ends)


def _footnote_affiliation(text: str) -> bool:
    """A keyed footnote that reads as an affiliation: institution words, or a short
    capitalised phrase ("UC Berkeley", "Mila"), not a sentence or a link, nor a note of where
    the author is now or did the work ("Now at Google", "Work done while at Meta")."""
    if MOVED_NOTE_RE.match(text):
        return False
    words = text.split()
    if is_institution(text):
        return True
    return (
        0 < len(words) <= FOOTNOTE_AFFILIATION_WORDS
        and text[:1].isupper()
        and not is_prose(text)
        and not URL_RE.search(text)
        and sum(1 for w in words if w[:1].islower()) <= len(words) // 3
    )


def _run_on(piece: Piece, cell: Cell, following: list[Line]) -> None:
    """A footnote affiliation that wraps ("Shanghai Jiao Tong Univer-" / "sity. Corresp...")
    takes the start of the next line printed at the same left edge."""
    for line in following:
        size = max(cell.size, line.size)
        if line.page != cell.page or cell.y - line.y > FOOTNOTE_LEADING * size:
            return
        for other in line.cells:
            left = piece.x or cell.x0  # where the footnote's text starts, after its marker
            if min(abs(other.x0 - left), abs(other.x0 - cell.x0)) > FOOTNOTE_ALIGN * size:
                continue
            if not other.text:
                continue
            first = other.text.split("  ")[0]
            if piece.text.rstrip().endswith("-") and first[:1].islower():
                piece.text = piece.text.rstrip()[:-1] + first
            else:
                piece.text = f"{piece.text.rstrip()} {first}"
            piece.quote = f"{piece.quote}\n{first}"
            return
