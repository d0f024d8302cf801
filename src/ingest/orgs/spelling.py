"""Words the registry never prints, read as words it does: pure, given the registry's vocabulary.

An affiliation string may spell a name otherwise than ROR does, and then no door lets the
organisation in: "University of Wuerzburg" (ROR: Würzburg, folded "wurzburg"), "Genenetech"
(Genentech), "Peking UniversityShenzhen Graduate School" (two words run together). Only a word in
no registry name is read again, and only as one that is:

- German umlauts written out: "ue", "oe", "ae" -> "u", "o", "a" ("wuerzburg" -> "wurzburg");
- a typing slip: one letter left out, added, changed or two swapped, in a word of at least
  FUZZY_MIN letters, the first letter kept; among several, the one in most names;
- two words run together where a capital follows a small letter ("UniversityShenzhen"), split
  when every part is a registry word of PART_MIN letters or a stop word ("McLean", "PhD" stay).

The candidates keep which words were read again (`features.respelled`): a guess, not a reading.
"""

from __future__ import annotations

import re

from ingest.orgs.registry import Registry
from ingest.orgs.text import STOP

MIN_LENGTH = 6  # shorter unknown words are acronyms, codes and names ("Laue"), not spellings
FUZZY_MIN = 8  # one letter off is a slip only in a word this long ("Lansing" is not "landing")
PART_MIN = 4  # a part of a run-together word: this long, or a stop word ("laUniversidad")
_UMLAUT = re.compile(r"(?<=[a-z])([aou])e")
_GLUED = re.compile(r"[A-Za-z]*[a-z][A-Z][A-Za-z]*")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _one_off(a: str, b: str) -> bool:
    """Edit distance one (adjacent swap included) between two different words."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0] if len(diff) == 2 else -1
        return i >= 0 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) != 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :]


def _shapes(registry: Registry) -> dict[tuple[str, int], list[str]]:
    """Registry words of at least FUZZY_MIN - 1 letters by first letter and length (built once)."""
    if registry.shapes is None:
        shapes: dict[tuple[str, int], list[str]] = {}
        for word in sorted(registry.posting_text):
            if len(word) >= FUZZY_MIN - 1 and word.isalpha():
                shapes.setdefault((word[0], len(word)), []).append(word)
        registry.shapes = shapes
    return registry.shapes


def respell(word: str, registry: Registry) -> str | None:
    """The registry word a folded word unknown to it stands for, or None."""
    if len(word) < MIN_LENGTH or not word.isalpha() or registry.df(word):
        return None
    plain = _UMLAUT.sub(r"\1", word)
    if plain != word and registry.df(plain):
        return plain
    if len(word) < FUZZY_MIN:
        return None
    shapes = _shapes(registry)
    near = [
        w
        for n in (len(word) - 1, len(word), len(word) + 1)
        for w in shapes.get((word[0], n), ())
        if _one_off(word, w)
    ]
    return min(near, key=lambda w: (-registry.df(w), w)) if near else None


def _part(word: str, registry: Registry) -> bool:
    return word in STOP or (len(word) >= PART_MIN and registry.df(word) > 0)


def unglue(text: str, registry: Registry) -> str:
    """`text` with words run together ("UniversityShenzhen") split where the whole is unknown
    to the registry and every part is known."""

    def split(m: re.Match[str]) -> str:
        whole = m.group(0)
        parts = _CAMEL.split(whole)
        if registry.df(whole.lower()) or not all(_part(p.lower(), registry) for p in parts):
            return whole
        return " ".join(parts)

    return _GLUED.sub(split, text)
