"""How far a run has got, for whoever shows it (the CLI's rich progress bar); a flow reports,
nobody listening costs nothing.

    with listening(lambda stage, done, total: ...):   # the CLI, around an in-process flow run
        nightly_refresh(...)                          # calls report("sources", 300, 2000) ...

A run can be cancelled between its steps: inside `cancellable(event)` (the local runner, for the
length of a request), `report` and `check` raise RunCancelled once `event` is set (the command
that asked for the run is gone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, int, int | None], None]  # (stage, done, total or None)

_listeners: list[Listener] = []
_lock = threading.Lock()
_cancel: list[threading.Event] = []


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


@contextmanager
def cancellable(event: threading.Event) -> Iterator[None]:
    """Runs reporting progress inside this stop at their next step once `event` is set."""
    with _lock:
        _cancel.append(event)
    try:
        yield
    finally:
        with _lock:
            _cancel.remove(event)


def check() -> None:
    """Raise RunCancelled if the run was cancelled (see `cancellable`)."""
    with _lock:
        cancelled = any(event.is_set() for event in _cancel)
    if cancelled:
        from ingest.errors import RunCancelled

        raise RunCancelled("the command that started this run was stopped: run cancelled")


def report(stage: str, done: int, total: int | None = None) -> None:
    """Tell every listener that `done` of `total` items of `stage` are finished (and stop a
    cancelled run: `check`)."""
    check()
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(stage, done, total)
