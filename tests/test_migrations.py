"""Migrations by name: a database made by the old numbered scheme (by the old code itself, see
tests/old_stores) is brought to today's schema with nothing lost, on SQLite and PostgreSQL."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
import sqlalchemy as sa

from ingest.errors import StoreError
from ingest.fact_identity import fact_key
from ingest.models import Snapshot, Source
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store
from ingest.storage.migrations import MIGRATIONS, Migrations

from .helpers import claim
from .old_stores import store_v1, store_v6
from .test_grouping import affiliation

pytestmark = pytest.mark.postgres  # also on PostgreSQL: see tests/conftest.py

URL = "https://example.org/maintainers"


def _fill(old: ModuleType, workspace: Settings) -> dict[str, Any]:
    """A database made by the old code, with a row in every table it has; what went in."""
    store = old.Store.open(workspace)
    assert store.migrate() == len(old.MIGRATIONS)
    snap = Snapshot(url=URL, headers={"content-type": "text/html"}, body=b"<h3>Core</h3><li>Ada")
    store.put_snapshot(snap)
    store.upsert_source(Source(url=URL, extractor="governance", title="Maintainers"))
    store.update_source_state(URL, etag='"e1"', last_sha256=snap.sha256, people_count=1)
    store.record_fetch(URL, "fetched", sha256=snap.sha256, http_status=200)
    claims = [claim("Ada", "ada", "core", "Core Maintainers")]
    store.put_claims(snap.sha256, URL, claims)
    change = affiliation("1511.06434")
    # as that version's ingest.review.queue wrote it (version 6 computed the fact on the way in)
    fact = {"fact": fact_key(change.to_json())} if "fact" in old.changes.c else {}
    with store.begin() as conn:
        conn.execute(
            old.changes.insert().values(
                **fact,
                id=change.id,
                profile=change.profile,
                kind=change.kind,
                claim=change.claim,
                previous=None,
                source_url=change.source_url,
                status="rejected",
                created="2026-11-01T03:00:00Z",
                updated="2026-11-02T09:00:00Z",
                evidence_key="k1",
                snapshot_sha256=snap.sha256,
            )
        )
        conn.execute(
            old.decisions.insert().values(
                change_id=change.id,
                status="rejected",
                editor="ed",
                note="not this one",
                decided_at="2026-11-02T09:00:00Z",
            )
        )
        store.audit(conn, "ed", "rejected", change_id=change.id, profile=change.profile, note="n")
    store.start_run("run-1", "nightly")
    store.finish_run("run-1", {"sources": 1})
    epoch = None
    if hasattr(store, "add_editor"):
        store.add_editor("ann", "scrypt$hash")
        epoch = store.session_epoch("ann")
    store.close()
    return {"snap": snap, "claims": claims, "change": change, "epoch": epoch}


@pytest.mark.parametrize("old", [store_v1, store_v6], ids=["version-1", "version-6"])
def test_a_numbered_database_is_migrated_with_nothing_lost(
    old: ModuleType, workspace: Settings, database: str | None
) -> None:
    if old is store_v1 and database is not None:
        pytest.skip("the first store predates PostgreSQL support (its audit log had no trigger)")
    made = _fill(old, workspace)
    store = Store.open(workspace)
    with store.begin() as conn:
        assert MIGRATIONS.applied(conn) == MIGRATIONS.names
    snap, change = made["snap"], made["change"]
    assert store.get_snapshot(snap.sha256).body == snap.body
    assert store.claims_for(snap.sha256) == made["claims"]
    state = store.source_state(URL)
    assert state is not None and state.etag == '"e1"' and state.last_sha256 == snap.sha256
    assert state.people_count == 1 and state.final_url is None and state.settled is None
    assert state.title == "Maintainers"
    row = store.get_change(change.id)
    assert row is not None and row.status == "rejected" and row.claim == change.claim
    assert row.fact == fact_key(change.to_json())  # by the migration (version 1) or kept
    assert [(h.status, h.editor, h.note) for h in store.decision_history(change.id)] == [
        ("rejected", "ed", "not this one")
    ]
    entries = [e for e in store.audit_entries() if e.action == "rejected"]
    assert [(e.actor, e.change_id, e.detail) for e in entries] == [("ed", change.id, {"note": "n"})]
    if made["epoch"] is not None:  # an account made before keeps its sessions
        assert store.session_epoch("ann") == made["epoch"]
        assert store.editor_hash("ann") == "scrypt$hash"
    with pytest.raises(sa.exc.IntegrityError, match="append-only"), store.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM audit_log")
    # migration 10: the queue by fact filled from the changes there were, then kept on write
    rejected = QueueFilter(status="rejected")
    assert store.count_facts(rejected) == 1 and store.count_facts(QueueFilter()) == 0
    assert [[m.id for m in f] for f in store.queue_facts(rejected, 10)] == [[change.id]]
    assert store.queue_facets(rejected)["source"] == [(change.source_url, 1)]
    with store.begin() as conn:
        assert store.move_change(conn, change.id, "rejected", "pending", "2026-11-03T00:00:00Z")
    assert store.count_facts(rejected) == 0 and store.count_facts(QueueFilter()) == 1
    assert store.queue_facets(QueueFilter())["person"] == [(change.profile, 1)]
    assert store.migrate() == len(MIGRATIONS)  # again: nothing left to do
    store.close()


def test_a_database_of_a_newer_version_is_refused(store: Store, workspace: Settings) -> None:
    with store.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO applied_migrations (seq, name, applied_at) "
            "VALUES (99, 'from_the_future', '2027-01-01T00:00:00Z')"
        )
    store.close()
    with pytest.raises(StoreError, match="does not know: from_the_future"):
        Store.open(workspace)


def test_registered_migrations_run_once_each_in_order() -> None:
    ran: list[str] = []
    registry = Migrations()

    @registry.register
    def first(conn: sa.Connection) -> None:
        ran.append("first")

    @registry.register
    def second(conn: sa.Connection) -> None:
        ran.append("second")

    engine = sa.create_engine("sqlite://")
    with engine.begin() as conn:
        assert registry.apply(conn) == ["first", "second"]
        assert registry.apply(conn) == []

        @registry.register
        def third(conn: sa.Connection) -> None:
            ran.append("third")

        assert registry.apply(conn) == ["third"]
        assert registry.applied(conn) == ["first", "second", "third"]
    assert ran == ["first", "second", "third"]
    with pytest.raises(ValueError, match="'first' is registered twice"):
        registry.register(first)


def test_snapshots_get_their_origin_and_evidence_date(workspace: Settings) -> None:
    """Migration 7 (`snapshots_origin_and_evidence_date`): a replayed snapshot of before is a
    `replay` of its recording's date; any other a `network` fetch of the day it was stored."""
    from datetime import UTC, datetime

    old = store_v6.Store.open(workspace)
    old.migrate()
    fetched = Snapshot(url=URL, body=b"a", fetched_at=datetime(2026, 11, 2, 3, tzinfo=UTC))
    replayed = Snapshot(
        url=URL,
        body=b"b",
        headers={"x-ingest-replay": "hit", "x-ingest-replay-date": "2024-05-30"},
        fetched_at=datetime(2026, 11, 3, 3, tzinfo=UTC),
    )
    old.put_snapshot(fetched)
    old.put_snapshot(replayed)
    old.close()
    store = Store.open(workspace)
    with store.begin() as conn:
        assert "snapshots_origin_and_evidence_date" in MIGRATIONS.applied(conn)[6:]
    metas = [store.snapshot_meta(s.sha256) for s in (fetched, replayed)]
    assert [(m.origin, m.evidence_date) for m in metas if m] == [
        ("network", "2026-11-02"),
        ("replay", "2024-05-30"),
    ]
    newest = store.newest_snapshot(URL)
    assert newest is not None and newest.sha256 == fetched.sha256
    store.close()
