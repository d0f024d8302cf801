"""Quality gate: the governance extractors on the labelled pages stay at or above the floors
of the `governance` key of eval_floors.json, set by set (training corpus, PEP 13, PyTorch).

The floors are only ever raised by hand, in the commit that earns them; this test never writes
the file. A missing set, figure or page fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

from ingest_cli.evaluate.governance import DEFAULT_SETS, score
from tests.floors import FLOORS, set_floors

FIGURES = ("people_precision", "people_recall", "section_precision", "section_recall")


def _floors() -> dict[str, dict[str, float]]:
    return set_floors("governance", (s.label for s in DEFAULT_SETS), ("pages", *FIGURES))


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
