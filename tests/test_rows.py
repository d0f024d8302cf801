"""Typed rows made from database results (ingest.storage.rows)."""

from __future__ import annotations

import sqlalchemy as sa

from ingest.storage.rows import SourceRow


def test_a_row_of_some_columns_leaves_the_others_none() -> None:
    engine = sa.create_engine("sqlite://")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE t (url TEXT, etag TEXT, extra TEXT)"))
        conn.execute(sa.text("INSERT INTO t VALUES ('https://x.org/', '\"e\"', 'not a field')"))
        found = conn.execute(sa.text("SELECT * FROM t")).mappings().one()
    row = SourceRow.from_mapping(found)
    assert row.url == "https://x.org/" and row.etag == '"e"'
    assert row.last_sha256 is None and row.settled is None and row.meta is None
    assert "extra" not in row
    assert SourceRow.from_mapping({"url": "u", "fail_streak": 2}) == SourceRow.from_mapping(
        {"url": "u", "fail_streak": 2, "unknown": 1}
    )
