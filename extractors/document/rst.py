"""reStructuredText -> Document (docutils).

docutils parses (with file insertion off, and no message printed or raised: a page docutils
finds fault with is still read for what it holds); a `.. raw:: html` block is read as HTML.
Sphinx's `code-block` reads as a literal block and its cross-reference roles (`:ref:`, `:doc:`,
...) as their text. A PEP's RFC 822 header ("PEP: 13", "Title: ...") is taken off first and
kept as `Document.meta`.

docutils' tree has no line for most nodes, so quotes are cut from the source: an item's or a
paragraph's raw source (docutils keeps it), a table row's line found in the source, in order.
A table cell's text is what it shows: an image in it (an avatar) adds no text, though its link
is kept with the alt text as its label.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from extractors.document.model import (
    Block,
    Cell,
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

SEEK_LINES = 400  # how far ahead a quote is looked for (a miss costs this, not the page)
PEP_FIELD = re.compile(r"^([A-Z][A-Za-z-]*):[ \t]+(.*)$")
SPHINX_ROLES = [
    "ref",
    "doc",
    "term",
    "class",
    "func",
    "meth",
    "mod",
    "attr",
    "obj",
    "data",
    "const",
    "exc",
    "envvar",
    "option",
    "program",
    "kbd",
    "file",
    "samp",
    "abbr",
    "command",
    "dfn",
    "guilabel",
    "menuselection",
    "mimetype",
    "newsfile",
    "regexp",
    "any",
    "numref",
    "download",
    "user",
    "github",
    "ghuser",
    "gh",
    "issue",
    "pr",
    "commit",
]
SETTINGS = {
    "report_level": 5,
    "halt_level": 5,
    "file_insertion_enabled": False,
    "raw_enabled": True,  # `.. raw:: html` is read as HTML (never a file or URL: insertion off)
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "docinfo_xform": False,
    "input_encoding": "unicode",
    "warning_stream": None,  # set per call
    "syntax_highlight": "none",
    "line_length_limit": 100_000,
}
_READY = False


def _setup() -> None:
    """Sphinx's directives and roles that docutils lacks, as plain equivalents (once)."""
    global _READY
    if _READY:
        return
    from docutils import nodes
    from docutils.parsers.rst import directives, roles
    from docutils.parsers.rst.directives.body import CodeBlock

    def text_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                  options: Any = None, content: Any = None) -> Any:  # fmt: skip
        shown = re.sub(r"\s*<[^<>]*>$", "", text).lstrip("~!")
        return [nodes.inline(rawtext, shown)], []

    for name in SPHINX_ROLES:
        roles.register_local_role(name, text_role)
    for name in ("code-block", "sourcecode"):
        directives.register_directive(name, CodeBlock)
    _READY = True


def document(text: str) -> Document:
    from docutils.core import publish_doctree

    _setup()
    meta, body = pep_header(text)
    settings = dict(SETTINGS, warning_stream=io.StringIO())
    try:
        tree = publish_doctree(body, settings_overrides=settings)
    except Exception:  # docutils' own errors on pathological input: nothing to read
        return Document(meta.get("title"), [], "rst", meta)
    from docutils import nodes

    reader = _Reader(body.splitlines(), titled=tree.next_node(nodes.title) is not None)
    blocks = list(reader.walk(tree))
    return Document(meta.get("title"), blocks, "rst", meta)


def pep_header(text: str) -> tuple[dict[str, str], str]:
    """A PEP's header fields and the text after them; ({}, text) when there is none."""
    lines = text.splitlines()
    meta: dict[str, str] = {}
    index, last = 0, None
    while index < len(lines) and lines[index].strip():
        match = PEP_FIELD.match(lines[index])
        if match:
            last = match.group(1).lower()
            meta[last] = match.group(2).strip()
        elif last and lines[index][:1].isspace():
            meta[last] += " " + lines[index].strip()
        else:
            return {}, text
        index += 1
    if len(meta) < 2:
        return {}, text
    return meta, "\n" * index + "\n".join(lines[index:])  # keep line numbers


class _Reader:
    def __init__(self, source: list[str], *, titled: bool = True) -> None:
        self.source = source
        self.titled = titled  # the source has section titles of its own (else raw HTML's count)
        self.cursor = 0  # the source line the last quote was found on
        self.lists = 0
        self.tables = 0

    def walk(self, root: Any) -> Iterator[Block]:
        from docutils import nodes

        # (node, section depth, list depth, parent item text)
        stack: list[tuple[Any, int, int, str | None]] = [(root, 0, -1, None)]
        while stack:
            node, level, depth, parent = stack.pop()
            children: list[tuple[Any, int, int, str | None]] = []
            if isinstance(node, nodes.section):
                title = node.next_node(nodes.title)
                if title is not None:
                    self._seek(title.rawsource or title.astext())
                    yield Heading(level + 1, collapse(title.astext()), self.cursor + 1)
                kids = [c for c in node.children if not isinstance(c, nodes.title)]
                children = [(c, level + 1, -1, None) for c in kids]
            elif isinstance(node, nodes.bullet_list | nodes.enumerated_list):
                if depth < 0:
                    self.lists += 1
                for item in node.children:
                    own, nested = _split_item(item)
                    if own is not None:
                        yield self._item(own, depth + 1, parent)
                    text = collapse(own.astext()) if own is not None else None
                    children.extend((n, level, depth + 1, text) for n in nested)
            elif isinstance(node, nodes.definition_list):
                self.lists += 1
                for entry in node.children:
                    yield from self._term(entry)
            elif isinstance(node, nodes.field_list) and level > 0:  # ":Jane Roe: Example Labs"
                self.lists += 1  # (not a header's fields: ":Author:" before the first title)
                for entry in node.children:
                    yield from self._term(entry, nodes.field_name, nodes.field_body)
            elif isinstance(node, nodes.table):
                self.tables += 1
                yield from self._rows(node)
            elif isinstance(node, nodes.literal_block):
                raw = node.astext()
                lines = tuple(line for line in raw.splitlines() if line.strip())
                if lines:
                    yield Code(raw, lines, self._seek(lines[0]))
            elif isinstance(node, nodes.paragraph):
                text = collapse(node.astext())
                if text:
                    raw = node.rawsource or node.astext()
                    line = self._seek(raw)
                    yield Para(raw, text, _links(node), line)
            elif isinstance(node, nodes.raw):
                if "html" in str(node.get("format", "")).split():
                    yield from self._raw_html(node.astext())
            elif isinstance(node, nodes.system_message | nodes.comment | nodes.target):
                pass
            else:
                children = [(c, level, depth, parent) for c in getattr(node, "children", [])]
            stack.extend(reversed(children))

    def _item(self, own: Any, depth: int, parent: str | None) -> Item:
        raw = own.rawsource or own.astext()
        line = self._seek(raw)
        return Item(raw, collapse(own.astext()), _links(own), self.lists, max(depth, 0), parent,
                    line)  # fmt: skip

    def _term(self, entry: Any, term_kind: Any = None, body_kind: Any = None) -> Iterator[Term]:
        """A definition list's entry as a Term (or a field list's: `term_kind`, `body_kind`)."""
        from docutils import nodes

        term = entry.next_node(term_kind or nodes.term)
        definition = entry.next_node(body_kind or nodes.definition)
        if term is None or definition is None:
            return
        text = collapse(definition.astext())
        line = self._seek(term.rawsource or term.astext())
        quote = collapse(term.astext()) + " " + text
        yield Term(quote, collapse(term.astext()), text, _links(entry), self.lists, line)

    def _rows(self, table: Any) -> Iterator[Row]:
        from docutils import nodes

        for row_no, row in enumerate(table.findall(nodes.row), 1):
            header = isinstance(row.parent, nodes.thead)
            cells = tuple(
                Cell(collapse(_shown(entry)), _links(entry))
                for entry in row.children
                if isinstance(entry, nodes.entry)
            )
            first = next((c.text for c in cells if c.text), "")
            line = self._seek(first)
            quote = self.source[line - 1].strip() if line else " | ".join(c.text for c in cells)
            yield Row(quote, cells, self.tables, row_no, header, line)

    def _raw_html(self, text: str) -> Iterator[Block]:
        """A `.. raw:: html` block's content (a person's card, a table): its blocks as an HTML
        page's, quoted as printed; a heading in it is not one of the document's sections,
        unless the document has none of its own (a page written as one raw HTML block)."""
        from dataclasses import replace

        from extractors.document import html as _html

        lists, tables = self.lists, self.tables  # its lists and tables numbered after ours
        for block in _html.from_tree(_html.parse_html(text)).blocks:
            if isinstance(block, Item | Term):
                block = replace(block, list_no=block.list_no + lists)
                self.lists = max(self.lists, block.list_no)
            elif isinstance(block, Row):
                block = replace(block, table_no=block.table_no + tables)
                self.tables = max(self.tables, block.table_no)
            if not isinstance(block, Heading) or not self.titled:
                yield block

    def _seek(self, raw: str) -> int | None:
        """The 1-based source line holding the start of `raw`, searched from the cursor on."""
        needle = collapse(raw.split("\n", 1)[0])[:60]
        if not needle:
            return None
        for index in range(self.cursor, min(len(self.source), self.cursor + SEEK_LINES)):
            if needle in collapse(self.source[index]):
                self.cursor = index
                return index + 1
        return None


def _split_item(item: Any) -> tuple[Any | None, list[Any]]:
    """An item's own paragraph and the lists nested in it."""
    from docutils import nodes

    own = None
    nested = []
    for child in item.children:
        if isinstance(child, nodes.paragraph) and own is None:
            own = child
        elif isinstance(child, nodes.bullet_list | nodes.enumerated_list | nodes.definition_list):
            nested.append(child)
    return own, nested


def _shown(node: Any) -> str:
    """A node's text as rendered: an image shows no text (its alt text is not printed beside
    it; `|eric| Eric Holscher` is "Eric Holscher" once, the avatar's alt aside)."""
    from docutils import nodes

    if isinstance(node, nodes.Text):
        return node.astext()
    if isinstance(node, nodes.image):
        return ""
    sep = " " if isinstance(node, nodes.Body | nodes.entry) else ""
    return sep.join(_shown(child) for child in node.children)


def _links(node: Any) -> Links:
    from docutils import nodes

    found = []
    for ref in node.findall(nodes.reference):
        target = ref.get("refuri")
        if target:
            found.append((collapse(ref.astext()), target))
    return tuple(found)
