"""More role-change phrases, as named data (the tables of `patterns` are full): departures in the
present tense, terms that have ended, and people agreeing to take a role over.

- `ROLE_PATTERNS` (status, pattern) extend `patterns.ROLE_PATTERNS`, with the role captured:
  "A retires from the board", "A resigns as treasurer", "A has agreed to take over as project
  lead for X", "A will take over as chair", "happy to add A and B as committers", "A and B were
  voted in by the other board members", "have elected A the new Project Lead",
  "A volunteered to serve on the committee", "thank A for being a member of X the past years",
  "thanking the outgoing Board members: A, B and C",
  "The PMC has voted to make A the project's newest committer", a news entry or title "New
  Community Director: A" (a list's entries are `lists`', with their handles);
- `TITLE_ROLE_PATTERNS` extend `patterns.TITLE_ROLE_PATTERNS` (the role is the title's body):
  "thanks to A, B and C, whose terms have now ended".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.announcements import names
from extractors.announcements.bodies import clean_role
from extractors.announcements.patterns import (
    FIRST_PERSON_LEFT,
    NEW,
    OLD,
    PEOPLE,
    PERSON,
    ROLE_PHRASE,
    ROLE_WORDS,
    SUCCESSION,
    OnFirstUse,
)

# a person's name may be followed by a parenthesised link or handle: "A ([@a](url))"
_ASIDE = r"(?:\s*\([^()]{1,120}\))?"
ROLE_PATTERNS: OnFirstUse[tuple[str, re.Pattern[str]]] = OnFirstUse(
    lambda: tuple(
        (status, re.compile(p))
        for status, p in (
            (  # a news entry or title: "2023-08-19: New Committer, A", "New PMC Member: B"
                "current",
                rf"^\W*(?:(?:[\d/.-]{{8,10}}|[A-Z][a-z]{{2,8}}\.?\s+\d{{1,2}},?\s+\d{{4}})\s*"
                rf"[:|\u2013\u2014-]\s*)?(?i:new(?:ly\s+elected)?)\s+"
                rf"(?P<role>(?:[\w.&'’-]+\s+){{0,3}}?{ROLE_WORDS})\s*[,:\u2013\u2014-]\s*{PEOPLE}",
            ),
            (  # "The PMC has voted to make A the project's newest committer and PMC member"
                "current",
                rf"(?i:voted\s+to\s+make|decided\s+to\s+make|made)\s+{PEOPLE}\s+(?:the|our|its|an?)\s+"
                rf"(?:project's\s+|project’s\s+)?(?:new|newest)\s+{ROLE_PHRASE}",
            ),
            (
                "emeritus",
                rf"{PEOPLE}\s+(?:retires|resigns|is\s+resigning)\s+(?:from|as)\s+{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"{PEOPLE}{_ASIDE}\s+(?:has\s+|have\s+)?(?:agreed|offered|volunteered)\s+to\s+"
                rf"take\s+over\s+as\s+{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"{PEOPLE}{_ASIDE}\s+(?:will|is\s+going\s+to)\s+take\s+over\s+as\s+{ROLE_PHRASE}",
            ),
            (  # "Please welcome A (Org), B (Org), and C who will be joining D as KSC members"
                "current",
                rf"(?i:please\s+welcome)\s+(?P<people>{PERSON}{_ASIDE}(?:(?:\s*,\s*(?:and\s+)?|"
                rf"\s+and\s+){PERSON}{_ASIDE})*)\s*,?\s+who\s+will\s+be\s+joining\b[^.]{{0,160}}?"
                rf"\bas\s+{ROLE_PHRASE}",
            ),
            (  # "The PMC is happy to add A and B as committers", "we are adding A to the core
                # maintainer team"
                "current",
                rf"(?i:add|adds|added|adding)\s+{PEOPLE}{_ASIDE}\s+(?:as|to)\s+{ROLE_PHRASE}",
            ),
            (  # "both candidates, A and B, were unanimously voted in by the other board members"
                "current",
                rf"{PEOPLE}\s*,?\s+(?:was|were|has\s+been|have\s+been)\s+(?:\w+ly\s+)?"
                rf"(?:voted\s+in|elected|appointed|co-?opted)\s+by\s+(?:the\s+)?(?:other|remaining|"
                rf"existing|fellow|current|sitting)\s+"
                rf"(?P<role>(?:[\w.&'’-]+\s+){{0,3}}?{ROLE_WORDS}(?:\s+{ROLE_WORDS})?)",
            ),
            (  # "the committers have elected A the new Project Lead", "named B as our new chair"
                "current",
                rf"(?i:elected|appointed|named|chosen|chose|selected)\s+{PEOPLE}{_ASIDE}\s+(?:as\s+)?"
                rf"(?=(?:the|our|its|their)\s+(?:new|next)\s){ROLE_PHRASE}",
            ),
            (  # "A graciously volunteered to serve on the Steering Committee for two years"
                "current",
                rf"{PEOPLE}{_ASIDE}\s+(?:has\s+|have\s+)?(?:\w+ly\s+)?(?:volunteered|agreed|"
                rf"offered)\s+to\s+serve\s+(?:on|as|in)\s+{ROLE_PHRASE}",
            ),
            (  # "thank A for ... being a member of the X Committee the past 1.5 years": a tenure
                "emeritus",  # over
                rf"(?i:thank|thanks|thanking)\s+{PEOPLE}\s+for\b[^.!]{{0,160}}?\b(?:being|serving\s+"
                rf"as)\s+{ROLE_PHRASE}\s+(?:for\s+)?(?:the|these)\s+(?:last|past)\b",
            ),
            (  # "Please join me in thanking the outgoing Board members: A, B and C"
                "emeritus",
                rf"(?i:thank(?:s|ing)?)\b[^.:]{{0,40}}?\b(?i:outgoing|departing|retiring)\s+"
                rf"{ROLE_PHRASE}\s*[:—–-]\s*{PEOPLE}",
            ),
        )
    )
)

# "We would like to thank A, B and C, whose terms have now ended": they leave the title's body
TERMS_ENDED = re.compile(
    rf"{PEOPLE}\s*,?\s+whose\s+(?:terms?|tenures?|mandates?)\s+(?:have\s+|has\s+)?(?:now\s+)?"
    rf"(?:ended|expired|concluded|come\s+to\s+an\s+end)"
)
TITLE_ROLE_PATTERNS = (("emeritus", TERMS_ENDED),)

# "So, I'm stepping away from Spaz, and letting others take the reins": the post's one author
# leaves the project itself (no role word printed: they maintained it); `role` is the project
FIRST_PERSON_AWAY = re.compile(
    r"\bI(?:'m|’m|\s+am)\s+(?:now\s+)?(?:stepping|stepped)\s+(?:away|down|back)\s+from\s+"
    r"(?P<role>[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*){0,2})(?=\s*[,.;!]|\s+and\b)"
)
# a site's author slug ("author: funkatron"): the only name a first-person post may print
AUTHOR_SLUG = re.compile(r"^[a-z][a-z0-9_-]{2,38}$")


_ROLE_NOUN = (
    r"(?:maintainer|committer|member|reviewer|lead|leader|chair|director|owner|"
    r"representative|steward|editor)s?"
)
_FIRST_ROLE = (
    rf"(?P<role>(?:[\w-]+\s+){{0,2}}?{_ROLE_NOUN}(?:\s+of\s+(?:the\s+)?[\w\s]{{0,30}}?)?)(?=\W)"
)
# "my last day as a maintainer of X": the author has left the role
FIRST_PERSON_LAST_DAY = re.compile(rf"\bmy\s+last\s+day\s+as\s+(?:an?\s+|the\s+)?{_FIRST_ROLE}")
# "I was fortunate enough to be made a maintainer of the project": the author holds it now
FIRST_PERSON_MADE = re.compile(
    r"\bI\b[^.]{0,60}?\b(?:made|appointed|elected|promoted\s+to|named|invited\s+to\s+become)"
    rf"\s+(?:an?\s+|the\s+)(?:new\s+)?{_FIRST_ROLE}"
)
# "(I'm excited to) announce my return as the managing editor of X": the author holds it now
FIRST_PERSON_RETURN = re.compile(
    rf"\bmy\s+(?:return|appointment|election|promotion)\s+(?:as|to)\s+(?:an?\s+|the\s+)?"
    rf"(?:new\s+)?{_FIRST_ROLE}"
)
# a post's one author printed as one capitalised word ("author: Mattt"): the writer's name
ONE_NAME = re.compile(r"^[A-Z][a-z]{2,20}$")


def author_named(author: str) -> bool:
    """The post's one author is a person's name: a full name, or one capitalised word."""
    return names.looks_like_person(author) or bool(ONE_NAME.match(author))


# "it's time to step down", "it is time for me to step back": the writer leaves, the role said
# by the title ("Stepping down as the X project lead") or the paragraph ("Having me as project
# leader is what ...")
TIME_TO_STEP = re.compile(
    r"\b(?:it'?s|it’s|it\s+is)\s+time\s+(?:for\s+me\s+)?to\s+step\s+(?:down|back|away|aside)\b",
    re.I,
)
_NAMED_ROLE = rf"(?:the\s+|an?\s+)?(?P<role>(?:[\w-]+\s+){{0,3}}?{_ROLE_NOUN})\b"
TITLE_STEP = re.compile(
    rf"^\W*(?i:stepping|step)\s+(?i:down|back|away)\s+(?i:as|from)\s+{_NAMED_ROLE}"
)
ME_AS = re.compile(rf"\b(?i:me|my\s+(?:role|position|time))\s+as\s+{_NAMED_ROLE}")


def first_person_left(text: str, paragraph: str = "", title: str | None = None,
                      ) -> re.Match[str] | None:  # fmt: skip
    """The author's departure the sentence prints: from a role ("I ... step down as lead of the
    team", `patterns.FIRST_PERSON_LEFT`; "my last day as a maintainer"), else from a project
    ("I'm stepping away from X"), else "it's time to step down" from the role the title or the
    sentence's paragraph gives the writer."""
    found = (FIRST_PERSON_LEFT.search(text) or FIRST_PERSON_LAST_DAY.search(text)
             or FIRST_PERSON_AWAY.search(text))  # fmt: skip
    if found or not TIME_TO_STEP.search(text):
        return found
    return TITLE_STEP.search(title or "") or ME_AS.search(paragraph)


def first_person_made(text: str) -> re.Match[str] | None:
    """The author's new role the sentence prints ("I was made a maintainer of X")."""
    return FIRST_PERSON_MADE.search(text) or FIRST_PERSON_RETURN.search(text)


def about_the_author(text: str) -> bool:
    """The sentence is the author's own role change by a first-person phrase that names no one
    else ("Yesterday was my last day as a maintainer of X": X is the project, not a person)."""
    return bool(FIRST_PERSON_LAST_DAY.search(text) or first_person_made(text)
                or TIME_TO_STEP.search(text))  # fmt: skip


def author_may_leave(author: str, match: re.Match[str]) -> bool:
    """An author slug may step away from a project, as its author (not from a named role)."""
    return match.re is FIRST_PERSON_AWAY and bool(AUTHOR_SLUG.match(author))


# "A is stepping down as President ... and will be succeeded by B": the successor of a departure
SUCCEEDED_BY = re.compile(
    rf"{OLD}[^.]{{0,200}}?\b(?:will\s+be|is\s+to\s+be|is\s+being|was|has\s+been)\s+"
    rf"succeeded\s+by\s+{NEW}"
)


def successions(masked: str, left: dict[int, str]) -> Iterator[tuple[int, str, str]]:
    """(person index, role, status) of a sentence's successions: "B replaces A as chair" (B gains
    the role, A leaves it), and "A is stepping down as X and will be succeeded by B" (B gains the
    role `left` says A leaves)."""
    for match in SUCCESSION.finditer(masked):
        role = clean_role(match.group("role"))
        for group, status in (("new", "current"), ("old", "emeritus")):
            for index in names.indexes(match.group(group)):
                yield index, role, status
    for match in SUCCEEDED_BY.finditer(masked):
        old = names.indexes(match.group("old"))
        gone = left.get(old[0]) if old else None
        for index in names.indexes(match.group("new")) if gone else ():
            yield index, gone or "", "current"
