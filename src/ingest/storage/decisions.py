"""Decisions: every accept, reject and undo an editor took, never changed or deleted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.storage.database import Database
from ingest.storage.rows import DecisionRow, HistoryEntry
from ingest.storage.schema import changes, decisions


@dataclass(frozen=True)
class NewDecision:
    """A decision to record."""

    change_id: str
    status: str  # accepted, rejected, undone
    editor: str
    note: str | None
    decided_at: str
    profile_path: str | None = None
    profile_before: str | None = None
    profile_after: str | None = None
    bulk: str | None = None


class Decisions:
    """The `decisions` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, conn: Connection, decision: NewDecision) -> None:
        conn.execute(
            decisions.insert().values(
                change_id=decision.change_id,
                status=decision.status,
                editor=decision.editor,
                note=decision.note,
                decided_at=decision.decided_at,
                profile_path=decision.profile_path,
                profile_before=decision.profile_before,
                profile_after=decision.profile_after,
                bulk=decision.bulk,
            )
        )

    def last_decider(self, conn: Connection, change_id: str) -> str | None:
        """Who took the latest decision on the change."""
        found = conn.execute(
            sa.select(decisions.c.editor)
            .where(decisions.c.change_id == change_id)
            .order_by(decisions.c.id.desc())
            .limit(1)
        ).scalar()
        return None if found is None else str(found)

    def history(self, change_id: str) -> list[HistoryEntry]:
        """The decisions taken on a change, oldest first (without the profile texts)."""
        with self.db.begin() as conn:
            rows = (
                conn.execute(
                    sa.select(
                        decisions.c.status,
                        decisions.c.editor,
                        decisions.c.note,
                        decisions.c.decided_at,
                    )
                    .where(decisions.c.change_id == change_id)
                    .order_by(decisions.c.id)
                )
                .mappings()
                .all()
            )
        return [HistoryEntry.from_mapping(r) for r in rows]

    def last_standing(self, conn: Connection, editor: str) -> DecisionRow | None:
        """The editor's latest accept or reject that is still the last word on its change."""
        query = _standing(editor).order_by(decisions.c.id.desc()).limit(1)
        row = conn.execute(query).mappings().first()
        return DecisionRow.from_mapping(row) if row else None

    def standing_in_bulk(self, conn: Connection, editor: str, bulk: str) -> list[DecisionRow]:
        """The editor's standing decisions of one bulk action, oldest first."""
        query = _standing(editor).where(decisions.c.bulk == bulk).order_by(decisions.c.id)
        return [DecisionRow.from_mapping(r) for r in conn.execute(query).mappings().all()]


def _standing(editor: str) -> sa.Select[Any]:
    """The editor's accepts and rejects that are still the last word on their change."""
    later = decisions.alias("later")
    newer_exists = (
        sa.select(later.c.id)
        .where(later.c.change_id == decisions.c.change_id, later.c.id > decisions.c.id)
        .exists()
    )
    return (
        sa.select(decisions)
        .join(changes, changes.c.id == decisions.c.change_id)
        .where(
            decisions.c.editor == editor,
            decisions.c.status.in_(("accepted", "rejected")),
            changes.c.status == decisions.c.status,
            ~newer_exists,
        )
    )
