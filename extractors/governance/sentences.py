"""Prose in role pages: label lines and sentences that name a role's people ("The council is
A, B and C.", "Chair: A"), read for the governance reader (`reader.Reader`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from extractors.document.model import Item, Para, Row, github_login
from extractors.governance import blocks as _role_blocks
from extractors.governance.decide import Context
from extractors.people import entries as _entries
from extractors.people import names as _people
from extractors.people import prose as _prose
from extractors.people.entries import Entry
from extractors.people.labels import Labels
from ingest.models import Claim

Reader = Any  # extractors.governance.reader.Reader (not imported: no cycle inside extractors)
BOLD_LINE = re.compile(r"^\s*(\*\*|__)([^*_\n.!?]{1,80}?):?\1:?\s*$")


def para(self: Reader, para: Para) -> Iterator[Claim]:
    label = _role_blocks.label_of(para.text, lead_in=not self.frames)  # (no heading above)
    label = label or bold_label(self, para)
    if label is not None:
        self._heading((self.frame.level if self.frame else 0) + 1, label, label=True)
        return
    logins = _login_line(self, para)
    if logins:
        yield from _logins(self, para, logins)
        return
    printed = para.quote == para.text  # HTML: each sentence is printed as read
    if not printed and len(para.quote) > _prose.PROSE_MAX_CHARS:
        return
    number = self._count("paragraph")
    self.ctx = Context("paragraph", 1)
    labels = Labels(para.links)
    name_no = 0
    seen: set[tuple[str, str | None]] = set()  # "Jane Roe, @jroe" (a card): one person, once
    for sentence in _prose.sentences(para.text):
        found, group = _prose.people(
            sentence,
            labels,
            _role_hint(self, sentence),
            under_role=_under(self, sentence),
            heading=self.frame.text if self.frame and not self.frame.label else None,
        )
        for person, role in found:
            if person.github and (person.github, group) in seen:
                continue
            seen.add((person.github or "", group))
            name_no += 1
            locator = f"{self._where()} > paragraph {number} > name {name_no}"
            if person.lead and _mark_lead(self, person.name):
                continue
            quote = sentence if printed else _prose.verbatim(sentence, para.quote)
            entry = Entry(person.name, person.github, person.email, None, person.area,
                          [], person.emeritus, person.lead)  # fmt: skip
            _role_blocks.org_from_prose(entry, sentence)
            yield from self._emit(entry, locator, quote, role=role, section=group)


def bold_label(self: Reader, para: Para) -> str | None:
    """A short line printed all in bold, a list or table right under it ("**Release
    Managers**" then "| Name | GitHub |"): a heading in all but markup, the label of that list."""
    match = BOLD_LINE.match(para.quote)
    if match is None or para.links:
        return None
    text = match.group(2).strip()
    if len(text.split()) > _role_blocks.LABEL_MAX_WORDS or _people.looks_like_name(text):
        return None
    blocks = self.document.blocks
    at = next((i for i, block in enumerate(blocks) if block is para), None)
    after = blocks[at + 1] if at is not None and at + 1 < len(blocks) else None
    return text if isinstance(after, (Item, Row)) else None


def _login_line(self: Reader, para: Para) -> list[str]:
    """A line of bare logins under a heading ("sougou, deepthi, vmg" under "### Parser"), each
    one a GitHub account the page links elsewhere: the people of that heading's list."""
    frame = self.frame
    if frame is None or frame.label or frame.quiet or para.links or "\n" in para.text.strip():
        return []
    words = [w.strip() for w in para.text.strip().split(",")]
    if not all(w and " " not in w and _entries.HANDLE_TOKEN.match(w) for w in words):
        return []
    if not hasattr(self, "page_logins"):
        self.page_logins = {
            login
            for block in self.document.blocks
            for _label, target in getattr(block, "links", ())
            if (login := github_login(target))
        }
    return (
        [w.lstrip("@") for w in words]
        if all(w.lstrip("@").lower() in self.page_logins for w in words)
        else []
    )


def _logins(self: Reader, para: Para, logins: list[str]) -> Iterator[Claim]:
    number = self._count("paragraph")
    self.ctx = Context("li", len(logins), 1.0)
    area = self.frame.text if self.frame and not self.frame.says_role else None
    for name_no, login in enumerate(logins, 1):
        entry = Entry(login, login.lower(), None, None, area)
        locator = f"{self._where()} > paragraph {number} > name {name_no}"
        yield from self._emit(entry, locator, para.quote)


def _under(self: Reader, sentence: str) -> bool:
    """The sentence's people belong to the heading's list: the heading names a role, and
    the sentence names no other group ("Homebrew's Technical Steering Committee is ...")."""
    frame = self.frame
    if frame is None or not frame.says_role:
        return False
    intro = _prose.PROSE_INTRO.search(sentence)
    if intro is None:
        return True
    says = _people.role_of(_prose.phrase(sentence[: intro.start()]))
    same = says is not None and says.lower() == (frame.role or "").lower()
    return says is None or _people.is_generic(says) or same


def _role_hint(self: Reader, sentence: str) -> str | None:
    frame = self.frame
    if frame is not None and not _people.is_generic(frame.role):
        return None  # the heading's word wins
    intro = _prose.PROSE_INTRO.search(sentence)
    return _people.role_of(sentence[: intro.start()]) if intro else None


def _mark_lead(self: Reader, name: str) -> bool:
    """A chair named apart from the member list: their member claim gets level lead."""
    claim = self.latest.get(("", name))
    if claim is None:
        return False
    claim.qualifiers["level"] = "lead"
    claim.qualifiers.pop("scope", None)
    return True
