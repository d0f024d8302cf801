"""fixtures/arxiv/pdfgen.py writes PDFs that pypdf reads back without repair."""

from __future__ import annotations

import importlib.util
import io
import logging
import sys
from pathlib import Path
from types import ModuleType

import pytest
from pypdf import PdfReader

PDFGEN_PATH = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv" / "pdfgen.py"


def load_pdfgen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pdfgen", PDFGEN_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("pdfgen", module)
    spec.loader.exec_module(module)
    return module


pdfgen = load_pdfgen()
TextItem = pdfgen.TextItem


def test_round_trip_text_and_winansi_characters(caplog: pytest.LogCaptureFixture) -> None:
    pages = [
        [
            TextItem(72, 720, "A Title (with parens) \\ backslash", 16, "Helvetica-Bold"),
            TextItem(72, 690, "Léa Müller", 11, "Times-Roman"),
            TextItem(125, 695, "1†‡§¶", 7, "Times-Roman", rise=0),
            TextItem(72, 670, "Université de Montréal", 9, "Times-Italic"),
        ],
        [TextItem(72, 720, "Second page", 10)],
    ]
    data = pdfgen.make_pdf(pages, info={"Title": "Tïtle", "Author": "Léa"})
    assert data.startswith(b"%PDF-1.4")
    with caplog.at_level(logging.WARNING, logger="pypdf"):
        reader = PdfReader(io.BytesIO(data), strict=True)
        assert len(reader.pages) == 2
        text = reader.pages[0].extract_text()
    assert "A Title (with parens) \\ backslash" in text
    assert "Léa Müller" in text
    assert "1†‡§¶" in text
    assert "Université de Montréal" in text
    assert reader.pages[1].extract_text() == "Second page"
    assert reader.metadata is not None and reader.metadata.title == "Tïtle"
    assert not caplog.records  # the xref is right: no repair warnings


def test_characters_outside_winansi_use_differences() -> None:
    data = pdfgen.make_pdf([[TextItem(72, 700, "Ann Lee α,β ‖ ⋄ □ ♦", 10)]])
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Ann Lee α,β ‖ ⋄ □ ♦" in text


def test_positions_sizes_and_rise_are_visible_to_a_visitor() -> None:
    data = pdfgen.make_pdf(
        [[TextItem(100, 500, "Name", 10), TextItem(130, 500, "2", 6, rise=4)]],
        width=500,
        height=600,
    )
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert [float(v) for v in page.mediabox] == [0, 0, 500, 600]
    runs: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            runs.append((text.strip(), tm[4], size))

    page.extract_text(visitor_text=visit)
    assert ("Name", 100.0, 10.0) in runs
    assert ("2", 130.0, 6.0) in runs


def test_unknown_font_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown font"):
        pdfgen.make_pdf([[TextItem(0, 0, "x", font="Courier")]])


def test_column_row_is_one_run_with_column_gaps_only_in_layout_mode() -> None:
    row = pdfgen.column_row([(72, "Ada K. Lovelace"), (260, "Bruno Díaz")], 700, 10)
    page = PdfReader(io.BytesIO(pdfgen.make_pdf([[row]]))).pages[0]
    runs: list[str] = []
    page.extract_text(visitor_text=lambda text, *_: runs.append(text) if text.strip() else None)
    assert runs == ["Ada K. Lovelace Bruno Díaz"]  # one run, single spaces, as pdfTeX's are read
    layout = page.extract_text(extraction_mode="layout")
    assert "Ada K. Lovelace" in layout and "Bruno Díaz" in layout
    assert "Lovelace     " in layout  # the column gap survives as a run of spaces
