"""A corrupt or empty ingest.db stops every command before it writes (issue 29): `review accept`
used to write the profile while `review list` said "database disk image is malformed", and a
zero-byte database was silently taken as a new one."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.errors import StoreError
from ingest.settings import Settings
from ingest.storage import Store
from ingest_cli.cli import main

from .test_review import CORE, lead_page, run_page


def database_file(settings: Settings) -> Path:
    return settings.home / "ingest.db"


def corrupt(path: Path) -> None:
    """Garbage over one index page (applied_migrations' key): every query an accept makes still
    reads, but the file is malformed (`PRAGMA quick_check` says so), as after a bad disk."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?",
            ("sqlite_autoindex_applied_migrations_1",),
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * size
    data[start + 8 : start + size] = b"\xa5" * (size - 8)
    path.write_bytes(bytes(data))


def test_review_accept_writes_nothing_on_a_malformed_database(workspace: Settings) -> None:
    store = Store.open(workspace)
    outcome = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    change = outcome.changes[0]["id"]
    store.close()
    profiles = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    corrupt(database_file(workspace))
    result = CliRunner().invoke(main, ["review", "accept", change, "--editor", "ann"])
    assert result.exit_code == 1
    assert "malformed" in result.stderr and str(database_file(workspace)) in result.stderr
    assert {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")} == profiles


def test_opening_a_malformed_database_is_refused_before_any_write(workspace: Settings) -> None:
    Store.open(workspace).close()
    corrupt(database_file(workspace))
    before = database_file(workspace).read_bytes()
    with pytest.raises(StoreError, match="malformed"):
        Store.open(workspace)
    assert database_file(workspace).read_bytes() == before


def test_a_zero_byte_database_is_an_error_unless_just_created(workspace: Settings) -> None:
    path = database_file(workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    old = time.time() - 3600
    os.utime(path, (old, old))
    with pytest.raises(StoreError, match="empty"):
        Store.open(workspace)
    assert path.stat().st_size == 0  # nothing was written into it
    path.write_bytes(b"")  # as another command creating it this moment would leave it
    Store.open(workspace).close()
    assert path.stat().st_size > 0
