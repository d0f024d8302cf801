"""Schema migrations: each runs once, in order; the version reached is kept in `schema_version`."""

from __future__ import annotations

import secrets
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.storage.schema import (
    _APPEND_ONLY_POSTGRESQL,
    _APPEND_ONLY_SQLITE,
    BULK_INDEX,
    FACT_INDEX,
    REVIEW_INDEXES,
    changes,
    editors,
    metadata,
    schema_version,
)


def new_session_epoch() -> str:
    return secrets.token_urlsafe(16)


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
    """What each source's last full check settled to (ingest.settled)."""
    columns = {c["name"] for c in sa.inspect(conn).get_columns("sources")}
    if "settled" not in columns:
        conn.exec_driver_sql("ALTER TABLE sources ADD COLUMN settled JSON")


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
            editors.update().where(editors.c.name == name).values(session_epoch=new_session_epoch())
        )


def _migration_6(conn: Connection) -> None:
    """The fact each change states (one decision per fact) and the action a decision was part
    of (undo a bulk whole); existing changes get their fact computed here."""
    from ingest.grouping import fact_key

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


def migrate(conn: Connection) -> int:
    """Run the migrations this database has not had; returns the version reached."""
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
    return int(current)
