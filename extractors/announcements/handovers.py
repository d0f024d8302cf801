"""More role-change phrases, as named data (the tables of `patterns` are full): departures in the
present tense, terms that have ended, and people agreeing to take a role over.

- `ROLE_PATTERNS` (status, pattern) extend `patterns.ROLE_PATTERNS`, with the role captured:
  "A retires from the board", "A resigns as treasurer", "A has agreed to take over as project
  lead for X", "A will take over as chair";
- `TITLE_ROLE_PATTERNS` extend `patterns.TITLE_ROLE_PATTERNS` (the role is the title's body):
  "thanks to A, B and C, whose terms have now ended".
"""

from __future__ import annotations

import re

from extractors.announcements.patterns import PEOPLE, ROLE_PHRASE, OnFirstUse

# a person's name may be followed by a parenthesised link or handle: "A ([@a](url))"
_ASIDE = r"(?:\s*\([^()]{1,120}\))?"
ROLE_PATTERNS: OnFirstUse[tuple[str, re.Pattern[str]]] = OnFirstUse(
    lambda: tuple(
        (status, re.compile(p))
        for status, p in (
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
        )
    )
)

# "We would like to thank A, B and C, whose terms have now ended": they leave the title's body
TERMS_ENDED = re.compile(
    rf"{PEOPLE}\s*,?\s+whose\s+(?:terms?|tenures?|mandates?)\s+(?:have\s+|has\s+)?(?:now\s+)?"
    rf"(?:ended|expired|concluded|come\s+to\s+an\s+end)"
)
TITLE_ROLE_PATTERNS = (("emeritus", TERMS_ENDED),)
