"""HTML -> Document (selectolax, through `ingest.documents.parse_html`, which bounds nesting).

The page's content element is read (a Sphinx/PyData article, `main`, `[role=main]`, `#content`,
else the body), without scripts, styles, navigation, headers, footers, asides and forms, and
without the permalink marks Sphinx puts in headings. Walks are iterative: a hostile page nested
deep does not reach Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Iterator

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.document.html_nodes import (
    _A,
    _LI,
    HEADING_TAGS,
    _card_text,
    _cell,
    _is_leaf,
    _own_rows,
    avatar_items,
    links_of,
    node_text,
)
from extractors.document.model import (
    Block,
    Code,
    Document,
    Heading,
    Item,
    Links,
    Para,
    Row,
    Term,
    collapse,
)
from ingest.documents import parse_html
from ingest.errors import RedirectStubError
from ingest.redirects import stub_target_in

CONTENT_ROOTS = (
    "article.bd-article",
    "article[itemprop='articleBody']",
    "div[itemprop='articleBody']",
    "div[role='main']",
    "main",
    "article",
    "#maincontent",
    "#main-content",
    "#content",
    "body",
)
DROPPED_TAGS = ["script", "style", "template", "noscript"]
HEADERLINK = "a.headerlink"
HEADERLINK_MARKS = frozenset({"¶", "#", "§", "🔗"})
PAGE_ANCHORS = "a[href^='#']"
PERMALINK_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
NESTED_LISTS = "li ul, li ol"
DROPPED_QUERY = ", ".join(DROPPED_TAGS)
SKIPPED_SUBTREES = frozenset({"nav", "footer", "header", "aside", "form", "svg", "button"})
LIST_TAGS = frozenset({"ul", "ol"})
INLINE_TAGS = frozenset({"a", "b", "i", "em", "strong", "span", "u", "small", "code", "sub", "sup"})
CELL_TAGS = frozenset({"td", "th"})


def document(
    text: str, url: str, *, lists_only: bool = False, encoded: bytes | None = None
) -> Document:
    """`encoded`: `text` as UTF-8, when the caller holds it (see `parse_html`)."""
    tree = parse_html(text, encoded)
    if "<" in text[:2048]:
        target = stub_target_in(tree, url)
        if target:
            raise RedirectStubError(url, target)
    return from_tree(tree, lists_only=lists_only)


def from_tree(
    tree: LexborHTMLParser, roots: tuple[str, ...] = CONTENT_ROOTS, *, lists_only: bool = False
) -> Document:
    node = tree.css_first("head title")
    title = collapse(node.text(deep=True)) if node is not None else None
    meta = {}
    for tag in () if lists_only else tree.css("head meta[property], head meta[name]"):
        key = tag.attributes.get("property") or tag.attributes.get("name") or ""
        value = tag.attributes.get("content")
        if key and value and key not in meta:
            meta[key] = value
    root = prepared_root(tree, roots)
    blocks = list(Walk(lists_only).blocks(root)) if root is not None else []
    return Document(title or None, blocks, "html", meta)


def content_root(
    tree: LexborHTMLParser, roots: tuple[str, ...] = CONTENT_ROOTS
) -> LexborNode | None:
    """The first element a selector finds (the main content before the whole page)."""
    return next((n for n in (tree.css_first(s) for s in roots) if n is not None), tree.root)


def prepared_root(
    tree: LexborHTMLParser, roots: tuple[str, ...] = CONTENT_ROOTS
) -> LexborNode | None:
    """The page's content element with scripts, styles and heading permalinks removed."""
    root = content_root(tree, roots)
    if root is None:
        return None
    # strip_tags(DROPPED_TAGS) in one query, not one a tag; the last first (a style before the
    # noscript holding it); a selector list names an element once per selector it matches
    for node in _unique_reversed(root.css(DROPPED_QUERY)):
        node.decompose(recursive=False)  # as strip_tags does
    for anchor in root.css(HEADERLINK):
        anchor.decompose()
    # the in-page links inside h1..h4 that print only a mark: one query of the in-page links
    # (not one a heading level), the text read first (most are no mark: no look at headings)
    for anchor in root.css(PAGE_ANCHORS):
        if anchor.text(deep=True).strip() in HEADERLINK_MARKS and _in_heading(anchor):
            anchor.decompose()
    return root


def _in_heading(node: LexborNode) -> bool:
    """Inside an h1..h4 (as a descendant selector sees it: any ancestor, in the whole tree)."""
    parent = node.parent
    while parent is not None:
        if parent.tag in PERMALINK_HEADINGS:
            return True
        parent = parent.parent
    return False


def _in_article(node: LexborNode) -> bool:
    """Inside an <article> or <main>: a <header> there heads the content, it is no site banner."""
    parent = node.parent
    while parent is not None:
        if parent.tag in ("article", "main"):
            return True
        parent = parent.parent
    return False


def _unique_reversed(nodes: list[LexborNode]) -> list[LexborNode]:
    return list({node.mem_id: node for node in reversed(nodes)}.values())  # first place kept


class Walk:
    """The blocks of a subtree, in document order; `lists_only`: headings and list items alone
    (tables, paragraphs and cards are not built)."""

    def __init__(self, lists_only: bool = False) -> None:
        self.lists = 0
        self.tables = 0
        self.lists_only = lists_only
        self.nesting: set[int] = set()  # the elements holding a list nested in an item

    def blocks(self, root: LexborNode) -> Iterator[Block]:
        self.nesting = _holding_nested_lists(root)
        stack: list[LexborNode | list[Item]] = list(reversed(self._inside(root)))
        while stack:  # document order, without recursion (hostile nesting depth)
            node = stack.pop()
            if isinstance(node, list):  # lines broken by <br> between the blocks: a list
                yield from node
                continue
            tag = (node.tag or "").lower()
            if tag == "header" and _in_article(node):  # an article's own header: its title
                for heading in node.css(", ".join(HEADING_TAGS)):
                    if text := node_text(heading):
                        yield Heading(HEADING_TAGS[(heading.tag or "").lower()], text)
                continue
            if tag in SKIPPED_SUBTREES:
                continue
            if tag in HEADING_TAGS:
                text = node_text(node)
                if text:
                    yield Heading(HEADING_TAGS[tag], text)
            elif tag in LIST_TAGS:
                self.lists += 1
                yield from self._list(node, self.lists)
            elif self.lists_only:
                stack.extend(reversed(list(node.iter(include_text=False))))
            elif tag == "dl":
                self.lists += 1
                yield from self._terms(node, self.lists)
            elif tag == "table":
                self.tables += 1
                yield from self._rows(node, self.tables)
            elif tag == "pre":
                raw = node.text(deep=True)
                lines = tuple(line for line in raw.splitlines() if line.strip())
                if lines:
                    yield Code(collapse(raw), lines)
            elif tag == "p" and (broken := self._broken(node)):
                yield from broken  # a paragraph broken into lines by <br>: a list of its lines
            elif tag == "p" or (tag in ("div", "section", "blockquote") and _is_leaf(node)):
                text = node_text(node) if tag == "p" else _card_text(node)
                if text:
                    yield Para(text, text, links_of(node))
                elif avatars := avatar_items(node, self.lists + 1):
                    self.lists += 1
                    yield from avatars  # pictures linking profiles: a list of whom they show
                # blocks inside a paragraph (a <pre> the parser left in it) are read too
                stack.extend(reversed([c for c in node.iter(include_text=False) if c.tag == "pre"]))
            else:
                stack.extend(reversed(self._inside(node)))

    def _inside(self, node: LexborNode) -> list[LexborNode | list[Item]]:
        """A container's element children in order; text it prints between them, broken into
        lines by <br> ("<p>The board:</p> Jane Roe<br>Max Muster (Treasurer)<br>"), becomes the
        list of those lines where it stands (one line alone is not a list)."""
        children = list(node.iter(include_text=False))
        if self.lists_only or not any(c.tag == "br" for c in children):
            return list(children)
        found: list[LexborNode | list[Item]] = []
        run: list[LexborNode] = []
        for child in node.iter(include_text=True):
            tag = (child.tag or "").lower()
            if tag in ("-text", "br") or tag in INLINE_TAGS:
                run.append(child)
                continue
            found.extend(self._lines(run))
            run = []
            found.append(child)
        found.extend(self._lines(run))
        return found

    def _broken(self, node: LexborNode) -> list[Item]:
        """A paragraph that <br> breaks into two or more lines, as one list of them."""
        broken = any(c.tag == "br" for c in node.iter(include_text=False))
        found = self._lines(list(node.iter(include_text=True))) if broken else []
        return found[0] if found else []

    def _lines(self, run: list[LexborNode]) -> list[list[Item]]:
        lines: list[tuple[str, Links]] = []
        parts: list[str] = []
        links: list[tuple[str, str]] = []

        def end_line() -> None:
            text = collapse("".join(parts))
            if text:
                lines.append((text, tuple(links)))
            parts.clear()
            links.clear()

        for node in run:
            tag = (node.tag or "").lower()
            if tag == "br":
                end_line()
            elif tag == "-text":
                parts.append(node.text_content or "")
            else:
                parts.append(node.text(deep=True))
                href = node.attributes.get("href") if tag == "a" else None
                found = [(collapse(node.text(deep=True)), href)] if href else links_of(node)
                links.extend(found)
        end_line()
        if len(lines) < 2:
            return []
        self.lists += 1
        return [[Item(text, text, found, self.lists) for text, found in lines]]

    def _list(self, node: LexborNode, list_no: int) -> Iterator[Item]:
        """Every item of a list, nested ones after their parent (`depth`, `parent`), in one walk
        of the list: an item's own text and links are those not inside a list nested in it."""
        if node.mem_id not in self.nesting:  # no nested list: each item read whole
            # (node_text and links_of, inline: most items of a page come here)
            for li in node.iter(include_text=False):
                if li.tag_id == _LI:
                    text = collapse(li.text(deep=True, separator=""))
                    links = []
                    for a in li.traverse(include_text=False):
                        if a.tag_id == _A and (href := a.attrs.get("href")) is not None:
                            links.append((collapse(a.text(deep=True, separator="")), href or ""))
                    yield Item(text, text, tuple(links), list_no)
            return
        found: list[tuple[list[str], list[tuple[str, str]], int, int]] = []
        # (node, depth, the item whose own text it is or -1, the item enclosing its list or -1)
        stack = [(c, 0, -1, -1) for c in reversed(list(node.iter(include_text=True)))]
        while stack:
            current, depth, owner, parent = stack.pop()
            tag = (current.tag or "").lower()
            if tag == "-text":
                if owner >= 0:
                    found[owner][0].append(current.text_content or "")
                continue
            if tag == "li":
                found.append(([], [], depth, parent))
                owner = len(found) - 1
            elif tag in LIST_TAGS and owner >= 0:
                depth, parent, owner = depth + 1, owner, -1
            elif tag == "a" and owner >= 0:
                href = current.attributes.get("href")
                if href is not None:
                    label = collapse(current.text(deep=True, separator=""))
                    found[owner][1].append((label, href or ""))
            children = list(current.iter(include_text=True))
            stack.extend((c, depth, owner, parent) for c in reversed(children))
        for text_parts, links, level, parent_at in found:
            own = collapse("".join(text_parts))
            above = collapse("".join(found[parent_at][0])) if parent_at >= 0 else None
            yield Item(own, own, tuple(links), list_no, level, above)

    def _terms(self, node: LexborNode, list_no: int) -> Iterator[Term]:
        term = None
        for child in node.iter(include_text=False):
            tag = (child.tag or "").lower()
            if tag == "dt":
                term = node_text(child)
            elif tag == "dd" and term is not None:
                text = node_text(child, " ")
                yield Term(f"{term} {text}".strip(), term, text, links_of(child), list_no)

    def _rows(self, table: LexborNode, table_no: int) -> Iterator[Row]:
        row_no = 0
        for tr in _own_rows(table):
            cells = [c for c in tr.iter(include_text=False) if (c.tag or "").lower() in CELL_TAGS]
            if not cells:
                continue
            row_no += 1
            parent = (tr.parent.tag or "").lower() if tr.parent is not None else ""
            header = parent == "thead" or all((c.tag or "").lower() == "th" for c in cells)
            yield Row(
                quote=node_text(tr, " "),
                cells=tuple(_cell(c) for c in cells),
                table_no=table_no,
                row_no=row_no,
                header=header,
            )


def _holding_nested_lists(root: LexborNode) -> set[int]:
    """The `mem_id` of every element under `root` that `css_first("li ul, li ol")` would find
    something in (itself such a list, or holding one), from one query of the whole tree instead
    of one query a list: each list found, then its ancestors up to the root (or to one already
    marked: those above it are marked too)."""
    marked: set[int] = set()
    top = root.mem_id
    for inner in root.css(NESTED_LISTS):
        node: LexborNode | None = inner
        while node is not None and node.mem_id not in marked:
            marked.add(node.mem_id)
            if node.mem_id == top:
                break
            node = node.parent
    return marked
