"""Accept everything, and the profile says what the page says (issue 21): the harness.

`Walk` runs versions of one page through the one-off run's own steps (`registry.source_for`,
`flows.tasks.process_file`, under one URL), accepts every pending flag after each run as an
editor would (`ingest.review.decisions.decide`, one decision per fact), and checks DESIGN's
invariant ("Rules the diff keeps"):

- after accepting every flag from a run of version V, each tracked profile states exactly the
  facts `ingest extract` reads from V for that person. `strict`: the profile's statements that
  cite V's URL and the page's claims compared as `ingest.facts.statement_key` (every qualifier
  that is part of the fact: level, heading as printed, scope, status, role), for profiles the
  walk filled itself; otherwise (an editor's statements, a scope without its heading, an
  announcement's dated role) each page claim is stated by one profile statement
  (`same_statement`) and every statement citing V is one of the page's;
- a re-run of V flags nothing;
- the flags are the true differences: a `changed` flag stands for two differing statements
  (the old one and the new one), an `added` or `removed` flag for one; together they account for
  the symmetric difference of what the profile stated and what V states, each once.

A run under the contract's layout guard (a list printed but unread, far fewer people with no
list taken off the page) flags no removals; the walk then checks the run and its re-run both
say so (`guarded`), so a profile left behind is never silent.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import extractors
from flows.tasks import process_file
from ingest.diff.changes import same_statement
from ingest.diff.resolve import Resolver
from ingest.documents import snapshot_from_file
from ingest.facts import is_history, statement_key
from ingest.models import Claim, Profile, ProfileClaim
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import extract_claims, resolve_orgs
from ingest.pipeline.registry import load_registry, source_for
from ingest.profiles.io import load_profiles, write_profile
from ingest.review.decisions import decide
from ingest.settings import Settings
from ingest.storage import Store


def read_claims(url: str, path: Path, settings: Settings) -> list[Claim]:
    """What `ingest extract PATH --url URL` prints, with the organisations the pipeline
    resolves before the diff (`qualifiers.org`: affiliations are compared by ROR id)."""
    snapshot = snapshot_from_file(url, path, settings.max_bytes)
    _tag, extracted = extract_claims(snapshot, None, url, settings, extractors=extractors)
    claims, _profiles = resolve_orgs(settings, extracted.claims, {})
    return claims


def key_of(c: Claim | ProfileClaim) -> tuple[Any, ...]:
    return statement_key(c.predicate, c.object, c.qualifiers)


@dataclass
class Step:
    version: str
    flags: int  # facts decided (one decision per fact)
    mismatches: dict[str, Any] = field(default_factory=dict)
    rerun_flags: int = 0
    guarded: bool = False  # both runs carried a layout alert and flagged no removals
    accounting: dict[str, tuple[int, int]] = field(default_factory=dict)  # flags vs differences

    @property
    def converged(self) -> bool:
        return not self.mismatches and not self.rerun_flags and not self.accounting

    @property
    def holds(self) -> bool:
        """The invariant, or the layout guard saying on every run why it does not apply."""
        return self.converged or (self.guarded and not self.rerun_flags)


class Walk:
    def __init__(self, store: Store, settings: Settings, url: str, *, strict: bool = True) -> None:
        self.store, self.settings, self.url, self.strict = store, settings, url, strict

    def run(self, path: Path) -> SourceOutcome:
        source = source_for(
            self.url, load_registry(self.settings.sources_file), extractors=extractors
        )
        self.store.upsert_source(source)
        snapshot = snapshot_from_file(self.url, path, self.settings.max_bytes)
        profiles = load_profiles(self.settings.profiles_dir)
        return process_file.fn(self.store, self.settings, source, snapshot, profiles, None)

    def accept_all(self) -> int:
        """Accept every pending change, one decision per fact; the number of decisions."""
        decisions = 0
        while pending := self.store.list_changes(status="pending", limit=1):
            decide(self.store, self.settings.profiles_dir, pending[0].id, "accepted", "walk")
            decisions += 1
        return decisions

    def step(self, path: Path) -> Step:
        before = self.stated()
        outcome = self.run(path)
        flags = self.accept_all()
        page = self.page(path)
        again = self.run(path)
        pending = len(self.store.list_changes(status="pending"))
        guarded = all(
            any(a.startswith("layout") for a in o.alerts)
            and not any(c["kind"] == "removed" for c in o.changes)
            for o in (outcome, again)
        )
        return Step(
            path.name,
            flags,
            self.mismatches(page),
            rerun_flags=len(again.changes) + pending,
            guarded=guarded,
            accounting=self.accounting(outcome, before, page) if self.strict else {},
        )

    def page(self, path: Path) -> dict[str, list[Claim]]:
        """The claims `ingest extract` reads from the page, per tracked profile."""
        resolver = Resolver(load_profiles(self.settings.profiles_dir))
        out: dict[str, list[Claim]] = {}
        for claim in read_claims(self.url, path, self.settings):
            pid = resolver.resolve(claim.subject)
            if pid is not None:
                out.setdefault(pid, []).append(claim)
        return out

    def stated(self) -> dict[str, set[tuple[Any, ...]]]:
        return {
            pid: {key_of(c) for c in self._citing(profile)}
            for pid, profile in load_profiles(self.settings.profiles_dir).items()
        }

    def mismatches(self, page: dict[str, list[Claim]]) -> dict[str, Any]:
        """Per tracked profile: what the page states that the profile does not, and what the
        profile states from this source that the page does not."""
        out: dict[str, Any] = {}
        for pid, profile in load_profiles(self.settings.profiles_dir).items():
            claims = page.get(pid, [])
            if self.strict:
                held = {key_of(c) for c in self._citing(profile)}
                read = {key_of(c) for c in claims}
                if held != read:
                    out[pid] = (sorted(read - held), sorted(held - read))
                continue
            statements = list(profile.claims)
            missing = []
            for claim in claims:
                hit = next((s for s in statements if same_statement(s, claim)), None)
                if hit is None:
                    missing.append(key_of(claim))
                else:
                    statements.remove(hit)
            extra = [key_of(s) for s in statements if s in self._citing(profile)]
            if missing or extra:
                out[pid] = (missing, extra)
        return out

    def accounting(
        self,
        outcome: SourceOutcome,
        before: dict[str, set[tuple[Any, ...]]],
        page: dict[str, list[Claim]],
    ) -> dict[str, tuple[int, int]]:
        """Per profile whose flags do not add up: (differences the flags stand for, true
        differences between what it stated and what the page states)."""
        weight: Counter[str] = Counter()
        for change in outcome.changes:
            weight[change["profile"]] += 2 if change["kind"] == "changed" else 1
        out = {}
        for pid in set(before) | set(page) | set(weight):
            read = {key_of(c) for c in page.get(pid, [])}
            true = len(before.get(pid, set()) ^ read)
            if weight[pid] != true:
                out[pid] = (weight[pid], true)
        return out

    def _citing(self, profile: Profile) -> list[ProfileClaim]:
        refs = {r.id for r in profile.references if r.url == self.url}
        return [c for c in profile.claims if refs & set(c.refs) and not is_history(c.qualifiers)]


def bare_profiles(settings: Settings, people: list[tuple[str, str, str | None]]) -> None:
    """A profile without claims for each (id, name, GitHub handle); the bundled ones removed."""
    for old in settings.profiles_dir.glob("*.json"):
        old.unlink()
    for pid, name, handle in people:
        write_profile(
            settings.profiles_dir,
            Profile(id=pid, name=name, accounts={"github": handle} if handle else {}),
        )
