"""Font metrics give a run's printed width (extractors.papers.fonts), so columns are told apart."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from extractors.papers.fonts import FontWidths
from extractors.papers.text import build_lines, page_runs

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ROOT / "fixtures" / "arxiv" / "pdf-train"


def test_runs_of_a_type1_font_are_measured_not_estimated() -> None:
    runs, _ = page_runs(PdfReader(TRAIN / "1512.03385v1.pdf").pages[0])
    run = next(r for r in runs if r.text == "Microsoft Research")
    assert run.glyph is not None
    # Times at 12 pt: "Microsoft Research" is about 94 pt wide, not 18 x 6 = 108 estimated
    assert 88 < run.end - run.x < 100


def test_side_by_side_affiliations_are_separate_cells() -> None:
    runs, _ = page_runs(PdfReader(TRAIN / "2210.02997v2.pdf").pages[0])
    lines = build_lines(runs, 1)
    row = next(line for line in lines if "University of Oxford" in line.text)
    assert [c.text for c in row.cells] == [
        "Mila, Université de Montréal",
        "University of Oxford",
        "DeepMind",
    ]


def test_a_font_without_widths_is_not_measured() -> None:
    widths = FontWidths()
    assert widths.glyph({"/Subtype": "/Type3"}, "abc", 10.0) is None
    assert widths.glyph(None, "abc", 10.0) is None
    assert widths.glyph({"/Subtype": "/Type1"}, "   ", 10.0) is None
