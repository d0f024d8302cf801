"""What makes two statements the same fact, for any predicate.

A profile written by an editor may give a maintainer role's `scope` without its `section`, or the
other way round ("torch.optim", "Optimizers (torch.optim)", "CUDA", "NestedTensor"): `areas` turns
either into the set of names the role is known by, and two roles match when those sets meet.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.names import fold

_PAREN = re.compile(r"^(?P<name>.*?)\s*\((?P<inner>[^()]*)\)\s*$")
# qualifiers whose difference makes a `changed` flag, per predicate (others are descriptive)
COMPARED: dict[str, tuple[str, ...]] = {
    "maintainer": ("status", "section", "role"),
    "affiliation": (),  # the printed line is evidence, not the fact: org + work + person
    "author_of": (),
}
# words that do not tell two organisations apart ("University of Oxford" = "Oxford University")
ORG_NOISE = frozenset(
    {
        "of",
        "the",
        "at",
        "and",
        "inc",
        "corp",
        "corporation",
        "ltd",
        "llc",
        "co",
        "gmbh",
        "sa",
        "plc",
    }
)
_VERSION = re.compile(r"v\d+$")
_DOI_PREFIX = re.compile(r"^(https?://(dx\.)?doi\.org/|doi:)", re.IGNORECASE)
DEFAULT_COMPARED = ("status",)
# predicates whose object must match exactly (after normalising); others match by words
STATE_PREDICATES = frozenset({"maintainer", "affiliation", "author_of", "position", "reference"})


def areas(qualifiers: dict[str, Any]) -> set[str]:
    """Folded names of the module or library a role covers, from its scope and section."""
    out: set[str] = set()
    for key in ("scope", "section"):
        value = qualifiers.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        out.add(fold(value))
        match = _PAREN.match(value)
        if match:
            out.add(fold(match.group("name")))
            out.add(fold(match.group("inner")))
    out.discard("")
    return out


def level_of(qualifiers: dict[str, Any]) -> str | None:
    """The role's level, or the one its heading implies when an editor left it out."""
    level = qualifiers.get("level")
    if isinstance(level, str) and level:
        return level
    section = fold(str(qualifiers.get("section") or ""))
    if section.startswith("lead"):
        return "lead"
    if section in ("core maintainers", "core maintainer"):
        return "core"
    return None


def _is_area_level(qualifiers: dict[str, Any]) -> bool:
    return level_of(qualifiers) not in ("lead", "core")


def work_key(work: str) -> str:
    """One spelling per paper: 'arXiv:1912.01703v2', '1912.01703' and the abs URL agree."""
    text = work.strip()
    if not text:
        return ""
    if _DOI_PREFIX.match(text) or text.startswith("10."):
        return "doi:" + _DOI_PREFIX.sub("", text).lower()
    text = re.sub(
        r"^(https?://(export\.)?arxiv\.org/(abs|pdf)/|arxiv:)", "", text, flags=re.IGNORECASE
    )
    text = text.removesuffix(".pdf")
    return "arxiv:" + _VERSION.sub("", text.lower())


def org_tokens(text: str) -> frozenset[str]:
    return frozenset(t for t in fold(text).split() if t not in ORG_NOISE)


def same_org(profile_org: str, claim_org: str, claim_text: str = "") -> bool:
    """The same organisation, up to word order, case, accents and legal suffixes; a profile's
    short form also matches when every word of it is printed in the claim's affiliation line."""
    a, b = org_tokens(profile_org), org_tokens(claim_org)
    if a and a == b:
        return True
    return bool(a) and a <= org_tokens(claim_text or claim_org)


def ror_of(qualifiers: dict[str, Any]) -> tuple[str, frozenset[str]] | None:
    """The organisation an affiliation was resolved to (`qualifiers.org`, ingest.orgs): its ROR
    id and its parents' ids, or None when unresolved."""
    org = qualifiers.get("org")
    if not isinstance(org, dict) or not isinstance(org.get("ror"), str) or not org["ror"]:
        return None
    parents = org.get("parents")
    return org["ror"], frozenset(str(p) for p in parents) if isinstance(
        parents, list
    ) else frozenset()


def same_org_id(a_q: dict[str, Any], b_q: dict[str, Any]) -> bool | None:
    """Two resolved affiliations name the same organisation: the same ROR id, or one is a unit
    of the other (its parent named: "same organisation, finer unit"). None when either side is
    unresolved (then the printed words decide)."""
    a, b = ror_of(a_q), ror_of(b_q)
    if a is None or b is None:
        return None
    return a[0] == b[0] or a[0] in b[1] or b[0] in a[1]


def org_key(obj: str, qualifiers: dict[str, Any]) -> list[str]:
    """What names an affiliation's organisation: its ROR id when resolved, else its words."""
    found = ror_of(qualifiers)
    return ["ror:" + found[0]] if found else sorted(org_tokens(obj))


def identity(predicate: str, obj: str, qualifiers: dict[str, Any]) -> tuple[str, ...]:
    """A coarse key: statements with different keys are never the same fact."""
    if predicate == "maintainer":
        return (predicate, fold(obj), fold(str(qualifiers.get("role") or "")))
    if predicate == "affiliation":
        return (predicate, work_key(str(qualifiers.get("work") or "")))
    if predicate == "author_of":
        return (predicate, work_key(obj))
    return (predicate, fold(obj))


def works(qualifiers: dict[str, Any]) -> set[str]:
    """The papers an affiliation was printed on: its `work`, and the `works` of a claim accepted
    from several papers as one fact (ingest.review.apply.apply_fact)."""
    found = {work_key(str(qualifiers.get("work") or ""))}
    more = qualifiers.get("works")
    if isinstance(more, list):
        found |= {work_key(str(w)) for w in more if w}
    return found


def same_level(a_q: dict[str, Any], b_q: dict[str, Any]) -> bool:
    a, b = level_of(a_q), level_of(b_q)
    return a is None or b is None or a == b


def same_fact(
    a_pred: str, a_obj: str, a_q: dict[str, Any], b_pred: str, b_obj: str, b_q: dict[str, Any]
) -> bool:
    if a_pred == b_pred and a_pred not in STATE_PREDICATES:
        # events and other statements: "GTC 2026" and "NVIDIA GTC 2026" are one event
        ta, tb = org_tokens(a_obj), org_tokens(b_obj)
        return bool(ta and tb) and (ta <= tb or tb <= ta)
    if a_pred == b_pred == "affiliation":
        # one claim may stand for the affiliation printed on several papers (`works`, written
        # when an editor accepts it from all of them at once): any paper in common will do
        if not works(a_q) & works(b_q):
            return False
    elif identity(a_pred, a_obj, a_q) != identity(b_pred, b_obj, b_q):
        return False
    if a_pred == "maintainer":
        if not same_level(a_q, b_q):
            return False
        if _is_area_level(a_q) or _is_area_level(b_q):
            return bool(areas(a_q) & areas(b_q))
    if a_pred == "affiliation":
        by_id = same_org_id(a_q, b_q)
        if by_id is not None:
            return by_id
        return same_org(a_obj, b_obj, str(b_q.get("affiliation_text") or "")) or same_org(
            b_obj, a_obj, str(a_q.get("affiliation_text") or "")
        )
    return True


def differences(predicate: str, profile_q: dict[str, Any], claim_q: dict[str, Any]) -> list[str]:
    """Qualifiers the profile states differently from the claim.

    A qualifier the profile leaves out is no difference, except an `emeritus` status: a profile
    that says nothing of status means a current role. A maintainer role's `scope` differs when
    neither scope names an area of the other statement ("Library team" -> "Launching pad"; not
    "NestedTensor" against the heading "NestedTensor (torch.nested)").
    """
    keys = COMPARED.get(predicate, DEFAULT_COMPARED)
    diffs = {k for k in keys if k in profile_q and k in claim_q and profile_q[k] != claim_q[k]}
    if "status" not in profile_q and claim_q.get("status") == "emeritus":
        diffs.add("status")
    if predicate == "maintainer" and _scopes_differ(profile_q, claim_q):
        diffs.add("scope")
    return sorted(diffs)


def _scopes_differ(a_q: dict[str, Any], b_q: dict[str, Any]) -> bool:
    a, b = a_q.get("scope"), b_q.get("scope")
    if not isinstance(a, str) or not isinstance(b, str) or not a.strip() or not b.strip():
        return False
    return fold(a) not in areas(b_q) and fold(b) not in areas(a_q)


# words of a role that say when, not what: "emeritus maintainer" is the maintainer role, past
STATUS_WORDS = frozenset(
    {
        "emeritus",
        "emerita",
        "emeriti",
        "former",
        "past",
        "retired",
        "inactive",
        "alumni",
        "alumnus",
        "alumna",
        "active",
        "current",
        "currently",
    }
)


def role_family(qualifiers: dict[str, Any]) -> str:
    """The role a statement is about, whatever its status and title: "Releases WG member; chair"
    and "emeritus Releases WG member" are both "releases wg member"."""
    role = str(qualifiers.get("role") or "").split(";")[0]
    return " ".join(w for w in fold(role).split() if w not in STATUS_WORDS)


def similar_area(a_q: dict[str, Any], b_q: dict[str, Any]) -> bool:
    """Two headings that look like one renamed (shared words, or one extends the other)."""
    a_words = {w for area in areas(a_q) for w in area.split()}
    b_words = {w for area in areas(b_q) for w in area.split()}
    if not a_words or not b_words:
        return False
    for x in areas(a_q):
        for y in areas(b_q):
            if x and y and (x.startswith(y) or y.startswith(x)):
                return True
    return len(a_words & b_words) / len(a_words | b_words) >= 0.5


def proposal_key(predicate: str, obj: str, qualifiers: dict[str, Any]) -> list[Any]:
    """What a proposal says, in a form two sources stating the same thing share."""
    key: list[Any] = list(identity(predicate, obj, qualifiers))
    if predicate == "maintainer":
        key += [level_of(qualifiers), sorted(areas(qualifiers))]
    elif predicate == "affiliation":
        key.append(org_key(obj, qualifiers))
    key += [[k, qualifiers.get(k)] for k in COMPARED.get(predicate, DEFAULT_COMPARED)]
    return key


def is_history(qualifiers: dict[str, Any]) -> bool:
    """A role that ended (`until`, an announcement's `event: left`, or a profile's status
    former) is history: no page removes it. A page's emeritus listing is not: it is current."""
    return (
        bool(qualifiers.get("until"))
        or qualifiers.get("event") == "left"
        or qualifiers.get("status") == "former"
    )


def statement_key(predicate: str, obj: str, qualifiers: dict[str, Any]) -> tuple[Any, ...]:
    """Everything a statement says, in one comparable value: for a role, its project, level,
    heading as printed, scope, status (a role without one is current) and the page's own word
    for it; for other statements, what `proposal_key` compares. Two statements with the same key
    say the same thing; the convergence check (DESIGN: after accepting every flag from a run of
    V, the profile states exactly what V states) compares these."""
    if predicate == "maintainer":
        q = qualifiers
        return (
            predicate,
            fold(obj),
            level_of(q) or "",
            fold(str(q.get("section") or "")),
            fold(str(q.get("scope") or "")),
            str(q.get("status") or "current"),
            fold(str(q.get("role") or "")),
        )
    return (predicate, repr(proposal_key(predicate, obj, qualifiers)))
