"""arXiv API Atom responses (export.arxiv.org/api/query) -> `author_of` and `affiliation` claims.

For each `<entry>` (a paper) and each of its `<author>`s, in document order:

- `author_of`: subject {name as printed}, object "arXiv:<id without version>", qualifiers
  `title` (whitespace collapsed), `published` and `updated` (YYYY-MM-DD), `position` (1-based
  author order), `version` ("v2") and `doi` when the entry has one;
- for each `<arxiv:affiliation>` of that author, `affiliation`: object = the affiliation as
  printed, qualifiers `work` ("arXiv:<id>"), `date` (published), `affiliation_text` (the same
  text) and `position` (the author's).

Evidence: the snapshot's URL and sha256, a locator "entry 2 (arXiv:1707.08567) > author 3"
(affiliations add " > affiliation 1") and the element's text as the quote: the author's
`<name>` text, the `<arxiv:affiliation>` text (stripped; names and affiliations also have runs
of whitespace collapsed, the quote keeps them).

arXiv's error feed (an HTTP 400 body whose only entry has an `.../api/errors#...` id and the
title "Error") and an empty feed give []. Malformed XML raises ExtractionError naming the URL.

Why not the arxiv package's own parser (`arxiv._feed.parse`): it parses in lxml *recover* mode,
so a truncated feed silently loses entries instead of failing, it skips entries it dislikes with
a log line, and it keeps neither the version nor the raw text the evidence quotes. This module
uses lxml with entity resolution, network access, DTD loading, recovery and huge trees off, and
refuses any document carrying a DOCTYPE (arXiv never sends one): an entity declaration is never
expanded. Bodies larger than MAX_FEED_BYTES are refused before parsing.

`entries(snapshot_or_bytes)` gives each paper's metadata and PDF URL without the network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lxml import etree

from ingest.errors import ExtractionError
from ingest.models import Claim, Evidence, Snapshot, Subject

NAME = "arxiv_atom"
VERSION = 1
TAG = f"{NAME}/{VERSION}"
MAX_FEED_BYTES = 50 * 1024 * 1024  # an API page of 2,000 entries is a few MB

# --- which URLs and documents are this kind of source ----------------------------------------
URL_PATTERN = re.compile(r"^https?://(?:export\.)?arxiv\.org/api/query(?:[?#].*)?$", re.IGNORECASE)
ATOM_NS = "http://www.w3.org/2005/Atom"
ARXIV_NS = "http://arxiv.org/schemas/atom"
ATOM_ROOT = re.compile(rb"^\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*)*<feed[\s>]", re.DOTALL)

# --- element names (Clark notation) ------------------------------------------------------------
FEED = f"{{{ATOM_NS}}}feed"
ENTRY = f"{{{ATOM_NS}}}entry"
ID = f"{{{ATOM_NS}}}id"
TITLE = f"{{{ATOM_NS}}}title"
PUBLISHED = f"{{{ATOM_NS}}}published"
UPDATED = f"{{{ATOM_NS}}}updated"
AUTHOR = f"{{{ATOM_NS}}}author"
AUTHOR_NAME = f"{{{ATOM_NS}}}name"
LINK = f"{{{ATOM_NS}}}link"
AFFILIATION = f"{{{ARXIV_NS}}}affiliation"
DOI = f"{{{ARXIV_NS}}}doi"
JOURNAL_REF = f"{{{ARXIV_NS}}}journal_ref"

# --- the <id> of an entry: a paper's abs URL, or arXiv's error marker --------------------------
ABS_ID = re.compile(r"arxiv\.org/abs/(?P<id>.+?)(?P<version>v\d+)?$", re.IGNORECASE)
ERROR_ID = re.compile(r"arxiv\.org/api/errors", re.IGNORECASE)


@dataclass(frozen=True)
class Author:
    name: str  # whitespace collapsed
    quote: str  # the <name> text, stripped
    position: int  # 1-based
    affiliations: list[str] = field(default_factory=list)  # whitespace collapsed
    affiliation_quotes: list[str] = field(default_factory=list)  # stripped


@dataclass(frozen=True)
class Entry:
    """One paper of a feed. `id` has no version ("1707.08567", "quant-ph/0201082")."""

    id: str
    version: str | None  # "v1"
    title: str  # whitespace collapsed
    published: str | None  # YYYY-MM-DD
    updated: str | None  # YYYY-MM-DD
    authors: list[Author]
    pdf_url: str | None
    doi: str | None
    abs_url: str | None
    journal_ref: str | None
    index: int  # 1-based position of the <entry> in the feed (error entries count too)

    @property
    def work(self) -> str:
        """ "arXiv:<id>", the object of `author_of` claims."""
        return f"arXiv:{self.id}"


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """arXiv API query URLs; with a snapshot, an Atom feed declaring the arXiv namespace."""
    if snapshot is None:
        return bool(URL_PATTERN.match(url))
    body = snapshot.body
    return bool(ATOM_ROOT.match(body[:4096])) and ARXIV_NS.encode() in body


def extract(snapshot: Snapshot) -> list[Claim]:
    """`author_of` and `affiliation` claims, entry by entry, author by author."""
    claims: list[Claim] = []
    for entry in _entries(snapshot.body, snapshot.url):
        for author in entry.authors:
            claims.append(_author_of(entry, author, snapshot))
            for index, text in enumerate(author.affiliations, start=1):
                claims.append(_affiliation(entry, author, index, text, snapshot))
    return claims


def entries(source: Snapshot | bytes) -> list[Entry]:
    """The papers of an Atom response (error entries left out), in feed order."""
    if isinstance(source, Snapshot):
        return _entries(source.body, source.url)
    return _entries(source, "<bytes>")


# ================================================================================================


def _author_of(entry: Entry, author: Author, snapshot: Snapshot) -> Claim:
    qualifiers: dict[str, Any] = {"title": entry.title}
    if entry.published:
        qualifiers["published"] = entry.published
    qualifiers["position"] = author.position
    if entry.version:
        qualifiers["version"] = entry.version
    if entry.updated:
        qualifiers["updated"] = entry.updated
    if entry.doi:
        qualifiers["doi"] = entry.doi
    return Claim(
        subject=Subject(name=author.name),
        predicate="author_of",
        object=entry.work,
        qualifiers=qualifiers,
        evidence=_evidence(snapshot, _locator(entry, author), author.quote),
        extractor=TAG,
    )


def _affiliation(entry: Entry, author: Author, index: int, text: str, snap: Snapshot) -> Claim:
    qualifiers: dict[str, Any] = {"work": entry.work}
    if entry.published:
        qualifiers["date"] = entry.published
    qualifiers["affiliation_text"] = text
    qualifiers["position"] = author.position
    locator = f"{_locator(entry, author)} > affiliation {index}"
    return Claim(
        subject=Subject(name=author.name),
        predicate="affiliation",
        object=text,
        qualifiers=qualifiers,
        evidence=_evidence(snap, locator, author.affiliation_quotes[index - 1]),
        extractor=TAG,
    )


def _locator(entry: Entry, author: Author) -> str:
    return f"entry {entry.index} ({entry.work}) > author {author.position}"


def _evidence(snapshot: Snapshot, locator: str, quote: str) -> Evidence:
    return Evidence(url=snapshot.url, sha256=snapshot.sha256, locator=locator, quote=quote)


# ================================================================================================
# parsing


def _parse(body: bytes, url: str) -> Any:
    if len(body) > MAX_FEED_BYTES:
        raise ExtractionError(url, f"the feed is larger than {MAX_FEED_BYTES} bytes")
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False
    )
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise ExtractionError(url, f"malformed XML: {exc}") from exc
    if root is None:
        raise ExtractionError(url, "the document is empty")
    if root.getroottree().docinfo.doctype:
        raise ExtractionError(url, "the document declares a DOCTYPE (never sent by arXiv)")
    if root.tag != FEED:
        raise ExtractionError(url, f"not an Atom feed (root element {root.tag!r})")
    return root


def _entries(body: bytes, url: str) -> list[Entry]:
    root = _parse(body, url)
    found: list[Entry] = []
    for index, element in enumerate(root.iterchildren(ENTRY), start=1):
        entry = _entry(element, index, url)
        if entry is not None:
            found.append(entry)
    return found


def _entry(element: Any, index: int, url: str) -> Entry | None:
    raw_id = _text(element, ID)
    if ERROR_ID.search(raw_id):
        return None  # arXiv's explanation of an error status, not a paper
    match = ABS_ID.search(raw_id)
    if not match:
        raise ExtractionError(url, f"entry {index} has no arXiv abs id (id {raw_id!r})")
    authors: list[Author] = []
    for position, author in enumerate(element.iterchildren(AUTHOR), start=1):
        quote = _text(author, AUTHOR_NAME)
        affiliation_quotes = [
            text for a in author.iterchildren(AFFILIATION) if (text := _own_text(a))
        ]
        authors.append(
            Author(
                name=_collapse(quote),
                quote=quote,
                position=position,
                affiliations=[_collapse(t) for t in affiliation_quotes],
                affiliation_quotes=affiliation_quotes,
            )
        )
    return Entry(
        id=match.group("id"),
        version=match.group("version"),
        title=_collapse(_text(element, TITLE)),
        published=_day(_text(element, PUBLISHED)),
        updated=_day(_text(element, UPDATED)),
        authors=authors,
        pdf_url=_link(element, title="pdf"),
        doi=_text(element, DOI) or None,
        abs_url=_link(element, rel="alternate"),
        journal_ref=_collapse(_text(element, JOURNAL_REF)) or None,
        index=index,
    )


def _text(element: Any, tag: str) -> str:
    """The stripped text of the first `tag` child ('' when absent)."""
    child = element.find(tag)
    return _own_text(child) if child is not None else ""


def _own_text(element: Any) -> str:
    """The element's text content (entity references are left out, never expanded), stripped."""
    parts = [element.text or ""]
    for child in element:
        if isinstance(child.tag, str):
            parts.append(_own_text(child))
        parts.append(child.tail or "")
    return "".join(parts).strip()


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _day(text: str) -> str | None:
    """YYYY-MM-DD of an Atom timestamp ("2017-07-27T08:18:33Z"), None when absent or invalid."""
    try:
        return date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        return None


def _link(element: Any, *, title: str | None = None, rel: str | None = None) -> str | None:
    for link in element.iterchildren(LINK):
        if title is not None and link.get("title") != title:
            continue
        if rel is not None and link.get("rel") != rel:
            continue
        href = link.get("href")
        if href:
            return str(href)
    return None
