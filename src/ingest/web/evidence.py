"""The evidence quote in its surrounding text, from the stored snapshot: escaped, then marked.

The highlight is built by escaping each part (before, quote, after) and wrapping only the escaped
quote in <mark>, so no source text ever reaches the page as markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape
from selectolax.lexbor import LexborHTMLParser

from ingest.errors import StoreError
from ingest.models import Snapshot
from ingest.sniff import sniff_format
from ingest.store import Store

CONTEXT_CHARS = 360
_DROP = "script, style, noscript, template, svg"


@dataclass
class Evidence:
    html: Markup  # escaped text with the quote in <mark>
    found: bool
    note: str = ""


def page_text(snapshot: Snapshot) -> str:
    """The text a reader sees: for HTML the page's text (scripts and styles dropped)."""
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "pdf":
        return ""
    text = snapshot.text()
    if fmt != "html":
        return text
    tree = LexborHTMLParser(text)
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


def find_quote(text: str, quote: str) -> tuple[int, int] | None:
    for make in (_pattern, _loose_pattern):
        pattern = make(quote)
        match = pattern.search(text) if pattern else None
        if match:
            return match.start(), match.end()
    return None


def highlight(text: str, quote: str, context: int = CONTEXT_CHARS) -> Evidence:
    span = find_quote(text, quote) if quote else None
    if span is None:
        return Evidence(html=escape(quote), found=False, note="quote not found in the snapshot")
    start, end = span
    left = max(0, start - context)
    right = min(len(text), end + context)
    before = ("… " if left else "") + text[left:start]
    after = text[end:right] + (" …" if right < len(text) else "")
    html = escape(before) + Markup("<mark>") + escape(text[start:end]) + Markup("</mark>")
    return Evidence(html=html + escape(after), found=True)


class TextCache:
    """Page texts of recently shown snapshots (parsing a large page once, not per request)."""

    def __init__(self, store: Store, size: int = 16) -> None:
        self.store = store
        self.get = lru_cache(maxsize=size)(self._load)

    def _load(self, sha256: str) -> str:
        return page_text(self.store.get_snapshot(sha256))


def evidence_for(cache: TextCache, sha256: str | None, quote: str) -> Evidence:
    if not sha256:
        return Evidence(html=escape(quote), found=False, note="no stored snapshot")
    try:
        text = cache.get(sha256)
    except StoreError as exc:
        return Evidence(html=escape(quote), found=False, note=str(exc))
    if not text:
        return Evidence(html=escape(quote), found=False, note="the snapshot has no text to show")
    return highlight(text, quote)
