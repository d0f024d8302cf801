"""The entries of a news list: "- 2023-08-19: New Committer, A [@a](url)", "- New PMC Member: B".

An entry that opens with its own date (else the post's), then "New" and a role, then the people
(read by the shared entry reader, `extractors.people.entries`: "Name [@handle](url)", a handle
alone) gives each of them the role, dated by the entry. An entry whose people are in a sentence
("New PMC members and committers: A, B and C joined the PMC. D ...") is left to the sentence
readers. Which pages are news lists: `post.news_list` (most items open with a date).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.announcements import dates, events, names
from extractors.announcements import patterns as pat
from extractors.announcements.events import Context
from extractors.announcements.source import Section
from extractors.document.model import Item
from extractors.people import entries as _entries
from extractors.people import names as _people
from ingest.models import Claim

# a news entry: "2023-08-19: New Committer, A [@a]", "New PMC Member: B"; the role is its own
NEWS_ENTRY = re.compile(
    r"^\W*(?:(?:[\d/.-]{8,10}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})\s*[:|\u2013\u2014-]\s*)?"
    rf"(?i:new(?:ly\s+elected)?)\s+(?P<role>(?:[\w.&'’-]+\s+){{0,3}}?{pat.ROLE_WORDS})"
    r"\s*[,:\u2013\u2014-]\s*"
)


def entry_claims(item: Item, context: Context, section: Section, number: int) -> Iterator[Claim]:
    """The people of a news entry, dated by the entry's own date, else the post's."""
    match = NEWS_ENTRY.match(item.text)
    rest = (item.text[match.end() :] if match else "").rstrip(" .;!")
    if match is None or item.depth or re.search(r"[.!?;]\s+\S", rest):
        return  # not an entry, or the people in a sentence (the sentence readers')
    stated = dates.sentence_date(item.text, section.date)
    locator = f"{section.prefix}item {number}" if item.line is None else f"line {item.line}"
    sentence = events.Sentence(item.quote, item.text, item.links, locator, section.date)
    found = [
        e for e in _entries.read(rest, item.links) if e.github or _people.looks_like_name(e.name)
    ]
    named = {e.github for e in found if e.github and e.name.lower() != e.github}
    for e in found:
        if not (e.github in named and e.name.lower() == e.github):  # its handle again
            yield events._role_claim(context, names.Person(e.name, e.github), match.group("role"),
                                     "current", stated.iso if stated else section.date,
                                     stated.qualifiers() if stated else {}, sentence)  # fmt: skip
