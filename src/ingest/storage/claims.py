"""Claims: what each snapshot was read to state, stored once per snapshot and claim."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ingest.models import Claim, stable_hash
from ingest.storage.database import Database
from ingest.storage.schema import claims

_OF_SNAPSHOT = (  # built once: every source's check reads one or two snapshots' claims
    sa.select(claims.c.body)
    .where(claims.c.snapshot_sha256 == sa.bindparam("sha"))
    .order_by(claims.c.seq)
)
_INSERT = claims.insert()


class Claims:
    """The `claims` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def put(
        self, snapshot_sha256: str, source_url: str, found: list[Claim], *, fresh: bool = False
    ) -> int:
        """Store the claims extracted from one snapshot (idempotent); returns how many were new.
        `fresh`: the caller knows none of the snapshot's are stored (not looked up)."""
        rows: list[dict[str, Any]] = []
        for seq, claim in enumerate(found):
            body = claim.to_json()
            rows.append(
                {
                    "id": stable_hash(snapshot_sha256, body),
                    "snapshot_sha256": snapshot_sha256,
                    "source_url": source_url,
                    "seq": seq,
                    "extractor": claim.extractor,
                    "predicate": claim.predicate,
                    "body": body,
                }
            )
        if not rows:
            return 0
        with self.db.begin() as conn:
            have = (
                set()
                if fresh
                else set(
                    conn.execute(
                        sa.select(claims.c.id).where(claims.c.snapshot_sha256 == snapshot_sha256)
                    ).scalars()
                )
            )
            new = [r for r in rows if r["id"] not in have]
            if new:
                conn.execute(_INSERT, new)
        return len(new)

    def of_snapshot(self, snapshot_sha256: str) -> list[Claim]:
        with self.db.begin() as conn:
            bodies = conn.execute(_OF_SNAPSHOT, {"sha": snapshot_sha256}).scalars()
            return [Claim.model_validate(b) for b in bodies]
