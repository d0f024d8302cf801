"""Prefect, offline: no telemetry, a patient local server, no end-of-run heartbeat wait.

Import this before `prefect` (the CLI and the flows do). Values already set in the environment
win, so a deployment can point PREFECT_API_URL at a real server.
"""

from __future__ import annotations

import os
from pathlib import Path

OFFLINE_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "PREFECT_FLOWS_HEARTBEAT_FREQUENCY": "",
}


def configure() -> None:
    for key, value in OFFLINE_DEFAULTS.items():
        if value == "":
            continue
        os.environ.setdefault(key, value)


def send_logs_to(path: Path) -> Path:
    """Prefect's console output (and Python warnings) to `path` instead of the terminal, so a
    run's stderr holds only the progress bar and ingest's own messages. Sets up Prefect's
    logging now and swaps every handler that writes to a stream for one writing to `path`."""
    import logging

    # Prefect sets up its logging as `prefect.main` is imported (what `from prefect import flow`
    # does): imported now, so that its console handlers exist to be swapped. Not a call of
    # setup_logging of its own: that would be a second (~0.3 s: each one renders every Prefect
    # setting into its logging template), the import's still to come
    import prefect.main  # noqa: F401

    path.parent.mkdir(parents=True, exist_ok=True)
    target = logging.FileHandler(path, encoding="utf-8")
    target.setFormatter(logging.Formatter("%(asctime)s | %(levelname)-7s | %(name)s - %(message)s"))
    loggers = [logging.getLogger()] + [
        item
        for item in logging.Logger.manager.loggerDict.values()
        if isinstance(item, logging.Logger)
    ]
    for logger in loggers:
        consoles = [
            handler
            for handler in logger.handlers
            if isinstance(handler, logging.StreamHandler)
            and not isinstance(handler, logging.FileHandler)
        ]
        for handler in consoles:
            logger.removeHandler(handler)
        if consoles:
            logger.addHandler(target)
    logging.captureWarnings(True)
    return path
