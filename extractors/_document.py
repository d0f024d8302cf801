"""One document model for every extractor: a page of any format as a stream of blocks.

`parse(snapshot)` reads HTML (selectolax), Markdown (markdown-it-py), reStructuredText
(docutils), YAML and TOML member files (PyYAML, tomllib), OWNERS / OWNERS_ALIASES / CODEOWNERS
and Linux-kernel style MAINTAINERS files, and gives one `Document`: its title, its header fields
(front matter, PEP headers) and its blocks in document order:

- `Heading(level, text)`: HTML h1..h6, Markdown `#` / setext, reST section levels, the title of a
  MAINTAINERS section, a CODEOWNERS path pattern, a YAML/TOML key that holds a list;
- `Item(quote, text, links, list_no, depth, parent)`: one list item; nested items come after their
  parent with `depth` + 1 and `parent` = the parent item's own text (an area label: "`area`:");
- `Row(quote, cells, table_no, row_no, header)`: one table row; a cell keeps its lines (`<br>`);
- `Para(quote, text, links)`: a paragraph; `Code(quote, lines)`: a literal block;
- `Term(quote, term, text, links)`: one entry of a definition list ("Name: text");
- `Record(quote, path, fields, comment)`: one entry of a data file (a YAML/TOML mapping or a
  scalar with the comment after it on its line).

`quote` is verbatim source text wherever the format keeps line positions (Markdown, reST, data
files: the item after its marker, the table row's line, the paragraph's lines); for HTML it is
the element's text with whitespace collapsed (what a reader of the rendered page sees). `text` is
the display text (markup removed, links replaced by their text); `links` are (text, target) pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Snapshot
from ingest.sniff import data_file_kind, sniff_format

Links = tuple[tuple[str, str], ...]

GITHUB_USER = re.compile(
    r"^https?://(?:www\.)?github\.com/(?!orgs/|sponsors/|apps/|features/|topics/)"
    r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/?(?:[?#].*)?$"
)
GITHUB_ORG_PERSON = re.compile(r"^https?://(?:www\.)?github\.com/orgs/[^/]+/people/([\w-]+)/?$")
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Heading:
    level: int
    text: str
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Item:
    quote: str
    text: str
    links: Links
    list_no: int
    depth: int = 0
    parent: str | None = None  # the enclosing item's own text, for a nested item
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Cell:
    text: str
    links: Links
    lines: tuple[str, ...] = ()  # the cell's lines, when it breaks them (<br>)


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Row:
    quote: str
    cells: tuple[Cell, ...]
    table_no: int
    row_no: int  # 1-based, header included
    header: bool
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Para:
    quote: str
    text: str
    links: Links
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Code:
    quote: str
    lines: tuple[str, ...]
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Term:
    quote: str
    term: str
    text: str
    links: Links
    list_no: int
    line: int | None = None


@dataclass(slots=True)  # not frozen: built by the hundred thousand, and frozen init is slow
class Record:
    quote: str
    path: tuple[str, ...]  # the keys above the entry ("people", "members")
    fields: dict[str, Any]  # a mapping's scalar fields; {"value": x} for a scalar entry
    comment: str | None
    record_no: int
    line: int | None = None


Block = Heading | Item | Row | Para | Code | Term | Record


@dataclass
class Document:
    title: str | None
    blocks: list[Block]
    format: str
    meta: dict[str, str] = field(default_factory=dict)  # front matter, PEP header fields
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # data-file arrays


# ============================================================================================
# dispatch


def file_name(url: str) -> str:
    path = urlsplit(url).path
    return path.rstrip("/").rsplit("/", 1)[-1].lower()


def format_of(snapshot: Snapshot) -> str:
    """The format to read: data files by their name (OWNERS, .toml, ...) or shape, else sniffed."""
    kind = data_file_kind(snapshot.url, snapshot.body)  # OWNERS, MAINTAINERS (not a web page)
    if kind:
        return kind
    name = file_name(snapshot.url)
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if name.endswith(".toml"):
        return "toml"
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "text":
        from extractors import _doc_data

        return _doc_data.sniff(decode(snapshot.body)) or fmt
    return fmt


_RECENT: dict[tuple[str, str, str, bool], Document] = {}  # the last document parsed
RECENT_MAX_BYTES = 8 << 20  # larger bodies are parsed each time they are asked for


def parse(snapshot: Snapshot, fmt: str | None = None, *, lists_only: bool = False) -> Document:
    """The snapshot as a Document; UnsupportedFormatError for PDF, feeds and JSON.

    Choosing an extractor and running it both read the document: the last one parsed is kept
    (documents are not changed by their readers), so a page is parsed once for both.

    `lists_only`: only headings and list items are wanted (the PyTorch page's reader); an HTML
    page is then walked for those alone."""
    fmt = fmt or format_of(snapshot)
    lists_only = lists_only and fmt == "html"
    key = (snapshot.sha256, snapshot.url, fmt, lists_only)
    if key in _RECENT:
        return _RECENT[key]
    document = _parse(snapshot, fmt, lists_only)
    _RECENT.clear()
    if len(snapshot.body) <= RECENT_MAX_BYTES:
        _RECENT[key] = document
    return document


def _parse(snapshot: Snapshot, fmt: str, lists_only: bool) -> Document:
    text = decode(snapshot.body)
    if fmt == "html":
        from extractors import _doc_html

        return _doc_html.document(text, snapshot.url, lists_only=lists_only)
    if fmt in ("markdown", "text"):
        from extractors import _doc_markdown

        return _doc_markdown.document(text)
    if fmt == "rst":
        from extractors import _doc_rst

        return _doc_rst.document(text)
    if fmt in ("yaml", "toml", "owners", "codeowners", "maintainers"):
        from extractors import _doc_data

        try:
            return _doc_data.document(text, fmt)
        except _doc_data.Malformed as exc:
            raise ExtractionError(snapshot.url, str(exc)) from None
    raise UnsupportedFormatError(snapshot.url, f"{fmt} is not a page format (it has no blocks)")


# ============================================================================================
# text helpers shared by the readers


def decode(body: bytes) -> str:
    return body.decode("utf-8", errors="replace").lstrip("\ufeff")


def collapse(text: str) -> str:
    """The text with runs of whitespace made one space and the ends trimmed."""
    if "  " not in text and text.isprintable() and text.strip() == text:
        return text  # already so (most link texts and names): no split and join
    return " ".join(text.split())


def without_controls(text: str) -> str:
    return CONTROL_CHARS.sub(" ", text)


def github_login(target: str) -> str | None:
    """The GitHub login a link target names (a profile, or an org's people page), lower-cased."""
    match = GITHUB_USER.match(target.strip()) or GITHUB_ORG_PERSON.match(target.strip())
    return match.group(1).lower() if match else None
