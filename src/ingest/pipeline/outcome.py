"""What a run did with one source: the record the report, the CLI and the flows share."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

OutcomeStatus = Literal["fetched", "unchanged", "failed", "skipped"]


@dataclass
class SourceOutcome:
    url: str
    status: OutcomeStatus
    snapshot: str | None = None
    final_url: str | None = None
    extractor: str | None = None
    claims: int = 0
    people: int = 0
    changes: list[dict[str, Any]] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    unknown_people: list[str] = field(default_factory=list)
    error: str | None = None
    # a one-off run on a local file (`ingest run --file`): the file, the snapshot's origin
    # ("file") and the day it is evidence for; warnings for the editor (a file stating no date)
    file: str | None = None
    origin: str | None = None
    evidence_date: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
