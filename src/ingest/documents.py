"""Small facts about a stored document that the pipeline needs besides its claims."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from ingest.errors import ConfigError
from ingest.models import Snapshot
from ingest.sniff import sniff_format

_MD_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
_RST_TITLE = re.compile(r"^(?P<title>[^\s].*?)\s*\n(?P<bar>[=\-~#*^]{3,})\s*$", re.MULTILINE)
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
        tree = LexborHTMLParser(text)
        for selector in ("title", "h1"):
            node = tree.css_first(selector)
            if node is not None:
                value = " ".join(node.text(deep=True).split()).rstrip("¶#").strip()
                if value:
                    return value
        return None
    if fmt == "markdown":
        match = _MD_TITLE.search(text)
        return match.group(1) if match else None
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


def snapshot_from_file(url: str, path: Path, max_bytes: int) -> Snapshot:
    """A snapshot of a local file standing for URL's body; its format is sniffed from the bytes."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ConfigError(f"file '{path}' is {size} bytes, over the limit of {max_bytes}")
        body = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read file '{path}': {exc.strerror or exc}") from exc
    fmt = sniff_format(body, "", "")
    return Snapshot(url=url, headers={"content-type": CONTENT_TYPES[fmt]}, body=body)
