"""The PyTorch "Governance | Maintainers" page (persons_of_interest) -> `maintainer` claims.

Reads the three forms the page exists in: the built HTML (old pytorch_sphinx_theme with nested
`div.section`, and pydata-sphinx-theme with nested `section`), the MyST Markdown source (and the
`.md` rendering docs.pytorch.org serves next to the HTML) and the older reStructuredText source.
Each form is first turned into the same stream of events, `_Heading(level, text)` and
`_Item(quote, text, links)`, which one state machine (`_claims`) turns into claims:

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

Heading levels: HTML h1..h6; Markdown `#` count (setext `=`/`-` = 1/2); reST: the order in which
each underline (and overline) style first appears, as docutils does. The evidence locator always
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

Evidence quote: Markdown/reST: the item's source after the bullet marker (continuation lines joined
with one space when that joined text is verbatim in the source, else the first line only); HTML:
the `li` text content with whitespace collapsed. `<script>`, `<style>`, `<template>` and
`<noscript>` contents are never read; names and quotes are plain text, never markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter
from selectolax.lexbor import LexborHTMLParser, LexborNode

from ingest.documents import parse_html
from ingest.errors import ExtractionError, RedirectStubError, UnsupportedFormatError
from ingest.models import Claim, Snapshot
from ingest.redirects import stub_target_in
from ingest.sniff import sniff_format

NAME = "pytorch_governance"
VERSION = 1
TAG = f"{NAME}/{VERSION}"
PREDICATE = "maintainer"
OBJECT = "PyTorch"
PAGE_TITLE = "PyTorch Governance | Maintainers"

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

# --- headings that hold maintainer lists (compared case-folded, whitespace collapsed) --------
LEAD_PREFIX = "lead core maintainer"
CORE_HEADINGS = frozenset({"core maintainers"})
MODULE_GROUPS = frozenset({"module-level maintainers", "core module maintainers"})
LIBRARY_GROUPS = frozenset(
    {"library-level maintainers", "core governed external module maintainers", "sunsetted modules"}
)
TITLE_SEPARATORS = ("—", "–", "-", "|", ":")

# --- item text ------------------------------------------------------------------------------
EMERITUS = re.compile(r"\(\s*emeritus\s*\)", re.IGNORECASE)
GITHUB_USER = re.compile(
    r"^\s*https?://(?:www\.)?github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/?(?:[?#]\S*)?\s*$",
    re.IGNORECASE,
)
TRAILING_PAREN = re.compile(r"\(([^()]*)\)\s*$")
MODULE_PATH_HINT = re.compile(r"torch|[./]", re.IGNORECASE)
NAME_EDGE_PUNCT = " \t,;:-–—"
# the Unicode general category Cc (a fixed set under the Unicode stability policy)
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f]")

# --- HTML -----------------------------------------------------------------------------------
CONTENT_ROOTS = (
    "article.bd-article",
    "article[itemprop='articleBody']",
    "div[itemprop='articleBody']",
    "div[role='main']",
    "main",
    "article",
    "body",
)
DROPPED_TAGS = ["script", "style", "template", "noscript"]
HEADERLINK = "a.headerlink"
HEADING_ANCHORS = "h1 a[href^='#'], h2 a[href^='#'], h3 a[href^='#'], h4 a[href^='#']"
HEADERLINK_MARKS = frozenset({"¶", "#", "§", "🔗"})
SKIPPED_SUBTREES = frozenset({"nav", "footer", "header", "aside", "form"})
HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
LINK = "a[href]"
TITLE = "head title"

# --- Markdown -------------------------------------------------------------------------------
MD_FRONT_MATTER = re.compile(r"^---[ \t]*$")
MD_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
MD_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
MD_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
MD_BULLET = re.compile(r"^( *)([-*+])(?:[ \t]+(.*?))?[ \t]*$")
MD_LINK = re.compile(r"\[([^\[\]]*)\]\(\s*<?([^()\s<>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")

# --- reStructuredText -----------------------------------------------------------------------
RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
RST_BULLET = re.compile(r"^( {0,3})([-*+•‣⁃])(?:([ \t]+)(.*?))?[ \t]*$")
RST_LINK = re.compile(r"`([^`<]*?)\s*<([^<>`\s]+)>`__?")

_CLAIMS: TypeAdapter[list[Claim]] = TypeAdapter(list[Claim])
VALIDATE_BATCH = 1000  # claims validated in one call (cheaper than one call a claim)

MAX_NESTED_INDENT = 3  # a bullet indented more than this is nested, not a maintainer entry


@dataclass(frozen=True, slots=True)
class _Heading:
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class _Item:
    quote: str  # verbatim evidence
    text: str  # display text: links replaced by their text
    links: tuple[tuple[str, str], ...] = ()  # (link text, target)
    collapsed: bool = False  # text and link texts already have only single inner spaces


_Event = _Heading | _Item


@dataclass
class _Top:
    level: int
    text: str
    kind: str  # lead, core, module, library


@dataclass
class _State:
    top: _Top | None = None
    section: _Heading | None = None
    blocked: bool = False
    index: int = 0


# ============================================================================================
# public interface


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """True for this page's URLs; with a snapshot, for content titled as this page."""
    if snapshot is None:
        return any(pattern.match(url) for pattern in URL_PATTERNS)
    try:
        return _has_page_title(_parse(snapshot))
    except ExtractionError:
        return False


def extract(snapshot: Snapshot) -> list[Claim]:
    """Claims for every person listed under a maintainer heading, in document order."""
    return list(iter_claims(snapshot))


def iter_claims(snapshot: Snapshot) -> Iterator[Claim]:
    """`extract`, a batch of claims at a time (a caller may keep only the first N)."""
    document = _parse(snapshot)
    if not _has_page_title(document) and not any(
        row["subject"]["github"] for row in _claim_rows(document.events, snapshot)
    ):
        return iter(())  # another page (e.g. Mechanics has a "Core Maintainers" prose section)
    return _validated(_claim_rows(document.events, snapshot))


def _validated(rows: Iterator[dict[str, Any]]) -> Iterator[Claim]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= VALIDATE_BATCH:
            yield from _CLAIMS.validate_python(batch)
            batch = []
    yield from _CLAIMS.validate_python(batch)


# ============================================================================================
# format dispatch


@dataclass(frozen=True)
class _Document:
    title: str | None  # the HTML <title>, if any
    events: list[_Event]


def _parse(snapshot: Snapshot) -> _Document:
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    text = _decode(snapshot.body)
    if fmt == "html":
        tree = parse_html(text)
        target = stub_target_in(tree, snapshot.url)
        if target:
            raise RedirectStubError(snapshot.url, target)
        title = tree.css_first(TITLE)
        return _Document(
            title.text(deep=True) if title is not None else None, list(_html_events(tree))
        )
    if fmt == "rst":
        return _Document(None, list(_rst_events(text)))
    if fmt in ("markdown", "text"):
        return _Document(None, list(_markdown_events(text)))
    raise UnsupportedFormatError(
        snapshot.url, f"{fmt} is not a format {NAME} reads (HTML, Markdown, reStructuredText)"
    )


def _has_page_title(document: _Document) -> bool:
    if document.title is not None and _is_page_title(document.title, allow_suffix=True):
        return True
    first = next((event for event in document.events if isinstance(event, _Heading)), None)
    return first is not None and _is_page_title(first.text, allow_suffix=False)


def _is_page_title(text: str, *, allow_suffix: bool) -> bool:
    norm = _collapse(text).casefold()
    wanted = PAGE_TITLE.casefold()
    if norm == wanted:
        return True
    rest = norm[len(wanted) :].lstrip()
    return allow_suffix and norm.startswith(wanted) and rest.startswith(TITLE_SEPARATORS)


# ============================================================================================
# events -> claims


def _kind(heading: str) -> str | None:
    norm = _collapse(heading).casefold()
    if norm.startswith(LEAD_PREFIX):
        return "lead"
    if norm in CORE_HEADINGS:
        return "core"
    if norm in MODULE_GROUPS:
        return "module"
    if norm in LIBRARY_GROUPS:
        return "library"
    return None


def _claim_rows(events: list[_Event], snapshot: Snapshot) -> Iterator[dict[str, Any]]:
    """Each claim as the dict a Claim is validated from (in batches, by `_validated`)."""
    state = _State()
    for event in events:
        if isinstance(event, _Heading):
            _on_heading(state, event)
        elif (row := _on_item(state, event, snapshot)) is not None:
            yield row


def _on_heading(state: _State, heading: _Heading) -> None:
    state.index = 0
    top = state.top
    if top is not None and heading.level > top.level:
        if top.kind in ("module", "library") and heading.level == top.level + 1:
            state.section = heading
            state.blocked = False
        else:  # a deeper heading: its lists are not maintainer lists of this top heading
            state.blocked = True
        return
    kind = _kind(heading.text)
    state.top = _Top(heading.level, heading.text, kind) if kind else None
    state.section = None
    state.blocked = False


def _on_item(state: _State, item: _Item, snapshot: Snapshot) -> dict[str, Any] | None:
    top = state.top
    if top is None or state.blocked:
        return None
    if top.kind in ("lead", "core"):
        heading = _Heading(top.level, top.text)
    elif state.section is not None:
        heading = state.section
    else:
        return None
    state.index += 1
    person = _person(item)
    if person is None:
        return None
    name, github, emeritus = person
    qualifiers: dict[str, str] = {"level": top.kind, "section": heading.text}
    if top.kind in ("module", "library"):
        qualifiers["scope"] = _scope(heading.text)
    qualifiers["status"] = "emeritus" if emeritus else "current"
    if top.kind in ("module", "library"):
        qualifiers["group"] = top.text
    # validated (into a Claim with its Subject and Evidence) with others, by _validated
    return {
        "subject": {"name": name, "github": github},
        "predicate": PREDICATE,
        "object": OBJECT,
        "qualifiers": qualifiers,
        "evidence": {
            "url": snapshot.url,
            "sha256": snapshot.sha256,
            "locator": f"h{heading.level} '{heading.text}' > li {state.index}",
            "quote": item.quote,
        },
        "extractor": TAG,
    }


def _person(item: _Item) -> tuple[str, str | None, bool] | None:
    """(name, github user, emeritus) of a list item, or None when it names nobody."""
    without_marker, markers = EMERITUS.subn(" ", item.text)
    emeritus = markers > 0
    text = without_marker if item.collapsed and not emeritus else _collapse(without_marker)
    github: str | None = None
    handle_label: str | None = item.links[0][0] if item.links else None
    for label, target in item.links:
        match = GITHUB_USER.match(target)
        if match:
            github, handle_label = match.group(1).lower(), label
            break
    if handle_label is not None:  # drop the last "(handle)"; a bare link's text stays the name
        label = handle_label if item.collapsed else _collapse(handle_label)
        span = _last_handle_group(text, label)
        if span is not None:
            text = text[: span[0]] + " " + text[span[1] :]
    name = _collapse(_without_controls(text)).strip(NAME_EDGE_PUNCT)
    if not name:
        return None
    return name, github, emeritus


def _last_handle_group(text: str, label: str) -> tuple[int, int] | None:
    """(start, end) of the last match of `\\(\\s*<label>\\s*\\)` in `text`, or None.

    Both are collapsed (their only whitespace is single inner spaces). For a non-empty label
    without parentheses, matches cannot overlap and each is "(", an optional space, the label, an
    optional space, ")", so the last one is the rightmost occurrence of the label so enclosed;
    other labels go through the regular expression.
    """
    if label not in text:  # no match is possible without the label itself
        return None
    if not label or "(" in label or ")" in label:
        spans = list(_handle_group(label).finditer(text))
        return spans[-1].span() if spans else None
    size = len(label)
    end = len(text)
    while True:
        at = text.rfind(label, 0, end)
        if at < 0:
            return None
        start = at - 1 if at >= 1 and text[at - 1] == "(" else -1
        if start < 0 and at >= 2 and text[at - 1] == " " and text[at - 2] == "(":
            start = at - 2
        if start >= 0:
            after = at + size
            if text[after : after + 1] == ")":
                return start, after + 1
            if text[after : after + 2] == " )":
                return start, after + 2
        end = at + size - 1


@functools.lru_cache(maxsize=4096)
def _handle_group(label: str) -> re.Pattern[str]:
    return re.compile(r"\(\s*" + re.escape(label) + r"\s*\)")


@functools.lru_cache(maxsize=1024)
def _scope(section: str) -> str:
    match = TRAILING_PAREN.search(section)
    if match:
        inner = match.group(1).strip()
        if inner and not any(ch.isspace() for ch in inner) and MODULE_PATH_HINT.search(inner):
            return inner
    return section


# ============================================================================================
# HTML


def _html_events(tree: LexborHTMLParser) -> Iterator[_Event]:
    root = prepared_root(tree)
    if root is None:
        return
    stack = list(reversed(list(root.iter(include_text=False))))
    while stack:  # document order, without recursion (hostile nesting depth)
        node = stack.pop()
        tag = (node.tag or "").lower()
        if tag in SKIPPED_SUBTREES:
            continue
        if tag in HEADING_TAGS:
            yield _Heading(HEADING_TAGS[tag], _collapse(node.text(deep=True, separator="")))
            continue
        if tag == "li":  # nested lists inside an item are part of that item, not new entries
            yield _html_item(node)
            continue
        stack.extend(reversed(list(node.iter(include_text=False))))


def prepared_root(tree: LexborHTMLParser) -> LexborNode | None:
    """The page's content element with scripts, styles and heading permalinks removed."""
    root = content_root(tree)
    if root is None:
        return None
    root.strip_tags(DROPPED_TAGS)
    for anchor in root.css(HEADERLINK):
        anchor.decompose()
    for anchor in root.css(HEADING_ANCHORS):
        if anchor.text(deep=True).strip() in HEADERLINK_MARKS:
            anchor.decompose()
    return root


def content_root(
    tree: LexborHTMLParser, selectors: tuple[str, ...] = CONTENT_ROOTS
) -> LexborNode | None:
    """The first element a selector finds (main content before the whole page)."""
    for selector in selectors:
        node = tree.css_first(selector)
        if node is not None:
            return node
    return tree.root


def _html_item(node: LexborNode) -> _Item:
    # the `a[href]` descendants in document order (a walk is cheaper than a CSS query per item)
    links = []
    for a in node.traverse(include_text=False):
        if a.tag == "a":
            attributes = a.attributes  # one dict per link (attrs would be read twice)
            if "href" in attributes:
                links.append((_collapse(a.text(deep=True, separator="")), attributes["href"] or ""))
    quote = _collapse(node.text(deep=True, separator=""))
    return _Item(quote=quote, text=quote, links=tuple(links), collapsed=True)


# ============================================================================================
# Markdown


def _markdown_events(text: str) -> Iterator[_Event]:
    lines = text.splitlines()
    fence: str | None = None
    paragraph: str | None = None  # the last paragraph line, for setext headings
    item: list[str] | None = None
    list_indent: int | None = None  # marker column of the current top-level list
    for line in lines[_front_matter_end(lines) :]:
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fence_match = MD_FENCE.match(line)
        atx = MD_ATX.match(line)
        bullet = MD_BULLET.match(line)
        setext = MD_SETEXT.match(line) if paragraph is not None else None
        if item is not None and (fence_match or atx or setext or bullet or not line.strip()):
            yield _md_item(item)
            item = None
        if fence_match:
            fence, paragraph, list_indent = fence_match.group(1), None, None
        elif atx or setext:
            title = atx.group(2) or "" if atx else paragraph or ""
            level = len(atx.group(1)) if atx else (1 if line.strip()[0] == "=" else 2)
            yield _Heading(level, _md_inline(title)[0])
            paragraph, list_indent = None, None
        elif not line.strip():
            paragraph = None
        elif bullet:
            indent = len(bullet.group(1))
            paragraph = None
            if indent > MAX_NESTED_INDENT or (list_indent is not None and indent > list_indent):
                continue  # a nested list: part of the previous entry, not an entry of its own
            list_indent = indent if list_indent is None else min(list_indent, indent)
            item = [line[bullet.start(3) :] if bullet.group(3) else ""]
        elif item is not None:
            item.append(line)  # a continuation line (indented or lazy)
        elif _indent(line) == 0:
            paragraph, list_indent = line, None
    if item is not None:
        yield _md_item(item)


def _front_matter_end(lines: list[str]) -> int:
    if lines and MD_FRONT_MATTER.match(lines[0].lstrip("\ufeff")):
        for index in range(1, len(lines)):
            if MD_FRONT_MATTER_END.match(lines[index]):
                return index + 1
    return 0


def _md_item(lines: list[str]) -> _Item:
    display, links = _md_inline(" ".join(part.strip() for part in lines))
    return _Item(quote=_verbatim_quote(lines), text=display, links=links)


def _md_inline(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    links = tuple((m.group(1), m.group(2)) for m in MD_LINK.finditer(text))
    display = MD_LINK.sub(lambda m: m.group(1), text)
    return _collapse(MD_ESCAPE.sub(r"\1", display)), links


# ============================================================================================
# reStructuredText


def _rst_events(text: str) -> Iterator[_Event]:
    lines = text.lstrip("\ufeff").splitlines()
    styles: list[tuple[str, bool]] = []
    item: list[str] | None = None
    item_column = 0
    list_indent: int | None = None  # marker column of the current top-level list
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = _rst_heading(lines, index)
        bullet = RST_BULLET.match(line)
        if bullet and bullet.group(3) is None and line.strip() != bullet.group(2):
            bullet = None
        continues = item is not None and line.strip() and _indent(line) >= item_column
        if item is not None and not continues:
            yield _rst_item(item)
            item = None
        index += 1
        if heading is not None:
            title, style, consumed = heading
            if style not in styles:
                styles.append(style)
            yield _Heading(styles.index(style) + 1, _rst_inline(title)[0])
            index += consumed - 1
            list_indent = None
        elif continues and item is not None:
            item.append(line)
        elif bullet:
            indent = len(bullet.group(1))
            if list_indent is not None and indent > list_indent:
                continue  # a nested list: part of the previous entry, not an entry of its own
            list_indent = indent if list_indent is None else min(list_indent, indent)
            item = [bullet.group(4) or ""]
            item_column = bullet.start(4) if bullet.group(4) else bullet.end(2) + 1
        elif line.strip() and _indent(line) == 0:
            list_indent = None
    if item is not None:
        yield _rst_item(item)


def _rst_heading(lines: list[str], index: int) -> tuple[str, tuple[str, bool], int] | None:
    """(title, (adornment char, has overline), lines consumed) when a section title starts here."""
    line = lines[index]
    over = RST_ADORNMENT.match(line)
    if over and index + 2 < len(lines):
        title, under = lines[index + 1], RST_ADORNMENT.match(lines[index + 2])
        if title.strip() and under and under.group(1) == over.group(1):
            return title.strip(), (over.group(1), True), 3
    if not line.strip() or line[:1].isspace() or over or index + 1 >= len(lines):
        return None
    under = RST_ADORNMENT.match(lines[index + 1])
    if under is None:
        return None
    return line.strip(), (under.group(1), False), 2


def _rst_item(lines: list[str]) -> _Item:
    display, links = _rst_inline(" ".join(part.strip() for part in lines))
    return _Item(quote=_verbatim_quote(lines), text=display, links=links)


def _rst_inline(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    links = tuple((m.group(1) or m.group(2), m.group(2)) for m in RST_LINK.finditer(text))
    display = RST_LINK.sub(lambda m: m.group(1) or m.group(2), text)
    return _collapse(display), links


# ============================================================================================
# text helpers


def _decode(body: bytes) -> str:
    return body.decode("utf-8", errors="replace").lstrip("\ufeff")


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _without_controls(text: str) -> str:
    return CONTROL_CHARS.sub(" ", text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _verbatim_quote(lines: list[str]) -> str:
    """The item's text after the marker; continuation lines joined by one space if verbatim."""
    first = lines[0].rstrip()
    if len(lines) == 1:
        return first
    joined = " ".join([first, *(part.strip() for part in lines[1:])]).strip()
    return joined if joined in "\n".join(lines) else first
