"""Runs: each nightly or one-off run, when it started and finished, and its report."""

from __future__ import annotations

from typing import Any

from ingest.models import iso_z, utcnow
from ingest.storage.database import Database
from ingest.storage.schema import runs


class Runs:
    """The `runs` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def start(self, run_id: str, kind: str) -> None:
        with self.db.begin() as conn:
            conn.execute(runs.insert().values(id=run_id, kind=kind, started=iso_z(utcnow())))

    def finish(self, run_id: str, report: dict[str, Any]) -> None:
        with self.db.begin() as conn:
            conn.execute(
                runs.update()
                .where(runs.c.id == run_id)
                .values(finished=iso_z(utcnow()), report=report)
            )
