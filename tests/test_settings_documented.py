"""Every setting is described in Settings and listed in the README's table of settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.settings import Settings

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_setting_is_described_and_listed(name: str) -> None:
    field = Settings.model_fields[name]
    assert field.description and len(field.description) > 20, name
    table = [line for line in README.read_text().splitlines() if line.startswith("| `INGEST_")]
    assert any(f"`INGEST_{name.upper()}`" in line for line in table), name
