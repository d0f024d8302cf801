"""arXiv paper PDFs -> `author_of` and `affiliation` claims.

For each author found on the page, in order: an `author_of` claim (object the work, qualifiers
title, published and position; quote the name as printed), then one `affiliation` claim per
printed affiliation.

Reads the first page (and the second only when the author block runs on), with pypdf's
positioned text runs (`extract_text(visitor_text=...)`: position, size and font of each run), so
superscript markers are told apart by size and rise, and side-by-side author columns by their
x positions. The block between the title and the abstract is parsed by
`extractors._author_block.BlockParser` (layouts listed there); the margin stamp
"arXiv:2103.15348v2 [cs.CV] 21 Jun 2021" gives the work and its date.

    parse_paper(pdf_bytes, known_authors=None) -> ParsedPaper      (pure; raises PdfReadFailure)
    extract(snapshot) -> list[Claim]
    extract_with_metadata(snapshot, authors=[...], work="arXiv:...", date="YYYY-MM-DD")

With `known_authors` (arXiv metadata), those spellings are the names and the PDF gives the
affiliations and emails: printed names are matched to them ignoring case and accents, so an
ALL-CAPS header ("MARTI A. HEARST") still finds "Marti A. Hearst".

Failures raise ExtractionError subclasses naming the URL and the cause: non-PDF bytes
(UnsupportedFormatError), corrupt or truncated files, encrypted files that an empty password does
not open, pages without a text layer (scanned), pages without an author block, and oversized
content streams. pypdf's log messages are captured, never printed.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from pypdf import PageObject, PdfReader
from pypdf.errors import PyPdfError

from extractors._author_block import (
    Author,
    BlockParser,
    clean,
    fix_accents,
    is_prose,
    organisation_of,
)
from extractors._pdf_notes import attach_are_with
from extractors._pdf_text import (
    Line,
    Run,
    build_lines,
    drop_line_numbers,
    page_runs,
    split_joined_columns,
)
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Claim, Evidence, Snapshot, Subject
from ingest.names import fold, same_person_name

NAME = "arxiv_pdf"
VERSION = 2

# https://arxiv.org/pdf/2103.15348v2, /pdf/2103.15348.pdf, /pdf/cond-mat/0601001v1
ARXIV_PDF_URL_RE = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/pdf/"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?P<version>v\d+)?(?:\.pdf)?/?(?:[?#].*)?$",
    re.I,
)
# The margin stamp: "arXiv:1111.2011v2  [cond-mat.str-el]  2 Apr 2012"
STAMP_RE = re.compile(
    r"arXiv:\s*(?P<id>\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?P<version>v\d+)?\s*"
    r"\[(?P<category>[^\]]+)\]\s*(?P<day>\d{1,2})\s+(?P<month>[A-Z][a-z]{2})[a-z]*\.?\s+"
    r"(?P<year>\d{4})"
)
DOI_RE = re.compile(r"\b(?:doi\.org/|doi:\s*|DOI:?\s*)(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;])", re.I)
# The line that ends the author block.
BLOCK_END_RE = re.compile(
    r"^\s*(abstract\b|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t\b|keywords\b|key\s?words\b|index terms\b|"
    r"ccs concepts\b|acm reference format\b|(?:1|i)\.?\s+introduction\b|introduction$|"
    r"summary$|summary\s+background\b|article\s+info\b|a\s?r\s?t\s?i\s?c\s?l\s?e\s+i\s?n\s?f\s?o\b)",
    re.I,
)
PDF_MAGIC = b"%PDF"
MAX_PAGES_READ = 2
MAX_CONTENT_BYTES = 8_000_000  # decoded content stream of one page
MAX_BLOCK_LINES = 60
SIDEBAR_GAP = 5.0  # points: cells ending this far left of every name are a sidebar
GLUED_ROW_WORDS = 4  # capitalised words in one run without separators: maybe glued columns
TITLE_MIN_RATIO = 1.15  # title text is at least this much larger than body text
TITLE_REGION = 0.45  # the title sits in the top part of the page
TITLE_SIZE_TOLERANCE = 0.06  # a title's lines share its size, within this fraction
TITLE_SPACING = 1.9  # a title's next line lies within this many sizes below the last
TITLE_WRAP_SPACING = 1.45  # ... and this close when it is in none of the title's fonts


class PdfReadFailure(ExtractionError):
    """The PDF could not be read: corrupt, truncated, encrypted, scanned or without authors."""


@dataclass
class AffiliationLine:
    text: str  # the whole printed affiliation, its lines joined with ", "
    organisation: str  # the institution: the most institution-like comma part
    locator: str  # "page 1, author block, affiliation 2"
    quote: str  # verbatim text as pypdf extracted it


@dataclass
class ParsedAuthor:
    name: str
    affiliations: list[AffiliationLine] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)
    quote: str | None = None  # the name verbatim as extracted; None when not found on the page
    locator: str | None = None  # "page 1, author block, author 3"


@dataclass
class ParsedPaper:
    title: str | None
    arxiv_id: str | None  # with its version, from the stamp: "2103.15348v2"
    date: str | None  # ISO date of the stamp
    authors: list[ParsedAuthor] = field(default_factory=list)
    doi: str | None = None


def matches(url: str, snapshot: Snapshot | None) -> bool:
    if ARXIV_PDF_URL_RE.match(url or ""):
        return True
    return snapshot is not None and snapshot.body.lstrip()[:4] == PDF_MAGIC


# --- reading -----------------------------------------------------------------------------------


@contextmanager
def _quiet_pypdf() -> Iterator[list[str]]:
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


def _open(pdf: bytes, url: str) -> PdfReader:
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


# --- parsing -----------------------------------------------------------------------------------


@dataclass
class _Pages:
    """What the first page (and the second, when the block runs on) hold."""

    lines: list[Line]  # all lines read
    block: list[Line]  # the author block's lines
    texts: list[str]  # plain text per page read
    title: str | None
    arxiv_id: str | None
    date: str | None
    layout: bool  # columns were cut with the layout-mode text
    start: int  # index of the block's first line (the line after the title)


class _Reader:
    """Reads pages once; lines with or without layout-mode cutting on demand."""

    def __init__(self, reader: PdfReader, url: str) -> None:
        self.reader, self.url = reader, url
        self._runs: dict[int, tuple[PageObject, list[Run], str]] = {}

    def runs(self, index: int) -> tuple[PageObject, list[Run], str]:
        if index not in self._runs:
            self._runs[index] = _page_runs(self.reader, index, self.url)
        return self._runs[index]

    def pages(self, max_pages: int, *, layout: bool, after: int = 0) -> _Pages:
        page, runs, plain = self.runs(0)
        if not plain.strip():
            raise PdfReadFailure(self.url, "no text layer on page 1 (scanned?)")
        rotated = [r.text for r in runs if r.font == "rotated"]
        lines = _lines_of(page, runs, 0, layout)
        arxiv_id, date = _stamp(rotated + [plain])
        title, start = _title(lines, float(page.mediabox.height), after)
        end = _block_end(lines, start)
        found = _Pages(lines, lines[start:end], [plain], title, arxiv_id, date, layout, start)
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


def _glued_row(block: list[Line]) -> bool:
    """A byline line printed as one run of several unseparated names ("Kaiming He Xiangyu
    Zhang Shaoqing Ren Jian Sun"): only the layout-mode text shows its column gaps."""
    for line in block:
        for seg in line.segments:
            words = seg.text.split()
            if (
                len(words) >= GLUED_ROW_WORDS
                and not re.search(r"[,;:@()]|\band\b", seg.text)
                and all(w[:1].isupper() for w in words)
            ):
                return True
    return False


def _authors(pages: _Pages, known_authors: list[str] | None) -> list[Author]:
    text = "\n".join(pages.texts)
    found = BlockParser(known_authors).parse(pages.block, pages.lines, text)
    trimmed = _without_sidebar(pages.block, found)
    if trimmed is not None:  # a margin column beside the block (correspondence, funding)
        pages.block = trimmed
        found = BlockParser(known_authors).parse(pages.block, pages.lines, text)
    in_block = {id(line) for line in pages.block}
    attach_are_with(found, [line for line in pages.lines if id(line) not in in_block])
    return found


def parse_paper(
    pdf: bytes,
    *,
    known_authors: list[str] | None = None,
    max_pages: int = 2,
    url: str = "<pdf>",
) -> ParsedPaper:
    """Title, stamp and authors (with affiliations and emails) of an arXiv paper's PDF."""
    with _quiet_pypdf():
        reader = _Reader(_open(pdf, url), url)
        pages = reader.pages(max_pages, layout=False)
        if _glued_row(pages.block):
            pages = reader.pages(max_pages, layout=True)
        found = _authors(pages, known_authors)
        if not found and not pages.layout:  # nothing read: try again with the columns cut
            pages = reader.pages(max_pages, layout=True)
            found = _authors(pages, known_authors)
        if not found and pages.title:  # a journal's masthead taken for the title: the next one
            retry = reader.pages(max_pages, layout=pages.layout, after=pages.start)
            if retry.title:
                pages, found = retry, _authors(retry, known_authors)
    text = "\n".join(pages.texts)
    authors = _finish(found, known_authors, text)
    if not authors:
        raise PdfReadFailure(url, "no author block found on page 1")
    doi_match = DOI_RE.search(pages.texts[0])
    return ParsedPaper(
        title=pages.title,
        arxiv_id=pages.arxiv_id,
        date=pages.date,
        authors=authors,
        doi=doi_match.group(1) if doi_match else None,
    )


def _without_sidebar(block: list[Line], found: list[Author]) -> list[Line] | None:
    """The block without the cells printed wholly left of the first name (a sidebar beside the
    byline); None when there are none."""
    if not found:
        return None
    left = found[0].x0 - SIDEBAR_GAP
    if not any(c.x1 < left for line in block for c in line.cells):
        return None
    out: list[Line] = []
    for line in block:
        cells = [c for c in line.cells if c.x1 >= left]
        if cells:
            segments = [s for c in cells for s in c.segments]
            out.append(Line(y=line.y, page=line.page, segments=segments, cells=cells))
    return out


def _display_name(name: str, page_text: str) -> str:
    """An ALL-CAPS name in its mixed-case spelling from elsewhere on the page, if printed."""
    name = clean(name)
    if not name.isupper():
        return name
    pattern = r"\s+".join(re.escape(p) for p in name.split())
    for m in re.finditer(pattern, page_text, re.I):
        if not m.group(0).isupper():
            return re.sub(r"\s+", " ", m.group(0))
    return name.title()


def _verbatim(quote: str, page_text: str) -> str | None:
    """`quote` as it stands in the page text: itself, or with the page's own line breaks and
    spacing between its words (a name drawn in several runs); None when it is not there."""
    if quote and quote in page_text:
        return quote
    words = quote.split()
    if not words:
        return None
    m = re.search(r"\s*".join(re.escape(w) for w in words), page_text)
    return m.group(0) if m else None


def _finish(found: list[Author], known: list[str] | None, page_text: str) -> list[ParsedAuthor]:
    order = {id(a): i for i, a in enumerate(found, start=1)}

    def convert(author: Author, name: str) -> ParsedAuthor:
        return ParsedAuthor(
            name=name,
            quote=_verbatim(author.quote or author.name, page_text),
            locator=f"page {author.page}, author block, author {order[id(author)]}",
            affiliations=[
                AffiliationLine(
                    text=fix_accents(aff.text),
                    organisation=organisation_of(fix_accents(aff.text)),
                    locator=f"page {aff.page}, author block, affiliation {aff.index}",
                    quote=aff.quote,
                )
                for aff in author.affiliations
            ],
            emails=list(author.emails),
        )

    if not known:
        return [convert(a, _display_name(a.name, page_text)) for a in found]
    result: list[ParsedAuthor] = []
    used: set[int] = set()
    for name in known:
        match = next(
            (
                i
                for i, a in enumerate(found)
                if i not in used and (fold(a.name) == fold(name) or same_person_name(a.name, name))
            ),
            None,
        )
        if match is None:
            result.append(ParsedAuthor(name=name))
        else:
            used.add(match)
            result.append(convert(found[match], name))
    if not used:
        return []
    return result


# --- claims ------------------------------------------------------------------------------------


def _work(paper: ParsedPaper, url: str) -> str:
    if paper.arxiv_id:
        return "arXiv:" + re.sub(r"v\d+$", "", paper.arxiv_id)
    m = ARXIV_PDF_URL_RE.match(url or "")
    if m:
        return "arXiv:" + m.group("id")
    if paper.doi:
        return "doi:" + paper.doi
    return url


def _claims(paper: ParsedPaper, snapshot: Snapshot, work: str, date: str | None) -> list[Claim]:
    claims: list[Claim] = []
    tag = f"{NAME}/{VERSION}"
    for position, author in enumerate(paper.authors, start=1):
        email = author.emails[0] if author.emails else None
        subject = Subject(name=author.name, email=email)
        if author.quote and author.locator:
            work_qualifiers: dict[str, object] = {}
            if paper.title:
                work_qualifiers["title"] = paper.title
            if date:
                work_qualifiers["published"] = date
            work_qualifiers["position"] = position
            claims.append(
                Claim(
                    subject=subject,
                    predicate="author_of",
                    object=work,
                    qualifiers=work_qualifiers,
                    evidence=Evidence(
                        url=snapshot.url,
                        sha256=snapshot.sha256,
                        locator=author.locator,
                        quote=author.quote,
                    ),
                    extractor=tag,
                )
            )
        for aff in author.affiliations:
            qualifiers: dict[str, object] = {"work": work}
            if date:
                qualifiers["date"] = date
            qualifiers["affiliation_text"] = aff.text
            qualifiers["position"] = position
            claims.append(
                Claim(
                    subject=subject,
                    predicate="affiliation",
                    object=aff.organisation,
                    qualifiers=qualifiers,
                    evidence=Evidence(
                        url=snapshot.url,
                        sha256=snapshot.sha256,
                        locator=aff.locator,
                        quote=aff.quote,
                    ),
                    extractor=tag,
                )
            )
    return claims


def extract(snapshot: Snapshot) -> list[Claim]:
    paper = parse_paper(snapshot.body, url=snapshot.url)
    return _claims(paper, snapshot, _work(paper, snapshot.url), paper.date)


def extract_with_metadata(
    snapshot: Snapshot, *, authors: list[str], work: str, date: str | None
) -> list[Claim]:
    """Claims with the metadata's author names, work id and date; affiliations from the PDF."""
    paper = parse_paper(snapshot.body, known_authors=authors, url=snapshot.url)
    return _claims(paper, snapshot, work, date or paper.date)
