"""A SQLite database file is checked before anything writes to it.

    check_sqlite_file(url)      StoreError for a malformed or empty existing database file

`PRAGMA quick_check` (SQLite's structural check, without the index-content comparison of
`integrity_check`: ~0.3 s for 100 MB) runs on a read-only connection when an existing file is
opened, so a corrupt `ingest.db` stops `review accept` before it writes a profile or a
decision (it used to write the profile while `review list` said "malformed"). A file of zero
bytes is an error too (taken silently as a new database, it would hide that the real one is
gone), unless it is being created right now: younger than JUST_CREATED_S, or with a WAL
beside it holding its first pages. Each file is checked once per process while it is unchanged.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import sqlalchemy as sa

from ingest.errors import StoreError

JUST_CREATED_S = 10.0
_CHECKED: set[tuple[str, int, int]] = set()  # (path, size, mtime_ns) found sound


def sqlite_path(url: str) -> Path | None:
    """The file a SQLite URL names; None for another database or an in-memory one."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)


def check_sqlite_file(url: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    try:
        info = path.stat()
    except FileNotFoundError:
        return  # a new database: created by the migration
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key in _CHECKED:
        return
    if info.st_size == 0:
        wal = path.with_name(path.name + "-wal")
        being_made = time.time() - info.st_mtime < JUST_CREATED_S or (
            wal.exists() and wal.stat().st_size > 0
        )
        if being_made:
            return
        raise StoreError(
            f"database file '{path}' is empty (zero bytes), not a database: restore it from a "
            "backup, or delete it to start a new one"
        )
    problem = _quick_check(path)
    if problem is not None:
        raise StoreError(
            f"database file '{path}' is malformed ({problem}); nothing was written: restore it "
            "from a backup (`sqlite3 ingest.db .recover` may save its rows)"
        )
    _CHECKED.add(key)


def _quick_check(path: Path) -> str | None:
    """None when `PRAGMA quick_check` says ok, else what it (or opening the file) says."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = connection.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        connection.close()
    if rows == [("ok",)]:
        return None
    return "; ".join(str(row[0]) for row in rows)[:300]
