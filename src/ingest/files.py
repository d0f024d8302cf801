"""Files written so that a reader (or a crash) sees the old content or the new, never a mix."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import Any

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


def write_atomic(path: Path, data: bytes, mode: int | None = None, *, sync: bool = True) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`.

    The file's permission bits are `mode` when given; otherwise an existing file keeps its own,
    and a new file gets NEW_FILE_MODE less the umask. `sync=False` leaves the flush to disk to
    the caller (`sync_files`, once for a batch of files): until then a crash may leave the file
    empty or missing, so nothing may count on it before that.
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
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def sync_files(paths: list[Path]) -> None:
    """Flush files written with `write_atomic(..., sync=False)` and their folders (the renames)
    to disk: one syncfs(2) of their file system where the platform has it, else one fsync per
    file and per folder."""
    if not paths:
        return
    if _syncfs(paths[0].parent):
        return
    for path in [*paths, *{p.parent for p in paths}]:  # pragma: no cover - without syncfs
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _syncfs(folder: Path) -> bool:
    """syncfs(2) on `folder`'s file system (Linux); False where there is none or it failed."""
    libc = _libc()
    if libc is None:
        return False
    fd = os.open(folder, os.O_RDONLY)
    try:
        return bool(libc.syncfs(fd) == 0)
    finally:
        os.close(fd)


def _libc() -> Any:
    global _LIBC
    if _LIBC is False:
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            _LIBC = lib if hasattr(lib, "syncfs") else None
        except OSError:
            _LIBC = None
    return _LIBC


_LIBC: Any = False  # not looked for yet
