"""Storage: snapshots once by sha256, idempotent claims, migrations, an append-only audit log."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from ingest.errors import StoreError
from ingest.models import Snapshot
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store
from ingest.storage.migrations import MIGRATIONS

from .helpers import claim

pytestmark = pytest.mark.postgres  # also on PostgreSQL: see tests/conftest.py


def test_snapshot_is_stored_once_and_read_back(store: Store, workspace: Settings) -> None:
    snap = Snapshot(
        url="https://example.org/a", headers={"content-type": "text/html"}, body=b"<p>hi</p>"
    )
    assert store.put_snapshot(snap) is True
    assert store.put_snapshot(snap.model_copy()) is False
    files = list(workspace.snapshots_dir.rglob("*"))
    assert [f.name for f in files if f.is_file()] == [snap.sha256]
    back = store.get_snapshot(snap.sha256)
    assert back.body == b"<p>hi</p>" and back.content_type == "text/html"


def test_missing_snapshot_is_a_clear_error(store: Store) -> None:
    with pytest.raises(StoreError, match="no snapshot with sha256 'abc'"):
        store.get_snapshot("abc")


def test_claims_are_idempotent(store: Store) -> None:
    claims = [
        claim("Ada", "ada", "core", "Core Maintainers"),
        claim("Bob", "bob", "core", "Core Maintainers"),
    ]
    assert store.put_claims("f" * 64, "https://example.org/a", claims) == 2
    assert store.put_claims("f" * 64, "https://example.org/a", claims) == 0
    assert [c.subject.name for c in store.claims_for("f" * 64)] == ["Ada", "Bob"]


def test_audit_log_is_append_only(store: Store) -> None:
    with store.begin() as conn:
        store.audit(conn, "ed", "accepted", change_id="x", note="n")
    with pytest.raises(sa.exc.IntegrityError, match="append-only"), store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE audit_log SET actor = 'mallory'")
    with pytest.raises(sa.exc.IntegrityError, match="append-only"), store.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM audit_log")
    assert store.audit_entries()[0]["actor"] == "ed"


def _forget_migrations_after(conn: sa.Connection, kept: int) -> None:
    conn.execute(sa.text("DELETE FROM applied_migrations WHERE seq > :n"), {"n": kept})


def test_an_old_database_is_migrated_in_place(store: Store, workspace: Settings) -> None:
    store.update_source_state("https://example.org/a", etag="e1")
    with store.engine.begin() as conn:  # make it look like a version-1 database
        conn.exec_driver_sql("ALTER TABLE sources DROP COLUMN final_url")
        conn.exec_driver_sql("ALTER TABLE sources DROP COLUMN settled")
        _forget_migrations_after(conn, 1)
    store.close()
    reopened = Store.open(workspace)
    assert reopened.migrate() == len(MIGRATIONS)
    state = reopened.source_state("https://example.org/a")
    assert state["etag"] == "e1" and "final_url" in state and state["settled"] is None
    reopened.update_source_state("https://example.org/a", settled={"key": "k", "changes": {}})
    assert reopened.source_state("https://example.org/a")["settled"]["key"] == "k"
    reopened.close()


def test_unusable_database_url_is_a_store_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INGEST_HOME", str(tmp_path))
    monkeypatch.setenv("INGEST_DATABASE_URL", "nosuchdialect://x")
    with pytest.raises(StoreError, match="cannot open database"):
        Store.open(Settings())


def test_the_store_uses_the_database_asked_for(store: Store, database: str | None) -> None:
    assert store.engine.dialect.name == ("sqlite" if database is None else "postgresql")
    if database is not None:
        with store.begin() as conn:  # a fresh database of its own, sorting text as SQLite does
            assert conn.exec_driver_sql("SELECT 'B' < 'a'").scalar() is True


def test_editors_get_a_random_session_epoch_renewed_on_demand(store: Store) -> None:
    store.add_editor("ann", "hash-1")
    first = store.session_epoch("ann")
    assert first and len(first) >= 20
    renewed = store.renew_session_epoch("ann")
    assert renewed == store.session_epoch("ann") and renewed != first
    store.add_editor("ann", "hash-2")  # a password change
    assert store.session_epoch("ann") not in (first, renewed)
    store.remove_editor("ann")
    assert store.session_epoch("ann") is None and store.renew_session_epoch("ann") is None
    store.add_editor("ann", "hash-1")  # re-created: never an epoch it had before
    assert store.session_epoch("ann") not in (first, renewed)


def test_migration_5_gives_existing_editors_a_session_epoch(
    store: Store, workspace: Settings
) -> None:
    store.add_editor("ann", "hash-a")
    store.add_editor("bob", "hash-b")
    with store.engine.begin() as conn:  # make it look like a version-4 database
        conn.exec_driver_sql("ALTER TABLE editors DROP COLUMN session_epoch")
        _forget_migrations_after(conn, 4)
    store.close()
    reopened = Store.open(workspace)
    assert reopened.migrate() == len(MIGRATIONS) >= 5
    ann, bob = reopened.session_epoch("ann"), reopened.session_epoch("bob")
    assert ann and bob and ann != bob
    assert reopened.editor_hash("ann") == "hash-a"
    reopened.close()


def _drop_queue_facts(conn: Any) -> None:
    """Undo migration 10 (`queue_facts_kept_on_write`): triggers, expression index, tables."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("DROP TRIGGER IF EXISTS changes_queue_facts ON changes")
    for event in ("insert", "update", "delete"):
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS changes_queue_facts_{event}")
    conn.exec_driver_sql("DROP INDEX IF EXISTS ix_changes_status_fact_key")
    conn.exec_driver_sql("DROP TABLE IF EXISTS queue_facts")
    conn.exec_driver_sql("DROP TABLE IF EXISTS queue_fact_sources")


def test_migration_6_gives_existing_changes_their_fact(store: Store, workspace: Settings) -> None:
    from ingest.storage import QueueFilter

    from .test_grouping import affiliation, queue

    queue(store, affiliation("1511.06434"), affiliation("1701.07875"))
    with store.engine.begin() as conn:  # make it look like a version-5 database
        _drop_queue_facts(conn)  # migration 10's: they depend on the column
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_changes_status_fact")
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_decisions_bulk")
        conn.exec_driver_sql("ALTER TABLE changes DROP COLUMN fact")
        conn.exec_driver_sql("ALTER TABLE decisions DROP COLUMN bulk")
        _forget_migrations_after(conn, 5)
    store.close()
    reopened = Store.open(workspace)
    assert reopened.migrate() == len(MIGRATIONS) >= 6
    assert reopened.count_changes(QueueFilter()) == 2 and reopened.count_facts(QueueFilter()) == 1
    reopened.close()


def test_rows_leave_the_store_typed(store: Store) -> None:
    from ingest.storage import AuditEntry, ChangeRow, SourceRow

    from .test_grouping import affiliation, queue

    queue(store, affiliation("1511.06434"))
    row = store.queue_rows(QueueFilter(), limit=1)[0]
    assert isinstance(row, ChangeRow) and row.status == "pending" and row.fact_id == row.fact
    assert store.get_change(row.id) == row
    assert row.to_change().id == row.id
    store.update_source_state("https://example.org/a", etag="e1", fail_streak=2)
    state = store.source_state("https://example.org/a")
    assert isinstance(state, SourceRow) and state.etag == "e1" and state.fail_streak == 2
    with store.begin() as conn:
        store.audit(conn, "ed", "looked", change_id=row.id)
    entry = store.audit_entries(1)[0]
    assert isinstance(entry, AuditEntry) and entry.actor == "ed" and entry.detail == {}


def test_an_unknown_source_column_is_a_clear_error(store: Store) -> None:
    with pytest.raises(TypeError, match=r"sources has no column \['etga'\]"):
        store.update_source_state("https://example.org/a", etga="e1")
    assert store.source_state("https://example.org/a") is None


def test_list_changes_filters_as_the_queue_does(store: Store) -> None:
    from .test_grouping import affiliation, queue

    queue(store, affiliation("1511.06434"), affiliation("1701.07875"))
    everything = store.list_changes()
    assert len(everything) == store.count_changes(QueueFilter(status=None)) == 2
    url = everything[0].source_url
    assert [c.id for c in store.list_changes(source_url=url)] == [
        r.id for r in store.queue_rows(QueueFilter(status=None, source_url=url), limit=10)
    ]
    assert store.list_changes(status="accepted") == []
