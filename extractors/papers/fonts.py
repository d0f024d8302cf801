"""Glyph widths of a PDF font, for the positioned text of `extractors.papers.text`.

pypdf's text visitor reports where a run starts, its size and its font resource, not where it
ends. The font's own metrics (`/Widths` of simple fonts, `/W` of CID fonts, the 14 core fonts'
tables), read by pypdf's `Font.from_font_resource`, give each run's advance: what tells a column
gap from a word space, and a name from the affiliation printed beside it.

    FontWidths().glyph(font_resource, text, size) -> float | None
        the run's average advance per character in points; None when the font does not say
        (then callers estimate from the size)

Pure: one cache per page read, no I/O.
"""

from __future__ import annotations

from typing import Any

from pypdf.errors import PyPdfError
from pypdf.generic._font import Font

# Below this share of a run's characters found in the font's width table, the table is not
# keyed by the characters pypdf decoded (CID fonts): the run is not measured.
MIN_KNOWN_SHARE = 0.6
# Widths are in thousandths of the text size (Type 3 fonts excepted: not measured).
UNITS_PER_EM = 1000.0
_READ_ERRORS = (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError)


class FontWidths:
    """Per font resource: its character widths, read once."""

    def __init__(self) -> None:
        self._fonts: dict[int, tuple[dict[str, float], float] | None] = {}

    def _table(self, resource: Any) -> tuple[dict[str, float], float] | None:
        key = id(resource)
        if key not in self._fonts:
            self._fonts[key] = _read(resource)
        return self._fonts[key]

    def glyph(self, resource: Any, text: str, size: float) -> float | None:
        """Average advance per character of `text` in points (size already in page units)."""
        chars = text.strip()
        if not chars or resource is None:
            return None
        table = self._table(resource)
        if table is None:
            return None
        widths, average = table
        known = [widths[c] for c in chars if widths.get(c)]
        if len(known) < MIN_KNOWN_SHARE * len(chars):
            return None
        total = sum(known) + average * (len(chars) - len(known))
        return total / len(chars) / UNITS_PER_EM * size


def _read(resource: Any) -> tuple[dict[str, float], float] | None:
    try:
        if str(resource.get("/Subtype", "")) == "/Type3":
            return None  # its own font matrix: widths are not in thousandths
        font = Font.from_font_resource(resource)
    except _READ_ERRORS:
        return None
    widths = {
        k: float(v)
        for k, v in font.character_widths.items()
        if k != "default" and isinstance(v, int | float) and v > 0
    }
    if not widths:
        return None
    return widths, sum(widths.values()) / len(widths)
