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

    def page(
        self,
        limit: int,
        offset: int = 0,
        actor: str | None = None,
        action: str | None = None,
        profile: str | None = None,
    ) -> tuple[list[AuditEntry], int]:
        """The newest entries first (of this actor, action, profile when given), and how many
        there are in all. A bulk entry names one profile; `profile` finds it by any of them
        only through that one (the page pairs each of its changes with its own profile)."""

        def narrowed(query: Any) -> Any:
            for column, wanted in (
                (audit_log.c.actor, actor),
                (audit_log.c.action, action),
                (audit_log.c.profile, profile),
            ):
                if wanted:
                    query = query.where(column == wanted)
            return query

        with self.db.begin() as conn:
            total = int(
                conn.execute(narrowed(sa.select(sa.func.count()).select_from(audit_log))).scalar()
                or 0
            )
            rows = (
                conn.execute(
                    narrowed(sa.select(audit_log))
                    .order_by(audit_log.c.id.desc())
                    .limit(limit)
                    .offset(offset)
                )
                .mappings()
                .all()
            )
        return [AuditEntry.from_mapping(r) for r in rows], total

    def actions(self) -> tuple[list[str], list[str]]:
        """The actors and the actions the log holds (for its filters)."""
        with self.db.begin() as conn:
            actors = conn.execute(sa.select(audit_log.c.actor).distinct().order_by("actor"))
            names = [str(a) for a in actors.scalars()]
            acts = conn.execute(sa.select(audit_log.c.action).distinct().order_by("action"))
            return names, [str(a) for a in acts.scalars()]
