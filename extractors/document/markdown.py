"""Markdown -> Document (markdown-it-py, CommonMark with GFM tables).

markdown-it's tokens carry the source lines they came from (`map`), so every quote is cut from
the source itself: an item after its marker, a table row's line, a paragraph's lines. HTML blocks
inside Markdown (a `<table>` of person cards, `<details>`) are read by the HTML reader.

Front matter, YAML (`---`) or TOML (`+++`, Hugo's), gives the title and date (`Document.meta`,
its scalar fields) and is walked whole by the data-tree walker (`extractors.document.tree`), as a
JSON/YAML/TOML data file is: a list of person records in it (`team: [{name, github}]`), a table
of people keyed by login, or the front matter being one person's card (`name`, `github`,
`position` keys) gives `Record` blocks before the body's blocks. Records under a key that names
the page's authors (`author`, `authors`, ...) are not kept: they wrote the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from extractors.document import html as _doc_html
from extractors.document.model import (
    Block,
    Cell,
    Code,
    Document,
    Heading,
    Item,
    Links,
    Para,
    Record,
    Row,
    collapse,
)
from ingest.documents import parse_html

_PARSER: MarkdownIt | None = None
HTML_TAG = re.compile(r"^<(/?)([A-Za-z][A-Za-z0-9-]*)")
HREF = re.compile(r"""\bhref\s*=\s*(["']?)([^"'\s>]*)\1""", re.IGNORECASE)
# inline tags that only format (or, for <a>, link) what they hold: not shown as text
FORMATTING_TAGS = frozenset(
    re.findall(
        r"\S+",
        "a abbr b bdi bdo big br cite code del dfn em font i img ins kbd mark picture q s samp "
        "small source span strike strong sub sup time tt u var wbr details summary p div",
    )
)


def parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        _PARSER = MarkdownIt("commonmark", {"html": True}).enable("table")
    return _PARSER


def document(text: str) -> Document:
    data, start = front_matter_data(text)
    meta = scalar_fields(data)
    source = text.splitlines()
    blocks: list[Block] = list(front_matter_records(source[:start], data))
    body = "\n".join(source[start:])
    blocks.extend(_Reader(source, start).blocks(parser().parse(body)))
    if start and not body.strip():  # all front matter: its Markdown values are the page
        for first, lines in markdown_values(source[1 : start - 1]):
            first += 2  # the value's first line in the file (the block follows the `---`)
            shown = source[:first] + lines + source[first + len(lines) :]
            blocks.extend(_Reader(shown, first).blocks(parser().parse("\n".join(lines))))
    title = meta.get("title")
    return Document(title, blocks, "markdown", meta)


def front_matter(text: str) -> tuple[dict[str, str], int]:
    """The front matter's scalar fields and the line after it (0 when there is none)."""
    data, start = front_matter_data(text)
    return scalar_fields(data), start


# a front matter key whose people wrote the page (convention: authors hold no role)
AUTHOR_KEY = re.compile(
    r"^(?:authors?|author_?info|by|byline|creators?|writers?|translators?|editors?|sponsors?"
    r"|contributors?|reviewers?|reviewed_?by|written_?by)$",
    re.IGNORECASE,
)
FENCES = {"---": ("---", "..."), "+++": ("+++",)}  # YAML, TOML (Hugo)


def front_matter_data(text: str) -> tuple[dict[str, Any], int]:
    """The front matter as data (YAML `---` or TOML `+++`; {} when there is none or it does
    not parse to a mapping) and the line after it (0 when there is none)."""
    lines = text.splitlines()
    opening = lines[0].strip() if lines else ""
    if opening not in FENCES:
        return {}, 0
    for end in range(1, min(len(lines), 400)):
        if lines[end].strip() in FENCES[opening]:
            block = "\n".join(lines[1:end])
            data: Any
            if opening == "+++":
                import tomllib

                try:
                    data = tomllib.loads(block)
                except tomllib.TOMLDecodeError:
                    return {}, end + 1
            else:
                import yaml

                try:
                    data = yaml.safe_load(block)
                except yaml.YAMLError:
                    return {}, end + 1
            return (data if isinstance(data, dict) else {}), end + 1
    return {}, 0


MARKDOWN_LINE = re.compile(r"^(?:#{1,6} |\|.*\||[-*+] |\d+[.)] )")


def markdown_values(block: list[str]) -> Iterator[tuple[int, list[str]]]:
    """The literal block scalars (`key: |`) of a YAML front matter whose text is Markdown
    blocks (a heading, a table, a list): the line (of `block`) before each, its lines dedented."""
    import yaml

    try:
        root = yaml.compose("\n".join(block))
    except yaml.YAMLError:
        return
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            stack.extend(value for _, value in reversed(node.value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.ScalarNode) and node.style == "|":
            lines = block[node.start_mark.line + 1 : node.end_mark.line + 1]
            indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
            cut = min(indents, default=0)
            lines = [line[cut:] for line in lines]
            if sum(bool(MARKDOWN_LINE.match(line)) for line in lines) >= 2:
                yield node.start_mark.line, lines


def scalar_fields(data: dict[str, Any]) -> dict[str, str]:
    return {
        str(k).lower(): str(v).strip()
        for k, v in data.items()
        if isinstance(v, str | int | float) or hasattr(v, "isoformat")
    }


def front_matter_records(lines: list[str], data: dict[str, Any]) -> Iterator[Record]:
    """The person records the front matter holds (see the module docstring), its line numbers
    those of the file (the front matter is its first lines)."""
    if not data:
        return
    from extractors.document import tree as _tree

    kept = {k: v for k, v in data.items() if not AUTHOR_KEY.match(str(k))}
    if not _tree.small(kept) or not _tree.holds_people(kept):
        return
    for block in _tree.Walk("\n".join(lines), kept).blocks(kept):
        if isinstance(block, Record):
            yield block


def inline(token: Token | None) -> tuple[str, Links, tuple[str, ...]]:
    """Display text, links and lines (split at <br> and hard breaks) of an inline token."""
    if token is None or not token.children:
        text = token.content if token is not None else ""
        return collapse(text), (), ()
    parts: list[str] = []
    links: list[tuple[str, str]] = []
    open_links: list[tuple[str, int]] = []
    for child in token.children:
        kind = child.type
        if kind in ("text", "code_inline"):
            parts.append(child.content)
        elif kind == "softbreak":
            parts.append(" ")
        elif kind == "hardbreak":
            parts.append("\n")
        elif kind == "html_inline":
            tag = HTML_TAG.match(child.content)
            name = tag.group(2).lower() if tag else ""
            closing = bool(tag and tag.group(1))
            if name == "br":
                parts.append("\n")
            elif name == "a" and not closing:
                found = HREF.search(child.content)
                open_links.append((found.group(2) if found else "", len(parts)))
            elif name == "a" and open_links:
                target, at = open_links.pop()
                links.append((collapse("".join(parts[at:])), target))
            elif name not in FORMATTING_TAGS:
                parts.append(child.content)  # other markup is shown as the text it is
        elif kind == "link_open":
            open_links.append((str(child.attrs.get("href") or ""), len(parts)))
        elif kind == "link_close" and open_links:
            href, at = open_links.pop()
            links.append((collapse("".join(parts[at:])), href))
    raw = "".join(parts)
    lines = tuple(collapse(line) for line in raw.split("\n") if line.strip())
    return collapse(raw), tuple(links), lines if "\n" in raw else ()


class _Reader:
    def __init__(self, source: list[str], offset: int) -> None:
        self.source = source
        self.offset = offset  # lines of front matter before the parsed body
        self.lists = 0
        self.tables = 0

    def lines(self, token: Token) -> list[str]:
        if not token.map:
            return []
        start, end = token.map
        return self.source[self.offset + start : self.offset + end]

    def line_no(self, token: Token) -> int | None:
        return self.offset + token.map[0] + 1 if token.map else None

    def _item(
        self,
        token: Token,
        content: str,
        text: str,
        links: Links,
        depth: int,
        parents: list[str | None],
    ) -> Item:
        """A list item of the list being read, under the item that holds it (if any)."""
        parent = parents[-1] if parents else None
        return Item(
            self.quote(token, content),
            text,
            links,
            self.lists,
            max(depth, 0),
            parent,
            self.line_no(token),
        )

    def _hard_broken(self, token: Token) -> list[Item]:
        """A paragraph whose lines but the last end with AsciiDoc's hard break (" +"), two or
        more: one list of its lines, as a paragraph broken by <br> is."""
        content = token.content.split("\n")
        source = self.lines(token)
        if len(content) < 2 or len(source) != len(content):
            return []
        if not all(line.rstrip().endswith(" +") for line in content[:-1]):
            return []
        self.lists += 1
        items = []
        start = self.line_no(token) or 0
        for number, (line, printed) in enumerate(zip(content, source, strict=True)):
            line = line.rstrip().removesuffix(" +")
            text, links, _ = inline(parser().parseInline(line)[0])
            if text:
                quote = printed.strip().removesuffix(" +").rstrip()
                items.append(Item(quote, text, links, self.lists, 0, None, start + number))
        return items

    def quote(self, token: Token, content: str) -> str:
        """The source lines of a block, from where its content starts (after a list marker)."""
        lines = self.lines(token)
        if not lines:
            return content
        first_content = content.split("\n", 1)[0]
        at = lines[0].find(first_content) if first_content else -1
        if at > 0:
            lines = [lines[0][at:], *lines[1:]]
        return "\n".join(lines).strip()

    def blocks(self, tokens: list[Token]) -> Iterator[Block]:
        # (list depth, parent text of the items at this depth); an item is given when its own
        # paragraph ends, so a parent comes before its nested items
        depth = -1
        parents: list[str | None] = []
        item_open: list[Any] = []  # per open item: its first inline (None until seen)
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "heading_open":
                text, _links, _ = inline(tokens[index + 1])
                yield Heading(int(token.tag[1]), text, self.line_no(token))
                index += 3
                continue
            if kind in ("bullet_list_open", "ordered_list_open"):
                depth += 1
                if depth == 0:
                    self.lists += 1
                parents.append(item_open[-1][1] if item_open and item_open[-1] else None)
            elif kind in ("bullet_list_close", "ordered_list_close"):
                depth -= 1
                parents.pop()
            elif kind == "list_item_open":
                item_open.append(None)
            elif kind == "list_item_close":
                if item_open and item_open[-1] is None:  # an empty item
                    pass
                item_open.pop()
            elif kind == "inline" and item_open and item_open[-1] is None:
                text, links, _ = inline(token)
                item_open[-1] = (token, text)
                yield self._item(token, token.content, text, links, depth, parents)
            elif kind == "inline" and not item_open and tokens[index - 1].type == "paragraph_open":
                if broken := self._hard_broken(token):
                    yield from broken  # lines ended by AsciiDoc's " +": a list of its lines
                    index += 1
                    continue
                text, links, _ = inline(token)
                if text:
                    yield Para(self.quote(token, token.content), text, links, self.line_no(token))
            elif kind == "table_open":
                self.tables += 1
                consumed, rows = self._table(tokens, index)
                yield from rows
                index = consumed
                continue
            elif kind in ("fence", "code_block"):
                lines = tuple(line for line in token.content.splitlines() if line.strip())
                if lines:
                    yield Code(token.content, lines, self.line_no(token))
            elif kind == "html_block" and item_open and item_open[-1] is None:
                # an item that starts with a block-level tag ("- <script>...") is still an item:
                # its text is read as inline Markdown, the tags shown as the text they are
                inline_token = parser().parseInline(token.content.strip())[0]
                text, links, _ = inline(inline_token)
                item_open[-1] = (token, text)
                yield self._item(token, token.content.strip(), text, links, depth, parents)
            elif kind == "html_block":
                yield from self._html(token)
            index += 1

    def _table(self, tokens: list[Token], index: int) -> tuple[int, list[Row]]:
        rows: list[Row] = []
        cells: list[Cell] = []
        in_head = False
        row_token: Token | None = None
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "thead_open":
                in_head = True
            elif kind == "tbody_open":
                in_head = False
            elif kind == "tr_open":
                cells, row_token = [], token
            elif kind == "inline":
                text, links, lines = inline(token)
                cells.append(Cell(text, links, lines))
            elif kind == "tr_close" and row_token is not None:
                source = self.lines(row_token)
                quote = source[0].strip() if source else " | ".join(c.text for c in cells)
                rows.append(
                    Row(
                        quote,
                        tuple(cells),
                        self.tables,
                        len(rows) + 1,
                        in_head,
                        self.line_no(row_token),
                    )  # fmt: skip
                )
            elif kind == "table_close":
                return index + 1, rows
            index += 1
        return index, rows

    def _html(self, token: Token) -> Iterator[Block]:
        content = token.content
        lowered = content.lower()
        if not any(tag in lowered for tag in ("<table", "<ul", "<ol", "<dl", "<h", "<p")):
            return
        tree = parse_html(f"<body>{content}</body>")
        walk = _doc_html.Walk()
        walk.lists, walk.tables = self.lists, self.tables
        body = tree.body
        if body is not None:
            yield from walk.blocks(body)
        self.lists, self.tables = walk.lists, walk.tables
