"""Positioned text of a PDF page, for the arxiv_pdf extractor: runs -> lines -> cells.

pypdf's `extract_text(visitor_text=...)` reports each text run with its text and transformation
matrices; a run ends where the font, size or line changes, so superscript markers (smaller and
raised) arrive as runs of their own. This module turns runs into `Line`s (one baseline each, the
superscripts that sit on it folded in and flagged) and splits a line into `Cell`s where a wide
horizontal gap separates columns (side-by-side author columns), or where a margin column's text
stands beside the body's.

pypdf does not report run widths: they come from the fonts' metrics (`extractors.papers.fonts`),
estimated from the size where a font does not say. Margin line numbers and layout-mode column
cuts are in `extractors.papers.layout`. Pure: a page object in, values out.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pypdf import PageObject

from extractors.papers.fonts import FontWidths

# A run this much smaller than the text beside it, and raised above its baseline, is a superscript.
SUPERSCRIPT_SIZE_RATIO = 0.88
SUPERSCRIPT_MIN_RISE = 0.12  # of the larger size
SUPERSCRIPT_MAX_RISE = 0.75
MAX_HOST_SIZE = 30  # points: the largest text a superscript is looked for beside
SUPERSCRIPT_REACH = 1.5  # sizes: how far from a line's text a marker may sit and belong to it
# Runs whose baselines differ by less than this fraction of their size share a line.
BASELINE_TOLERANCE = 0.3
# Average glyph width as a fraction of the font size (proportional Latin fonts).
AVERAGE_GLYPH_WIDTH = 0.5
# A gap wider than this many font sizes between two runs of a line separates columns.
COLUMN_GAP = 2.2
COLUMN_START_CELLS = 8  # cells starting at one x: a column's left edge
# Runs of a size below this share of the other's are another column after a word-sized gap.
OTHER_SIZE_RATIO = 0.85
# Between runs pypdf joined without a space, a gap wider than this many font sizes is a space.
WORD_GAP = 1.0
# Guards against pathological pages.
MAX_RUNS = 40_000
# A segment starting with one of these never starts a new column.
PUNCTUATION = set(",.;:)]}@")

# Marker keys at the start of a run that goes on into a capitalised word: " a,c, Walter"
_MARKER_HEAD_RE = re.compile(
    r"\s*(?:[a-z]|\d{1,2}|[*∗†‡§¶⇑])(?:\s*,\s*(?:[a-z]|\d{1,2}|[*∗†‡§¶⇑]))*\s*,?\s+(?=[A-Z]\w)|"
    r"\s*\d{1,2}(?=[A-Z][a-z])"  # "1Ernst Strüngmann Institute": a number glued to its text
)
_WORD_RE = re.compile(r"[^\W\d_]{3,}")  # a word: text, not a marker
_SPACE_RE = re.compile(r"\s+")
# Fixed-pitch fonts (typewriter emails) are wider: 0.6 em a glyph.
MONOSPACE_FONT_RE = re.compile(r"mono|courier|cmtt|typewriter|code|lmtt|txtt", re.I)
MONOSPACE_GLYPH_WIDTH = 0.6


def text_width(text: str, size: float, font: str, glyph: float | None = None) -> float:
    """The printed width of `text`: measured (`glyph`, the run's advance per character, from the
    font's metrics) or else estimated from the size."""
    if glyph is not None:
        return len(text.strip()) * glyph
    per_glyph = MONOSPACE_GLYPH_WIDTH if MONOSPACE_FONT_RE.search(font) else AVERAGE_GLYPH_WIDTH
    return len(text.strip()) * size * per_glyph


@dataclass
class Run:
    x: float
    y: float
    size: float
    font: str
    text: str
    sup: bool = False
    column_start: bool = False  # layout mode showed a column gap before it
    glyph: float | None = None  # measured advance per character (points), when the font says

    @property
    def end(self) -> float:
        return self.x + text_width(self.text, self.size, self.font, self.glyph)


@dataclass
class Segment:
    """A piece of a line: text as extracted, and whether it is a superscript (a marker)."""

    text: str
    sup: bool
    x: float
    size: float
    font: str
    column_start: bool = False
    glyph: float | None = None

    @property
    def end(self) -> float:
        return self.x + text_width(self.text, self.size, self.font, self.glyph)


def join_segments(segments: list[Segment]) -> str:
    """Segment texts in order; a space where pypdf left none across a visible gap."""
    out = ""
    previous: Segment | None = None
    for seg in segments:
        if (
            previous is not None
            and out
            and not out[-1].isspace()
            and not seg.text[:1].isspace()
            and not seg.sup
            and not previous.sup
            and seg.x - previous.end > WORD_GAP * max(seg.size, previous.size)
        ):
            out += " "
        out += seg.text
        previous = seg
    return _SPACE_RE.sub(" ", out).strip()


@dataclass
class Cell:
    segments: list[Segment]
    page: int
    y: float

    @property
    def x0(self) -> float:
        return self.segments[0].x

    @property
    def x1(self) -> float:
        return max(s.end for s in self.segments)

    @property
    def center(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def size(self) -> float:
        return body_size(self.segments)

    @property
    def text(self) -> str:
        return join_segments(self.segments)

    @property
    def plain(self) -> str:
        """The text without superscripts."""
        return join_segments([s for s in self.segments if not s.sup])

    @property
    def fonts(self) -> set[str]:
        return {s.font for s in self.segments if not s.sup and s.text.strip()}


@dataclass
class Line:
    y: float
    page: int
    segments: list[Segment] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)

    @property
    def size(self) -> float:
        return body_size(self.segments)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)


def body_size(segments: list[Segment]) -> float:
    """The largest size of the segments' visible non-superscript text (of any, if none)."""
    sizes = [s.size for s in segments if not s.sup and s.text.strip()]
    return max(sizes) if sizes else max(s.size for s in segments)


def page_runs(page: PageObject) -> tuple[list[Run], str]:
    """Every horizontal text run of the page, in drawing order, with its position and size
    (rotated runs last, with font "rotated"); and the page text as pypdf joins it."""
    runs: list[Run] = []
    rotated: list[Run] = []
    texts: list[str] = []
    widths = FontWidths()

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if len(runs) > MAX_RUNS:
            return
        texts.append(text)
        if not text or not text.strip():
            return
        m = _multiply(tm, cm)
        scale = math.hypot(m[2], m[3]) or 1.0
        base = font.get("/BaseFont", "") if hasattr(font, "get") else ""
        run = Run(
            x=m[4],
            y=m[5],
            size=round(size * scale, 2),
            font=str(base).split("+")[-1],
            text=text,
            glyph=widths.glyph(font, text, size * scale) if hasattr(font, "get") else None,
        )
        if abs(m[1]) > 1e-3 or m[0] <= 0:
            rotated.append(run)  # margin stamps and rotated labels: kept for the stamp only
        else:
            runs.append(run)

    page.extract_text(visitor_text=visit)
    return runs + [Run(r.x, r.y, r.size, "rotated", r.text) for r in rotated], "".join(texts)


def _multiply(a: list[float], b: list[float]) -> list[float]:
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def build_lines(runs: list[Run], page: int) -> list[Line]:
    """Group runs into lines top to bottom; superscripts join the line they sit on."""
    runs = [r for r in runs if r.font != "rotated"]
    pieces: list[Run] = []
    for run in runs:  # a run may carry a line break inside: keep its first line's position
        parts = run.text.split("\n")
        for i, part in enumerate(parts):
            if part.strip():
                y = run.y - i * run.size * 1.2
                pieces.append(
                    Run(run.x, y, run.size, run.font, part, False, run.column_start, run.glyph)
                )
    pieces = _unglue_markers(pieces)
    _mark_superscripts(pieces)
    normal = sorted((r for r in pieces if not r.sup), key=lambda r: -r.y)
    lines: list[Line] = []
    sizes: list[float] = []  # each line's size, kept as runs join (Line.size recomputes)
    for run in normal:
        for k in range(len(lines) - 1, max(len(lines) - 7, -1), -1):
            line = lines[k]
            if abs(line.y - run.y) <= BASELINE_TOLERANCE * min(sizes[k], run.size):
                line.segments.append(_segment(run))
                sizes[k] = max(sizes[k], run.size)
                break
        else:
            lines.append(Line(y=run.y, page=page, segments=[_segment(run)]))
            sizes.append(run.size)
    ys = [-line.y for line in lines]  # ascending: lines run top to bottom
    tallest = max(sizes, default=0.0)
    for run in (r for r in pieces if r.sup):
        best: Line | None = None
        best_near = False
        lo = bisect.bisect_left(ys, -run.y - 0.2 * tallest)
        hi = bisect.bisect_right(ys, -run.y + SUPERSCRIPT_MAX_RISE * tallest)
        for k in range(lo, min(hi, len(sizes))):
            line = lines[k]
            rise = run.y - line.y
            if not -0.2 * sizes[k] <= rise <= SUPERSCRIPT_MAX_RISE * sizes[k]:
                continue
            # a line with text just left or right of the marker beats one across the page
            near = any(
                s.x - SUPERSCRIPT_REACH * s.size <= run.x <= s.end + SUPERSCRIPT_REACH * s.size
                for s in line.segments
            )
            if best is None or (near, -abs(rise)) > (best_near, -abs(run.y - best.y)):
                best, best_near = line, near
        if best is None:
            lines.append(Line(y=run.y, page=page, segments=[_segment(run)]))
        else:
            best.segments.append(_segment(run))
    lines.sort(key=lambda line: -line.y)
    for line in lines:
        line.segments.sort(key=lambda s: s.x)
        line.cells = _split_cells(line)
    _split_at_column_starts(lines)
    return lines


def _split_at_column_starts(lines: list[Line]) -> None:
    """Cells cut where a segment starts at an x that many cells of the page start at (a column's
    left edge): a margin column's line joined to the body text beside it is two cells."""
    starts = Counter(round(c.x0) for line in lines for c in line.cells)
    edges = {x for x, count in starts.items() if count >= COLUMN_START_CELLS}
    if not edges:
        return
    for line in lines:
        cells: list[Cell] = []
        for cell in line.cells:
            current: list[Segment] = []
            for seg in cell.segments:
                at_edge = any(abs(seg.x - x) <= 1 for x in edges)
                if current and at_edge and not seg.sup and seg.x > max(s.end for s in current) - 1:
                    cells.append(Cell(current, line.page, line.y))
                    current = []
                current.append(seg)
            cells.append(Cell(current, line.page, line.y))
        line.cells = cells


def _segment(run: Run) -> Segment:
    return Segment(
        text=run.text,
        sup=run.sup,
        x=run.x,
        size=run.size,
        font=run.font,
        column_start=run.column_start,
        glyph=run.glyph,
    )


def _unglue_markers(runs: list[Run]) -> list[Run]:
    """A raised, small run that goes on into text ("a,c, Walter Salzburger": pypdf reports a
    marker and the name after it as one run, at the marker's size and height) cut in two: the
    marker stays raised, the text moves to the baseline and size of the line it continues."""
    out: list[Run] = []
    by_y = sorted(runs, key=lambda r: r.y)
    ys = [r.y for r in by_y]
    for run in runs:
        head = _MARKER_HEAD_RE.match(run.text)
        host = _host_line(run, by_y, ys) if head else None
        if head is None or host is None:
            out.append(run)
            continue
        marker, rest = run.text[: head.end()], run.text[head.end() :]
        out.append(Run(run.x, run.y, run.size, run.font, marker, glyph=run.glyph))
        x = run.x + text_width(marker, run.size, run.font, run.glyph) + 0.25 * host.size
        out.append(Run(x, host.y, host.size, host.font, rest, glyph=host.glyph))
    return out


def _host_line(run: Run, by_y: list[Run], ys: list[float]) -> Run | None:
    """The full-size run just left of `run` whose baseline lies a superscript's rise below it
    (`by_y`: the runs sorted by baseline, `ys` their baselines)."""
    lo = bisect.bisect_left(ys, run.y - SUPERSCRIPT_MAX_RISE * MAX_HOST_SIZE)
    hi = bisect.bisect_right(ys, run.y)
    for other in by_y[lo:hi]:
        rise = run.y - other.y
        if (
            other is not run
            and other.size * SUPERSCRIPT_SIZE_RATIO >= run.size
            and SUPERSCRIPT_MIN_RISE * other.size <= rise <= SUPERSCRIPT_MAX_RISE * other.size
            and other.x < run.x <= other.end + 3 * other.size
        ):
            return other
    return None


def _mark_superscripts(runs: list[Run]) -> None:
    by_y = sorted(runs, key=lambda r: r.y)
    ys = [r.y for r in by_y]
    for run in runs:
        if len(run.text.strip()) > 12 or _WORD_RE.search(run.text):
            continue  # a marker is short and holds no word ("London, UK" is a margin note)
        lo = bisect.bisect_left(ys, run.y - SUPERSCRIPT_MAX_RISE * MAX_HOST_SIZE)
        hi = bisect.bisect_right(ys, run.y)
        for other in by_y[lo:hi]:
            if other is run or other.size * SUPERSCRIPT_SIZE_RATIO < run.size:
                continue
            rise = run.y - other.y
            reach = 3 * other.size
            end = other.end
            if (
                SUPERSCRIPT_MIN_RISE * other.size <= rise <= SUPERSCRIPT_MAX_RISE * other.size
                and other.x - reach <= run.x <= end + reach
            ):
                run.sup = True
                break


def _split_cells(line: Line) -> list[Cell]:
    cells: list[Cell] = []
    current: list[Segment] = []
    for seg in line.segments:
        if current:
            prev_end = max(s.end for s in current)
            last = current[-1]
            gap_limit = COLUMN_GAP * max(seg.size, last.size)
            # text of another size after a word's gap: a margin column beside the body text
            if not seg.sup and not last.sup:
                small, large = sorted((seg.size, last.size))
                if small < OTHER_SIZE_RATIO * large:
                    gap_limit = WORD_GAP * small
            joined = seg.text.strip()[:1] in PUNCTUATION or last.text.strip()[-1:] in "{(["
            if seg.column_start or (seg.x - prev_end > gap_limit and not seg.sup and not joined):
                cells.append(Cell(current, line.page, line.y))
                current = []
        current.append(seg)
    if current:
        cells.append(Cell(current, line.page, line.y))
    return cells
