"""The local runner's Prefect database: made atomically, checked, rebuilt; a full disk said so.

    seed_database(settings, prefect_home, notice=None) -> Path | None   before the server starts
    save_template(database, template)            the freshly migrated database, cached per machine
    disk_full_cause(exc) -> str | None           "no space left on device (...)" or None
    log_says_disk_full(log) -> bool              the Prefect server's log ends telling of one
    no_space(path) -> str                        the message naming the path

A copy of the cached empty database (INGEST_CACHE_DIR, per Prefect version) becomes
`PREFECT_HOME/prefect.db` by a temporary file and a rename, so a full disk leaves either no
database or a whole one, never half of one. An existing database that is empty (zero bytes) or
fails SQLite's `PRAGMA quick_check` ("database disk image is malformed": a first start that ran
out of space while Prefect migrated it) is set aside as `prefect.db.malformed` and rebuilt from
the template, with a one-line notice; a malformed template is dropped (the next start makes it
again). Nothing here imports Prefect: the CLI calls it before starting the runner.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from ingest.errors import ServerError
from ingest.settings import Settings

DATABASE_NAME = "prefect.db"
MIGRATED_BY = "migrated-by"  # which Prefect version last brought the database to its head
DISK_FULL_TEXTS = ("database or disk is full", "no space left on device")  # SQLite's, the OS's
# the exit status of a runner that stopped because the disk is full (errno ENOSPC)
DISK_FULL_STATUS = errno.ENOSPC

Notice = Callable[[str], None]


def prefect_version() -> str:
    return version("prefect")


def template_path(settings: Settings) -> Path:
    """An empty, migrated Prefect database for this Prefect version, cached per machine."""
    return settings.cache_dir / f"prefect-{prefect_version()}-empty.db"


def no_space(path: Path | str) -> str:
    return f"no space left on device writing {path} (free some space and run the command again)"


def disk_full_cause(exc: BaseException) -> str | None:
    """What a full disk did, if `exc` (or an error it came from) is one: ENOSPC or SQLite's
    "database or disk is full"; None otherwise."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno == errno.ENOSPC:
            return no_space(current.filename or "a file")
        if any(text in str(current).lower() for text in DISK_FULL_TEXTS):
            return "no space left on device (" + str(current).splitlines()[0][:200] + ")"
        current = current.__cause__ or current.__context__
    return None


def log_says_disk_full(log: Path, tail: int = 16_384) -> bool:
    """True if the last `tail` bytes of `log` (the Prefect server's) tell of a full disk."""
    try:
        with log.open("rb") as stream:
            stream.seek(max(0, log.stat().st_size - tail))
            text = stream.read().decode("utf-8", "replace").lower()
    except OSError:
        return False
    return any(marker in text for marker in DISK_FULL_TEXTS)


def is_sound(database: Path) -> bool:
    """True if `database` is a non-empty SQLite file passing `PRAGMA quick_check`."""
    try:
        if database.stat().st_size == 0:
            return False
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return False
    try:
        rows = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error:
        return False
    finally:
        connection.close()
    return rows == [("ok",)]


def seed_database(
    settings: Settings, prefect_home: Path, notice: Notice | None = None, *, check: bool = True
) -> Path | None:
    """Make `prefect_home/prefect.db` ready for the server: an unsound one set aside (saying
    so through `notice`), a missing one copied atomically from the cached template. The
    template's path when there is none yet (the server migrates a new database; keep a copy of
    it with `save_template`), else None. ServerError naming the path on a full disk."""
    database = prefect_home / DATABASE_NAME
    if os.environ.get("PREFECT_API_DATABASE_CONNECTION_URL"):
        return None
    template = template_path(settings)
    if database.exists():
        if not check or is_sound(database):
            return None
        what = _set_aside(database)
    else:
        what = ""
    if template.exists() and not is_sound(template):
        template.unlink(missing_ok=True)  # made again after the next start
    if what and notice:
        how = "from the cached template" if template.exists() else "by migrating a new one"
        notice(
            f"the local runner's Prefect database {database} was {what}; rebuilt {how} "
            f"(the old one is kept as {DATABASE_NAME}.malformed)"
        )
    if not template.exists():
        (prefect_home / MIGRATED_BY).unlink(missing_ok=True)
        return template
    prefect_home.mkdir(parents=True, exist_ok=True)
    partial = database.with_name(f"{DATABASE_NAME}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(template, partial)
        _fsync(partial)
        os.replace(partial, database)
        (prefect_home / MIGRATED_BY).write_text(prefect_version())
    except OSError as exc:
        partial.unlink(missing_ok=True)
        if exc.errno == errno.ENOSPC:
            raise ServerError(no_space(database)) from exc
        raise
    return None


def save_template(database: Path, template: Path, notice: Notice | None = None) -> None:
    """A consistent copy of the freshly migrated database (SQLite's backup API), renamed into
    place so that a concurrent reader never sees half of it. A full disk only costs the cache
    (said through `notice`): the next start migrates again."""
    template.parent.mkdir(parents=True, exist_ok=True)
    partial = template.with_suffix(f".{os.getpid()}.tmp")
    try:
        source = sqlite3.connect(database)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        os.replace(partial, template)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        cause = disk_full_cause(exc)
        if cause is None:
            raise
        if notice:
            notice(f"the Prefect database template was not cached: {cause}")


def _set_aside(database: Path) -> str:
    """Move an unsound database out of the way: what it was ("empty" or "malformed")."""
    what = "empty" if database.stat().st_size == 0 else "malformed"
    os.replace(database, database.with_name(f"{DATABASE_NAME}.malformed"))
    for extra in ("-wal", "-shm", "-journal"):  # they belong to the malformed one
        database.with_name(DATABASE_NAME + extra).unlink(missing_ok=True)
    (database.parent / MIGRATED_BY).unlink(missing_ok=True)
    return what


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
