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
  `changed` flag rather than two;
- so does a person moving from one list of a project to another in the same role family
  (`facts.role_family`: "maintainer" in "Maintainers" -> "Emeritus Maintainers", "member" ->
  "emeritus member"), unless both statements name different areas (`scope`: a PyTorch module
  maintainer moving from Distributed to Sparse holds another role);
- a statement that differs only by its heading flags nothing when that heading was renamed: the
  page's history says so (`renames`), or the page no longer prints the old heading at all and lists
  the person in the same role, with the same status, under another one (stateless, so a re-run of
  the same page agrees);
- a statement that would be removed although its list is still printed on the page (its heading is
  in `page_text`, no claim was read under it, and it was not renamed) means the extractor could
  not read that list: `plan` returns a layout alert and no removals at all (`diff` keeps only the
  changes).
Change ids are stable hashes of what the change proposes, so the same change is queued once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ingest.diff.moves import PageHeadings, moved, only_renamed, renamed, unread_lists
from ingest.diff.moves import detect_renames as detect_renames
from ingest.facts import (
    differences,
    is_history,
    level_of,
    proposal_key,
    same_fact,
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
    # every claim the page gave (resolved or not): the headings it prints; default: `resolved`'s
    page_claims: list[Claim] | None = None
    page_text: str | None = None  # the document's text: are unread lists still printed?


@dataclass
class DiffPlan:
    """What a diff proposes, and the layout alerts it found (lists printed but not read)."""

    changes: list[Change]
    alerts: list[str] = field(default_factory=list)


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
    return plan(inp).changes


def plan(inp: DiffInput) -> DiffPlan:
    """The changes, and the alerts that turned removals off (see the module docstring)."""
    page = PageHeadings(
        sections={
            (fold(c.object), fold(str(c.qualifiers.get("section") or "")))
            for c in (inp.page_claims if inp.page_claims is not None else _claims(inp))
        },
        renames={fold(old): new for old, new in inp.renames.items()},
    )
    changes, removable = _diff_all(inp, page)
    unread = unread_lists(removable, page, inp.page_text) if inp.allow_removals else []
    if not unread:
        return DiffPlan(changes)
    changes, _ = _diff_all(replace(inp, allow_removals=False), page)
    alerts = [
        f"layout: '{inp.source.url}' still prints the list '{section}' but no one was read "
        "from it; no removals flagged"
        for section in unread
    ]
    return DiffPlan(changes, alerts)


def _claims(inp: DiffInput) -> list[Claim]:
    return [c for _pid, c in inp.resolved]


def _diff_all(inp: DiffInput, page: PageHeadings) -> tuple[list[Change], list[ProfileClaim]]:
    by_profile: dict[str, list[Claim]] = defaultdict(list)
    for pid, claim in inp.resolved:
        by_profile[pid].append(claim)
    urls = {inp.source.url}
    changes: list[Change] = []
    removable: list[ProfileClaim] = []
    for pid in sorted(inp.profiles):
        profile = inp.profiles[pid]
        found, gone = _diff_profile(profile, _dedupe(by_profile.get(pid, [])), inp, urls, page)
        changes.extend(found)
        removable.extend(gone)
    return changes, removable


def _diff_profile(
    profile: Profile, cands: list[Claim], inp: DiffInput, urls: set[str], page: PageHeadings
) -> tuple[list[Change], list[ProfileClaim]]:
    """The profile's changes, and the statements flagged (or, unguarded, due) for removal."""

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
    # the same statement first, so a looser match cannot take another claim's statement
    left: list[Claim] = []
    for cand in cands:
        exact = next((p for p in unmatched_prev if _same(p, cand) and not _diffs(p, cand)), None)
        if exact is None:
            left.append(cand)
        else:
            unmatched_prev.remove(exact)
    # then the same fact said differently (best area/section/status agreement first)
    unmatched_cands: list[Claim] = []
    for cand in left:
        match = _best_match(cand, unmatched_prev)
        if match is None:
            unmatched_cands.append(cand)
            continue
        unmatched_prev.remove(match)
        if _diffs(match, cand) and not only_renamed(match, cand, page):
            out.append(make("changed", cand, match))
    removable = [
        p
        for p in unmatched_prev
        if _in_scope(p, profile, inp.source, urls)
        and not _implied(p, cands)
        and not _newer(p, inp.document_date)
    ]
    for cand in unmatched_cands:
        paired = next(
            (p for p in removable if renamed(p, cand, inp.renames) or moved(p, cand)), None
        )
        if paired is not None and only_renamed(paired, cand, page):
            removable.remove(paired)  # the same statement under its heading's new name
        elif paired is not None and inp.allow_removals:
            removable.remove(paired)
            out.append(make("changed", cand, paired))
        else:
            out.append(make("added", cand, None))
    if inp.allow_removals:
        for prev in removable:
            out.append(make("removed", None, prev, _removal_claim(profile, prev, inp)))
    for change in out:
        if change.kind == "removed":
            change.id = change_id(profile.id, "removed", None, _prev_of(change))
    return out, removable


def _same(prev: ProfileClaim, cand: Claim) -> bool:
    return prev.predicate == cand.predicate and same_fact(
        prev.predicate, prev.object, prev.qualifiers, cand.predicate, cand.object, cand.qualifiers
    )


def _diffs(prev: ProfileClaim, cand: Claim) -> list[str]:
    return differences(cand.predicate, prev.qualifiers, cand.qualifiers)


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
