"""Any project's role lists (maintainers, councils, committers, owners) -> claims.

Reads every page through the shared document layer (`extractors.document.model`): HTML, Markdown,
reST, YAML/TOML member files, OWNERS, CODEOWNERS and MAINTAINERS files. A page is a governance
page by what it holds (lists, tables or records of people), not by its URL (`matches`).

Where the people are: list items (`_entries`: "Name (handle)", "[Name](github) (PMC): @h - area",
"- [handle](url), Company", "`area`: A (<mail> / @a), B", "**Role**: Name [@h]"), tables
(`_tables`: the column that names people, whatever its header), literal blocks of one name a line,
definition lists, data-file records ("- handle # Name <mail>", `{ github = "x", roles = [...] }`,
`name:`/`role:` mappings) and prose (`_prose`: "The council is A, B and C.", "Chair: A").
A list counts when at least half its items name a person, so lists of links or duties give none.
A page whose readers give nobody is walked again by the fallback reader (`fallback`): its repeated
structures are candidates and the people model keeps those it is sure of (P >= 0.97 measured).
A table of person cards (photo cells between them) is read card by card, each card's lines as one
record's fields; a heading with a list under it is a group's name, not a person's; "- Area: what
it is" or "- `cmd`" with people nested under it is their area.

Qualifiers of a `maintainer` claim: `role` = the page's word for the group (`_people.role_of` on
the nearest heading, label line or data key that has one, else the page title, else the URL,
else "member"), with a title the entry carries added after "; " ("TOC member; TOC chair");
`section` = the nearest heading or label as printed (a data file's key; a CODEOWNERS pattern; a
term cell); `scope` = the area when printed (a nested list's parent item, "area: names", a
liaison's areas, a MAINTAINERS section, a record's role description); `level` only when the words
say it (lead/chair, core, module); `status` = emeritus for lists called emeritus, alumni, former,
past, inactive or retired (and entries marked so), else current. An organisation printed for the
person (a Company/Organization column, "(Red Hat)", ", Google LLC") gives an `affiliation` claim.

Evidence: the verbatim source of the item, row, record or sentence (HTML: the element's text);
locators such as "h2 'Core Team' > li 3", "h3 'Members' > table 1 > row 4", "approvers > entry 2".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from extractors import document as _document
from extractors.document.model import Heading, Record
from extractors.governance import blocks as _role_blocks
from extractors.governance import fallback as _fallback
from extractors.governance import reader as _reader
from extractors.governance.reader import MIN_PEOPLE, Reader
from extractors.people import names as _people
from extractors.people.model import Model
from ingest.errors import ExtractionError
from ingest.models import Claim, Snapshot

NAME = _reader.NAME  # the reader makes the claims and tags them: its version is the extractor's
VERSION = _reader.VERSION

URL_PATTERN = re.compile(
    r"governance|maintainers|committers|council|steering|/team(?:s)?\b|/people\b|pep-0013"
    r"|/core-?team|/tsc\b|owners|contributors|members",
    re.IGNORECASE,
)
CONTENT_PATTERN = re.compile(
    r"\bmaintainers?\b|steering council|steering committee|\bcommitters?\b|core team"
    r"|\bgovernance\b|\btsc\b|\bcode ?owners\b",
    re.IGNORECASE,
)
# ============================================================================================
# public interface


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """Governance-looking URLs; with a snapshot, content that lists people in role lists
    (`lists_people`) or is titled as a governance page (`titled_as_governance`)."""
    if snapshot is None:
        return URL_PATTERN.search(urlsplit(url).path) is not None
    return lists_people(snapshot) or titled_as_governance(snapshot)


def lists_people(snapshot: Snapshot) -> bool:
    """At least `MIN_PEOPLE` people in the page's role lists, or one under a role heading, or
    the page is one person's card (a data file's or a front matter's only record)."""
    try:
        document = _document.parse(snapshot)
    except ExtractionError:
        return False
    people: set[str] = set()
    for claim in Reader(document, snapshot).claims():
        people.add(claim.subject.github or claim.subject.name)
        if len(people) >= MIN_PEOPLE:
            return True
    return bool(people) and any(
        (isinstance(b, Heading) and not _people.is_generic(_people.role_of(b.text)))
        or (isinstance(b, Record) and _role_blocks.card(b, document))
        for b in document.blocks
    )


def fallback_lists_people(snapshot: Snapshot) -> bool:
    """The last word of routing: the fallback reader (its strict people decision) finds people
    in a page that nothing else claims (an `AUTHORS.md` at no governance URL)."""
    try:
        document = _document.parse(snapshot)
    except ExtractionError:
        return False
    return _fallback.names_people(_fallback.claims(Reader(document, snapshot)))


def standing_roster(snapshot: Snapshot) -> bool:
    """Content evidence of a roster, not news: some of the people the page lists are in a
    list, a table, records or cards (a post that only names people in its sentences reports a
    change; its people are the announcement reader's)."""
    try:
        document = _document.parse(snapshot)
    except ExtractionError:
        return False
    return any(
        " > paragraph " not in c.evidence.locator for c in Reader(document, snapshot).claims()
    )


def titled_as_governance(snapshot: Snapshot) -> bool:
    """The title or a heading says governance, maintainers, council, ... (a page whose lists
    cannot be read is still read as one, so that a layout change raises an alert)."""
    try:
        document = _document.parse(snapshot)
    except ExtractionError:
        return False
    texts = [document.title or ""] + [b.text for b in document.blocks if isinstance(b, Heading)]
    return any(CONTENT_PATTERN.search(text) for text in texts)


def extract(snapshot: Snapshot) -> list[Claim]:
    """Claims for every person the page lists, in document order."""
    return list(iter_claims(snapshot))


def iter_claims(snapshot: Snapshot, *, model: Model | None = None) -> Iterator[Claim]:
    """`extract`, one claim at a time (a caller may keep only the first N).

    A chair named in prose after the list ("A is the chair") turns the member claim already
    given into a `lead` one: claims may change until the iterator is exhausted. `model`: the
    decision to use instead of the shipped one (cross-validation refits it per fold).

    When the readers give no person, the fallback reader (`extractors.governance.fallback`)
    walks the page's repeated structures and lets the people decision pick them."""
    try:
        document = _document.parse(snapshot)
    except ExtractionError:  # a data file that does not parse: its lines, read as text
        text = _document.parse(snapshot, "text")
        found = list(_fallback.claims(Reader(text, snapshot, model=model)))
        if not _fallback.names_people(found):
            raise
        return iter(found)
    return _fallback.after(lambda: Reader(document, snapshot, model=model))
