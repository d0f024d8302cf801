"""Quality gate: the governance extractors on the labelled pages stay at or above the floors
of the `governance` key of eval_floors.json, set by set (training corpus, PEP 13, PyTorch).

The floors are only ever raised by hand, in the commit that earns them; this test never writes
the file. A missing set, figure or page fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest_cli.evaluate.governance import DEFAULT_SETS, score

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ROOT / "eval_floors.json"
FIGURES = ("people_precision", "people_recall", "section_precision", "section_recall")


def _floors() -> dict[str, dict[str, float]]:
    entry = json.loads(FLOORS.read_text("utf-8")).get("governance")
    if not isinstance(entry, dict) or not isinstance(entry.get("sets"), dict):
        pytest.fail("eval_floors.json has no 'governance' entry with 'sets'")
    if "metric" not in entry:
        pytest.fail("eval_floors.json 'governance' lacks 'metric'")
    sets: dict[str, dict[str, float]] = entry["sets"]
    for s in DEFAULT_SETS:
        if s.label not in sets:
            pytest.fail(f"eval_floors.json 'governance' has no floors for the set '{s.label}'")
        for key in ("pages", *FIGURES):
            if key not in sets[s.label]:
                pytest.fail(f"eval_floors.json 'governance' set '{s.label}' lacks '{key}'")
    return sets


def test_every_labelled_page_is_scored_and_meets_its_floors() -> None:
    floors = _floors()
    before = FLOORS.read_bytes()
    report = score()
    below = []
    for totals in report.sets:
        floor = floors[totals.label]
        assert len(totals.pages) >= floor["pages"], (totals.label, len(totals.pages))
        figures = totals.figures()
        for key, value in floor.items():
            if key == "pages":
                continue
            got = figures.get(key)
            if got is None or got < value:
                below.append(f"{totals.label} {key}: {got} < floor {value}")
    assert not below, "below the floors: " + "; ".join(below)
    assert FLOORS.read_bytes() == before  # the gate never rewrites its floors


def test_the_derived_sets_stay_perfect() -> None:
    """PEP 13 and PyTorch: gold derived from hand-checked golden files, P = R = 1 required."""
    floors = _floors()
    for label in ("pep13", "pytorch"):
        assert all(floors[label][key] == 1.0 for key in FIGURES), label
