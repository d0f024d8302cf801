"""The governance reader's candidates, judged by the learned model (`extractors.people.model`).

The reader proposes: every entry it reads from structure becomes a `Candidate` with the context
it was found in (`Context`: the kind of block, the list around it). `Judge` turns that into
features (`extractors.people.features`), asks the model whether it is a person (and whether its
printed organisation is one), and gives the `confidence` qualifier. A `sink` (training,
`ingest evaluate --governance --fit`) receives every candidate with its features and claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from extractors.document.model import Document, Heading
from extractors.people.entries import Entry
from extractors.people.features import Candidate, affiliation_features, person_features
from extractors.people.model import THRESHOLD, Model
from ingest.models import Claim

Sink = list[tuple[str, dict[str, float], Claim]]  # ("person" | "affiliation", features, claim)


@dataclass
class Context:
    """Where the entries being read come from."""

    kind: str = "li"
    size: int = 1
    handle_share: float = 0.0
    nested: bool = False
    parent_item: bool = False
    people_share: float = 0.0  # the share of the list's entries read as people


@dataclass
class Verdict:
    keep: bool
    confidence: float
    features: dict[str, float] = field(default_factory=dict)


def page_owner(url: str, project: str) -> str:
    """The organisation a page belongs to: its GitHub owner, else the project's name."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    if (parts.hostname or "").endswith("github.com") and segments:
        return segments[0].lower()
    return project.lower().replace(" ", "")


@dataclass
class Judge:
    model: Model
    document: Document
    owner: str
    sink: Sink | None = None
    _headings: frozenset[str] | None = None

    @property
    def headings(self) -> frozenset[str]:
        if self._headings is None:
            self._headings = frozenset(
                " ".join(b.text.lower().split())
                for b in self.document.blocks
                if isinstance(b, Heading)
            )
        return self._headings

    def person(self, entry: Entry, quote: str, ctx: Context, frame: Any) -> Verdict:
        candidate = Candidate(
            name=entry.name,
            github=entry.github,
            email=entry.email,
            quote=quote,
            kind=ctx.kind,
            section=frame.text if frame is not None else None,
            section_label=bool(frame and frame.label),
            section_role=bool(frame and frame.says_role),
            emeritus=bool(entry.emeritus or (frame and frame.emeritus)),
            list_size=ctx.size,
            list_handle_share=ctx.handle_share,
            nested=ctx.nested,
            parent_item=ctx.parent_item,
            owner=self.owner,
            defined=entry.defined,
            org_word=entry.org_word,
            lone=entry.lone,
            list_people_share=ctx.people_share,
        )
        features = person_features(candidate)
        return self._verdict(self.model.person, features)

    def affiliation(
        self,
        org: str,
        ctx: Context,
        *,
        field: bool = False,
        proposed: bool = True,
    ) -> Verdict:
        return self._verdict(
            self.model.affiliation,
            affiliation_features(org, ctx.kind, self.headings, field=field, proposed=proposed),
        )

    def _verdict(self, linear: Any, features: dict[str, float]) -> Verdict:
        if self.model.keep_all:
            return Verdict(True, 1.0, features)
        keep = linear.score(features) >= THRESHOLD
        return Verdict(keep, round(linear.confidence(features), 3), features)

    @property
    def collecting(self) -> bool:
        """Training: every candidate goes to the sink, areas as organisation candidates too."""
        return self.sink is not None and self.model.keep_all

    def record(self, what: str, verdict: Verdict, claim: Claim) -> None:
        if self.sink is not None:
            self.sink.append((what, verdict.features, claim))
