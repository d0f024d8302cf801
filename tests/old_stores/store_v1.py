"""Storage: a SQL database (SQLite file in INGEST_HOME by default) plus snapshot bodies on disk.

Snapshot bodies are stored once, by sha256, under `<home>/snapshots/<sha[:2]>/<sha>`; the database
holds sources, fetches, snapshots, claims, changes, decisions, runs and an append-only audit log.
The schema is created and migrated by `Store.open`: each migration runs once, in order, and the
version reached is kept in `schema_version`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ingest.errors import StoreError
from ingest.models import Change, Claim, Snapshot, Source, iso_z, stable_hash, utcnow
from ingest.settings import Settings

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)

sources = sa.Table(
    "sources",
    metadata,
    sa.Column("url", sa.Text, primary_key=True),
    sa.Column("extractor", sa.Text),
    sa.Column("meta", sa.JSON, nullable=False, default=dict),  # title, publisher, kind, ...
    sa.Column("etag", sa.Text),
    sa.Column("last_modified", sa.Text),
    sa.Column("last_sha256", sa.Text),
    sa.Column("last_status", sa.Text),  # fetched / unchanged / failed
    sa.Column("last_checked", sa.Text),
    sa.Column("people_count", sa.Integer),  # distinct people in the last healthy snapshot
    sa.Column("fail_streak", sa.Integer, nullable=False, default=0),
    sa.Column("last_error", sa.Text),
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("requested_url", sa.Text),
    sa.Column("status_code", sa.Integer, nullable=False),
    sa.Column("headers", sa.JSON, nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("fetched_at", sa.Text, nullable=False),
)

fetches = sa.Table(
    "fetches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.Text),
    sa.Column("url", sa.Text, nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("sha256", sa.String(64)),
    sa.Column("http_status", sa.Integer),
    sa.Column("error", sa.Text),
    sa.Column("at", sa.Text, nullable=False),
)

claims = sa.Table(
    "claims",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # hash of snapshot + claim
    sa.Column("snapshot_sha256", sa.String(64), nullable=False, index=True),
    sa.Column("source_url", sa.Text, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("extractor", sa.Text, nullable=False),
    sa.Column("predicate", sa.Text, nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)

changes = sa.Table(
    "changes",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("profile", sa.Text, nullable=False, index=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("claim", sa.JSON),
    sa.Column("previous", sa.JSON),
    sa.Column("source_url", sa.Text, nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False, index=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("evidence_key", sa.Text, nullable=False),
    sa.Column("snapshot_sha256", sa.String(64)),
)

decisions = sa.Table(
    "decisions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("change_id", sa.String(32), nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("editor", sa.Text, nullable=False),
    sa.Column("note", sa.Text),
    sa.Column("decided_at", sa.Text, nullable=False),
    sa.Column("profile_path", sa.Text),
    sa.Column("profile_before", sa.Text),  # exact file text before an accept (for undo)
    sa.Column("profile_after", sa.Text),
)

audit_log = sa.Table(
    "audit_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Text, nullable=False),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("change_id", sa.String(32)),
    sa.Column("profile", sa.Text),
    sa.Column("detail", sa.JSON, nullable=False),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("started", sa.Text, nullable=False),
    sa.Column("finished", sa.Text),
    sa.Column("report", sa.JSON),
)

_APPEND_ONLY_SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
]


def _migration_1(conn: Connection) -> None:
    metadata.create_all(conn)
    if conn.dialect.name == "sqlite":
        for ddl in _APPEND_ONLY_SQLITE:
            conn.exec_driver_sql(ddl)


MIGRATIONS: list[Callable[[Connection], None]] = [_migration_1]


class Store:
    """The database and the snapshot folder, opened together."""

    def __init__(self, engine: Engine, snapshots_dir: Path) -> None:
        self.engine = engine
        self.snapshots_dir = snapshots_dir

    @classmethod
    def open(cls, settings: Settings) -> Store:
        settings.home.mkdir(parents=True, exist_ok=True)
        url = settings.db_url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        try:
            engine = sa.create_engine(url, **kwargs)
            if url.startswith("sqlite"):
                sa.event.listen(engine, "connect", _sqlite_pragmas)
            store = cls(engine, settings.snapshots_dir)
            store.migrate()
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot open database '{url}': {exc}") from exc
        return store

    def close(self) -> None:
        self.engine.dispose()

    def migrate(self) -> int:
        with self.engine.begin() as conn:
            schema_version.create(conn, checkfirst=True)
            current = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0
            for number, step in enumerate(MIGRATIONS, start=1):
                if number > current:
                    step(conn)
                    conn.execute(schema_version.delete())
                    conn.execute(schema_version.insert().values(version=number))
                    current = number
        return current

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except sa.exc.OperationalError as exc:
            raise StoreError(f"database error: {exc.orig}") from exc

    # -- sources -----------------------------------------------------------------------------

    def upsert_source(self, source: Source) -> None:
        meta = source.to_json()
        with self.begin() as conn:
            row = conn.execute(sa.select(sources.c.url).where(sources.c.url == source.url)).first()
            if row is None:
                conn.execute(
                    sources.insert().values(
                        url=source.url, extractor=source.extractor, meta=meta, fail_streak=0
                    )
                )
            else:
                conn.execute(
                    sources.update()
                    .where(sources.c.url == source.url)
                    .values(extractor=source.extractor, meta=meta)
                )

    def source_state(self, url: str) -> dict[str, Any] | None:
        with self.begin() as conn:
            row = conn.execute(sa.select(sources).where(sources.c.url == url)).mappings().first()
        return dict(row) if row else None

    def update_source_state(self, url: str, **values: Any) -> None:
        with self.begin() as conn:
            row = conn.execute(sa.select(sources.c.url).where(sources.c.url == url)).first()
            if row is None:
                conn.execute(sources.insert().values(url=url, meta={}, fail_streak=0, **values))
            else:
                conn.execute(sources.update().where(sources.c.url == url).values(**values))

    def record_fetch(
        self,
        url: str,
        status: str,
        *,
        sha256: str | None = None,
        http_status: int | None = None,
        error: str | None = None,
        run_id: str | None = None,
    ) -> None:
        with self.begin() as conn:
            conn.execute(
                fetches.insert().values(
                    url=url,
                    status=status,
                    sha256=sha256,
                    http_status=http_status,
                    error=error,
                    run_id=run_id,
                    at=iso_z(utcnow()),
                )
            )

    # -- snapshots ---------------------------------------------------------------------------

    def _body_path(self, sha256: str) -> Path:
        return self.snapshots_dir / sha256[:2] / sha256

    def put_snapshot(self, snap: Snapshot) -> bool:
        """Store a snapshot once; True when it was new."""
        path = self._body_path(snap.sha256)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, snap.body)
        with self.begin() as conn:
            exists = conn.execute(
                sa.select(snapshots.c.sha256).where(snapshots.c.sha256 == snap.sha256)
            ).first()
            if exists:
                return False
            conn.execute(
                snapshots.insert().values(
                    sha256=snap.sha256,
                    url=snap.url,
                    requested_url=snap.requested_url,
                    status_code=snap.status_code,
                    headers=snap.headers,
                    size=len(snap.body),
                    fetched_at=iso_z(snap.fetched_at),
                )
            )
        return True

    def get_snapshot(self, sha256: str) -> Snapshot:
        with self.begin() as conn:
            row = (
                conn.execute(sa.select(snapshots).where(snapshots.c.sha256 == sha256))
                .mappings()
                .first()
            )
        if row is None:
            raise StoreError(f"no snapshot with sha256 '{sha256}'")
        path = self._body_path(sha256)
        try:
            body = path.read_bytes()
        except OSError as exc:
            raise StoreError(f"snapshot body '{path}' is missing: {exc}") from exc
        return Snapshot(
            url=row["url"],
            requested_url=row["requested_url"],
            status_code=row["status_code"],
            headers=row["headers"],
            body=body,
            sha256=sha256,
            fetched_at=row["fetched_at"],
        )

    # -- claims ------------------------------------------------------------------------------

    def put_claims(self, snapshot_sha256: str, source_url: str, found: list[Claim]) -> int:
        """Store the claims extracted from one snapshot (idempotent); returns how many were new."""
        rows = []
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
        with self.begin() as conn:
            have = set(
                conn.execute(
                    sa.select(claims.c.id).where(claims.c.snapshot_sha256 == snapshot_sha256)
                ).scalars()
            )
            new = [r for r in rows if r["id"] not in have]
            if new:
                conn.execute(claims.insert(), new)
        return len(new)

    def claims_for(self, snapshot_sha256: str) -> list[Claim]:
        with self.begin() as conn:
            bodies = conn.execute(
                sa.select(claims.c.body)
                .where(claims.c.snapshot_sha256 == snapshot_sha256)
                .order_by(claims.c.seq)
            ).scalars()
            return [Claim.model_validate(b) for b in bodies]

    # -- changes -----------------------------------------------------------------------------

    def get_change(self, change_id: str, conn: Connection | None = None) -> dict[str, Any] | None:
        query = sa.select(changes).where(changes.c.id == change_id)
        if conn is not None:
            row = conn.execute(query).mappings().first()
        else:
            with self.begin() as own:
                row = own.execute(query).mappings().first()
        return dict(row) if row else None

    def find_changes(self, change_id_prefix: str) -> list[str]:
        with self.begin() as conn:
            return list(
                conn.execute(
                    sa.select(changes.c.id).where(
                        changes.c.id.startswith(change_id_prefix, autoescape=True)
                    )
                ).scalars()
            )

    def list_changes(
        self,
        status: str | None = None,
        profile: str | None = None,
        source_url: str | None = None,
        kind: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Change]:
        query = sa.select(changes).order_by(changes.c.source_url, changes.c.created, changes.c.id)
        if status:
            query = query.where(changes.c.status == status)
        if profile:
            query = query.where(changes.c.profile == profile)
        if source_url:
            query = query.where(changes.c.source_url == source_url)
        if kind:
            query = query.where(changes.c.kind == kind)
        if limit is not None:
            query = query.limit(limit).offset(offset)
        with self.begin() as conn:
            rows = conn.execute(query).mappings().all()
        return [row_to_change(r) for r in rows]

    def audit(
        self,
        conn: Connection,
        actor: str,
        action: str,
        *,
        change_id: str | None = None,
        profile: str | None = None,
        **detail: Any,
    ) -> None:
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

    def audit_entries(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.begin() as conn:
            rows = (
                conn.execute(sa.select(audit_log).order_by(audit_log.c.id.desc()).limit(limit))
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]

    # -- runs --------------------------------------------------------------------------------

    def start_run(self, run_id: str, kind: str) -> None:
        with self.begin() as conn:
            conn.execute(runs.insert().values(id=run_id, kind=kind, started=iso_z(utcnow())))

    def finish_run(self, run_id: str, report: dict[str, Any]) -> None:
        with self.begin() as conn:
            conn.execute(
                runs.update()
                .where(runs.c.id == run_id)
                .values(finished=iso_z(utcnow()), report=report)
            )


def row_to_change(row: Any) -> Change:
    return Change(
        id=row["id"],
        profile=row["profile"],
        kind=row["kind"],
        claim=row["claim"],
        previous=row["previous"],
        source_url=row["source_url"],
        status=row["status"],
        created=row["created"],
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old or the new content, never a mix."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
