"""What an entry prints about reaching a person, beside the name: e-mail addresses, contact
values labelled by their kind, a term of office, a word for no employer."""

from __future__ import annotations

import re

from extractors.people import names as _people

# a contact value labelled by its kind in parentheses ("jroe (GitHub), jane@example.org (email)",
# LLVM's Maintainers.md): the GitHub one is the handle, the e-mail the address, the rest dropped
CONTACT = re.compile(
    r"(?<![^\s,;])([^\s,;()]+)\s+\((e-?mail|mail|github|gitlab|discourse|irc|slack|twitter|"
    r"mastodon|matrix|discord|linkedin|phabricator|website|homepage)\)(?:\s*[,;])?",
    re.I,
)
LOGIN = re.compile(r"^@?(?=[\w-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{0,38}$")
# "Jane Roe Term: March 2024 – Present": a term of office after the name says when, not who
TERM_FIELD = re.compile(r"\s+(?:term(?: ends)?|since|tenure|served)\s*:\s.*$", re.I)
# no organisation, said in small letters after a printed handle ("@jroe (independent)")
UNAFFILIATED = frozenset({"independent", "individual", "unaffiliated", "self-employed"})


def labelled(text: str) -> tuple[str, str | None, str | None]:
    """The text without its labelled contact values, the GitHub login and the e-mail they give."""
    github = email = None
    for contact in CONTACT.finditer(text):
        value, kind = contact.group(1), contact.group(2).lower()
        if kind == "github" and LOGIN.match(value):
            github = github or value.lstrip("@").lower()
        elif kind.endswith("mail") and _people.find_email(value):
            email = email or value
    return CONTACT.sub(" ", text), github, email


def without_term(text: str) -> str:
    """The text without a term-of-office field after the name."""
    term = TERM_FIELD.search(text)
    return text[: term.start()] if term and term.start() > 0 else text


def emails(text: str) -> list[str]:
    """Every e-mail address the text prints, in order."""
    found: list[str] = []
    rest = text
    while True:
        match = _people.find_email(rest)
        if match is None:
            return found
        found.append(match.group(1))
        rest = rest[match.end() :]
