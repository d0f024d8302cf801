"""Affiliation claims with their organisation resolved: `qualifiers.org`.

The pipeline calls this after extraction and before the diff (extractors stay pure, and their
goldens byte-identical): every affiliation claim whose printed organisation resolves gets
`qualifiers.org = {"ror": ..., "name": ...}` (and `parents`, the ROR ids of the organisations it
is part of, when it has any), and so do the profiles' affiliation claims, in memory only, for
the diff to compare organisations by id.
"""

from __future__ import annotations

from typing import Any, Protocol

from ingest.models import Claim, Profile, ProfileClaim
from ingest.orgs.model import OrgMatch

PREDICATE = "affiliation"


class Matcher(Protocol):
    def match(self, text: str) -> OrgMatch: ...


def org_qualifier(found: OrgMatch) -> dict[str, Any] | None:
    if found.org is None:
        return None
    out: dict[str, Any] = {"ror": found.org.id, "name": found.org.name}
    if found.org.parents:
        out["parents"] = list(found.org.parents)
    return out


def _resolved(obj: str, qualifiers: dict[str, Any], matcher: Matcher) -> dict[str, Any] | None:
    if isinstance(qualifiers.get("org"), dict):
        return None  # already says (an editor's, or an earlier run's)
    return org_qualifier(matcher.match(obj)) if obj.strip() else None


def with_orgs(claims: list[Claim], matcher: Matcher) -> list[Claim]:
    """The claims, each affiliation with `qualifiers.org` when its organisation resolves."""
    out = []
    for claim in claims:
        org = (
            _resolved(claim.object, claim.qualifiers, matcher)
            if claim.predicate == PREDICATE
            else None
        )
        if org is not None:
            claim = claim.model_copy(update={"qualifiers": {**claim.qualifiers, "org": org}})
        out.append(claim)
    return out


def profiles_with_orgs(profiles: dict[str, Profile], matcher: Matcher) -> dict[str, Profile]:
    """Copies of the profiles whose affiliation claims name their organisation (not written)."""
    out: dict[str, Profile] = {}
    for pid, profile in profiles.items():
        claims: list[ProfileClaim] = []
        changed = False
        for claim in profile.claims:
            org = (
                _resolved(claim.object, claim.qualifiers, matcher)
                if claim.predicate == PREDICATE
                else None
            )
            if org is not None:
                claim = claim.model_copy(update={"qualifiers": {**claim.qualifiers, "org": org}})
                changed = True
            claims.append(claim)
        out[pid] = profile.model_copy(update={"claims": claims}) if changed else profile
    return out
