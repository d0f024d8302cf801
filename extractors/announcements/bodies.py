"""The body a role or an event belongs to, as a post names it: "... of the Example Project",
"the Leadership Council", "Foobar core maintainer"; a title's framing words dropped
("Announcing the New ...", "... Election Results"); the site's project before a body named
without its owner (peps.python.org: "Python Steering Council")."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from extractors.announcements import patterns as pat
from extractors.document.model import collapse

ARTICLE_START = r"^(?:as\s+)?(?:the|a|an|our|its|their|his|her)\s+"
BODY_IN_TITLE = re.compile(
    r"(?P<body>(?:[A-Z][\w.&'’-]*\s+){0,4}(?:Steering\s+Committee|Steering\s+Council|"
    r"Technical\s+Committee|Governance\s+Committee|Leadership\s+Committee|Leadership\s+Council|"
    r"Board\s+of\s+Directors|Board|Council|Committee|PMC|TSC|[Tt]eam))"
)
OF_BODY = re.compile(
    r"\b(?:of|for|on)\s+(?:the\s+)?(?P<body>[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*)"
)
# "Foobar core maintainer", "Apache Arrow committer": capitalised words that are not role or
# level words, then the role words
NAMED_BEFORE_ROLE = re.compile(
    rf"(?P<body>(?:(?!{pat.ROLE_WORDS}\b|(?i:core|lead|new|former|senior|emeritus)\b)"
    rf"[A-Z][\w.&'’-]*\s+){{1,3}}?)(?=(?i:core\s+|lead\s+|senior\s+)?{pat.ROLE_WORDS}\b)"
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# words of a title around the body or event it names, not part of its name: "Announcing the New
# Rust Project Directors", "2024 Term Steering Council Election Results", "Node.js Foundation Elects
# Board of Directors", "2022 LLVM Developers' Meeting Program"
TITLE_LEADING = _words(
    "announcing introducing meet welcome welcoming congratulations congrats the our new newly "
    "elected term"
)
TITLE_VERBS = _words("elects elected announces welcomes names appoints selects adds")
TITLE_TRAILING = _words(
    "program programme highlights results recap schedule agenda released announced update "
    "updates election elections announcement winners"
)
VERSION = re.compile(r"v?\d+(?:\.\d+)+")  # "40.0.0", "1.8": a release, not part of the name
# a body named without whose it is ("the Steering Council", "team"): the site's project is prefixed
BARE_BODY = re.compile(
    r"(?i:(?:the\s+)?(?:core\s+)?(?:steering|technical|governance|leadership)?\s*"
    r"(?:committee|council|board(?:\s+of\s+directors)?|pmc|tsc|team))"
)
# parts of a host name that are not a project's name (blog.rust-lang.org: rust)
GENERIC_HOST_WORDS = _words(
    "www blog blogs docs doc news www2 github gitlab io org com net dev lang project projects "
    "foundation community discuss discourse forum forums mail lists"
)
TITLE_ROLE_CUES = re.compile(
    r"\b(?:election|elected|elects|results|new\s+members?|announcing|welcome|joins)\b", re.I
)


def clean_role(role: str) -> str:
    role = re.sub(ARTICLE_START, "", collapse(role), flags=re.I)
    role = re.sub(
        r"^(?:as|(?:in\s+)?(?:the|his|her|their)\s+(?:role|position)\s+(?:of|as))\s+",
        "",
        role,
        flags=re.I,
    )  # "re-elected in the role of Documentation Officer"
    return role.strip(" ,.;:!")


def body_of(role: str) -> str | None:
    """The body a role names: "... of the Example Project", "the Leadership Council", or
    the name printed before the role words: "Foobar core maintainer"."""
    match = OF_BODY.search(role) or BODY_IN_TITLE.search(role)
    if match:
        return body_name(match.group("body"))
    named = NAMED_BEFORE_ROLE.match(clean_role(role))
    return named.group("body").strip() if named else None


def clean_body(text: str | None) -> str | None:
    """A title (or a body found in one) as the name of what it announces: the words around the
    name dropped (TITLE_LEADING, TITLE_VERBS, TITLE_TRAILING); the text as it was when nothing
    would be left."""
    if not text:
        return text
    words = collapse(text.split(": ")[0]).split(" ")  # "Kubeflow 1.8: Kubernetes MLOps ..."
    kept = [w for w in words if w.casefold().strip(",:") not in TITLE_VERBS]
    while kept and kept[0].casefold().strip(",:") in TITLE_LEADING:
        kept.pop(0)
    while kept and (
        kept[-1].casefold().strip(",:!.") in TITLE_TRAILING or VERSION.fullmatch(kept[-1])
    ):
        kept.pop()
    return " ".join(kept).strip(" ,:") or text


def site_project(url: str, text: str) -> str | None:
    """The project whose site a post is on, as the post prints its name: a word of the host name
    (or a GitHub owner) found capitalised in the text ("blog.rust-lang.org" and "Rust")."""
    parts = urlsplit(url)
    host = (parts.hostname or "").casefold()
    words = [w for label in host.split(".")[:-1] for w in label.split("-")]
    if host in ("github.com", "gitlab.com"):
        words = parts.path.strip("/").split("/")[:1]
    for word in words:
        if len(word) < 3 or word in GENERIC_HOST_WORDS:
            continue
        for found in re.finditer(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text, re.I):
            if found.group(0)[0].isupper():
                return found.group(0)
    return None


def host_project(url: str) -> str | None:
    """The project a site's host name names, capitalised, when the post never prints it
    ("blog.rust-lang.org": "Rust")."""
    host = (urlsplit(url).hostname or "").casefold()
    if host in ("github.com", "gitlab.com"):
        return None
    words = [w for label in host.split(".")[:-1] for w in label.split("-")]
    good = [w for w in words if len(w) >= 3 and w not in GENERIC_HOST_WORDS and w.isalpha()]
    return good[0].capitalize() if good else None


def owned(body: str | None, site: str | None) -> str | None:
    """`body`, with the site's project before it when it names no owner ("Steering Council" on
    peps.python.org: "Python Steering Council")."""
    if body and site and BARE_BODY.fullmatch(body):
        bare = re.sub(r"^(?i:the)\s+", "", body)
        return f"{site} {bare}"
    return body


def body_name(text: str) -> str:
    return re.sub(r"^(?:the|a|an|our|its|new)\s+", "", collapse(text), flags=re.I)
