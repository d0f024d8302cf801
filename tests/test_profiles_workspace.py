"""The profiles a run and an editor write are the workspace's (INGEST_HOME/profiles, seeded once
from the bundled fixtures/profiles/), never the git-tracked bundled files; an explicit
INGEST_PROFILES_DIR is used as is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.settings import BUNDLED_PROFILES, Settings
from ingest_cli.cli import main

from .conftest import GOVERNANCE, STABLE_URL

PAGE = GOVERNANCE / "docs-main.persons_of_interest.4bc782c2.md"


def bundled() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(BUNDLED_PROFILES.iterdir())}


@pytest.fixture
def default_profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh INGEST_HOME and no INGEST_PROFILES_DIR: the README's setting. The bundled files
    are put back as they were whatever the test did to them (the old code wrote into them)."""
    home = tmp_path / "home"
    monkeypatch.setenv("INGEST_HOME", str(home))
    monkeypatch.delenv("INGEST_PROFILES_DIR", raising=False)
    monkeypatch.delenv("INGEST_DATABASE_URL", raising=False)
    before = bundled()
    yield home
    for name, data in before.items():
        if (BUNDLED_PROFILES / name).read_bytes() != data:
            (BUNDLED_PROFILES / name).write_bytes(data)


@pytest.mark.prefect
def test_an_accept_writes_the_workspace_copy_never_the_bundled_profiles(
    default_profiles: Path,
) -> None:
    """The README's walk-through: a run, then an accept; `git status` stays clean."""
    before = bundled()
    done = subprocess.run(
        [sys.executable, "-m", "ingest_cli.cli", "run", STABLE_URL, "--file", str(PAGE), "--json"],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    change = next(c for c in json.loads(done.stdout)["changes"] if c["kind"] == "added")
    accepted = CliRunner().invoke(main, ["review", "accept", change["id"], "--editor", "ann"])
    assert accepted.exit_code == 0, accepted.output
    assert bundled() == before  # the git-tracked profiles are untouched
    copy = default_profiles / "profiles" / f"{change['profile']}.json"
    written = json.loads(copy.read_text())
    bundle = json.loads((BUNDLED_PROFILES / copy.name).read_text())
    assert len(written["claims"]) == len(bundle["claims"]) + 1


def test_the_workspace_copy_is_seeded_once_and_never_overwritten(default_profiles: Path) -> None:
    from ingest.settings import ensure_home

    settings = Settings()
    assert settings.profiles_dir == default_profiles / "profiles"
    ensure_home(settings)
    seeded = {p.name for p in settings.profiles_dir.iterdir()}
    assert seeded == {p.name for p in BUNDLED_PROFILES.glob("*.json")}
    mine = settings.profiles_dir / "soumith-chintala.json"
    mine.write_text(mine.read_text().replace("Soumith Chintala", "S. Chintala", 1))
    (settings.profiles_dir / "alban-desmaison.json").unlink()  # an editor's folder is theirs
    ensure_home(Settings())
    assert "S. Chintala" in mine.read_text()
    assert not (settings.profiles_dir / "alban-desmaison.json").exists()
    assert [p.name for p in default_profiles.iterdir() if p.name.startswith(".")] == []


def test_an_explicit_profiles_dir_is_used_as_is(
    default_profiles: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ingest.settings import ensure_home

    mine = tmp_path / "mine"
    monkeypatch.setenv("INGEST_PROFILES_DIR", str(mine))
    settings = Settings()
    assert settings.profiles_dir == mine
    ensure_home(settings)
    assert not mine.exists()  # not seeded: a folder named on purpose is the caller's
    assert not (default_profiles / "profiles").exists()


def test_extract_still_writes_nothing(default_profiles: Path) -> None:
    page = GOVERNANCE / "persons_of_interest.7f149bc3.md"
    result = CliRunner().invoke(main, ["extract", str(page), "--url", STABLE_URL])
    assert result.exit_code == 0
    assert not default_profiles.exists()
