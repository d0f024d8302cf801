"""The floors of eval_floors.json, read for a quality gate: a missing entry, set or figure fails
the test, so a floor cannot disappear silently."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

FLOORS = Path(__file__).resolve().parent.parent / "eval_floors.json"


def set_floors(
    key: str, labels: Iterable[str], required: Iterable[str]
) -> dict[str, dict[str, float]]:
    """The floors of `key`'s sets; every set in `labels` must give every figure in `required`."""
    entry = json.loads(FLOORS.read_text("utf-8")).get(key)
    if not isinstance(entry, dict) or not isinstance(entry.get("sets"), dict):
        pytest.fail(f"eval_floors.json has no '{key}' entry with 'sets'")
    if "metric" not in entry:
        pytest.fail(f"eval_floors.json '{key}' lacks 'metric'")
    sets: dict[str, dict[str, float]] = entry["sets"]
    wanted = tuple(required)
    for label in labels:
        if label not in sets:
            pytest.fail(f"eval_floors.json '{key}' has no floors for the set '{label}'")
        for figure in wanted:
            if figure not in sets[label]:
                pytest.fail(f"eval_floors.json '{key}' set '{label}' lacks '{figure}'")
    return sets
