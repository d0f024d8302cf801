"""A PDF snapshot as evidence: its first page's text and a picture of its author block.

pypdfium2 reads page 1 only. Its text is kept char for char in pdfium's own index (one Python
character per pdfium char, control characters replaced), so a span found in the text is also a
range of char boxes on the page. The claim's subject name and its quote (for an affiliation:
the printed affiliation, else `qualifiers.affiliation_text`, else the organisation) are found
ignoring case, accents, spacing and punctuation ("TAL AUGUST" ~ "Tal August", "Teˇsanovi´c" ~
"Tešanović"); the picture is the page rendered cropped to both boxes plus a margin, each box
under a translucent highlight, encoded as PNG by Pillow.

    first_page_text(pdf) -> str                        (raises PdfEvidenceError)
    claim_targets(claim) -> Targets                    (the name and the quotes to look for)
    locate(text, targets) -> Located                   (the spans, close together)
    render_author_block(pdf, targets) -> AuthorBlockImage   (its PNG, region and boxes)
    ImageCache(folder).png(sha256, change_id, load_pdf, targets) -> bytes   (on disk, by key)

Rendering is bounded: page 1 only, at most MAX_SCALE and MAX_WIDTH x MAX_HEIGHT pixels, pages
with more than MAX_PAGE_OBJECTS objects refused. PDFium is not thread-safe, so every call into it
holds one process-wide lock (the web server answers requests on several threads).
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw
from unidecode import unidecode

from ingest.errors import NotPdfError, PdfEvidenceError

RENDER_VERSION = 2  # part of the cache key: bump when the picture changes
MAX_SCALE = 3.0  # pixels per PDF point (216 dpi)
MAX_WIDTH = 1400  # pixels
MAX_HEIGHT = 1000  # pixels
MAX_PAGE_OBJECTS = 50_000  # page 1's objects; more is not a paper's first page
MAX_CHARS = 60_000  # of page 1's text
MAX_OCCURRENCES = 20  # of one string on the page
MAX_PAGE_RECTS = 5_000  # text rectangles of page 1 looked at for the found strings' lines
SAME_LINE = 0.6  # two boxes share a line when they overlap this much of the lower one's height
TALLER = 2.5  # ... and the other is at most this many times as tall
MARGIN = 18.0  # points around the found boxes (and the rest of their lines)
MIN_CROP_WIDTH = 260.0  # points: a lone short name still shows its neighbours
SIDE_CONTEXT = 70.0  # points of their lines either side: a wide author row is cut to the block
TOP_BAND = 0.42  # nothing found: the top of the page (title and authors)
BOX_PAD = 1.5  # points around a highlighted string
NAME_FILL = (35, 88, 196, 64)  # translucent blue (the page's --accent)
NAME_LINE = (35, 88, 196, 230)
QUOTE_FILL = (255, 200, 0, 96)  # translucent yellow (the page's --mark)
QUOTE_LINE = (201, 150, 0, 230)
CACHE_FOLDER = "evidence"  # under INGEST_HOME
_HEX64 = re.compile(r"[0-9a-f]{64}")
_WORD = re.compile(r"[^\W_]+")  # a run of letters and digits
_CACHE_ID = re.compile(r"[0-9A-Za-z]{1,64}")
_ACCENTS = {"Sk", "Lm", "Mn"}  # modifier symbols and letters, combining marks
_TEXT_REPLACEMENTS = {"\x02": "-", "\ufffe": "-", "\r": " "}  # pdfium's soft hyphen, CR of CRLF

_PDFIUM_LOCK = threading.Lock()  # PDFium keeps global state: one caller at a time


@dataclass(frozen=True)
class Targets:
    """What to find on the page: the person's name and the quote (first that is found)."""

    name: str
    quotes: tuple[str, ...] = ()


@dataclass
class Located:
    name: tuple[int, int] | None = None
    quote: tuple[int, int] | None = None
    spans: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, "name"/"quote")


def claim_targets(claim: dict[str, Any]) -> Targets:
    """The name and quote candidates of a claim (a change's `claim` column)."""
    subject = claim.get("subject") or {}
    evidence = claim.get("evidence") or {}
    quals = claim.get("qualifiers") or {}
    quotes = [str(evidence.get("quote") or "")]
    if claim.get("predicate") == "affiliation":
        quotes += [str(quals.get("affiliation_text") or ""), str(claim.get("object") or "")]
    return Targets(
        name=str(subject.get("name") or ""),
        quotes=tuple(dict.fromkeys(q for q in quotes if q.strip())),
    )


# --- finding -------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    if char.isascii():
        return char.lower() if char.isalnum() else ""
    if unicodedata.category(char) in _ACCENTS:  # a spacing accent drawn apart: "Teˇsanovi´c"
        return ""
    return "".join(c for c in unidecode(char).lower() if c.isalnum())


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` lower-cased ASCII letters and digits only, and each folded char's index in `text`."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        folded = _fold_char(char)
        out.append(folded)
        where.extend([i] * len(folded))
    return "".join(out), where


def find_all(text: str, needle: str, limit: int = MAX_OCCURRENCES) -> list[tuple[int, int]]:
    """Spans of `needle` in `text`, ignoring case, accents, spaces and punctuation."""
    target, _ = _folded(needle)
    if not target:
        return []
    hay, where = _folded(text)
    spans: list[tuple[int, int]] = []
    at = hay.find(target)
    while at >= 0 and len(spans) < limit:
        spans.append((where[at], where[at + len(target) - 1] + 1))
        at = hay.find(target, at + len(target))
    return spans


def locate(text: str, targets: Targets) -> Located:
    """The name and the first quote found: of their occurrences, the pair printed most like
    them (whole words, spaced as they are: "Melissa Dell" rather than "melissadell@..."), then
    nearest each other."""
    names = _ranked(text, targets.name) if targets.name else []
    quotes: list[tuple[int, tuple[int, int]]] = []
    for quote in targets.quotes:
        quotes = _ranked(text, quote)
        if quotes:
            break
    found = Located()
    if names and quotes:
        (_, found.name), (_, found.quote) = min(
            ((n, q) for n in names for q in quotes),
            key=lambda p: (p[0][0] + p[1][0], abs(p[0][1][0] - p[1][1][0])),
        )
    else:
        found.name = min(names)[1] if names else None
        found.quote = min(quotes)[1] if quotes else None
    if found.quote:
        found.spans.append((*found.quote, "quote"))
    if found.name and not (found.quote and _overlap(found.name, found.quote)):
        found.spans.append((*found.name, "name"))
    found.spans.sort()
    return found


def _ranked(text: str, needle: str) -> list[tuple[int, tuple[int, int]]]:
    """Each occurrence with its flaws (0 is best): 1 when it runs into a longer word, 1 when
    its words are run together."""
    words = len(_WORD.findall(needle))
    out = []
    for start, end in find_all(text, needle):
        inside = (start > 0 and text[start - 1].isalnum()) or (
            end < len(text) and text[end].isalnum()
        )
        joined = len(_WORD.findall(text[start:end])) < words
        out.append((int(inside) + int(joined), (start, end)))
    return out


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


# --- reading -------------------------------------------------------------------------------


def _open(pdf: bytes) -> pdfium.PdfDocument:
    if not pdf[:1024].lstrip().startswith(b"%PDF-"):
        raise NotPdfError()
    try:
        doc = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as exc:
        raise PdfEvidenceError(f"corrupt or unreadable PDF ({exc})") from None
    if len(doc) == 0:
        doc.close()
        raise PdfEvidenceError("the PDF has no pages")
    return doc


def _first_page(doc: pdfium.PdfDocument) -> pdfium.PdfPage:
    try:
        page = doc[0]
    except pdfium.PdfiumError as exc:
        raise PdfEvidenceError(f"page 1 cannot be read ({exc})") from None
    objects = pdfium_c.FPDFPage_CountObjects(page)
    if objects > MAX_PAGE_OBJECTS:
        raise PdfEvidenceError(f"page 1 has {objects} objects, more than {MAX_PAGE_OBJECTS}")
    return page


def _page_text(page: pdfium.PdfPage) -> tuple[pdfium.PdfTextPage, str]:
    """Page 1's text page and its text, one character per pdfium char (index for index)."""
    try:
        textpage = page.get_textpage()
        count = min(textpage.count_chars(), MAX_CHARS)
    except pdfium.PdfiumError as exc:
        raise PdfEvidenceError(f"page 1 has no readable text ({exc})") from None
    chars = []
    for i in range(count):
        code = pdfium_c.FPDFText_GetUnicode(textpage, i)
        char = "\ufffd" if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF else chr(code)
        char = _TEXT_REPLACEMENTS.get(char, char)
        chars.append(" " if char < " " and char not in "\n\t" else char)
    return textpage, "".join(chars)


def first_page_text(pdf: bytes) -> str:
    """The text of page 1, as pdfium reads it."""
    with _PDFIUM_LOCK:
        doc = _open(pdf)
        try:
            return _page_text(_first_page(doc))[1]
        finally:
            doc.close()


# --- the picture ---------------------------------------------------------------------------

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points


def _boxes(textpage: pdfium.PdfTextPage, span: tuple[int, int]) -> list[Box]:
    start, end = span
    count = textpage.count_rects(start, end - start)
    return [textpage.get_rect(i) for i in range(count)]


def _on_their_lines(textpage: pdfium.PdfTextPage, boxes: list[Box]) -> list[Box]:
    """The page's text rectangles that share a line with one of `boxes` (so the picture shows
    the whole author line, not a name cut from its neighbours)."""
    if not boxes:
        return []
    count = min(textpage.count_rects(), MAX_PAGE_RECTS)
    rects = [textpage.get_rect(i) for i in range(count)]
    return [r for r in rects if any(_same_line(r, b) for b in boxes)]


def _same_line(r: Box, b: Box) -> bool:
    """Overlapping most of the lower one's height, and not much taller (a margin stamp drawn
    upwards is not a line)."""
    rh, bh = r[3] - r[1], b[3] - b[1]
    return min(r[3], b[3]) - max(r[1], b[1]) >= SAME_LINE * min(rh, bh) and rh <= TALLER * bh


def _union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _region(boxes: list[Box], page: Box, lines: list[Box] | None = None) -> Box:
    """The boxes with a margin (and a least width), inside the page; else the page's top band.
    Their `lines` widen it by at most SIDE_CONTEXT a side (a wide row does not shrink it)."""
    left, bottom, right, top = page
    if not boxes:
        return left, top - (top - bottom) * TOP_BAND, right, top
    x0, y0, x1, y1 = _union(boxes)
    if lines:
        lx0, ly0, lx1, ly1 = _union(lines)
        x0, x1 = max(lx0, x0 - SIDE_CONTEXT), min(lx1, x1 + SIDE_CONTEXT)
        y0, y1 = min(y0, ly0), max(y1, ly1)
    grow = max(0.0, MIN_CROP_WIDTH - (x1 - x0)) / 2
    return (
        max(left, x0 - MARGIN - grow),
        max(bottom, y0 - MARGIN),
        min(right, x1 + MARGIN + grow),
        min(top, y1 + MARGIN),
    )


def _scale(region: Box) -> float:
    width, height = max(region[2] - region[0], 1.0), max(region[3] - region[1], 1.0)
    return min(MAX_SCALE, MAX_WIDTH / width, MAX_HEIGHT / height)


@dataclass
class AuthorBlockImage:
    png: bytes
    region: Box  # the part of page 1 shown, in PDF points
    scale: float  # pixels per point
    marks: list[tuple[str, list[Box]]]  # ("name" or "quote", its boxes on the page)

    def to_pixels(self, box: Box) -> tuple[float, float, float, float]:
        """A box on the page as (left, top, right, bottom) pixels of the picture."""
        x0, y0, x1, y1 = box
        left, _, _, top = self.region
        s = self.scale
        return (x0 - left) * s, (top - y1) * s, (x1 - left) * s, (top - y0) * s


def render_author_block(pdf: bytes, targets: Targets) -> AuthorBlockImage:
    """Page 1 cropped to the name and the quote, each highlighted; the top of the page when
    neither is on it."""
    with _PDFIUM_LOCK:
        doc = _open(pdf)
        try:
            page = _first_page(doc)
            if page.get_rotation():
                page.set_rotation(0)  # boxes are in unrotated page space
            textpage, text = _page_text(page)
            found = locate(text, targets)
            marks = [(kind, _boxes(textpage, (s, e))) for s, e, kind in found.spans]
            boxes = [b for _, found_boxes in marks for b in found_boxes]
            bounds: Box = page.get_bbox()
            region = _region(boxes, bounds, boxes + _on_their_lines(textpage, boxes))
            scale = _scale(region)
            crop = (
                region[0] - bounds[0],
                region[1] - bounds[1],
                bounds[2] - region[2],
                bounds[3] - region[3],
            )
            image = page.render(scale=scale, crop=crop, may_draw_forms=False).to_pil()
        except pdfium.PdfiumError as exc:
            raise PdfEvidenceError(f"page 1 cannot be rendered ({exc})") from None
        finally:
            doc.close()
    shown = AuthorBlockImage(png=b"", region=region, scale=scale, marks=marks)
    shown.png = _png(_highlight(image, shown))
    return shown


def _highlight(image: Image.Image, shown: AuthorBlockImage) -> Image.Image:
    base = image.convert("RGBA")
    overlay = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for kind, boxes in shown.marks:
        fill, line = (NAME_FILL, NAME_LINE) if kind == "name" else (QUOTE_FILL, QUOTE_LINE)
        for x0, y0, x1, y1 in boxes:
            padded = (x0 - BOX_PAD, y0 - BOX_PAD, x1 + BOX_PAD, y1 + BOX_PAD)
            width = max(1, round(shown.scale * 0.6))
            draw.rectangle(shown.to_pixels(padded), fill=fill, outline=line, width=width)
    return Image.alpha_composite(base, overlay).convert("RGB")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


# --- the cache -----------------------------------------------------------------------------


class ImageCache:
    """Rendered pictures on disk, keyed by snapshot sha256, change id and RENDER_VERSION."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def under(cls, home: Path) -> ImageCache:
        return cls(home / CACHE_FOLDER)

    def path(self, sha256: str, change_id: str) -> Path:
        if not _HEX64.fullmatch(sha256) or not _CACHE_ID.fullmatch(change_id):
            raise ValueError(f"not a snapshot sha256 and change id: {sha256!r}, {change_id!r}")
        return self.folder / sha256[:2] / f"{sha256}-{change_id}-v{RENDER_VERSION}.png"

    def png(
        self, sha256: str, change_id: str, load_pdf: Callable[[], bytes], targets: Targets
    ) -> bytes:
        """The cached picture, rendered (and stored) on first use."""
        path = self.path(sha256, change_id)
        try:
            return path.read_bytes()
        except OSError:
            pass
        data = render_author_block(load_pdf(), targets).png
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)  # readers see the whole file or none
        except OSError:
            Path(tmp).unlink(missing_ok=True)  # a read-only home still answers, uncached
        return data
