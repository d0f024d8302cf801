"""A document (HTML, Markdown, reStructuredText, plain text) as a flat stream of blocks.

The generic governance extractor reads every page through this one stream, in document order:

- `Heading(level, text)`: HTML h1..h6; Markdown `#` count (setext `=`/`-` = 1/2); reST the order
  in which underline styles first appear (as docutils does);
- `Item(quote, text, links, list_no)`: one top-level list item (nested lists stay part of their
  item); `list_no` numbers the lists of the document, so consecutive items of one list share it;
- `Row(quote, cells, table_no, row_no, header)`: one table row (Markdown pipe tables, reST
  `list-table` and simple/grid tables with one line per row, HTML `table`);
- `Para(quote, text, links)`: a paragraph of prose.

`quote` is verbatim: the raw source (after the bullet marker) for Markdown and reST, the element's
whitespace-collapsed text for HTML. `text` is the display text, links replaced by their text;
`links` are (link text, target) pairs. The inline helpers, heading rules and HTML clean-up are the
PyTorch extractor's (imported, not copied).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.pytorch_governance import (
    HEADING_TAGS,
    LINK,
    MD_ATX,
    MD_BULLET,
    MD_FENCE,
    MD_SETEXT,
    RST_BULLET,
    SKIPPED_SUBTREES,
    _collapse,
    _front_matter_end,
    _indent,
    _md_inline,
    _rst_heading,
    _rst_inline,
    _verbatim_quote,
    prepared_root,
)

Links = tuple[tuple[str, str], ...]

# --- Markdown -------------------------------------------------------------------------------
MD_ORDERED = re.compile(r"^( *)\d{1,3}[.)](?:[ \t]+(.*?))?[ \t]*$")
MD_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
MD_FRONT_TITLE = re.compile(r"^title:\s*['\"]?(.+?)['\"]?\s*$", re.IGNORECASE)

# --- reStructuredText -----------------------------------------------------------------------
RST_FIELD = re.compile(r"^([A-Z][A-Za-z-]*):\s+(.*)$")  # PEP-style header ("Title: ...")
RST_DIRECTIVE = re.compile(r"^\.\.\s+([\w-]+)::(.*)$")
RST_LIST_TABLE_ROW = re.compile(r"^(\s*)\*\s+-\s+(.*)$")
RST_LIST_TABLE_CELL = re.compile(r"^(\s*)-\s+(.*)$")
RST_SIMPLE_BORDER = re.compile(r"^=+(?:\s+=+)+\s*$")
RST_GRID_BORDER = re.compile(r"^\+(?:[-=]+\+)+\s*$")
RST_COMMENT = re.compile(r"^\.\.(?:\s|$)")

# --- HTML -----------------------------------------------------------------------------------
LIST_TAGS = frozenset({"ul", "ol"})
CELL_TAGS = frozenset({"td", "th"})


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    quote: str
    text: str
    links: Links
    list_no: int


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    links: Links


@dataclass(frozen=True, slots=True)
class Row:
    quote: str
    cells: tuple[Cell, ...]
    table_no: int
    row_no: int  # 1-based, header included
    header: bool


@dataclass(frozen=True, slots=True)
class Para:
    quote: str
    text: str
    links: Links


Block = Heading | Item | Row | Para


@dataclass(frozen=True)
class Document:
    title: str | None  # HTML <title>, Markdown front-matter title, PEP "Title:" header
    blocks: list[Block]


# ============================================================================================
# HTML


def html_document(tree: LexborHTMLParser) -> Document:
    """The blocks of a parsed page (parse it with `ingest.documents.parse_html`)."""
    node = tree.css_first("head title")
    title = _collapse(node.text(deep=True)) if node is not None else None
    return Document(title or None, list(_html_blocks(tree)))


def _html_blocks(tree: LexborHTMLParser) -> Iterator[Block]:
    root = prepared_root(tree)
    if root is None:
        return
    counters = {"list": 0, "table": 0}
    stack = list(reversed(list(root.iter(include_text=False))))
    while stack:  # document order, without recursion (hostile nesting depth)
        node = stack.pop()
        tag = (node.tag or "").lower()
        if tag in SKIPPED_SUBTREES:
            continue
        if tag in HEADING_TAGS:
            yield Heading(HEADING_TAGS[tag], _collapse(node.text(deep=True, separator="")))
        elif tag in LIST_TAGS:
            counters["list"] += 1
            for child in node.iter(include_text=False):
                if (child.tag or "").lower() == "li":
                    quote = _collapse(child.text(deep=True, separator=""))
                    yield Item(quote, quote, _html_links(child), counters["list"])
        elif tag == "table":
            counters["table"] += 1
            yield from _html_rows(node, counters["table"])
        elif tag == "p":
            quote = _collapse(node.text(deep=True, separator=""))
            if quote:
                yield Para(quote, quote, _html_links(node))
        else:
            stack.extend(reversed(list(node.iter(include_text=False))))


def _html_links(node: LexborNode) -> Links:
    return tuple(
        (_collapse(a.text(deep=True, separator="")), a.attributes.get("href") or "")
        for a in node.css(LINK)
    )


def _own_rows(table: LexborNode) -> Iterator[LexborNode]:
    """The table's `tr` elements in document order, not those of tables nested in it (one walk
    of the table, not a walk up from every row)."""
    stack = list(reversed(list(table.iter(include_text=False))))
    while stack:
        node = stack.pop()
        tag = (node.tag or "").lower()
        if tag == "table":
            continue  # a nested table: its rows are its own
        if tag == "tr":
            yield node
        stack.extend(reversed(list(node.iter(include_text=False))))


def _html_rows(table: LexborNode, table_no: int) -> Iterator[Row]:
    row_no = 0
    for tr in _own_rows(table):
        cells = [c for c in tr.iter(include_text=False) if (c.tag or "").lower() in CELL_TAGS]
        if not cells:
            continue
        row_no += 1
        in_head = (tr.parent is not None and (tr.parent.tag or "").lower() == "thead") or all(
            (c.tag or "").lower() == "th" for c in cells
        )
        yield Row(
            quote=_collapse(tr.text(deep=True, separator=" ")),
            cells=tuple(
                Cell(_collapse(c.text(deep=True, separator=" ")), _html_links(c)) for c in cells
            ),
            table_no=table_no,
            row_no=row_no,
            header=in_head,
        )


# ============================================================================================
# Markdown (and plain text)


def markdown_document(text: str) -> Document:
    lines = text.splitlines()
    start = _front_matter_end(lines)
    title = None
    for line in lines[1 : max(start - 1, 1)]:
        match = MD_FRONT_TITLE.match(line)
        if match:
            title = match.group(1)
    return Document(title, list(_markdown_blocks(lines[start:])))


def _markdown_blocks(lines: list[str]) -> Iterator[Block]:
    counters = {"list": 0, "table": 0}
    fence: str | None = None
    para: list[str] = []
    item: list[str] | None = None
    list_indent: int | None = None
    index = 0

    def flush() -> Iterator[Block]:
        nonlocal item, para
        if item is not None:
            display, links = _md_inline(" ".join(part.strip() for part in item))
            yield Item(_verbatim_quote(item), display, links, counters["list"])
            item = None
        if para:
            display, links = _md_inline(" ".join(part.strip() for part in para))
            yield Para("\n".join(para), display, links)
            para = []

    while index < len(lines):
        line = lines[index]
        index += 1
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fence_match = MD_FENCE.match(line)
        atx = MD_ATX.match(line)
        bullet = MD_BULLET.match(line) or MD_ORDERED.match(line)
        setext = MD_SETEXT.match(line) if para and len(para) == 1 and item is None else None
        is_table = (
            "|" in line
            and index < len(lines)
            and MD_TABLE_SEPARATOR.match(lines[index]) is not None
            and "|" in lines[index] + line.strip()
        )
        if setext:
            heading = para[0]
            para = []
            yield Heading(1 if line.strip()[0] == "=" else 2, _md_inline(heading)[0])
            list_indent = None
            continue
        if item is not None and (fence_match or atx or bullet or is_table or not line.strip()):
            yield from flush()
        if fence_match or atx or is_table or not line.strip():
            yield from flush()
        if fence_match:
            fence, list_indent = fence_match.group(1), None
        elif atx:
            yield Heading(len(atx.group(1)), _md_inline(atx.group(2) or "")[0])
            list_indent = None
        elif is_table:
            counters["table"] += 1
            rows = [line]
            index += 1  # the separator line
            while index < len(lines) and "|" in lines[index] and lines[index].strip():
                rows.append(lines[index])
                index += 1
            for row_no, raw in enumerate(rows, 1):
                cells = tuple(Cell(*_md_inline(c)) for c in _pipe_cells(raw))
                yield Row(raw.strip(), cells, counters["table"], row_no, row_no == 1)
            list_indent = None
        elif not line.strip():
            continue
        elif bullet:
            indent = len(bullet.group(1))
            if indent > 3 or (list_indent is not None and indent > list_indent):
                continue  # a nested list: part of the previous entry
            if para:
                yield from flush()
            if list_indent is None:
                counters["list"] += 1
            list_indent = indent if list_indent is None else min(list_indent, indent)
            body_at = bullet.start(bullet.re.groups)  # the last group: the item's text
            item = [line[body_at:] if body_at >= 0 else ""]
        elif item is not None:
            item.append(line)
        else:
            if _indent(line) == 0:
                list_indent = None
            para.append(line)
    yield from flush()


def _pipe_cells(line: str) -> list[str]:
    body = line.strip()
    body = body.removeprefix("|").removesuffix("|")
    cells = re.split(r"(?<!\\)\|", body)
    return [cell.strip() for cell in cells]


# ============================================================================================
# reStructuredText


def rst_document(text: str) -> Document:
    lines = text.lstrip("\ufeff").splitlines()
    title = None
    start = 0
    # a PEP's RFC 822 header: "PEP: 13" / "Title: ..." before the first blank line
    if lines and RST_FIELD.match(lines[0]):
        while start < len(lines) and lines[start].strip():
            match = RST_FIELD.match(lines[start])
            if match and match.group(1).lower() == "title":
                title = match.group(2).strip()
            start += 1
    return Document(title, list(_rst_blocks(lines[start:])))


def _rst_blocks(lines: list[str]) -> Iterator[Block]:
    styles: list[tuple[str, bool]] = []
    counters = {"list": 0, "table": 0}
    para: list[str] = []
    item: list[str] | None = None
    item_column = 0
    list_indent: int | None = None
    index = 0

    def flush_para() -> Iterator[Block]:
        nonlocal para
        if para:
            display, links = _rst_inline(" ".join(part.strip() for part in para))
            yield Para("\n".join(para), display, links)
            para = []

    while index < len(lines):
        line = lines[index]
        heading = _rst_heading(lines, index)
        bullet = RST_BULLET.match(line)
        if bullet and bullet.group(3) is None and line.strip() != bullet.group(2):
            bullet = None
        continues = item is not None and line.strip() and _indent(line) >= item_column
        if item is not None and not continues:
            display, links = _rst_inline(" ".join(part.strip() for part in item))
            yield Item(_verbatim_quote(item), display, links, counters["list"])
            item = None
        if continues and item is not None:
            item.append(line)
            index += 1
            continue
        if heading is not None or not line.strip() or bullet:
            yield from flush_para()
        directive = RST_DIRECTIVE.match(line)
        if heading is not None:
            title, style, consumed = heading
            if style not in styles:
                styles.append(style)
            yield Heading(styles.index(style) + 1, _rst_inline(title)[0])
            index += consumed
            list_indent = None
        elif directive and directive.group(1) == "list-table":
            yield from flush_para()
            out: list[Block] = []
            counters["table"] += 1
            index = _rst_list_table(lines, index + 1, counters["table"], out := [])
            yield from out
        elif RST_SIMPLE_BORDER.match(line) or RST_GRID_BORDER.match(line):
            yield from flush_para()
            out = []
            counters["table"] += 1
            index = _rst_line_table(lines, index, counters["table"], out := [])
            yield from out
        elif RST_COMMENT.match(line) and not para:
            index += 1
            while index < len(lines) and (not lines[index].strip() or _indent(lines[index])):
                index += 1  # a directive or comment body
        elif bullet:
            index += 1
            indent = len(bullet.group(1))
            if list_indent is not None and indent > list_indent:
                continue
            if list_indent is None:
                counters["list"] += 1
            list_indent = indent if list_indent is None else min(list_indent, indent)
            item = [bullet.group(4) or ""]
            item_column = bullet.start(4) if bullet.group(4) else bullet.end(2) + 1
        else:
            index += 1
            if line.strip():
                if _indent(line) == 0:
                    list_indent = None
                para.append(line)
    if item is not None:
        display, links = _rst_inline(" ".join(part.strip() for part in item))
        yield Item(_verbatim_quote(item), display, links, counters["list"])
    yield from flush_para()


def _rst_list_table(lines: list[str], index: int, table_no: int, out: list[Block]) -> int:
    """Rows of a `.. list-table::` body; returns the index after it. Header rows come from the
    `:header-rows:` option (default 0: then the first row counts as the header when the caller
    recognises its words)."""
    header_rows = 0
    rows: list[list[str]] = []
    raw: list[str] = []
    while index < len(lines) and (not lines[index].strip() or _indent(lines[index])):
        line = lines[index]
        option = re.match(r"^\s+:header-rows:\s*(\d+)", line)
        row = RST_LIST_TABLE_ROW.match(line)
        cell = RST_LIST_TABLE_CELL.match(line)
        if option:
            header_rows = int(option.group(1))
        elif row:
            rows.append([row.group(2).strip()])
            raw.append(line.strip())
        elif cell and rows:
            rows[-1].append(cell.group(2).strip())
        index += 1
    for row_no, cells in enumerate(rows, 1):
        out.append(
            Row(
                raw[row_no - 1],
                tuple(Cell(*_rst_inline(c)) for c in cells),
                table_no,
                row_no,
                row_no <= max(header_rows, 1),
            )
        )
    return index


def _rst_line_table(lines: list[str], index: int, table_no: int, out: list[Block]) -> int:
    """A simple (`=== ===`) or grid (`+---+`) table whose rows are one line each."""
    grid = RST_GRID_BORDER.match(lines[index]) is not None
    border = lines[index].rstrip()
    if grid:
        starts = [m.start() for m in re.finditer(r"\+", border)][:-1]
    else:
        starts = [m.start() for m in re.finditer(r"=+", border)]
    index += 1
    row_no = 0
    borders_seen = 1
    header_done = False
    while index < len(lines) and lines[index].strip():
        line = lines[index]
        index += 1
        if RST_SIMPLE_BORDER.match(line) or RST_GRID_BORDER.match(line):
            borders_seen += 1
            if "=" in line and row_no:
                header_done = True
            if not grid and borders_seen >= 3:
                break
            continue
        if re.match(r"^-+(?:\s+-+)*\s*$", line):
            continue
        if grid:
            parts = [p.strip() for p in line.strip().strip("|").split("|")]
        else:
            bounds = [*starts[1:], len(line) + 1]
            parts = [line[a:b].strip() for a, b in zip(starts, bounds, strict=False)]
        row_no += 1
        out.append(
            Row(
                line.strip(),
                tuple(Cell(*_rst_inline(p)) for p in parts),
                table_no,
                row_no,
                row_no == 1 and not header_done,
            )
        )
    return index
