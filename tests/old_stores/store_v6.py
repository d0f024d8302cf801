"""Storage: a SQL database (SQLite file in INGEST_HOME by default, or PostgreSQL through
`INGEST_DATABASE_URL=postgresql+psycopg://...`) plus snapshot bodies on disk.

Snapshot bodies are stored once, by sha256, under `<home>/snapshots/<sha[:2]>/<sha>`; the database
holds sources, fetches, snapshots, claims, changes, decisions, runs and an append-only audit log.
The schema is created and migrated by `Store.open`: each migration runs once, in order, and the
version reached is kept in `schema_version`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ingest.errors import StoreError
from ingest.files import write_atomic
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
    sa.Column("final_url", sa.Text),  # added by migration 2
    # what the last full check of an unchanged-able snapshot settled to (migration 4; see
    # ingest.pipeline.settled): lets an unchanged source skip extraction, diff and queue next time
    sa.Column("settled", sa.JSON),
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
    # the fact it states (ingest.review.grouping.fact_key; migration 6): one decision per fact
    sa.Column("fact", sa.String(32)),
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
    # decisions taken in one action (a fact's changes, a bulk accept) share it (migration 6):
    # undo takes them back together
    sa.Column("bulk", sa.String(32)),
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

editors = sa.Table(
    "editors",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("password_hash", sa.Text, nullable=False),  # scrypt$n$r$p$salt$hash (base64)
    sa.Column("created", sa.Text, nullable=False),
    # random, in every session cookie of the account (migration 5): a new one on sign-out, on a
    # password change and for a re-created account ends every session signed in before
    sa.Column("session_epoch", sa.Text),
)

# The review page's queue: filter by status (and person, source, kind), order by source, created,
# id, page with LIMIT/OFFSET or seek to the next change; each is one index range.
REVIEW_INDEXES = [
    sa.Index(
        "ix_changes_queue", changes.c.status, changes.c.source_url, changes.c.created, changes.c.id
    ),
    sa.Index("ix_changes_status_profile", changes.c.status, changes.c.profile),
    sa.Index("ix_changes_status_kind", changes.c.status, changes.c.kind),
    sa.Index("ix_decisions_editor", decisions.c.editor, decisions.c.id),
]

_APPEND_ONLY_SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
]

# PostgreSQL: one PL/pgSQL function raising an integrity error (SQLSTATE 23000, so SQLAlchemy
# raises IntegrityError as it does for SQLite's RAISE(ABORT)), fired before any UPDATE, DELETE or
# TRUNCATE of the audit log.
_APPEND_ONLY_POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
           RAISE EXCEPTION 'audit_log is append-only'
               USING ERRCODE = 'integrity_constraint_violation';
       END
       $$""",
    "DROP TRIGGER IF EXISTS audit_log_no_update ON audit_log",
    """CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
       FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()""",
    "DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log",
    """CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
       FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()""",
]


def _migration_1(conn: Connection) -> None:
    metadata.create_all(conn)
    if conn.dialect.name == "sqlite":
        for ddl in _APPEND_ONLY_SQLITE:
            conn.exec_driver_sql(ddl)
    elif conn.dialect.name == "postgresql":
        for ddl in _APPEND_ONLY_POSTGRESQL:
            conn.exec_driver_sql(ddl)


def _migration_2(conn: Connection) -> None:
    """Remember the URL a source was finally served from: validators belong to that hop."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("sources")}
    if "final_url" not in columns:
        conn.exec_driver_sql("ALTER TABLE sources ADD COLUMN final_url TEXT")


def _migration_3(conn: Connection) -> None:
    """Editor accounts for the review page, and the indexes its queue needs."""
    editors.create(conn, checkfirst=True)
    for index in REVIEW_INDEXES:
        index.create(conn, checkfirst=True)


def _migration_4(conn: Connection) -> None:
    """What each source's last full check settled to (ingest.pipeline.settled)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("sources")}
    if "settled" not in columns:
        conn.exec_driver_sql("ALTER TABLE sources ADD COLUMN settled JSON")


def _new_session_epoch() -> str:
    return secrets.token_urlsafe(16)


def _migration_5(conn: Connection) -> None:
    """A session epoch per editor account (sessions can be revoked); the sessions signed in
    before it carry none, so they end: each editor signs in once more."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("editors")}
    if "session_epoch" not in columns:
        conn.exec_driver_sql("ALTER TABLE editors ADD COLUMN session_epoch TEXT")
    names = conn.execute(
        sa.select(editors.c.name).where(editors.c.session_epoch.is_(None))
    ).scalars()
    for name in list(names):
        conn.execute(
            editors.update()
            .where(editors.c.name == name)
            .values(session_epoch=_new_session_epoch())
        )


FACT_INDEX = sa.Index("ix_changes_status_fact", changes.c.status, changes.c.fact)
BULK_INDEX = sa.Index("ix_decisions_bulk", decisions.c.bulk)


def _migration_6(conn: Connection) -> None:
    """The fact each change states (one decision per fact) and the action a decision was part
    of (undo a bulk whole); existing changes get their fact computed here."""
    from ingest.fact_identity import fact_key

    for table, column, sql_type in (
        ("changes", "fact", "VARCHAR(32)"),
        ("decisions", "bulk", "VARCHAR(32)"),
    ):
        columns = {c["name"] for c in sa.inspect(conn).get_columns(table)}
        if column not in columns:
            conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column} {sql_type}")
    rows = (
        conn.execute(
            sa.select(
                changes.c.id, changes.c.profile, changes.c.kind, changes.c.claim, changes.c.previous
            ).where(changes.c.fact.is_(None))
        )
        .mappings()
        .all()
    )
    for row in rows:
        conn.execute(
            changes.update().where(changes.c.id == row["id"]).values(fact=fact_key(dict(row)))
        )
    FACT_INDEX.create(conn, checkfirst=True)
    BULK_INDEX.create(conn, checkfirst=True)


MIGRATIONS: list[Callable[[Connection], None]] = [
    _migration_1,
    _migration_2,
    _migration_3,
    _migration_4,
    _migration_5,
    _migration_6,
]

_MIGRATION_LOCK = 0x1A6E57  # PostgreSQL advisory lock key held while migrating


def _source_rows(conn: Connection, urls: list[str]) -> dict[str, dict[str, Any]]:
    """The `sources` rows of these URLs by URL, 500 to a query."""
    out: dict[str, dict[str, Any]] = {}
    for start in range(0, len(urls), 500):
        query = sa.select(sources).where(sources.c.url.in_(urls[start : start + 500]))
        out.update((row["url"], dict(row)) for row in conn.execute(query).mappings())
    return out


class Store:
    """The database and the snapshot folder, opened together."""

    def __init__(self, engine: Engine, snapshots_dir: Path) -> None:
        self.engine = engine
        self.snapshots_dir = snapshots_dir

    @classmethod
    def open(cls, settings: Settings) -> Store:
        settings.home.mkdir(parents=True, exist_ok=True)
        url = database_url(settings.db_url)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True  # a server restart between two uses is not an error
        try:
            engine = sa.create_engine(url, **kwargs)
            if url.startswith("sqlite"):
                sa.event.listen(engine, "connect", _sqlite_pragmas)
            store = cls(engine, settings.snapshots_dir)
            store.migrate()
        except sa.exc.SQLAlchemyError as exc:
            shown = _without_password(url)
            raise StoreError(f"cannot open database '{shown}': {exc}") from exc
        return store

    def close(self) -> None:
        self.engine.dispose()

    def migrate(self) -> int:
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":  # two processes opening a new database at once
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
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
        self.upsert_sources([source])

    def upsert_sources(self, found: list[Source]) -> None:
        """`upsert_source` for many, in one transaction; rows already saying the same are left."""
        with self.begin() as conn:
            known = _source_rows(conn, [source.url for source in found])
            for source in found:
                meta, row = source.to_json(), known.get(source.url)
                if row is None:
                    conn.execute(
                        sources.insert().values(
                            url=source.url, extractor=source.extractor, meta=meta, fail_streak=0
                        )
                    )
                elif row["extractor"] != source.extractor or row["meta"] != meta:
                    conn.execute(
                        sources.update()
                        .where(sources.c.url == source.url)
                        .values(extractor=source.extractor, meta=meta)
                    )

    def discovered_sources(self) -> list[Source]:
        """Sources found in feeds (their registry entry lives in the database), oldest first."""
        with self.begin() as conn:
            metas = conn.execute(sa.select(sources.c.meta).order_by(sources.c.url)).scalars()
            return [Source.model_validate(m) for m in metas if m and m.get("feed")]

    def source_state(self, url: str) -> dict[str, Any] | None:
        return self.source_states([url]).get(url)

    def source_states(self, urls: list[str]) -> dict[str, dict[str, Any]]:
        """`source_state` of many URLs in one query (those with no row are left out)."""
        with self.begin() as conn:
            return _source_rows(conn, urls)

    def record_unchanged(self, checks: list[dict[str, Any]], run_id: str | None = None) -> None:
        """Many unchanged sources checked at once, in one transaction: each dict holds `url`,
        `sha256`, `http_status`, `etag`, `last_modified`, `final_url` (the row must exist)."""
        if not checks:
            return
        now = iso_z(utcnow())
        with self.begin() as conn:
            conn.execute(
                sources.update()
                .where(sources.c.url == sa.bindparam("u"))
                .values(
                    last_status="unchanged",
                    last_checked=now,
                    fail_streak=0,
                    last_error=None,
                    etag=sa.bindparam("e"),
                    last_modified=sa.bindparam("m"),
                    final_url=sa.bindparam("f"),
                ),
                [
                    {"u": c["url"], "e": c["etag"], "m": c["last_modified"], "f": c["final_url"]}
                    for c in checks
                ],
            )
            conn.execute(
                fetches.insert(),
                [
                    {
                        "url": c["url"],
                        "status": "unchanged",
                        "sha256": c["sha256"],
                        "http_status": c["http_status"],
                        "error": None,
                        "run_id": run_id,
                        "at": now,
                    }
                    for c in checks
                ],
            )

    def change_statuses(self, ids: list[str]) -> dict[str, str]:
        """The status of each of these changes that exists, in one query per 500."""
        out: dict[str, str] = {}
        with self.begin() as conn:
            for start in range(0, len(ids), 500):
                query = sa.select(changes.c.id, changes.c.status).where(
                    changes.c.id.in_(ids[start : start + 500])
                )
                out.update((row.id, row.status) for row in conn.execute(query))
        return out

    def update_source_state(self, url: str, **values: Any) -> None:
        with self.begin() as conn:
            row = conn.execute(sa.select(sources.c.url).where(sources.c.url == url)).first()
            if row is None:
                conn.execute(
                    sources.insert().values({"url": url, "meta": {}, "fail_streak": 0} | values)
                )
            else:
                conn.execute(sources.update().where(sources.c.url == url).values(**values))

    def latest_sha_for_extractor(self, extractor: str, exclude_url: str) -> str | None:
        """The last healthy snapshot of another source read by the same extractor."""
        with self.begin() as conn:
            return conn.execute(
                sa.select(sources.c.last_sha256)
                .where(
                    sources.c.extractor == extractor,
                    sources.c.url != exclude_url,
                    sources.c.last_sha256.is_not(None),
                )
                .order_by(sources.c.last_checked.desc())
                .limit(1)
            ).scalar()

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

    def snapshot_meta(self, sha256: str) -> dict[str, Any] | None:
        """A snapshot's row (URL, headers, fetched_at) without reading its body."""
        with self.begin() as conn:
            row = (
                conn.execute(sa.select(snapshots).where(snapshots.c.sha256 == sha256))
                .mappings()
                .first()
            )
        return dict(row) if row else None

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

    # -- editors -----------------------------------------------------------------------------

    def add_editor(self, name: str, password_hash: str) -> bool:
        """Create an editor account, or set its password hash; True when it is new. Either way
        the account gets a new random session epoch: no session signed in before is honoured."""
        epoch = _new_session_epoch()
        with self.begin() as conn:
            found = conn.execute(sa.select(editors.c.name).where(editors.c.name == name)).first()
            if found is None:
                conn.execute(
                    editors.insert().values(
                        name=name,
                        password_hash=password_hash,
                        created=iso_z(utcnow()),
                        session_epoch=epoch,
                    )
                )
            else:
                conn.execute(
                    editors.update()
                    .where(editors.c.name == name)
                    .values(password_hash=password_hash, session_epoch=epoch)
                )
            self.audit(
                conn, "ingest", "editor_added" if found is None else "editor_password", editor=name
            )
        return found is None

    def editor_hash(self, name: str) -> str | None:
        with self.begin() as conn:
            return conn.execute(
                sa.select(editors.c.password_hash).where(editors.c.name == name)
            ).scalar()

    def session_epoch(self, name: str) -> str | None:
        """The account's current session epoch (None: no such account)."""
        with self.begin() as conn:
            return conn.execute(
                sa.select(editors.c.session_epoch).where(editors.c.name == name)
            ).scalar()

    def renew_session_epoch(self, name: str) -> str | None:
        """A new session epoch for the account, ending every session signed in before (sign-out);
        returns it, or None when there is no such account."""
        epoch = _new_session_epoch()
        with self.begin() as conn:
            done = conn.execute(
                editors.update().where(editors.c.name == name).values(session_epoch=epoch)
            ).rowcount
        return epoch if done else None

    def list_editors(self) -> list[dict[str, Any]]:
        with self.begin() as conn:
            rows = conn.execute(
                sa.select(editors.c.name, editors.c.created).order_by(editors.c.name)
            ).mappings()
            return [dict(r) for r in rows]

    def remove_editor(self, name: str) -> bool:
        with self.begin() as conn:
            gone = conn.execute(editors.delete().where(editors.c.name == name)).rowcount
            if gone:
                self.audit(conn, "ingest", "editor_removed", editor=name)
        return bool(gone)

    # -- the review queue --------------------------------------------------------------------

    @staticmethod
    def _queue_filter(query: Any, filters: QueueFilter) -> Any:
        if filters.status:
            query = query.where(changes.c.status == filters.status)
        if filters.profile:
            query = query.where(changes.c.profile == filters.profile)
        if filters.source_url:
            query = query.where(changes.c.source_url == filters.source_url)
        if filters.kind:
            query = query.where(changes.c.kind == filters.kind)
        return query

    def count_changes(self, filters: QueueFilter) -> int:
        query = self._queue_filter(sa.select(sa.func.count()).select_from(changes), filters)
        with self.begin() as conn:
            return int(conn.execute(query).scalar() or 0)

    def queue_rows(self, filters: QueueFilter, limit: int, offset: int = 0) -> list[dict[str, Any]]:
        """One page of the queue in its order (source, created, id), with each change's snapshot."""
        query = self._queue_filter(sa.select(changes), filters).order_by(*_QUEUE_ORDER)
        with self.begin() as conn:
            rows = conn.execute(query.limit(limit).offset(offset)).mappings().all()
        return [dict(r) for r in rows]

    def queue_neighbour(
        self, filters: QueueFilter, change: dict[str, Any], forward: bool = True
    ) -> str | None:
        """The id of the change after (or before) `change` in the queue's order, among `filters`."""
        key = sa.tuple_(*_QUEUE_ORDER)
        here = (change["source_url"], change["created"], change["id"])
        query = self._queue_filter(sa.select(changes.c.id), filters)
        if forward:
            query = query.where(key > sa.tuple_(*here)).order_by(*_QUEUE_ORDER)
        else:
            query = query.where(key < sa.tuple_(*here)).order_by(*(c.desc() for c in _QUEUE_ORDER))
        with self.begin() as conn:
            return conn.execute(query.limit(1)).scalar()

    def queue_facets(self, filters: QueueFilter) -> dict[str, list[tuple[str, int]]]:
        """Counts of facts by source, person and kind among changes of the filter's status."""
        base = QueueFilter(status=filters.status)
        out: dict[str, list[tuple[str, int]]] = {}
        with self.begin() as conn:
            for name, column in (
                ("source", changes.c.source_url),
                ("person", changes.c.profile),
                ("kind", changes.c.kind),
            ):
                query = self._queue_filter(  # facts, as everywhere (ingest.review.grouping)
                    sa.select(column, sa.func.count(sa.distinct(FACT)))
                    .group_by(column)
                    .order_by(column),
                    base,
                )
                out[name] = [(str(v), int(n)) for v, n in conn.execute(query)]
        return out

    # -- the queue by fact (one entry per fact: ingest.review.grouping) ----------------------------

    def count_facts(self, filters: QueueFilter) -> int:
        """How many facts (one decision each) the filter's changes state."""
        query = self._queue_filter(
            sa.select(sa.func.count(sa.distinct(FACT))).select_from(changes), filters
        )
        with self.begin() as conn:
            return int(conn.execute(query).scalar() or 0)

    def _fact_keys(self, filters: QueueFilter) -> Any:
        return self._queue_filter(
            sa.select(
                FACT.label("f"),
                sa.func.min(changes.c.source_url).label("s"),
                sa.func.min(changes.c.created).label("c"),
                sa.func.min(changes.c.id).label("i"),
            ).group_by(FACT),
            filters,
        ).subquery()

    def queue_facts(
        self, filters: QueueFilter, limit: int, offset: int = 0
    ) -> list[list[dict[str, Any]]]:
        """One page of the queue, one entry per fact: each entry the fact's changes (among the
        filter's) in queue order, the first one leading."""
        keys = self._fact_keys(filters)
        page = (
            sa.select(keys.c.f).order_by(keys.c.s, keys.c.c, keys.c.i).limit(limit).offset(offset)
        )
        with self.begin() as conn:
            order = list(conn.execute(page).scalars())
            if not order:
                return []
            rows = (
                conn.execute(
                    self._queue_filter(sa.select(changes, FACT.label("fact_key")), filters)
                    .where(FACT.in_(order))
                    .order_by(*_QUEUE_ORDER)
                )
                .mappings()
                .all()
            )
        by_fact: dict[str, list[dict[str, Any]]] = {f: [] for f in order}
        for row in rows:
            by_fact[row["fact_key"]].append(dict(row))
        return [by_fact[f] for f in order if by_fact[f]]

    def fact_members(
        self, change: dict[str, Any], filters: QueueFilter, conn: Connection | None = None
    ) -> list[dict[str, Any]]:
        """The changes (among `filters`) stating the same fact as `change`, in queue order."""
        fact = change.get("fact") or change["id"]
        query = (
            self._queue_filter(sa.select(changes), filters)
            .where(
                sa.or_(changes.c.fact == fact, changes.c.id == fact),  # each one index range
                fact == FACT,
                changes.c.profile == change["profile"],
            )
            .order_by(*_QUEUE_ORDER)
        )
        if conn is not None:
            return [dict(r) for r in conn.execute(query).mappings().all()]
        with self.begin() as own:
            return [dict(r) for r in own.execute(query).mappings().all()]

    def _fact_here(self, conn: Connection, filters: QueueFilter, change: dict[str, Any]) -> Any:
        fact = change.get("fact") or change["id"]
        query = self._queue_filter(
            sa.select(
                sa.func.min(changes.c.source_url),
                sa.func.min(changes.c.created),
                sa.func.min(changes.c.id),
            ).where(fact == FACT),
            filters,
        )
        here = conn.execute(query).first()
        if here is None or here[0] is None:
            return (change["source_url"], change["created"], change["id"])
        return tuple(here)

    def fact_neighbour(
        self, filters: QueueFilter, change: dict[str, Any], forward: bool = True
    ) -> str | None:
        """The leading change of the fact after (or before) `change`'s fact in the queue."""
        keys = self._fact_keys(filters)
        key = sa.tuple_(keys.c.s, keys.c.c, keys.c.i)
        fact = change.get("fact") or change["id"]
        with self.begin() as conn:
            here = sa.tuple_(*self._fact_here(conn, filters, change))
            query = sa.select(keys.c.f).where(keys.c.f != fact)
            if forward:
                query = query.where(key > here).order_by(keys.c.s, keys.c.c, keys.c.i)
            else:
                query = query.where(key < here).order_by(
                    keys.c.s.desc(), keys.c.c.desc(), keys.c.i.desc()
                )
            found = conn.execute(query.limit(1)).scalar()
            if found is None:
                return None
            return conn.execute(
                self._queue_filter(sa.select(changes.c.id), filters)
                .where(found == FACT)
                .order_by(*_QUEUE_ORDER)
                .limit(1)
            ).scalar()

    def fact_position(self, filters: QueueFilter, change: dict[str, Any]) -> int:
        """1-based place of `change`'s fact in the queue (the n of "n of N")."""
        keys = self._fact_keys(filters)
        key = sa.tuple_(keys.c.s, keys.c.c, keys.c.i)
        with self.begin() as conn:
            here = sa.tuple_(*self._fact_here(conn, filters, change))
            before = conn.execute(
                sa.select(sa.func.count()).select_from(keys).where(key < here)
            ).scalar()
        return int(before or 0) + 1

    def audit_page(self, limit: int, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        with self.begin() as conn:
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
        return [dict(r) for r in rows], total

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


_QUEUE_ORDER = (changes.c.source_url, changes.c.created, changes.c.id)
FACT = sa.func.coalesce(changes.c.fact, changes.c.id)  # a change without a fact is its own


@dataclass(frozen=True)
class QueueFilter:
    """What the review queue shows: empty fields match everything."""

    status: str | None = "pending"
    profile: str | None = None
    source_url: str | None = None
    kind: str | None = None


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


def database_url(url: str) -> str:
    """The SQLAlchemy URL to use: a PostgreSQL URL without a driver gets psycopg (version 3, the
    driver installed), since SQLAlchemy's default for `postgresql://` is psycopg2."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _without_password(url: str) -> str:
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
