"""Storage: a SQL database (SQLite file in INGEST_HOME by default, or PostgreSQL through
`INGEST_DATABASE_URL=postgresql+psycopg://...`) plus snapshot bodies on disk.

Snapshot bodies are stored once, by sha256, under `<home>/snapshots/<sha[:2]>/<sha>`; the database
holds sources, fetches, snapshots, claims, changes, decisions, runs, editors and an append-only
audit log. Each part below owns the SQL on its tables; no SQL is written outside this package.

    schema         the tables, indexes and triggers
    migrations     the schema's steps, each run once (ingest.storage.migrations)
    database       engine, transactions, URLs
    rows           typed rows (dataclasses) every part returns
    sources        sources and the fetch log
    snapshots      snapshot rows and bodies
    claims         claims per snapshot
    changes        queued changes and their status moves; QueueFilter
    review_queue   the review queue's pages, facts, neighbours, counts
    decisions      editors' decisions, the undo's standing decisions
    audit          the append-only audit log
    editors        editor accounts
    runs           runs and their reports
    store          Store: all of them opened together, and the facade callers use
"""

from ingest.storage.changes import QueueFilter
from ingest.storage.database import database_url
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
from ingest.storage.store import Store, row_to_change

__all__ = [
    "AuditEntry",
    "ChangeRow",
    "ChangeValues",
    "DecisionRow",
    "EditorRow",
    "HistoryEntry",
    "QueueFilter",
    "SnapshotRow",
    "SourceRow",
    "Store",
    "database_url",
    "row_to_change",
]
