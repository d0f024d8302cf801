"""Exclusive file locks across threads and processes: one for everything that rewrites profile
files (editors' decisions, refreshed dates), one per workspace for starting its local runner."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path


@contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on `lock_file` (created, with its folder, if missing)."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_file, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def profile_lock(folder: Path) -> AbstractContextManager[None]:
    """An exclusive lock on the profiles folder."""
    return exclusive(folder / ".ingest.lock")
