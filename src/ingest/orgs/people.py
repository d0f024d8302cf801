"""Where they work: the wiki's people per organisation, from their profiles' affiliations.

An affiliation claim names its organisation by `qualifiers.org.ror` when an editor accepted a
resolved claim; otherwise its printed `object` (or `affiliation_text`) is resolved here. A
person's affiliations with the latest date (or none dated) are `current`; earlier ones, and
ones that ended (`until`, status `former`), are `past`. Organisations the registry lacks are
listed by their folded printed name (`name:<folded>`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.facts import is_history
from ingest.models import Profile, ProfileClaim
from ingest.orgs.text import fold

ROR_URL = "https://ror.org/"


@dataclass(frozen=True)
class Person:
    profile: str
    name: str
    when: str  # current, past
    printed: str


@dataclass
class OrgPeople:
    key: str  # a ROR id, or name:<folded printed name>
    name: str
    people: list[Person] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"org": self.key, "name": self.name, "people": [p.__dict__ for p in self.people]}


def org_of(claim: ProfileClaim) -> dict[str, str] | None:
    """The organisation a profile's affiliation claim already names (`qualifiers.org`)."""
    value = claim.qualifiers.get("org")
    if isinstance(value, dict) and isinstance(value.get("ror"), str) and value["ror"]:
        return {"ror": str(value["ror"]), "name": str(value.get("name") or "")}
    return None


def wanted_org(text: str, dump: Path | None = None) -> str:
    """A ROR id as given (`05ct4s596`, `https://ror.org/05ct4s596`), else the name resolved."""
    bare = text.strip().removeprefix(ROR_URL)
    if len(bare) == 9 and bare.isalnum() and bare.startswith("0"):
        return bare
    from ingest.orgs.model import Resolver

    found = Resolver.load(dump).match(text)
    return found.org.id if found.org else f"name:{fold(text)}"


def people_by_org(folder: Path, dump: Path | None = None) -> list[OrgPeople]:
    from ingest.profiles.io import load_profiles

    profiles = load_profiles(folder)
    resolver = None
    out: dict[str, OrgPeople] = {}
    for profile in sorted(profiles.values(), key=lambda p: p.id):
        affs = [c for c in profile.claims if c.predicate == "affiliation"]
        latest = max((str(c.qualifiers.get("date") or "") for c in affs), default="")
        for claim in affs:
            printed = claim.object or str(claim.qualifiers.get("affiliation_text") or "")
            org = org_of(claim)
            if org is None:
                if resolver is None:
                    from ingest.orgs.model import Resolver

                    resolver = Resolver.load(dump)
                found = resolver.match(printed)
                org = (
                    {"ror": found.org.id, "name": found.org.name}
                    if found.org
                    else {"ror": f"name:{fold(printed)}", "name": printed}
                )
            date = str(claim.qualifiers.get("date") or "")
            past = is_history(claim.qualifiers) or (bool(date) and date < latest)
            entry = out.setdefault(org["ror"], OrgPeople(org["ror"], org["name"] or printed))
            _add(entry, profile, "past" if past else "current", printed)
    return sorted(out.values(), key=lambda e: (-len(e.people), e.name))


def _add(entry: OrgPeople, profile: Profile, when: str, printed: str) -> None:
    for i, person in enumerate(entry.people):
        if person.profile == profile.id:
            if when == "current" and person.when == "past":
                entry.people[i] = Person(profile.id, profile.name, when, printed)
            return
    entry.people.append(Person(profile.id, profile.name, when, printed))
