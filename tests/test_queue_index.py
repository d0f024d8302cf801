"""The review queue by fact, kept on write (migration 10, ingest.storage.queue_index): after any
mix of inserts, status moves, fact and evidence rewrites and deletes, written straight to the
`changes` table, the kept tables equal a recount from scratch, and every answer by fact (count,
page, facets, position, neighbours, members) equals one worked out here from the changes alone."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
import sqlalchemy as sa

from ingest.storage import QueueFilter, Store
from ingest.storage.queue_index import rebuild
from ingest.storage.schema import changes, queue_fact_sources, queue_facts

pytestmark = pytest.mark.postgres  # also on PostgreSQL: see tests/conftest.py

STATUSES = ("pending", "accepted", "rejected")
PROFILES = ("ada", "grace")


def _claim(rng: random.Random, predicate: str) -> dict[str, Any]:
    qualifiers: dict[str, Any] = {"level": "core"}
    if rng.random() < 0.5:
        qualifiers["confidence"] = round(rng.random(), 2)
    return {"predicate": predicate, "object": "PyTorch", "qualifiers": qualifiers}


def _random_writes(store: Store, rng: random.Random, steps: int) -> None:
    ids: list[str] = []
    facts: dict[str, tuple[str, str, str]] = {}  # fact -> (profile, kind, predicate)
    for n in range(steps):
        roll = rng.random()
        with store.begin() as conn:
            if roll < 0.55 or not ids:
                change_id = f"c{n:05d}"
                fact = rng.choice([None, *(f"f{k}" for k in range(8))])
                if fact is not None and fact not in facts:
                    facts[fact] = (
                        rng.choice(PROFILES),
                        rng.choice(("added", "removed")),
                        rng.choice(("maintainer", "author")),
                    )
                profile, kind, predicate = facts.get(
                    fact or "", (rng.choice(PROFILES), "added", "member")
                )
                claim = _claim(rng, predicate)
                conn.execute(
                    changes.insert().values(
                        id=change_id,
                        profile=profile,
                        kind=kind,
                        claim=None if kind == "removed" else claim,
                        previous=claim if kind == "removed" else None,
                        source_url=f"https://example.org/s{rng.randrange(4)}",
                        status=rng.choice(STATUSES),
                        created=f"2026-11-{rng.randrange(1, 29):02d}T00:00:00Z",
                        updated="2026-11-30T00:00:00Z",
                        evidence_key=f"k{n}",
                        fact=fact,
                    )
                )
                ids.append(change_id)
            elif roll < 0.8:
                conn.execute(
                    changes.update()
                    .where(changes.c.id == rng.choice(ids))
                    .values(status=rng.choice(STATUSES))
                )
            elif roll < 0.9:  # new evidence: a rewritten claim (its confidence may change)
                conn.execute(
                    changes.update()
                    .where(changes.c.id == rng.choice(ids), changes.c.kind == "added")
                    .values(claim=_claim(rng, "maintainer"), updated=f"u{n}")
                )
            else:
                gone = ids.pop(rng.randrange(len(ids)))
                conn.execute(changes.delete().where(changes.c.id == gone))


def _kept(store: Store) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with store.begin() as conn:
        facts = sorted(tuple(r) for r in conn.execute(sa.select(queue_facts)))
        sources = sorted(tuple(r) for r in conn.execute(sa.select(queue_fact_sources)))
    return facts, sources


def _expected(store: Store, status: str) -> tuple[list[str], dict[str, list[str]]]:
    """The facts of `status` in queue order (each placed at the least source, created and id of
    its changes) and each fact's changes in queue order, from the changes themselves."""
    rows = store.queue_rows(QueueFilter(status=status), limit=100_000)
    members: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        members[row.fact_id].append(row)

    def place(fact: str) -> tuple[str, str, str]:
        ms = members[fact]
        return (
            min(m.source_url for m in ms),
            min(m.created for m in ms),
            min(m.id for m in ms),
        )

    order = sorted(members, key=place)
    return order, {f: [m.id for m in members[f]] for f in order}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_queue_by_fact_is_kept_on_every_write(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    _random_writes(store, rng, 160)
    kept = _kept(store)
    with store.begin() as conn:
        rebuild(conn)
    assert _kept(store) == kept  # the triggers left what a recount from scratch finds
    assert kept[0], "the writes left facts in the queue"
    for status in STATUSES:
        filters = QueueFilter(status=status)
        order, members = _expected(store, status)
        assert store.count_facts(filters) == len(order)
        page = store.queue_facts(filters, limit=100_000)
        assert [f[0].fact_id for f in page] == order
        assert [[m.id for m in f] for f in page] == [members[f] for f in order]
        assert [[m.id for m in f] for f in store.queue_facts(filters, 3, 2)] == [
            members[f] for f in order[2:5]
        ]
        rows = store.queue_rows(filters, limit=100_000)
        by_source: dict[str, set[str]] = defaultdict(set)
        by_person: dict[str, set[str]] = defaultdict(set)
        for row in rows:
            by_source[row.source_url].add(row.fact_id)
            by_person[row.profile].add(row.fact_id)
        facets = store.queue_facets(filters)
        assert facets["source"] == sorted((s, len(f)) for s, f in by_source.items())
        assert facets["person"] == sorted((p, len(f)) for p, f in by_person.items())
        rated = sum(1 for r in rows if "confidence" in ((r.claim or {}).get("qualifiers") or {}))
        assert facets["confidence"] == [("rated", rated)]
        for source, fact_ids in by_source.items():
            assert store.count_facts(QueueFilter(status=status, source_url=source)) == len(fact_ids)
            of_source = QueueFilter(status=status, source_url=source)  # grouped from `changes`
            for entry in store.queue_facts(of_source, limit=3):
                assert store.fact_place(of_source, entry[0]) == (
                    store.fact_neighbour(of_source, entry[0], forward=False),
                    store.fact_neighbour(of_source, entry[0], forward=True),
                    store.fact_position(of_source, entry[0]),
                )
        for person in PROFILES:
            mine = [f for f in order if store.get_change(members[f][0]).profile == person]  # type: ignore[union-attr]
            assert store.count_facts(QueueFilter(status=status, profile=person)) == len(mine)
        for n, fact in enumerate(order):
            lead = store.get_change(members[fact][0])
            assert lead is not None
            assert store.fact_position(filters, lead) == n + 1
            after = store.fact_neighbour(filters, lead, forward=True)
            before = store.fact_neighbour(filters, lead, forward=False)
            assert after == (members[order[n + 1]][0] if n + 1 < len(order) else None)
            assert before == (members[order[n - 1]][0] if n > 0 else None)
            assert store.fact_place(filters, lead) == (before, after, n + 1)  # at once
            assert [m.id for m in store.fact_members(lead, filters)] == members[fact]
        since = "2026-11-15T00:00:00Z"
        new = {r.fact_id for r in rows if r.created >= since}
        assert store.count_facts(QueueFilter(status=status, created_after=since)) == len(new)
