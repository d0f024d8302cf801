"""The project a role page is about, from its title or, failing that, its URL.

Rule (`project_of`): the page title (HTML <title>, PEP "Title:" header, front matter, else the
first heading of a page; never a data file's keys) is cut at " | ", " — ", " – ", " - ", ": ";
emoji, parenthesised acronyms ("(TOC)") and segments that are a PEP number or a host name are
dropped; in the first segment that keeps words once the generic words (`TITLE_NOISE`: Governance,
Maintainers, Team, Technical, Oversight, ...) and version numbers are taken out, and whose words
are all capitalised (a name, not "in alphabetical order"), the words left are the project. With
no such title: a GitHub repository's name (its owner's when the repository is called governance,
community, peps, team, ...), else the site's name from the host.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from extractors.document.model import Document, Heading, Record
from extractors.governance.blocks import card_title_name
from extractors.people.names import role_of, wordset

TITLE_SEPARATORS = re.compile(r"\s+[|—–-]\s+|:\s+|\s+·\s+")
TITLE_NOISE = wordset("""
    governance maintainers maintainer team teams members member documentation docs language
    project core steering council committee technical committers committer people the of our
    about who we are manual list current emeritus developers developer contributors board owners
    community and & guide page home tsc pmc organization organisation structure leadership
        oversight advisory working special interest
    """)
SKIPPED_TITLE_SEGMENT = re.compile(r"^(?:pep|rfc|kep|jep|gep)\s*\d+$|^[\w-]+(?:\.[\w-]+)+$", re.I)
VERSION_WORD = re.compile(r"^v?\d+(?:\.\d+)*\w*$")
URL_ROLES = (
    ("maintainers", "maintainer"),
    ("committers", "committer"),
    ("council", "council member"),
)
SYMBOLS = re.compile(r"[^\w\s().,:&'’+-]")  # emoji and marks in titles ("🍺 Homebrew")
TITLE_PARENS = re.compile(r"\([^()]*\)")  # "(TOC)", "(in alphabetical order)"
GENERIC_REPOS = wordset("""
    governance community team teams tac toc tsc steering-committee website site docs
    documentation peps rfcs enhancements keps meta org people members
    """)
REPO_SUFFIXES = ("-website", "-site", "-docs", "-documentation", "-governance", "-community")
SITE_PREFIXES = ("www.", "docs.", "peps.", "wiki.", "governance.")
HOST_NOISE = wordset("example co com org net ac gov edu")  # second-level labels, not names


def page_title(document: Document) -> str | None:
    if document.title:
        records = (b for b in document.blocks if isinstance(b, Record) and not b.path)
        if any(card_title_name(r, document) == document.title for r in records):
            return None  # one person's card page: its title is the person, not a project
        return document.title
    if document.format not in ("html", "markdown", "rst", "text"):
        return None  # a data file's headings are its keys, not a title
    headings = [b for b in document.blocks if isinstance(b, Heading)]
    first = next((h for h in headings if h.level == 1), headings[0] if headings else None)
    return first.text if first is not None else None


def project_of(title: str | None, url: str) -> str:
    """The project a governance page is about (rule in the module docstring)."""
    for segment in TITLE_SEPARATORS.split(title or ""):
        segment = segment.strip()
        if not segment or SKIPPED_TITLE_SEGMENT.match(segment):
            continue
        segment = TITLE_PARENS.sub(" ", SYMBOLS.sub(" ", segment))
        words = [
            w
            for w in segment.split()
            if w.strip("()[],.").lower() not in TITLE_NOISE and not VERSION_WORD.match(w)
        ]
        name = " ".join(words).strip("()[],.: ")
        if len(words) == 1 and role_of(name):
            continue  # a role word alone ("Reviewers", "Moderators") names no project
        if name and not any(w[:1].islower() for w in words):  # a name, not "in alphabetical order"
            return name
    return site_name(url)


def site_name(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segments = [s for s in parts.path.split("/") if s]
    if host in ("github.com", "www.github.com", "raw.githubusercontent.com") and len(segments) > 1:
        owner, repo = segments[0], segments[1]
        for suffix in REPO_SUFFIXES:
            repo = repo.removesuffix(suffix)
        return owner if repo.lower() in GENERIC_REPOS or repo.startswith(".") else repo
    if host.endswith((".readthedocs.io", ".github.io")):
        return host.split(".")[0]
    for prefix in SITE_PREFIXES:
        host = host.removeprefix(prefix)
    labels = [label for label in host.split(".")[:-1] if label not in HOST_NOISE]
    return (labels[-1] if labels else host).capitalize()


def url_role(url: str) -> str | None:
    path = urlsplit(url).path.lower()
    return next((role for word, role in URL_ROLES if word in path), None)
