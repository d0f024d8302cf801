"""One lock for everything that rewrites profile files (editors' decisions, refreshed dates)."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def profile_lock(folder: Path) -> Iterator[None]:
    """An exclusive lock on the profiles folder, across threads and processes."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".ingest.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
