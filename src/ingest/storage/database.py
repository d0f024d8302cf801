"""The database connection: the engine for a URL, transactions, and database errors as
StoreError naming the database (never its password)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ingest.errors import StoreError
from ingest.files import sync_files


class Database:
    """An engine and its transactions; every storage part works through one.

    Inside `batch()` every `begin()` of the same thread joins the batch's one transaction (on
    PostgreSQL as a savepoint, so a failed step rolls back only itself; SQLite rolls back the
    failed statement), and files whose flush to disk was deferred (`defer_sync`) are flushed once,
    just before that transaction commits: a crash loses at most the unfinished batch. Rows of an
    append-only log (`log`: the fetch log) are held and inserted together, in order, in the same
    transaction just before it commits: one statement per batch, not one per source."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._local = threading.local()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for everything this thread stores until the block ends (a block
        inside a batch is part of it)."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        try:
            with self.engine.begin() as conn:
                self._local.conn, self._local.unsynced, self._local.logged = conn, [], []
                try:
                    yield
                    _insert_logged(conn, self._local.logged)
                    sync_files(self._local.unsynced)  # the bodies before the rows naming them
                finally:
                    self._local.conn, self._local.unsynced, self._local.logged = None, [], []
        except sa.exc.OperationalError as exc:
            raise StoreError(f"database error: {exc.orig}") from exc

    def defer_sync(self, path: Path) -> bool:
        """True when `path` will be flushed to disk before this thread's batch commits (the
        caller may then skip its own fsync); False outside a batch."""
        if getattr(self._local, "conn", None) is None:
            return False
        self._local.unsynced.append(path)
        return True

    def log(self, table: sa.Table, rows: list[dict[str, Any]]) -> None:
        """Append `rows` to an append-only table nothing reads back while storing (the fetch
        log): inside a batch, inserted with the batch's other logged rows, in order, just before
        it commits; otherwise now, in a transaction of their own."""
        if not rows:
            return
        if getattr(self._local, "conn", None) is not None:
            self._local.logged.append((table, rows))
            return
        with self.begin() as conn:
            conn.execute(table.insert(), rows)

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction (committed at the end, rolled back on error); inside a batch, part
        of the batch's."""
        shared: Connection | None = getattr(self._local, "conn", None)
        if shared is not None:
            if shared.dialect.name == "sqlite":
                yield shared
            else:
                with shared.begin_nested():
                    yield shared
            return
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


def _insert_logged(conn: Connection, logged: list[tuple[sa.Table, list[dict[str, Any]]]]) -> None:
    """The rows `Database.log` held, in order: one executemany per run of the same table."""
    run: list[dict[str, Any]] = []
    for n, (table, rows) in enumerate(logged):
        run += rows
        if n + 1 == len(logged) or logged[n + 1][0] is not table:
            conn.execute(table.insert(), run)
            run = []


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
