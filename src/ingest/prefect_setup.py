"""Prefect, offline: no telemetry, a patient local server, no end-of-run heartbeat wait.

Import this before `prefect` (the CLI and the flows do). Values already set in the environment
win, so a deployment can point PREFECT_API_URL at a real server.
"""

from __future__ import annotations

import os

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
