"""Which paragraph introduces a list, where it is not simply the one just before it:

- a short label line between a lead-in ending in ":" and each of its lists ("Our new Maintainers
  are:" / "For Data Carpentry - Ecology" / * A / "For Software Carpentry" / * B): the lists are
  still the lead-in's, the label only says which part each is for (`is_sublabel`);
- a paragraph that only describes the body the paragraph above announced ("... time to meet your
  new Project Management Committee." / "The people on this committee will help ..." / * A): the
  two together are the lead-in (`joined_lead`);
- a lead-in that names what its items are, and they are not people ("committed towards the
  following goals:", "the following changes:"): its list names no one (`of_things`).
"""

from __future__ import annotations

import re

from extractors.document.model import collapse

ROLE_NOUNS = (
    r"^(?:maintainers?|committers?|collaborators?|members?|leads?|leaders?|chairs?|directors?|"
    r"officers?|representatives?|reviewers?|owners?|managers?|developers?|engineers?|"
    r"organi[sz]ers?|judges?|keynotes?|panelists?|presenters?|recipients?|fellows?|trustees?)$"
)

SUBLABEL_MAX = 80  # characters: a label line, not a sentence
SENTENCE_END = re.compile(r"[.!?:;]\W*$")
# a paragraph speaking of a body already introduced: "this committee", "these new members"
ANAPHORA = re.compile(
    r"\b(?:this|these|those)\s+(?:new\s+)?(?:committee|council|board|team|group|members?|"
    r"people|maintainers?|committers?|representatives?)\b"
    r"|\bjoining\s+(?:him|her|them)\b",  # "Joining him are ...": the body the one above joined
    re.I,
)


def is_sublabel(lead: str | None, text: str) -> bool:
    """`text` is a label line under the colon lead-in `lead` (the lead-in stays the lists')."""
    if not lead or not lead.rstrip().endswith(":"):
        return False
    text = collapse(text)
    return 0 < len(text) <= SUBLABEL_MAX and not SENTENCE_END.search(text)


def joined_lead(lead: str, before: str | None, role_cue: re.Pattern[str]) -> str | None:
    """`before` and `lead` as one lead-in, when `lead` only describes what `before` announced."""
    if not before or role_cue.search(lead) or not ANAPHORA.search(lead):
        return None
    return f"{before} {lead}" if role_cue.search(before) else None


def titled_lead(lead: str, title: str | None) -> str | None:
    """An anaphoric lead-in ("Joining him are the following:") with the post's title, which
    says what "him" was elected to, when nothing between them does."""
    return f"{lead} {title}" if title and ANAPHORA.search(lead) else None


# "the following goals:", "these three priorities:": what the items are, named by the lead-in
ITEMS_NAMED = re.compile(
    r"\b(?:the\s+following|these|those)\s+(?:\w+\s+){0,2}?(?P<noun>\w+)\s*:\W*$", re.I
)
PEOPLE_NOUN = re.compile(
    r"^(?:people|persons?|individuals?|folks|candidates?|nominees?|winners?|speakers?|"
    r"contributors?|volunteers?|new|elected|appointed)$|" + ROLE_NOUNS,
    re.I,
)


# "The Board is divided up into committees responsible for ...:": the items are the bodies
ITEMS_AS_BODIES = re.compile(
    r"\b(?:divided|split|organi[sz]ed|grouped|broken)\s+(?:up\s+)?into\s+(?:[\w-]+\s+){0,3}?"
    r"(?:committees|subcommittees|(?:working\s+)?groups|teams|areas|tracks|functions)\b",
    re.I,
)


def of_things(label: str) -> bool:
    """The lead-in says its items are things ("the following goals:") or bodies ("divided up
    into committees responsible for ...:"), not people or holders of a role ("the following new
    members:", "these maintainers:")."""
    match = ITEMS_NAMED.search(label)
    named = match is not None and not PEOPLE_NOUN.match(match.group("noun"))
    return named or bool(ITEMS_AS_BODIES.search(label))
