"""The review queue's pages: counts, one page of changes or of facts, neighbours and positions.

The queue is ordered by (source, created, id); a fact (ingest.review.grouping) takes the place of
its first change. Queries by change are one index range on `changes` (schema.REVIEW_INDEXES).
Queries by fact under a filter of one status (and of a person, kind or predicate: what all the
changes of a fact share) read `queue_facts`, kept on write by triggers (ingest.storage.
queue_index): a count, a page, a neighbour or a position is one index range of it, not a
grouping of every change. Other filters (a source, a confidence, all statuses) group `changes`.
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
from ingest.storage.schema import changes, queue_fact_sources, queue_facts

_F = queue_facts.c
_FACT_ORDER = (_F.first_source, _F.first_created, _F.first_id)


def _by_fact(filters: QueueFilter, counting: bool = False) -> bool:
    """Whether `queue_facts` answers for this filter. "New since" (`created_after`) only when
    `counting`: a fact counts when its newest change is new, but its place among the new ones
    is that of its first new change, which queue_facts does not keep."""
    return (
        filters.status is not None
        and filters.source_url is None
        and filters.min_confidence is None
        and (counting or filters.created_after is None)
    )


def _facts_where(query: Any, filters: QueueFilter) -> Any:
    """`query` on queue_facts narrowed to the facts of a `_by_fact` filter."""
    query = query.where(_F.status == filters.status)
    for column, wanted in (
        (_F.profile, filters.profile),
        (_F.kind, filters.kind),
        (_F.predicate, filters.predicate),
    ):
        if wanted:
            query = query.where(column == wanted)
    if filters.created_after:  # a fact is new when its newest change is
        query = query.where(_F.newest >= filters.created_after)
    return query


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
        if filters.status is None:
            return self._facets_grouped(QueueFilter(status=None))
        out: dict[str, list[tuple[str, int]]] = {}
        sources = queue_fact_sources.c
        with self.db.begin() as conn:
            query = (
                sa.select(sources.source_url, sa.func.count())
                .where(sources.status == filters.status)
                .group_by(sources.source_url)
                .order_by(sources.source_url)
            )
            out["source"] = [(str(v), int(n)) for v, n in conn.execute(query) if v is not None]
            for name, column in (
                ("person", _F.profile),
                ("kind", _F.kind),
                ("predicate", _F.predicate),
            ):
                query = (
                    sa.select(column, sa.func.count())
                    .where(_F.status == filters.status)
                    .group_by(column)
                    .order_by(column)
                )
                out[name] = [(str(v), int(n)) for v, n in conn.execute(query) if v is not None]
            rated = sa.select(sa.func.sum(_F.rated)).where(  # ix_queue_facts_rated
                _F.status == filters.status, _F.rated > 0
            )
            out["confidence"] = [("rated", int(conn.execute(rated).scalar() or 0))]
        return out

    def _facets_grouped(self, base: QueueFilter) -> dict[str, list[tuple[str, int]]]:
        """The facets grouped from `changes` (every status at once)."""
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
        if _by_fact(filters, counting=True):
            query = _facts_where(sa.select(sa.func.count()).select_from(queue_facts), filters)
        elif filters == QueueFilter(status=filters.status, source_url=filters.source_url) and (
            filters.status is not None
        ):
            sources = queue_fact_sources.c
            query = sa.select(sa.func.count()).where(
                sources.status == filters.status, sources.source_url == filters.source_url
            )
        else:
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
        if _by_fact(filters):
            page = _facts_where(sa.select(_F.fact), filters).order_by(*_FACT_ORDER)
        else:
            keys = self._fact_keys(filters)
            page = sa.select(keys.c.f).order_by(keys.c.s, keys.c.c, keys.c.i)
        page = page.limit(limit).offset(offset)
        with self.db.begin() as conn:
            order = [str(f) for f in conn.execute(page).scalars()]
            if not order:
                return []
            rows = (
                conn.execute(
                    _by_key(
                        conn,
                        filters.apply(sa.select(changes, fact_column.label("fact_key"))).where(
                            fact_column.in_(order)
                        ),
                    )
                )
                .mappings()
                .all()
            )
            rows = _queue_sorted(conn, rows)
        by_fact: dict[str, list[ChangeRow]] = {f: [] for f in order}
        for row in rows:
            by_fact[row["fact_key"]].append(ChangeRow.from_mapping(row))
        return [by_fact[f] for f in order if by_fact[f]]

    def fact_members(
        self, change: ChangeRow, filters: QueueFilter, conn: Connection | None = None
    ) -> list[ChangeRow]:
        """The changes (among `filters`) stating the same fact as `change`, in queue order."""
        query = filters.apply(sa.select(changes)).where(fact_column == change.fact_id)
        with self.db.using(conn) as c:
            rows = _queue_sorted(c, c.execute(_by_key(c, query)).mappings().all())
        return [ChangeRow.from_mapping(r) for r in rows if r["profile"] == change.profile]

    @staticmethod
    def _fact_here(conn: Connection, filters: QueueFilter, change: ChangeRow) -> tuple[Any, ...]:
        if _by_fact(filters):
            query = _facts_where(sa.select(*_FACT_ORDER), filters).where(_F.fact == change.fact_id)
        else:
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
        with self.db.begin() as conn:
            here = self._fact_here(conn, filters, change)
            return self._neighbour(conn, filters, change, here, forward)

    def fact_place(
        self, filters: QueueFilter, change: ChangeRow
    ) -> tuple[str | None, str | None, int]:
        """`change`'s place in the queue at once: the leading changes of the facts before and
        after its fact, and its fact's 1-based position (one transaction, its place read once:
        what a change's page shows)."""
        with self.db.begin() as conn:
            here = self._fact_here(conn, filters, change)
            return (
                self._neighbour(conn, filters, change, here, forward=False),
                self._neighbour(conn, filters, change, here, forward=True),
                self._position(conn, filters, here),
            )

    def _neighbour(
        self,
        conn: Connection,
        filters: QueueFilter,
        change: ChangeRow,
        place: tuple[Any, ...],
        forward: bool,
    ) -> str | None:
        """The leading change of the fact after (or before) the fact at `place` (_fact_here)."""
        here = sa.tuple_(*place)
        if _by_fact(filters):
            f, order = _F.fact, _FACT_ORDER
            query = _facts_where(sa.select(f), filters)
        else:
            keys = self._fact_keys(filters)
            f, order = keys.c.f, (keys.c.s, keys.c.c, keys.c.i)
            query = sa.select(f)
        key = sa.tuple_(*order)
        query = query.where(f != change.fact_id)
        if forward:
            query = query.where(key > here).order_by(*order)
        else:
            query = query.where(key < here).order_by(*(c.desc() for c in order))
        found = conn.execute(query.limit(1)).scalar()
        if found is None:
            return None
        query = filters.apply(sa.select(*QUEUE_ORDER)).where(fact_column == found)
        lead = _queue_sorted(conn, conn.execute(_by_key(conn, query)).mappings().all())
        return str(lead[0]["id"]) if lead else None

    def fact_position(self, filters: QueueFilter, change: ChangeRow) -> int:
        """1-based place of `change`'s fact in the queue (the n of "n of N")."""
        with self.db.begin() as conn:
            return self._position(conn, filters, self._fact_here(conn, filters, change))

    def _position(self, conn: Connection, filters: QueueFilter, place: tuple[Any, ...]) -> int:
        here = sa.tuple_(*place)
        if _by_fact(filters):
            query = _facts_where(sa.select(sa.func.count()).select_from(queue_facts), filters)
            query = query.where(sa.tuple_(*_FACT_ORDER) < here)
        else:
            keys = self._fact_keys(filters)
            key = sa.tuple_(keys.c.s, keys.c.c, keys.c.i)
            query = sa.select(sa.func.count()).select_from(keys).where(key < here)
        before = conn.execute(query).scalar()
        return int(before or 0) + 1


def _by_key(conn: Connection, query: Any) -> Any:
    """`query` (changes of some facts) as one range of `ix_changes_status_fact_key`. SQLite,
    which keeps no statistics here, would rather walk the queue's index in its order than sort a
    fact's few changes: there it is left unordered (see _queue_sorted)."""
    return query if conn.dialect.name == "sqlite" else query.order_by(*QUEUE_ORDER)


def _queue_sorted(conn: Connection, rows: Any) -> list[Any]:
    """Rows of `_by_key` in queue order (on SQLite sorted here, by code point as SQLite's
    BINARY collation sorts; elsewhere the database's ORDER BY, in its collation)."""
    if conn.dialect.name != "sqlite":
        return list(rows)
    return sorted(rows, key=lambda r: (r["source_url"], r["created"], r["id"]))


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
