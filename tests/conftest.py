"""Shared test fixtures: a fresh workspace and profile folder per test; never the network."""

from __future__ import annotations

import shutil
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
