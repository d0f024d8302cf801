"""Shared test fixtures: a fresh workspace and profile folder per test; never the network."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.settings import BUNDLED_PROFILES, Settings
from ingest.store import Store

ROOT = Path(__file__).resolve().parent.parent
GOVERNANCE = ROOT / "fixtures" / "governance"
STABLE_URL = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """INGEST_HOME and INGEST_PROFILES_DIR in a temporary folder (bundled profiles copied)."""
    home = tmp_path / "home"
    profiles = tmp_path / "profiles"
    shutil.copytree(BUNDLED_PROFILES, profiles)
    monkeypatch.setenv("INGEST_HOME", str(home))
    monkeypatch.setenv("INGEST_PROFILES_DIR", str(profiles))
    monkeypatch.delenv("INGEST_DATABASE_URL", raising=False)
    return Settings()


@pytest.fixture
def store(workspace: Settings) -> Iterator[Store]:
    opened = Store.open(workspace)
    yield opened
    opened.close()


_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else address
    if (
        self.family in (socket.AF_INET, socket.AF_INET6)
        and isinstance(host, str)
        and not (host.startswith("127.") or host in ("::1", "localhost"))
    ):
        raise OSError(f"tests never touch the internet: refused a connection to {host}")
    return _real_connect(self, address)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test: a connection to anything but loopback fails at once (subprocesses are given
    replay archives or loopback endpoints by the tests that start them)."""
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)
