"""The audit log: append-only (triggers refuse UPDATE and DELETE; see schema)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.models import iso_z, utcnow
from ingest.storage.database import Database
from ingest.storage.rows import AuditEntry
from ingest.storage.schema import audit_log


class AuditLog:
    """The `audit_log` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def append(
        self,
        conn: Connection,
        actor: str,
        action: str,
        *,
        change_id: str | None = None,
        profile: str | None = None,
        **detail: Any,
    ) -> None:
        """One entry, in the caller's transaction (it stands or falls with what it records)."""
        conn.execute(
            audit_log.insert().values(
                at=iso_z(utcnow()),
                actor=actor,
                action=action,
                change_id=change_id,
                profile=profile,
                detail=detail,
            )
        )

    def page(self, limit: int, offset: int = 0) -> tuple[list[AuditEntry], int]:
        """The newest entries first, and how many there are in all."""
        with self.db.begin() as conn:
            total = int(
                conn.execute(sa.select(sa.func.count()).select_from(audit_log)).scalar() or 0
            )
            rows = (
                conn.execute(
                    sa.select(audit_log).order_by(audit_log.c.id.desc()).limit(limit).offset(offset)
                )
                .mappings()
                .all()
            )
        return [AuditEntry.from_mapping(r) for r in rows], total
