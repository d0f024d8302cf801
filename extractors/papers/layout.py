"""Page furniture around the text runs of `extractors.papers.text`: margin line numbers and the
column gaps only pypdf's layout-mode text shows.

- `drop_line_numbers(runs)`: the runs without the margin line numbers of review copies (numbers
  left or right of all the text, or a column of numbers counting up down the page);
- `split_joined_columns(runs, layout)`: pdfTeX draws a row of side-by-side columns (a NeurIPS
  names row) as ONE `TJ` run whose column glue is a kern, and pypdf's visitor reports it with
  single spaces: the gap is lost. pypdf's layout mode keeps it as a run of spaces, so such a run
  is cut where the layout text shows a column gap, each piece placed at the x its layout column
  stands for (a line fitted through the runs whose x is known).

Pure: runs and text in, runs out.
"""

from __future__ import annotations

import re

from extractors.papers.text import Run

# In layout-mode text, this many spaces in a row separate columns; fewer are word spaces.
LAYOUT_COLUMN_SPACES = 3
# Layout-mode places text at column floor((x - leftmost x) / width): the width of one column, as
# a fraction of the font size, when too few runs are there to fit it (pypdf's scale weight 1.25
# times an average glyph).
LAYOUT_COLUMN_WIDTH = 0.625
_LAYOUT_CHUNK_RE = re.compile(rf"\S+(?: {{1,{LAYOUT_COLUMN_SPACES - 1}}}\S+)*")
# A run that is only a short number: a line number when it lies left or right of all the text.
MIN_LINE_NUMBERS = 8
_LINE_NUMBER_RE = re.compile(r"\d{1,4}")


def drop_line_numbers(runs: list[Run]) -> list[Run]:
    """Runs without the margin line numbers of review copies (numbers left or right of the text)."""
    numbers = [r for r in runs if r.font != "rotated" and _LINE_NUMBER_RE.fullmatch(r.text.strip())]
    if len(numbers) < 5:
        return runs
    text = [r for r in runs if r.font != "rotated" and r not in numbers]
    if not text:
        return runs
    left = min(r.x for r in text)
    right = max(r.end for r in text)
    margin = {id(r) for r in numbers if r.end < left - 1 or r.x > right + 1}
    if len(margin) < 5:  # a sidebar left of the numbers: a column of counting numbers instead
        margin = _counting_column(numbers)
    return [r for r in runs if id(r) not in margin] if len(margin) >= 5 else runs


def _counting_column(numbers: list[Run]) -> set[int]:
    """Ids of the number runs stacked at one x that count up down the page (line numbers; a
    handful of affiliation markers stacked at the left edge count up too: eight at least)."""
    columns: dict[tuple[str, int], list[Run]] = {}
    for run in numbers:  # left-aligned (same x) or right-aligned (same end: "9", "10")
        columns.setdefault(("x", round(run.x)), []).append(run)
        columns.setdefault(("end", round(run.end)), []).append(run)
    found: set[int] = set()
    for stack in columns.values():
        stack.sort(key=lambda r: -r.y)
        values = [int(r.text.strip()) for r in stack]
        rising = sum(1 for a, b in zip(values, values[1:], strict=False) if b == a + 1)
        if len(stack) >= MIN_LINE_NUMBERS and rising >= 0.8 * (len(stack) - 1):
            found |= {id(r) for r in stack}
    return found


def _layout_rows(layout: str) -> list[list[tuple[int, str]]]:
    """(column, text) chunks of each layout-mode line, split at runs of spaces."""
    return [
        [(m.start(), m.group()) for m in _LAYOUT_CHUNK_RE.finditer(row.replace("\xa0", " "))]
        for row in layout.splitlines()
        if row.strip()
    ]


def _key(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def split_joined_columns(runs: list[Run], layout: str) -> list[Run]:
    """Runs with each run that spans several layout columns cut into one run per column."""
    rows = _layout_rows(layout)
    spans: dict[str, list[tuple[int, str]]] = {}  # joined text -> its chunks
    starts: dict[str, set[int]] = {}  # chunk text -> the columns it starts at
    for chunks in rows:
        for i, (col, text) in enumerate(chunks):
            starts.setdefault(text, set()).add(col)
            for j in range(i + 2, len(chunks) + 1):
                spans.setdefault(_key(" ".join(t for _, t in chunks[i:j])), chunks[i:j])
    flat = [r for r in runs if r.font != "rotated" and "\n" not in r.text.strip()]
    if not flat:
        return runs
    # a run printed as a column of its own (after a gap in its layout row) starts a cell, however
    # wide its glyphs are said to be ("Google Research" beside "Google Research")
    later = {_key(t) for chunks in rows for _, t in chunks[1:] if len(t.split()) >= 2}
    for run in flat:
        if _key(run.text) in later:
            run.column_start = True
    # matched without spaces: pypdf may join two columns with none ("Google ResearchGoogle ...")
    joined = {id(r): spans[_key(r.text)] for r in flat if _key(r.text) in spans}
    if not joined:
        return runs
    # a text printed elsewhere within one chunk is not a column gap ("Mukund Sundararajan * 1"
    # in the byline, spaced out only in a justified footnote line)
    printed = list(starts)  # every chunk's text
    whole = {
        t for t in {_norm(r.text) for r in flat if id(r) in joined} if any(t in c for c in printed)
    }
    joined = {k: v for k, v in joined.items() if " ".join(t for _, t in v) not in whole}
    if not joined:
        return runs
    width = _column_width(flat, starts)
    out: list[Run] = []
    for run in runs:
        span = joined.get(id(run))
        if span is None:
            out.append(run)
            continue
        first = span[0][0]
        for col, text in span:
            x = run.x + (col - first) * (width or LAYOUT_COLUMN_WIDTH * run.size)
            out.append(Run(x, run.y, run.size, run.font, text, run.sup, col > first, run.glyph))
    return out


def _column_width(runs: list[Run], starts: dict[str, set[int]]) -> float | None:
    """The page's layout column width in points, from runs printed as one chunk of one column."""
    left = min(r.x for r in runs)
    ratios = []
    for run in runs:
        cols = starts.get(_norm(run.text), set())
        if len(cols) == 1:
            col = next(iter(cols))
            if col >= 8:
                ratios.append((run.x - left) / (col + 0.5))
    if len(ratios) < 3:
        return None
    ratios.sort()
    return ratios[len(ratios) // 2]
