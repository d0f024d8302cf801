"""Small facts about a stored document that the pipeline needs besides its claims."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

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
