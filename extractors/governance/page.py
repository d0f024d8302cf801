"""One project's role page, read by configuration: which headings hold which lists, as data.

A `PageConfig` names the page (its title, its URLs, the object and predicate of its claims) and
its heading groups: a `Group` matches a heading (`exact` text or a `prefix`, compared case-folded
with whitespace collapsed) and gives the `level` of the people listed. With `subsections`, the
group heading holds one sub-heading per module or library (one level deeper), and each item under
a sub-heading is one claim with `section` = the sub-heading, `scope` (see `scope_of`) and `group`
= the group heading; otherwise each item directly under the group heading is one claim with
`section` = that heading. Items under deeper headings, and lists under any other heading, give
nothing. The page is read through the shared document layer (`extractors.document.model`), so its
HTML, Markdown and reST forms are one stream of headings and items.

Item rule: the name is the item's text without the "(emeritus)" marker and without the last
"(label)" group of its GitHub link (else of its first link; an item that is only a link keeps the
link text as its name); `github` is the user of the first github.com/<user> link TARGET,
lower-cased; `status` is `emeritus` when "(emeritus)" appears in the item.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from extractors.document.model import Document, Heading, Item, collapse, without_controls

EMERITUS = re.compile(r"\(\s*emeritus\s*\)", re.IGNORECASE)
EMERITUS_FIRST = "(emeritus) "  # the marker as the PyTorch page prints it, before the name
GITHUB_USER = re.compile(
    r"^\s*https?://(?:www\.)?github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/?(?:[?#]\S*)?\s*$",
    re.IGNORECASE,
)
GITHUB_PREFIX = "https://github.com/"
TRAILING_PAREN = re.compile(r"\(([^()]*)\)\s*$")
NAME_EDGE_PUNCT = " \t,;:-–—"
TITLE_SEPARATORS = ("—", "–", "-", "|", ":")


@dataclass(frozen=True)
class Group:
    match: str  # the heading, case-folded
    level: str  # the `level` qualifier of the people listed
    subsections: bool = False  # one sub-heading per module/library
    prefix: bool = False  # the heading starts with `match` ("Lead Core Maintainer (BDFL)")


@dataclass(frozen=True)
class PageConfig:
    title: str  # the page's title, as the HTML <title> or its first heading prints it
    object: str
    predicate: str
    tag: str  # the `extractor` field of its claims
    groups: tuple[Group, ...]
    scope_hint: re.Pattern[str]  # a trailing "(token)" is the scope when it matches this


def has_title(config: PageConfig, document: Document) -> bool:
    if document.title is not None and _is_title(config, document.title, allow_suffix=True):
        return True
    first = next((b for b in document.blocks if isinstance(b, Heading)), None)
    return first is not None and _is_title(config, first.text, allow_suffix=False)


def _is_title(config: PageConfig, text: str, *, allow_suffix: bool) -> bool:
    norm = collapse(text).casefold()
    wanted = config.title.casefold()
    if norm == wanted:
        return True
    rest = norm[len(wanted) :].lstrip()
    return allow_suffix and norm.startswith(wanted) and rest.startswith(TITLE_SEPARATORS)


def group_of(config: PageConfig, heading: str) -> Group | None:
    norm = collapse(heading).casefold()
    for group in config.groups:
        if norm == group.match or (group.prefix and norm.startswith(group.match)):
            return group
    return None


def rows(config: PageConfig, document: Document, url: str, sha256: str) -> Iterator[dict[str, Any]]:
    """Each claim as the dict a Claim is validated from, in document order."""
    top: tuple[Heading, Group] | None = None
    section: Heading | None = None
    blocked = False
    index = 0
    predicate, obj, tag = config.predicate, config.object, config.tag
    # what every item under the current heading shares, worked out once a heading: the
    # qualifiers of its current and of its emeritus members (one dict each, shared by the rows:
    # validation copies a dict field, so no claim holds these)
    current: dict[str, str] = {}
    emeritus: dict[str, str] = {}
    level = group_text = locator = ""
    subsections = False
    for block in document.blocks:
        if isinstance(block, Heading):
            index = 0
            if top is not None and block.level > top[0].level:
                if subsections and block.level == top[0].level + 1:
                    section, blocked = block, False
                    text, scope = block.text, scope_of(config, block.text)
                    current, emeritus = [
                        {
                            "level": level,
                            "section": text,
                            "scope": scope,
                            "status": status,
                            "group": group_text,
                        }
                        for status in ("current", "emeritus")
                    ]
                    locator = f"h{block.level} '{block.text}' > li "
                else:  # a deeper heading: its lists are not this group's
                    blocked = True
                continue
            group = group_of(config, block.text)
            top = (block, group) if group else None
            section, blocked = None, False
            if group:
                level, group_text, subsections = group.level, block.text, group.subsections
                current, emeritus = [
                    {"level": level, "section": block.text, "status": status}
                    for status in ("current", "emeritus")
                ]
                locator = f"h{block.level} '{block.text}' > li "
            continue
        if (
            not isinstance(block, Item)
            or block.depth > 0
            or top is None
            or blocked
            or (subsections and section is None)
        ):
            continue
        index += 1
        person = person_of(block)
        if person is None:
            continue
        yield {
            "subject": {"name": person[0], "github": person[1]},
            "predicate": predicate,
            "object": obj,
            "qualifiers": emeritus if person[2] else current,
            "evidence": {
                "url": url,
                "sha256": sha256,
                "locator": f"{locator}{index}",
                "quote": block.quote,
            },
            "extractor": tag,
        }


def person_of(item: Item) -> tuple[str, str | None, bool] | None:
    """(name, github user, emeritus) of a list item, or None when it names nobody."""
    text, markers = item.text, 0
    # the marker is parenthesised; "emer" is in the lower-cased text wherever EMERITUS matches
    # (no character but "E" matches "e", "m" or "r" case-insensitively)
    if "(" in text and "emer" in (lowered := text.lower()):
        if text.startswith(EMERITUS_FIRST) and lowered.count("emer") == 1:
            # "(emeritus) Jane Roe (jroe)", the marker's one place: what the pattern's " " and
            # collapsing give, without either (half the people of the PyTorch page)
            text, markers = collapse(text[len(EMERITUS_FIRST) :]), 1
        else:
            text, markers = EMERITUS.subn(" ", text)  # item texts come collapsed from the layer
            if markers:
                text = collapse(text)
    github: str | None = None
    handle_label: str | None = item.links[0][0] if item.links else None
    for label, target in item.links:
        user = github_user(target)
        if user is not None:
            github, handle_label = user, label
            break
    if handle_label is not None:  # drop the last "(handle)"; a bare link's text stays the name
        if (
            text[-1:] == ")"
            and handle_label
            and text.endswith(f"({handle_label})")
            and "(" not in handle_label
            and ")" not in handle_label
            and "  " not in text
            and text.isprintable()
        ):  # the usual "Name (handle)": what the general case below gives, without a search
            name = text[: len(text) - len(handle_label) - 2].strip(NAME_EDGE_PUNCT)
            return (name, github, markers > 0) if name else None
        span = _last_handle_group(text, handle_label)
        if span is not None:
            left, right = text[: span[0]], text[span[1] :]
            if "  " not in text and text.isprintable():
                # single-spaced printable text: collapsing the joined parts only merges the
                # spaces where they meet (the edges go with NAME_EDGE_PUNCT)
                name = f"{left.rstrip(' ')} {right.lstrip(' ')}".strip(NAME_EDGE_PUNCT)
                return (name, github, markers > 0) if name else None
            text = left + " " + right
    if span_or_controls(text):
        text = collapse(without_controls(text))
    name = text.strip(NAME_EDGE_PUNCT)
    return (name, github, markers > 0) if name else None


def github_user(target: str) -> str | None:
    """The user GITHUB_USER finds in a link target, lower-cased: the usual
    "https://github.com/<user>" read without it."""
    if target.startswith(GITHUB_PREFIX):
        user = target[len(GITHUB_PREFIX) :]
        user = user[:-1] if user.endswith("/") else user
        plain = user[:1].isalnum() and user.replace("-", "").isalnum() and user.isascii()
        if plain and len(user) <= 39:
            return user.lower()
    match = GITHUB_USER.match(target)
    return match.group(1).lower() if match else None


def span_or_controls(text: str) -> bool:
    """The text needs collapsing again: a removed group left a double space, or it holds
    control characters."""
    return "  " in text or not text.isprintable()


def _last_handle_group(text: str, label: str) -> tuple[int, int] | None:
    """(start, end) of the last "(label)" or "( label )" in `text`, or None (a search from the
    right: a regular expression per item cost a compile per distinct label)."""
    if label not in text:
        return None
    if not label or "(" in label or ")" in label:
        spans = list(_handle_group(label).finditer(text))
        return spans[-1].span() if spans else None
    size, end = len(label), len(text)
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


def scope_of(config: PageConfig, section: str) -> str:
    """A trailing "(token)" that looks like a module path is the scope; else the heading."""
    return _scope(config.scope_hint, section)


@functools.lru_cache(maxsize=1024)
def _scope(scope_hint: re.Pattern[str], section: str) -> str:
    match = TRAILING_PAREN.search(section)
    if match:
        inner = match.group(1).strip()
        if inner and not any(ch.isspace() for ch in inner) and scope_hint.search(inner):
            return inner
    return section
