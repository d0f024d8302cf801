"""What an editor needs beside a change to decide it, per kind (issue 28).

    nearest_claims(profile, change) -> [claim]   an `added` fact: what the profile already states
                                                 with the same predicate and object (an added
                                                 NVIDIA affiliation from two 2016-2018 papers,
                                                 the profile's NVIDIA from another paper)
    profile_now(profiles_dir, change) -> [claim] the same, read from the profile file
    snapshot_diff(before, after, anchors) -> [DiffLine]
                                                 a `removed`/`changed` fact: the lines of the
                                                 snapshot that stated it against the current one,
                                                 around the first line holding an anchor (the
                                                 quote, the person's name)

Pure but for `profile_now`, which reads one profile file.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.errors import ProfileError
from ingest.facts import org_tokens
from ingest.models import Profile
from ingest.names import fold
from ingest.profiles.io import load_profile, profile_path

DIFF_CONTEXT = 4  # lines of context either side of the anchor's changes
DIFF_MAX_LINES = 24


def _same_object(predicate: str, a: str, b: str) -> bool:
    if predicate == "affiliation":
        ta, tb = org_tokens(a), org_tokens(b)
        return bool(ta and tb) and (ta <= tb or tb <= ta)
    return fold(a) == fold(b)


def nearest_claims(profile: Profile, change: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The profile's claims with the change's predicate and object (folded; an organisation up
    to its legal suffixes), as plain dicts, in the profile's order."""
    claim = change.get("claim") or {}
    predicate = str(claim.get("predicate") or "")
    obj = str(claim.get("object") or "")
    if not predicate or not obj:
        return []
    return [
        c.model_dump(exclude_none=True)
        for c in profile.claims
        if c.predicate == predicate and _same_object(predicate, c.object, obj)
    ]


def profile_now(profiles_dir: Path, change: Mapping[str, Any]) -> list[dict[str, Any]]:
    """For an `added` change, `nearest_claims` of its profile (none when the file is unreadable);
    for any other kind nothing (its `previous` is the profile's statement)."""
    if change.get("kind") != "added":
        return []
    try:
        profile = load_profile(profile_path(profiles_dir, str(change.get("profile") or "")))
    except (ProfileError, ValueError):
        return []
    return nearest_claims(profile, change)


@dataclass(frozen=True)
class DiffLine:
    tag: str  # " " same, "-" only in the earlier snapshot, "+" only in the current one
    text: str
    anchor: bool = False  # the line holding the anchor (the quote or the name)


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _anchor_index(lines: list[str], anchors: tuple[str, ...]) -> int | None:
    for anchor in anchors:
        wanted = fold(anchor)
        if not wanted:
            continue
        for i, line in enumerate(lines):
            if wanted in fold(line):
                return i
    return None


def snapshot_diff(before: str, after: str, anchors: tuple[str, ...]) -> list[DiffLine]:
    """The earlier text against the current one, line by line (spacing folded), around the
    anchor: the earlier snapshot's line holding the first anchor found (else the current one's),
    DIFF_CONTEXT lines either side of the changes near it; empty when the texts are the same."""
    old, new = _lines(before), _lines(after)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    rows: list[tuple[DiffLine, int]] = []  # each line and its place in the earlier text
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [(DiffLine(" ", old[i]), i) for i in range(i1, i2)]
            continue
        rows += [(DiffLine("-", old[i]), i) for i in range(i1, i2)]
        rows += [(DiffLine("+", new[j]), i2) for j in range(j1, j2)]
    if all(line.tag == " " for line, _ in rows):
        return []
    changed = [n for n, (line, _i) in enumerate(rows) if line.tag != " "]
    at = _anchor_index(old, anchors)  # the stated line in the earlier snapshot
    near = [n for n in changed if at is not None and rows[n][1] >= at]
    centre = near[0] if near else changed[0]
    first = max(0, centre - DIFF_CONTEXT)
    window = rows[first : first + DIFF_MAX_LINES]
    wanted = tuple(fold(a) for a in anchors if fold(a))
    return [
        DiffLine(
            line.tag,
            line.text,
            anchor=line.tag != "+" and any(w in fold(line.text) for w in wanted),
        )
        for line, _ in window
    ]
