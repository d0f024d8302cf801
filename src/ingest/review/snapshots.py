"""When a change's snapshot was taken, and whether it is history: a replayed recording (the
README's nightly, `--as-of`) is the page as it was on its own date, not as it is today. Shown on
the review page, the bulk confirmation and `ingest review show`."""

from __future__ import annotations

from dataclasses import dataclass

from ingest.storage import Store


@dataclass
class SnapshotTime:
    """When the change's snapshot was taken, and whether it is history (a replay, --as-of)."""

    fetched: str  # the day it was stored
    recorded: str | None  # a replayed recording's own date
    as_of: str | None  # the --as-of day a replay was asked for
    historical: bool

    @property
    def day(self) -> str:
        return self.recorded or self.fetched


def snapshot_time(store: Store, sha256: str | None) -> SnapshotTime | None:
    """The snapshot's date and whether it was replayed (then: historical, not today's page)."""
    meta = store.snapshot_meta(sha256) if sha256 else None
    if meta is None:
        return None
    headers = {str(k).lower(): str(v) for k, v in (meta.get("headers") or {}).items()}
    recorded = headers.get("x-ingest-replay-date")
    as_of = headers.get("x-ingest-replay-as-of")
    replayed = bool(recorded or as_of or headers.get("x-ingest-replay"))
    return SnapshotTime(
        fetched=str(meta["fetched_at"])[:10],
        recorded=recorded[:10] if recorded else None,
        as_of=as_of[:10] if as_of else None,
        historical=replayed,
    )


def snapshot_words(when: SnapshotTime) -> str:
    """One line for a person: `2024-01-30 (stored 2026-12-01): historical, a replayed ...`."""
    text = when.day
    if when.recorded and when.recorded != when.fetched:
        text += f" (stored {when.fetched})"
    if when.historical:
        as_of = f" as of {when.as_of}" if when.as_of else ""
        text += f": historical, a replayed recording{as_of}, not the page as it is today"
    return text
