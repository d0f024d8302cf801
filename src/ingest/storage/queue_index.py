"""The review queue by fact, kept on write: triggers on `changes` that keep `queue_facts` and
`queue_fact_sources` (ingest.storage.schema) in step with every insert, update and delete, on
SQLite and PostgreSQL, whoever writes (the queue's rules, a migration, a test's bulk insert).

Each trigger recounts only the facts the written row belongs to, before and after the write
(one index range of `changes` each: `ix_changes_status_fact_key`), so a write costs the size
of its fact, not of the queue. `rebuild` fills both tables from `changes` (migration 10).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_KEY = "coalesce({p}fact, {p}id)"

# per dialect: a claim's confidence and a change's predicate, as the queue's filters read them
# (ingest.storage.changes: confidence_column, predicate_column)
_JSON = {
    "sqlite": (
        "json_extract(claim, '$.qualifiers.confidence')",
        "coalesce(json_extract(claim, '$.predicate'), json_extract(previous, '$.predicate'))",
    ),
    "postgresql": (
        "(claim #>> '{qualifiers,confidence}')",
        "coalesce(claim #>> '{predicate}', previous #>> '{predicate}')",
    ),
}

_COLUMNS = (
    "status, fact, changes, rated, first_source, first_created, first_id, newest, profile, "
    "kind, predicate"
)


def _aggregate(dialect: str, where: str) -> str:
    confidence, predicate = _JSON[dialect]
    key = _KEY.format(p="")
    return (
        f"SELECT status, {key}, count(*), count({confidence}), min(source_url), min(created), "
        f"min(id), max(created), min(profile), min(kind), min({predicate}) "
        f"FROM changes {where} GROUP BY status, {key}"
    )


def _refresh(dialect: str, row: str) -> list[str]:
    """Statements recounting the fact (and its source's entry) of trigger row `row` (NEW/OLD)."""
    key = _KEY.format(p=f"{row}.")
    here = f"status = {row}.status AND {_KEY.format(p='')} = {key}"
    upsert = (
        " ON CONFLICT (status, fact) DO UPDATE SET "
        + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS.split(", ")[2:])
        if dialect == "postgresql"
        else ""
    )
    source_upsert = " ON CONFLICT DO NOTHING" if dialect == "postgresql" else ""
    return [
        f"DELETE FROM queue_facts WHERE status = {row}.status AND fact = {key}",
        f"INSERT INTO queue_facts ({_COLUMNS}) {_aggregate(dialect, 'WHERE ' + here)}{upsert}",
        f"DELETE FROM queue_fact_sources WHERE status = {row}.status "
        f"AND source_url = {row}.source_url AND fact = {key}",
        f"INSERT INTO queue_fact_sources (status, source_url, fact) "
        f"SELECT {row}.status, {row}.source_url, {key} WHERE EXISTS "
        f"(SELECT 1 FROM changes WHERE {here} AND source_url = {row}.source_url)"
        f"{source_upsert}",
    ]


# the columns whose change moves a change between facts or changes what its fact shows
_WATCHED = "status, fact, source_url, created, profile, kind, claim, previous"


def _sqlite_ddl() -> list[str]:
    def trigger(name: str, event: str, rows: list[str]) -> str:
        body = "; ".join(s for row in rows for s in _refresh("sqlite", row))
        return f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {event} ON changes BEGIN {body}; END"

    return [
        trigger("changes_queue_facts_insert", "INSERT", ["NEW"]),
        trigger("changes_queue_facts_update", f"UPDATE OF {_WATCHED}", ["OLD", "NEW"]),
        trigger("changes_queue_facts_delete", "DELETE", ["OLD"]),
    ]


def _postgresql_ddl() -> list[str]:
    old = "; ".join(_refresh("postgresql", "OLD"))
    new = "; ".join(_refresh("postgresql", "NEW"))
    return [
        f"""CREATE OR REPLACE FUNCTION changes_queue_facts() RETURNS trigger
           LANGUAGE plpgsql AS $$
           BEGIN
               IF TG_OP IN ('UPDATE', 'DELETE') THEN {old}; END IF;
               IF TG_OP IN ('INSERT', 'UPDATE') THEN {new}; END IF;
               RETURN NULL;
           END
           $$""",
        "DROP TRIGGER IF EXISTS changes_queue_facts ON changes",
        f"""CREATE TRIGGER changes_queue_facts
           AFTER INSERT OR DELETE OR UPDATE OF {_WATCHED} ON changes
           FOR EACH ROW EXECUTE FUNCTION changes_queue_facts()""",
    ]


def install_triggers(conn: Connection) -> None:
    """The triggers keeping the queue by fact (idempotent)."""
    ddl = _postgresql_ddl() if conn.dialect.name == "postgresql" else _sqlite_ddl()
    for statement in ddl:
        conn.exec_driver_sql(statement)


def rebuild(conn: Connection) -> None:
    """Both tables recounted from `changes` whole (a migration's backfill, a repair)."""
    dialect = "postgresql" if conn.dialect.name == "postgresql" else "sqlite"
    conn.execute(sa.text("DELETE FROM queue_facts"))
    conn.execute(sa.text("DELETE FROM queue_fact_sources"))
    conn.exec_driver_sql(f"INSERT INTO queue_facts ({_COLUMNS}) {_aggregate(dialect, '')}")
    key = _KEY.format(p="")
    conn.exec_driver_sql(
        "INSERT INTO queue_fact_sources (status, source_url, fact) "
        f"SELECT DISTINCT status, source_url, {key} FROM changes"
    )
