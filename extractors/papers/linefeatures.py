"""Features of page-1 lines for the learned header reader (`extractors.papers.linemodel`).

    line_features(lines) -> list[dict[str, float]]       (pure: one feature dict per line)

Every line of a page becomes a sparse dict of named features (binary ones are 1.0), from:

- layout: size relative to the body text (the size most characters are printed in), bold, italic,
  small caps, vertical position on the page, index among the page's lines, before or after the
  first "Abstract", centred, how many cells (side-by-side columns) the line holds, the gap to the
  line above (in body sizes), superscript markers (count, leading, glyph kinds);
- text: e-mail and URL patterns, digits, word counts, capitalised and lower-case word shares,
  name-likeness of its comma/"and" parts, institution words (`extractors.papers.words`) and the
  ROR registry's organisation words (`ror_words.txt`, from
  `scripts/derive_paper_ror_words.py`),
  countries, note phrases ("equal contribution", "work done while"), prose;
- neighbours: a few of the above for the lines before and after (prefixed `p_` and `n_`).

The names are the model's vocabulary: changing one retrains the model (`ingest train papers`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from extractors.papers.patterns import COUNTRIES, NAME_SEPARATOR_RE, is_name_like, is_prose
from extractors.papers.text import Line
from extractors.papers.words import INSTITUTION_WORDS
from ingest.names import fold

ROR_WORDS = Path(__file__).with_name("ror_words.txt")
BOLD_RE = re.compile(r"bold|black|heavy|semibold|demi|cmbx|\.b$|-b$|medi", re.I)
ITALIC_RE = re.compile(r"italic|oblique|cmti|cmsl|-it$|\.i$", re.I)
SMALLCAPS_RE = re.compile(r"cmcsc|smallcaps|-sc$|caps", re.I)
# A local part starts where a run of its characters starts and takes all of it: tried from
# inside a long run, each start scanned the rest of it (quadratic on a hostile line)
EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]++\s?@\s?[\w-]+(?:\.[\w-]+)+|\}\s?@|@[\w-]+\.\w+")
URL_RE = re.compile(r"https?://|www\.|\.com\b|\.org\b|github", re.I)
ABSTRACT_RE = re.compile(r"^\s*(a\s?b\s?s\s?t\s?r\s?a\s?c\s?t|summary)\b", re.I)
NOTE_RE = re.compile(
    r"equal(ly)? contribut|correspond|work (was )?(done|performed)|while (at|visiting|"
    r"interning)|internship|intern at|now (at|with)|visiting|contact|these authors|"
    r"joint first|project lead|supervis",
    re.I,
)
VENUE_RE = re.compile(
    r"proceedings|conference|journal|vol\.|volume|copyright|©|permission|licen[cs]e|doi|"
    r"preprint|arxiv|submitted|accepted|published|workshop|issn|isbn|pages?\s\d",
    re.I,
)
LEADING_MARKER_RE = re.compile(r"^\s*(\d{1,2}|[*∗†‡§¶⋄◇♠♣♦♥#$+αβγδεζηθλμπστ])\s*\S")
YEAR_RE = re.compile(r"\b(19|20)\d\d\b")
SIZE_BINS = (0.8, 0.92, 1.05, 1.2, 1.5, 2.0)
INDEX_BINS = (1, 2, 3, 5, 8, 12, 20, 35)
GAP_BINS = (0.5, 1.4, 2.0, 3.0)
NEIGHBOUR_KEYS = ("size", "namey", "inst", "email", "sup", "prose")


@lru_cache(maxsize=1)
def ror_words() -> frozenset[str]:
    """The shipped organisation word list (read once)."""
    text = ROR_WORDS.read_text("utf-8") if ROR_WORDS.is_file() else ""
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def _bin(value: float, bins: tuple[float, ...]) -> int:
    return sum(1 for b in bins if value >= b)


def body_size(lines: list[Line]) -> float:
    """The size most characters of the page are printed in."""
    counts: Counter[float] = Counter()
    for line in lines:
        for seg in line.segments:
            if not seg.sup:
                counts[round(seg.size, 1)] += len(seg.text.strip())
    return counts.most_common(1)[0][0] if counts else 10.0


def _plain(line: Line) -> str:
    return " ".join(c.plain for c in line.cells).strip()


def _own(
    line: Line, body: float, top: float, span: float, width: tuple[float, float]
) -> dict[str, float]:
    text = _plain(line)
    full = line.text
    words = text.split()
    folded = fold(text).split()
    f: dict[str, float] = {"bias": 1.0}
    size = line.size / body if body else 1.0
    f[f"size{_bin(size, SIZE_BINS)}"] = 1.0
    fonts = [s.font for s in line.segments if not s.sup and s.text.strip()]
    if fonts and sum(bool(BOLD_RE.search(x)) for x in fonts) * 2 >= len(fonts):
        f["bold"] = 1.0
    if fonts and sum(bool(ITALIC_RE.search(x)) for x in fonts) * 2 >= len(fonts):
        f["italic"] = 1.0
    if fonts and any(SMALLCAPS_RE.search(x) for x in fonts):
        f["smallcaps"] = 1.0
    f[f"ypos{min(int((top - line.y) / span * 10), 9) if span else 0}"] = 1.0
    x0 = min(c.x0 for c in line.cells)
    x1 = max(c.x1 for c in line.cells)
    left, right = width
    centre = (left + right) / 2
    if right > left and abs((x0 + x1) / 2 - centre) < 0.04 * (right - left):
        f["centred"] = 1.0
    if right > left and (x1 - x0) > 0.8 * (right - left):
        f["wide"] = 1.0
    f[f"cells{min(len(line.cells), 3)}"] = 1.0
    sups = [s for s in line.segments if s.sup and s.text.strip()]
    if sups:
        f["sup"] = 1.0
        f["sups_many"] = 1.0 if len(sups) >= 3 else 0.0
        if line.segments[0].sup:
            f["sup_first"] = 1.0
    if LEADING_MARKER_RE.match(full):
        f["lead_marker"] = 1.0
    if EMAIL_RE.search(full):
        f["email"] = 1.0
    if "{" in full and "}" in full:
        f["brace"] = 1.0
    if URL_RE.search(full):
        f["url"] = 1.0
    digits = sum(ch.isdigit() for ch in text)
    f[f"digits{min(digits, 6) // 2}"] = 1.0
    f[f"words{_bin(len(words), (2, 4, 7, 11, 16))}"] = 1.0
    if words:
        caps = sum(w[:1].isupper() for w in words) / len(words)
        lower = sum(w[:1].islower() for w in words) / len(words)
        f[f"caps{int(caps * 4)}"] = 1.0
        f[f"lower{int(lower * 4)}"] = 1.0
        if text.isupper() and len(text) > 3:
            f["allcaps"] = 1.0
    parts = [p.strip() for p in NAME_SEPARATOR_RE.split(text) if p.strip()]
    if parts:
        namey = sum(is_name_like(p) for p in parts) / len(parts)
        f[f"namey{int(namey * 4)}"] = 1.0
        f["nameparts_many"] = 1.0 if len(parts) >= 3 and namey > 0.6 else 0.0
    inst = sum(INSTITUTION_WORDS.get(w, 0) for w in folded)
    f[f"inst{_bin(inst, (1, 2, 4, 6))}"] = 1.0
    ror = ror_words()
    if folded:
        share = sum(w in ror for w in folded) / len(folded)
        f[f"ror{int(share * 4)}"] = 1.0
    if any(w in COUNTRIES for w in folded) or re.search(r"\b(USA|UK|U\.S\.A)\b", text):
        f["country"] = 1.0
    if NOTE_RE.search(full):
        f["note"] = 1.0
    if VENUE_RE.search(full):
        f["venue"] = 1.0
    if YEAR_RE.search(full):
        f["year"] = 1.0
    if is_prose(text):
        f["prose"] = 1.0
    if " and " in f" {text} " or "&" in text:
        f["and"] = 1.0
    f[f"commas{min(text.count(','), 4)}"] = 1.0
    if text.endswith("."):
        f["period"] = 1.0
    if text.rstrip().endswith(":") or re.match(r"^\w+:", text):
        f["label"] = 1.0
    return f


def _summary(f: dict[str, float]) -> dict[str, str]:
    """The coarse values a neighbour shows."""
    out: dict[str, str] = {}
    for key in NEIGHBOUR_KEYS:
        hit = [k for k in f if k.startswith(key) and f[k]]
        out[key] = hit[0] if hit else "none"
    return out


def line_features(lines: list[Line]) -> list[dict[str, float]]:
    """One feature dict per line, in the given (top-to-bottom) order."""
    if not lines:
        return []
    body = body_size(lines)
    top = max(line.y for line in lines)
    span = top - min(line.y for line in lines) or 1.0
    width = (
        min(c.x0 for ln in lines for c in ln.cells),
        max(c.x1 for ln in lines for c in ln.cells),
    )
    own = [_own(line, body, top, span, width) for line in lines]
    summaries = [_summary(f) for f in own]
    abstract = next((i for i, ln in enumerate(lines) if ABSTRACT_RE.match(_plain(ln))), None)
    out: list[dict[str, float]] = []
    for i, f in enumerate(own):
        g = dict(f)
        g[f"index{_bin(i, INDEX_BINS)}"] = 1.0
        if abstract is not None:
            g["before_abstract" if i < abstract else "after_abstract"] = 1.0
            if i == abstract:
                g["abstract"] = 1.0
        if i:
            gap = (lines[i - 1].y - lines[i].y) / body if body else 1.0
            g[f"gap{_bin(gap, GAP_BINS)}"] = 1.0
        for prefix, j in (("p_", i - 1), ("n_", i + 1)):
            if 0 <= j < len(own):
                for key, value in summaries[j].items():
                    g[f"{prefix}{key}={value}"] = 1.0
            else:
                g[f"{prefix}edge"] = 1.0
        for key in ("namey", "size"):  # pairs: what changes at this line
            here = summaries[i][key]
            before = summaries[i - 1][key] if i else "edge"
            g[f"x_{key}:{before}>{here}"] = 1.0
        out.append(g)
    return out
