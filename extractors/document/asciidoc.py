"""AsciiDoc -> Document: read as Markdown, its titles and tables taken first.

A "== Title" line is Markdown's "## Title" (rewritten in its place). A table (`|===` fences)
gives `Row` blocks where it stands, one a row, its cells what the `|` marks start (a cell
specifier such as `2+|` or `a|` before the mark is dropped); the columns are the cells of the
table's first line (or the `cols` attribute's count), the first row is the header when the
attribute line says so (`%header`, `options="header"`) or when the first line alone is the
first row and a blank line follows it (AsciiDoc's implicit header). A row's quote is its source
lines; links are `URL[text]` macros and bare URLs. The table's lines are blank to the Markdown
reader, so no line moves. Outside tables, link macros (`link:URL[text]`, `URL[text]`,
`xref:FILE[text]`) are rewritten as Markdown links in their place (`[text](URL)`; an empty text
shows the URL), so a list item `* link:https://github.com/jroe[Jane Roe]` is a linked name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.document.model import Block, Cell, Document, Row, collapse

TITLE = re.compile(r"^(={1,6})[ \t]+(?=\S)", re.MULTILINE)  # "== Maintainers"
FENCE = re.compile(r"^\|===\s*$")
ATTRIBUTES = re.compile(r"^\[(?P<body>[^\]]*)\]\s*$")
COLS = re.compile(r"""cols\s*=\s*["']?(?P<spec>[^"'\]]+)""")
CELL_MARK = re.compile(r"(?:^|(?<=\s))(?:\d+(?:\.\d+)?[+*])?[\^<>.]*[adehlmsv]?\|")
LINK = re.compile(r"(?P<url>https?://[^\s\[\]]+)(?:\[(?P<text>[^\]]*)\])?")
# an inline link macro outside a table: `link:URL[text]`, `URL[text]`, `xref:FILE[text]`
MACRO = re.compile(
    r"(?:(?P<kind>link|xref):(?P<target>[^\s\[\]]+)|(?P<url>https?://[^\s\[\]]+))"
    r"\[(?P<text>[^\]\n]*)\]"
)


@dataclass
class _Table:
    start: int  # 0-based index of the opening fence (of its attribute line, when it has one)
    end: int  # of the closing fence
    rows: list[Row]


def titles_as_markdown(text: str) -> str:
    return TITLE.sub(lambda m: "#" * len(m.group(1)) + " ", text)


def links_as_markdown(text: str) -> tuple[str, dict[str, str]]:
    """Link macros as Markdown links, in place: `link:https://github.com/jroe[Jane Roe]` ->
    `[Jane Roe](https://github.com/jroe)`; `https://x.org[]` -> `<https://x.org>`. Also each
    rewrite -> the source it replaced, so quotes are given back verbatim."""
    undo: dict[str, str] = {}

    def markdown(match: re.Match[str]) -> str:
        target = match.group("target") or match.group("url")
        shown = match.group("text")
        if "=" in shown:  # `[Jane Roe,window=_blank]`: attributes after the text
            shown = shown.split(",", 1)[0]
        shown = shown.strip().strip('"')
        if not shown:
            out = f"<{target}>" if "://" in target else target
        else:
            out = f"[{shown}]({target})"
        undo.setdefault(out, match.group(0))
        return out

    return MACRO.sub(markdown, text), undo


def _verbatim(doc: Document, undo: dict[str, str]) -> None:
    """Quotes as the source prints them: each Markdown link the macros became, put back."""
    if not undo:
        return
    for block in doc.blocks:
        quote = getattr(block, "quote", None)
        if isinstance(quote, str) and any(made in quote for made in undo):
            for made, source in undo.items():
                quote = quote.replace(made, source)
            block.quote = quote  # type: ignore[union-attr]


def looks_like_asciidoc(text: str) -> bool:
    return len(TITLE.findall(text[:65536])) >= 2


def document(text: str) -> Document:
    from extractors.document import markdown as _doc_markdown

    lines = text.splitlines()
    tables = list(_tables(lines))
    blanked = list(lines)
    for table in tables:
        for index in range(table.start, table.end + 1):
            blanked[index] = ""
    linked, undo = links_as_markdown(titles_as_markdown("\n".join(blanked)))
    doc = _doc_markdown.document(linked)
    _verbatim(doc, undo)
    if not tables:
        return doc
    numbered = max((b.table_no for b in doc.blocks if isinstance(b, Row)), default=0)
    merged: list[Block] = []
    pending = list(tables)
    for block in doc.blocks:
        line = getattr(block, "line", None)
        while pending and line is not None and pending[0].start + 1 < line:
            numbered += 1
            merged.extend(_renumbered(pending.pop(0).rows, numbered))
        merged.append(block)
    for table in pending:
        numbered += 1
        merged.extend(_renumbered(table.rows, numbered))
    doc.blocks = merged
    return doc


def _renumbered(rows: list[Row], table_no: int) -> list[Row]:
    for row in rows:
        row.table_no = table_no
    return rows


def _tables(lines: list[str]) -> list[_Table]:
    found: list[_Table] = []
    index = 0
    while index < len(lines):
        if not FENCE.match(lines[index]):
            index += 1
            continue
        end = next((j for j in range(index + 1, len(lines)) if FENCE.match(lines[j])), None)
        if end is None:
            break
        attrs = ATTRIBUTES.match(lines[index - 1]) if index else None
        rows = _rows(lines, index + 1, end, attrs)
        found.append(_Table(index - 1 if attrs else index, end, rows))
        index = end + 1
    return found


def _rows(lines: list[str], start: int, end: int, attrs: re.Match[str] | None) -> list[Row]:
    """The rows of the table between the fences (`start` .. `end`, 0-based, exclusive)."""
    cells: list[tuple[str, int]] = []  # each cell's text and the line it starts on
    first_line: int | None = None
    for index in range(start, end):
        line = lines[index]
        marks = list(CELL_MARK.finditer(line))
        if not marks:
            if cells and line.strip():  # a cell's text goes on on the next line
                text, at = cells[-1]
                cells[-1] = (f"{text} {line.strip()}", at)
            continue
        if first_line is None:
            first_line = index
        for number, mark in enumerate(marks):
            stop = marks[number + 1].start() if number + 1 < len(marks) else len(line)
            cells.append((line[mark.end() : stop].strip(), index))
    if not cells or first_line is None:
        return []
    body = attrs.group("body") if attrs else ""
    spec = COLS.search(body)
    width = len(spec.group("spec").split(",")) if spec else None
    width = width or sum(1 for _text, at in cells if at == first_line)
    header = "header" in body or (
        width > 1
        and sum(1 for _t, at in cells if at == first_line) == width
        and first_line + 1 < end
        and not lines[first_line + 1].strip()
    )
    rows: list[Row] = []
    for offset in range(0, len(cells) - width + 1, width):
        group = cells[offset : offset + width]
        top, bottom = group[0][1], group[-1][1]
        quote = "\n".join(lines[top : bottom + 1]).strip()
        rows.append(
            Row(
                quote=quote,
                cells=tuple(_cell(text) for text, _at in group),
                table_no=0,
                row_no=len(rows) + 1,
                header=header and not rows,
                line=top + 1,
            )
        )
    return rows


def _cell(text: str) -> Cell:
    links = tuple(
        (collapse(m.group("text") or m.group("url")), m.group("url")) for m in LINK.finditer(text)
    )
    shown = LINK.sub(lambda m: m.group("text") if m.group("text") is not None else m.group(0), text)
    return Cell(collapse(shown), links)
