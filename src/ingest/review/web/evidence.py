"""The evidence quote in its surrounding text, from the stored snapshot: escaped, then marked.

The highlight is built by escaping each part (the text between marks, each marked span) and
wrapping only escaped spans in <mark>, so no source text ever reaches the page as markup.

A PDF snapshot shows page 1's text (ingest.review.web.pdf_evidence, pdfium's text) with the quote
and the person's name marked (`<mark class="name">`), beside a picture of the same page; the
template asks `Evidence.for_claim(claim)` for it, as the claim names the person.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from ingest.documents import parse_html
from ingest.errors import PdfEvidenceError, StoreError
from ingest.models import Snapshot
from ingest.review.web.pdf_evidence import (
    Targets,
    claim_targets,
    first_page_text,
    locate,
)
from ingest.sniff import sniff_format
from ingest.storage import Store

CONTEXT_CHARS = 360
PDF_CONTEXT_CHARS = 600  # page 1 of a paper: the title and author block before, the abstract after
_DROP = "script, style, noscript, template, svg"


@dataclass
class Evidence:
    html: Markup  # escaped text with the quote in <mark>
    found: bool
    note: str = ""
    pdf: bool = False  # the snapshot is a PDF: page 1's text, and a picture of the page
    pdf_error: str = ""  # why the PDF cannot be shown (no picture then)
    text: str = ""  # (PDF) page 1's text, to mark the claim's name in as well

    def for_claim(self, claim: dict[str, Any]) -> Evidence:
        """For a PDF, page 1's text with the claim's quote and its subject's name marked (the
        same spans the picture highlights); any other evidence as it is."""
        if not self.pdf or self.pdf_error:
            return self
        return pdf_text_evidence(self.text, claim_targets(claim))


@dataclass(frozen=True)
class PageText:
    text: str
    pdf: bool = False
    error: str = ""  # (PDF) why page 1 could not be read


def is_pdf(snapshot: Snapshot) -> bool:
    return sniff_format(snapshot.body, snapshot.content_type, snapshot.url) == "pdf"


def snapshot_sha256(row: Mapping[str, Any] | None) -> str | None:
    """The stored snapshot a change was found in (its own column, else its claim's evidence)."""
    if not row:
        return None
    evidence = (row.get("claim") or {}).get("evidence") or {}
    return row.get("snapshot_sha256") or evidence.get("sha256") or None


def page_text(snapshot: Snapshot) -> str:
    """The text a reader sees: for HTML the page's text (scripts and styles dropped), for a PDF
    its first page's (raises PdfEvidenceError when it cannot be read)."""
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "pdf":
        return first_page_text(snapshot.body)
    text = snapshot.text()
    if fmt != "html":
        return text
    tree = parse_html(text)  # nesting bounded, as every other HTML parse
    for node in tree.css(_DROP):
        node.decompose()
    root = tree.body or tree.root
    return root.text(deep=True) if root is not None else ""


def _pattern(quote: str) -> re.Pattern[str] | None:
    words = quote.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words))


def _loose_pattern(quote: str) -> re.Pattern[str] | None:
    chars = [c for c in quote if not c.isspace()]
    if not chars:
        return None
    return re.compile(r"\s*".join(re.escape(c) for c in chars))


_LOCATOR_NAMES = re.compile(r"'([^']+)'")  # h3 'Optimizers (torch.optim)' > li 2


def locator_start(text: str, locator: str) -> int:
    """Where in `text` the place the locator names begins: after each heading it quotes, in
    turn (`h2 'Core' > h3 'CUDA' > li 2`), as far as they are found; 0 when none is."""
    at = 0
    for name in _LOCATOR_NAMES.findall(locator or ""):
        pattern = _pattern(name)
        match = pattern.search(text, at) if pattern else None
        if match is None:
            break
        at = match.end()
    return at


def find_quote(text: str, quote: str, locator: str = "") -> tuple[int, int] | None:
    """The quote's span: the occurrence at the place the locator names (the first after its
    headings), else the first anywhere; None when it is not in the text."""
    start = locator_start(text, locator) if locator else 0
    for make in (_pattern, _loose_pattern):
        pattern = make(quote)
        if pattern is None:
            continue
        match = pattern.search(text, start) or (pattern.search(text) if start else None)
        if match:
            return match.start(), match.end()
    return None


MARK_TAGS = {"quote": Markup("<mark>"), "name": Markup('<mark class="name">')}


def mark_spans(text: str, spans: list[tuple[int, int, str]], context: int) -> Markup:
    """`text` around the spans (sorted, not overlapping; kind "quote" or "name"), each in
    <mark>, with `context` characters before the first and after the last; all escaped."""
    left = max(0, spans[0][0] - context)
    right = min(len(text), spans[-1][1] + context)
    html = escape("… " if left else "")
    at = left
    for start, end, kind in spans:
        html += escape(text[at:start]) + MARK_TAGS[kind] + escape(text[start:end])
        html += Markup("</mark>")
        at = end
    return html + escape(text[at:right] + (" …" if right < len(text) else ""))


def highlight(text: str, quote: str, context: int = CONTEXT_CHARS, locator: str = "") -> Evidence:
    span = find_quote(text, quote, locator) if quote else None
    if span is None:
        return Evidence(html=escape(quote), found=False, note="quote not found in the snapshot")
    return Evidence(html=mark_spans(text, [(*span, "quote")], context), found=True)


def pdf_text_evidence(text: str, targets: Targets) -> Evidence:
    """Page 1's text with the quote and the name marked (ignoring case, accents and spacing)."""
    if not text.strip():
        note = "page 1 has no text layer (a scanned PDF?): see its picture"
        return Evidence(html=Markup(""), found=False, note=note, pdf=True, text=text)
    found = locate(text, targets)
    missing = [
        what
        for what, wanted, span in (
            ("quote", targets.quotes, found.quote),
            ("name", targets.name, found.name),
        )
        if wanted and span is None
    ]
    verb = "were" if len(missing) > 1 else "was"
    note = f"the {' and the '.join(missing)} {verb} not found on page 1" if missing else ""
    if found.spans:
        html = mark_spans(text, found.spans, PDF_CONTEXT_CHARS)
    else:
        html = escape(
            text[: 2 * PDF_CONTEXT_CHARS] + (" …" if len(text) > 2 * PDF_CONTEXT_CHARS else "")
        )
    return Evidence(html=html, found=found.quote is not None, note=note, pdf=True, text=text)


class TextCache:
    """Page texts of recently shown snapshots (parsing a large page or a PDF once, not per
    request)."""

    def __init__(self, store: Store, size: int = 16) -> None:
        self.store = store
        self.get = lru_cache(maxsize=size)(self._load)

    def _load(self, sha256: str) -> PageText:
        snapshot = self.store.get_snapshot(sha256)
        if not is_pdf(snapshot):
            return PageText(page_text(snapshot))
        try:
            return PageText(first_page_text(snapshot.body), pdf=True)
        except PdfEvidenceError as exc:  # kept too: the bytes of a snapshot never change
            return PageText("", pdf=True, error=str(exc))


def evidence_for(cache: TextCache, sha256: str | None, quote: str, locator: str = "") -> Evidence:
    """The quote marked in its snapshot's text, at the place the locator names."""
    if not sha256:
        return Evidence(html=escape(quote), found=False, note="no stored snapshot")
    try:
        page = cache.get(sha256)
    except StoreError as exc:
        return Evidence(html=escape(quote), found=False, note=str(exc))
    if page.error:
        return Evidence(
            html=escape(quote), found=False, note=page.error, pdf=True, pdf_error=page.error
        )
    if page.pdf:
        return pdf_text_evidence(page.text, Targets(name="", quotes=(quote,) if quote else ()))
    if not page.text:
        return Evidence(html=escape(quote), found=False, note="the snapshot has no text to show")
    return highlight(page.text, quote, locator=locator)
