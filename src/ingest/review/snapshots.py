"""When a change's snapshot was taken, where its bytes came from, and whether it is history: a
replayed recording (the README's nightly, `--as-of`) is the page as it was on its own date, and so
is a local file (`ingest run --file`) that is evidence for an earlier day than it was stored on,
not the page as it is today. Shown on the review page, the bulk confirmation and `ingest review
show`."""

from __future__ import annotations

from dataclasses import dataclass

from ingest.storage import Store


@dataclass
class SnapshotTime:
    """When the change's snapshot was taken, and whether it is history (a replay, --as-of, a
    local file of an earlier day)."""

    fetched: str  # the day it was stored
    recorded: str | None  # a replayed recording's own date, or the day a local file is for
    as_of: str | None  # the --as-of day a replay was asked for
    historical: bool
    origin: str = "network"  # where its bytes came from: network, replay or file

    @property
    def day(self) -> str:
        return self.recorded or self.fetched

    @property
    def from_file(self) -> bool:
        return self.origin == "file"


def snapshot_time(store: Store, sha256: str | None) -> SnapshotTime | None:
    """The snapshot's date, its origin and whether it is historical (replayed, or a local file
    that is evidence for a day before it was stored)."""
    meta = store.snapshot_meta(sha256) if sha256 else None
    if meta is None:
        return None
    headers = {str(k).lower(): str(v) for k, v in (meta.get("headers") or {}).items()}
    recorded = headers.get("x-ingest-replay-date")
    as_of = headers.get("x-ingest-replay-as-of")
    replayed = bool(recorded or as_of or headers.get("x-ingest-replay"))
    fetched = str(meta["fetched_at"])[:10]
    origin = meta.origin or ("replay" if replayed else "network")
    if origin == "file" and meta.evidence_date:
        recorded = meta.evidence_date
    return SnapshotTime(
        fetched=fetched,
        recorded=recorded[:10] if recorded else None,
        as_of=as_of[:10] if as_of else None,
        historical=replayed or (origin == "file" and (recorded or fetched)[:10] < fetched),
        origin=origin,
    )


def snapshot_words(when: SnapshotTime) -> str:
    """One line for a person: `2024-01-30 (stored 2026-12-01): historical, a replayed ...`, or
    `... historical, read from a local file, not the page as it is today`."""
    text = when.day
    if when.recorded and when.recorded != when.fetched:
        text += f" (stored {when.fetched})"
    if when.from_file:
        if when.historical:
            text += ": historical, read from a local file, not the page as it is today"
        else:
            text += ": read from a local file"
    elif when.historical:
        as_of = f" as of {when.as_of}" if when.as_of else ""
        text += f": historical, a replayed recording{as_of}, not the page as it is today"
    return text
