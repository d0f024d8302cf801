"""Feeds and mailing-list archives -> one block list per entry or message, with its own date.

- RSS / Atom (feedparser): each entry's content (else its summary) is HTML, read by the HTML
  reader of the document layer; the entry's `published` (else `updated`) date; its title.
- mbox archives (stdlib `email`): messages are cut at the mbox "From " separator lines; each
  message's text/plain part is read as Markdown (plain paragraphs and "- " lists are Markdown);
  its `Date` and `Subject` headers. A body sent quoted-printable or base64 is decoded, so its
  quotes are the decoded text.
- pipermail message pages (Mailman 2 HTML: `<!--beginarticle-->` and a `<pre>` body): the body
  is read as Markdown, the date from the `<I>` line under the author.

Each gives `Entry(title, date, blocks, label)`; none raises on a malformed entry (it is skipped).
"""

from __future__ import annotations

import calendar
import email
import email.policy
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from extractors.document import html as _doc_html
from extractors.document import markdown as _doc_markdown
from extractors.document.model import Block, collapse
from ingest.documents import parse_html

MBOX_SEPARATOR = re.compile(rb"^From \S+.*$", re.MULTILINE)
FEED_START = re.compile(r"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:rss|feed|rdf:RDF)\b", re.S)
PIPERMAIL_MARK = "<!--beginarticle-->"
PIPERMAIL_DATE = "i"


@dataclass(frozen=True)
class Entry:
    title: str | None
    date: str | None
    blocks: list[Block]
    label: str  # "entry 2", "message 3"


def is_feed(text: str) -> bool:
    return bool(FEED_START.match(text[:4096]))


def is_mbox(body: bytes) -> bool:
    return body.startswith(b"From ") and b"\n" in body[:1024] and b":" in body[:2048]


def is_pipermail(text: str) -> bool:
    return PIPERMAIL_MARK in text


def feed_entries(body: bytes) -> list[Entry]:
    import feedparser

    parsed = feedparser.parse(body)
    out = []
    for number, entry in enumerate(parsed.entries, start=1):
        contents = entry.get("content") or []
        html = (contents[0].get("value") if contents else None) or entry.get("summary") or ""
        if not html.strip():
            continue
        tree = parse_html(f"<html><body>{html}</body></html>")
        blocks = list(_doc_html.from_tree(tree, ("body",)).blocks)
        stamp = entry.get("published_parsed") or entry.get("updated_parsed")
        when = (
            datetime.fromtimestamp(calendar.timegm(stamp), UTC).date().isoformat()
            if stamp
            else None
        )
        out.append(Entry(entry.get("title"), when, blocks, f"entry {number}"))
    return out


def mbox_messages(body: bytes) -> list[Entry]:
    starts = [m.start() for m in MBOX_SEPARATOR.finditer(body)]
    out = []
    ends = [*starts[1:], len(body)]
    for number, (begin, end) in enumerate(zip(starts, ends, strict=True), start=1):
        chunk = body[begin:end].split(b"\n", 1)[-1]
        message = email.message_from_bytes(chunk, policy=email.policy.default)
        part = message.get_body(preferencelist=("plain",)) if message.is_multipart() else message
        if part is None:
            continue
        try:
            text = part.get_content()
        except (LookupError, ValueError):
            continue
        if not isinstance(text, str) or not text.strip():
            continue
        out.append(
            Entry(
                collapse(str(message.get("Subject") or "")) or None,
                _mail_date(message.get("Date")),
                list(_doc_markdown.document(text).blocks),
                f"message {number}",
            )
        )
    return out


def pipermail_message(text: str) -> Entry | None:
    tree = parse_html(text)
    pre = tree.css_first("pre")
    if pre is None:
        return None
    title = tree.css_first("h1")
    stamp = tree.css_first(PIPERMAIL_DATE)
    blocks = list(_doc_markdown.document(pre.text(deep=True)).blocks)
    return Entry(
        collapse(title.text(deep=True)) if title is not None else None,
        _mail_date(stamp.text(deep=True)) if stamp is not None else None,
        blocks,
        "message 1",
    )


def _mail_date(value: object) -> str | None:
    if not value:
        return None
    text = collapse(str(value))
    try:
        return parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError, IndexError):
        pass
    from dateutil import parser as dateparser

    try:
        return dateparser.parse(text, default=datetime(2000, 1, 1)).date().isoformat()
    except (ValueError, OverflowError):
        return None
