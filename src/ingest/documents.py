"""Small facts about a stored document that the pipeline needs besides its claims, and the bounds
on what reading one may cost: the parse limit (`check_parse_size`), a capped file read
(`snapshot_from_file`, with the day the file is evidence for: `stated_date`) and a bound on HTML
nesting (`parse_html`, every HTML parse goes through it).
"""

from __future__ import annotations

import io
import re
from datetime import date
from email.utils import parsedate_to_datetime
from pathlib import Path
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from ingest.errors import ConfigError, DocumentTooLargeError, DocumentTooNestedError
from ingest.html_nesting import bounded_nesting
from ingest.models import EvidenceBasis, Snapshot
from ingest.nesting import MAX_NESTING, MAX_UNCLOSED_BRACKETS, data_nesting, unclosed_brackets
from ingest.settings import Settings
from ingest.sniff import data_file_kind, sniff_format

# Both end the title at its line's last non-space character with no lazy run before an
# optional tail: "^#\s+(.+?)\s*#*\s*$" tried every split of a line's spaces three ways (a title
# line of 2,000 spaces took 61 s), "[^\s].*?\s*\n" every split twice (20,000 spaces: 3 s).
_MD_TITLE = re.compile(r"^#\s+(\S.*)$", re.MULTILINE)
_RST_TITLE = re.compile(r"^(?P<title>\S(?:.*\S)?)\s*\n(?P<bar>[=\-~#*^]{3,})\s*$", re.MULTILINE)
LOGIN_MARKERS = (
    re.compile(rb"<input[^>]+type\s*=\s*[\"']?password", re.IGNORECASE),
    re.compile(rb"<title>[^<]*(sign in|log ?in|login required)[^<]*</title>", re.IGNORECASE),
)
# Publishers the wiki prints for well-known hosts; other hosts print their domain.
PUBLISHERS = {
    "docs.pytorch.org": "PyTorch",
    "pytorch.org": "PyTorch",
    "dev-discuss.pytorch.org": "PyTorch Developer Mailing List",
    "arxiv.org": "arXiv",
    "export.arxiv.org": "arXiv",
    "peps.python.org": "Python Software Foundation",
}


def title_of(snapshot: Snapshot) -> str | None:
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    text = snapshot.text()
    if fmt == "html":
        tree = parse_html(text)
        for selector in ("title", "h1"):
            node = tree.css_first(selector)
            if node is not None:
                value = " ".join(node.text(deep=True).split()).rstrip("¶#").strip()
                if value:
                    return value
        return None
    if fmt == "markdown":
        match = _MD_TITLE.search(text)
        if not match:
            return None
        title = match.group(1).rstrip()
        return title.rstrip("#").rstrip() or title  # "# Title ##": its closing hashes
    if fmt == "rst":
        match = _RST_TITLE.search(text)
        return match.group("title") if match else None
    return None


def publisher_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return PUBLISHERS.get(host) or PUBLISHERS.get(host.removeprefix("www.")) or host


def looks_like_login(snapshot: Snapshot) -> bool:
    head = snapshot.body[:100_000]
    return any(p.search(head) for p in LOGIN_MARKERS)


CONTENT_TYPES = {
    "html": "text/html",
    "markdown": "text/markdown",
    "rst": "text/x-rst",
    "pdf": "application/pdf",
    "atom": "application/atom+xml",
    "json": "application/json",
    "text": "text/plain",
}


READ_CHUNK = 1024 * 1024  # bytes read at a time from a file


def snapshot_from_file(
    url: str,
    path: Path,
    max_bytes: int,
    as_of: date | None = None,
    today: date | None = None,
) -> Snapshot:
    """A snapshot of a local file standing for URL's body; its format is sniffed from the bytes.
    Its origin is `file`; its evidence date is `as_of` when given (basis `given`), else the date
    the file states (`stated_date`, basis `stated`), else `today` (basis `assumed`: the caller
    warns).

    Reads at most `max_bytes` + 1 bytes, whatever the file is (a pipe, a device such as
    /dev/zero, a file whose size the system misreports): more is refused, naming the file.
    """
    try:
        with path.open("rb") as handle:
            chunks: list[bytes] = []
            left = max_bytes + 1
            while left > 0 and (chunk := handle.read(min(READ_CHUNK, left))):
                chunks.append(chunk)
                left -= len(chunk)
    except OSError as exc:
        raise ConfigError(f"cannot read file '{path}': {exc.strerror or exc}") from exc
    if left <= 0:
        raise ConfigError(
            f"file '{path}' is larger than the limit of {max_bytes} bytes (INGEST_MAX_BYTES)"
        )
    body = b"".join(chunks)
    fmt = sniff_format(body, "", "")
    stated = None if as_of else stated_date(body)
    day = as_of or stated or today or date.today()
    basis: EvidenceBasis = "given" if as_of else "stated" if stated else "assumed"
    return Snapshot(
        url=url,
        headers={"content-type": CONTENT_TYPES[fmt]},
        body=body,
        origin="file",
        evidence_date=day.isoformat(),
        evidence_basis=basis,
    )


# -- the date a file states ------------------------------------------------------------------

_FRONT = re.compile(
    rb"\A(?:\xef\xbb\xbf)?(---|\+\+\+)[ \t]*\r?\n(.*?)\r?\n\1[ \t]*(?:\r?\n|\Z)", re.S
)
# front-matter keys, the last change first (a page's state is as of its last change)
_FRONT_KEYS = ("lastmod", "last_modified", "last-modified", "modified", "updated", "date")
_FRONT_LINE = re.compile(
    r"^(?P<key>[A-Za-z_-]+)[ \t]*[:=][ \t]*[\"']?(?P<value>\d{4}-\d{2}-\d{2})", re.M
)
# HTML <meta> names (name, property or itemprop), the last change first
_META_NAMES = (
    "article:modified_time",
    "og:updated_time",
    "last-modified",
    "dcterms.modified",
    "datemodified",
    "article:published_time",
    "date",
    "dc.date",
    "dcterms.date",
    "datepublished",
    "citation_publication_date",
)
_FEED_DATES = (rb"updated", rb"lastBuildDate", rb"pubDate", rb"published")
_ISO_DAY = re.compile(r"(\d{4})[-/](\d{2})[-/](\d{2})")
STATED_DATE_BYTES = 256 * 1024  # where a stated date is looked for: a document's head


def _day(text: str | None) -> date | None:
    """A day from an ISO date or datetime (or YYYY/MM/DD), or an HTTP date; None if neither."""
    if not text:
        return None
    text = text.strip()
    match = _ISO_DAY.match(text)
    try:
        if match:
            return date(int(match[1]), int(match[2]), int(match[3]))
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        return None


def stated_date(body: bytes) -> date | None:
    """The day a document says it was last changed (else published), from its header only:
    Markdown/reST front matter (`lastmod:`, `updated:`, `date:`, YAML or TOML), an HTML `<meta>`
    (`article:modified_time`, ..., `date`) or `http-equiv="last-modified"`, a feed's own
    `<updated>` (or RSS `<lastBuildDate>`), a PDF's metadata (ModDate, else CreationDate).
    None when it states none: a date printed in the text is not the document's date."""
    fmt = sniff_format(body, "", "")
    if fmt == "pdf":
        return _pdf_date(body)
    head = body[:STATED_DATE_BYTES]
    if fmt == "atom" or head.lstrip().startswith(b"<?xml"):
        feed_head = re.split(rb"<(?:entry|item)[\s>]", head, maxsplit=1)[0]
        for tag in _FEED_DATES:
            found = re.search(rb"<(?:\w+:)?" + tag + rb"[^>]*>([^<]+)<", feed_head)
            if found and (day := _day(found.group(1).decode("utf-8", "replace"))):
                return day
        return None
    if fmt == "html":
        return _html_date(head.decode("utf-8", errors="replace"))
    front = _FRONT.match(head)
    if not front:
        return None
    values = {
        m["key"].lower(): m["value"]
        for m in _FRONT_LINE.finditer(front.group(2).decode("utf-8", errors="replace"))
    }
    for key in _FRONT_KEYS:
        if day := _day(values.get(key)):
            return day
    return None


def _html_date(text: str) -> date | None:
    found: dict[str, str] = {}
    head = re.split(r"</head\s*>|<body[\s>]", text, maxsplit=1, flags=re.IGNORECASE)[0]
    for node in parse_html(head).css("meta"):
        attrs = node.attributes
        content = attrs.get("content")
        name = attrs.get("property") or attrs.get("name") or attrs.get("itemprop")
        if attrs.get("http-equiv") and not name:
            name = attrs.get("http-equiv")
        if name and content:
            found.setdefault(name.strip().lower(), content)
    for name in _META_NAMES:
        if day := _day(found.get(name)):
            return day
    return None


def _pdf_date(body: bytes) -> date | None:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        info = PdfReader(io.BytesIO(body)).metadata
        if info is None:
            return None
        moment = info.modification_date or info.creation_date
    except (PyPdfError, ValueError, TypeError, KeyError, OSError):
        return None
    return moment.date() if moment else None


# Formats read under INGEST_MAX_PARSE_BYTES; every other text format (Markdown, reST, YAML, JSON,
# plain text: parsers that take far more memory per byte) is read under INGEST_MAX_MARKUP_BYTES.
LARGE_PARSE_FORMATS = frozenset({"html", "atom"})
# Data files read line by line (extractors/document/data.py), not by a markup parser: the Linux
# kernel's MAINTAINERS is ~800 kB (a 1 MB one reads in 1.4 s and 82 MB), over the markup limit.
# Known by their file name (ingest.sniff.data_file_kind), as the readers know them.
LINE_DATA_KINDS = frozenset({"maintainers", "codeowners"})


def check_parse_size(snapshot: Snapshot, settings: Settings, what: str = "document") -> None:
    """Refuse a text document over its format's parse limit before any parser sees it
    (DocumentTooLargeError naming its URL and the setting): INGEST_MAX_PARSE_BYTES for HTML,
    feeds and line-based data files (LINE_DATA_KINDS), INGEST_MAX_MARKUP_BYTES for the rest.
    A PDF is bounded by INGEST_MAX_BYTES instead. Then its shape (`check_nesting`)."""
    size = len(snapshot.body)
    if size <= min(settings.max_parse_bytes, settings.max_markup_bytes):
        check_nesting(snapshot)
        return
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt == "pdf":
        return
    line_data = data_file_kind(snapshot.url, snapshot.body) in LINE_DATA_KINDS
    if fmt in LARGE_PARSE_FORMATS or what == "feed" or line_data:
        limit, setting = settings.max_parse_bytes, "INGEST_MAX_PARSE_BYTES"
    else:
        limit, setting = settings.max_markup_bytes, "INGEST_MAX_MARKUP_BYTES"
    if size > limit:
        raise DocumentTooLargeError(snapshot.url, size, limit, what, setting)
    check_nesting(snapshot)


def check_nesting(snapshot: Snapshot) -> None:
    """Refuse, before a parser recurses or backtracks, a text document that nests its brackets
    (a YAML file: its indents) over MAX_NESTING deep, or leaves over MAX_UNCLOSED_BRACKETS `[`
    open in one block (Markdown's link parser is quadratic in them): DocumentTooNestedError
    naming the URL, in milliseconds (`ingest.nesting`). Markup (the body starts with `<`:
    HTML, XML, feeds, whatever its Content-Type says) is left to `ingest.html_nesting`."""
    body = snapshot.body
    if body.lstrip()[:1] == b"<" or body[:5] == b"%PDF-":
        return
    yaml = urlsplit(snapshot.url).path.lower().endswith((".yml", ".yaml"))
    if not yaml and b"[" not in body and b"{" not in body:
        return
    text = body.decode("utf-8", errors="replace")
    depth = data_nesting(text, "yaml" if yaml else "data")
    if depth > MAX_NESTING:
        raise DocumentTooNestedError(snapshot.url, "nested", depth, MAX_NESTING)
    unclosed = unclosed_brackets(text) if "[" in text else 0
    if unclosed > MAX_UNCLOSED_BRACKETS:
        raise DocumentTooNestedError(
            snapshot.url, "'[' left unclosed in one block:", unclosed, MAX_UNCLOSED_BRACKETS
        )


def parse_html(text: str, encoded: bytes | None = None) -> LexborHTMLParser:
    """The parsed HTML, nested at most MAX_HTML_DEPTH deep (`ingest.html_nesting`).

    `encoded`: `text` as UTF-8, when the caller holds it (the body `text` was decoded from,
    valid UTF-8 with no byte-order mark): where the bound leaves the text as it was, those bytes
    are parsed, not the text encoded again (the parser encodes a str: 0.05 ms for a 54 kB page
    that is not all ASCII). The same bytes, so the same tree."""
    bounded = bounded_nesting(text)
    if encoded is not None and bounded == text:
        return LexborHTMLParser(encoded)
    return LexborHTMLParser(bounded)
