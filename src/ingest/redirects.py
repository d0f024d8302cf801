"""Find where an HTML redirect stub points (meta refresh, else a canonical link on a stub page).

Sphinx docs serve `/docs/stable/...` as a tiny page with a meta refresh and a canonical link to the
versioned page. A full page also carries a canonical link (often to itself or to `stable`), so the
canonical link only counts as a redirect on a page with no content of its own.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ingest.documents import parse_html

META_REFRESH = 'meta[http-equiv="refresh" i]'
CANONICAL = 'link[rel="canonical" i]'
_DELAY = re.compile(r"\d*")
STUB_MAX_TEXT = 200  # characters of visible text: more than this is a real page, not a stub


def stub_target(body: bytes, base_url: str) -> str | None:
    """The absolute URL an HTML redirect stub points to, or None for a real page."""
    head = body[:2048].lower()
    if b"<" not in head:
        return None
    return stub_target_in(parse_html(body[:200_000].decode("utf-8", errors="replace")), base_url)


def refresh_url(content: str) -> str | None:
    """The URL of a meta refresh's content ("0; url='/new/'"), or None.

    Read a part at a time: the one pattern it was ("^\\s*\\d*\\s*[;,]?\\s*url...") tried every split
    of a run of spaces three ways, so a content of 4,000 spaces took 84 s (cubic)."""
    rest = content.strip()
    rest = rest[_DELAY.match(rest).end() :].lstrip()  # type: ignore[union-attr]
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip()
    if rest[:3].lower() != "url":
        return None
    rest = rest[3:].lstrip()
    if rest[:1] != "=":
        return None
    rest = rest[1:].lstrip()
    if rest[:1] in ("'", '"'):
        rest = rest[1:]
    end = min((i for i in (rest.find("'"), rest.find('"')) if i >= 0), default=len(rest))
    url, tail = rest[:end].strip(), rest[end:]
    if not url or (tail and tail[1:].strip()):  # after the closing quote: nothing but spaces
        return None
    return url


def stub_target_in(tree: LexborHTMLParser, base_url: str) -> str | None:
    """`stub_target` for a page the caller has parsed already (no second parse)."""
    refresh = tree.css_first(META_REFRESH)
    if refresh is not None:
        url = refresh_url(refresh.attributes.get("content") or "")
        if url:
            return urljoin(base_url, url)
    canonical = tree.css_first(CANONICAL)
    if canonical is not None and canonical.attributes.get("href"):
        body_node = tree.body
        if body_node is not None and _more_text_than(body_node, STUB_MAX_TEXT):
            return None  # a real page: most pages stop here, without reading all their text
        text = body_node.text(separator=" ", strip=True) if body_node is not None else ""
        target = urljoin(base_url, canonical.attributes["href"] or "")
        if len(text) <= STUB_MAX_TEXT and target != base_url:
            return target
    return None


def _more_text_than(node: LexborNode, limit: int) -> bool:
    """True once the node's text nodes, stripped, hold more than `limit` characters: a lower
    bound of the length of `node.text(separator=" ", strip=True)`, read only as far as needed."""
    seen = 0
    for child in node.traverse(include_text=True):
        if child.tag == "-text":
            seen += len((child.text_content or "").strip())
            if seen > limit:
                return True
    return False
