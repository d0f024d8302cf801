"""Statements as a person reads them: one sentence per claim, one per change.

    sentence(claim)          "Maintainer of PyTorch (torch.optim), emeritus"
                             "Author of arXiv:1912.01703 'PyTorch: An Imperative Style ...'"
                             "Affiliated with NVIDIA (printed on arXiv:1511.06434)"
    change_sentence(change)  the claim's sentence; a `changed` one says what it was
                             ("... , emeritus (was: status current)")
    notation(change)         the raw notation (`maintainer PyTorch (level module, ...)`), kept for
                             the "raw claim" view and for machines that grep it
    person(profile, names)   a profile's display name (its `name`), else its id

The review page, `ingest review list/show`, the run reports and the audit log all say a
statement with these. Pure: no I/O (the names come from the caller).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ingest.fact_identity import label, show_value

# maintainer levels that name the role themselves; any other level is "Maintainer of X (scope)"
LEVEL_WORDS = {"lead": "Lead maintainer", "core": "Core maintainer"}
# event predicates of announcements: the words before the event
EVENT_WORDS = {
    "speaker": "Speaker at",
    "program_chair": "Program chair of",
    "participant": "Participant in",
    "keynote": "Keynote at",
    "organizer": "Organiser of",
    "panelist": "Panelist at",
}
# what a `changed` change says it was: the qualifiers an editor compares
CHANGED_KEYS = ("status", "level", "scope", "section", "role")


def _q(claim: Mapping[str, Any]) -> Mapping[str, Any]:
    q = claim.get("qualifiers")
    return q if isinstance(q, Mapping) else {}


def _text(value: Any) -> str:
    return show_value(value).strip()


def _maintainer(obj: str, q: Mapping[str, Any]) -> str:
    role = _text(q.get("role"))
    level = _text(q.get("level"))
    if role:
        head = f"{role[:1].upper()}{role[1:]} of {obj}"
    else:
        head = f"{LEVEL_WORDS.get(level, 'Maintainer')} of {obj}"
    where = _text(q.get("scope")) or (
        "" if level in LEVEL_WORDS else _text(q.get("section") or q.get("group"))
    )
    if where and where != obj:
        head += f" ({where})"
    if _text(q.get("status")) == "emeritus":
        head += ", emeritus"
    return head


def _affiliation(obj: str, q: Mapping[str, Any]) -> str:
    works = q.get("works")
    listed = [str(w) for w in works] if isinstance(works, list) else []
    work = _text(q.get("work")) or (listed[0] if listed else "")
    more = len([w for w in listed if w != work])
    text = f"Affiliated with {obj}"
    if work:
        text += f" (printed on {work}" + (f" and {more} more" if more else "") + ")"
    return text


def _author(obj: str, q: Mapping[str, Any]) -> str:
    title = _text(q.get("title"))
    return f"Author of {obj}" + (f" '{title}'" if title else "")


def _event(predicate: str, obj: str, q: Mapping[str, Any]) -> str:
    words = EVENT_WORDS.get(predicate) or predicate.replace("_", " ").capitalize() + " at"
    text = f"{words} {obj}"
    session = _text(q.get("session"))
    if session:
        text += f": {session}"
    date = _text(q.get("date") or q.get("since"))
    return text + (f" ({date})" if date else "")


def sentence(claim: Mapping[str, Any] | None) -> str:
    """One claim (extracted or a profile's) as a sentence."""
    if not claim:
        return "(no statement)"
    predicate = str(claim.get("predicate") or "?")
    obj = _text(claim.get("object")) or "?"
    q = _q(claim)
    if predicate == "maintainer":
        return _maintainer(obj, q)
    if predicate == "affiliation":
        return _affiliation(obj, q)
    if predicate == "author_of":
        return _author(obj, q)
    if predicate in EVENT_WORDS or "date" in q or "session" in q:
        return _event(predicate, obj, q)
    return f"{predicate.replace('_', ' ').capitalize()}: {obj}"


def change_sentence(change: Mapping[str, Any]) -> str:
    """A change's statement: what it adds, what it removes, or what it changes (and from what)."""
    claim = change.get("claim") or None
    previous = change.get("previous") or None
    kind = change.get("kind")
    if kind == "removed":
        return sentence(previous or claim)
    text = sentence(claim or previous)
    if kind == "changed" and claim and previous:
        q, pq = _q(claim), _q(previous)
        was = [
            f"{label(k)} {_text(pq.get(k)) or 'none'}"
            for k in CHANGED_KEYS
            if _text(pq.get(k)) != _text(q.get(k))
        ]
        if was:
            text += f" (was: {'; '.join(was)})"
    return text


def notation(change: Mapping[str, Any]) -> str:
    """The raw notation of a change's claim: `predicate object (level ..., listed under ...)`;
    for a `changed` one the qualifiers that moved (`status: current -> emeritus`)."""
    claim = change.get("claim") or change.get("previous") or {}
    q = _q(claim)
    detail = ", ".join(
        f"{label(k)} {show_value(q[k])}" for k in ("level", "section", "status") if k in q
    )
    text = f"{claim.get('predicate', '?')} {claim.get('object', '?')}"
    if change.get("kind") == "changed" and change.get("previous"):
        pq = _q(change["previous"])
        moved = [
            f"{label(k)}: {show_value(pq.get(k))} -> {show_value(q.get(k))}"
            for k in sorted(set(pq) | set(q))
            if pq.get(k) != q.get(k) and k in ("status", "section", "scope", "level")
        ]
        return f"{text} ({'; '.join(moved)})"
    return f"{text} ({detail})" if detail else text


def person(profile: str | None, names: Mapping[str, str] | None = None) -> str:
    """The display name of a profile id (the profile's `name`), else the id itself."""
    if not profile:
        return ""
    return (names or {}).get(profile) or profile
