"""Who is who on one governance page, for scoring: people from rows or claims, and matching.

Within one page, items (gold rows or claims) sharing a GitHub handle or a name are one person.
A predicted person matches a gold one by handle when both have one, else by name (entities, tags,
Markdown links, case, accents, punctuation and whitespace folded away), or by its name equal to
the gold handle when the gold gives no name. Matching is one-to-one, handle matches first.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ingest.names import fold

_TAG = re.compile(r"<[^>]*>")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def norm(text: str | None) -> str:
    """Names, sections, roles: entities, tags, Markdown links, case, accents, punctuation."""
    if not text:
        return ""
    return fold(_MD_LINK.sub(r"\1", _TAG.sub(" ", html.unescape(text))))


def norm_handle(handle: str | None) -> str:
    return (handle or "").strip().lstrip("@").lower()


@dataclass
class Person:
    """One person of a page: the handles and folded names its rows or claims give."""

    handles: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    label: str = ""


def group_people(keys: Sequence[tuple[str, str, str]]) -> tuple[list[Person], list[int]]:
    """People from (handle, folded name, label) items: items sharing a handle or a name are one
    person. Returns the people and, per item, the index of its person."""
    parent = list(range(len(keys)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[tuple[str, str], int] = {}
    for i, (handle, name, _label) in enumerate(keys):
        for key in (("h", handle), ("n", name)):
            if key[1]:
                j = first.setdefault(key, i)
                parent[root(i)] = root(j)
    index: dict[int, int] = {}
    people: list[Person] = []
    of_item = []
    for i, (handle, name, label) in enumerate(keys):
        r = root(i)
        if r not in index:
            index[r] = len(people)
            people.append(Person(label=label))
        person = people[index[r]]
        if handle:
            person.handles.add(handle)
        if name:
            person.names.add(name)
        of_item.append(index[r])
    return people, of_item


def same_person(pred: Person, gold: Person, *, by_handle: bool) -> bool:
    if pred.handles and gold.handles:
        return by_handle and bool(pred.handles & gold.handles)
    if by_handle:
        return False
    if pred.names & gold.names:
        return True
    return not gold.names and bool(pred.names & {fold(h) for h in gold.handles})


def match_people(pred: list[Person], gold: list[Person]) -> dict[int, int]:
    """One-to-one: predicted index -> gold index, handle matches first, then names."""
    out: dict[int, int] = {}
    taken: set[int] = set()
    for by_handle in (True, False):
        for g, person in enumerate(gold):
            if g in taken:
                continue
            for p, candidate in enumerate(pred):
                if p not in out and same_person(candidate, person, by_handle=by_handle):
                    out[p] = g
                    taken.add(g)
                    break
    return out
