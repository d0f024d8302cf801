"""The review queue's rules: each change queued once, rejections remembered, stale flags retired.

- a change id already pending is refreshed (its latest evidence kept), not queued twice;
- a rejected change seen again stays rejected unless its evidence changed, in which case it is
  proposed again (status back to `pending`, an audit entry says why);
- an accepted change proposed again means the profile no longer holds what was accepted (a later
  removal was accepted, say a council member who leaves and is elected again): it is reopened;
- a pending change of this source that the latest healthy snapshot no longer proposes is
  `superseded`: the editor is never asked about a fact the source stopped stating.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.diff.changes import evidence_key
from ingest.fact_identity import fact_key
from ingest.models import Change, iso_z, utcnow
from ingest.storage import ChangeValues, Store


@dataclass
class EnqueueResult:
    new: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)
    reopened: list[str] = field(default_factory=list)
    kept_decided: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)

    @property
    def queued(self) -> list[str]:
        """Changes that are pending because of this run and were not pending before."""
        return self.new + self.reopened


def enqueue(
    store: Store,
    proposed: list[Change],
    source_url: str,
    snapshot_sha256: str | None,
    *,
    retire_stale: bool = True,
    actor: str = "ingest",
) -> EnqueueResult:
    result = EnqueueResult()
    now = iso_z(utcnow())
    proposed_ids = {c.id for c in proposed}
    with store.begin() as conn:
        for change in proposed:
            key = evidence_key(change)
            row = store.get_change(change.id, conn)
            values = ChangeValues(
                claim=change.claim,
                previous=change.previous,
                updated=now,
                evidence_key=key,
                snapshot_sha256=snapshot_sha256,
                fact=fact_key(change.to_json()),
            )
            if row is None:
                store.insert_change(conn, change, values, now)
                result.new.append(change.id)
            elif row.status == "pending":
                store.refresh_change(conn, change.id, values)
                result.refreshed.append(change.id)
            elif row.status in ("superseded", "accepted") or row.evidence_key != key:
                store.reopen_change(conn, change.id, values)
                why = {
                    "superseded": "stated again",
                    "accepted": "proposed again: the profile no longer holds it",
                }.get(row.status, "evidence changed")
                store.audit(
                    conn,
                    actor,
                    "reopened",
                    change_id=change.id,
                    profile=change.profile,
                    previous_status=row.status,
                    reason=why,
                )
                result.reopened.append(change.id)
            else:
                result.kept_decided.append(change.id)
        if retire_stale:
            for change_id, profile in store.pending_of_source(conn, source_url):
                if change_id in proposed_ids:
                    continue
                if not store.move_change(conn, change_id, "pending", "superseded", now):
                    continue
                store.audit(
                    conn,
                    actor,
                    "superseded",
                    change_id=change_id,
                    profile=profile,
                    reason="the source no longer states it",
                )
                result.superseded.append(change_id)
    return result
