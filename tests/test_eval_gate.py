"""Quality gate: arxiv_pdf on the real gold set must stay at or above eval_floors.json.

The floors are only ever raised by hand, in the commit that earns them; this test never writes
the file. A missing entry or field fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.evaluate import score

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ROOT / "eval_floors.json"
TARGETS = {"author_f1": 0.95, "linked_f1": 0.90}  # the floors may never sit below these


def _floor() -> dict[str, object]:
    floors = json.loads(FLOORS.read_text("utf-8"))
    entry = floors.get("arxiv_pdf")
    if not isinstance(entry, dict):
        pytest.fail("eval_floors.json has no 'arxiv_pdf' entry")
    for key in ("author_f1", "linked_f1", "metric"):
        if key not in entry:
            pytest.fail(f"eval_floors.json 'arxiv_pdf' lacks '{key}'")
    return entry


def test_floors_are_at_least_the_targets() -> None:
    entry = _floor()
    for key, target in TARGETS.items():
        value = entry[key]
        assert isinstance(value, int | float) and value >= target, (key, value)


def test_arxiv_pdf_meets_its_floors() -> None:
    entry = _floor()
    gold = ROOT / str(entry.get("gold", "fixtures/arxiv/gold"))
    pdfs = ROOT / str(entry.get("pdfs", "fixtures/arxiv/pdf"))
    before = FLOORS.read_bytes()
    report = score(gold, pdfs, use_metadata=bool(entry.get("use_metadata", False)))
    assert len(report.files) >= 6
    author_f1 = report.authors.f1
    linked_f1 = report.linked_strict.f1
    assert author_f1 >= float(entry["author_f1"]), f"author F1 {author_f1:.4f} below the floor"  # type: ignore[arg-type]
    assert linked_f1 >= float(entry["linked_f1"]), f"linked F1 {linked_f1:.4f} below the floor"  # type: ignore[arg-type]
    assert FLOORS.read_bytes() == before  # the gate never rewrites its floors


def test_metadata_mode_is_no_worse() -> None:
    entry = _floor()
    report = score(ROOT / "fixtures/arxiv/gold", ROOT / "fixtures/arxiv/pdf", use_metadata=True)
    assert report.linked_strict.f1 >= float(entry["linked_f1"])  # type: ignore[arg-type]
