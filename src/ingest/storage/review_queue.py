"""The review queue's pages: counts, one page of changes or of facts, neighbours and positions.

The queue is ordered by (source, created, id); a fact (ingest.review.grouping) takes the place of
its first change. Every query here is one index range on `changes` (see schema.REVIEW_INDEXES).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ingest.storage.changes import (
    QUEUE_ORDER,
    QueueFilter,
    confidence_column,
    fact_column,
    predicate_column,
)
from ingest.storage.database import Database
from ingest.storage.rows import ChangeRow
from ingest.storage.schema import changes


class ReviewQueue:
    """Read-only views of the `changes` table in the queue's order."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def count_changes(self, filters: QueueFilter) -> int:
        query = filters.apply(sa.select(sa.func.count()).select_from(changes))
        with self.db.begin() as conn:
            return int(conn.execute(query).scalar() or 0)

    def rows(self, filters: QueueFilter, limit: int, offset: int = 0) -> list[ChangeRow]:
        """One page of the queue's changes in its order."""
        query = filters.apply(sa.select(changes)).order_by(*QUEUE_ORDER)
        with self.db.begin() as conn:
            rows = conn.execute(query.limit(limit).offset(offset)).mappings().all()
        return [ChangeRow.from_mapping(r) for r in rows]

    def neighbour(
        self, filters: QueueFilter, change: ChangeRow, forward: bool = True
    ) -> str | None:
        """The id of the change after (or before) `change` in the queue's order."""
        key = sa.tuple_(*QUEUE_ORDER)
        here = (change.source_url, change.created, change.id)
        query = filters.apply(sa.select(changes.c.id))
        if forward:
            query = query.where(key > sa.tuple_(*here)).order_by(*QUEUE_ORDER)
        else:
            query = query.where(key < sa.tuple_(*here)).order_by(*(c.desc() for c in QUEUE_ORDER))
        with self.db.begin() as conn:
            return _str(conn.execute(query.limit(1)).scalar())

    def facets(self, filters: QueueFilter) -> dict[str, list[tuple[str, int]]]:
        """Counts of facts by source, person, kind and predicate among changes of the filter's
        status, and `confidence`: how many of its claims carry a `qualifiers.confidence`."""
        base = QueueFilter(status=filters.status)
        out: dict[str, list[tuple[str, int]]] = {}
        with self.db.begin() as conn:
            for name, column in (
                ("source", changes.c.source_url),
                ("person", changes.c.profile),
                ("kind", changes.c.kind),
                ("predicate", predicate_column),
            ):
                query = base.apply(  # facts, as everywhere (ingest.review.grouping)
                    sa.select(column, sa.func.count(sa.distinct(fact_column)))
                    .group_by(column)
                    .order_by(column)
                )
                out[name] = [(str(v), int(n)) for v, n in conn.execute(query) if v is not None]
            rated = base.apply(sa.select(sa.func.count()).select_from(changes)).where(
                confidence_column.is_not(None)
            )
            out["confidence"] = [("rated", int(conn.execute(rated).scalar() or 0))]
        return out

    # -- by fact (one entry per fact: ingest.review.grouping) -------------------------------------

    def count_facts(self, filters: QueueFilter) -> int:
        """How many facts (one decision each) the filter's changes state."""
        query = filters.apply(
            sa.select(sa.func.count(sa.distinct(fact_column))).select_from(changes)
        )
        with self.db.begin() as conn:
            return int(conn.execute(query).scalar() or 0)

    @staticmethod
    def _fact_keys(filters: QueueFilter) -> Any:
        return filters.apply(
            sa.select(
                fact_column.label("f"),
                sa.func.min(changes.c.source_url).label("s"),
                sa.func.min(changes.c.created).label("c"),
                sa.func.min(changes.c.id).label("i"),
            ).group_by(fact_column)
        ).subquery()

    def facts(self, filters: QueueFilter, limit: int, offset: int = 0) -> list[list[ChangeRow]]:
        """One page of the queue, one entry per fact: each entry the fact's changes (among the
        filter's) in queue order, the first one leading."""
        keys = self._fact_keys(filters)
        page = (
            sa.select(keys.c.f).order_by(keys.c.s, keys.c.c, keys.c.i).limit(limit).offset(offset)
        )
        with self.db.begin() as conn:
            order = [str(f) for f in conn.execute(page).scalars()]
            if not order:
                return []
            rows = (
                conn.execute(
                    filters.apply(sa.select(changes, fact_column.label("fact_key")))
                    .where(fact_column.in_(order))
                    .order_by(*QUEUE_ORDER)
                )
                .mappings()
                .all()
            )
        by_fact: dict[str, list[ChangeRow]] = {f: [] for f in order}
        for row in rows:
            by_fact[row["fact_key"]].append(ChangeRow.from_mapping(row))
        return [by_fact[f] for f in order if by_fact[f]]

    def fact_members(
        self, change: ChangeRow, filters: QueueFilter, conn: Connection | None = None
    ) -> list[ChangeRow]:
        """The changes (among `filters`) stating the same fact as `change`, in queue order."""
        fact = change.fact_id
        query = (
            filters.apply(sa.select(changes))
            .where(
                sa.or_(changes.c.fact == fact, changes.c.id == fact),  # each one index range
                fact_column == fact,
                changes.c.profile == change.profile,
            )
            .order_by(*QUEUE_ORDER)
        )
        with self.db.using(conn) as c:
            return [ChangeRow.from_mapping(r) for r in c.execute(query).mappings().all()]

    @staticmethod
    def _fact_here(conn: Connection, filters: QueueFilter, change: ChangeRow) -> tuple[Any, ...]:
        query = filters.apply(
            sa.select(
                sa.func.min(changes.c.source_url),
                sa.func.min(changes.c.created),
                sa.func.min(changes.c.id),
            ).where(fact_column == change.fact_id)
        )
        here = conn.execute(query).first()
        if here is None or here[0] is None:
            return (change.source_url, change.created, change.id)
        return tuple(here)

    def fact_neighbour(
        self, filters: QueueFilter, change: ChangeRow, forward: bool = True
    ) -> str | None:
        """The leading change of the fact after (or before) `change`'s fact in the queue."""
        keys = self._fact_keys(filters)
        key = sa.tuple_(keys.c.s, keys.c.c, keys.c.i)
        with self.db.begin() as conn:
            here = sa.tuple_(*self._fact_here(conn, filters, change))
            query = sa.select(keys.c.f).where(keys.c.f != change.fact_id)
            if forward:
                query = query.where(key > here).order_by(keys.c.s, keys.c.c, keys.c.i)
            else:
                query = query.where(key < here).order_by(
                    keys.c.s.desc(), keys.c.c.desc(), keys.c.i.desc()
                )
            found = conn.execute(query.limit(1)).scalar()
            if found is None:
                return None
            return _str(
                conn.execute(
                    filters.apply(sa.select(changes.c.id))
                    .where(fact_column == found)
                    .order_by(*QUEUE_ORDER)
                    .limit(1)
                ).scalar()
            )

    def fact_position(self, filters: QueueFilter, change: ChangeRow) -> int:
        """1-based place of `change`'s fact in the queue (the n of "n of N")."""
        keys = self._fact_keys(filters)
        key = sa.tuple_(keys.c.s, keys.c.c, keys.c.i)
        with self.db.begin() as conn:
            here = sa.tuple_(*self._fact_here(conn, filters, change))
            before = conn.execute(
                sa.select(sa.func.count()).select_from(keys).where(key < here)
            ).scalar()
        return int(before or 0) + 1


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
