"""Which fact a change states, as a stable key: the identity the review queue groups by (one
decision per fact; `ingest.review.grouping`), stored with each change (migration 6). Pure, and
beneath the store: `ingest.storage` computes it for changes written before migration 6.

Two changes are one fact when they have the same profile, kind, predicate and object (folded),
the same previous profile claim (for `changed` and `removed`) and the same qualifiers that
define the fact; qualifiers that only say where a source printed it (`SOURCE_DETAILS`) do not.
Qualifier values are compared as a person reads them (`show_value`, with the human `LABELS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ingest.facts import level_of, org_key
from ingest.models import stable_hash
from ingest.names import fold

# qualifiers that describe one source's printing of a fact, not the fact
SOURCE_DETAILS = frozenset(
    {
        "work",
        "works",
        "date",
        "affiliation_text",
        "org",  # the organisation resolved: the fact's object key (org_key) already says it
        "position",
        "title",
        "published",
        "since",
        "until",
        "event",
        "accessed",
        "reason",
        "group",  # the governance page's heading group ("Core Module maintainers")
        "confidence",  # how sure the reader is of it (calibrated): about the reading, not the fact
    }
)
# predicates whose `date` defines the fact (an event on a day)
DATED = frozenset({"speaker", "program_chair", "panelist", "participant"})

# human labels for qualifier names, on the review page and the command line
LABELS: dict[str, str] = {
    "level": "level",
    "section": "listed under",
    "scope": "covers",
    "status": "status",
    "role": "role",
    "date": "date",
    "work": "paper",
    "works": "printed on",
    "title": "title",
    "published": "published",
    "position": "author position",
    "affiliation_text": "printed affiliation",
    "since": "since",
    "until": "until",
    "event": "event",
    "reason": "reason",
    "confidence": "confidence",
}


def label(name: str) -> str:
    """The human label of a qualifier name (`affiliation_text` -> `printed affiliation`)."""
    return LABELS.get(name, name.replace("_", " "))


def show_value(value: Any) -> str:
    """A qualifier value as a person reads it: lists joined with commas, never a Python repr."""
    if isinstance(value, (list, tuple)):
        return ", ".join(show_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{label(str(k))} {show_value(v)}" for k, v in value.items())
    if value is None:
        return ""
    return str(value)


def _defining(predicate: str, qualifiers: dict[str, Any]) -> list[Any]:
    keep = {k: v for k, v in qualifiers.items() if k not in SOURCE_DETAILS}
    if predicate in DATED and qualifiers.get("date"):
        keep["date"] = qualifiers["date"]
    if predicate == "maintainer":
        keep["level"] = level_of(qualifiers)
        # the heading says where a page lists the role; the scope (or, for lead and core, the
        # level) says what the role is: an announcement of it prints no heading at all
        if keep.get("scope") or keep["level"] in ("lead", "core"):
            keep.pop("section", None)
    return sorted([k, fold(show_value(v))] for k, v in keep.items() if v not in (None, ""))


def fact_key(change: Mapping[str, Any]) -> str:
    """A stable hash naming the fact a change states (see the module docstring)."""
    claim = change.get("claim") or {}
    previous = change.get("previous") or {}
    body = claim or previous
    predicate = str(body.get("predicate") or "")
    obj = str(body.get("object") or "")
    obj_key: Any = fold(obj)
    if predicate == "affiliation":
        obj_key = org_key(obj, dict(body.get("qualifiers") or {}))
    parts: list[Any] = [change.get("profile"), change.get("kind"), predicate, obj_key]
    if change.get("kind") in ("changed", "removed"):
        parts.append(previous.get("id"))
    if change.get("kind") != "removed":
        parts.append(_defining(predicate, dict(body.get("qualifiers") or {})))
    return stable_hash(*parts)
