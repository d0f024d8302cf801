"""Affiliation markers resolved: which keyed affiliation each author's markers name, the
footnotes below the block read for markers no line of it keys, and one printed affiliation
without markers shared by everyone (`extractors.papers.author_block` calls these last)."""

from __future__ import annotations

from collections.abc import Callable

from extractors.papers.footnotes import read_footnotes
from extractors.papers.text import Cell, Line
from extractors.papers.values import Affiliation, Author, Piece


def resolve_markers(
    authors: list[Author],
    keyed: dict[str, Affiliation],
    affiliations: list[Affiliation],
    page_lines: list[Line],
    block: list[Line],
    pieces: Callable[[Cell], list[Piece]],
) -> tuple[list[Affiliation], list[tuple[str, Author]]]:
    """(the affiliations, keyed ones first in key order; e-mails found in the footnotes).
    `pieces`: how the block's reader splits a footnote cell into affiliation pieces."""
    split_runs_of_digits(authors, keyed)
    footnote_emails: list[tuple[str, Author]] = []
    wanted = {k for a in authors for k in a.markers if k not in keyed}
    if any(a.markers for a in authors):  # footnotes below: affiliations, or emails
        in_block = {id(line) for line in block}
        below = [line for line in page_lines if id(line) not in in_block]
        footnote_emails += read_footnotes(below, authors, keyed, wanted, pieces)
    ordered: list[Affiliation] = []
    for author in authors:
        for key in author.markers:
            found = keyed.get(key)
            if found is not None and found not in author.affiliations:
                author.affiliations.append(found)
    for aff in keyed.values():
        if aff not in ordered:
            ordered.append(aff)
    # with one printed affiliation and no markers on names, it belongs to everyone
    if len(ordered) == 1 and not any(a.markers for a in authors):
        for author in authors:
            if not author.affiliations:
                author.affiliations.append(ordered[0])
    rest = [a for a in affiliations if a not in ordered]
    return ordered + rest, footnote_emails


def split_runs_of_digits(authors: list[Author], keyed: dict[str, Affiliation]) -> None:
    """ "Firstname Last135": a run of digits no affiliation is keyed by, whose every digit
    is one, is that many markers."""
    for author in authors:
        markers: list[str] = []
        for key in author.markers:
            digits = list(key)
            if (
                key.isdigit()
                and len(key) > 1
                and key not in keyed
                and all(d in keyed for d in digits)
            ):
                markers.extend(digits)
            else:
                markers.append(key)
        author.markers = markers
