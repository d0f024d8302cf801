"""Element-level readers of the HTML walk (`extractors.document.html`): an element's text and
links, a card's text, a table cell, a table's own rows, whether a div reads as one paragraph,
and the people a grid of linked avatars shows."""

from __future__ import annotations

from collections.abc import Iterator

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.document.model import Cell, Item, Links, collapse, github_login
from ingest.documents import parse_html

HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
CARD_PARTS = frozenset({"p", "div", "h3", "h4", "h5", "h6"})  # what a person card is made of
CARD_MAX_BLOCKS = 4
CARD_MAX_CHARS = 160
BLOCK_TAGS = frozenset({"p", "div", "section", "pre", "table", "ul", "ol", "dl", "blockquote"})


def _tag_id(tag: str) -> int:
    """lexbor's number for a tag name (comparing numbers decodes no name per element)."""
    node = LexborHTMLParser(f"<{tag}>").css_first(tag)
    assert node is not None
    return int(node.tag_id)


_A, _LI, _IMG = _tag_id("a"), _tag_id("li"), _tag_id("img")


def node_text(node: LexborNode, separator: str = "") -> str:
    return collapse(node.text(deep=True, separator=separator))


def links_of(node: LexborNode) -> Links:
    """The `a[href]` descendants in document order (one walk, not a CSS query)."""
    found = []
    for a in node.traverse(include_text=False):
        if a.tag_id == _A:  # the tag's number: no name decoded per element
            href = a.attrs.get("href")  # the one attribute (`attributes` decodes them all)
            if href is not None:
                found.append((collapse(a.text(deep=True, separator="")), href or ""))
    return tuple(found)


def _card_text(node: LexborNode) -> str:
    """A div's text, its blocks joined by ", " ("Jane Roe, Example Labs": a card's name and
    organisation are two parts, not one name)."""
    parts = []
    for child in node.iter(include_text=True):
        tag = (child.tag or "").lower()
        text = collapse(child.text_content or "") if tag == "-text" else _fields_text(child)
        if text:
            parts.append(text)
    return ", ".join(parts) if any(
        (c.tag or "").lower() in CARD_PARTS for c in node.iter(include_text=False)
    ) else node_text(node)  # fmt: skip


def _fields_text(node: LexborNode, depth: int = 0) -> str:
    """An element's text, where two elements meet with no text between them joined by ", ":
    a card's fields ("<span>Jane Roe</span><a>@jroe</a><span>Lead</span>", set apart by its
    style) are parts, not one run of words. A block part (`<h6>`, `<div>`, or a made-up
    heading such as `<h7>`) is a part whatever white space sets it apart."""
    if depth > 8:
        return node_text(node)
    pieces: list[str] = []
    after_element = after_block = False
    for child in node.iter(include_text=True):
        if child.tag == "-text":
            content = child.text_content or ""
            if content.strip() and after_block:
                pieces[-1] = pieces[-1].rstrip()
                content = ", " + content.lstrip()
            pieces.append(content)
            after_element = after_block = after_block and not content.strip()
            continue
        tag = (child.tag or "").lower()
        block = tag in CARD_PARTS or (tag[:1] == "h" and tag[1:].isdigit())
        text = _fields_text(child, depth + 1).strip()
        if text:
            apart = after_element or (block and any(p.strip() for p in pieces))
            if apart and pieces:
                pieces[-1] = pieces[-1].rstrip()
            pieces.append(f", {text}" if apart else text)
            after_element, after_block = True, block
    return collapse("".join(pieces))


def _cell(node: LexborNode) -> Cell:
    html = node.html or ""
    lines: tuple[str, ...] = ()
    if "<br" in html.lower():
        parts = parse_html(
            html.replace("<br>", "\n").replace("<br/>", "\n").replace("<br />", "\n")
        )
        body = parts.body
        raw = body.text(deep=True, separator="") if body is not None else ""
        lines = tuple(collapse(line) for line in raw.splitlines() if line.strip())
    return Cell(node_text(node, " "), links_of(node), lines)


def _own_rows(table: LexborNode) -> Iterator[LexborNode]:
    """The table's `tr` elements in order, not those of tables nested in it."""
    stack = list(reversed(list(table.iter(include_text=False))))
    while stack:
        node = stack.pop()
        tag = (node.tag or "").lower()
        if tag == "table":
            continue
        if tag == "tr":
            yield node
        stack.extend(reversed(list(node.iter(include_text=False))))


def _is_leaf(node: LexborNode) -> bool:
    """A div/section read as one paragraph: it holds text and no block element, or it is a
    card (a short text in a few small blocks: a photo, a name, a profile link)."""
    blocks = 0
    for child in node.traverse(include_text=False):
        tag = (child.tag or "").lower()
        if child is node or tag not in BLOCK_TAGS | set(HEADING_TAGS):
            continue
        if tag not in CARD_PARTS:
            return False
        blocks += 1
    text = node.text(deep=True).strip()
    if not text:
        return False
    if blocks == 0:
        return True
    card = node.css_first("a[href], img") is not None  # a card shows a photo or a link
    return card and blocks <= CARD_MAX_BLOCKS and len(text) <= CARD_MAX_CHARS


def avatar_items(node: LexborNode, list_no: int) -> list[Item]:
    """A block that prints no text but links pictures (a grid of avatars, each linking a
    GitHub profile): one item a link, its text what the picture says of whom it shows (`alt`,
    else `title` or `aria-label`); [] unless two or more, all linking profiles (a row of
    social icons or sponsor logos links sites, not people)."""
    found: list[Item] = []
    for a in node.traverse(include_text=False):
        if a.tag_id != _A or not a.attributes.get("href"):
            continue
        said = a.attributes.get("title") or a.attributes.get("aria-label")
        for img in a.traverse(include_text=False):
            if img.tag_id == _IMG:
                said = img.attributes.get("alt") or img.attributes.get("title") or said
                break
        text, href = collapse(said or ""), a.attributes.get("href") or ""
        if not text or github_login(href) is None:
            return []
        found.append(Item(text, text, ((text, href),), list_no))
    return found if len(found) >= 2 else []
