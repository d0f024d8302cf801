"""The PyTorch "Governance | Maintainers" page (persons_of_interest) -> `maintainer` claims.

Reads the three forms the page exists in: the built HTML (old pytorch_sphinx_theme with nested
`div.section`, and pydata-sphinx-theme with nested `section`), the MyST Markdown source (and the
`.md` rendering docs.pytorch.org serves next to the HTML) and the older reStructuredText source,
through the shared document layer. The page's rules are data (`PAGE`, read by
`extractors.governance.page`):

- a heading starting "Lead Core Maintainer" gives level `lead`, "Core Maintainers" `core`: each
  list item directly under it is one claim, `section` = that heading;
- the group headings "Module-level maintainers" / "Core Module maintainers" (level `module`) and
  "Library-level maintainers" / "Core Governed External Module maintainers" / "Sunsetted Modules"
  (level `library`) hold one sub-heading per module or library (one level deeper): each item under
  a sub-heading is one claim, `section` = the sub-heading, `group` = the group heading;
- every other list (Responsibilities, items under deeper headings, navigation, footers) yields
  nothing. A page with no maintainer list gives [] (the diff stage raises the layout alert).
- a document that is not titled "PyTorch Governance | Maintainers" (HTML <title> or first
  heading) only counts when at least one entry links a GitHub user: the Mechanics page has a
  "Core Maintainers" section of prose bullets, which must not become people.

Heading levels: HTML h1..h6; Markdown `#` count (setext `=`/`-` = 1/2); reST: section depth, as
docutils gives it. The evidence locator always
names it as `hN`: "h3 'Optimizers (torch.optim)' > li 2" (1-based, items under that heading).

Scope rule (levels `module` and `library` only): when the section heading ends with a
parenthesised single token that looks like a module path (no whitespace, and containing "torch",
"." or "/"), that token is the scope: "Optimizers (torch.optim)" -> "torch.optim", "Quantization
(torch/ao)" -> "torch/ao", "PT2 Export (torch.export)" -> "torch.export". Otherwise the scope is
the whole heading as printed, so a descriptive parenthesis stays part of the name: "CUDA" ->
"CUDA", "Build + CI" -> "Build + CI", "ExecuTorch (Edge, Mobile)" -> "ExecuTorch (Edge, Mobile)",
"Compilers (JIT / TorchScript / FX / TorchDynamo)" -> the whole heading (the parenthesis has
spaces: a list of components, not a module path), "C++ API (libtorch + StableABI)" -> the whole
heading.

Subject: `name` is the item text with the "(emeritus)" marker and the "(handle)" link group removed
(the parenthesised text of the GitHub link, else of the first link; an item that is only a link
keeps the link text as its name); `github` is the user name of the first github.com/<user> link
TARGET, lower-cased (absent without such a link: never taken from the link text). `status` is
`emeritus` when "(emeritus)" appears anywhere in the item. Items whose name comes out empty (e.g.
an HTML item that is only an image) are skipped but still counted in the locator index.

Evidence quote: Markdown/reST: the item's source after the bullet marker (its lines as printed);
HTML: the `li` text content with whitespace collapsed. `<script>`, `<style>`, `<template>` and
`<noscript>` contents are never read; names and quotes are plain text, never markup.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from pydantic import TypeAdapter

from extractors import document as _document
from extractors.document.model import Document
from extractors.governance import page as _role_page
from extractors.governance.page import Group, PageConfig
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Claim, Snapshot

NAME = "pytorch_governance"
VERSION = 1
TAG = f"{NAME}/{VERSION}"

# --- which URLs are this page --------------------------------------------------------------
URL_PATTERNS = (
    re.compile(
        r"^https?://(?:www\.|docs\.)?pytorch\.org/docs/[^/?#]+/community/"
        r"persons_of_interest\.(?:html|md)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^https?://(?:www\.)?github\.com/pytorch/pytorch/blob/[^?#]+/docs/source/community/"
        r"persons_of_interest\.(?:rst|md)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^https?://raw\.githubusercontent\.com/pytorch/pytorch/[^?#]+/docs/source/community/"
        r"persons_of_interest\.(?:rst|md)(?:[?#].*)?$",
        re.IGNORECASE,
    ),
)

# --- the page, as data: its title, and the headings that hold maintainer lists ---------------
PAGE = PageConfig(
    title="PyTorch Governance | Maintainers",
    object="PyTorch",
    predicate="maintainer",
    tag=TAG,
    groups=(
        Group("lead core maintainer", "lead", prefix=True),
        Group("core maintainers", "core"),
        Group("module-level maintainers", "module", subsections=True),
        Group("core module maintainers", "module", subsections=True),
        Group("library-level maintainers", "library", subsections=True),
        Group("core governed external module maintainers", "library", subsections=True),
        Group("sunsetted modules", "library", subsections=True),
    ),
    scope_hint=re.compile(r"torch|[./]", re.IGNORECASE),
)
READ_FORMATS = ("html", "markdown", "rst", "text")
VALIDATE_BATCH = 64  # claims validated in one call: cheaper than one call a claim, and the
# rows of one batch alive at once (1,000: 1,000 rows of 4 dicts each, one more young collection
# a page of 258 people)
_CLAIMS = TypeAdapter(list[Claim])


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """True for this page's URLs; with a snapshot, for content titled as this page."""
    if snapshot is None:
        return any(pattern.match(url) for pattern in URL_PATTERNS)
    try:
        return _role_page.has_title(PAGE, _parse(snapshot))
    except ExtractionError:
        return False


def extract(snapshot: Snapshot) -> list[Claim]:
    """Claims for every person listed under a maintainer heading, in document order."""
    return list(iter_claims(snapshot))


def iter_claims(snapshot: Snapshot) -> Iterator[Claim]:
    """`extract`, a batch of claims at a time (a caller may keep only the first N)."""
    document = _parse(snapshot)
    rows = _role_page.rows(PAGE, document, snapshot.url, snapshot.sha256)
    if not _role_page.has_title(PAGE, document):
        rows_list = list(rows)  # another page (the Mechanics page's "Core Maintainers" prose)
        if not any(row["subject"]["github"] for row in rows_list):
            return iter(())
        rows = iter(rows_list)
    return _validated(rows)


def _parse(snapshot: Snapshot) -> Document:
    fmt = _document.format_of(snapshot)
    if fmt not in READ_FORMATS:
        raise UnsupportedFormatError(
            snapshot.url, f"{fmt} is not a format {NAME} reads (HTML, Markdown, reStructuredText)"
        )
    return _document.parse(snapshot, fmt, lists_only=True)


def _validated(rows: Iterator[dict[str, Any]]) -> Iterator[Claim]:
    while batch := list(itertools.islice(rows, VALIDATE_BATCH)):
        yield from _CLAIMS.validate_python(batch)
