"""Runs: each nightly run, when it started and ended, how (running, completed, failed,
cancelled, crashed), its Prefect flow run, the process that ran it, and its report."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ingest.models import iso_z, utcnow
from ingest.storage.database import Database
from ingest.storage.schema import runs


class Runs:
    """The `runs` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def start(
        self, run_id: str, kind: str, flow_run_id: str | None = None, process: str | None = None
    ) -> None:
        with self.db.begin() as conn:
            conn.execute(
                runs.insert().values(
                    id=run_id,
                    kind=kind,
                    started=iso_z(utcnow()),
                    status="running",
                    flow_run_id=flow_run_id,
                    process=process,
                )
            )

    def finish(self, run_id: str, report: dict[str, Any]) -> None:
        with self.db.begin() as conn:
            conn.execute(
                runs.update()
                .where(runs.c.id == run_id)
                .values(finished=iso_z(utcnow()), report=report, status="completed")
            )

    def end(self, run_id: str, status: str, reason: str) -> bool:
        """A run that did not complete: `failed`, `cancelled` or `crashed`, with why; False if
        it was no longer running (someone else ended it first)."""
        with self.db.begin() as conn:
            done = conn.execute(
                runs.update()
                .where(runs.c.id == run_id, runs.c.status == "running")
                .values(finished=iso_z(utcnow()), status=status, report={"error": reason})
            )
        return bool(done.rowcount)

    def running(self) -> list[dict[str, Any]]:
        """The runs recorded as running, oldest first."""
        query = (
            sa.select(runs.c.id, runs.c.kind, runs.c.started, runs.c.flow_run_id, runs.c.process)
            .where(runs.c.status == "running")
            .order_by(runs.c.started)
        )
        with self.db.begin() as conn:
            return [dict(row) for row in conn.execute(query).mappings()]
