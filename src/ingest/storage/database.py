"""The database connection: the engine for a URL, transactions, and database errors as
StoreError naming the database (never its password)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ingest.errors import StoreError


class Database:
    """An engine and its transactions; every storage part works through one."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction (committed at the end, rolled back on error)."""
        try:
            with self.engine.begin() as conn:
                yield conn
        except sa.exc.OperationalError as exc:
            raise StoreError(f"database error: {exc.orig}") from exc

    @contextmanager
    def using(self, conn: Connection | None) -> Iterator[Connection]:
        """The caller's transaction when it gives one, else a transaction of its own."""
        if conn is not None:
            yield conn
            return
        with self.begin() as own:
            yield own


def create_engine(url: str) -> Engine:
    """An engine for the URL: SQLite with WAL and a 30 s busy timeout, PostgreSQL with a
    liveness check before each use (a server restart between two uses is not an error)."""
    url = database_url(url)
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
    engine = sa.create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def database_url(url: str) -> str:
    """The SQLAlchemy URL to use: a PostgreSQL URL without a driver gets psycopg (version 3, the
    driver installed), since SQLAlchemy's default for `postgresql://` is psycopg2."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def without_password(url: str) -> str:
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
