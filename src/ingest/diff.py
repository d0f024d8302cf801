"""Compare what a source states with the current profiles: pure, no I/O, no clock.

For one source and one snapshot:
- a claim about a profiled person that matches no profile statement is `added`;
- a claim matching a statement that says it differently (current -> emeritus, a renamed heading)
  is `changed`;
- a profile statement the source is authoritative for (its `predicate:object` is in the source's
  `authoritative` list) or that cites the source's URL, and that the source no longer states, is
  `removed`, unless the caller turned removals off (the layout guard);
- an added claim and a removed statement of the same person at the same level whose headings look
  like one renamed (`renames` from the page's own history, or similar wording) become one
  `changed` flag rather than two.
Change ids are stable hashes of what the change proposes, so the same change is queued once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ingest.facts import (
    areas,
    differences,
    identity,
    is_history,
    level_of,
    proposal_key,
    same_fact,
    same_level,
    similar_area,
)
from ingest.models import (
    Change,
    Claim,
    Evidence,
    Profile,
    ProfileClaim,
    Source,
    Subject,
    stable_hash,
)
from ingest.names import fold


@dataclass
class DiffInput:
    source: Source
    snapshot_sha256: str
    resolved: list[tuple[str, Claim]]  # (profile id, claim)
    profiles: dict[str, Profile]
    allow_removals: bool = True
    renames: dict[str, str] = field(default_factory=dict)  # old section -> new section
    extractor: str = ""
    now: str = ""
    document_date: str | None = None  # when the document was last changed, if it says (ISO)


def evidence_key(change: Change) -> str:
    """What the change rests on: a rejected change is proposed again only when this differs."""
    if change.kind == "removed" or not change.claim:
        return "absent"
    quote = change.claim.get("evidence", {}).get("quote", "")
    return fold(quote)


def _cites(claim: ProfileClaim, profile: Profile, urls: set[str]) -> bool:
    refs = {r.id: r for r in profile.references}
    return any(refs[r].url in urls for r in claim.refs if r in refs and refs[r].url)


def _in_scope(claim: ProfileClaim, profile: Profile, source: Source, urls: set[str]) -> bool:
    if is_history(claim.qualifiers):
        return False
    authoritative = {fold(a) for a in source.authoritative}
    if fold(f"{claim.predicate}:{claim.object}") in authoritative:
        return True
    return _cites(claim, profile, urls)


def _claim_json(claim: Claim) -> dict[str, Any]:
    return claim.to_json()


def _renamed(prev: ProfileClaim, cand: Claim, renames: dict[str, str]) -> bool:
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


def _removal_claim(profile: Profile, prev: ProfileClaim, inp: DiffInput) -> dict[str, Any]:
    claim = Claim(
        subject=Subject(name=profile.name, **_accounts(profile)),
        predicate=prev.predicate,
        object=prev.object,
        qualifiers=dict(prev.qualifiers),
        evidence=Evidence(
            url=inp.source.url,
            sha256=inp.snapshot_sha256,
            locator="not stated anywhere in the document",
            quote="",
        ),
        extractor=inp.extractor,
    )
    return claim.to_json()


def _accounts(profile: Profile) -> dict[str, str]:
    return {k: v for k, v in profile.accounts.items() if k in ("github", "orcid", "email")}


def _dedupe(claims: Iterable[Claim]) -> list[Claim]:
    seen: set[str] = set()
    out = []
    for claim in claims:
        key = stable_hash(claim.predicate, fold(claim.object), claim.qualifiers)
        if key not in seen:
            seen.add(key)
            out.append(claim)
    return out


def change_id(profile_id: str, kind: str, claim: Claim | None, prev: ProfileClaim | None) -> str:
    """The same proposal gets the same id whichever source or run makes it: the fact's identity
    and the qualifiers that make a difference, not descriptive ones (title, position, quote)."""
    proposed = (
        None if claim is None else proposal_key(claim.predicate, claim.object, claim.qualifiers)
    )
    previous = (
        None
        if prev is None
        else [prev.id, proposal_key(prev.predicate, prev.object, prev.qualifiers)]
    )
    return stable_hash(profile_id, kind, proposed, previous)


def diff(inp: DiffInput) -> list[Change]:
    by_profile: dict[str, list[Claim]] = defaultdict(list)
    for pid, claim in inp.resolved:
        by_profile[pid].append(claim)
    urls = {inp.source.url}
    changes: list[Change] = []
    for pid in sorted(inp.profiles):
        profile = inp.profiles[pid]
        changes.extend(_diff_profile(profile, _dedupe(by_profile.get(pid, [])), inp, urls))
    return changes


def _diff_profile(
    profile: Profile, cands: list[Claim], inp: DiffInput, urls: set[str]
) -> list[Change]:
    def make(
        kind: str,
        claim: Claim | None,
        prev: ProfileClaim | None,
        claim_json: dict[str, Any] | None = None,
    ) -> Change:
        return Change(
            id=change_id(profile.id, kind, claim, prev),
            profile=profile.id,
            kind=kind,  # type: ignore[arg-type]
            claim=claim_json if claim_json is not None else (_claim_json(claim) if claim else None),
            previous=prev.to_json() if prev else None,
            source_url=inp.source.url,
            created=inp.now or "",
        )

    out: list[Change] = []
    unmatched_prev = list(profile.claims)
    unmatched_cands: list[Claim] = []
    # exact area/section matches first, then looser ones, so each statement pairs once
    for cand in cands:
        match = _best_match(cand, unmatched_prev)
        if match is None:
            unmatched_cands.append(cand)
            continue
        unmatched_prev.remove(match)
        if differences(cand.predicate, match.qualifiers, cand.qualifiers):
            out.append(make("changed", cand, match))
    removable = [
        p
        for p in unmatched_prev
        if _in_scope(p, profile, inp.source, urls)
        and not _implied(p, cands)
        and not _newer(p, inp.document_date)
    ]
    for cand in unmatched_cands:
        renamed = next((p for p in removable if _renamed(p, cand, inp.renames)), None)
        if renamed is not None and inp.allow_removals:
            removable.remove(renamed)
            out.append(make("changed", cand, renamed))
        else:
            out.append(make("added", cand, None))
    if inp.allow_removals:
        for prev in removable:
            out.append(make("removed", None, prev, _removal_claim(profile, prev, inp)))
    for change in out:
        if change.kind == "removed":
            change.id = change_id(profile.id, "removed", None, _prev_of(change))
    return out


def _implied(prev: ProfileClaim, cands: list[Claim]) -> bool:
    """A dated core membership (from an announcement: `since`) still holds while the page lists
    the person as the lead core maintainer, who is one of the core maintainers."""
    q = prev.qualifiers
    if prev.predicate != "maintainer" or level_of(q) != "core" or not q.get("since"):
        return False
    return any(
        c.predicate == "maintainer"
        and fold(c.object) == fold(prev.object)
        and level_of(c.qualifiers) == "lead"
        and c.qualifiers.get("status") == "current"
        for c in cands
    )


def _newer(prev: ProfileClaim, document_date: str | None) -> bool:
    """A role dated after the document was last changed (an announcement that came first)
    cannot be removed by that document."""
    since = prev.qualifiers.get("since")
    return bool(document_date and isinstance(since, str) and since[:10] > document_date[:10])


def _prev_of(change: Change) -> ProfileClaim | None:
    return ProfileClaim.model_validate(change.previous) if change.previous else None


def _best_match(cand: Claim, pool: list[ProfileClaim]) -> ProfileClaim | None:
    hits = [
        p
        for p in pool
        if p.predicate == cand.predicate
        and same_fact(
            p.predicate, p.object, p.qualifiers, cand.predicate, cand.object, cand.qualifiers
        )
    ]
    if not hits:
        return None

    # prefer a statement that agrees on the section as printed, then on status
    def score(p: ProfileClaim) -> tuple[int, int]:
        q = p.qualifiers
        return (
            int(q.get("section") == cand.qualifiers.get("section")),
            int(q.get("status") == cand.qualifiers.get("status")),
        )

    return max(hits, key=score)


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
