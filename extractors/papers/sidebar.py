"""A margin column beside the author block (correspondence, funding, a journal's sidebar).

without_sidebar(block, found) -> [Line] | None     (pure)
"""

from __future__ import annotations

from collections import Counter

from extractors.papers.text import Cell, Line
from extractors.papers.values import Author

SIDEBAR_GAP = 5.0  # points: cells ending this far left of the byline ...
SIDEBAR_SIZE_RATIO = 0.9  # ... in type smaller than the names' are a sidebar


def without_sidebar(block: list[Line], found: list[Author]) -> list[Line] | None:
    """The block without the cells printed wholly left of the byline in smaller type (a sidebar
    beside it); None when there are none."""
    if not found:
        return None
    # the byline: where most names start (a label in the sidebar may be read as a name too)
    byline = Counter(round(a.x0) for a in found).most_common(1)[0][0]
    left = byline - SIDEBAR_GAP
    starts = {round(a.x0) for a in found}
    names = max((c.size for line in block for c in line.cells if round(c.x0) in starts), default=0)

    def sidebar(cell: Cell) -> bool:
        return cell.x1 < left and cell.size < SIDEBAR_SIZE_RATIO * names

    if not any(sidebar(c) for line in block for c in line.cells):
        return None
    out: list[Line] = []
    for line in block:
        cells = [c for c in line.cells if not sidebar(c)]
        if cells:
            segments = [s for c in cells for s in c.segments]
            out.append(Line(y=line.y, page=line.page, segments=segments, cells=cells))
    return out
