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
- a statement that differs only by its heading, the heading renamed, is one `changed` flag too
  (issue 21: it used to flag nothing, and the profile kept the old heading for ever);
- a statement that would be removed although its list is still printed on the page (its heading is
  in `page_text`, no claim was read under it, and it was not renamed) means the extractor could
  not read that list: `plan` returns a layout alert and no removals at all (`diff` keeps only the
  changes).

The invariant every plan keeps, checked before anything is proposed (`converges`): accepting
every flag leaves the profile stating exactly the page's claims for that person (each once, the
same fact with no qualifier different) and nothing else the source is authoritative for or
cited by. Pairing (rename, move) only decides how differences are presented, one `changed`
instead of `removed` + `added`; a pairing that would break the invariant is dropped for that
profile, and the plain diff (exact matches, same-fact `changed`, the rest added/removed) is
proposed instead. Under the layout guard (no removals) the invariant is not claimed: the run says
so in its alerts, every time.
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

    def make(kind: str, claim: Claim | None, prev: ProfileClaim | None) -> Change:
        claim_json: dict[str, Any] | None
        if kind == "removed" and prev is not None:
            claim_json = _removal_claim(profile, prev, inp)
        else:
            claim_json = _claim_json(claim) if claim else None
        return Change(
            id=change_id(profile.id, kind, claim, prev),
            profile=profile.id,
            kind=kind,  # type: ignore[arg-type]
            claim=claim_json,
            previous=prev.to_json() if prev else None,
            source_url=inp.source.url,
            created=inp.now or "",
        )

    out, removable = _propose(profile, cands, inp, urls, page, pair=True)
    if inp.allow_removals and not converges(profile, cands, out, inp, urls):
        # a pairing the page cannot prove (one statement taken for another): the plain diff,
        # whose every flag accepted leaves the profile stating exactly what the page states
        out, removable = _propose(profile, cands, inp, urls, page, pair=False)
    return [make(kind, cand, prev) for kind, cand, prev in out], removable


Proposal = tuple[str, Claim | None, ProfileClaim | None]  # (kind, candidate, profile statement)


def _propose(
    profile: Profile,
    cands: list[Claim],
    inp: DiffInput,
    urls: set[str],
    page: PageHeadings,
    *,
    pair: bool,
) -> tuple[list[Proposal], list[ProfileClaim]]:
    """What to flag for one profile: `changed` for the same fact said differently, and, with
    `pair`, for a statement the page renamed or moved (one flag instead of removed + added);
    `added` and `removed` for the rest. Every proposal, accepted, makes the profile state the
    candidate: a renamed heading is a `changed` flag (the profile takes the new heading), never
    silence."""
    out: list[Proposal] = []
    unmatched_prev = list(profile.claims)
    # the same statement first, so a looser match cannot take another claim's statement
    left: list[Claim] = []
    for cand in cands:
        exact = next((p for p in unmatched_prev if same_statement(p, cand)), None)
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
        if _diffs(match, cand):
            only_renamed(match, cand, page)  # notes a renamed heading for the layout check
            out.append(("changed", cand, match))
    removable = [p for p in unmatched_prev if _removable(p, profile, inp, urls, cands)]
    for cand in unmatched_cands:
        paired = None
        if pair and inp.allow_removals:
            paired = next(
                (p for p in removable if renamed(p, cand, inp.renames) or moved(p, cand)), None
            )
        if paired is not None:
            only_renamed(paired, cand, page)
            removable.remove(paired)
            out.append(("changed", cand, paired))
        else:
            out.append(("added", cand, None))
    if inp.allow_removals:
        out.extend(("removed", None, prev) for prev in removable)
    return out, removable


def _removable(
    prev: ProfileClaim, profile: Profile, inp: DiffInput, urls: set[str], cands: list[Claim]
) -> bool:
    """A statement this source must state for the profile to keep it: in the source's scope,
    not implied by another of its claims, not dated after the document."""
    return (
        _in_scope(prev, profile, inp.source, urls)
        and not _implied(prev, cands)
        and not _newer(prev, inp.document_date)
    )


def converges(
    profile: Profile,
    cands: list[Claim],
    proposals: list[Proposal],
    inp: DiffInput,
    urls: set[str],
) -> bool:
    """DESIGN's invariant for one profile (pure): with every proposal accepted, the profile
    states each candidate once (the same fact, no qualifier different) and no other statement
    this source is authoritative for or that cites it."""
    touched = {id(prev) for _kind, _cand, prev in proposals if prev is not None}
    after: list[tuple[ProfileClaim, bool]] = [  # (statement, stated by this source now)
        (p, False) for p in profile.claims if id(p) not in touched
    ]
    for kind, cand, _prev in proposals:
        if kind != "removed" and cand is not None:
            stated = ProfileClaim(
                id="", predicate=cand.predicate, object=cand.object, qualifiers=cand.qualifiers
            )
            after.append((stated, True))
    for cand in cands:
        hit = next((i for i, (p, _) in enumerate(after) if same_statement(p, cand)), None)
        if hit is None:
            return False
        after.pop(hit)
    return not any(new or _removable(p, profile, inp, urls, cands) for p, new in after)


def same_statement(prev: ProfileClaim, cand: Claim) -> bool:
    """The profile statement says what the claim says: the same fact, no qualifier different
    (a statement an editor wrote with less, a scope without its heading, still says it)."""
    return _same(prev, cand) and not _diffs(prev, cand)


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
