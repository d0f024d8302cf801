"""A removal's or a change's evidence: the stored snapshot that stated the line against the one
the change was found in, as a diff around the line (ingest.review.context.snapshot_diff).

The earlier snapshot is the one the profile's reference for this source accepted (its
`snapshot_sha256`), else the latest stored snapshot of the source before the change's own that
holds the line (the quote accepted, or the person's name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.errors import StoreError
from ingest.models import Profile
from ingest.review.context import DiffLine, snapshot_diff
from ingest.review.snapshots import SnapshotTime, snapshot_time
from ingest.review.web.evidence import TextCache, snapshot_sha256
from ingest.storage import ChangeRow, Store


@dataclass
class SnapshotDiff:
    lines: list[DiffLine] = field(default_factory=list)
    note: str = ""  # why there is no diff (nothing stored before, the same text)
    before: SnapshotTime | None = None
    after: SnapshotTime | None = None


def _anchors(row: ChangeRow, profile: Profile | None) -> tuple[str, ...]:
    found: list[str] = []
    for claim in (row.claim, row.previous):
        evidence = (claim or {}).get("evidence") or {}
        found.append(str(evidence.get("quote") or ""))
        found.append(str(((claim or {}).get("subject") or {}).get("name") or ""))
    if profile is not None:
        found += [
            str(r.quote or "") for r in profile.references if r.url == row.source_url and r.quote
        ]
        found += [profile.name, *profile.aliases]
    return tuple(dict.fromkeys(a for a in found if a.strip()))


def _text(cache: TextCache, sha256: str) -> str | None:
    try:
        page = cache.get(sha256)
    except StoreError:
        return None
    return None if page.pdf else page.text


def earlier_sha256(store: Store, cache: TextCache, row: ChangeRow, profile: Profile | None) -> str:
    """The stored snapshot that stated the line before the change's own ("" when none is)."""
    current = snapshot_sha256(row) or ""
    if profile is not None:
        for ref in profile.references:
            sha = ref.snapshot_sha256
            known = bool(sha) and store.snapshot_meta(str(sha)) is not None
            if ref.url == row.source_url and sha and sha != current and known:
                return str(sha)
    here = store.snapshot_meta(current) if current else None
    day = (here.evidence_date or here.fetched_at[:10]) if here else "9999"
    anchors = _anchors(row, profile)
    for meta in store.snapshots_of(row.source_url):
        if meta.sha256 == current or (meta.evidence_date or meta.fetched_at[:10]) > day:
            continue
        text = _text(cache, meta.sha256)
        if text and snapshot_diff(text, "", anchors) and any(a in text for a in anchors):
            return meta.sha256
    return ""


def change_diff(
    store: Store, cache: TextCache, row: ChangeRow, profile: Profile | None
) -> SnapshotDiff | None:
    """The diff for a `removed` or `changed` change (None for an addition)."""
    if row.kind not in ("removed", "changed"):
        return None
    current = snapshot_sha256(row) or ""
    earlier = earlier_sha256(store, cache, row, profile)
    if not current or not earlier:
        return SnapshotDiff(note="No earlier snapshot of this source is stored to compare with.")
    before, after = _text(cache, earlier), _text(cache, current)
    if before is None or after is None:
        return SnapshotDiff(note="The stored snapshots cannot be compared as text.")
    lines = snapshot_diff(before, after, _anchors(row, profile))
    return SnapshotDiff(
        lines=lines,
        note="" if lines else "The two snapshots have the same text.",
        before=snapshot_time(store, earlier),
        after=snapshot_time(store, current),
    )
