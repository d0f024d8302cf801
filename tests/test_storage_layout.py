"""Storage owns its SQL: no module outside ingest.storage builds or runs a query."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "ingest"

# a query built or run: SQLAlchemy imported for more than the Connection type, raw SQL run
_SQL = re.compile(
    r"^\s*import sqlalchemy|^\s*from sqlalchemy(?!\.engine import Connection$)"
    r"|\.exec_driver_sql\(|\bsa\.(select|insert|update|delete|text)\(|\bSELECT\s+\w",
    re.MULTILINE,
)


def test_no_sql_outside_the_storage_package() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if "storage" in path.relative_to(SRC).parts:
            continue
        for match in _SQL.finditer(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(SRC)}: {match.group(0).strip()}")
    assert offenders == []


def test_the_pattern_sees_a_query() -> None:
    assert _SQL.search("rows = conn.execute(sa.select(changes))")
    assert _SQL.search("import sqlalchemy as sa")
    assert not _SQL.search("from sqlalchemy.engine import Connection")
