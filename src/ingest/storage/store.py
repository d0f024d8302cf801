"""The Store: the database and the snapshot folder opened together, and its named parts.

Each part owns the SQL on its tables: `sources` (and the fetch log), `snapshots`, `claims`,
`changes`, `queue` (the review queue's pages), `decisions`, `audit_log`, `editors`, `runs`.
The parts are private: the methods on Store are the one way in for the rest of the code (issue
23: callers no longer mix the facade with its parts); they delegate.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ingest.errors import StoreError
from ingest.models import Change, Claim, Snapshot, Source
from ingest.settings import Settings
from ingest.storage.audit import AuditLog
from ingest.storage.changes import Changes, QueueFilter
from ingest.storage.claims import Claims
from ingest.storage.database import Database, create_engine, database_url, without_password
from ingest.storage.decisions import Decisions, NewDecision
from ingest.storage.editors import Editors
from ingest.storage.integrity import check_sqlite_file
from ingest.storage.migrations import migrate
from ingest.storage.review_queue import ReviewQueue
from ingest.storage.rows import (
    AuditEntry,
    ChangeRow,
    ChangeValues,
    DecisionRow,
    EditorRow,
    HistoryEntry,
    SnapshotRow,
    SourceRow,
)
from ingest.storage.runs import Runs
from ingest.storage.snapshots import Snapshots
from ingest.storage.sources import Sources, UnchangedCheck


class Store:
    """The database and the snapshot folder, opened together."""

    def __init__(self, engine: Engine, snapshots_dir: Path) -> None:
        self.engine = engine
        self.snapshots_dir = snapshots_dir
        self._db = Database(engine)
        self._sources = Sources(self._db)
        self._snapshots = Snapshots(self._db, snapshots_dir)
        self._claims = Claims(self._db)
        self._changes = Changes(self._db)
        self._queue = ReviewQueue(self._db)
        self._decisions = Decisions(self._db)
        self._audit_log = AuditLog(self._db)
        self._editors = Editors(self._db, self._audit_log)
        self._runs = Runs(self._db)

    @classmethod
    def open(cls, settings: Settings) -> Store:
        """Open (and create or migrate) the database INGEST_DATABASE_URL names, by default a
        SQLite file in INGEST_HOME; StoreError naming it (without its password) when it cannot,
        or when an existing SQLite file is malformed or empty (`ingest.storage.integrity`)."""
        settings.home.mkdir(parents=True, exist_ok=True)
        url = database_url(settings.db_url)
        check_sqlite_file(url)  # before any write: a malformed or empty file is an error
        try:
            store = cls(create_engine(url), settings.snapshots_dir)
            store.migrate()
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot open database '{without_password(url)}': {exc}") from exc
        return store

    def close(self) -> None:
        self.engine.dispose()

    def migrate(self) -> int:
        with self.engine.begin() as conn:
            return migrate(conn)

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        with self._db.begin() as conn:
            yield conn

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Everything stored in this thread until the block ends, in one transaction, with the
        snapshot bodies it wrote flushed to disk once before it commits (`Database.batch`)."""
        with self._db.batch():
            yield

    # -- sources -----------------------------------------------------------------------------

    def upsert_source(self, source: Source) -> None:
        self._sources.upsert([source])

    def upsert_sources(self, found: list[Source]) -> None:
        self._sources.upsert(found)

    def discovered_sources(self) -> list[Source]:
        return self._sources.discovered()

    def record_unchanged(self, checks: list[UnchangedCheck], run_id: str | None = None) -> None:
        self._sources.record_unchanged(checks, run_id)

    def update_source_state(self, url: str, **values: Any) -> None:
        self._sources.update_state(url, **values)

    def latest_sha_for_extractor(self, extractor: str, exclude_url: str) -> str | None:
        return self._sources.latest_sha_for_extractor(extractor, exclude_url)

    def record_fetch(
        self,
        url: str,
        status: str,
        *,
        sha256: str | None = None,
        http_status: int | None = None,
        error: str | None = None,
        run_id: str | None = None,
    ) -> None:
        self._sources.record_fetch(
            url, status, sha256=sha256, http_status=http_status, error=error, run_id=run_id
        )

    # -- sources' state ---------------------------------------------------------------------

    def source_state(self, url: str) -> SourceRow | None:
        return self._sources.state(url)

    def source_states(self, urls: list[str]) -> dict[str, SourceRow]:
        return self._sources.states(urls)

    def source_checks(self, urls: list[str]) -> dict[str, SourceRow]:
        """`source_states` without the registry entries (`Sources.checks`)."""
        return self._sources.checks(urls)

    def source_validators(self, urls: list[str]) -> dict[str, SourceRow]:
        """`source_states` with only the validators read (`Sources.validators`)."""
        return self._sources.validators(urls)

    # -- changes inside a decision's or the queue's transaction ------------------------------

    def insert_change(
        self, conn: Connection, change: Change, values: ChangeValues, now: str
    ) -> None:
        self._changes.insert(conn, change, values, now)

    def refresh_change(self, conn: Connection, change_id: str, values: ChangeValues) -> None:
        self._changes.refresh(conn, change_id, values)

    def reopen_change(self, conn: Connection, change_id: str, values: ChangeValues) -> None:
        self._changes.reopen(conn, change_id, values)

    def pending_of_source(self, conn: Connection, source_url: str) -> list[tuple[str, str]]:
        return self._changes.pending_of_source(conn, source_url)

    def claim_change(
        self, conn: Connection, change_id: str, old: str, new: str, now: str
    ) -> ChangeRow | None:
        """`move_change`, returning the change as moved (None when another decision came first
        or there is no such change)."""
        return self._changes.claim(conn, change_id, old, new, now)

    def move_change(self, conn: Connection, change_id: str, old: str, new: str, now: str) -> bool:
        """Move a change from status `old` to `new`: False when another decision came first."""
        return self._changes.move(conn, change_id, old, new, now)

    # -- decisions ---------------------------------------------------------------------------

    def record_decision(self, conn: Connection, decision: NewDecision) -> None:
        self._decisions.record(conn, decision)

    def last_decider(self, conn: Connection, change_id: str) -> str | None:
        return self._decisions.last_decider(conn, change_id)

    def decision_history(self, change_id: str) -> list[HistoryEntry]:
        return self._decisions.history(change_id)

    def last_standing(self, conn: Connection, editor: str) -> DecisionRow | None:
        return self._decisions.last_standing(conn, editor)

    def standing_in_bulk(self, conn: Connection, editor: str, bulk: str) -> list[DecisionRow]:
        return self._decisions.standing_in_bulk(conn, editor, bulk)

    # -- snapshots and claims ----------------------------------------------------------------

    def put_snapshot(self, snap: Snapshot) -> bool:
        return self._snapshots.put(snap)

    def get_snapshot(self, sha256: str) -> Snapshot:
        return self._snapshots.get(sha256)

    def snapshot_meta(self, sha256: str) -> SnapshotRow | None:
        return self._snapshots.meta(sha256)

    def newest_snapshot(self, url: str) -> SnapshotRow | None:
        return self._snapshots.newest_of(url)

    def snapshots_of(self, url: str, limit: int = 20) -> list[SnapshotRow]:
        return self._snapshots.all_of(url, limit)

    def put_claims(
        self, snapshot_sha256: str, source_url: str, found: list[Claim], *, fresh: bool = False
    ) -> int:
        """Store a snapshot's claims (idempotent; `fresh`: none of its are stored yet, as for a
        snapshot stored just now, so none are looked up)."""
        return self._claims.put(snapshot_sha256, source_url, found, fresh=fresh)

    def claims_for(self, snapshot_sha256: str) -> list[Claim]:
        return self._claims.of_snapshot(snapshot_sha256)

    # -- changes and the review queue --------------------------------------------------------

    def get_change(self, change_id: str, conn: Connection | None = None) -> ChangeRow | None:
        return self._changes.get(change_id, conn)

    def get_changes(self, ids: list[str]) -> dict[str, ChangeRow]:
        return self._changes.get_many(ids)

    def find_changes(self, change_id_prefix: str) -> list[str]:
        return self._changes.find(change_id_prefix)

    def change_statuses(self, ids: list[str]) -> dict[str, str]:
        return self._changes.statuses(ids)

    def pending_change_ids(self) -> frozenset[str]:
        return self._changes.pending_ids()

    def list_changes(
        self,
        status: str | None = None,
        profile: str | None = None,
        source_url: str | None = None,
        kind: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Change]:
        filters = QueueFilter(status=status, profile=profile, source_url=source_url, kind=kind)
        return self._changes.in_queue_order(filters, limit, offset)

    def count_changes(self, filters: QueueFilter) -> int:
        return self._queue.count_changes(filters)

    def queue_rows(self, filters: QueueFilter, limit: int, offset: int = 0) -> list[ChangeRow]:
        return self._queue.rows(filters, limit, offset)

    def queue_neighbour(
        self, filters: QueueFilter, change: Mapping[str, Any], forward: bool = True
    ) -> str | None:
        return self._queue.neighbour(filters, _row(change), forward)

    def queue_facets(self, filters: QueueFilter) -> dict[str, list[tuple[str, int]]]:
        return self._queue.facets(filters)

    def count_facts(self, filters: QueueFilter) -> int:
        return self._queue.count_facts(filters)

    def queue_facts(
        self, filters: QueueFilter, limit: int, offset: int = 0
    ) -> list[list[ChangeRow]]:
        return self._queue.facts(filters, limit, offset)

    def fact_members(
        self, change: Mapping[str, Any], filters: QueueFilter, conn: Connection | None = None
    ) -> list[ChangeRow]:
        return self._queue.fact_members(_row(change), filters, conn)

    def fact_neighbour(
        self, filters: QueueFilter, change: Mapping[str, Any], forward: bool = True
    ) -> str | None:
        return self._queue.fact_neighbour(filters, _row(change), forward)

    def fact_position(self, filters: QueueFilter, change: Mapping[str, Any]) -> int:
        return self._queue.fact_position(filters, _row(change))

    def fact_place(
        self, filters: QueueFilter, change: Mapping[str, Any]
    ) -> tuple[str | None, str | None, int]:
        """(the fact before's leading change, the fact after's, this fact's position)."""
        return self._queue.fact_place(filters, _row(change))

    # -- the audit log -----------------------------------------------------------------------

    def audit(
        self,
        conn: Connection,
        actor: str,
        action: str,
        *,
        change_id: str | None = None,
        profile: str | None = None,
        **detail: Any,
    ) -> None:
        self._audit_log.append(conn, actor, action, change_id=change_id, profile=profile, **detail)

    def audit_entries(self, limit: int = 100) -> list[AuditEntry]:
        return self._audit_log.page(limit)[0]

    def audit_page(
        self,
        limit: int,
        offset: int = 0,
        actor: str | None = None,
        action: str | None = None,
        profile: str | None = None,
    ) -> tuple[list[AuditEntry], int]:
        return self._audit_log.page(limit, offset, actor, action, profile)

    def audit_choices(self) -> tuple[list[str], list[str]]:
        return self._audit_log.actions()

    # -- editors and runs --------------------------------------------------------------------

    def add_editor(self, name: str, password_hash: str) -> bool:
        return self._editors.add(name, password_hash)

    def editor_hash(self, name: str) -> str | None:
        return self._editors.password_hash(name)

    def session_epoch(self, name: str) -> str | None:
        return self._editors.session_epoch(name)

    def renew_session_epoch(self, name: str) -> str | None:
        return self._editors.renew_session_epoch(name)

    def start_visit(self, name: str) -> None:
        self._editors.start_visit(name)

    def seen_queue(self, name: str, now: str | None = None) -> str | None:
        return self._editors.seen(name, now)

    def last_visit(self, name: str) -> str | None:
        return self._editors.seen_before(name)

    def list_editors(self) -> list[EditorRow]:
        return self._editors.all()

    def remove_editor(self, name: str) -> bool:
        return self._editors.remove(name)

    def start_run(
        self, run_id: str, kind: str, flow_run_id: str | None = None, process: str | None = None
    ) -> None:
        self._runs.start(run_id, kind, flow_run_id, process)

    def end_run(self, run_id: str, status: str, reason: str) -> bool:
        return self._runs.end(run_id, status, reason)

    def running_runs(self) -> list[dict[str, Any]]:
        return self._runs.running()

    def finish_run(self, run_id: str, report: dict[str, Any]) -> None:
        self._runs.finish(run_id, report)


def _row(change: Mapping[str, Any]) -> ChangeRow:
    return change if isinstance(change, ChangeRow) else ChangeRow.from_mapping(change)


def row_to_change(row: Mapping[str, Any]) -> Change:
    """The contract's Change of a stored change row."""
    return _row(row).to_change()
