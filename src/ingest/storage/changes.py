"""Changes: the queued differences between sources and profiles, and their status moves.

The status moves are conditional updates (`WHERE status = ...`), so of two editors deciding the
same change at once exactly one moves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.models import Change
from ingest.storage.database import Database
from ingest.storage.rows import ChangeRow, ChangeValues
from ingest.storage.schema import changes

_CHUNK = 500  # ids to one IN (...) query

QUEUE_ORDER = (changes.c.source_url, changes.c.created, changes.c.id)
# the fact a change states; a change without a fact is its own
fact_column: sa.ColumnElement[str] = sa.func.coalesce(changes.c.fact, changes.c.id)

_Q = TypeVar("_Q", bound=sa.Select[*tuple[Any, ...]])


# the predicate a change states (its claim's, a removal's previous claim's) and the claim's
# `qualifiers.confidence` (absent on claims of extractors that give none): JSON paths, the same
# on SQLite and PostgreSQL
predicate_column: sa.ColumnElement[str] = sa.func.coalesce(
    changes.c.claim["predicate"].as_string(), changes.c.previous["predicate"].as_string()
)
confidence_column: sa.ColumnElement[float] = changes.c.claim[
    ("qualifiers", "confidence")
].as_float()


@dataclass(frozen=True)
class QueueFilter:
    """What the review queue shows: empty fields match everything. `created_after` keeps the
    changes queued at or after that time (ISO, "new since your last visit"); `min_confidence` the
    claims whose `qualifiers.confidence` is at least that (claims without one are left out)."""

    status: str | None = "pending"
    profile: str | None = None
    source_url: str | None = None
    kind: str | None = None
    predicate: str | None = None
    min_confidence: float | None = None
    created_after: str | None = None

    def apply(self, query: _Q) -> _Q:
        """The query narrowed to the changes this filter shows."""
        for column, wanted in (
            (changes.c.status, self.status),
            (changes.c.profile, self.profile),
            (changes.c.source_url, self.source_url),
            (changes.c.kind, self.kind),
            (predicate_column, self.predicate),
        ):
            if wanted:
                query = query.where(column == wanted)
        if self.min_confidence is not None:
            query = query.where(confidence_column >= self.min_confidence)
        if self.created_after:
            # at or after: a change queued in the second of the last look is new (not lost)
            query = query.where(changes.c.created >= self.created_after)
        return query


class Changes:
    """The `changes` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, change_id: str, conn: Connection | None = None) -> ChangeRow | None:
        with self.db.using(conn) as c:
            row = c.execute(sa.select(changes).where(changes.c.id == change_id)).mappings().first()
        return ChangeRow.from_mapping(row) if row else None

    def get_many(self, ids: list[str]) -> dict[str, ChangeRow]:
        """The rows of these ids that exist, by id, in one query per 500."""
        out: dict[str, ChangeRow] = {}
        with self.db.begin() as conn:
            for start in range(0, len(ids), _CHUNK):
                query = sa.select(changes).where(changes.c.id.in_(ids[start : start + _CHUNK]))
                for row in conn.execute(query).mappings():
                    out[row["id"]] = ChangeRow.from_mapping(row)
        return out

    def find(self, change_id_prefix: str) -> list[str]:
        """The ids starting with this prefix."""
        with self.db.begin() as conn:
            return list(
                conn.execute(
                    sa.select(changes.c.id).where(
                        changes.c.id.startswith(change_id_prefix, autoescape=True)
                    )
                ).scalars()
            )

    def statuses(self, ids: list[str]) -> dict[str, str]:
        """The status of each of these changes that exists, in one query per 500."""
        out: dict[str, str] = {}
        with self.db.begin() as conn:
            for start in range(0, len(ids), _CHUNK):
                query = sa.select(changes.c.id, changes.c.status).where(
                    changes.c.id.in_(ids[start : start + _CHUNK])
                )
                out.update((row.id, row.status) for row in conn.execute(query))
        return out

    def pending_ids(self) -> frozenset[str]:
        """The ids of every pending change (what a run finds queued when it starts)."""
        with self.db.begin() as conn:
            query = sa.select(changes.c.id).where(changes.c.status == "pending")
            return frozenset(str(i) for i in conn.execute(query).scalars())

    def in_queue_order(
        self, filters: QueueFilter, limit: int | None = None, offset: int = 0
    ) -> list[Change]:
        """The filter's changes in queue order (source, created, id)."""
        query = filters.apply(sa.select(changes)).order_by(*QUEUE_ORDER)
        if limit is not None:
            query = query.limit(limit).offset(offset)
        with self.db.begin() as conn:
            rows = conn.execute(query).mappings().all()
        return [ChangeRow.from_mapping(r).to_change() for r in rows]

    # -- what the queue's rules do (ingest.review.queue) -------------------------------------------

    def insert(self, conn: Connection, change: Change, values: ChangeValues, now: str) -> None:
        """A change seen for the first time: queued as pending."""
        conn.execute(
            changes.insert().values(
                id=change.id,
                profile=change.profile,
                kind=change.kind,
                source_url=change.source_url,
                status="pending",
                created=now,
                **_values(values),
            )
        )

    def refresh(self, conn: Connection, change_id: str, values: ChangeValues) -> None:
        """A change seen again: its latest evidence kept, its status left."""
        conn.execute(changes.update().where(changes.c.id == change_id).values(**_values(values)))

    def reopen(self, conn: Connection, change_id: str, values: ChangeValues) -> None:
        """A decided or superseded change proposed again: pending with its latest evidence."""
        conn.execute(
            changes.update()
            .where(changes.c.id == change_id)
            .values(status="pending", **_values(values))
        )

    def pending_of_source(self, conn: Connection, source_url: str) -> list[tuple[str, str]]:
        """(id, profile) of the source's pending changes."""
        rows = conn.execute(_PENDING_OF_SOURCE, {"source_url": source_url}).all()
        return [(str(i), str(p)) for i, p in rows]

    def claim(
        self, conn: Connection, change_id: str, old: str, new: str, now: str
    ) -> ChangeRow | None:
        """`move`, returning the row as moved (one statement: UPDATE ... RETURNING, on SQLite
        and PostgreSQL); None when the change was not in `old`."""
        row = (
            conn.execute(
                changes.update()
                .where(changes.c.id == change_id, changes.c.status == old)
                .values(status=new, updated=now)
                .returning(*changes.c)
            )
            .mappings()
            .first()
        )
        return ChangeRow.from_mapping(row) if row else None

    def move(self, conn: Connection, change_id: str, old: str, new: str, now: str) -> bool:
        """Set the status from `old` to `new`; False when the change was not in `old` (someone
        else moved it first, or it does not exist)."""
        moved = conn.execute(
            changes.update()
            .where(changes.c.id == change_id, changes.c.status == old)
            .values(status=new, updated=now)
        ).rowcount
        return moved == 1


# built once (each source's check runs it: building and keying a statement anew cost more than
# running it)
_PENDING_OF_SOURCE = sa.select(changes.c.id, changes.c.profile).where(
    changes.c.source_url == sa.bindparam("source_url"), changes.c.status == "pending"
)


def _values(values: ChangeValues) -> dict[str, Any]:
    return {
        "claim": values.claim,
        "previous": values.previous,
        "updated": values.updated,
        "evidence_key": values.evidence_key,
        "snapshot_sha256": values.snapshot_sha256,
        "fact": values.fact,
    }
