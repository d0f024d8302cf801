"""Headings under which nobody listed holds a role: sponsors, thanks, credits, licences, and a
release's contributors (pure; used by the role-list reader and the card reader)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

QUIET_HEADING = re.compile(
    r"\b(?:sponsors?|sponsorship|donors?|donations?|backers?|supporters?|thanks|thank you"
    r"|acknowledg\w*|funding|credits|license|licence|copyright|(?:special\s+)?mentions"
    r"|issues\s*(?:&|and)\s*discussions)\b",
    re.IGNORECASE,
)
# A release's credits ("## 0.2.2 (2024-03-01)" / "### Contributors"; "New Contributors" of
# generated release notes): who contributed to one release holds no role. A page titled or
# filed as release notes or a changelog, or a version heading above, makes it a release's.
CREDITS_HEADING = re.compile(
    r"^\W*(?:(?:new|first[- ]time|all|our)\s+)?contributors?\b(?!\s+(?:guide|covenant))", re.I
)
RELEASE_CONTEXT = re.compile(
    r"\brelease[\s_-]*notes?\b|\bchange[\s_-]?log\b|\bwhat'?s[\s_-]+new\b"
    r"|^\W*(?:v|version\s+|release\s+)?\d+\.\d+(?:\.\d+)*\b",
    re.IGNORECASE,
)


def heading(text: str, url: str, above: Iterable[str | None]) -> bool:
    """True when a heading's list names nobody holding a role: a quiet word ("Sponsors",
    "Thanks"), or a "Contributors" heading of release notes: the page's file name or one of
    `above` (its title, the headings above) names a release or a changelog."""
    if QUIET_HEADING.search(text):
        return True
    if not CREDITS_HEADING.search(text):
        return False
    context = [urlsplit(url).path.rsplit("/", 1)[-1], *above]
    return any(RELEASE_CONTEXT.search(t) for t in context if t)
