"""The six version pairs of the training corpus through the pipeline (issue 11, "Done when").

For each pair (fixtures/governance-train/README.md, "Version pairs"): the wiki has a profile,
without claims, for every person on the OLDER page. `ingest run URL --file OLDER` (the one-off
run's own steps: `registry.source_for`, `process_file`) flags each of their facts as `added`; an
editor accepts them all, so the profiles state the older page. `ingest run URL --file NEWER` under
the same URL must then flag exactly the facts that changed between the two gold files, one flag
each, and list the people who joined (they have no profile) as people not in the wiki; once those
flags are accepted, a re-run of the newer page flags nothing.

The URL is the page's own public URL, the same for both versions: the file's GitHub URL at
`HEAD` (the repository's default branch), from its commit-pinned URL in PROVENANCE.md.

Expected flags, derived from the two gold files (never listed by hand), per person of the older
page, with rows compared as (section, role, status, scope) folded:
- a row equal in both versions: nothing;
- a row whose heading is gone from the newer page, the person now listed in the same role, status
  and scope under another heading: one `changed` (a renamed heading: the profile takes the new
  heading when it is accepted, issue 21; it flagged nothing before, and the profile kept the old
  heading for ever);
- a row of the older version and one of the newer in the same role family (the role before any
  `;` title, status words aside), under the same heading or not naming two different scopes: one
  `changed`;
- the older version's other rows: `removed`; the newer version's other rows: `added`;
- affiliations (the person's set of organisations): one `changed` per organisation replaced,
  `added` / `removed` for the rest.
When the newer page lists fewer than INGEST_LAYOUT_MIN_RATIO of the older page's people, the
contract's layout guard applies: a layout alert and no removals (the rest is still expected),
unless the page took those lists off (issue 21): leaving out the people gone whose every gold
heading the newer page no longer prints, it lists at least that share (Homebrew's "Former
maintainers" sentence, 28 people, removed: their removals are true differences).

These tests pass only when the governance extractor reads both pages as the gold does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import extractors
from flows.tasks import process_file
from ingest.documents import snapshot_from_file
from ingest.facts import org_tokens
from ingest.models import Profile
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.registry import load_registry, source_for
from ingest.profiles.io import load_profiles, write_profile
from ingest.review.decisions import decide
from ingest.settings import Settings
from ingest.storage import Store
from ingest_cli.evaluate.governance_gold import GoldRow, page_url, read_rows
from ingest_cli.evaluate.governance_people import group_people, norm, norm_handle

TRAIN = Path(__file__).resolve().parent.parent / "fixtures" / "governance-train"
STATUS_WORDS = {"emeritus", "former", "past", "retired", "inactive", "alumni", "active", "current"}
_PAIR = re.compile(r"\((?P<old>[0-9a-f]{8})\) → .*\((?P<new>[0-9a-f]{8})\)")


def version_pairs() -> list[tuple[str, str]]:
    """(older file, newer file) for each pair the README's "Version pairs" section names."""
    text = (TRAIN / "README.md").read_text(encoding="utf-8")
    section = text.split("## Version pairs", 1)[1].split("\n## ", 1)[0]
    files = [p.name for p in TRAIN.iterdir() if (TRAIN / "gold" / f"{p.name}.json").is_file()]
    pairs = []
    for match in _PAIR.finditer(section):
        old = [f for f in files if f".{match['old']}." in f]
        new = [f for f in files if f".{match['new']}." in f]
        assert len(old) == len(new) == 1, match.group(0)
        pairs.append((old[0], new[0]))
    assert len(pairs) == 6, pairs
    return pairs


PAIRS = version_pairs()


def head_url(name: str) -> str:
    """The page's URL at the default branch: the same for every version of it."""
    pinned = page_url(TRAIN / name, TRAIN / "gold")
    url = re.sub(r"/blob/[0-9a-f]{40}/", "/blob/HEAD/", pinned)
    assert url != pinned, pinned
    return url


@dataclass
class Person:
    pid: str
    name: str
    handles: set[str]
    names: set[str]
    rows: list[GoldRow]


def people_of(rows: tuple[GoldRow, ...]) -> list[Person]:
    keys = [(norm_handle(r.handle), norm(r.name), r.name or r.handle or "") for r in rows]
    grouped, of_row = group_people(keys)
    out = []
    for i, person in enumerate(grouped):
        mine = [r for r, p in zip(rows, of_row, strict=True) if p == i]
        name = next((r.name for r in mine if r.name), None) or next(r.handle for r in mine)
        pid = re.sub(r"[^a-z0-9]+", "-", norm(name)).strip("-")
        out.append(Person(pid, str(name), person.handles, person.names, mine))
    return out


def same_person(a: Person, b: Person) -> bool:
    return bool(a.handles & b.handles) or bool(a.names & b.names)


def family(role: str | None) -> str:
    head = (role or "").split(";")[0]
    return " ".join(w for w in norm(head).split() if w not in STATUS_WORDS)


def row_key(r: GoldRow) -> tuple[str, str, str, str]:
    return (norm(r.section), norm(r.role), r.status, norm(r.scope))


def expected_flags(old: list[Person], new: list[Person]) -> list[tuple[str, str, str]]:
    """(profile id, kind, predicate) for every fact that changed (see the module docstring)."""
    new_sections = {norm(r.section) for p in new for r in p.rows}
    flags = []
    for person in old:
        later = next((p for p in new if same_person(person, p)), None)
        before = list(person.rows)
        after = list(later.rows) if later else []
        for r in list(before):  # unchanged rows
            twin = next((n for n in after if row_key(n) == row_key(r)), None)
            if twin is not None:
                before.remove(r)
                after.remove(twin)
        for r in list(before):  # renamed headings
            twin = next(
                (
                    n
                    for n in after
                    if norm(r.section) not in new_sections and row_key(n)[1:] == row_key(r)[1:]
                ),
                None,
            )
            if twin is not None:
                before.remove(r)
                after.remove(twin)
                flags.append((person.pid, "changed", "maintainer"))
        for r in list(before):  # moves: same heading first, then any pairable row
            pairable = [n for n in after if family(n.role) == family(r.role) and _pairable(r, n)]
            pairable.sort(key=lambda n: norm(n.section) != norm(r.section))
            if pairable:
                before.remove(r)
                after.remove(pairable[0])
                flags.append((person.pid, "changed", "maintainer"))
        flags += [(person.pid, "removed", "maintainer") for _ in before]
        flags += [(person.pid, "added", "maintainer") for _ in after]
        flags += _affiliation_flags(person, later)
    return sorted(flags)


def _pairable(r: GoldRow, n: GoldRow) -> bool:
    if norm(r.section) == norm(n.section):
        return True
    return not (r.scope and n.scope and norm(r.scope) != norm(n.scope))


def _affiliation_flags(person: Person, later: Person | None) -> list[tuple[str, str, str]]:
    def orgs(p: Person | None) -> set[frozenset[str]]:
        return {org_tokens(r.affiliation) for r in (p.rows if p else []) if r.affiliation}

    gone, came = orgs(person) - orgs(later), orgs(later) - orgs(person)
    changed = min(len(gone), len(came))
    return (
        [(person.pid, "changed", "affiliation")] * changed
        + [(person.pid, "removed", "affiliation")] * (len(gone) - changed)
        + [(person.pid, "added", "affiliation")] * (len(came) - changed)
    )


def _guarded(old: list[Person], new: list[Person], newer: Path, ratio: float) -> bool:
    if len(new) >= ratio * len(old):
        return False
    printed = norm(newer.read_text(encoding="utf-8"))
    taken_off = [
        p
        for p in old
        if not any(same_person(p, n) for n in new)
        and all(r.section and norm(r.section) not in printed for r in p.rows)
    ]
    return not taken_off or len(new) < ratio * (len(old) - len(taken_off))


def flags_of(outcome: SourceOutcome) -> list[tuple[str, str, str]]:
    return sorted(
        (c["profile"], c["kind"], (c["claim"] or c["previous"] or {}).get("predicate", ""))
        for c in outcome.changes
    )


def run_file(store: Store, settings: Settings, url: str, name: str) -> SourceOutcome:
    """What `ingest run URL --file FILE` does after starting its flow."""
    source = source_for(url, load_registry(settings.sources_file), extractors=extractors)
    store.upsert_source(source)
    snapshot = snapshot_from_file(url, TRAIN / name, settings.max_bytes)
    profiles = load_profiles(settings.profiles_dir)
    return process_file.fn(store, settings, source, snapshot, profiles, None)


def accept_all(store: Store, settings: Settings, outcome: SourceOutcome) -> None:
    for change in outcome.changes:
        decide(store, settings.profiles_dir, change["id"], "accepted", "version-test")


def describe(outcome: SourceOutcome) -> str:
    lines = []
    for c in outcome.changes:
        q = (c["claim"] or {}).get("qualifiers", {})
        p = (c["previous"] or {}).get("qualifiers", {})
        lines.append(f"{c['profile']} {c['kind']} {json.dumps(p)} -> {json.dumps(q)}")
    return "\n".join(lines + [f"alert: {a}" for a in outcome.alerts])


@pytest.mark.parametrize(("older", "newer"), PAIRS, ids=[o.split(".")[0] for o, _ in PAIRS])
def test_a_version_pair_flags_exactly_what_changed(
    store: Store, workspace: Settings, older: str, newer: str
) -> None:
    old_people = people_of(read_rows(TRAIN / "gold" / f"{older}.json"))
    new_people = people_of(read_rows(TRAIN / "gold" / f"{newer}.json"))
    for person in old_people:
        handle = sorted(person.handles)[0] if person.handles else None
        write_profile(
            workspace.profiles_dir,
            Profile(id=person.pid, name=person.name, accounts={"github": handle} if handle else {}),
        )
    url = head_url(older)
    assert head_url(newer) == url

    first = run_file(store, workspace, url, older)
    assert not first.alerts, describe(first)
    nobody = Person("", "", set(), set(), [])
    everything = [(p.pid, "added", "maintainer") for p in old_people for _ in p.rows]
    for person in old_people:  # the older page's affiliations, as a person who just arrived
        everything += [
            (person.pid, kind, pred) for _, kind, pred in _affiliation_flags(nobody, person)
        ]
    assert flags_of(first) == sorted(everything), describe(first)
    accept_all(store, workspace, first)
    assert run_file(store, workspace, url, older).changes == []

    expected = expected_flags(old_people, new_people)
    guarded = _guarded(old_people, new_people, TRAIN / newer, workspace.layout_min_ratio)
    if guarded:  # the contract's layout guard: far fewer people than last time
        assert not [f for f in expected if f[1] == "changed"], "a move under the guard"
        expected = [f for f in expected if f[1] != "removed"]
    second = run_file(store, workspace, url, newer)
    assert flags_of(second) == expected, describe(second)
    layout = [a for a in second.alerts if a.startswith("layout")]
    assert bool(layout) == guarded, second.alerts
    joiners = [p for p in new_people if not any(same_person(p, o) for o in old_people)]
    assert len(second.unknown_people) == len(joiners), (second.unknown_people, joiners)

    accept_all(store, workspace, second)
    again = run_file(store, workspace, url, newer)
    assert again.changes == [], describe(again)
    assert [a for a in again.alerts if a.startswith("layout")] == layout
