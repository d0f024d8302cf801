"""Emails of an author block: read from the page text, then assigned to the authors.

Brace groups "{a,b}@x.org" and shared-domain lists "a,b@x.org" are expanded in order
(`expand_emails`), then `assign_emails` gives each author at most one, by the first rule that
decides:

1. next to the author's name in the page text ("Authors' addresses: Name, email"), after the
   footnote emails of a marked author (its marker's footnote holds one address);
2. the column or the group of names the emails are printed with;
3. the authors of the affiliation line the emails follow;
4. printed order, when every pairing agrees with the domains;
5. by domain: an email goes to the first unassigned author whose affiliation matches its
   domain, an author whose name is in the address winning.

Works on any author value with `name`, `emails` and `affiliations` (each with `text`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from extractors.papers.text import Cell, Segment, join_segments
from extractors.papers.words import INSTITUTION_WORDS, acronym, words_of
from ingest.names import fold

_ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
# An address found in a text starts where a run of its local part's characters starts and takes
# all of it: tried from inside a long run, each start scanned the rest of it (quadratic).
EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+")
# A line break inside an email's domain ("head@seas." / "upenn.edu").
EMAIL_BREAK_RE = re.compile(r"(@[\w-]+(?:\.[\w-]+)*\.)\s*\n\s*([\w-]+(?:\.[\w-]+)*)")
# Text before an '@' that is still part of the address list ("{ann,bob", "ruochen" of "ruochen_x").
EMAIL_HEAD_RE = re.compile(r"[a-z0-9\s.,+{}_-]*")
# "ruochen zhang@x" / "{a,jacob carlson}@x": a local part whose underscore came out as a space.
UNDERSCORE_GAP_RE = re.compile(r"(^|[\s,{])([a-z0-9]+)\s+([a-z0-9][\w.]*\}?@)")
# Between a name and its own email: "Tal August, taugust@...", "Ann Lee (ann@...)", "Ann Lee: a@".
NAME_EMAIL_GAP = r"\s*[,(:<]?\s*"
GENERIC_DOMAIN_LABELS = {
    "edu", "org", "com", "net", "gov", "ac", "co", "uk", "cn", "de", "fr", "jp", "ca", "in",
    "mail", "cs", "eecs", "fas", "seas", "ece", "ee", "math", "stat", "stats", "student",
    "students", "alumni", "gmail", "email", "mails", "www", "us", "au", "ch", "nl", "it",
}  # fmt: skip


class _Printed(Protocol):
    @property
    def text(self) -> str: ...


class Person(Protocol):
    name: str
    emails: list[str]

    @property
    def affiliations(self) -> Sequence[_Printed]: ...


P = TypeVar("P", bound=Person)


@dataclass
class EmailGroup(Generic[P]):
    emails: list[str]
    band: list[P]
    column: list[P]
    after_key: str | None


def expand_emails(text: str) -> list[list[str]]:
    """Email groups in printed order: '{a,b}@x.org, c@y.com' -> [['a@x.org','b@x.org'],['c@y.com']].

    A shared-domain list 'a,b,c@x.edu' is one group of three. Lower-cased.
    """
    text = text.replace("\u2217", "*")
    groups: list[list[str]] = []
    pending: list[str] = []
    for token in re.split(r"[\s,;{}()\[\]|]+|(?<=\})", text.lower()):
        if token.endswith(":"):  # a label, "Email:"
            pending = []
            continue
        token = token.strip("*.")
        if not token:
            continue
        if "@" in token:
            local, _, domain = token.rpartition("@")
            domain = domain.strip(".")
            if not re.fullmatch(r"[\w-]+(\.[\w-]+)+", domain):
                pending = []
                continue
            locals_ = [*pending, local] if local else pending
            group = [f"{name}@{domain}" for name in locals_ if re.fullmatch(r"[\w.+-]+", name)]
            if group:
                groups.append(group)
            pending = []
        elif re.fullmatch(r"[\w.+-]+", token):
            pending.append(token)
        else:
            pending = []
    return groups


def email_text(cell_text: str) -> str:
    # An underscore drawn as a rule comes out as a space: "ruochen zhang@brown.edu".
    return UNDERSCORE_GAP_RE.sub(r"\1\2_\3", cell_text)


def domain_matches(domain: str, affiliations: list[str]) -> bool:
    labels = [
        lab
        for lab in domain.lower().split(".")
        if lab not in GENERIC_DOMAIN_LABELS and len(lab) > 1
    ]
    for aff in affiliations:
        squashed = fold(aff).replace(" ", "")
        aff_words = [w for w in words_of(aff) if len(w) >= 4 and w not in INSTITUTION_WORDS]
        acronyms = {acronym(part) for part in aff.split(",")}
        for label in labels:
            if label in acronyms and len(label) >= 2:
                return True
            if len(label) >= 4 and label in squashed:
                return True
            if any(w in label for w in aff_words if len(w) >= 4):
                return True
            first = words_of(aff.split(",")[0])
            if first and len(first[0]) >= 4 and label.startswith(first[0]):
                return True
    return False


def name_in_email(email: str, name: str) -> bool:
    local = re.sub(r"[^a-z]", "", email.split("@")[0])
    parts = [p for p in words_of(name) if len(p) >= 3]
    return any(p in local for p in parts)


def assign_emails(
    authors: list[P],
    groups: list[EmailGroup[P]],
    footnotes: list[tuple[str, P]],
    owners_of: dict[str, list[P]],
    affiliation_texts: list[str],
    page_text: str,
) -> None:
    """Give each author at most one email (appended to `author.emails`), by the rules above.

    `groups` are the email groups as printed in the block, `footnotes` (email, author) pairs
    from marker footnotes, `owners_of` the authors of each affiliation marker key.
    """
    pool: list[str] = []
    for group in groups:
        emails = [e for e in group.emails if e not in pool]
        pool.extend(emails)
    if not pool and "@" not in page_text and not footnotes:
        return
    assigned: dict[str, P] = {}

    def give(email: str, author: P) -> None:
        if email not in assigned and not author.emails:
            author.emails.append(email)
            assigned[email] = author

    for email, author in footnotes:
        give(email, author)
    # (1) right after the name in the page text: "Authors' addresses: Name, email, ..."
    text = EMAIL_BREAK_RE.sub(r"\1\2", page_text)
    for author in authors:
        pattern = r"\s+".join(re.escape(p) for p in author.name.split())
        m = re.search(pattern + NAME_EMAIL_GAP + f"({_ADDRESS})", text, re.I)
        if m:
            give(m.group(1).lower().rstrip("."), author)
    # (2) a column's or a group's own emails
    for group in groups:
        if group.column and len(group.column) == 1:
            for email in group.emails:
                give(email, group.column[0])
        elif group.band and len(group.emails) == len(group.band) and group.after_key is None:
            for email, author in zip(group.emails, group.band, strict=True):
                give(email, author)
    aff_texts = list(affiliation_texts)

    def agrees(email: str, author: P) -> bool:
        domain = email.split("@")[1]
        if not domain_matches(domain, aff_texts):
            return True
        return domain_matches(domain, [a.text for a in author.affiliations])

    # (3) the authors of the affiliation the emails follow
    for group in groups:
        if group.after_key is None or group.after_key not in owners_of:
            continue
        owners = [a for a in owners_of[group.after_key] if not a.emails]
        free = [e for e in group.emails if e not in assigned]
        if (
            owners
            and len(owners) == len(free)
            and all(agrees(e, a) for e, a in zip(free, owners, strict=True))
        ):
            for email, author in zip(free, owners, strict=True):
                give(email, author)
    free = [e for e in pool if e not in assigned]
    people = [a for a in authors if not a.emails]
    if not free or not people:
        return
    # (4) printed order, when every pairing agrees with the domains
    if len(free) == len(people) and all(agrees(e, a) for e, a in zip(free, people, strict=True)):
        for email, author in zip(free, people, strict=True):
            give(email, author)
        return
    # (5) by domain, a name in the address winning over order
    for email in free:
        domain = email.split("@")[1]
        candidates = [
            a
            for a in authors
            if not a.emails and domain_matches(domain, [f.text for f in a.affiliations])
        ]
        if not candidates:
            continue
        named = [a for a in candidates if name_in_email(email, a.name)]
        give(email, named[0] if len(named) == 1 else candidates[0])


def split_email(cell: Cell) -> tuple[list[Segment] | None, list[list[str]]]:
    """(segments before any email, email groups); None for the first when all is email."""
    segs = cell.segments
    at = next((i for i, s in enumerate(segs) if "@" in s.text), None)
    if at is None:
        return segs, []
    start = at
    while (
        start > 0
        and not segs[start].text[:1].isspace()
        and not (
            segs[start - 1].text.rstrip().endswith(",")
            and "@" not in segs[start - 1].text
            and segs[start - 1].text.rstrip(",").strip().isalpha()
            and segs[start - 1].text.strip()[:1].isupper()
            and not segs[start - 1].text.strip().isupper()
        )
    ):
        start -= 1
    head = segs[:start]
    groups = expand_emails(email_text(join_segments(segs[start:])))
    head_text = join_segments(head)
    if not head_text or EMAIL_HEAD_RE.fullmatch(head_text):
        return None, expand_emails(email_text(join_segments(segs)))
    return head, groups
