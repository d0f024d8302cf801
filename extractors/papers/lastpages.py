"""What page 1 leaves open, read from the later pages: a numbered affiliation list ("Author
details", `extractors.papers.later.later_affiliations`) for markers page 1 does not resolve, and
the author notes of the last pages (`later.author_notes`) when page 1 gives no affiliation.

    unresolved(found) -> set of marker keys
    attach_later(found, reader)      attach_notes(found, reader)
"""

from __future__ import annotations

from pypdf import PageObject
from pypdf.errors import PyPdfError

from extractors.papers.later import MAX_LAST_PAGES, author_notes, later_affiliations
from extractors.papers.pages import PageReader
from extractors.papers.values import Affiliation, Author

MAX_LATER_PAGES = 12  # pages read for an affiliation list printed after page 1


def unresolved(found: list[Author]) -> set[str]:
    """Number markers of authors left with fewer affiliations than numbers."""
    out: set[str] = set()
    for author in found:
        numbers = [k for k in author.markers if k.isdigit()]
        if len(author.affiliations) < len(numbers):
            out |= set(numbers)
    return out


def attach_later(found: list[Author], reader: PageReader) -> None:
    """Affiliations from a numbered list on a later page ("Author details"), for the authors
    whose numbers it lists (it is the full list: it replaces what page 1 showed of it)."""
    pages = reader.reader.pages
    texts = (page_text(pages[i]) for i in range(1, min(len(pages), MAX_LATER_PAGES + 1)))
    listed = later_affiliations(texts, unresolved(found))  # pages read until the list
    made: dict[str, Affiliation] = {}
    for author in found:
        numbers = [k for k in author.markers if k.isdigit()]
        if numbers and all(k in listed for k in numbers):
            for key in numbers:
                text, quote, page = listed[key]
                made.setdefault(key, Affiliation(text=text, quote=quote, page=page))
            author.affiliations = [made[k] for k in numbers]


def attach_notes(found: list[Author], reader: PageReader) -> None:
    """Affiliations (and e-mails) from the author notes of the last pages."""
    pages = reader.reader.pages
    last = range(max(len(pages) - MAX_LAST_PAGES, 1), len(pages))
    notes = author_notes([(i + 1, page_text(pages[i])) for i in last], [a.name for a in found])
    for author in found:
        if author.name in notes:
            text, email, quote, page = notes[author.name]
            author.affiliations = [Affiliation(text=text, quote=quote, page=page)]
            if email not in author.emails:
                author.emails.append(email)


def page_text(page: PageObject) -> str:
    """A later page's plain text; empty when pypdf cannot read it (an aid only)."""
    try:
        return page.extract_text()
    except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            ZeroDivisionError, RecursionError):  # fmt: skip
        return ""
