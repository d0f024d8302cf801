"""What the pipeline needs of the extractors, as protocols: the callers pass the set in.

`ingest` never imports `extractors` (the layer above it). The `extractors` package implements
`ExtractorSet` as a module (its `choose`, `get`, `tag`, `claims_of`, `REGISTRY`, `GENERIC` and
the arXiv readers `ARXIV_ATOM` and `ARXIV_PDF`); the layers that may use both, `flows/` and the
command line, hand it to the library functions that choose or run an extractor
(`extractors=extractors`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from ingest.models import Claim, Snapshot


class Extractor(Protocol):
    """One extractor module: pure, Snapshot in, claims out (see `extractors/__init__.py`)."""

    @property
    def NAME(self) -> str: ...  # noqa: N802 (the module constant's name)

    @property
    def VERSION(self) -> int: ...  # noqa: N802

    def matches(self, url: str, snapshot: Snapshot | None) -> bool: ...

    def extract(self, snapshot: Snapshot) -> list[Claim]: ...


class AtomAuthor(Protocol):
    @property
    def name(self) -> str: ...


class AtomEntry(Protocol):
    """One paper of an arXiv API answer; `id` without its version."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> str | None: ...

    @property
    def title(self) -> str: ...

    @property
    def published(self) -> str | None: ...

    @property
    def authors(self) -> Sequence[AtomAuthor]: ...

    @property
    def pdf_url(self) -> str | None: ...


class AtomReader(Extractor, Protocol):
    """The extractor of arXiv's API answers (Atom): claims, and the papers themselves."""

    def entries(self, source: Snapshot) -> Sequence[AtomEntry]: ...


class PaperReader(Extractor, Protocol):
    """The extractor of a paper's PDF, told what the paper's metadata already says."""

    def extract_with_metadata(
        self, snapshot: Snapshot, *, authors: list[str], work: str, date: str | None
    ) -> list[Claim]: ...


class ExtractorSet(Protocol):
    """Every extractor, and how one is chosen for a URL and its content."""

    @property
    def REGISTRY(self) -> Mapping[str, Extractor]: ...  # noqa: N802

    @property
    def GENERIC(self) -> Sequence[Extractor]: ...  # noqa: N802 (chosen by content)

    @property
    def ARXIV_ATOM(self) -> AtomReader: ...  # noqa: N802

    @property
    def ARXIV_PDF(self) -> PaperReader: ...  # noqa: N802

    def choose(
        self, url: str, snapshot: Snapshot | None = None, name: str | None = None
    ) -> Extractor: ...

    def get(self, name: str) -> Extractor: ...

    def tag(self, module: Extractor) -> str: ...

    def claims_of(self, module: Extractor, snapshot: Snapshot) -> Iterator[Claim]: ...
