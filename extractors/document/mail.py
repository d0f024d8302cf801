"""Mail: one `.eml` message or an mbox archive, read with the standard library `email` package.

- a message is known by its header block (`is_message`): RFC 5322 header lines up to the first
  blank line, among them `From:` and `Subject:` and one of `Date:`, `Message-ID:`,
  `Received:`; an mbox archive by its "From " separator lines (`feed.is_mbox`);
- headers are decoded (`email.policy.default`: RFC 2047 encoded words, folded lines); the
  people of `From`, `To`, `Cc` and `Reply-To` are kept with their display names (the full names
  a list message often gives only there), the date from `Date`, the title from `Subject`;
- the body: the text/plain part read as Markdown (plain paragraphs and "- " lists are Markdown),
  else the text/html part read by the HTML reader; a body sent quoted-printable or base64 is
  decoded, so its quotes are the decoded text. Quoted reply lines ("> ...") are left out: they
  are another message's words.

`messages(body)` gives every message (`Message`); `document(body)` the first as a `Document` of
format `mail` (its header fields in `meta`). Neither raises on a malformed message (it is
skipped); a body with no readable message gives an empty document.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from email.message import EmailMessage

from extractors.document import feed as _doc_feed
from extractors.document import html as _doc_html
from extractors.document import markdown as _doc_markdown
from extractors.document.model import Block, Document, collapse, decode
from ingest.documents import parse_html

HEADER_LINE = re.compile(rb"^[A-Za-z][A-Za-z0-9-]{0,60}:")
CONTINUATION = re.compile(rb"^[ \t]")
ONE_OF = frozenset({b"date", b"message-id", b"received"})
PEOPLE_HEADERS = ("from", "to", "cc", "reply-to")
MAX_HEADER_LINES = 200
QUOTED_LINE = re.compile(r"^[ \t]*>.*$\n?", re.MULTILINE)


@dataclass(frozen=True)
class Person:
    name: str  # the display name, decoded ("" when the header gives only an address)
    address: str


@dataclass(frozen=True)
class Message:
    title: str | None
    date: str | None
    author: Person | None
    people: tuple[Person, ...]  # everyone the headers name: From, To, Cc, Reply-To
    blocks: list[Block]
    label: str  # "message 1"


def is_message(body: bytes) -> bool:
    """Does the body open with a mail header block (see the module docstring)?"""
    head = body[:65536]
    first = head.split(b"\n", 1)[0].split(b"\r", 1)[0]  # its first line, the rest not split
    if not first.strip() or not HEADER_LINE.match(first):
        return False  # (a web page, a Markdown file: what the loop below finds on line 1)
    names: set[bytes] = set()
    for number, line in enumerate(head.splitlines()):
        if not line.strip():
            break
        if number >= MAX_HEADER_LINES:
            return False
        if CONTINUATION.match(line) and number:
            continue
        if not HEADER_LINE.match(line):
            return False
        names.add(line.split(b":", 1)[0].lower())
    return b"from" in names and b"subject" in names and bool(names & ONE_OF)


def is_mail(body: bytes) -> bool:
    return _doc_feed.is_mbox(body) or is_message(body)


def messages(body: bytes) -> list[Message]:
    """Every readable message of an mbox archive, or the one message of an `.eml` file."""
    if not _doc_feed.is_mbox(body):
        one = _message(body, "message 1")
        return [one] if one else []
    starts = [m.start() for m in _doc_feed.MBOX_SEPARATOR.finditer(body)]
    out = []
    for number, (begin, end) in enumerate(zip(starts, [*starts[1:], len(body)], strict=True), 1):
        found = _message(body[begin:end].split(b"\n", 1)[-1], f"message {number}")
        if found:
            out.append(found)
    return out


def document(body: bytes) -> Document:
    """The first message as a document (format `mail`)."""
    found = messages(body)
    if not found:
        return Document(None, [], "mail")
    first = found[0]
    meta = {"subject": first.title or "", "date": first.date or ""}
    if first.author:
        meta["from"] = first.author.name or first.author.address
    return Document(first.title, list(first.blocks), "mail", {k: v for k, v in meta.items() if v})


def _people(message: EmailMessage, header: str) -> list[Person]:
    try:
        value = message.get(header)
        addresses = getattr(value, "addresses", ()) if value is not None else ()
        return [Person(collapse(a.display_name or ""), a.addr_spec) for a in addresses]
    except (TypeError, ValueError, IndexError, AttributeError):
        return []


def _message(raw: bytes, label: str) -> Message | None:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    if not isinstance(message, EmailMessage):
        return None
    blocks = _body_blocks(message)
    if blocks is None:
        return None
    people: list[Person] = []
    for header in PEOPLE_HEADERS:
        people += [p for p in _people(message, header) if p not in people]
    authors = _people(message, "from")
    return Message(
        collapse(str(message.get("Subject") or "")) or None,
        _doc_feed._mail_date(message.get("Date")),
        authors[0] if authors else None,
        tuple(people),
        blocks,
        label,
    )


def _body_blocks(message: EmailMessage) -> list[Block] | None:
    part = message.get_body(preferencelist=("plain", "html")) if message.is_multipart() else message
    if part is None:
        return None
    try:
        content = part.get_content()
    except (LookupError, ValueError, KeyError):
        return None
    text = content if isinstance(content, str) else decode(bytes(content))
    if not text.strip():
        return None
    if part.get_content_subtype() == "html":
        tree = parse_html(text)
        return list(_doc_html.from_tree(tree, ("body",)).blocks)
    return list(_doc_markdown.document(QUOTED_LINE.sub("", text)).blocks)
