"""Paragraphs that are people, not prose, for the governance reader (`reader.Reader`): a run of
person cards (one paragraph each), and a paragraph whose every line is one person's entry
("Jane Roe, Example Labs <jane@example.org> (@jroe)" on each line, no blank line between them:
Markdown joins the lines into one paragraph, the page prints a list)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from extractors.document.model import Block, Para
from extractors.governance import blocks as _role_blocks
from extractors.governance.decide import Context
from extractors.people import entries as _entries
from extractors.people import names as _people
from extractors.people.entries import Entry
from ingest.models import Claim

Reader = Any  # extractors.governance.reader.Reader (not imported: no cycle inside extractors)
LINES_MIN = 2  # a paragraph of one line is a card (`blocks.cards`), not a list of lines


def read(self: Reader, blocks: list[Block], start: int, least: int) -> tuple[int, Iterator[Claim]]:
    """The blocks a paragraph at `start` begins (a card run may take several) and its claims."""
    para = blocks[start]
    assert isinstance(para, Para)
    lines = line_entries(para)
    if lines:
        return 1, _cards(self, lines, "line")
    cards = _role_blocks.cards(blocks, start)
    if _role_blocks.is_card_run(blocks, start, cards, least):
        return len(cards), _cards(self, cards, "card")
    return 1, self._para(para)


def line_entries(para: Para) -> list[tuple[Para, Entry]]:
    """Each source line of the paragraph as one person's entry, when every line is one: a
    name-like name with an account of its own (an e-mail address, an @handle, a profile link),
    as short as a card. Else [] (a sentence broken over lines reads as the paragraph it is)."""
    lines = [line.strip() for line in para.quote.splitlines() if line.strip()]
    if len(lines) < LINES_MIN or para.quote == para.text:  # (HTML: no source lines)
        return []
    found: list[tuple[Para, Entry]] = []
    for line in lines:
        if len(line) > _role_blocks.CARD_MAX_CHARS:
            return []
        links = tuple((t, u) for t, u in para.links if t in line or u in line)
        people = _entries.read(line, links)
        if len(people) != 1 or not _people.looks_like_name(people[0].name):
            return []
        if not (people[0].github or people[0].email):
            return []
        found.append((Para(line, line, links, para.line), people[0]))
    return found


def _cards(self: Reader, cards: list[tuple[Para, Entry]], what: str) -> Iterator[Claim]:
    self.ctx = Context("card", len(cards))
    for para, entry in cards:
        number = self._count(what)
        yield from self._emit(entry, f"{self._where()} > {what} {number}", para.quote)
