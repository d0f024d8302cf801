"""Extractors: one package per kind of source, the shared layers beneath them. Each extractor
is pure: Snapshot in, list[Claim] out.

    document/       a page of any format as one model (the readers, the dispatch)
    people/         who a list item, a row or a sentence names (shared by the two below)
    governance/     role lists: `governance` (any project), `pytorch_governance` (the PyTorch page)
    announcements/  `announcement`: role and event news in posts, entries, messages
    papers/         `arxiv_atom` (arXiv API answers), `arxiv_pdf` (a paper's author block)

Layers: document <- people <- governance, announcements; papers stands alone; this module
registers the five extractors (tests/test_layers.py checks the imports), each imported when
first used (`MODULES`; tests/test_lazy_extractors.py).

An extractor module defines:
    NAME: str                              e.g. "pytorch_governance"
    VERSION: int                           bumped whenever its output changes
    def matches(url: str, snapshot: Snapshot | None) -> bool
        True when this extractor should handle the URL (or, given the snapshot, its content)
    def extract(snapshot: Snapshot) -> list[Claim]
        never does I/O, never reads the clock or globals; raises ExtractionError subclasses
and may define
    def iter_claims(snapshot: Snapshot) -> Iterator[Claim]
        the same claims, made as they are read: a caller that keeps only the first N (the
        pipeline's INGEST_MAX_CLAIMS) does not hold the rest; claims may still change until the
        iterator is exhausted (`claims_of` gives either, one claim at a time)

`choose(url, snapshot, name=None)` picks one: by explicit name, else by URL and content (see it).
This package is an `ingest.extraction.ExtractorSet`: flows/ and the command line pass it to the
library functions that choose or run an extractor (ingest never imports extractors).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast, overload

from ingest.errors import NoExtractorError
from ingest.extraction import AtomReader, Extractor, PaperReader
from ingest.models import Claim, Snapshot

# Each extractor's module, by its NAME, in the order `choose` tries them. Imported when first
# used, not with this package: an unchanged source needs no extractor at all, and a run that
# reads governance pages only never pays for the announcement reader's patterns or pypdf
# (together ~1.6 s of a nightly's start). `_load` checks that the module's NAME is its key.
MODULES: dict[str, str] = {
    "pytorch_governance": "extractors.governance.pytorch",
    "arxiv_atom": "extractors.papers.atom",
    "arxiv_pdf": "extractors.papers.pdf",
    "announcement": "extractors.announcements.post",
    "governance": "extractors.governance.generic",
}
_GENERIC = ("announcement", "governance")  # chosen by content, given a snapshot


_LOADED: dict[str, Extractor] = {}  # the modules imported so far, by NAME


def _load(name: str) -> Extractor:
    found = _LOADED.get(name)
    if found is not None:
        return found
    module = importlib.import_module(MODULES[name])
    if getattr(module, "NAME", None) != name:
        raise RuntimeError(f"{MODULES[name]} names itself {getattr(module, 'NAME', None)!r}")
    _LOADED[name] = cast(Extractor, module)
    return _LOADED[name]


class _Registry(Mapping[str, Extractor]):
    """MODULES as a mapping of name -> module, each module imported when first looked up."""

    def __getitem__(self, name: str) -> Extractor:
        if name not in MODULES:
            raise KeyError(name)
        return _load(name)

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)

    def __contains__(self, name: object) -> bool:
        return name in MODULES


class _Generic(Sequence[Extractor]):
    """The generic extractors, imported when first looked at; `module in GENERIC` asks the
    module's import name, importing nothing."""

    @overload
    def __getitem__(self, index: int) -> Extractor: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Extractor]: ...
    def __getitem__(self, index: int | slice) -> Extractor | Sequence[Extractor]:
        if isinstance(index, slice):
            return tuple(_load(name) for name in _GENERIC[index])
        return _load(_GENERIC[index])

    def __len__(self) -> int:
        return len(_GENERIC)

    def __contains__(self, module: object) -> bool:
        paths = {MODULES[name] for name in _GENERIC}
        return isinstance(module, ModuleType) and module.__name__ in paths


REGISTRY: Mapping[str, Extractor] = _Registry()
GENERIC: Sequence[Extractor] = _Generic()
# the arXiv stage's readers: API answers, and a paper's PDF; `__getattr__` gives the modules
# themselves (`get("arxiv_atom") is ARXIV_ATOM`), each imported when first asked for
_READERS = {"ARXIV_ATOM": "arxiv_atom", "ARXIV_PDF": "arxiv_pdf"}
if TYPE_CHECKING:
    ARXIV_ATOM: AtomReader
    ARXIV_PDF: PaperReader


def __getattr__(attribute: str) -> Extractor:
    if attribute in _READERS:
        return _load(_READERS[attribute])
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def get(name: str) -> Extractor:
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise NoExtractorError(name, f"no extractor named '{name}' (known: {known})") from None


def choose(url: str, snapshot: Snapshot | None = None, name: str | None = None) -> Extractor:
    """The extractor for a URL (and, given it, the snapshot's content).

    Extractors written for one kind of source (the PyTorch page, arXiv) go first, by URL and
    then by content. The two generic ones are decided by what the document holds: a dated post
    at a post URL is an announcement; a page that lists people in role lists is a governance
    page, whatever its URL (a GitHub README, a raw OWNERS file), unless it is a published page
    titled as election results or role news (not a file read in its repository), or a post at
    a post URL whose people are named in its sentences only (no standing roster); then any other
    dated post; then a governance-looking URL or title. Without a snapshot (planning a run), URLs
    alone decide."""
    if name:
        return get(name)
    names = [n for n in MODULES if n not in _GENERIC]
    for n in names:  # each imported only when the ones before it did not claim the URL
        if REGISTRY[n].matches(url, None):
            return REGISTRY[n]
    specific = [REGISTRY[n] for n in names]
    if snapshot is None:
        for module in GENERIC:
            if module.matches(url, None):
                return module
        raise NoExtractorError(url, "no extractor claims this URL")
    from extractors.announcements import post as announcement
    from extractors.governance import generic as governance

    for module in specific:
        if module.matches(url, snapshot):
            return module
    if announcement.matches(url, None) and announcement.matches(url, snapshot):
        return announcement
    if announcement.titled_as_news(url, snapshot):  # a published page of election results
        return announcement
    post_url = announcement.matches(url, None) and not announcement.REPOSITORY_FILE.match(url)
    if announcement.news_list(snapshot):  # dated news entries, one a line: news, not a roster
        return announcement
    if governance.lists_people(snapshot):
        if post_url and not governance.standing_roster(snapshot):
            return announcement  # a post at a post URL naming its people in sentences only
        return governance
    if announcement.matches(url, snapshot):
        return announcement
    if post_url and not governance.standing_roster(snapshot):
        return announcement  # an undated post at a post URL: news, whatever its title says
    if governance.matches(url, None) or governance.titled_as_governance(snapshot):
        return governance
    if announcement.matches(url, None):
        return announcement  # a post URL whose page says nothing yet: read as one
    if announcement.post_like(snapshot):
        return announcement  # a news fragment at no post URL: a sentence reports a role change
    if governance.fallback_lists_people(snapshot):
        return governance  # people the fallback reader's strict decision finds, nothing else
    raise NoExtractorError(url, "no extractor claims this URL or its content")


def claims_of(module: Extractor, snapshot: Snapshot) -> Iterator[Claim]:
    """The module's claims of the snapshot, one at a time (its `iter_claims` when it has one)."""
    stream = getattr(module, "iter_claims", None)
    found = stream(snapshot) if stream is not None else module.extract(snapshot)
    return iter(found)


def tag(module: Extractor) -> str:
    """The `extractor` field claims carry, e.g. 'pytorch_governance/1'."""
    return f"{module.NAME}/{module.VERSION}"
