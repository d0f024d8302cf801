"""The document model: a page of any format as a stream of blocks (the readers that make one
are the other modules of this package; `extractors.document.parse` chooses one).

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

Links = tuple[tuple[str, str], ...]

GITHUB_USER = re.compile(
    r"^https?://(?:www\.)?github\.com/(?!orgs/|sponsors/|apps/|features/|topics/)"
    r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/?(?:[?#].*)?$"
)
GITHUB_ORG_PERSON = re.compile(r"^https?://(?:www\.)?github\.com/orgs/[^/]+/people/([\w-]+)/?$")
# what holds an account: an e-mail, an @handle, a link ("Jane Roe <jane@x.org> (@jroe)")
ACCOUNT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+|(?<![\w@])@[A-Za-z0-9][\w-]*|https?://\w")
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
# text helpers shared by the readers


def decode(body: bytes) -> str:
    return body.decode("utf-8", errors="replace").lstrip("\ufeff")


def utf8_of(body: bytes, text: str) -> bytes | None:
    """`body` when it is exactly `text` (its `decode`) as UTF-8: no byte-order mark at its start
    and no U+FFFD in the text (an invalid byte would have become one; a body that holds U+FFFD
    itself is just not reused), else None."""
    if body[:3] == b"\xef\xbb\xbf" or "\ufffd" in text:
        return None
    return body


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
