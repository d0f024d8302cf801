"""Reading a paper's first page(s) for the arxiv_pdf extractor: the lines, the title, the block.

    reader = PageReader(open_pdf(pdf_bytes, url), url)      # inside `with quiet_pypdf():`
    pages = reader.pages(max_pages, layout=False)            # title, author block, all lines

Page 1 is read once with pypdf's positioned runs (`extractors.papers.text`); pypdf's layout-mode
text (a second pass over the page) is only asked for when the byline looks glued (`glued_row`:
side-by-side names drawn as one run) or nothing was read. The title is the top part's largest
text; the author block runs from the line after it to the abstract (or keywords, introduction,
"article info", "Summary"), onto page 2 when page 1 ends first. The margin stamp
"arXiv:2103.15348v2 [cs.CV] 21 Jun 2021" gives the work and its date. Failures raise
PdfReadFailure naming the URL and the cause.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from pypdf import PageObject, PdfReader
from pypdf.errors import PyPdfError

from extractors.papers.layout import drop_line_numbers, split_joined_columns
from extractors.papers.patterns import clean, is_prose
from extractors.papers.text import Line, Run, build_lines, page_runs
from ingest.errors import ExtractionError, UnsupportedFormatError

# The margin stamp: "arXiv:1111.2011v2  [cond-mat.str-el]  2 Apr 2012"
STAMP_RE = re.compile(
    r"arXiv:\s*(?P<id>\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?P<version>v\d+)?\s*"
    r"\[(?P<category>[^\]]+)\]\s*(?P<day>\d{1,2})\s+(?P<month>[A-Z][a-z]{2})[a-z]*\.?\s+"
    r"(?P<year>\d{4})"
)
# The line that ends the author block.
BLOCK_END_RE = re.compile(
    r"^\s*(abstract\b|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t\b|keywords\b|key\s?words\b|index terms\b|"
    r"ccs concepts\b|acm reference format\b|(?:1|i)\.?\s+introduction\b|introduction$|"
    r"summary$|summary\s+background\b|article\s+info\b|a\s?r\s?t\s?i\s?c\s?l\s?e\s+i\s?n\s?f\s?o\b)",
    re.I,
)
PDF_MAGIC = b"%PDF"
MAX_CONTENT_BYTES = 8_000_000  # decoded content stream of one page
MAX_BLOCK_LINES = 60
# A word running into a capitalised one with no space ("ResearchGoogle"): two columns' texts.
GLUED_WORDS_RE = re.compile(r"[a-z]{2}[A-Z][a-z]")
GLUED_ROW_WORDS = 4  # capitalised words in one run without separators: maybe glued columns
TITLE_MIN_RATIO = 1.15  # title text is at least this much larger than body text
TITLE_REGION = 0.45  # the title sits in the top part of the page
TITLE_SIZE_TOLERANCE = 0.06  # a title's lines share its size, within this fraction
TITLE_SPACING = 1.9  # a title's next line lies within this many sizes below the last
TITLE_WRAP_SPACING = 1.45  # ... and this close when it is in none of the title's fonts


class PdfReadFailure(ExtractionError):
    """The PDF could not be read: corrupt, truncated, encrypted, scanned or without authors."""


@contextmanager
def quiet_pypdf() -> Iterator[list[str]]:
    """Capture pypdf's log records and warnings for the duration (never printed).

    pypdf logs on child loggers ("pypdf._reader", ...), made on first use; a handler on the
    "pypdf" logger, with propagation stopped meanwhile, sees them all.
    """
    captured: list[str] = []
    logger = logging.getLogger("pypdf")

    class _Capture(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            captured.append(record.getMessage())

    handler = _Capture(level=logging.DEBUG)
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield captured
        captured.extend(str(w.message) for w in caught)
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def open_pdf(pdf: bytes, url: str) -> PdfReader:
    if pdf.lstrip()[:4] != PDF_MAGIC:
        raise UnsupportedFormatError(url, "not a PDF (the bytes do not start with %PDF)")
    try:
        reader = PdfReader(io.BytesIO(pdf))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (PyPdfError, NotImplementedError) as exc:
                raise PdfReadFailure(url, f"encrypted PDF that cannot be opened: {exc}") from None
            if not opened:
                raise PdfReadFailure(url, "encrypted PDF: a password is needed to read it")
        if len(reader.pages) == 0:
            raise PdfReadFailure(url, "the PDF has no pages")
    except ExtractionError:
        raise
    except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise PdfReadFailure(url, f"corrupt or truncated PDF ({exc})") from None
    return reader


def _page_runs(reader: PdfReader, index: int, url: str) -> tuple[PageObject, list[Run], str]:
    """(page, its text runs without margin line numbers, plain text as pypdf joins it)."""
    try:
        page = reader.pages[index]
        contents = page.get_contents()
        if contents is not None and len(contents.get_data()) > MAX_CONTENT_BYTES:
            raise PdfReadFailure(
                url, f"page {index + 1} content stream is larger than {MAX_CONTENT_BYTES} bytes"
            )
        runs, plain_text = page_runs(page)
        return page, drop_line_numbers(runs), plain_text
    except ExtractionError:
        raise
    except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise PdfReadFailure(url, f"corrupt or truncated PDF on page {index + 1} ({exc})") from None
    except RecursionError:
        raise PdfReadFailure(url, f"pathological content on page {index + 1}") from None


def _lines_of(page: PageObject, runs: list[Run], index: int, layout: bool) -> list[Line]:
    """The page's lines; with `layout`, runs that span several layout columns are cut first
    (a second pass over the page: only done when the byline looks glued)."""
    if layout:
        runs = split_joined_columns(runs, _layout_text(page))
    return [line for line in build_lines(runs, index + 1) if not STAMP_RE.search(line.text)]


def _layout_text(page: PageObject) -> str:
    """pypdf's layout-mode text (column gaps kept as spaces); empty when it cannot be made."""
    try:
        return page.extract_text(extraction_mode="layout", layout_mode_space_vertically=False)
    except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            ZeroDivisionError):  # fmt: skip
        return ""  # an aid only: without it, runs stay as pypdf drew them


def _stamp(texts: list[str]) -> tuple[str | None, str | None]:
    for text in texts:
        m = STAMP_RE.search(re.sub(r"\s+", " ", text))
        if m:
            arxiv_id = m.group("id") + (m.group("version") or "")
            try:
                when = datetime.strptime(
                    f"{m.group('day')} {m.group('month')} {m.group('year')}", "%d %b %Y"
                )
            except ValueError:
                return arxiv_id, None
            return arxiv_id, when.date().isoformat()
    return None, None


def _body_size(lines: list[Line]) -> float:
    weights: dict[float, int] = {}
    for line in lines:
        for seg in line.segments:
            if not seg.sup:
                key = round(seg.size, 1)
                weights[key] = weights.get(key, 0) + len(seg.text)
    return max(weights, key=lambda k: weights[k]) if weights else 10.0


def _style(line: Line) -> tuple[float, set[float], set[str]]:
    """(size carrying most characters, all sizes, fonts) of a line's full-size text."""
    weights: dict[float, int] = {}
    fonts: set[str] = set()
    for seg in line.segments:
        if not seg.sup and seg.text.strip():
            key = round(seg.size, 1)
            weights[key] = weights.get(key, 0) + len(seg.text.strip())
            fonts.add(seg.font)
    if not weights:
        return line.size, {round(line.size, 1)}, fonts
    return max(weights, key=lambda k: weights[k]), set(weights), fonts


def _same_size(a: float, b: float) -> bool:
    return abs(a - b) <= TITLE_SIZE_TOLERANCE * max(a, b)


def _title(lines: list[Line], height: float, after: int = 0) -> tuple[str | None, int]:
    """(title, index of the first line after it), looking from line `after` on (past a
    journal's masthead when the first title found led to no authors).

    The title starts at the first line, in the top part of the page, that holds its largest text.
    A wrapped title's further lines share its size (any of the sizes seen in it: a larger math
    glyph or small capitals do not break it) and follow at a title's line spacing; a line in none
    of the title's fonts must follow at a wrapped line's tight spacing (authors printed at the
    title's size stand further off).
    """
    top = [
        i for i, line in enumerate(lines) if line.y >= height * (1 - TITLE_REGION) and i >= after
    ]
    if not top:
        return None, 0
    body = _body_size(lines)
    # a line's size is that of most of its characters: a drop capital does not make a title
    biggest = max(_style(lines[i])[0] for i in top)
    if biggest < body * TITLE_MIN_RATIO:
        return None, 0
    start = next(i for i in top if _style(lines[i])[0] >= biggest - 0.6)
    main, sizes, fonts = _style(lines[start])
    sizes.add(round(lines[start].size, 1))
    end = start
    while end + 1 < len(lines):
        line, previous = lines[end + 1], lines[end]
        size, line_sizes, line_fonts = _style(line)
        spacing = (previous.y - line.y) if line.page == previous.page else float("inf")
        if not any(_same_size(size, s) for s in sizes) or size < body * TITLE_MIN_RATIO * 0.9:
            break
        limit = TITLE_SPACING if line_fonts & fonts else TITLE_WRAP_SPACING
        if spacing > limit * max(size, main):
            break
        sizes |= line_sizes
        fonts |= line_fonts
        end += 1
    title = clean(
        " ".join(" ".join(c.plain for c in lines[i].cells) for i in range(start, end + 1))
    )
    return title or None, end + 1


def _block_end(lines: list[Line], start: int) -> int | None:
    for i in range(start, len(lines)):
        text = lines[i].text
        if BLOCK_END_RE.match(text) or (i > start and is_prose(text)):
            return i
    return None


@dataclass
class Pages:
    """What the first page (and the second, when the block runs on) hold."""

    lines: list[Line]  # all lines read
    block: list[Line]  # the author block's lines
    texts: list[str]  # plain text per page read
    title: str | None
    arxiv_id: str | None
    date: str | None
    layout: bool  # columns were cut with the layout-mode text
    start: int  # index of the block's first line (the line after the title)


class PageReader:
    """Reads pages once; lines with or without layout-mode cutting on demand."""

    def __init__(self, reader: PdfReader, url: str) -> None:
        self.reader, self.url = reader, url
        self._runs: dict[int, tuple[PageObject, list[Run], str]] = {}

    def runs(self, index: int) -> tuple[PageObject, list[Run], str]:
        if index not in self._runs:
            self._runs[index] = _page_runs(self.reader, index, self.url)
        return self._runs[index]

    def pages(self, max_pages: int, *, layout: bool, after: int = 0) -> Pages:
        page, runs, plain = self.runs(0)
        if not plain.strip():
            raise PdfReadFailure(self.url, "no text layer on page 1 (scanned?)")
        rotated = [r.text for r in runs if r.font == "rotated"]
        lines = _lines_of(page, runs, 0, layout)
        arxiv_id, date = _stamp(rotated + [plain])
        title, start = _title(lines, float(page.mediabox.height), after)
        end = _block_end(lines, start)
        found = Pages(lines, lines[start:end], [plain], title, arxiv_id, date, layout, start)
        if end is None and max_pages > 1 and len(self.reader.pages) > 1:  # the block runs on
            page2, runs2, plain2 = self.runs(1)
            more = _lines_of(page2, runs2, 1, layout)
            found.block += more[: _block_end(more, 0)]
            found.lines += more
            found.texts.append(plain2)
            if found.arxiv_id is None:
                found.arxiv_id, found.date = _stamp([r.text for r in runs2 if r.font == "rotated"])
        found.block = found.block[:MAX_BLOCK_LINES]
        return found


def glued_row(block: list[Line]) -> bool:
    """A byline line printed as one run of several unseparated names ("Kaiming He Xiangyu
    Zhang Shaoqing Ren Jian Sun"): only the layout-mode text shows its column gaps."""
    for line in block:
        if any(GLUED_WORDS_RE.search(c.text) for c in line.cells):  # "ResearchGoogle"
            return True
        for seg in line.segments:
            words = seg.text.split()
            if (
                len(words) >= GLUED_ROW_WORDS
                and not re.search(r"[,;:@()]|\band\b", seg.text)
                and all(w[:1].isupper() for w in words)
            ):
                return True
    return False
