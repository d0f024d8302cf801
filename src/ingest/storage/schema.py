"""The schema: every table, index and trigger of the database, as the latest migration leaves
it (ingest.storage.migrations builds it step by step; each part module owns the SQL on its
tables)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# the migrations applied, by name, in order (ingest.storage.migrations)
applied_migrations = sa.Table(
    "applied_migrations",
    metadata,
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("applied_at", sa.Text, nullable=False),
)

# before the named migrations: the number of the last one applied (read once, to adopt it)
schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)

sources = sa.Table(
    "sources",
    metadata,
    sa.Column("url", sa.Text, primary_key=True),
    sa.Column("extractor", sa.Text),
    sa.Column("meta", sa.JSON, nullable=False, default=dict),  # title, publisher, kind, ...
    sa.Column("etag", sa.Text),
    sa.Column("last_modified", sa.Text),
    sa.Column("last_sha256", sa.Text),
    sa.Column("last_status", sa.Text),  # fetched / unchanged / failed
    sa.Column("last_checked", sa.Text),
    sa.Column("people_count", sa.Integer),  # distinct people in the last healthy snapshot
    sa.Column("fail_streak", sa.Integer, nullable=False, default=0),
    sa.Column("last_error", sa.Text),
    sa.Column("final_url", sa.Text),  # added by migration 2
    # what the last full check of an unchanged-able snapshot settled to (migration 4; see
    # ingest.pipeline.settled): lets an unchanged source skip extraction, diff and queue next time
    sa.Column("settled", sa.JSON),
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("requested_url", sa.Text),
    sa.Column("status_code", sa.Integer, nullable=False),
    sa.Column("headers", sa.JSON, nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("fetched_at", sa.Text, nullable=False),
    # where its bytes came from (network, replay, file) and the day it is evidence for
    # (migration 7, `snapshots_origin_and_evidence_date`)
    sa.Column("origin", sa.Text),
    sa.Column("evidence_date", sa.Text),
)

fetches = sa.Table(
    "fetches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.Text),
    sa.Column("url", sa.Text, nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("sha256", sa.String(64)),
    sa.Column("http_status", sa.Integer),
    sa.Column("error", sa.Text),
    sa.Column("at", sa.Text, nullable=False),
)

claims = sa.Table(
    "claims",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # hash of snapshot + claim
    sa.Column("snapshot_sha256", sa.String(64), nullable=False, index=True),
    sa.Column("source_url", sa.Text, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("extractor", sa.Text, nullable=False),
    sa.Column("predicate", sa.Text, nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)

changes = sa.Table(
    "changes",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("profile", sa.Text, nullable=False, index=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("claim", sa.JSON),
    sa.Column("previous", sa.JSON),
    sa.Column("source_url", sa.Text, nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False, index=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("evidence_key", sa.Text, nullable=False),
    sa.Column("snapshot_sha256", sa.String(64)),
    # the fact it states (ingest.fact_identity.fact_key; migration 6): one decision per fact
    sa.Column("fact", sa.String(32)),
)

decisions = sa.Table(
    "decisions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("change_id", sa.String(32), nullable=False, index=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("editor", sa.Text, nullable=False),
    sa.Column("note", sa.Text),
    sa.Column("decided_at", sa.Text, nullable=False),
    sa.Column("profile_path", sa.Text),
    sa.Column("profile_before", sa.Text),  # exact file text before an accept (for undo)
    sa.Column("profile_after", sa.Text),
    # decisions taken in one action (a fact's changes, a bulk accept) share it (migration 6):
    # undo takes them back together
    sa.Column("bulk", sa.String(32)),
)

audit_log = sa.Table(
    "audit_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Text, nullable=False),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("change_id", sa.String(32)),
    sa.Column("profile", sa.Text),
    sa.Column("detail", sa.JSON, nullable=False),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("started", sa.Text, nullable=False),
    sa.Column("finished", sa.Text),
    sa.Column("report", sa.JSON),
    # migration 7: running, completed, failed, cancelled or crashed (a process gone mid-run);
    # the Prefect flow run, and the process running it (host:pid:start time)
    sa.Column("status", sa.Text),
    sa.Column("flow_run_id", sa.Text),
    sa.Column("process", sa.Text),
)

editors = sa.Table(
    "editors",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("password_hash", sa.Text, nullable=False),  # scrypt$n$r$p$salt$hash (base64)
    sa.Column("created", sa.Text, nullable=False),
    # random, in every session cookie of the account (migration 5): a new one on sign-out, on a
    # password change and for a re-created account ends every session signed in before
    sa.Column("session_epoch", sa.Text),
    # the review queue's "new since your last visit" (migration 9): when the editor last looked
    # at the queue, and the same as it was when this session signed in (the boundary of "new")
    sa.Column("seen_at", sa.Text),
    sa.Column("seen_before", sa.Text),
)

# The review page's queue: filter by status (and person, source, kind), order by source, created,
# id, page with LIMIT/OFFSET or seek to the next change; each is one index range.
REVIEW_INDEXES = [
    sa.Index(
        "ix_changes_queue", changes.c.status, changes.c.source_url, changes.c.created, changes.c.id
    ),
    sa.Index("ix_changes_status_profile", changes.c.status, changes.c.profile),
    sa.Index("ix_changes_status_kind", changes.c.status, changes.c.kind),
    sa.Index("ix_decisions_editor", decisions.c.editor, decisions.c.id),
]

_APPEND_ONLY_SQLITE = [
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
]

# PostgreSQL: one PL/pgSQL function raising an integrity error (SQLSTATE 23000, so SQLAlchemy
# raises IntegrityError as it does for SQLite's RAISE(ABORT)), fired before any UPDATE, DELETE or
# TRUNCATE of the audit log.
_APPEND_ONLY_POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
           RAISE EXCEPTION 'audit_log is append-only'
               USING ERRCODE = 'integrity_constraint_violation';
       END
       $$""",
    "DROP TRIGGER IF EXISTS audit_log_no_update ON audit_log",
    """CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
       FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()""",
    "DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log",
    """CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
       FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()""",
]


FACT_INDEX = sa.Index("ix_changes_status_fact", changes.c.status, changes.c.fact)
BULK_INDEX = sa.Index("ix_decisions_bulk", decisions.c.bulk)
# the last page read by an extractor (a new source's "before", Sources.latest_sha_for_extractor):
# one index range, not a scan and sort of every source per new source (migration 11)
SOURCES_EXTRACTOR_INDEX = sa.Index(
    "ix_sources_extractor_checked", sources.c.extractor, sources.c.last_checked
)

# The review queue by fact (migration 10, `queue_facts_kept_on_write`): one row per fact and
# status, kept by triggers on `changes` (ingest.storage.queue_index), so that counting, paging
# and seeking the queue by fact read an index instead of grouping every change. `first_*`: the
# fact's place in the queue (the least source, created and id of its changes, as the queue has
# always ordered facts); `newest`: its latest change (new since a visit); `rated`: how many of
# its changes carry a `qualifiers.confidence`. Profile, kind and predicate are part of a fact's
# identity (ingest.fact_identity), the same for all its changes.
queue_facts = sa.Table(
    "queue_facts",
    metadata,
    sa.Column("status", sa.Text, primary_key=True),
    sa.Column("fact", sa.String(32), primary_key=True),
    sa.Column("changes", sa.Integer, nullable=False),
    sa.Column("rated", sa.Integer, nullable=False),
    sa.Column("first_source", sa.Text, nullable=False),
    sa.Column("first_created", sa.Text, nullable=False),
    sa.Column("first_id", sa.String(32), nullable=False),
    sa.Column("newest", sa.Text, nullable=False),
    sa.Column("profile", sa.Text, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("predicate", sa.Text),
)

# which sources state each fact (of a status): the queue's per-source fact counts
queue_fact_sources = sa.Table(
    "queue_fact_sources",
    metadata,
    sa.Column("status", sa.Text, primary_key=True),
    sa.Column("source_url", sa.Text, primary_key=True),
    sa.Column("fact", sa.String(32), primary_key=True),
)

QUEUE_FACT_INDEXES = [
    sa.Index(
        "ix_queue_facts_order",
        queue_facts.c.status,
        queue_facts.c.first_source,
        queue_facts.c.first_created,
        queue_facts.c.first_id,
    ),
    sa.Index("ix_queue_facts_newest", queue_facts.c.status, queue_facts.c.newest),
    sa.Index("ix_queue_facts_profile", queue_facts.c.status, queue_facts.c.profile),
    sa.Index("ix_queue_facts_kind", queue_facts.c.status, queue_facts.c.kind),
    sa.Index("ix_queue_facts_predicate", queue_facts.c.status, queue_facts.c.predicate),
]
# the facts carrying a confidence, of a status (the queue's confidence facet): one index range of
# the rated ones, not a read of every fact's row (migration 12)
QUEUE_RATED_INDEX = sa.Index("ix_queue_facts_rated", queue_facts.c.status, queue_facts.c.rated)
# a fact's changes of one status (the triggers' recount, a fact's members): one index range.
# An expression index, which SQLAlchemy cannot check for: created as SQL, the same on both.
FACT_KEY_INDEX = (
    "CREATE INDEX IF NOT EXISTS ix_changes_status_fact_key ON changes (status, coalesce(fact, id))"
)
