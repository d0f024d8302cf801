"""Folding and segmenting affiliation strings: pure functions, no registry.

A string is folded to lower-case ASCII words (apostrophes dropped, so "Children's" and
"Childrens" agree) and cut into segments at commas, semicolons and line breaks:
"Dept. of Computer Science, UCLA, Los Angeles, CA 90095" has four segments, the organisation
usually one of the last.
"""

from __future__ import annotations

import re

from unidecode import unidecode

_APOSTROPHE = re.compile(r"['\u2019\u2018`]")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_SEGMENT = re.compile(r"[,;\n\r|]+|\s[-\u2013\u2014]\s|\(|\)")
# words that make no difference to an organisation's name
STOP = frozenset({"of", "the", "and", "for", "de", "la", "du", "des", "der", "di", "at", "in"})
# words that start a unit's name rather than an organisation's: a feature, not a verdict
UNIT_WORDS = frozenset(
    {
        "department",
        "dept",
        "departments",
        "division",
        "faculty",
        "school",
        "college",
        "laboratory",
        "lab",
        "laboratories",
        "group",
        "unit",
        "section",
        "chair",
        "program",
        "programme",
        "centre",
        "center",
        "institute",
        "graduate",
        "key",
        "team",
        "service",
        "clinic",
    }
)


def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces."""
    return _NON_WORD.sub(" ", unidecode(_APOSTROPHE.sub("", text)).lower()).strip()


def segments(text: str) -> list[str]:
    """The folded, non-empty segments of an affiliation string, in order."""
    out = [fold(part) for part in _SEGMENT.split(text)]
    return [s for s in out if s]


def acronym_of(words: list[str]) -> str:
    """Initials of the words that carry meaning: "university of southern california" -> "usc"."""
    return "".join(w[0] for w in words if w not in STOP)
