"""Name normalisation and matching: case, accents, punctuation and initials.

Accents are folded with `unidecode` (a well-kept transliteration table) rather than by hand, so
"Léon Bottou" and "Leon Bottou", "Łukasz" and "Lukasz" compare equal.
"""

from __future__ import annotations

import re
from functools import lru_cache

from unidecode import unidecode

_NON_WORD = re.compile(r"[^a-z0-9]+")


@lru_cache(maxsize=8192)  # a page's names are folded ~10 times each as they are read and diffed
def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces."""
    return _NON_WORD.sub(" ", unidecode(text).lower()).strip()


def tokens(name: str) -> list[str]:
    return fold(name).split()


def same_person_name(a: str, b: str) -> bool:
    """True for the same name up to case, accents, punctuation and initials.

    "Natalia Gimelshein" ~ "N. Gimelshein" ~ "natalia gimelshein"; the last names must agree,
    and every other part must agree in full or as an initial.
    """
    ta, tb = tokens(a), tokens(b)
    if not ta or not tb:
        return False
    if ta == tb:
        return True
    if ta[-1] != tb[-1] or len(ta[-1]) < 2:
        return False
    first_a, first_b = ta[:-1], tb[:-1]
    if not first_a or not first_b:
        return False
    if len(first_a) != len(first_b):
        # a middle name on one side only: compare the first given names
        first_a, first_b = first_a[:1], first_b[:1]
    for x, y in zip(first_a, first_b, strict=True):
        if x == y:
            continue
        if (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
            continue
        return False
    return True
