"""An accepted change written into a profile: pure, Profile in, Profile out.

    apply_change(profile, change, ref_info, today)      one change: a claim added, updated or
                                                        removed, its source's reference added or
                                                        its `accessed` date moved on to the day
                                                        the evidence was seen (never back), with
                                                        the snapshot and quote accepted
    apply_fact(profile, group, ref_infos, today)        one fact: its leading change applied once,
                                                        every other source a reference of it (an
                                                        affiliation also lists, in `works`, every
                                                        paper it was printed on)

Both return a new Profile; with `in_place=True` they change and return the one given instead (a
caller that owns it: the profile it just read, or its own earlier result; a bulk accept applies
100 facts to one profile without copying it 100 times).

`ingest.review.decisions` reads the profile file and the store, and writes the result.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from ingest.models import Change, Profile, ProfileClaim, Reference


def _next_id(prefix: str, taken: list[str]) -> str:
    numbers = [
        int(t[len(prefix) :]) for t in taken if t.startswith(prefix) and t[len(prefix) :].isdigit()
    ]
    return f"{prefix}{max(numbers, default=0) + 1}"


def _ensure_reference(profile: Profile, info: dict[str, Any], today: date) -> str:
    """The id of the profile's reference to `info["url"]`, added if missing. `accessed` is the
    day the evidence was seen (`info["accessed"]`, the snapshot's evidence date; today only when
    the caller knows none), and never goes back: a reference seen later than this evidence keeps
    its date. The snapshot (`snapshot_sha256`, `snapshot_date`) and `quote` are the newest
    evidence accepted for it."""
    seen = str(info.get("accessed") or today.isoformat())
    ref = profile.reference_for(info["url"])
    if ref is None:
        ref = Reference(
            id=_next_id("r", [r.id for r in profile.references]),
            url=info["url"],
            title=info.get("title"),
            publisher=info.get("publisher"),
            kind=info.get("kind"),
            accessed=seen,
        )
        profile.references.append(ref)
    else:
        if not ref.accessed or seen > ref.accessed:
            ref.accessed = seen
        for key in ("title", "publisher", "kind"):
            if getattr(ref, key) is None and info.get(key):
                setattr(ref, key, info[key])
    day = info.get("snapshot_date")
    if info.get("snapshot_sha256") and (
        ref.snapshot_date is None or (day and day >= ref.snapshot_date)
    ):
        ref.snapshot_sha256 = info["snapshot_sha256"]
        ref.snapshot_date = day
        ref.quote = info.get("quote")
    return ref.id


def apply_change(
    profile: Profile,
    change: Change,
    ref_info: dict[str, Any],
    today: date,
    *,
    in_place: bool = False,
) -> Profile:
    """The profile with one accepted change applied (a new object; pure, unless `in_place`)."""
    if not in_place:
        profile = profile.model_copy(deep=True)
    claim = change.claim or {}
    prev_id = (change.previous or {}).get("id")
    if claim.get("predicate") == "reference":  # a cited source that stopped answering
        for ref in profile.references:
            if ref.id == (change.previous or {}).get("id") or ref.url == claim.get("object"):
                ref.status = "unreachable"  # type: ignore[attr-defined]
                ref.unreachable_since = today.isoformat()  # type: ignore[attr-defined]
    elif change.kind == "removed":
        profile.claims = [c for c in profile.claims if c.id != prev_id]
    else:
        ref_id = _ensure_reference(profile, ref_info, today)
        target = next((c for c in profile.claims if c.id == prev_id), None)
        if change.kind == "changed" and target is not None:
            target.object = claim["object"]
            target.qualifiers = dict(claim.get("qualifiers") or {})
            if ref_id not in target.refs:
                target.refs.append(ref_id)
        else:
            profile.claims.append(
                ProfileClaim(
                    id=_next_id("c", [c.id for c in profile.claims]),
                    predicate=claim["predicate"],
                    object=claim["object"],
                    qualifiers=dict(claim.get("qualifiers") or {}),
                    refs=[ref_id],
                )
            )
    profile.updated = today.isoformat()
    return profile


def apply_fact(
    profile: Profile,
    group: list[Change],
    ref_infos: list[dict[str, Any]],
    today: date,
    *,
    in_place: bool = False,
) -> Profile:
    """The profile with one fact accepted (pure, unless `in_place`): the leading change applied
    once, and every other source of the same fact added as a reference of that one claim."""
    lead = group[0]
    before_ids = {c.id for c in profile.claims}
    profile = apply_change(profile, lead, ref_infos[0], today, in_place=in_place)
    if lead.kind == "removed" or (lead.claim or {}).get("predicate") == "reference":
        return profile
    prev_id = (lead.previous or {}).get("id")
    target = next((c for c in profile.claims if c.id == prev_id), None)
    if target is None:
        target = next((c for c in profile.claims if c.id not in before_ids), None)
    if target is None:
        return profile
    for info in ref_infos[1:]:
        ref_id = _ensure_reference(profile, info, today)
        if ref_id not in target.refs:
            target.refs.append(ref_id)
    if target.predicate == "affiliation":
        # every paper it was printed on, so that each paper's next reading finds this claim
        printed = [target.qualifiers.get("work"), *(target.qualifiers.get("works") or [])]
        printed += [((c.claim or {}).get("qualifiers") or {}).get("work") for c in group]
        unique = list(dict.fromkeys(str(w) for w in printed if w))
        if len(unique) > 1:
            target.qualifiers = {**target.qualifiers, "works": unique}
    return profile
