"""Quality gate: arxiv_pdf on the whole real gold corpus must stay at or above eval_floors.json.

The corpus is `fixtures/arxiv/gold` (6 PDFs) and `fixtures/arxiv/gold-train` (63 PDFs of other
venues and publishers). The floors are the cross-validated figures (`ingest evaluate --cv`). They
are only ever raised by hand, in the commit that earns them; this test never writes the file. A
missing entry or field fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest_cli.evaluate.arxiv import Report, score_sets

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ROOT / "eval_floors.json"
# the floors may never sit below these
TARGETS = {"author_f1": 0.95, "linked_f1": 0.85, "linked_f1_metadata": 0.85}  # issue 26, on CV
FIELDS = ("sets", "files", "author_f1", "linked_f1", "linked_f1_metadata", "metric")


def _floor() -> dict[str, object]:
    floors = json.loads(FLOORS.read_text("utf-8"))
    entry = floors.get("arxiv_pdf")
    if not isinstance(entry, dict):
        pytest.fail("eval_floors.json has no 'arxiv_pdf' entry")
    for key in FIELDS:
        if key not in entry:
            pytest.fail(f"eval_floors.json 'arxiv_pdf' lacks '{key}'")
    return entry


def _score(entry: dict[str, object], *, use_metadata: bool) -> Report:
    sets = entry["sets"]
    assert isinstance(sets, list) and sets
    pairs = [(ROOT / str(gold), ROOT / str(pdfs)) for gold, pdfs in sets]
    report = score_sets(pairs, use_metadata=use_metadata)
    assert len(report.files) >= int(entry["files"])  # type: ignore[call-overload]
    return report


@pytest.fixture(scope="module")
def plain() -> Report:
    return _score(_floor(), use_metadata=False)


def test_floors_are_at_least_the_targets() -> None:
    entry = _floor()
    for key, target in TARGETS.items():
        value = entry[key]
        assert isinstance(value, int | float) and value >= target, (key, value)


def test_arxiv_pdf_meets_its_floors(plain: Report) -> None:
    entry = _floor()
    before = FLOORS.read_bytes()
    author_f1, linked_f1 = plain.authors.f1, plain.linked_strict.f1
    assert author_f1 >= float(entry["author_f1"]), f"author F1 {author_f1:.4f} below the floor"  # type: ignore[arg-type]
    assert linked_f1 >= float(entry["linked_f1"]), f"linked F1 {linked_f1:.4f} below the floor"  # type: ignore[arg-type]
    assert FLOORS.read_bytes() == before  # the gate never rewrites its floors


def test_every_pdf_of_the_corpus_gives_output(plain: Report) -> None:
    failed = [f"{f.file}: {f.error}" for f in plain.files if f.error]
    assert failed == []


def test_metadata_mode_meets_its_floor() -> None:
    entry = _floor()
    report = _score(entry, use_metadata=True)
    linked = report.linked_strict.f1
    assert linked >= float(entry["linked_f1_metadata"]), f"linked F1 {linked:.4f} with metadata"  # type: ignore[arg-type]
    assert report.authors.f1 >= float(entry["author_f1"])  # type: ignore[arg-type]
