"""`prefect server start` on a free loopback port, for the tests and the benchmarks.

with prefect_server(folder) as (api, env):   # env: os.environ without PREFECT_*/INGEST_*,
    ...                                      # PREFECT_HOME under `folder`, PREFECT_API_URL=api
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from flows.local_runner import seed_database
from ingest.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def tail(path: Path) -> str:
    return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@contextmanager
def prefect_server(folder: Path, timeout: float = 90.0) -> Iterator[tuple[str, dict[str, str]]]:
    """Start the server (its database under `folder`), wait for /api/health, stop it on exit."""
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "INGEST_"))} | {
        "PREFECT_HOME": str(folder / "prefect"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_UI_ENABLED": "false",
    }
    log = folder / "server.log"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "prefect").mkdir(exist_ok=True)
    seed_database(Settings(), folder / "prefect")  # the cached empty database: 10 s saved
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "prefect", "server", "start"]
            + ["--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if server.poll() is not None:
                raise RuntimeError("prefect server start exited:\n" + tail(log))
            try:
                if httpx.get(f"{api}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"no /api/health after {timeout:.0f} s\n" + tail(log))
            time.sleep(0.5)
        yield api, env | {"PREFECT_API_URL": api}
    finally:
        stop(server)
