"""Where an entry's links go, and an organisation's entry naming its representative.

- `only_document_link`: an entry that is one link to a page of the site (a list of documents);
- `represented`: "Example Labs. Representative Jane Roe." / "Example Labs (represented by Jane
  Roe)": the person, with the organisation as her affiliation and "representative" as her title
  (a partners list names organisations; its people are their representatives).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from extractors.document.model import Links, github_login
from extractors.people import names as _people
from extractors.people.orgs import looks_like_org

PERSON_LINK = re.compile(
    r"^(?:mailto:|https?://(?:www\.)?(?:github\.com/[\w-]+/?$|gitlab\.com/|linkedin\.com/in/|"
    r"twitter\.com/|x\.com/|mastodon|bsky\.app/profile/|keybase\.io/|orcid\.org/))",
    re.I,
)
DOCUMENT_LINK = re.compile(
    r"/(?:blob|tree|wiki|docs?)/|\.(?:md|html?|rst)$|^https?://(?:www\.)?github\.com/[\w.-]+/[\w.-]+",
    re.I,
)
# a site's page about one person ("/blog/authors/jroe", "/people/jroe/"): a person's link
AUTHOR_PAGE = re.compile(r"/(?:authors?|people|users?|members?|profiles?)/[\w.-]+/?$", re.I)
REPRESENTED = re.compile(
    r"^(?P<org>[^:()]{2,80}?)[.,;:]?\s+\(?(?:represented\s+by|representatives?\s*:?)\s+"
    r"(?P<who>[^()]{2,80}?)\)?\.?$",
    re.IGNORECASE,
)


def only_document_link(text: str, links: Links) -> bool:
    """An item that is one link to a page of the site ("[TAG Security](./tags/security/)"): a
    list of documents, not of people (a person's link goes to a profile or a homepage)."""
    for label, target in links:
        if label and label.strip(" *_") == text.strip(" *_"):
            target = target.strip()
            if PERSON_LINK.match(target) or github_login(target) or AUTHOR_PAGE.search(target):
                return False
            relative = not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I)
            return relative or DOCUMENT_LINK.search(target) is not None
    return False


def represented(text: str, links: Links, one: Callable[[str, Links], Any]) -> Any:
    """The representative an organisation's entry names (`one` reads the person's part), with
    the organisation as affiliation; None when the entry is not such."""
    match = REPRESENTED.match(text)
    if match is None:
        return None
    org = match.group("org").strip(" .*_")
    if not looks_like_org(org) or _people.looks_like_name(org):
        return None
    entry = one(match.group("who"), links)
    if entry is None:
        return None
    if not entry.affiliation:  # the entry says it is whom she represents: as a field would
        entry.affiliation, entry.org_field = org, True
    entry.titles.append("representative")
    return entry
