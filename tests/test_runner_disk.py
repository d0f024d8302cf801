"""The local runner's workspace state on a full disk (issue 29): the Prefect database is made
atomically, a malformed one is rebuilt from the cached template with a notice, and "no space left
on device" is said as such, naming the path. ENOSPC is simulated by monkeypatching writes."""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from flows.local_runner import seed_database
from ingest.errors import ServerError
from ingest.runner import local_server
from ingest.runner.prefect_database import template_path
from ingest.settings import Settings


def make_template(settings: Settings) -> Path:
    """A small stand-in for the cached empty migrated Prefect database."""
    template = template_path(settings)
    template.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(template) as db:
        db.execute("CREATE TABLE flow_run (id TEXT PRIMARY KEY, state TEXT)")
        db.executemany(
            "INSERT INTO flow_run VALUES (?, ?)", [(str(i), "x" * 500) for i in range(200)]
        )
    return template


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", cache_dir=tmp_path / "cache")


def half_then_enospc(src: Any, dst: Any, **kwargs: Any) -> Any:
    """shutil.copyfile on a disk that fills up half way: half the bytes, then ENOSPC."""
    data = Path(src).read_bytes()
    Path(dst).write_bytes(data[: len(data) // 2])
    raise OSError(errno.ENOSPC, "No space left on device", str(dst))


def test_a_full_disk_while_seeding_leaves_no_truncated_database(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_template(settings)
    prefect_home = settings.home / "server" / "prefect"
    prefect_home.mkdir(parents=True)
    monkeypatch.setattr(shutil, "copyfile", half_then_enospc)
    with pytest.raises(ServerError, match="no space left on device") as caught:
        seed_database(settings, prefect_home)
    assert str(prefect_home / "prefect.db") in str(caught.value)
    assert sorted(p.name for p in prefect_home.iterdir()) == []  # nothing half-written left


def test_a_malformed_database_is_rebuilt_from_the_template_with_a_notice(
    settings: Settings,
) -> None:
    template = make_template(settings)
    prefect_home = settings.home / "server" / "prefect"
    prefect_home.mkdir(parents=True)
    database = prefect_home / "prefect.db"
    database.write_bytes(template.read_bytes()[: 3 * 4096] + b"\x00garbage" * 4000)  # truncated
    notices: list[str] = []
    seed_database(settings, prefect_home, notices.append)
    assert database.read_bytes() == template.read_bytes()
    assert len(notices) == 1 and "malformed" in notices[0] and str(database) in notices[0]
    assert (prefect_home / "prefect.db.malformed").exists()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM flow_run").fetchone() == (200,)


def test_a_zero_byte_database_is_rebuilt_too(settings: Settings) -> None:
    template = make_template(settings)
    prefect_home = settings.home / "server" / "prefect"
    prefect_home.mkdir(parents=True)
    (prefect_home / "prefect.db").write_bytes(b"")
    notices: list[str] = []
    seed_database(settings, prefect_home, notices.append)
    assert (prefect_home / "prefect.db").read_bytes() == template.read_bytes()
    assert "empty" in notices[0]


class ExitedProcess:
    def __init__(self, code: int) -> None:
        self.pid, self.code = 999_999, code

    def poll(self) -> int:
        return self.code


def test_a_runner_that_ran_out_of_space_while_starting_says_so(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        local_server.subprocess, "Popen", lambda *a, **k: ExitedProcess(errno.ENOSPC)
    )
    with pytest.raises(ServerError, match="no space left on device") as caught:
        local_server.ensure(settings)
    assert str(settings.home) in str(caught.value)


def test_a_runner_gone_mid_run_on_a_full_disk_says_so(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    state = local_server.RunnerState(
        pid=999_999, port=port, token="t", api_url="", fingerprint="", started=""
    )

    class Usage:
        free = 0

    monkeypatch.setattr(local_server.shutil, "disk_usage", lambda path: Usage())
    import threading

    def close_after_request() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.close()

    threading.Thread(target=close_after_request, daemon=True).start()
    try:
        with pytest.raises(ServerError, match="no space left on device") as caught:
            local_server.call(state, "run", {}, workspace=settings.home)
    finally:
        listener.close()
    assert str(settings.home) in str(caught.value)
    assert "closed the connection" not in str(caught.value)
