"""Schema migrations, registered by name in the style of sqlite-utils' `migrations.py`: each is
a function applied once, in the order registered, and recorded by name in `applied_migrations`.

    migrations = Migrations()

    @migrations.register
    def sources_settled(conn: Connection) -> None:
        # what each source's last full check settled to (ingest.pipeline.settled)
        ...

A database made before the registry (issue 16) kept only a number in `schema_version`: its first
N migrations are recorded as applied (the registry keeps the old numbering's order), the rest run.
To add one: a new function at the end, registered; never rename, reorder or remove one.
"""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.models import iso_z, utcnow
from ingest.storage.schema import (
    _APPEND_ONLY_POSTGRESQL,
    _APPEND_ONLY_SQLITE,
    BULK_INDEX,
    FACT_INDEX,
    FACT_KEY_INDEX,
    QUEUE_FACT_INDEXES,
    QUEUE_RATED_INDEX,
    REVIEW_INDEXES,
    SOURCES_EXTRACTOR_INDEX,
    applied_migrations,
    changes,
    editors,
    metadata,
    queue_fact_sources,
    queue_facts,
    runs,
    schema_version,
    snapshots,
)

_MIGRATION_LOCK = 0x1A6E57  # PostgreSQL advisory lock key held while migrating


@dataclass(frozen=True)
class Migration:
    name: str
    step: Callable[[Connection], None]

    @property
    def description(self) -> str:
        return (self.step.__doc__ or self.name).strip().splitlines()[0]


class Migrations:
    """Named migrations, applied once each in the order registered."""

    def __init__(self) -> None:
        self._steps: list[Migration] = []

    def register(self, step: Callable[[Connection], None]) -> Callable[[Connection], None]:
        """Register a migration under its function's name (a decorator)."""
        if any(m.name == step.__name__ for m in self._steps):
            raise ValueError(f"migration '{step.__name__}' is registered twice")
        self._steps.append(Migration(step.__name__, step))
        return step

    def __iter__(self) -> Iterator[Migration]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    @property
    def names(self) -> list[str]:
        return [m.name for m in self._steps]

    def applied(self, conn: Connection) -> list[str]:
        """The names recorded as applied, in the order they were applied."""
        if not sa.inspect(conn).has_table(applied_migrations.name):
            return []
        query = sa.select(applied_migrations.c.name).order_by(applied_migrations.c.seq)
        return [str(name) for name in conn.execute(query).scalars()]

    def pending(self, conn: Connection) -> list[Migration]:
        done = set(self.applied(conn))
        return [m for m in self._steps if m.name not in done]

    def apply(self, conn: Connection) -> list[str]:
        """Apply the pending migrations in the caller's transaction; returns their names. A
        database that records names this code does not know (made by newer code) is refused."""
        if conn.dialect.name == "postgresql":  # two processes opening a new database at once
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
        applied_migrations.create(conn, checkfirst=True)
        self._adopt_numbered(conn)
        unknown = [name for name in self.applied(conn) if name not in self.names]
        if unknown:
            raise MigrationError(
                f"the database has migrations this version does not know: {', '.join(unknown)} "
                "(made by a newer ingest?)"
            )
        done: list[str] = []
        for migration in self.pending(conn):
            migration.step(conn)
            self._record(conn, migration.name)
            done.append(migration.name)
        return done

    def _adopt_numbered(self, conn: Connection) -> None:
        """A database of the numbered scheme: its first `schema_version` migrations are applied."""
        if self.applied(conn) or not sa.inspect(conn).has_table(schema_version.name):
            return
        version = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0
        for migration in self._steps[: int(version)]:
            self._record(conn, migration.name)

    @staticmethod
    def _record(conn: Connection, name: str) -> None:
        seq = conn.execute(sa.select(sa.func.count()).select_from(applied_migrations)).scalar()
        conn.execute(
            applied_migrations.insert().values(
                seq=int(seq or 0) + 1, name=name, applied_at=iso_z(utcnow())
            )
        )


class MigrationError(sa.exc.SQLAlchemyError):
    """The database's schema cannot be brought to this version's."""


MIGRATIONS = Migrations()


def _create_index(conn: Connection, index: sa.Index) -> None:
    """`index` unless it exists. Checking reflects the table's indexes, and SQLAlchemy warns of
    the expression index (FACT_KEY_INDEX) it cannot reflect: known, and not this index."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based")
        index.create(conn, checkfirst=True)


def new_session_epoch() -> str:
    return secrets.token_urlsafe(16)


@MIGRATIONS.register
def create_tables(conn: Connection) -> None:
    """The tables, and the triggers that keep the audit log append-only."""
    metadata.create_all(conn)
    if conn.dialect.name == "sqlite":
        for ddl in _APPEND_ONLY_SQLITE:
            conn.exec_driver_sql(ddl)
    elif conn.dialect.name == "postgresql":
        for ddl in _APPEND_ONLY_POSTGRESQL:
            conn.exec_driver_sql(ddl)


@MIGRATIONS.register
def sources_final_url(conn: Connection) -> None:
    """Remember the URL a source was finally served from: validators belong to that hop."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("sources")}
    if "final_url" not in columns:
        conn.exec_driver_sql("ALTER TABLE sources ADD COLUMN final_url TEXT")


@MIGRATIONS.register
def editors_and_queue_indexes(conn: Connection) -> None:
    """Editor accounts for the review page, and the indexes its queue needs."""
    editors.create(conn, checkfirst=True)
    for index in REVIEW_INDEXES:
        _create_index(conn, index)


@MIGRATIONS.register
def sources_settled(conn: Connection) -> None:
    """What each source's last full check settled to (ingest.pipeline.settled)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("sources")}
    if "settled" not in columns:
        conn.exec_driver_sql("ALTER TABLE sources ADD COLUMN settled JSON")


@MIGRATIONS.register
def editors_session_epoch(conn: Connection) -> None:
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
            editors.update().where(editors.c.name == name).values(session_epoch=new_session_epoch())
        )


@MIGRATIONS.register
def changes_fact_and_decisions_bulk(conn: Connection) -> None:
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
    _create_index(conn, FACT_INDEX)
    _create_index(conn, BULK_INDEX)


@MIGRATIONS.register
def snapshots_origin_and_evidence_date(conn: Connection) -> None:
    """Where each snapshot's bytes came from (network, replay, file) and the day it is evidence
    for. Existing snapshots: a replayed one (its `x-ingest-replay-*` headers) is `replay`, of its
    recording's date; any other is taken as `network`, of the day it was stored (a local file's
    snapshot of before this migration cannot be told from a fetch)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("snapshots")}
    for column in ("origin", "evidence_date"):
        if column not in columns:
            conn.exec_driver_sql(f"ALTER TABLE snapshots ADD COLUMN {column} TEXT")
    rows = conn.execute(
        sa.select(snapshots.c.sha256, snapshots.c.headers, snapshots.c.fetched_at).where(
            snapshots.c.origin.is_(None)
        )
    ).all()
    for sha256, headers, fetched_at in rows:
        lowered = {str(k).lower(): str(v) for k, v in (headers or {}).items()}
        recorded = lowered.get("x-ingest-replay-date")
        replayed = any(key.startswith("x-ingest-replay") for key in lowered)
        conn.execute(
            snapshots.update()
            .where(snapshots.c.sha256 == sha256)
            .values(
                origin="replay" if replayed else "network",
                evidence_date=(recorded or str(fetched_at))[:10],
            )
        )


@MIGRATIONS.register
def runs_status_and_process(conn: Connection) -> None:
    """A run's status, its Prefect flow run and the process running it: a run whose process
    died is found and marked crashed. Earlier runs are completed if they finished, else
    crashed (they can no longer be running)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("runs")}
    for column in ("status", "flow_run_id", "process"):
        if column not in columns:
            conn.exec_driver_sql(f"ALTER TABLE runs ADD COLUMN {column} TEXT")
    conn.execute(
        runs.update()
        .where(runs.c.status.is_(None))
        .values(status=sa.case((runs.c.finished.is_(None), "crashed"), else_="completed"))
    )


@MIGRATIONS.register
def editors_queue_visits(conn: Connection) -> None:
    """When each editor last looked at the review queue, and when before this session (the
    queue's "new since your last visit"); unknown for existing accounts (everything is new)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("editors")}
    for column in ("seen_at", "seen_before"):
        if column not in columns:
            conn.exec_driver_sql(f"ALTER TABLE editors ADD COLUMN {column} TEXT")


@MIGRATIONS.register
def queue_facts_kept_on_write(conn: Connection) -> None:
    """The review queue by fact, kept on write (ingest.storage.queue_index): a row per fact and
    status with its place in the queue and its counts, the sources stating it, and the triggers
    on `changes` keeping both; filled here from the existing changes."""
    from ingest.storage import queue_index

    queue_facts.create(conn, checkfirst=True)
    queue_fact_sources.create(conn, checkfirst=True)
    for index in QUEUE_FACT_INDEXES:
        _create_index(conn, index)
    conn.exec_driver_sql(FACT_KEY_INDEX)
    queue_index.install_triggers(conn)
    queue_index.rebuild(conn)


@MIGRATIONS.register
def sources_extractor_index(conn: Connection) -> None:
    """An index on the sources by extractor and last check: a new source's previous page of the
    same kind is then found without scanning every source (issue 30: no per-source work that
    grows with the database)."""
    _create_index(conn, SOURCES_EXTRACTOR_INDEX)


@MIGRATIONS.register
def queue_facts_rated_index(conn: Connection) -> None:
    """An index on the queue's facts by status and how many of their changes carry a
    confidence: the queue page's confidence facet reads the rated facts only (issue 30: a page
    of the queue does work proportional to what it shows, not to the queue)."""
    _create_index(conn, QUEUE_RATED_INDEX)


def migrate(conn: Connection) -> int:
    """Apply the migrations this database has not had; returns how many it has had in all."""
    MIGRATIONS.apply(conn)
    return len(MIGRATIONS.applied(conn))
