"""Sources and the fetch log: each source's registry entry, validators and last check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ingest.models import Source, iso_z, utcnow
from ingest.storage.database import Database
from ingest.storage.rows import SourceRow
from ingest.storage.schema import fetches, sources

_CHUNK = 500  # URLs to one IN (...) query
# the statements each source's check runs, built once: building and keying a statement anew
# cost more than running it (~0.1 ms each, several per source)
_UPDATE_ROW = sources.update().where(sources.c.url == sa.bindparam("row_url"))
_HAS_ROW = sa.select(sources.c.url).where(sources.c.url == sa.bindparam("row_url"))
_LATEST_OF_EXTRACTOR = (
    sa.select(sources.c.last_sha256)
    .where(
        sources.c.extractor == sa.bindparam("extractor"),
        sources.c.url != sa.bindparam("row_url"),
        sources.c.last_sha256.is_not(None),
    )
    .order_by(sources.c.last_checked.desc())
    .limit(1)
)


_REGISTRY = ("url", "extractor", "meta")  # what `upsert` compares
_REGISTRY_UPDATE = (
    sources.update()
    .where(sources.c.url == sa.bindparam("row_url"))
    .values(extractor=sa.bindparam("extractor"), meta=sa.bindparam("meta"))
)
_VALIDATORS = ("url", "etag", "last_modified", "last_sha256", "final_url")
# what a nightly's check of a source reads: all but the registry entry (`meta`: the run has
# the registry's own Source; its JSON decoded 10,000 times was a fifth of the rows' cost)
_CHECK = tuple(column.name for column in sources.c if column.name != "meta")


@dataclass(frozen=True)
class UnchangedCheck:
    """One source found unchanged, recorded with `Sources.record_unchanged` (its row exists)."""

    url: str
    sha256: str | None
    http_status: int | None
    etag: str | None
    last_modified: str | None
    final_url: str | None


class Sources:
    """The `sources` and `fetches` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def upsert(self, found: list[Source]) -> None:
        """Register sources in one transaction; rows already saying the same are left. Only the
        registry columns are read (not each row's validators and settled check); the new rows
        and the changed ones each written by one statement (executemany), not one a source."""
        with self.db.begin() as conn:
            known = self._rows(conn, [source.url for source in found], _REGISTRY)
            new: dict[str, dict[str, Any]] = {}
            changed: dict[str, dict[str, Any]] = {}
            for source in found:
                meta, row = source.to_json(), known.get(source.url)
                if row is None:
                    new[source.url] = {
                        "url": source.url,
                        "extractor": source.extractor,
                        "meta": meta,
                        "fail_streak": 0,
                    }
                elif row.extractor != source.extractor or row.meta != meta:
                    changed[source.url] = {
                        "row_url": source.url,
                        "extractor": source.extractor,
                        "meta": meta,
                    }
            if new:
                conn.execute(sources.insert(), list(new.values()))
            if changed:
                conn.execute(_REGISTRY_UPDATE, list(changed.values()))

    def discovered(self) -> list[Source]:
        """Sources found in feeds (their registry entry lives in the database), by URL."""
        with self.db.begin() as conn:
            metas = conn.execute(sa.select(sources.c.meta).order_by(sources.c.url)).scalars()
            return [Source.model_validate(m) for m in metas if m and m.get("feed")]

    def state(self, url: str) -> SourceRow | None:
        """The source's row (None: never seen)."""
        return self.states([url]).get(url)

    def states(self, urls: list[str]) -> dict[str, SourceRow]:
        """The rows of these URLs by URL (those with no row are left out)."""
        with self.db.begin() as conn:
            return self._rows(conn, urls)

    def validators(self, urls: list[str]) -> dict[str, SourceRow]:
        """The rows of these URLs with only what a conditional request needs (etag,
        last_modified, last_sha256, final_url; the other fields None): what a fetch job
        carries, without decoding each row's registry entry and settled check."""
        with self.db.begin() as conn:
            return self._rows(conn, urls, _VALIDATORS)

    def checks(self, urls: list[str]) -> dict[str, SourceRow]:
        """`states` without each row's registry entry (`meta` None): what the nightly's
        store-and-diff of a fetched batch reads (ingest.pipeline.batches)."""
        with self.db.begin() as conn:
            return self._rows(conn, urls, _CHECK)

    @staticmethod
    def _rows(
        conn: sa.Connection, urls: list[str], columns: tuple[str, ...] | None = None
    ) -> dict[str, SourceRow]:
        out: dict[str, SourceRow] = {}
        if columns is None:
            query = sa.select(sources)
        else:
            query = sa.select(*(sources.c[name] for name in columns))
        for start in range(0, len(urls), _CHUNK):
            chunk = query.where(sources.c.url.in_(urls[start : start + _CHUNK]))
            for row in conn.execute(chunk).mappings():
                out[row["url"]] = SourceRow.from_mapping(row)
        return out

    def record_unchanged(self, checks: list[UnchangedCheck], run_id: str | None = None) -> None:
        """Many unchanged sources checked at once, in one transaction (their rows exist)."""
        if not checks:
            return
        now = iso_z(utcnow())
        with self.db.begin() as conn:
            conn.execute(
                sources.update()
                .where(sources.c.url == sa.bindparam("u"))
                .values(
                    last_status="unchanged",
                    last_checked=now,
                    fail_streak=0,
                    last_error=None,
                    etag=sa.bindparam("e"),
                    last_modified=sa.bindparam("m"),
                    final_url=sa.bindparam("f"),
                ),
                [{"u": c.url, "e": c.etag, "m": c.last_modified, "f": c.final_url} for c in checks],
            )
        self.db.log(
            fetches,
            [
                {
                    "url": c.url,
                    "status": "unchanged",
                    "sha256": c.sha256,
                    "http_status": c.http_status,
                    "error": None,
                    "run_id": run_id,
                    "at": now,
                }
                for c in checks
            ],
        )

    def update_state(self, url: str, **values: Any) -> None:
        """Set columns of a source's row (created when missing)."""
        unknown = set(values) - set(sources.c.keys())
        if unknown:
            raise TypeError(f"sources has no column {sorted(unknown)}")
        with self.db.begin() as conn:
            # the row is there (the common case): one statement; none matched: made
            if not values or not conn.execute(_UPDATE_ROW, {"row_url": url, **values}).rowcount:
                row = conn.execute(_HAS_ROW, {"row_url": url}).first()
                if row is None:
                    conn.execute(
                        sources.insert().values({"url": url, "meta": {}, "fail_streak": 0} | values)
                    )

    def latest_sha_for_extractor(self, extractor: str, exclude_url: str) -> str | None:
        """The last healthy snapshot of another source read by the same extractor."""
        with self.db.begin() as conn:
            found = conn.execute(
                _LATEST_OF_EXTRACTOR, {"extractor": extractor, "row_url": exclude_url}
            ).scalar()
        return str(found) if found is not None else None

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
        row = {
            "url": url,
            "status": status,
            "sha256": sha256,
            "http_status": http_status,
            "error": error,
            "run_id": run_id,
            "at": iso_z(utcnow()),
        }
        self.db.log(fetches, [row])
