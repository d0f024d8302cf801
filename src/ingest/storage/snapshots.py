"""Snapshots: bodies on disk once by sha256 (`<dir>/<sha[:2]>/<sha>`), rows in the database."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from ingest.errors import StoreError
from ingest.files import write_atomic
from ingest.models import Snapshot, iso_z
from ingest.storage.database import Database
from ingest.storage.rows import SnapshotRow
from ingest.storage.schema import snapshots

# built once: every fetched source stores its snapshot
_EXISTS = sa.select(snapshots.c.sha256).where(snapshots.c.sha256 == sa.bindparam("sha"))
_INSERT = snapshots.insert()


@cache
def _insert_new(dialect: str) -> Any:
    """The row unless it is there (one statement, not a look-up and an insert), for the
    dialect (built once; the PostgreSQL dialect's module is loaded only for PostgreSQL)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        insert: Any = postgresql.insert(snapshots)
    else:
        from sqlalchemy.dialects import sqlite

        insert = sqlite.insert(snapshots)
    # RETURNING: the row it inserted, none when it was there (rowcount is not that on psycopg)
    return insert.on_conflict_do_nothing(index_elements=["sha256"]).returning(snapshots.c.sha256)


class Snapshots:
    """The `snapshots` table and the folder of bodies."""

    def __init__(self, db: Database, folder: Path) -> None:
        self.db = db
        self.folder = folder

    def body_path(self, sha256: str) -> Path:
        return self.folder / sha256[:2] / sha256

    def put(self, snap: Snapshot) -> bool:
        """Store a snapshot once; True when it was new. The body is on disk before its row is
        committed (in a batch, flushed once for the batch: `Database.batch`); a body without a
        row (a crash between the two) is never trusted, but written again."""
        path = self.body_path(snap.sha256)
        row = {
            "sha256": snap.sha256,
            "url": snap.url,
            "requested_url": snap.requested_url,
            "status_code": snap.status_code,
            "headers": snap.headers,
            "size": len(snap.body),
            "fetched_at": iso_z(snap.fetched_at),
            "origin": snap.origin,
            "evidence_date": snap.evidence_date,
        }
        with self.db.begin() as conn:
            if not path.exists():  # a new snapshot, as a rule: its body, then its row if new
                self._write_body(path, snap.body)
                return conn.execute(_insert_new(conn.dialect.name), row).first() is not None
            if conn.execute(_EXISTS, {"sha": snap.sha256}).first():
                return False
            self._write_body(path, snap.body)  # a body without a row: not trusted, written
            conn.execute(_INSERT, row)
        return True

    def _write_body(self, path: Path, body: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        deferred = self.db.defer_sync(path)
        write_atomic(path, body, sync=not deferred)

    def get(self, sha256: str) -> Snapshot:
        """The snapshot with its body; StoreError when its row or its body is missing."""
        row = self.meta(sha256)
        if row is None:
            raise StoreError(f"no snapshot with sha256 '{sha256}'")
        path = self.body_path(sha256)
        try:
            body = path.read_bytes()
        except OSError as exc:
            raise StoreError(f"snapshot body '{path}' is missing: {exc}") from exc
        return Snapshot(
            url=row.url,
            requested_url=row.requested_url,
            status_code=row.status_code,
            headers=row.headers,
            body=body,
            sha256=sha256,
            fetched_at=row.fetched_at,  # type: ignore[arg-type]
            origin=row.origin,  # type: ignore[arg-type]
            evidence_date=row.evidence_date,
        )

    def meta(self, sha256: str) -> SnapshotRow | None:
        """A snapshot's row (URL, headers, fetched_at) without reading its body."""
        with self.db.begin() as conn:
            row = (
                conn.execute(sa.select(snapshots).where(snapshots.c.sha256 == sha256))
                .mappings()
                .first()
            )
        return SnapshotRow.from_mapping(row) if row else None

    def newest_of(self, url: str) -> SnapshotRow | None:
        """The stored snapshot of URL (asked for or served from) that is evidence for the latest
        day (of one day: the one stored last); None when there is none."""
        query = (
            sa.select(snapshots)
            .where(sa.or_(snapshots.c.url == url, snapshots.c.requested_url == url))
            .order_by(snapshots.c.evidence_date.desc(), snapshots.c.fetched_at.desc())
            .limit(1)
        )
        with self.db.begin() as conn:
            row = conn.execute(query).mappings().first()
        return SnapshotRow.from_mapping(row) if row else None

    def all_of(self, url: str, limit: int = 20) -> list[SnapshotRow]:
        """The stored snapshots of URL (asked for or served from), the latest evidence first."""
        query = (
            sa.select(snapshots)
            .where(sa.or_(snapshots.c.url == url, snapshots.c.requested_url == url))
            .order_by(snapshots.c.evidence_date.desc(), snapshots.c.fetched_at.desc())
            .limit(limit)
        )
        with self.db.begin() as conn:
            rows = conn.execute(query).mappings().all()
        return [SnapshotRow.from_mapping(r) for r in rows]
