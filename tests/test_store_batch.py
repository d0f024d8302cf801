"""Store.batch: one transaction per batch of sources, snapshot bodies flushed to disk once
before it commits; a crash loses at most the unfinished batch and never trusts a body whose row
was not committed (issue 30)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

import ingest.files
import ingest.storage.database
from ingest.models import Snapshot, Source
from ingest.settings import Settings
from ingest.storage import Store
from ingest.storage.sources import UnchangedCheck

pytestmark = pytest.mark.postgres


def _snap(n: int) -> Snapshot:
    return Snapshot(
        url=f"https://example.org/{n}", headers={"content-type": "text/html"}, body=b"<p>%d</p>" % n
    )


class Crash(Exception):
    pass


def test_a_batch_is_one_transaction_lost_whole_on_a_crash(store: Store) -> None:
    url = "https://example.org/page"
    store.upsert_source(Source(url=url))
    with pytest.raises(Crash), store.batch():
        assert store.put_snapshot(_snap(1)) is True
        store.update_source_state(url, last_status="fetched", fail_streak=4)
        assert store.snapshot_meta(_snap(1).sha256) is not None  # the batch sees its own writes
        raise Crash
    assert store.snapshot_meta(_snap(1).sha256) is None
    state = store.source_state(url)
    assert state is not None and state.fail_streak != 4
    with store.batch():
        store.put_snapshot(_snap(2))
        store.update_source_state(url, fail_streak=5)
    assert store.get_snapshot(_snap(2).sha256).body == _snap(2).body
    state = store.source_state(url)
    assert state is not None and state.fail_streak == 5


def test_bodies_are_flushed_once_per_batch_not_once_per_file(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed: list[list[Path]] = []
    fsyncs = [0]
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        fsyncs[0] += 1
        real_fsync(fd)

    monkeypatch.setattr(ingest.storage.database, "sync_files", lambda paths: flushed.append(paths))
    monkeypatch.setattr(ingest.files.os, "fsync", counting_fsync)
    with store.batch():
        for n in range(5):
            store.put_snapshot(_snap(n))
        store.record_unchanged(
            [
                UnchangedCheck(
                    url="https://example.org/0",
                    sha256=_snap(0).sha256,
                    http_status=304,
                    etag=None,
                    last_modified=None,
                    final_url=None,
                )
            ],
            "run",
        )
    assert fsyncs[0] == 0
    assert len(flushed) == 1 and sorted(p.name for p in flushed[0]) == sorted(
        _snap(n).sha256 for n in range(5)
    )
    store.put_snapshot(_snap(9))  # outside a batch: flushed by itself, as before
    assert fsyncs[0] == 1 and len(flushed) == 1


def test_a_body_left_without_its_row_is_written_again(store: Store, workspace: Settings) -> None:
    snap = _snap(7)
    with pytest.raises(Crash), store.batch():
        store.put_snapshot(snap)
        raise Crash
    path = workspace.snapshots_dir / snap.sha256[:2] / snap.sha256
    path.write_bytes(b"")  # what an unflushed file may be after a power loss
    assert store.put_snapshot(snap) is True
    assert store.get_snapshot(snap.sha256).body == snap.body


def test_sync_files_flushes_what_was_written_unsynced(tmp_path: Path) -> None:
    paths = [tmp_path / "a", tmp_path / "b"]
    for path in paths:
        ingest.files.write_atomic(path, path.name.encode(), sync=False)
    ingest.files.sync_files(paths)
    assert [p.read_bytes() for p in paths] == [b"a", b"b"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]  # no temporary left


def test_a_new_sources_previous_page_is_one_index_range(store: Store) -> None:
    """latest_sha_for_extractor runs once per new source: on the index (migration 11), never
    a scan and sort of every source."""
    import sqlalchemy as sa

    for n in range(3):
        store.upsert_source(Source(url=f"https://example.org/{n}"))
        store.update_source_state(
            f"https://example.org/{n}",
            extractor="pytorch_governance",
            last_sha256=_snap(n).sha256,
            last_checked=f"2026-01-0{n + 1}T00:00:00Z",
        )
    assert store.latest_sha_for_extractor("pytorch_governance", "https://example.org/2") == (
        _snap(1).sha256
    )
    with store.begin() as conn:
        if conn.dialect.name != "sqlite":
            indexes = {i["name"] for i in sa.inspect(conn).get_indexes("sources")}
            assert "ix_sources_extractor_checked" in indexes
            return
        plan = " ".join(
            str(row[-1])
            for row in conn.exec_driver_sql(
                "EXPLAIN QUERY PLAN SELECT last_sha256 FROM sources WHERE extractor = ? "
                "AND url != ? AND last_sha256 IS NOT NULL ORDER BY last_checked DESC LIMIT 1",
                ("pytorch_governance", "x"),
            )
        )
    assert "ix_sources_extractor_checked" in plan and "TEMP B-TREE" not in plan


def test_the_fetch_log_of_a_batch_is_one_insert_in_order_and_lost_with_the_batch(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside a batch the fetch log's rows (a failed source's, the fetched ones', the unchanged
    ones' together) are held and inserted by one statement just before the batch commits, in the
    order they were logged; a batch that fails logs nothing; outside a batch a row goes in at
    once."""
    import sqlalchemy as sa

    from ingest.storage.schema import fetches

    urls = [f"https://example.org/{n}" for n in range(4)]
    store.upsert_sources([Source(url=u) for u in urls])

    def logged() -> list[tuple[str, str]]:
        with store.begin() as conn:
            rows = conn.execute(sa.select(fetches.c.url, fetches.c.status).order_by(fetches.c.id))
            return [(str(u), str(s)) for u, s in rows]

    inserts: list[int] = []
    real = ingest.storage.database._insert_logged

    def counting(conn: object, held: list[tuple[object, list[dict[str, object]]]]) -> None:
        inserts.append(sum(len(rows) for _table, rows in held))
        real(conn, held)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest.storage.database, "_insert_logged", counting)
    with pytest.raises(Crash), store.batch():
        store.record_fetch(urls[0], "failed", error="boom")
        raise Crash
    assert logged() == []
    with store.batch():
        store.record_fetch(urls[0], "failed", error="boom")
        store.record_fetch(urls[1], "fetched", sha256="a" * 64)
        check = UnchangedCheck(urls[2], "b" * 64, 304, '"e"', None, urls[2])
        store.record_unchanged([check])
        store.record_fetch(urls[3], "fetched", sha256="c" * 64)
        assert logged() == []  # held until the batch commits
    assert inserts[-1] == 4
    expected = [(urls[0], "failed"), (urls[1], "fetched"), (urls[2], "unchanged")]
    expected.append((urls[3], "fetched"))
    assert logged() == expected
    store.record_fetch(urls[1], "unchanged")  # no batch: at once
    assert logged()[-1] == (urls[1], "unchanged")


def test_a_snapshot_is_new_once_and_a_lost_body_of_a_stored_row_is_written_again(
    store: Store, workspace: Settings
) -> None:
    """put_snapshot: True the first time (body, then the row: one statement), False after; a
    row whose body went missing gets its body back (False: the row was there)."""
    snap = _snap(8)
    assert store.put_snapshot(snap) is True
    assert store.put_snapshot(snap) is False
    path = workspace.snapshots_dir / snap.sha256[:2] / snap.sha256
    path.unlink()
    assert store.put_snapshot(snap) is False
    assert path.read_bytes() == snap.body
    assert store.get_snapshot(snap.sha256).body == snap.body


def test_registering_sources_writes_the_new_and_the_changed_by_one_statement_each(
    store: Store,
) -> None:
    """upsert_sources: 30 new sources are one INSERT, two changed ones one UPDATE, rows saying
    the same are left; every row reads back as registered."""
    import sqlalchemy as sa

    urls = [f"https://example.org/{n}" for n in range(30)]
    statements: list[str] = []

    def seen(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement.split()[0].upper())

    engine = store._db.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        store.upsert_sources([Source(url=u, extractor="governance") for u in urls])
        assert statements.count("INSERT") == 1 and "UPDATE" not in statements
        statements.clear()
        again = [Source(url=u, extractor="governance") for u in urls]
        again[3] = Source(url=urls[3], extractor="announcement")
        again[7] = Source(url=urls[7], extractor="governance", title="Team")
        store.upsert_sources(again)
        assert statements.count("UPDATE") == 1 and "INSERT" not in statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    rows = {u: row for u in urls if (row := store.source_state(u)) is not None}
    assert list(rows) == urls
    assert rows[urls[3]].extractor == "announcement"
    assert (rows[urls[7]].meta or {}).get("title") == "Team"
    assert rows[urls[8]].extractor == "governance"


def test_a_sources_check_row_is_its_state_without_the_registry_entry(store: Store) -> None:
    """What the nightly's store-and-diff reads of each source (`source_checks`): every column
    of `source_states` but the registry entry, which the run has from its registry."""
    url = "https://example.org/checked"
    store.upsert_source(Source(url=url, title="A page", publisher="Someone"))
    store.update_source_state(
        url, etag='"e1"', last_sha256="ab" * 32, people_count=3, settled={"key": "k"}
    )
    whole = store.source_states([url])[url]
    checked = store.source_checks([url, "https://example.org/never-seen"])
    assert list(checked) == [url]
    assert whole.meta and whole.title == "A page"
    assert checked[url].meta is None
    assert dataclasses.replace(whole, meta=None) == checked[url]
