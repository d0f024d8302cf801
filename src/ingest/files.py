"""Files written so that a reader (or a crash) sees the old content or the new, never a mix."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

NEW_FILE_MODE = 0o644  # a new file's permissions, less the process's umask (as open() does)
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def _temp_beside(path: Path, mode: int) -> tuple[int, Path]:
    """A new, empty, uniquely named file in `path`'s folder, created with `mode` (less the
    umask): opened here rather than with mkstemp, which always makes files 0600."""
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, _TEMP_FLAGS, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside '{path}'")


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`.

    The file's permission bits are `mode` when given; otherwise an existing file keeps its own,
    and a new file gets NEW_FILE_MODE less the umask.
    """
    exact = mode
    if exact is None:
        try:
            exact = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            exact = None
    # never wider than the final mode while the data is being written
    fd, tmp = _temp_beside(path, NEW_FILE_MODE if exact is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            if exact is not None:
                os.fchmod(handle.fileno(), exact)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
