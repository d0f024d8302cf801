"""How far a run has got, for whoever shows it (the CLI's rich progress bar); a flow reports,
nobody listening costs nothing.

    with listening(lambda stage, done, total: ...):   # the CLI, around an in-process flow run
        nightly_refresh(...)                          # calls report("sources", 300, 2000) ...
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, int, int | None], None]  # (stage, done, total or None)

_listeners: list[Listener] = []
_lock = threading.Lock()


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


def report(stage: str, done: int, total: int | None = None) -> None:
    """Tell every listener that `done` of `total` items of `stage` are finished."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(stage, done, total)
