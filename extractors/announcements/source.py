"""What an announcement is read from: the post's header, its date, author and title, and its
body as document-layer blocks (`_document.parse`), one section per post of a Discourse topic.

Mail (`.eml`, mbox): a section per message (`_document.mail`), the sender the author, the
names of the From / To / Cc headers kept (`Post.people`) so the body's first names resolve.
Headers: YAML front matter (`---`), TOML front matter (`+++`, Zola/Hugo), a `{% ... %}` config
header (Laika: HOCON fields, read as YAML), Franklin `@def` lines (Julia), PEP header fields,
HTML meta tags (`article:published_time`, `og:title`, Discourse's `datePublished`). A header is
read with PyYAML / tomllib and blanked out of the body (line numbers stay those of the file), so
a Markdown, AsciiDoc or HTML body after front matter is read by the document layer as Markdown,
AsciiDoc or HTML. Discourse topics: the JSON API (`post_stream.posts[].cooked`, each post's
`created_at`) and the crawler HTML (`div.post[itemprop=text]` / `.cooked` bodies).
The post date: the header's, else a `<time datetime>` in the page, else a date in the URL, else
the latest full date the document prints (a results page is written after what it reports).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import yaml
from selectolax.lexbor import LexborHTMLParser

from extractors import document as _document
from extractors.announcements import dates
from extractors.document import asciidoc as _doc_asciidoc
from extractors.document import feed as _doc_feed
from extractors.document import html as _doc_html
from extractors.document import mail as _doc_mail
from extractors.document.model import Block, Heading, Item, Para, Row, Term, collapse, decode
from ingest.documents import parse_html
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Snapshot

DATE_KEYS = ("date", "published", "publishdate", "rss_pubdate", "pubdate", "created",
             "article:published_time", "datepublished", "created_at", "post-date")  # fmt: skip
AUTHOR_KEYS = ("authors", "author")
TITLE_KEYS = ("title", "og:title")
FRANKLIN_DEF = re.compile(r"^@def\s+(\w+)\s*=\s*(.*)$")
DISCOURSE_POSTS = "div.post[itemprop='text'], div.cooked"
PUBLISHED_SELECTORS = (
    "meta[property='article:published_time']",
    "meta[name='article:published_time']",
    "meta[itemprop='datePublished']",
    "[itemprop='datePublished'][datetime]",
    "time[datetime]",
)
TITLE_SUFFIX = re.compile(r"\s+[-–—|]\s+[^-–—|]{2,60}$")
MAX_HEADER_LINES = 400
HTML_BODY = re.compile(r"\s*<(?!!--)[A-Za-z!]")  # a page body, not a comment before Markdown
# a line of Markdown outside any tag: a heading, a list item, a quote, bold text or a link
MARKDOWN_LINE = re.compile(
    r"^(?!\s*<)\s{0,3}(?:#{1,6}\s|[-*+]\s|\d+\.\s|>\s|\*\*)|\]\([^)\s]+\)", re.M
)
MARKDOWN_AFTER_HTML = 2  # such lines: a body opening with a tag is Markdown (raw HTML blocks)
JSON_START = re.compile(r'\s*\{\s*["}]')  # `{"post_stream": ...`, not `{%`
HEADER_FENCES = {"---": ("---", "..."), "+++": ("+++",), "{%": ("%}",)}  # opening -> closing


@dataclass
class Section:
    """The blocks of one post (of a topic), with its date and a locator prefix."""

    blocks: list[Block]
    date: str | None
    prefix: str = ""


@dataclass
class Post:
    title: str | None
    date: str | None
    authors: list[str]
    sections: list[Section]
    meta: dict[str, Any] = field(default_factory=dict)
    declared: bool = False  # dated by its header, page or URL (not by a date it prints)
    people: list[str] = field(default_factory=list)  # full names its headers give (mail)

    def texts(self) -> list[str]:
        out = [self.title or ""]
        for section in self.sections:
            out += [block_text(b) for b in section.blocks]
        return out


def block_text(block: Block) -> str:
    if isinstance(block, Heading):
        return block.text
    if isinstance(block, Item | Para | Term):
        return block.text
    if isinstance(block, Row):
        return " | ".join(c.text for c in block.cells)
    return ""


def _html_body(body: str) -> bool:
    """A post body (after its front matter) in HTML: it opens with a tag, and it is not Markdown
    that opens with a raw HTML block (an image caption) before its Markdown paragraphs."""
    if not HTML_BODY.match(body):
        return False
    return len(MARKDOWN_LINE.findall(body)) < MARKDOWN_AFTER_HTML


def read(snapshot: Snapshot) -> Post:
    """The post a snapshot holds; UnsupportedFormatError for what is not a post format."""
    text = decode(snapshot.body)
    if JSON_START.match(text):
        return _discourse_json(text, snapshot.url)
    if _doc_feed.is_feed(text):
        return _of_entries(_doc_feed.feed_entries(snapshot.body), None)
    if _doc_mail.is_mail(snapshot.body):
        return _of_messages(_doc_mail.messages(snapshot.body))
    if _doc_feed.is_pipermail(text):
        message = _doc_feed.pipermail_message(text)
        return _of_entries([message] if message else [], None)
    meta, body = header(text)
    if meta:
        fmt = "html" if _html_body(body) else "markdown"
        if fmt == "markdown" and _doc_asciidoc.looks_like_asciidoc(body):
            fmt = "text"  # AsciiDoc titles: the document layer reads its titles and link macros
        inner = Snapshot(url=snapshot.url, body=body.encode("utf-8"))
        document = _document.parse(inner, fmt)
    else:
        document = _document.parse(snapshot)
        fmt = document.format
        meta = dict(document.meta)
    sections = [Section(list(document.blocks), None)]
    page_date = None
    if fmt == "html":
        tree = parse_html(body if meta else text)
        found = _discourse_html(tree)
        if found:
            sections = found
        page_date = _html_date(tree)
        meta = {**document.meta, **meta}
    title = _title(meta, document.title, fmt) or _first_heading(document.blocks)
    post = Post(title, None, _authors(meta), sections, meta)
    post.date = _meta_date(meta) or page_date or dates.url_date(snapshot.url)
    post.declared = post.date is not None
    post.date = post.date or dates.latest_date(post.texts())
    for section in post.sections:
        section.date = section.date or post.date
    return post


def title_of(snapshot: Snapshot) -> str | None:
    """The document's title, cheaply: from the document layer's (cached) parse of the page, or
    from the page's own header when it has one."""
    text = decode(snapshot.body[:65536])
    if JSON_START.match(text) or _doc_feed.is_feed(text) or _doc_feed.is_mbox(snapshot.body):
        return None
    meta, _ = header(text)
    if meta:
        return _title(meta, None, "markdown")
    document = _document.parse(snapshot)
    return _title(dict(document.meta), document.title, document.format) or _first_heading(
        document.blocks
    )


def header(text: str) -> tuple[dict[str, Any], str]:
    """The header's fields and the body with the header blanked out (same line numbers)."""
    lines = text.splitlines(keepends=True)
    if not lines:
        return {}, text
    meta: dict[str, Any] = {}
    end = 0
    while end < len(lines) and end < MAX_HEADER_LINES:  # Franklin: "@def key = value"
        match = FRANKLIN_DEF.match(lines[end].strip())
        if match:
            meta[match.group(1).lower()] = _franklin_value(match.group(2))
        elif lines[end].strip():
            break
        end += 1
    if end < len(lines) and lines[end].strip() in HEADER_FENCES:
        fence = lines[end].strip()
        for close in range(end + 1, min(len(lines), end + MAX_HEADER_LINES)):
            if lines[close].strip() in HEADER_FENCES[fence]:
                raw = "".join(lines[end + 1 : close])
                meta.update(_fields(raw, fence))
                end = close + 1
                break
    if not meta:
        return {}, text
    blank = "".join("\n" if line.endswith(("\n", "\r")) else "" for line in lines[:end])
    return meta, blank + "".join(lines[end:])


def _fields(raw: str, fence: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(raw) if fence == "+++" else yaml.safe_load(raw)
    except (tomllib.TOMLDecodeError, yaml.YAMLError):
        return {}
    return {str(k).lower(): v for k, v in data.items()} if isinstance(data, dict) else {}


def _franklin_value(value: str) -> Any:
    value = value.strip()
    for quote in ('"""', '"'):
        if value.startswith(quote) and value.endswith(quote) and len(value) >= 2 * len(quote):
            return value[len(quote) : -len(quote)]
    return value


def _meta_date(meta: dict[str, Any]) -> str | None:
    lowered = {str(k).lower(): v for k, v in meta.items()}
    for key in DATE_KEYS:
        day = dates.iso_date(lowered.get(key))
        if day:
            return day
    return None


def _authors(meta: dict[str, Any]) -> list[str]:
    for key in AUTHOR_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            return [value.strip()]
        if isinstance(value, list):
            out = []
            for v in value:
                if isinstance(v, str):
                    out.append(v)
                elif isinstance(v, dict) and isinstance(v.get("user") or v.get("name"), str):
                    out.append(str(v.get("name") or v.get("user")))
            return out
    return []


def _title(meta: dict[str, Any], title: str | None, fmt: str) -> str | None:
    for key in TITLE_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            return collapse(value)
    if title and fmt == "html":
        return TITLE_SUFFIX.sub("", collapse(title))
    return title


def _first_heading(blocks: list[Block]) -> str | None:
    """A Markdown document without a header is titled by its first top-level heading."""
    for block in blocks[:3]:
        if isinstance(block, Heading) and block.level == 1:
            return block.text
    return None


def _html_date(tree: LexborHTMLParser) -> str | None:
    for selector in PUBLISHED_SELECTORS:
        node = tree.css_first(selector)
        if node is None:
            continue
        attributes = node.attributes
        day = dates.iso_date(attributes.get("content") or attributes.get("datetime"))
        if day:
            return day
    return None


def _discourse_html(tree: LexborHTMLParser) -> list[Section]:
    """A Discourse crawler page: one section per post body, dated by the post's own time."""
    sections = []
    for number, node in enumerate(tree.css(DISCOURSE_POSTS), start=1):
        when = None
        holder = node.parent
        for _ in range(3):
            if holder is None:
                break
            stamp = holder.css_first("[itemprop='datePublished'], time[datetime]")
            if stamp is not None:
                attributes = stamp.attributes
                when = dates.iso_date(attributes.get("datetime") or attributes.get("content"))
                break
            holder = holder.parent
        inner = parse_html(f"<html><body>{node.html or ''}</body></html>")
        document = _doc_html.from_tree(inner, ("body",))
        sections.append(Section(list(document.blocks), when, f"post {number}, "))
    return sections


def _of_entries(entries: list[_doc_feed.Entry], title: str | None) -> Post:
    """A feed or a mailing-list archive: a section per entry, each with its own date."""
    sections = [Section(e.blocks, e.date, f"{e.label}, ") for e in entries]
    first = entries[0] if entries else None
    post = Post(title or (first.title if first else None), first.date if first else None, [],
                sections, {})  # fmt: skip
    post.declared = post.date is not None
    return post


def _of_messages(found: list[_doc_mail.Message]) -> Post:
    """Mail: a section per message, each with its own date; the first message's sender is the
    author (a first-person message is theirs); every name the headers give, for the body's
    first names."""
    post = _of_entries([_doc_feed.Entry(m.title, m.date, m.blocks, m.label) for m in found], None)
    first = found[0] if found else None
    if first and first.author and first.author.name:
        post.authors = [first.author.name]
    for message in found:
        post.people += [p.name for p in message.people if p.name and p.name not in post.people]
    return post


def _discourse_json(text: str, url: str) -> Post:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ExtractionError(url, f"malformed Discourse JSON: {exc}") from None
    stream = data.get("post_stream") if isinstance(data, dict) else None
    posts = stream.get("posts") if isinstance(stream, dict) else None
    if not isinstance(posts, list):
        raise UnsupportedFormatError(url, "JSON that is not a Discourse topic (no post_stream)")
    sections = []
    for number, raw in enumerate(posts, start=1):
        if not isinstance(raw, dict):
            continue
        cooked = raw.get("cooked")
        if not isinstance(cooked, str) or not cooked.strip():
            continue
        tree = parse_html(f"<html><body>{cooked}</body></html>")
        document = _doc_html.from_tree(tree, ("body",))
        label = raw.get("post_number") if isinstance(raw.get("post_number"), int) else number
        sections.append(
            Section(list(document.blocks), dates.iso_date(raw.get("created_at")), f"post {label}, ")
        )
    title = data.get("title") if isinstance(data.get("title"), str) else None
    post = Post(title, dates.iso_date(data.get("created_at")), [], sections, {})
    post.declared = post.date is not None
    for section in sections:
        section.date = section.date or post.date
    return post
