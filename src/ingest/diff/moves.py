"""How a statement moved on a page between two versions: renamed headings, moves from one list
to another, and lists the extractor could not read (the rules are in `ingest.diff.changes`'s
docstring). Pure functions over claims and profile statements.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ingest.facts import areas, differences, identity, role_family, same_level, similar_area
from ingest.models import Claim, ProfileClaim
from ingest.names import fold

_BLOCK_TAG = re.compile(
    r"</?(?:h[1-6]|summary|details|th|td|tr|dt|dd|caption|p|li|ul|ol|div|section|table)\b[^>]*>"
    r"|<br\s*/?>",
    re.IGNORECASE,
)
_TAG = re.compile(r"<[^>]*>")


@dataclass
class PageHeadings:
    """What the whole page says, shared by every profile's diff."""

    sections: set[tuple[str, str]]  # (folded project, folded heading) of every claim
    renames: dict[str, str]  # folded old heading -> new heading
    renamed: set[str] = field(default_factory=set)  # folded headings found renamed


def renamed(prev: ProfileClaim, cand: Claim, renames: dict[str, str]) -> bool:
    """The candidate restates `prev` differently: a renamed heading, a new affiliation."""
    if identity(prev.predicate, prev.object, prev.qualifiers) != identity(
        cand.predicate, cand.object, cand.qualifiers
    ):
        return False
    if prev.predicate == "affiliation":  # same person, same work, another organisation
        return True
    if prev.predicate != "maintainer" or not same_level(prev.qualifiers, cand.qualifiers):
        return False
    new_section = fold(str(cand.qualifiers.get("section") or ""))
    mapped = {fold(new) for old, new in renames.items() if fold(old) in areas(prev.qualifiers)}
    if new_section and new_section in mapped:
        return True
    return similar_area(prev.qualifiers, cand.qualifiers)


def unread_lists(removable: list[ProfileClaim], page: PageHeadings, text: str | None) -> list[str]:
    """Headings of statements about to be removed that the page still prints as a heading (a line
    of its own), though no claim was read under them and they were not renamed."""
    if not text:
        return []
    lines: set[str] | None = None  # the text's lines, folded only when a heading is looked up
    out: dict[str, str] = {}
    for prev in removable:
        section = prev.qualifiers.get("section")
        key = fold(str(section or ""))
        if (
            not key
            or (fold(prev.object), key) in page.sections
            or key in page.renamed
            or key in page.renames
        ):
            continue
        lines = lines if lines is not None else printed_lines(text)
        if key in lines:
            out.setdefault(key, str(section))
    return list(out.values())


def printed_lines(text: str) -> set[str]:
    """The folded lines of a document, HTML block elements each on a line of their own: a
    heading "## Emeritus Members", "<summary>Emeritus Members</summary>", a reST title."""
    broken = _BLOCK_TAG.sub("\n", text)
    return {fold(_TAG.sub(" ", line)) for line in broken.splitlines()} - {""}


def _diffs(prev: ProfileClaim, cand: Claim) -> list[str]:
    return differences(cand.predicate, prev.qualifiers, cand.qualifiers)


def moved(prev: ProfileClaim, cand: Claim) -> bool:
    """The same role of the same project, listed elsewhere on the page (another heading, another
    status): not when the two name different areas (a module maintainer of another module)."""
    if prev.predicate != "maintainer" or cand.predicate != "maintainer":
        return False
    if fold(prev.object) != fold(cand.object) or not same_level(prev.qualifiers, cand.qualifiers):
        return False
    if role_family(prev.qualifiers) != role_family(cand.qualifiers):
        return False
    a, b = prev.qualifiers.get("scope"), cand.qualifiers.get("scope")
    return not (isinstance(a, str) and isinstance(b, str) and a and b and fold(a) != fold(b))


def only_renamed(prev: ProfileClaim, cand: Claim, page: PageHeadings) -> bool:
    """The statement differs only by its heading, and that heading was renamed: the page's
    history maps it to the new one, or the page no longer prints it at all."""
    if prev.predicate != "maintainer" or _diffs(prev, cand) != ["section"]:
        return False
    if role_family(prev.qualifiers) != role_family(cand.qualifiers):
        return False
    scopes = [fold(str(q.get("scope") or "")) for q in (prev.qualifiers, cand.qualifiers)]
    if all(scopes) and scopes[0] != scopes[1]:
        return False  # the area itself was renamed ("C++ API" -> "C++ API (libtorch + ...)")
    old = fold(str(prev.qualifiers.get("section") or ""))
    new = str(cand.qualifiers.get("section") or "")
    mapped = fold(page.renames[old]) == fold(new) if old in page.renames else False
    if mapped or (fold(prev.object), old) not in page.sections:
        page.renamed.add(old)
        return True
    return False


def detect_renames(old: list[Claim], new: list[Claim], min_overlap: float = 0.5) -> dict[str, str]:
    """Headings of the previous snapshot that the new one prints under another name.

    A heading present only in the old snapshot is renamed to a heading present only in the new one
    when their member lists overlap by at least `min_overlap` (Jaccard on handles or names).
    """

    def members(claims: list[Claim]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = defaultdict(set)
        for c in claims:
            section = c.qualifiers.get("section")
            if isinstance(section, str):
                out[section].add(c.subject.github or fold(c.subject.name))
        return out

    before, after = members(old), members(new)
    gone = [s for s in before if s not in after]
    fresh = [s for s in after if s not in before]
    renames: dict[str, str] = {}
    for old_section in gone:
        best, best_score = None, 0.0
        for new_section in fresh:
            a, b = before[old_section], after[new_section]
            score = len(a & b) / len(a | b) if a | b else 0.0
            if score > best_score:
                best, best_score = new_section, score
        if best is not None and best_score >= min_overlap:
            renames[old_section] = best
            fresh.remove(best)
    return renames


def drop_explained(old: list[Claim], new: list[Claim], text: str | None, min_ratio: float) -> bool:
    """Far fewer people than last time, and the page says why: leave out the people it no longer
    lists who were listed (last time) only under headings or lead-ins the page no longer prints
    at all (those lists were taken off the page, not lost by the reader, which leaves them
    printed but unread), and the page no longer lists far fewer people than before. A person
    listed under no heading, or a document without text, explains nothing."""
    if not text:
        return False
    printed = fold(_TAG.sub(" ", text))
    before: dict[str, set[str]] = defaultdict(set)
    for c in old:
        before[c.subject.github or fold(c.subject.name)].add(
            fold(str(c.qualifiers.get("section") or ""))
        )
    now = {c.subject.github or fold(c.subject.name) for c in new}
    taken_off = [
        person
        for person, sections in before.items()
        if person not in now and all(s and s not in printed for s in sections)
    ]
    return bool(taken_off) and len(now) >= min_ratio * (len(before) - len(taken_off))
